/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

import jdk.internal.util.StaticProperty;

/**
 * Direct I/O alignment on Linux, from {@code statx(STATX_DIOALIGN)}
 * (Linux 6.1 and later) where the file system reports it.
 */
public final class LinuxDirectIO {
    private LinuxDirectIO() { }

    // Results of alignment0 and query0
    private static final int UNSUPPORTED = 0;  // the file cannot do direct I/O
    private static final int EXACT = 1;        // out[] holds the kernel's values
    private static final int UNKNOWN = 2;      // no STATX_DIOALIGN for this file
    private static final int BLOCK_SIZE = 3;   // out[] holds the block size

    /**
     * The alignment for a file that was just opened with O_DIRECT, whose
     * file system block size is {@code blockSize}.
     *
     * @throws UnsupportedOperationException if the kernel reports that the
     *         file does not support direct I/O
     */
    static DirectIOAlignment alignment(FileDescriptor fd, int blockSize, String path) {
        int[] out = new int[2];
        int result = alignment0(IOUtil.fdVal(fd), out);
        return switch (result) {
            case EXACT -> new DirectIOAlignment(out[0], out[1], true);
            case UNKNOWN -> DirectIOAlignment.ofBlockSize(blockSize);
            default -> throw new UnsupportedOperationException(
                "Direct I/O is not supported for " + path
                + ": the file system reports no direct I/O alignment for it");
        };
    }

    /**
     * Queries the direct I/O alignment of a file without opening it for
     * direct I/O.
     *
     * @return the alignment, or {@code null} if the file does not support
     *         direct I/O (directories and other non-regular files, or a file
     *         system without O_DIRECT)
     * @throws IOException if the file cannot be opened for reading
     */
    public static DirectIOAlignment query(Path file) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
        if (attrs.isDirectory())
            return null;
        Charset jnu = Charset.forName(StaticProperty.jnuEncoding());
        byte[] path = (file.toString() + '\0').getBytes(jnu);
        int[] out = new int[2];
        return switch (query0(path, out)) {
            case EXACT -> new DirectIOAlignment(out[0], out[1], true);
            case BLOCK_SIZE -> DirectIOAlignment.ofBlockSize(out[0]);
            default -> null;
        };
    }

    private static native int alignment0(int fd, int[] out);

    private static native int query0(byte[] path, int[] out) throws IOException;

    static {
        IOUtil.load();
    }
}
