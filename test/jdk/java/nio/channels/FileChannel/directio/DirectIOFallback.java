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
 * @summary Direct I/O where JDK 25 worked keeps working.  On ext4 mounted
 *          with data=journal, statx reports a direct I/O alignment of 0:
 *          DIRECT opens anyway, aligns to the block size as JDK 25 does, and
 *          DirectIO reports that block size as not exact.  A scatter/gather
 *          transfer skips a misaligned buffer with nothing remaining, as
 *          JDK 25 did.  Needs root, to mount the ext4 image.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir ScratchMount
 * @run main/othervm DirectIOFallback
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import jdk.nio.DirectIO;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOFallback {

    public static void main(String[] args) throws Exception {
        try (ScratchMount journal = ScratchMount.ext4("data=journal")) {
            journalled(journal.path());
        }
        emptyBuffersSkipped(DirectIODir.get());
    }

    static void journalled(Path dir) throws Exception {
        Path f = dir.resolve("journalled.bin");
        Files.write(f, new byte[0]);
        int block = (int) Files.getFileStore(f).getBlockSize();
        DirectIO.Alignment a = DirectIO.alignment(f);
        System.out.println("ext4 data=journal: " + a + ", block size " + block);
        assertFalse(a.isExact(), "data=journal: the alignment is a fallback");
        assertEquals(block, a.memory());
        assertEquals(block, a.offset());
        assertEquals(block, a.readOffset());

        ByteBuffer out = aligned(2 * block, block);
        for (int i = 0; out.hasRemaining(); i++)
            out.put((byte) (i * 7));
        out.flip();
        try (FileChannel ch = FileChannel.open(f, READ, WRITE, DIRECT)) {
            assertEquals(a, DirectIO.alignment(ch).orElseThrow(), "the channel's alignment");
            assertEquals(2 * block, ch.write(out, block));
            ByteBuffer in = aligned(2 * block, block);
            assertEquals(2 * block, ch.read(in, block));
            assertEquals(-1, out.rewind().mismatch(in.flip()), "the first byte read back that differs");
            IOException e = assertThrows(IOException.class, () -> ch.read(aligned(block, block), 512));
            assertEquals("Direct I/O: file position 512 is not a multiple of the"
                         + " offset alignment " + block, e.getMessage());
        }
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(f, READ, DIRECT)) {
            ByteBuffer in = aligned(2 * block, block);
            assertEquals(2 * block, ch.read(in, block).get());
            assertEquals(-1, out.rewind().mismatch(in.flip()), "the first byte read back asynchronously that differs");
        }
    }

    static void emptyBuffersSkipped(Path dir) throws Exception {
        Path f = dir.resolve("empty-buffers.bin");
        Files.deleteIfExists(f);
        try (FileChannel ch = FileChannel.open(f, CREATE_NEW, READ, WRITE, DIRECT)) {
            int m = DirectIO.alignment(ch).orElseThrow().memory();
            int o = DirectIO.alignment(ch).orElseThrow().offset();
            ByteBuffer full = aligned(o, m);
            for (int i = 0; full.hasRemaining(); i++)
                full.put((byte) i);
            full.flip();
            // one byte past an aligned address, with nothing remaining
            ByteBuffer empty = aligned(2 * m, m).position(1).limit(1).slice();
            assertEquals((long) o, ch.write(new ByteBuffer[] { empty, full, empty }),
                         "gathering write with empty misaligned buffers");
            ByteBuffer back = aligned(o, m);
            ch.position(0);
            assertEquals((long) o, ch.read(new ByteBuffer[] { empty, back, empty }),
                         "scattering read with empty misaligned buffers");
            assertEquals(-1, full.flip().mismatch(back.flip()), "the first byte read back that differs");
        }
        Files.delete(f);
    }

    static ByteBuffer aligned(int size, int alignment) {
        return ByteBuffer.allocateDirect(size + alignment).alignedSlice(alignment).slice(0, size);
    }
}
