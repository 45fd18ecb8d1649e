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

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * 4 KiB blocks that say what they are, for tests that write many blocks
 * concurrently and read them back: each holds a magic number, the number
 * of its file (a test's own numbering), its block number, its write
 * generation, a payload seeded by those three, and a CRC32C of everything
 * before it.  A test compares what it reads with the bytes {@link #of}
 * makes for the block and generation it expects; the header and checksum
 * only make a failure's message say what was found instead: an older
 * generation (a lost write), another block's data (a misplaced one), or a
 * block whose checksum is wrong (a torn one).
 */
public final class Blocks {
    public static final int SIZE = 4096;

    private static final long MAGIC = 0x756f692d6f696472L;    // "rdio-iou", little-endian
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Blocks() { }

    /** The bytes of block {@code block} of file {@code file} at generation {@code gen}. */
    public static byte[] of(int file, long block, long gen) {
        byte[] a = new byte[SIZE];
        LONG.set(a, 0, MAGIC);
        INT.set(a, 8, file);
        INT.set(a, 12, SIZE);
        LONG.set(a, 16, block);
        LONG.set(a, 24, gen);
        long s = (file * 0x9E3779B97F4A7C15L) ^ (block * 0xC2B2AE3D27D4EB4FL) ^ (gen * 0x165667B19E3779F9L);
        for (int i = 32; i < SIZE - 8; i += 8)
            LONG.set(a, i, mix(s += 0x9E3779B97F4A7C15L));
        INT.set(a, SIZE - 8, (int) mix(s + 0x9E3779B97F4A7C15L));
        CRC32C crc = new CRC32C();
        crc.update(a, 0, SIZE - 4);
        INT.set(a, SIZE - 4, (int) crc.getValue());
        return a;
    }

    // splitmix64's finalizer
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Puts blocks {@code first} to {@code first + count - 1} at generation
     * gens[i - first] (or gens[0] for all, if gens has one element) into
     * dst at its position, advancing it.
     */
    public static void put(ByteBuffer dst, int file, long first, int count, long... gens) {
        for (int i = 0; i < count; i++)
            dst.put(of(file, first + i, gens.length == 1 ? gens[0] : gens[i]));
    }

    /**
     * Whether the SIZE bytes of buf at index (absolute) are block
     * {@code block} of file {@code file} at generation {@code gen}, byte
     * for byte.
     */
    public static boolean matches(ByteBuffer buf, int index, int file, long block, long gen) {
        return ByteBuffer.wrap(of(file, block, gen)).mismatch(buf.slice(index, SIZE)) < 0;
    }

    /**
     * Fails unless a read of block {@code block} that returned n filled
     * buf from index 0 with that block at generation {@code gen}, saying
     * what it holds instead.
     */
    public static void check(ByteBuffer buf, int n, int file, long block, long gen) {
        if (n != SIZE)
            throw new AssertionError("read " + n + " bytes of block " + block + ", not " + SIZE);
        if (!matches(buf, 0, file, block, gen))
            throw new AssertionError("block " + block + " holds " + describe(buf, 0));
    }

    /**
     * Writes a new file at path holding blocks 0 to count - 1 of file
     * number {@code file} at generation 1, and returns path.
     */
    public static Path create(Path path, int file, int count) throws IOException {
        ByteBuffer all = ByteBuffer.allocate(count * SIZE);
        put(all, file, 0, count, 1);
        return Files.write(path, all.array());
    }

    /** A direct buffer of size bytes whose address is a multiple of SIZE, as DIRECT I/O needs. */
    public static ByteBuffer aligned(int size) {
        return ByteBuffer.allocateDirect(size + SIZE).alignedSlice(SIZE).slice(0, size);
    }

    /**
     * Fills buf with bytes that no block holds and clears it, so that a
     * read whose data does not land in it is seen.
     */
    public static ByteBuffer spoil(ByteBuffer buf) {
        for (int i = 0; i < buf.capacity(); i++)
            buf.put(i, (byte) 0xEE);
        return buf.clear();
    }

    /** What the SIZE bytes of buf at index (absolute) hold, for a failure's message. */
    public static String describe(ByteBuffer buf, int index) {
        byte[] a = new byte[SIZE];
        buf.get(index, a);
        if ((long) LONG.get(a, 0) != MAGIC) {
            boolean zeros = true;
            for (byte b : a)
                zeros &= b == 0;
            return zeros ? "zeros" : "no block (no magic number; first bytes "
                    + java.util.HexFormat.of().formatHex(a, 0, 16) + ")";
        }
        CRC32C crc = new CRC32C();
        crc.update(a, 0, SIZE - 4);
        boolean intact = (int) crc.getValue() == (int) INT.get(a, SIZE - 4);
        return "file " + (int) INT.get(a, 8) + " block " + (long) LONG.get(a, 16) + " generation "
                + (long) LONG.get(a, 24) + (intact ? ", checksum good" : ", checksum BAD (torn or corrupted)");
    }
}
