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

/**
 * Reads and writes a file with {@code preadv2}/{@code pwritev2} and
 * {@code RWF_DONTCACHE} (Linux 6.14 and later): buffered I/O whose pages
 * the kernel drops from the page cache once the I/O is done.  Everything
 * else is as for any file.  Position -1 means the file position, which
 * the calls then advance as read and write do.
 *
 * <p> DONTCACHE is a hint: where the kernel or the file system refuses the
 * flag ({@code EOPNOTSUPP}, or {@code ENOSYS} or {@code EPERM} where the
 * calls themselves are missing or blocked), the refused call is done again
 * without it, and so is every later one.  The kernel refuses the flag
 * before it transfers anything, so nothing is read or written twice.
 */
class UncachedFileDispatcher extends FileDispatcherImpl {

    // Whether the kernel takes RWF_DONTCACHE for this file; cleared for good
    // at the first refusal
    private volatile boolean honoured;

    private UncachedFileDispatcher(boolean honoured) {
        this.honoured = honoured;
    }

    /**
     * Returns a dispatcher for the file.  A file open for reading is asked
     * now, with a one-byte read; one open only for writing cannot be asked
     * without writing (a second descriptor would do, but closing it would
     * release the process's record locks on the file), so its first write
     * tells.
     */
    static UncachedFileDispatcher open(FileDescriptor fd, boolean readable) {
        return new UncachedFileDispatcher(!readable || probe0(fd) != IOStatus.UNSUPPORTED);
    }

    @Override
    boolean isUncached() {
        return honoured;
    }

    @Override
    int read(FileDescriptor fd, long address, int len) throws IOException {
        if (honoured) {
            int n = rw0(fd, address, len, -1L, false);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.read(fd, address, len);
    }

    @Override
    int pread(FileDescriptor fd, long address, int len, long position) throws IOException {
        if (honoured) {
            int n = rw0(fd, address, len, position, false);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.pread(fd, address, len, position);
    }

    @Override
    long readv(FileDescriptor fd, long address, int len) throws IOException {
        if (honoured) {
            long n = rwv0(fd, address, len, false);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.readv(fd, address, len);
    }

    @Override
    int write(FileDescriptor fd, long address, int len) throws IOException {
        if (honoured) {
            int n = rw0(fd, address, len, -1L, true);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.write(fd, address, len);
    }

    @Override
    int pwrite(FileDescriptor fd, long address, int len, long position) throws IOException {
        if (honoured) {
            int n = rw0(fd, address, len, position, true);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.pwrite(fd, address, len, position);
    }

    @Override
    long writev(FileDescriptor fd, long address, int len) throws IOException {
        if (honoured) {
            long n = rwv0(fd, address, len, true);
            if (n != IOStatus.UNSUPPORTED)
                return n;
            honoured = false;
        }
        return super.writev(fd, address, len);
    }

    // -- Native methods --

    // IOStatus.UNSUPPORTED if the kernel refuses RWF_DONTCACHE for the file
    private static native int probe0(FileDescriptor fd);

    // These return IOStatus.UNSUPPORTED, having transferred nothing, if the
    // kernel refuses RWF_DONTCACHE
    private static native int rw0(FileDescriptor fd, long address, int len,
                                  long position, boolean write) throws IOException;

    private static native long rwv0(FileDescriptor fd, long iov, int iovcnt,
                                    boolean write) throws IOException;

    static {
        IOUtil.load();
    }
}
