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
 * @summary An open with DIRECT on a file system without O_DIRECT (ramfs)
 *          throws what JDK 25 throws there, a FileSystemException naming
 *          the file, whose reason says DIRECT may be why: through
 *          FileChannel, AsynchronousFileChannel, Files.newByteChannel and
 *          Files' streams, so that a caller probing with catch
 *          (IOException), as Lucene's DirectIODirectory does, sees it.  It
 *          leaves nothing behind: CREATE_NEW or CREATE leave no file, an
 *          existing file keeps its bytes even with TRUNCATE_EXISTING, and
 *          no descriptor leaks.  Uses the ramfs of make test-directio-fs's
 *          matrix when it runs there, else mounts one (needs root).
 * @requires os.family == "linux"
 * @modules jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir ScratchMount
 * @run main/othervm DirectIOOpenCleanup
 */

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOOpenCleanup {

    static final String REASON = "Invalid argument (DIRECT: the file system may not support direct I/O)";

    interface Open {
        void open(Path file, Set<OpenOption> options) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty(DirectIODir.PROPERTY) != null && DirectIODir.type().equals("ramfs")) {
            run(DirectIODir.get());
        } else {
            try (ScratchMount ramfs = ScratchMount.ramfs()) {
                run(ramfs.path());
            }
        }
    }

    static void run(Path dir) throws Exception {
        Map<String, Open> opens = new LinkedHashMap<>();
        opens.put("FileChannel", (f, o) -> FileChannel.open(f, o).close());
        opens.put("AsynchronousFileChannel", (f, o) -> AsynchronousFileChannel.open(f, o, null).close());
        opens.put("Files.newByteChannel", (f, o) -> Files.newByteChannel(f, o).close());
        opens.put("Files.newOutputStream", (f, o) -> {
            o.remove(READ);
            Files.newOutputStream(f, o.toArray(OpenOption[]::new)).close();
        });

        long fds = openDescriptors();
        int refusals = 0;
        for (int round = 0; round < 100; round++) {
            for (Map.Entry<String, Open> e : opens.entrySet()) {
                String how = e.getKey();
                Open open = e.getValue();
                Path f = dir.resolve("new.bin");
                refused(open, f, Set.of(CREATE_NEW, WRITE, DIRECT), how);
                assertFalse(Files.exists(f), how + ": CREATE_NEW + DIRECT left " + f);
                refused(open, f, Set.of(CREATE, WRITE, DIRECT), how);
                assertFalse(Files.exists(f), how + ": CREATE + DIRECT left " + f);

                byte[] data = "data that must survive\n".repeat(100).getBytes();
                Path g = dir.resolve("existing.bin");
                Files.write(g, data);
                refused(open, g, Set.of(CREATE, WRITE, TRUNCATE_EXISTING, DIRECT), how);
                refused(open, g, Set.of(WRITE, TRUNCATE_EXISTING, DIRECT), how);
                refused(open, g, Set.of(READ, DIRECT), how);
                assertEquals(-1, Arrays.mismatch(data, Files.readAllBytes(g)),
                             how + ": the first byte of an existing file that changed");
                Files.delete(g);
                refusals += 5;
            }
        }
        // Files.newInputStream, and the probe a library runs to find out
        // whether a directory takes direct I/O
        Path g = dir.resolve("probe.bin");
        Files.write(g, new byte[4096]);
        refused((f, o) -> Files.newInputStream(f, DIRECT).close(), g, Set.of(READ, DIRECT),
                "Files.newInputStream");
        assertFalse(supportsDirectIO(g), "the IOException probe found direct I/O on ramfs");
        Files.delete(g);

        assertEquals(fds, openDescriptors(), "open descriptors after " + refusals + " refused opens");
        System.out.println(dir + " (ramfs): " + refusals + " refused opens, nothing left behind");
    }

    // How Lucene's DirectIODirectory and its tests find out: IOException
    // means no direct I/O there
    static boolean supportsDirectIO(Path file) {
        try (FileChannel ch = FileChannel.open(file, READ, DIRECT)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void refused(Open open, Path file, Set<OpenOption> options, String how)
        throws IOException
    {
        try {
            open.open(file, new HashSet<>(options));
            fail(how + " opened " + file + " with " + options + " on ramfs");
        } catch (FileSystemException e) {
            // JDK 25's exception and file, with a reason that says why
            assertEquals(FileSystemException.class, e.getClass(), how + " " + options);
            assertEquals(file.toString(), e.getFile(), how + " " + options);
            assertEquals(REASON, e.getReason(), how + " " + options);
        }
    }

    static long openDescriptors() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }
}
