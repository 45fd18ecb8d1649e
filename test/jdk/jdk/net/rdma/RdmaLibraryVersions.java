/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

/*
 * @test
 * @summary Which librdmacm releases get the workarounds of RdmaWorkarounds.c:
 *          bug 1 (cm_svc_run, fixed in v53.0 and v44.7) and bug 3 (connects
 *          that end within rconnect, fixed in v63.0 and backported to each
 *          stable line from v40.13 to v62.1), at the edges of each fix, and
 *          for a library whose version is unknown (-1).  Then the library
 *          this JVM loaded: librdmacm, libibverbs and the rxe provider all
 *          of one rdma-core, the release and directory that
 *          test/infra/rdma-guest/rdma-guest.sh names (RDIO_RDMA_LIBRARY_RELEASE and
 *          RDIO_RDMA_LIBRARY_DIR: Debian 12's 44.0, or with --librdmacm a
 *          release with the fix), and the workarounds on exactly where that
 *          release has the bug: with the cm_svc_run fix, no rounds and no
 *          room limit.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @run main RdmaLibraryVersions
 */

import java.lang.reflect.Method;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.net.Sockets;

import static jdk.test.lib.Asserts.*;

public class RdmaLibraryVersions {
    public static void main(String[] args) throws Exception {
        Class<?> rdmaNet = Class.forName("jdk.internal.net.rdma.RdmaNet");
        Method serviceBug = rdmaNet.getDeclaredMethod("hasServiceBug", int.class);
        Method connectBug = rdmaNet.getDeclaredMethod("hasConnectBug", int.class);
        serviceBug.setAccessible(true);
        connectBug.setAccessible(true);

        // release -> {bug 1, bug 3}
        Object[][] cases = {
            { -1, true, true },
            { 39_000, true, true },
            { 40_012, true, true }, { 40_013, true, false },
            { 43_011, true, true }, { 43_012, true, false },
            { 44_000, true, true }, { 44_006, true, true }, { 44_007, false, true },
            { 44_011, false, true }, { 44_012, false, false },
            { 50_006, true, true }, { 50_007, true, false },
            { 52_005, true, true }, { 52_006, true, false },
            { 53_000, false, true }, { 53_005, false, true }, { 53_006, false, false },
            { 57_002, false, true }, { 57_003, false, false },
            { 62_000, false, true }, { 62_001, false, false },
            { 63_000, false, false }, { 64_000, false, false },
        };
        for (Object[] c : cases) {
            int v = (Integer) c[0];
            String release = v < 0 ? "an unknown release" : (v / 1000) + "." + (v % 1000);
            assertEquals(serviceBug.invoke(null, v), c[1], "cm_svc_run bug (1) in " + release);
            assertEquals(connectBug.invoke(null, v), c[2], "connect-service bug (3) in " + release);
        }
        System.out.println(cases.length + " releases checked");

        loaded((Boolean) serviceBug.invoke(null, intField("LIBRARY_VERSION")),
               (Boolean) connectBug.invoke(null, intField("LIBRARY_VERSION")));
    }

    /*
     * The librdmacm of this JVM, with the libibverbs and rxe provider it
     * loaded (mapped once a socket has opened the device), as release and
     * directory; and the workarounds of its release.
     */
    static void loaded(boolean serviceBug, boolean connectBug) throws Exception {
        int version = intField("LIBRARY_VERSION");
        List<String> maps;
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            maps = Files.readAllLines(Path.of("/proc/self/maps"));
        }
        Path rdmacm = mapped(maps, "librdmacm\\.so\\.1\\.\\d+\\.(\\d+\\.\\d+)");
        Path verbs = mapped(maps, "libibverbs\\.so\\.1\\.\\d+\\.(\\d+\\.\\d+)");
        Path rxe = mapped(maps, "librxe-rdmav\\d+\\.so");
        String release = release(rdmacm);
        System.out.println("loaded: " + rdmacm + ", " + verbs + ", " + rxe + "; RdmaNet.LIBRARY_VERSION " + version);
        assertEquals(release, release(verbs), "the release of libibverbs beside librdmacm " + release);
        assertEquals(rdmacm.getParent(), verbs.getParent(), "the directory of libibverbs");
        assertEquals(verbs.getParent().resolve("libibverbs"), rxe.getParent(),
                     "the rxe provider comes from libibverbs' own provider directory");
        String[] mm = release.split("\\.");
        assertEquals(Integer.parseInt(mm[0]) * 1000 + Integer.parseInt(mm[1]), version,
                     "RdmaNet.LIBRARY_VERSION of librdmacm " + release);

        String expected = System.getenv("RDIO_RDMA_LIBRARY_RELEASE");
        String dir = System.getenv("RDIO_RDMA_LIBRARY_DIR");
        if (expected != null && !expected.isEmpty())
            assertEquals(expected, release, "the release of the librdmacm loaded (RDIO_RDMA_LIBRARY_RELEASE)");
        if (dir != null && !dir.isEmpty())
            assertEquals(Path.of(dir).toRealPath(), rdmacm.getParent(),
                         "the directory of the librdmacm loaded (RDIO_RDMA_LIBRARY_DIR)");
        if (expected == null && dir == null)
            System.out.println("no RDIO_RDMA_LIBRARY_RELEASE or _DIR: the library loaded is not checked against them");

        boolean grown = booleanField("SERVICE_SETS_GROWN");
        int room = intField("SERVICE_CAPACITY"), listenRoom = intField("LISTEN_CAPACITY");
        assertEquals(serviceBug, grown, "the cm_svc_run workaround ran (SERVICE_SETS_GROWN) on librdmacm " + release);
        if (serviceBug) {
            assertLessThan(room, Integer.MAX_VALUE, "room on librdmacm " + release);
            assertLessThan(listenRoom, Integer.MAX_VALUE, "listen room on librdmacm " + release);
        } else {
            assertEquals(Integer.MAX_VALUE, room, "no room limit on librdmacm " + release);
            assertEquals(Integer.MAX_VALUE, listenRoom, "no listen room limit on librdmacm " + release);
        }
        assertEquals(connectBug, booleanField("CONNECT_UNSERVED"),
                     "the connect-service workaround (CONNECT_UNSERVED) on librdmacm " + release);
        System.out.println("librdmacm " + release + " in " + rdmacm.getParent() + ": cm_svc_run workaround "
                + (grown ? "on (room for " + room + " sockets, " + listenRoom + " listeners)" : "off (no room limit)")
                + ", connect-service workaround " + (connectBug ? "on" : "off"));
    }

    /** The one file mapped whose name matches regex. */
    static Path mapped(List<String> maps, String regex) {
        Pattern p = Pattern.compile("\\s(/\\S*/" + regex + ")$");
        List<Path> files = maps.stream().map(p::matcher).filter(Matcher::find)
                .map(m -> Path.of(m.group(1))).distinct().toList();
        assertEquals(1, files.size(), "files mapped like " + regex + ": " + files);
        return files.get(0);
    }

    /** The release, major.minor, at the end of a library's file name. */
    static String release(Path lib) {
        Matcher m = Pattern.compile("\\.(\\d+\\.\\d+)$").matcher(lib.getFileName().toString());
        assertTrue(m.find(), "a release in the name of " + lib);
        return m.group(1);
    }

    static int intField(String name) throws Exception {
        return (Integer) RdmaTestLib.rdmaNetField(name);
    }

    static boolean booleanField(String name) throws Exception {
        return (Boolean) RdmaTestLib.rdmaNetField(name);
    }
}
