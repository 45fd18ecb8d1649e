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
import java.util.concurrent.atomic.AtomicInteger;
import jdk.internal.misc.Blocker;

/**
 * A dispatcher that queues positional reads and writes to the VM's {@link
 * IoUring}: a virtual thread that reads or writes while many others do
 * parks until its I/O completes, and its carrier runs other virtual threads
 * meanwhile, and {@link #start} starts one for an AsynchronousFileChannel.
 * Platform threads, and every thread where io_uring cannot be used, call
 * pread and pwrite as for any file.
 *
 * <p> A virtual thread with fewer than {@link IoUring#MIN_OVERLAP} others
 * in their I/O here calls pread or pwrite too, with its carrier
 * compensated, as FileChannel does without this dispatcher: the ring costs
 * two hand-overs between threads per I/O (to the ring's thread and back),
 * which pay off only when enough I/O is in flight that the ring's thread
 * submits in batches and the scheduler would otherwise add a carrier per
 * I/O.
 */
class IoUringFileDispatcher extends FileDispatcherImpl {
    private static final IoUringFileDispatcher INSTANCE = new IoUringFileDispatcher();

    // Positional reads and writes by virtual threads in progress
    private static final AtomicInteger ACTIVE = new AtomicInteger();

    private IoUringFileDispatcher() { }

    /**
     * Returns the dispatcher, or null unless {@code jdk.nio.useIoUring=true}
     * turns io_uring on.
     */
    static FileDispatcher get() {
        return IoUring.isEnabled() ? INSTANCE : null;
    }

    @Override
    boolean isQueued() {
        return IoUring.get() != null;
    }

    @Override
    boolean start(FileDescriptor fd, boolean write, long address, int len,
                  long position, int others, Completion completion) {
        IoUring ring = IoUring.get();
        return ring != null && others >= IoUring.MIN_OVERLAP
                && ring.start(fd, write, address, len, position, completion);
    }

    @Override
    int pread(FileDescriptor fd, long address, int len, long position) throws IOException {
        return positional(fd, address, len, position, false);
    }

    @Override
    int pwrite(FileDescriptor fd, long address, int len, long position) throws IOException {
        return positional(fd, address, len, position, true);
    }

    private int positional(FileDescriptor fd, long address, int len, long position,
                           boolean write) throws IOException {
        IoUring ring;
        if (!Thread.currentThread().isVirtual() || (ring = IoUring.get()) == null) {
            // a virtual thread's carrier is compensated by the caller then,
            // as isQueued() is false
            return write ? super.pwrite(fd, address, len, position)
                         : super.pread(fd, address, len, position);
        }
        int others = ACTIVE.getAndIncrement();
        try {
            if (others >= IoUring.MIN_OVERLAP) {
                return write ? ring.pwrite(fd, address, len, position)
                             : ring.pread(fd, address, len, position);
            }
            boolean attempted = Blocker.begin();
            try {
                return write ? super.pwrite(fd, address, len, position)
                             : super.pread(fd, address, len, position);
            } finally {
                Blocker.end(attempted);
            }
        } finally {
            ACTIVE.decrementAndGet();
        }
    }
}
