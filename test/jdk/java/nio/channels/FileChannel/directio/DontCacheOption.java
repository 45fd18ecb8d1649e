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
 * @summary ExtendedOpenOption.DONTCACHE: buffered I/O without alignment
 *          rules (odd positions, lengths and heap buffers; positional,
 *          relative, scatter and gather; append) moves the right bytes;
 *          DIRECT + DONTCACHE is an IllegalArgumentException;
 *          AsynchronousFileChannel refuses it.  (DontCacheHint covers file
 *          systems that refuse the hint.)
 * @requires os.family == "linux"
 * @modules jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir
 * @run main/othervm DontCacheOption
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import com.sun.nio.file.ExtendedOpenOption;

import static com.sun.nio.file.ExtendedOpenOption.DONTCACHE;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DontCacheOption {

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (i * 13 + seed);
        return b;
    }

    public static void main(String[] args) throws Exception {
        Path file = DirectIODir.get().resolve("dontcache.bin");
        byte[] a = bytes(10_001, 1), b = bytes(777, 2), c = bytes(3, 3);
        byte[] want;
        try (FileChannel ch = FileChannel.open(file, CREATE, TRUNCATE_EXISTING, READ, WRITE, DONTCACHE)) {
            assertEquals(a.length, ch.write(ByteBuffer.wrap(a)), "relative write of " + a.length + " heap bytes");
            assertEquals((long) a.length, ch.position(), "position after the relative write");
            ByteBuffer d = ByteBuffer.allocateDirect(b.length + 1).position(1);
            d.put(b).position(1);
            assertEquals(b.length, ch.write(d, 5), "positional write of " + b.length + " direct bytes at 5");
            assertEquals((long) a.length, ch.position(), "position after the positional write");
            long n = ch.write(new ByteBuffer[] { ByteBuffer.wrap(c), ByteBuffer.wrap(b) });
            assertEquals((long) c.length + b.length, n, "gathering write");
            assertEquals((long) a.length + c.length + b.length, ch.size(), "size after the writes");

            want = new byte[(int) ch.size()];
            System.arraycopy(a, 0, want, 0, a.length);
            System.arraycopy(b, 0, want, 5, b.length);
            System.arraycopy(c, 0, want, a.length, c.length);
            System.arraycopy(b, 0, want, a.length + c.length, b.length);

            ByteBuffer all = ByteBuffer.allocate(want.length + 10);
            assertEquals(want.length, ch.read(all, 0), "positional read of the whole file");
            assertEquals(-1, Arrays.mismatch(want, Arrays.copyOf(all.array(), want.length)),
                         "the first byte read that differs from those written");
            ch.position(3);
            ByteBuffer x = ByteBuffer.allocate(11), y = ByteBuffer.allocateDirect(5);
            assertEquals(16L, ch.read(new ByteBuffer[] { x, y }), "scattering read of 16 at 3");
            assertEquals(19L, ch.position(), "position after the scattering read");
            assertEqualsByteArray(Arrays.copyOfRange(want, 3, 14), x.array(), "scattered bytes, first buffer");
            assertEquals(want[14], y.get(0), "scattered bytes, second buffer's first byte");
            assertEquals(-1, ch.read(ByteBuffer.allocate(1), want.length), "positional read at EOF");
            ch.position(want.length);
            assertEquals(-1, ch.read(ByteBuffer.allocate(1)), "relative read at EOF");
        }
        assertEquals(-1, Arrays.mismatch(want, Files.readAllBytes(file)),
                     "after close, the first byte of the file that differs from those written");

        // APPEND
        try (FileChannel ch = FileChannel.open(file, APPEND, DONTCACHE)) {
            long size = ch.size();
            ch.write(ByteBuffer.wrap(c));
            assertEquals(size + c.length, Files.size(file), "file size after an append");
        }

        IllegalArgumentException iae = assertThrows(IllegalArgumentException.class,
                () -> FileChannel.open(file, READ, DONTCACHE, ExtendedOpenOption.DIRECT).close(),
                "DIRECT + DONTCACHE");
        assertEquals("DIRECT + DONTCACHE not allowed", iae.getMessage(), "DIRECT + DONTCACHE");
        UnsupportedOperationException uoe = assertThrows(UnsupportedOperationException.class,
                () -> AsynchronousFileChannel.open(file, READ, DONTCACHE).close(),
                "AsynchronousFileChannel with DONTCACHE");
        assertEquals("DONTCACHE not supported", uoe.getMessage(), "AsynchronousFileChannel with DONTCACHE");
    }
}
