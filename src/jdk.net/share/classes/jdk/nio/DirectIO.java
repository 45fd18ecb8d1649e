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

package jdk.nio;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.util.Objects;
import java.util.Optional;

import sun.nio.ch.DirectIOAlignment;
import sun.nio.ch.FileChannelImpl;

/**
 * Tells what alignment direct I/O on a file needs, and whether a channel
 * keeps a file's data out of the page cache.
 *
 * <p> A {@code FileChannel} opened with
 * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} reads and writes only
 * if the address of each buffer is a multiple of the file's <em>memory
 * alignment</em>, and the file position and each buffer's remaining bytes
 * are multiples of its <em>offset alignment</em> (for a read, of its
 * <em>read offset alignment</em>); otherwise it throws an
 * {@code IOException} that names the misaligned value.  Heap buffers need
 * no memory alignment: the channel copies them into aligned native memory.
 * A program can size and align its buffers with
 * {@link java.nio.ByteBuffer#alignedSlice(int)} and the values returned
 * here, before it opens the file.
 *
 * <p> On Linux the values come from {@code statx} with
 * {@code STATX_DIOALIGN} (for regular files from Linux 6.1, for block
 * devices from 6.11), and the read offset alignment from
 * {@code STATX_DIO_READ_ALIGN} (from 6.14), where the file system reports
 * them.
 * They may be smaller than the file system's block size, the value
 * {@link java.nio.file.FileStore#getBlockSize()} returns.  Where the file
 * system reports nothing, all values are the block size and
 * {@link Alignment#isExact()} is {@code false}.  On other operating
 * systems all values are the block size of the file's store, and
 * {@code isExact()} is {@code false}.
 *
 * @since rdio 1
 */
public final class DirectIO {

    private DirectIO() { }

    /**
     * The alignment that direct I/O on one file needs.  Instances are
     * obtained from {@link DirectIO#alignment(Path)} and
     * {@link DirectIO#alignment(FileChannel)}.
     *
     * @since rdio 1
     */
    public static final class Alignment {
        private final int memory;
        private final int offset;
        private final int readOffset;
        private final boolean exact;

        private Alignment(DirectIOAlignment a) {
            this.memory = a.memory();
            this.offset = a.offset();
            this.readOffset = a.readOffset();
            this.exact = a.exact();
        }

        /**
         * {@return the alignment of buffer addresses, in bytes: a power of two}
         */
        public int memory() {
            return memory;
        }

        /**
         * {@return the alignment of file positions and transfer lengths of
         * writes, in bytes: a power of two}
         */
        public int offset() {
            return offset;
        }

        /**
         * Returns the alignment of file positions and transfer lengths of
         * reads, in bytes: a power of two, never larger than
         * {@link #offset()}.  It is smaller only where the kernel reports a
         * read alignment of its own ({@code STATX_DIO_READ_ALIGN}).
         *
         * @return the read offset alignment
         */
        public int readOffset() {
            return readOffset;
        }

        /**
         * Tells whether the operating system reported these values for the
         * file.  If {@code false}, they are the file system's block size,
         * which is never smaller than what the file needs; the file system
         * may then still refuse direct I/O when the file is opened.
         *
         * @return {@code true} if the values are the kernel's own
         */
        public boolean isExact() {
            return exact;
        }

        /**
         * {@return whether {@code obj} is an {@code Alignment} with the same values}
         *
         * @param obj the object to compare with
         */
        @Override
        public boolean equals(Object obj) {
            return obj instanceof Alignment a && a.memory == memory && a.offset == offset
                && a.readOffset == readOffset && a.exact == exact;
        }

        @Override
        public int hashCode() {
            return Objects.hash(memory, offset, readOffset, exact);
        }

        /**
         * {@return a string such as
         * {@code "Alignment[memory=512, offset=4096, readOffset=512, exact=true]"}}
         */
        @Override
        public String toString() {
            return "Alignment[memory=" + memory + ", offset=" + offset
                + ", readOffset=" + readOffset + ", exact=" + exact + "]";
        }
    }

    /**
     * Returns the direct I/O alignment of a file.  The file is not opened:
     * asking about a FIFO or a device has no effect on it.
     *
     * @param file a regular file or a block device
     * @return the file's alignment
     * @throws NullPointerException if {@code file} is {@code null}
     * @throws ProviderMismatchException if {@code file} is not a path of
     *         the default file system
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws FileSystemException if the file is a directory or, on Linux,
     *         a FIFO, a socket or a character device, for which direct I/O
     *         means nothing; the exception names the file
     * @throws IOException if another I/O error occurs
     */
    public static Alignment alignment(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        if (file.getFileSystem() != FileSystems.getDefault())
            throw new ProviderMismatchException("Not a path of the default file system: " + file);
        return new Alignment(DirectIOAlignment.query(file));
    }

    /**
     * Returns the alignment that a channel opened with
     * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} enforces, for code
     * that holds the channel but not its path.
     *
     * @param channel a file channel
     * @return the alignment, or an empty {@code Optional} if the channel
     *         was not opened with {@code DIRECT}
     * @throws NullPointerException if {@code channel} is {@code null}
     * @throws ClosedChannelException if the channel is closed
     * @throws IOException if another I/O error occurs
     */
    public static Optional<Alignment> alignment(FileChannel channel) throws IOException {
        Objects.requireNonNull(channel, "channel");
        if (channel instanceof FileChannelImpl fci) {
            DirectIOAlignment a = fci.directIOAlignment();
            return (a == null) ? Optional.empty() : Optional.of(new Alignment(a));
        }
        if (!channel.isOpen())
            throw new ClosedChannelException();
        return Optional.empty();
    }

    /**
     * Tells whether reads and writes through a channel leave the file's
     * data out of the page cache: the channel was opened with
     * {@code com.sun.nio.file.ExtendedOpenOption.DONTCACHE} and the
     * operating system honours it for the file.
     *
     * <p> {@code DONTCACHE} is a hint: where the kernel or the file system
     * refuses it, the channel does ordinary buffered I/O and this method
     * returns {@code false}.  A channel open only for writing cannot ask
     * before its first write: until then this method returns {@code true}.
     *
     * @param channel a file channel
     * @return {@code true} if the channel keeps the data out of the page cache
     * @throws NullPointerException if {@code channel} is {@code null}
     * @throws ClosedChannelException if the channel is closed
     */
    public static boolean isUncached(FileChannel channel) throws ClosedChannelException {
        Objects.requireNonNull(channel, "channel");
        if (!channel.isOpen())
            throw new ClosedChannelException();
        return channel instanceof FileChannelImpl fci && fci.isUncached();
    }
}
