/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package sun.nio.ch;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The alignment that direct I/O on one file needs.
 *
 * <p> The kernel has these rules: the address of every buffer must be a
 * multiple of {@code memory}; the file position and the length of every
 * buffer must be multiples of {@code offset} for a write and of
 * {@code readOffset} for a read.  Linux reports them with
 * {@code statx(STATX_DIOALIGN)} and, since 6.14, {@code STATX_DIO_READ_ALIGN}
 * ({@code exact} is then true); where it does not, all are the file
 * system's block size, the rule of JDK 10 to 25, which may be stricter than
 * the kernel's.
 *
 * <p> The check methods throw an {@code IOException} that names what is
 * misaligned, its value and the alignment required.
 *
 * @param memory     alignment of buffer addresses, a power of two
 * @param offset     alignment of file positions and lengths of writes, a power of two
 * @param readOffset alignment of file positions and lengths of reads, a power of two
 * @param exact      whether the kernel reported the values for this file
 */
public record DirectIOAlignment(int memory, int offset, int readOffset, boolean exact) {

    public DirectIOAlignment {
        if (Integer.bitCount(memory) != 1 || Integer.bitCount(offset) != 1
                || Integer.bitCount(readOffset) != 1)
            throw new InternalError("direct I/O alignment " + memory + "/"
                                    + offset + "/" + readOffset + " is not a power of two");
    }

    /**
     * All alignments the file system's block size, as upstream has them.
     */
    static DirectIOAlignment ofBlockSize(int blockSize) {
        return new DirectIOAlignment(blockSize, blockSize, blockSize, false);
    }

    /*
     * The platform's query of a file's alignment, where it has one: on Linux
     * LinuxDirectIO.query, found by name so that this class compiles on
     * every platform.
     */
    private static final class PlatformQuery {
        static final MethodHandle QUERY = find();

        private static MethodHandle find() {
            Class<?> c;
            try {
                c = Class.forName("sun.nio.ch.LinuxDirectIO");
            } catch (ClassNotFoundException e) {
                return null;
            }
            try {
                return MethodHandles.lookup().findStatic(c, "query",
                        MethodType.methodType(DirectIOAlignment.class, Path.class));
            } catch (ReflectiveOperationException e) {
                throw new InternalError(e);
            }
        }
    }

    /**
     * Queries the direct I/O alignment of a file of the default file
     * system without opening it.  Where the platform has no query of its
     * own, the alignment is the block size of the file's store, the value
     * a channel opened with DIRECT enforces there.
     *
     * @throws FileSystemException naming the file if it is a directory, or
     *         (where the platform tells) not a regular file or block device
     * @throws IOException if its attributes cannot be read
     */
    public static DirectIOAlignment query(Path file) throws IOException {
        MethodHandle mh = PlatformQuery.QUERY;
        if (mh != null) {
            try {
                return (DirectIOAlignment) mh.invokeExact(file);
            } catch (IOException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new InternalError(t);
            }
        }
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null,
                "Direct I/O does not apply to a directory");
        }
        long blockSize = Files.getFileStore(file).getBlockSize();
        return ofBlockSize(Math.toIntExact(blockSize));
    }

    void checkReadPosition(long position) throws IOException {
        checkPosition(position, readOffset, " of reads");
    }

    void checkWritePosition(long position) throws IOException {
        checkPosition(position, offset, " of writes");
    }

    /**
     * Checks the length of one read, the remaining bytes of one buffer.
     */
    void checkReadLength(int length) throws IOException {
        checkLength(length, readOffset, " of reads");
    }

    /**
     * Checks the length of one write, the remaining bytes of one buffer.
     */
    void checkWriteLength(int length) throws IOException {
        checkLength(length, offset, " of writes");
    }

    // The errors say which alignment only where reads and writes differ
    private void checkPosition(long position, int alignment, String which)
        throws IOException
    {
        if ((position & (alignment - 1)) != 0) {
            throw new IOException("Direct I/O: file position " + position
                + " is not a multiple of the offset alignment"
                + (readOffset != offset ? which : "") + " " + alignment);
        }
    }

    private void checkLength(int length, int alignment, String which)
        throws IOException
    {
        if ((length & (alignment - 1)) != 0) {
            throw new IOException("Direct I/O: length " + length
                + " (the bytes remaining in the buffer) is not a multiple"
                + " of the offset alignment"
                + (readOffset != offset ? which : "") + " " + alignment);
        }
    }

    /**
     * Checks the address of a direct buffer at its position {@code pos}.
     * A heap buffer needs no check: it is copied into an aligned one.
     */
    void checkAddress(ByteBuffer bb, int pos) throws IOException {
        if (bb instanceof DirectBuffer db) {
            long address = db.address() + pos;
            if ((address & (memory - 1)) != 0) {
                throw new IOException("Direct I/O: buffer address 0x"
                    + Long.toHexString(address) + " (at buffer position " + pos
                    + ") is not a multiple of the memory alignment " + memory);
            }
        }
    }
}
