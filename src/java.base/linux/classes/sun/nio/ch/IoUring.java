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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import jdk.internal.misc.InnocuousThread;

/**
 * An io_uring instance that does the positional file reads and writes of
 * AsynchronousFileChannels: an operation is queued, and the ring's thread
 * submits it and calls its completion.  One ring serves the whole VM; it
 * is set up on first use.  Callers decide when I/O is worth queueing
 * ({@link #MIN_OVERLAP}).  Virtual threads' I/O goes to their carriers'
 * rings ({@link CarrierRing}).
 *
 * <p> Only the ring's thread enters the kernel, as fio does: the kernel
 * finishes each I/O in the thread that submitted it, so that thread
 * should be one that is waiting for completions anyway, not a carrier.
 * What a completion's handler queues is submitted before the next
 * completion runs; what is left at the end of a turn goes in the same
 * call that waits for the next completion.  A thread that queues I/O while
 * the ring's thread waits wakes it through an eventfd that the ring polls,
 * once per turn.
 *
 * <p> A completion may run an AsynchronousFileChannel's handler on the
 * ring's thread (AsyncFileIO), and a handler may block.  So while
 * completions are outstanding a rescuer thread looks at the ring's thread
 * every {@link #RESCUE_NANOS} / 2: once one completion has held it for
 * longer than RESCUE_NANOS, another thread takes the ring over, with the
 * completions reaped and not yet run, and the old one waits, once its
 * completion returns, to take it over in turn (a spare; it never ends, as
 * the kernel cancels a thread's I/O in flight when it exits).  So no
 * completion waits behind a blocked handler for
 * more than about RESCUE_NANOS, and a handler that waits for an I/O of the
 * same ring (a close, or Future.get) does not wait for good.  The ring is
 * then entered by more than one thread over its life, one at a time, so it
 * is not set up for a single issuer.
 *
 * <p> Where io_uring is missing (before Linux 5.6 it lacks the operations
 * used here), disabled ({@code kernel.io_uring_disabled}) or denied by a
 * seccomp filter, {@link #get()} returns null and callers use pread and
 * pwrite.  So it does where the system property {@code jdk.nio.useIoUring}
 * is {@code false}, which turns the engine off.
 */
final class IoUring {
    // Linux errno values
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EBUSY = 16;
    static final int ECANCELED = 125;

    // User data of the completion of the poll of the wake-up eventfd; an
    // operation's user data is its sequence number shifted left by
    // SLOT_BITS, plus its slot
    private static final long WAKEUP = -2L;
    private static final int SLOT_BITS = 16;

    // Submission queue entries asked for: one for the poll of the eventfd,
    // and the rest for reads and writes, so that the queue cannot
    // overflow, nor the completion queue, which is twice as large
    private static final int ENTRIES = 512;
    private static final int CQ_ENTRIES = 2 * ENTRIES;

    /**
     * How many other I/Os of one AsynchronousFileChannel on a pool of the
     * program's own must be in flight before one goes to the ring rather
     * than to pread or pwrite on a thread of that pool.  Measured with 4 KiB
     * random DIRECT I/O on a RAM-backed loop device and a pool of a thread
     * per CPU (doc/benchmarks-directio.md): at 1 and 4 in flight the pool
     * won; at 8 and 16 the ring won, by up to 2.8 times, as without it the
     * operations wait for the pool's 2 threads.
     */
    static final int MIN_OVERLAP = 4;

    /**
     * How long one completion may hold the ring's thread before another
     * thread takes the ring over.
     */
    static final long RESCUE_NANOS = 2_000_000;

    // On unless -Djdk.nio.useIoUring=false
    private static final boolean ENABLED =
        !"false".equalsIgnoreCase(System.getProperty("jdk.nio.useIoUring"));

    private static class Holder {
        static final IoUring RING = create();
    }

    /** An operation in flight, and the completion to call. */
    private static final class Op {
        final boolean write;
        final FileDispatcher.Completion completion;
        long id;
        int result;

        Op(boolean write, FileDispatcher.Completion completion) {
            this.write = write;
            this.completion = completion;
        }
    }

    private final IoUringRing ring;
    private final int slots;
    private final EventFD wakeup;

    // Guarded by lock: operations by slot, free slots, and the sequence
    // that makes user data unique
    private final ReentrantLock lock = new ReentrantLock();
    private final Op[] ops;
    private final int[] free;
    private int freeCount;
    private long sequence;

    // Entries queued and not yet submitted
    private final AtomicInteger unsubmitted = new AtomicInteger();

    // Set by the ring's thread before it looks for entries to submit and
    // waits; the first thread to queue an entry after that writes the
    // eventfd, and sets woken so that no other thread does in that turn
    private volatile boolean waiting;
    private final AtomicBoolean woken = new AtomicBoolean();

    // Operations reaped and not yet completed, which a thread that takes the
    // ring over completes
    private final ConcurrentLinkedQueue<Op> reaped = new ConcurrentLinkedQueue<>();

    // The owner's: whether the poll of the eventfd must be queued again
    private volatile boolean pollWakeup = true;

    /** A thread that runs the ring, or waits to run it again. */
    private static final class Turns {
        // nanoTime at which the thread began to run a completion, IDLE
        // while it runs none, RESCUED once another thread took the ring over
        final AtomicLong completing = new AtomicLong(IDLE);
        volatile Thread thread;
        // set when a spare is to run the ring again
        volatile boolean resume;
        // the index by which this thread enters the ring, or -1
        int registered = -1;
    }
    private static final long IDLE = 0, RESCUED = Long.MIN_VALUE;

    // The thread that runs the ring now, and those that ran it before and
    // wait to run it again
    private volatile Turns owner;
    private final ConcurrentLinkedDeque<Turns> spares = new ConcurrentLinkedDeque<>();

    // Completions of AsynchronousFileChannel operations started and not yet
    // returned; the rescuer watches the ring's thread while there are any
    private final AtomicInteger completions = new AtomicInteger();
    private volatile Thread rescuer;
    private volatile boolean rescuerParked;

    private IoUring(IoUringRing ring, EventFD wakeup) {
        this.ring = ring;
        this.slots = Math.min(ring.sqEntries() - 1, 1 << SLOT_BITS);
        this.wakeup = wakeup;
        this.ops = new Op[slots];
        this.free = new int[slots];
        for (int i = 0; i < slots; i++)
            free[i] = slots - 1 - i;
        this.freeCount = slots;
    }

    // The ring's first thread sets it up
    private static IoUring create() {
        if (!ENABLED)
            return null;
        var result = new CompletableFuture<IoUring>();
        Thread t = InnocuousThread.newSystemThread("IoUring", () -> {
            IoUring r;
            EventFD wakeup = null;
            try {
                // the eventfd first: a ring, once set up, is never closed
                wakeup = new EventFD();
                r = new IoUring(IoUringRing.open(ENTRIES, CQ_ENTRIES, IoUringRing.SETUP_RUNGS),
                                wakeup);
            } catch (Throwable e) {
                if (wakeup != null) {
                    try {
                        wakeup.close();
                    } catch (IOException ignore) { }
                }
                result.complete(null);
                return;
            }
            Turns turns = new Turns();
            r.owner = turns;
            result.complete(r);
            r.runThread(turns);
        });
        t.setDaemon(true);
        t.start();
        return result.join();
    }

    // Has a spare thread, or a new one, run the ring from now on
    private void takeOver() {
        IoHandoffs.count();
        Turns turns = spares.poll();
        if (turns != null) {
            turns.completing.set(IDLE);
            owner = turns;
            turns.resume = true;
            LockSupport.unpark(turns.thread);
        } else {
            Turns t = new Turns();
            owner = t;
            Thread th = InnocuousThread.newSystemThread("IoUring", () -> runThread(t));
            th.setDaemon(true);
            th.start();
        }
    }

    // A thread of the ring: runs it until another takes over, then waits
    // to run it again.  It never ends: the kernel cancels the I/O that a
    // thread submitted when it exits, and this thread may have submitted
    // I/O that is still in flight.
    private void runThread(Turns turns) {
        turns.thread = Thread.currentThread();
        turns.registered = ring.registerRingFd();
        for (;;) {
            run(turns);
            // not "until it owns the ring": the rescuer may not have named
            // the thread that took over from this one yet
            turns.resume = false;
            spares.push(turns);
            while (!turns.resume)
                LockSupport.park(this);
        }
    }

    /**
     * Returns the VM's ring, setting it up on first use, or null where
     * io_uring cannot be used or is turned off.
     */
    static IoUring get() {
        return ENABLED ? Holder.RING : null;
    }

    /** Whether the engine is on: it is unless {@code jdk.nio.useIoUring=false}. */
    static boolean isEnabled() {
        return ENABLED;
    }

    /**
     * Starts a read or write and returns; the ring's thread calls the
     * completion with what pread or pwrite would return or throw.  Returns
     * false, having started nothing, if every slot is in use, rather than
     * make the caller wait.
     */
    boolean start(FileDescriptor fd, boolean write, long address, int len, long position,
                  FileDispatcher.Completion completion) {
        Op op = new Op(write, completion);
        if (completions.getAndIncrement() == 0)
            watch();
        lock.lock();
        try {
            if (freeCount == 0) {
                completions.decrementAndGet();
                return false;
            }
            queue(op, IOUtil.fdVal(fd), address, len, position);
        } finally {
            lock.unlock();
        }
        wakeup();
        return true;
    }

    /**
     * Whether io_uring_enter, having failed with {@code -errno} {@code r},
     * may be entered again: a signal (EINTR), or completions to reap or
     * memory to free first (EBUSY, EAGAIN).  Any other failure is a bug in
     * the ring's use, and throws InternalError.
     */
    static boolean mayEnterAgain(int r) {
        if (r == -EINTR || r == -EAGAIN || r == -EBUSY)
            return true;
        throw new InternalError("io_uring_enter failed: errno " + -r);
    }

    /**
     * Returns the IOStatus that pread or pwrite would for a completion's
     * result, or throws the IOException that they would throw.
     */
    static int status(int res, boolean write) throws IOException {
        if (res > 0)
            return res;
        if (res == 0)
            return write ? 0 : IOStatus.EOF;
        if (res == -EINTR || res == -ECANCELED)
            return IOStatus.INTERRUPTED;
        if (res == -EAGAIN)
            return IOStatus.UNAVAILABLE;
        IoUringRing.throwIOException(-res, write);
        throw new InternalError();
    }

    // Takes a slot and fills a submission queue entry; lock held
    private void queue(Op op, int fd, long address, int len, long position) {
        int slot = free[--freeCount];
        op.id = (++sequence << SLOT_BITS) | slot;
        ops[slot] = op;
        prepare(op.write ? IoUringRing.OP_WRITE : IoUringRing.OP_READ, fd, address, len,
                position, op.id);
    }

    // Queues an entry; lock held.  The slots are counted so that the
    // submission queue always has room.
    private void prepare(int opcode, int fd, long address, int len, long offset,
                         long userData) {
        if (!ring.prepare(opcode, fd, address, len, offset, userData))
            throw new InternalError("io_uring submission queue full");
        unsubmitted.incrementAndGet();
    }

    private void wakeup() {
        if (waiting && !woken.get() && woken.compareAndSet(false, true)) {
            try {
                wakeup.set();
                IoHandoffs.count();
            } catch (IOException e) {
                throw new InternalError(e);
            }
        }
    }

    // The ring's thread: submits what is queued, waits for a completion,
    // and completes what it reaps, in turns; returns once another thread
    // has taken the ring over
    private void run(Turns turns) {
        long[] userData = new long[4 * slots + 2];
        int[] results = new int[userData.length];
        for (;;) {
            // what was reaped, in this turn or by a thread rescued from it
            Op done;
            while ((done = reaped.poll()) != null) {
                if (!complete(done, turns))
                    return;
                if (!reaped.isEmpty())
                    submitQueued(turns);
            }
            if (pollWakeup) {
                lock.lock();
                try {
                    prepare(IoUringRing.OP_POLL_ADD, wakeup.efd(), 0, Net.POLLIN, 0, WAKEUP);
                } finally {
                    lock.unlock();
                }
                pollWakeup = false;
            }
            waiting = true;
            int n = unsubmitted.getAndSet(0);
            boolean wait = true;
            while (n > 0 || wait) {
                int r = ring.enter(n, wait ? 1 : 0, IoUringRing.ENTER_GETEVENTS,
                                   turns.registered);
                if (r >= 0) {
                    n -= r;
                    wait = false;
                } else if (mayEnterAgain(r)) {
                    wait = false;
                    Thread.yield();
                }
            }
            waiting = false;

            int count = ring.reap(userData, results);
            boolean woke = false;
            lock.lock();
            try {
                for (int i = 0; i < count; i++) {
                    long ud = userData[i];
                    if (ud == WAKEUP) {
                        woke = true;
                    } else {
                        int slot = (int) (ud & ((1 << SLOT_BITS) - 1));
                        Op op = ops[slot];
                        ops[slot] = null;
                        free[freeCount++] = slot;
                        op.result = results[i];
                        reaped.add(op);
                    }
                }
            } finally {
                lock.unlock();
            }
            if (woke) {
                try {
                    wakeup.reset();
                } catch (IOException e) {
                    throw new InternalError(e);
                }
                woken.set(false);
                pollWakeup = true;
            }
        }
    }

    // Submits, without waiting, what the completions run so far queued: a
    // handler's next operation goes to the device before the ring's thread
    // runs the next completion, as fio submits each I/O (its default
    // iodepth_batch_submit=1).  Held until every completion of the turn has
    // run, they would reach the device in bursts (about 10 of 16 in flight
    // at a time) with the device idle between them: AFC reads at queue
    // depth 16 made 0.58 to 0.60 of fio's IOPS held that way, and 0.79 to
    // 0.87 submitted here (doc/benchmarks-directio.md).  What the kernel
    // does not take now goes with the turn's wait.
    private void submitQueued(Turns turns) {
        int n = unsubmitted.getAndSet(0);
        while (n > 0) {
            int r = ring.enter(n, 0, 0, turns.registered);
            if (r > 0) {
                n -= r;
            } else if (r == 0 || mayEnterAgain(r)) {
                unsubmitted.addAndGet(n);
                return;
            }
        }
    }

    // Completes op; returns false if another thread took the ring over
    // while op's completion ran
    private boolean complete(Op op, Turns turns) {
        long t = System.nanoTime();
        if (t == IDLE || t == RESCUED)
            t++;
        turns.completing.set(t);
        int n = 0;
        IOException exc = null;
        try {
            n = status(op.result, op.write);
        } catch (IOException e) {
            exc = e;
        }
        try {
            op.completion.completed(n, exc);
        } catch (Throwable e) {
            // the completion's own failure must not stop the ring
            Thread th = Thread.currentThread();
            th.getUncaughtExceptionHandler().uncaughtException(th, e);
        } finally {
            completions.decrementAndGet();
        }
        return turns.completing.compareAndSet(t, IDLE);
    }

    // -- The rescuer

    // Wakes the rescuer, or starts it, as the first completion is outstanding
    private void watch() {
        Thread r = rescuer;
        if (r == null) {
            synchronized (this) {
                if ((r = rescuer) == null) {
                    r = InnocuousThread.newSystemThread("IoUring-Rescuer", this::rescue);
                    r.setDaemon(true);
                    rescuer = r;
                    r.start();
                    return;
                }
            }
        }
        if (rescuerParked)
            LockSupport.unpark(r);
    }

    // The rescuer's thread: while completions are outstanding, looks every
    // RESCUE_NANOS / 2 at the ring's thread, and has another take the ring
    // over from one that has run one completion for longer than RESCUE_NANOS
    private void rescue() {
        for (;;) {
            if (completions.get() == 0) {
                rescuerParked = true;
                if (completions.get() == 0)
                    LockSupport.park(this);
                rescuerParked = false;
                continue;
            }
            LockSupport.parkNanos(this, RESCUE_NANOS / 2);
            Turns turns = owner;
            long t = turns.completing.get();
            if (t != IDLE && t != RESCUED && System.nanoTime() - t > RESCUE_NANOS
                    && turns.completing.compareAndSet(t, RESCUED)) {
                takeOver();
            }
        }
    }
}
