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
 *          for a library whose version is unknown (-1).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @run main RdmaLibraryVersions
 */

import java.lang.reflect.Method;

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
    }
}
