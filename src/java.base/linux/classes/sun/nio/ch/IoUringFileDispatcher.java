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
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Blocker;
import jdk.internal.misc.CarrierThread;

/**
 * A dispatcher that does positional reads and writes of virtual threads on
 * their carriers' io_uring ({@link CarrierRing}) while {@link
 * #VIRTUAL_MIN_OVERLAP} others are in progress, or other virtual threads
 * wait to run: the virtual thread parks until its I/O completes, and its
 * carrier runs other virtual threads meanwhile.  {@link #start} starts an
 * AsynchronousFileChannel's operation on the VM's {@link IoUring}.
 * Below that a virtual thread calls pread or pwrite with its carrier
 * compensated, or, when no other such I/O is in progress and the scheduler
 * has other carriers, without.  Platform threads, and every thread where
 * io_uring cannot be used, call pread and pwrite as for any file, a
 * virtual thread with its carrier compensated.
 */
class IoUringFileDispatcher extends FileDispatcherImpl {
    private static final JavaLangAccess JLA = SharedSecrets.getJavaLangAccess();
    private static final IoUringFileDispatcher INSTANCE = new IoUringFileDispatcher();

    // Positional reads and writes by virtual threads in progress
    private static final AtomicInteger ACTIVE = new AtomicInteger();

    /**
     * How many other positional reads and writes by virtual threads must be
     * in progress before one goes to its carrier's ring, unless other
     * virtual threads wait to run.  Below it a pread or pwrite on the
     * carrier does better: measured with 4 KiB random DIRECT I/O on a
     * RAM-backed loop device (doc/benchmarks-directio.md), 4 virtual
     * threads wrote about a third faster that way on ext4, where an
     * asynchronous direct write finishes in a kernel worker of the file
     * system.
     */
    static final int VIRTUAL_MIN_OVERLAP = 4;

    private IoUringFileDispatcher() { }

    /**
     * Returns the dispatcher, or null where {@code jdk.nio.useIoUring=false}
     * turns io_uring off.
     */
    static FileDispatcher get() {
        return IoUring.isEnabled() ? INSTANCE : null;
    }

    // A virtual thread's carrier is compensated here, not by the caller,
    // when its I/O cannot go to the ring
    @Override
    boolean isQueued() {
        return true;
    }

    @Override
    boolean start(FileDescriptor fd, boolean write, long address, int len,
                  long position, int others, Completion completion) {
        IoUring ring = IoUring.get();
        return ring != null && others >= IoUring.MIN_OVERLAP
                && ring.start(fd, write, address, len, position, completion);
    }

    // Relative reads and writes do not go to a ring: the channel's position
    // orders them.  A virtual thread's carrier is compensated, as the
    // caller would have done.
    @Override
    int read(FileDescriptor fd, long address, int len) throws IOException {
        boolean attempted = Blocker.begin();
        try {
            return super.read(fd, address, len);
        } finally {
            Blocker.end(attempted);
        }
    }

    @Override
    int write(FileDescriptor fd, long address, int len) throws IOException {
        boolean attempted = Blocker.begin();
        try {
            return super.write(fd, address, len);
        } finally {
            Blocker.end(attempted);
        }
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
        if (!Thread.currentThread().isVirtual()) {
            return write ? super.pwrite(fd, address, len, position)
                         : super.pread(fd, address, len, position);
        }
        // Without carrier rings, the count would only be contended by
        // every carrier for nothing
        if (CarrierRing.isUnavailable())
            return compensated(fd, address, len, position, write);
        int others = ACTIVE.getAndIncrement();
        try {
            // An I/O that overlaps few others is done as JDK 25 does it: its
            // thread would park only to be resumed soon, which costs more
            // than the carrier's compensation.  But a compensated I/O keeps
            // its carrier, so with threads waiting to run it goes to the
            // ring and parks: threads doing back-to-back I/O, fewer than the
            // bar, would otherwise hold their carriers while the threads
            // queued behind them, which would raise the count, never ran.
            if (others >= VIRTUAL_MIN_OVERLAP || threadsWaiting()) {
                CarrierRing.Op op = CarrierRing.start(IOUtil.fdVal(fd), write, address, len, position);
                if (op != null)
                    return IoUring.status(CarrierRing.await(op), write);
            }
            // A lone I/O keeps its carrier uncompensated where the
            // scheduler has others: compensating wakes or starts another
            // carrier for each I/O, which finds nothing to do, and that
            // second thread cost a sixth to over a quarter of the IOPS at
            // queue depth 1 (doc/benchmarks-directio.md).  The next I/O to
            // begin meanwhile is not lone and compensates, so an I/O that
            // blocks for long holds at most one carrier; with a single
            // carrier it would hold them all.
            if (others == 0 && hasOtherCarriers()) {
                return write ? super.pwrite(fd, address, len, position)
                             : super.pread(fd, address, len, position);
            }
            return compensated(fd, address, len, position, write);
        } finally {
            ACTIVE.decrementAndGet();
        }
    }

    private static boolean hasOtherCarriers() {
        return JLA.currentCarrierThread() instanceof CarrierThread ct
                && ct.getPool().getParallelism() > 1;
    }

    // Whether virtual threads wait to run: on the carrier's own queue
    // (threads whose I/O it reaped, among them) or on the scheduler's
    // shared one, where threads started or unparked by platform threads
    // wait.  Counting only the carrier's, 2,000 threads started from a
    // platform thread, each with one I/O on a slow device, had a quarter of
    // their I/O compensated, and the carriers that compensation added
    // blocked in turn (IoUringRingFull).
    private static boolean threadsWaiting() {
        return JLA.currentCarrierThread() instanceof CarrierThread ct
                && (ct.getQueuedTaskCount() > 0 || ct.getPool().hasQueuedSubmissions());
    }

    // JDK 25's positional I/O from a virtual thread: pread or pwrite with
    // the carrier compensated
    private int compensated(FileDescriptor fd, long address, int len, long position,
                            boolean write) throws IOException {
        boolean attempted = Blocker.begin();
        try {
            return write ? super.pwrite(fd, address, len, position)
                         : super.pread(fd, address, len, position);
        } finally {
            Blocker.end(attempted);
        }
    }
}
