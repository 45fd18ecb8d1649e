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
 * @summary An open with DIRECT that fails leaves nothing behind: on a file
 *          system without O_DIRECT (ramfs), FileChannel and
 *          AsynchronousFileChannel opens with CREATE_NEW or CREATE throw
 *          UnsupportedOperationException and leave no file, an existing
 *          file keeps its bytes even with TRUNCATE_EXISTING, and no
 *          descriptor leaks.  Needs root, to mount the ramfs.
 * @requires os.family == "linux"
 * @modules jdk.unsupported
 * @library lib /test/lib
 * @build ScratchMount
 * @run main/othervm DirectIOOpenCleanup
 */

import java.io.IOException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOOpenCleanup {

    interface Open {
        void open(Path file, Set<OpenOption> options) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        try (ScratchMount ramfs = ScratchMount.ramfs()) {
            Path dir = ramfs.path();
            Open fc = (f, o) -> FileChannel.open(f, o).close();
            Open afc = (f, o) -> AsynchronousFileChannel.open(f, o, null).close();
            long fds = openDescriptors();
            for (int round = 0; round < 100; round++) {
                for (Open open : new Open[] { fc, afc }) {
                    String how = (open == fc) ? "FileChannel" : "AsynchronousFileChannel";
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
                    assertEquals(-1, Arrays.mismatch(data, Files.readAllBytes(g)),
                                 how + ": the first byte of an existing file that changed");
                    Files.delete(g);
                }
            }
            assertEquals(fds, openDescriptors(), "open descriptors after 800 refused opens");
            System.out.println("ramfs: 800 refused opens, nothing left behind");
        }
    }

    static void refused(Open open, Path file, Set<OpenOption> options, String how)
        throws IOException
    {
        try {
            open.open(file, options);
            fail(how + " opened " + file + " with " + options + " on ramfs");
        } catch (UnsupportedOperationException e) {
            assertEquals("Direct I/O is not supported by the file system of " + file, e.getMessage(),
                         how + " " + options);
        }
    }

    static long openDescriptors() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }
}
