/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

package sun.nio.ch;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The alignment that direct I/O on one file needs.
 *
 * <p> The kernel has two rules: the address of every buffer must be a
 * multiple of {@code memory}, and the file position and the length of every
 * buffer must be multiples of {@code offset}.  Linux reports both with
 * {@code statx(STATX_DIOALIGN)} ({@code exact} is then true); where it does
 * not, both are the file system's block size, the rule of JDK 10 to 25,
 * which may be stricter than the kernel's.
 *
 * <p> The check methods throw an {@code IOException} that names what is
 * misaligned, its value and the alignment required.
 *
 * @param memory alignment of buffer addresses, a power of two
 * @param offset alignment of file positions and lengths, a power of two
 * @param exact  whether the kernel reported the two values for this file
 */
public record DirectIOAlignment(int memory, int offset, boolean exact) {

    public DirectIOAlignment {
        if (Integer.bitCount(memory) != 1 || Integer.bitCount(offset) != 1)
            throw new InternalError("direct I/O alignment " + memory + "/"
                                    + offset + " is not a power of two");
    }

    /**
     * Both alignments the file system's block size, as upstream has them.
     */
    static DirectIOAlignment ofBlockSize(int blockSize) {
        return new DirectIOAlignment(blockSize, blockSize, false);
    }

    /**
     * Checks a file position.
     */
    void checkPosition(long position) throws IOException {
        if ((position & (offset - 1)) != 0) {
            throw new IOException("Direct I/O: file position " + position
                + " is not a multiple of the offset alignment " + offset);
        }
    }

    /**
     * Checks the length of one transfer, the remaining bytes of one buffer.
     */
    void checkLength(int length) throws IOException {
        if ((length & (offset - 1)) != 0) {
            throw new IOException("Direct I/O: length " + length
                + " (the bytes remaining in the buffer) is not a multiple"
                + " of the offset alignment " + offset);
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
