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

import java.io.FileDescriptor;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import jdk.internal.util.StaticProperty;

/**
 * Direct I/O alignment on Linux, from {@code statx} with
 * {@code STATX_DIOALIGN} (Linux 6.1 and later) and
 * {@code STATX_DIO_READ_ALIGN} (6.14 and later) where the file system
 * reports them, else the file system's block size, as in JDK 25.
 */
public final class LinuxDirectIO {
    private LinuxDirectIO() { }

    // Results of alignment0 and query0
    private static final int EXACT = 1;    // out[] holds the kernel's values
    private static final int UNKNOWN = 2;  // no alignment reported for the file;
                                           // query0's out[] holds the block size

    // File types (st_mode & S_IFMT)
    private static final int S_IFMT   = 0170000;
    private static final int S_IFREG  = 0100000;
    private static final int S_IFBLK  = 0060000;
    private static final int S_IFDIR  = 0040000;
    private static final int S_IFCHR  = 0020000;
    private static final int S_IFIFO  = 0010000;
    private static final int S_IFSOCK = 0140000;

    /**
     * The alignment for a file that was just opened with O_DIRECT, whose
     * file system block size is {@code blockSize}.  Where the kernel
     * reports none, which includes ext4 files whose direct I/O the kernel
     * does as buffered I/O (data=journal, inline data), it is the block
     * size, as in JDK 25.
     */
    static DirectIOAlignment alignment(FileDescriptor fd, int blockSize) {
        int[] out = new int[3];
        return (alignment0(IOUtil.fdVal(fd), out) == EXACT)
            ? new DirectIOAlignment(out[0], out[1], out[2], true)
            : DirectIOAlignment.ofBlockSize(blockSize);
    }

    /**
     * Queries the direct I/O alignment of a file without opening it.
     *
     * @throws FileSystemException naming the file if it is not a regular
     *         file or a block device, for which direct I/O means nothing,
     *         or if it cannot be queried
     * @throws IOException if its attributes cannot be read
     */
    public static DirectIOAlignment query(Path file) throws IOException {
        String name = file.toString();
        String kind = switch ((Integer) Files.getAttribute(file, "unix:mode") & S_IFMT) {
            case S_IFREG, S_IFBLK -> null;
            case S_IFDIR -> "a directory";
            case S_IFCHR -> "a character device";
            case S_IFIFO -> "a FIFO";
            case S_IFSOCK -> "a socket";
            default -> "not a regular file";
        };
        if (kind != null) {
            throw new FileSystemException(name, null, "Direct I/O does not apply to "
                + kind + ": only regular files and block devices have it");
        }
        Charset jnu = Charset.forName(StaticProperty.jnuEncoding());
        byte[] path = (file.toAbsolutePath().toString() + '\0').getBytes(jnu);
        int[] out = new int[3];
        int result;
        try {
            result = query0(path, out);
        } catch (IOException e) {
            throw new FileSystemException(name, null, e.getMessage());
        }
        return (result == EXACT)
            ? new DirectIOAlignment(out[0], out[1], out[2], true)
            : DirectIOAlignment.ofBlockSize(out[0]);
    }

    private static native int alignment0(int fd, int[] out);

    private static native int query0(byte[] path, int[] out) throws IOException;

    static {
        IOUtil.load();
    }
}
