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
 * @summary A file whose size is not a multiple of the direct I/O alignment:
 *          written with DIRECT by padding the last block and truncating
 *          (the recipe of doc/jep-direct-io.md), and read back with DIRECT,
 *          where reads at and past EOF return the right counts.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir
 * @run main/othervm DirectIOTails
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOTails {

    public static void main(String[] args) throws Exception {
        Path file = DirectIODir.get().resolve("tail.bin");
        Files.deleteIfExists(file);
        Files.createFile(file);
        DirectIO.Alignment a = DirectIO.alignment(file);
        int off = a.offset();
        // Three and a bit blocks: the tail is 100 bytes.
        int size = 3 * off + 100;
        int padded = 4 * off;
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++)
            data[i] = (byte) (i * 7 + 1);

        // Write: the data padded to whole blocks, from aligned memory, then
        // cut the file back to its size.
        ByteBuffer buf = ByteBuffer.allocateDirect(padded + a.memory() - 1).alignedSlice(a.memory()).slice(0, padded);
        buf.put(data).position(padded).flip();
        try (FileChannel ch = FileChannel.open(file, WRITE, ExtendedOpenOption.DIRECT)) {
            assertEquals(padded, ch.write(buf, 0), "padded write");
            ch.truncate(size);
            assertEquals((long) size, ch.size(), "size after truncate");
        }
        assertEquals((long) size, Files.size(file), "file size");
        assertEquals(-1, Arrays.mismatch(data, Files.readAllBytes(file)), "the first byte of the file that differs");

        try (FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            // A whole-file read of the padded size returns the file's size.
            buf.clear();
            assertEquals(size, ch.read(buf, 0), "positional read of " + padded + " at 0");
            assertEquals(-1, buf.flip().mismatch(ByteBuffer.wrap(data)), "the first byte read that differs");
            // The last block: only the tail.
            buf.clear().limit(off);
            assertEquals(100, ch.read(buf, 3L * off), "read of the last block");
            // At EOF and past it: -1.
            buf.clear().limit(off);
            assertEquals(-1, ch.read(buf, padded), "positional read at the padded end");
            buf.clear().limit(off);
            assertEquals(-1, ch.read(buf, 8L * off), "positional read past EOF");
            // Relative: whole blocks, then the tail, then -1.
            ch.position(0);
            buf.clear().limit(2 * off);
            assertEquals(2 * off, ch.read(buf), "relative read 1");
            buf.clear().limit(2 * off);
            assertEquals(off + 100, ch.read(buf), "relative read 2 (to EOF)");
            assertEquals((long) size, ch.position(), "channel position at EOF");
            // The position is now unaligned: the next relative read is
            // refused, and says why.
            buf.clear().limit(off);
            IOException e = assertThrows(IOException.class, () -> ch.read(buf),
                                         "relative read at the unaligned EOF position " + size);
            assertTrue(e.getMessage().contains("file position " + size),
                       "the message \"" + e.getMessage() + "\" names the position " + size);
            System.out.println("relative read at EOF position " + size + ": " + e.getMessage());
            ch.position(padded);
            buf.clear().limit(off);
            assertEquals(-1, ch.read(buf), "relative read at the aligned end");
        }
    }
}
