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
 * @library lib
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

public class DontCacheOption {

    static void check(boolean ok, String what) {
        if (!ok)
            throw new AssertionError(what);
        System.out.println("ok: " + what);
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (i * 13 + seed);
        return b;
    }

    public static void main(String[] args) throws Exception {
        Path file = DirectIODir.get().resolve("dontcache.bin");
        byte[] a = bytes(10_001, 1), b = bytes(777, 2), c = bytes(3, 3);
        try (FileChannel ch = FileChannel.open(file, CREATE, TRUNCATE_EXISTING, READ, WRITE, DONTCACHE)) {
            check(ch.write(ByteBuffer.wrap(a)) == a.length, "relative write of " + a.length + " heap bytes");
            check(ch.position() == a.length, "position advanced to " + a.length);
            ByteBuffer d = ByteBuffer.allocateDirect(b.length + 1).position(1);
            d.put(b).position(1);
            check(ch.write(d, 5) == b.length, "positional write of " + b.length + " direct bytes at 5");
            check(ch.position() == a.length, "positional write left the position");
            long n = ch.write(new ByteBuffer[] { ByteBuffer.wrap(c), ByteBuffer.wrap(b) });
            check(n == c.length + b.length, "gathering write of " + n);
            check(ch.size() == a.length + c.length + b.length, "size " + ch.size());

            byte[] want = new byte[(int) ch.size()];
            System.arraycopy(a, 0, want, 0, a.length);
            System.arraycopy(b, 0, want, 5, b.length);
            System.arraycopy(c, 0, want, a.length, c.length);
            System.arraycopy(b, 0, want, a.length + c.length, b.length);

            ByteBuffer all = ByteBuffer.allocate(want.length + 10);
            check(ch.read(all, 0) == want.length, "positional read of the whole file");
            check(Arrays.equals(Arrays.copyOf(all.array(), want.length), want), "the bytes read are those written");
            ch.position(3);
            ByteBuffer x = ByteBuffer.allocate(11), y = ByteBuffer.allocateDirect(5);
            check(ch.read(new ByteBuffer[] { x, y }) == 16, "scattering read of 16 at 3");
            check(ch.position() == 19, "position after the scattering read");
            check(Arrays.equals(x.array(), Arrays.copyOfRange(want, 3, 14)) && y.get(0) == want[14],
                  "scattered bytes");
            check(ch.read(ByteBuffer.allocate(1), want.length) == -1, "positional read at EOF gives -1");
            ch.position(want.length);
            check(ch.read(ByteBuffer.allocate(1)) == -1, "relative read at EOF gives -1");
        }
        check(Arrays.equals(Files.readAllBytes(file), Files.readAllBytes(file)), "stable");

        // APPEND
        try (FileChannel ch = FileChannel.open(file, APPEND, DONTCACHE)) {
            long size = ch.size();
            ch.write(ByteBuffer.wrap(c));
            check(Files.size(file) == size + c.length, "append");
        }

        try {
            FileChannel.open(file, READ, DONTCACHE, ExtendedOpenOption.DIRECT).close();
            throw new AssertionError("DIRECT + DONTCACHE accepted");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().equals("DIRECT + DONTCACHE not allowed"), "DIRECT + DONTCACHE: " + e.getMessage());
        }
        try {
            AsynchronousFileChannel.open(file, READ, DONTCACHE).close();
            throw new AssertionError("AsynchronousFileChannel took DONTCACHE");
        } catch (UnsupportedOperationException e) {
            check(e.getMessage().equals("DONTCACHE not supported"), "AsynchronousFileChannel: " + e.getMessage());
        }
    }
}
