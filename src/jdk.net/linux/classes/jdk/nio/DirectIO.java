/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

package jdk.nio;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.util.Objects;
import java.util.Optional;

import sun.nio.ch.DirectIOAlignment;
import sun.nio.ch.LinuxDirectIO;

/**
 * Tells whether a file supports direct I/O, and with what alignment,
 * without opening it with {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}.
 *
 * <p> A {@code FileChannel} opened with {@code DIRECT} reads and writes
 * only if the address of each buffer is a multiple of the file's
 * <em>memory alignment</em>, and the file position and each buffer's
 * remaining bytes are multiples of its <em>offset alignment</em>;
 * otherwise it throws an {@code IOException} that names the misaligned
 * value.  Heap buffers need no memory alignment: the channel copies them
 * into aligned native memory.  A program can size and align its buffers
 * with {@link java.nio.ByteBuffer#alignedSlice(int)} and the values
 * returned here, before it opens the file.
 *
 * <p> On Linux 6.1 and later the two values come from {@code statx} with
 * {@code STATX_DIOALIGN}, where the file system reports them (ext4, XFS
 * and btrfs do), and may be smaller than the file system's block size, the
 * value {@link java.nio.file.FileStore#getBlockSize()} returns and the
 * only one JDK 10 to 25 used.  Where the file system does not report them
 * (tmpfs, for one), both values are the block size and
 * {@link Alignment#exact()} is {@code false}.
 *
 * @since 25
 */
public final class DirectIO {

    private DirectIO() { }

    /**
     * The alignment that direct I/O on one file needs.
     *
     * @param memory the alignment of buffer addresses, in bytes: a power of two
     * @param offset the alignment of file positions and of transfer lengths,
     *               in bytes: a power of two
     * @param exact  {@code true} if the operating system reported the two
     *               values for this file; {@code false} if they are the
     *               file system's block size, which is never smaller than
     *               what the file needs
     * @since 25
     */
    public record Alignment(int memory, int offset, boolean exact) {
        /**
         * Creates an alignment.
         *
         * @param memory the alignment of buffer addresses
         * @param offset the alignment of file positions and lengths
         * @param exact  whether the operating system reported the values
         * @throws IllegalArgumentException if {@code memory} or
         *         {@code offset} is not a power of two
         */
        public Alignment {
            if (Integer.bitCount(memory) != 1 || Integer.bitCount(offset) != 1) {
                throw new IllegalArgumentException("Alignment " + memory + "/"
                    + offset + " is not a power of two");
            }
        }
    }

    /**
     * Returns the direct I/O alignment of a file, or an empty
     * {@code Optional} if the file does not support direct I/O.
     *
     * <p> A directory, or a file on a file system that does not accept
     * {@code O_DIRECT}, does not support direct I/O.  The file is opened for
     * reading, without direct I/O, for the query.
     *
     * @param file the file
     * @return the file's alignment, or an empty {@code Optional}
     * @throws NullPointerException if {@code file} is {@code null}
     * @throws ProviderMismatchException if {@code file} is not a path of
     *         the default file system
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException if the file cannot be opened for reading or
     *         another I/O error occurs
     */
    public static Optional<Alignment> alignment(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        if (file.getFileSystem() != FileSystems.getDefault())
            throw new ProviderMismatchException("Not a path of the default file system: " + file);
        DirectIOAlignment a = LinuxDirectIO.query(file);
        return (a == null)
            ? Optional.empty()
            : Optional.of(new Alignment(a.memory(), a.offset(), a.exact()));
    }

    /**
     * Tells whether a file supports direct I/O.  The same as
     * {@code alignment(file).isPresent()}.
     *
     * @param file the file
     * @return {@code true} if the file can be opened with
     *         {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}
     * @throws NullPointerException if {@code file} is {@code null}
     * @throws ProviderMismatchException if {@code file} is not a path of
     *         the default file system
     * @throws IOException if the file cannot be opened for reading or
     *         another I/O error occurs
     */
    public static boolean isSupported(Path file) throws IOException {
        return alignment(file).isPresent();
    }
}
