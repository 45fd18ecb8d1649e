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
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import jdk.internal.misc.InnocuousThread;

/**
 * An io_uring instance that does positional file reads and writes for
 * virtual threads: the thread submits its I/O and parks, leaving its
 * carrier free, and a completion thread unparks it when the I/O is done.
 * One ring serves the whole VM; it is set up on first use.
 *
 * <p> Where io_uring is missing (before Linux 5.6 it lacks the operations
 * used here), disabled ({@code kernel.io_uring_disabled}) or denied by a
 * seccomp filter, {@link #get()} returns null and callers use pread and
 * pwrite.  The system property {@code jdk.nio.useIoUring=false} does the
 * same on purpose.
 *
 * <p> Submissions are batched: a thread that queues an entry while another
 * thread is in io_uring_enter leaves it to that thread, which submits
 * everything queued before it leaves.  A thread interrupted while it waits
 * asks the kernel to cancel its I/O but still waits for the completion, as
 * the kernel may be using its buffer until then.
 */
final class IoUring {
    // Operations, as the native layer numbers them
    private static final int OP_READ = 0;
    private static final int OP_WRITE = 1;
    private static final int OP_CANCEL = 2;

    // Linux errno values
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final int EBUSY = 16;
    private static final int ECANCELED = 125;

    // User data of the completion of a cancel request; an operation's user
    // data is its sequence number shifted left by SLOT_BITS, plus its slot
    private static final long CANCEL = -1L;
    private static final int SLOT_BITS = 16;

    // Submission queue entries asked for; half are for reads and writes,
    // half for cancel requests, so the queue can never overflow, and the
    // completion queue (twice as large) neither
    private static final int ENTRIES = 512;

    private static final boolean ENABLED =
        !"false".equalsIgnoreCase(System.getProperty("jdk.nio.useIoUring"));

    private static class Holder {
        static final IoUring RING = create();
    }

    /** An operation in flight, and the thread that waits for it. */
    private static final class Op {
        final Thread waiter;
        long id;
        int result;
        volatile boolean done;

        Op(Thread waiter) {
            this.waiter = waiter;
        }
    }

    private final long ring;
    private final int slots;

    // Guarded by lock: operations by slot, free slots, cancels in flight,
    // and the sequence that makes user data unique
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFreed = lock.newCondition();
    private final Op[] ops;
    private final int[] free;
    private int freeCount;
    private int cancels;
    private long sequence;

    // Entries in the submission queue not yet submitted; the thread holding
    // enterLock submits them
    private final AtomicInteger unsubmitted = new AtomicInteger();
    private final ReentrantLock enterLock = new ReentrantLock();

    private IoUring(long ring, int entries) {
        this.ring = ring;
        this.slots = Math.min(entries / 2, 1 << SLOT_BITS);
        this.ops = new Op[slots];
        this.free = new int[slots];
        for (int i = 0; i < slots; i++)
            free[i] = slots - 1 - i;
        this.freeCount = slots;
    }

    private static IoUring create() {
        if (!ENABLED)
            return null;
        long ring;
        try {
            ring = create0(ENTRIES);
        } catch (IOException e) {
            return null;
        }
        IoUring r = new IoUring(ring, entries0(ring));
        Thread t = InnocuousThread.newSystemThread("IoUring-Completer", r::complete);
        t.setDaemon(true);
        t.start();
        return r;
    }

    /**
     * Returns the VM's ring, setting it up on first use, or null where
     * io_uring cannot be used or is turned off.
     */
    static IoUring get() {
        return ENABLED ? Holder.RING : null;
    }

    /** Whether {@code jdk.nio.useIoUring} leaves the engine on. */
    static boolean isEnabled() {
        return ENABLED;
    }

    /**
     * Reads into native memory at the position, as pread does, parking the
     * current thread until the read completes.  Returns the IOStatus pread
     * would.
     */
    int pread(FileDescriptor fd, long address, int len, long position) throws IOException {
        return status(await(submit(OP_READ, IOUtil.fdVal(fd), address, len, position)), false);
    }

    /** Writes from native memory at the position, as pwrite does. */
    int pwrite(FileDescriptor fd, long address, int len, long position) throws IOException {
        return status(await(submit(OP_WRITE, IOUtil.fdVal(fd), address, len, position)), true);
    }

    private static int status(int res, boolean write) throws IOException {
        if (res > 0)
            return res;
        if (res == 0)
            return write ? 0 : IOStatus.EOF;
        if (res == -EINTR || res == -ECANCELED)
            return IOStatus.INTERRUPTED;
        if (res == -EAGAIN)
            return IOStatus.UNAVAILABLE;
        throwIOException0(-res, write);
        throw new InternalError();
    }

    private Op submit(int opcode, int fd, long address, int len, long position) {
        Op op = new Op(Thread.currentThread());
        lock.lock();
        try {
            while (freeCount == 0)
                slotFreed.awaitUninterruptibly();
            int slot = free[--freeCount];
            op.id = (++sequence << SLOT_BITS) | slot;
            ops[slot] = op;
            prepare0(ring, opcode, fd, address, len, position, op.id);
            unsubmitted.incrementAndGet();
        } finally {
            lock.unlock();
        }
        flush();
        return op;
    }

    private void cancel(Op op) {
        lock.lock();
        try {
            // best effort: with every cancel entry in use, just wait
            if (op.done || cancels == slots)
                return;
            cancels++;
            prepare0(ring, OP_CANCEL, -1, op.id, 0, 0, CANCEL);
            unsubmitted.incrementAndGet();
        } finally {
            lock.unlock();
        }
        flush();
    }

    // Submits what is queued, unless another thread is submitting: that
    // thread finds the entries when it looks again after leaving enterLock
    private void flush() {
        while (unsubmitted.get() > 0 && enterLock.tryLock()) {
            try {
                int n = unsubmitted.getAndSet(0);
                while (n > 0) {
                    int r = submit0(ring, n);
                    if (r > 0) {
                        n -= r;
                    } else if (r == 0 || r == -EINTR || r == -EAGAIN || r == -EBUSY) {
                        Thread.yield();
                    } else {
                        throw new InternalError("io_uring_enter failed: errno " + -r);
                    }
                }
            } finally {
                enterLock.unlock();
            }
        }
    }

    // Waits for the operation uninterruptibly; an interrupt asks the kernel
    // to cancel it, and is kept for the caller
    private int await(Op op) {
        boolean interrupted = false;
        boolean cancelled = false;
        while (!op.done) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
                if (!cancelled) {
                    cancelled = true;
                    cancel(op);
                }
            }
        }
        if (interrupted)
            Thread.currentThread().interrupt();
        return op.result;
    }

    // The completion thread's loop
    private void complete() {
        long[] userData = new long[2 * slots];
        int[] results = new int[2 * slots];
        Op[] done = new Op[2 * slots];
        for (;;) {
            int n = reap0(ring, userData, results);
            if (n <= 0)
                continue;
            int m = 0;
            lock.lock();
            try {
                for (int i = 0; i < n; i++) {
                    if (userData[i] == CANCEL) {
                        cancels--;
                        continue;
                    }
                    int slot = (int) (userData[i] & ((1 << SLOT_BITS) - 1));
                    Op op = ops[slot];
                    ops[slot] = null;
                    free[freeCount++] = slot;
                    op.result = results[i];
                    done[m++] = op;
                }
                slotFreed.signalAll();
            } finally {
                lock.unlock();
            }
            for (int i = 0; i < m; i++) {
                Op op = done[i];
                done[i] = null;
                op.done = true;
                LockSupport.unpark(op.waiter);
            }
        }
    }

    // -- Native methods --

    private static native long create0(int entries) throws IOException;

    private static native int entries0(long ring);

    private static native void prepare0(long ring, int opcode, int fd, long address,
                                        int len, long position, long userData);

    private static native int submit0(long ring, int toSubmit);

    private static native int reap0(long ring, long[] userData, int[] results);

    private static native void throwIOException0(int errno, boolean write) throws IOException;

    static {
        IOUtil.load();
    }
}
