/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
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
 */
class UncachedFileDispatcher extends FileDispatcherImpl {

    private UncachedFileDispatcher() { }

    /**
     * Returns a dispatcher for the file.  A file open for reading is probed
     * with a one-byte read, so that a kernel or file system without
     * RWF_DONTCACHE is reported now rather than at the first read.
     */
    static UncachedFileDispatcher open(FileDescriptor fd, String path, boolean readable) {
        if (readable && !supported0(fd)) {
            throw new UnsupportedOperationException("DONTCACHE is not supported for "
                + path + ": the kernel or its file system lacks RWF_DONTCACHE"
                + " (uncached buffered I/O, Linux 6.14 and later)");
        }
        return new UncachedFileDispatcher();
    }

    @Override
    int read(FileDescriptor fd, long address, int len) throws IOException {
        return rw0(fd, address, len, -1L, false);
    }

    @Override
    int pread(FileDescriptor fd, long address, int len, long position) throws IOException {
        return rw0(fd, address, len, position, false);
    }

    @Override
    long readv(FileDescriptor fd, long address, int len) throws IOException {
        return rwv0(fd, address, len, false);
    }

    @Override
    int write(FileDescriptor fd, long address, int len) throws IOException {
        return rw0(fd, address, len, -1L, true);
    }

    @Override
    int pwrite(FileDescriptor fd, long address, int len, long position) throws IOException {
        return rw0(fd, address, len, position, true);
    }

    @Override
    long writev(FileDescriptor fd, long address, int len) throws IOException {
        return rwv0(fd, address, len, true);
    }

    // -- Native methods --

    private static native boolean supported0(FileDescriptor fd);

    private static native int rw0(FileDescriptor fd, long address, int len,
                                  long position, boolean write) throws IOException;

    private static native long rwv0(FileDescriptor fd, long iov, int iovcnt,
                                    boolean write) throws IOException;

    static {
        IOUtil.load();
    }
}
