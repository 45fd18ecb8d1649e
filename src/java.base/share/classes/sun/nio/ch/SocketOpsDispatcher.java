/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;

/**
 * The NativeDispatcher of channels whose {@link SocketOps} is not the
 * platform's: forwards data and close calls to it by descriptor value.
 */
final class SocketOpsDispatcher extends NativeDispatcher {
    private final SocketOps ops;

    SocketOpsDispatcher(SocketOps ops) {
        this.ops = ops;
    }

    @Override
    int read(FileDescriptor fd, long address, int len) throws IOException {
        return ops.read(IOUtil.fdVal(fd), address, len);
    }

    @Override
    long readv(FileDescriptor fd, long address, int len) throws IOException {
        return ops.readv(IOUtil.fdVal(fd), address, len);
    }

    @Override
    int write(FileDescriptor fd, long address, int len) throws IOException {
        return ops.write(IOUtil.fdVal(fd), address, len);
    }

    @Override
    long writev(FileDescriptor fd, long address, int len) throws IOException {
        return ops.writev(IOUtil.fdVal(fd), address, len);
    }

    @Override
    void close(FileDescriptor fd) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        if (fdVal >= 0) {
            // never close a number twice: it may have been reused
            IOUtil.setfdVal(fd, -1);
            ops.close(fdVal);
        }
    }

    @Override
    void implPreClose(FileDescriptor fd, long reader, long writer) throws IOException {
        ops.preClose(IOUtil.fdVal(fd));
    }
}
