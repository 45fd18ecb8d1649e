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

import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.CarrierIo;
import jdk.internal.misc.CarrierThread;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.Unsafe;
import jdk.internal.vm.Continuation;

/**
 * An io_uring owned by one carrier thread, for the positional DIRECT reads
 * and writes of the virtual threads it runs.
 *
 * <p> A virtual thread, pinned to its carrier, fills a submission entry of
 * its carrier's ring and submits it, then parks.  The carrier reaps the
 * completions and unparks their threads, whose tasks then go to its own
 * queue: after each virtual thread it runs yields or ends ({@link
 * #afterContinuation}), and while it is idle, when it waits in
 * io_uring_enter rather than park ({@link #idleWait}); a release of the
 * idle carrier by the pool writes an eventfd that the ring reads, which
 * ends that wait.  So in the steady state an I/O is submitted and completed
 * without a hand-off between threads, and without the compensation of the
 * carrier that a blocking pread costs.
 *
 * <p> Only the carrier enters its ring (IORING_SETUP_SINGLE_ISSUER where
 * the kernel has it): the virtual thread runs on the carrier's kernel task
 * while pinned, and the kernel finishes the I/O in that task, posting its
 * completion when the task next enters the kernel (COOP_TASKRUN).
 *
 * <p> A carrier that is held elsewhere (a virtual thread that computes, or
 * blocks while pinned, or a long native call) cannot reap.  A rescuer
 * thread looks every {@link #RESCUE_NANOS} at the rings with I/O in
 * flight, and reaps the completions of a ring whose carrier has not come
 * back to it since the last look; their threads run on other carriers (one
 * hand-off each, counted by {@link IoHandoffs}).  Where the pool has an
 * idle carrier the rescuer unparks them, and the pool wakes that carrier.
 * Where every carrier is busy it leaves them for the busy carriers, which
 * take them between virtual threads: a thread the rescuer unparked would
 * wait in the pool's shared queue, at which a carrier whose own queue
 * never empties does not look.  A completion thus reaches its thread
 * within about RESCUE_NANOS plus the kernel's tick, at which the held
 * carrier's task posts it, once another carrier is idle or ends a virtual
 * thread, or the held carrier comes back.
 *
 * <p> A scheduler with more carriers than there are CPUs
 * (jdk.virtualThreadScheduler.parallelism set above {@link
 * Runtime#availableProcessors}) gets no rings, and its carriers do their
 * I/O as JDK 25 does.  A ring keeps its carrier runnable through an I/O
 * where pread would block it, so all of those carriers would compete for
 * the CPUs, and the JIT compiler's threads, with one share among them all,
 * would fall behind: 64 carriers on 2 CPUs took 1.5 to 2 times as long as
 * with pread (doc/jep-direct-io.md).
 *
 * <p> A carrier that terminates waits for its ring's I/O first (the kernel
 * cancels a thread's I/O when it exits) and has the rescuer resume the
 * threads, as a terminating worker's queue is dropped.
 */
final class CarrierRing implements CarrierIo {
    private static final JavaLangAccess JLA = SharedSecrets.getJavaLangAccess();
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();

    // Submission entries: one per I/O, submitted at once, and the read of
    // the eventfd; completion entries: one per I/O in flight, and the read
    private static final int ENTRIES = 32;
    private static final int CQ_ENTRIES = 256;
    private static final int SLOTS = CQ_ENTRIES - 1;

    // User data of the completion of the eventfd's read; an I/O's is its slot
    private static final long WAKEUP = -1L;

    /** How often the rescuer looks at the rings with I/O in flight. */
    static final long RESCUE_NANOS = 2_000_000;

    // A ring per carrier wants the ring's own thread to be its only issuer
    private static final int[] RUNGS = {
        IoUringRing.SETUP_RUNGS[0] | IoUringRing.SETUP_SINGLE_ISSUER,
        IoUringRing.SETUP_RUNGS[0],
        IoUringRing.SETUP_RUNGS[1],
    };

    // Set once a ring could not be set up (io_uring is missing, disabled
    // or denied here) or the scheduler has more carriers than CPUs: every
    // carrier does its I/O as JDK 25 does
    private static volatile boolean unavailable;

    // The rings, for the rescuer
    private static final CopyOnWriteArrayList<CarrierRing> RINGS = new CopyOnWriteArrayList<>();

    // The carriers' pool: the virtual thread scheduler's, set with the first
    // ring (every CarrierThread is one of its workers)
    private static volatile ForkJoinPool carriers;

    // Completions that the rescuer reaped while every carrier was busy, for
    // a carrier to resume between virtual threads
    private static final ConcurrentLinkedQueue<Op> RESCUED = new ConcurrentLinkedQueue<>();

    /** An I/O in flight, and the thread that waits for it. */
    static final class Op {
        final Thread waiter;
        int result;
        volatile boolean done;

        Op(Thread waiter) {
            this.waiter = waiter;
        }
    }

    private final IoUringRing ring;
    private final EventFD wakeup;
    private final int registered;
    private final long wakeupBuffer;   // 8 bytes, for the eventfd's read

    // Guarded by lock: the operations by slot, the free slots, the
    // completions' copies, and whether the ring is closed to the rescuer
    private final AtomicBoolean lock = new AtomicBoolean();
    private boolean closed;
    private final Op[] ops = new Op[SLOTS];
    private final int[] free = new int[SLOTS];
    private int freeCount;
    private final long[] userData = new long[CQ_ENTRIES];
    private final int[] results = new int[CQ_ENTRIES];

    // I/O in flight, changed with lock held
    private volatile int inflight;

    // The carrier's own: entries written and not yet submitted
    private int unsubmitted;

    // Whether the eventfd's read is in the ring; changed with lock held
    private boolean armed;

    // Set while the carrier waits in the ring, with lock held: a release
    // writes the eventfd then, and the rescuer leaves the ring alone
    private volatile boolean waiting;

    // Bumped by the carrier each time it comes back to the ring; the
    // rescuer's last look at it
    private volatile int turns;
    private int seenTurns;

    private CarrierRing(IoUringRing ring, EventFD wakeup, int registered) {
        this.ring = ring;
        this.wakeup = wakeup;
        this.registered = registered;
        this.wakeupBuffer = UNSAFE.allocateMemory(8);
        for (int i = 0; i < SLOTS; i++)
            free[i] = SLOTS - 1 - i;
        freeCount = SLOTS;
    }

    /**
     * Starts a positional read or write for the current virtual thread on
     * its carrier's ring, setting the ring up on first use.  Returns null,
     * having started nothing, where the caller is to do the I/O as JDK 25
     * does: io_uring unavailable, a scheduler with more carriers than
     * CPUs, a carrier of another scheduler, or the ring full.
     */
    static Op start(int fd, boolean write, long address, int len, long position) {
        if (unavailable)
            return null;
        Continuation.pin();
        try {
            if (!(JLA.currentCarrierThread() instanceof CarrierThread ct))
                return null;
            CarrierRing r = (ct.io() instanceof CarrierRing cr) ? cr : open(ct);
            return (r != null) ? r.start(write, fd, address, len, position) : null;
        } finally {
            Continuation.unpin();
        }
    }

    /**
     * Whether no virtual thread's I/O can go to a carrier's ring: io_uring
     * is unavailable, or the scheduler has more carriers than CPUs.  Once
     * true it stays true.
     */
    static boolean isUnavailable() {
        return unavailable;
    }

    /**
     * Waits for the operation, uninterruptibly, as the kernel may use the
     * buffer until it completes; an interrupt is kept for the caller.
     * Returns the completion's result: what the system call would return,
     * or -errno.
     */
    static int await(Op op) {
        boolean interrupted = false;
        while (!op.done) {
            LockSupport.park(op);
            if (Thread.interrupted())
                interrupted = true;
        }
        if (interrupted)
            Thread.currentThread().interrupt();
        return op.result;
    }

    // Sets up the carrier's ring; the carrier is the current virtual
    // thread's, so the kernel task that sets it up is the carrier's
    private static CarrierRing open(CarrierThread ct) {
        if (ct.io() != null)
            return null;    // another kind of carrier I/O
        ForkJoinPool pool = ct.getPool();
        if (pool.getParallelism() > Runtime.getRuntime().availableProcessors()) {
            unavailable = true;
            return null;
        }
        IoUringRing ring = null;
        EventFD wakeup = null;
        try {
            ring = IoUringRing.open(ENTRIES, CQ_ENTRIES, RUNGS);
            wakeup = new EventFD();
        } catch (IOException | RuntimeException e) {
            if (ring != null)
                ring.close();
            unavailable = true;
            return null;
        }
        carriers = pool;
        var r = new CarrierRing(ring, wakeup, ring.registerRingFd());
        RINGS.add(r);
        ct.setIo(r);
        return r;
    }

    // The current virtual thread's I/O, pinned to this ring's carrier
    private Op start(boolean write, int fd, long address, int len, long position) {
        Op op = queue(Thread.currentThread(), write, fd, address, len, position);
        if (op != null) {
            submit(0);
            Rescuer.watch();
        }
        return op;
    }

    // Writes the entry of an I/O, not yet submitted; null if the ring is full
    private Op queue(Thread waiter, boolean write, int fd, long address, int len,
                     long position) {
        var op = new Op(waiter);
        int slot;
        lock();
        try {
            if (freeCount == 0)
                return null;
            slot = free[--freeCount];
            if (!ring.prepare(write ? IoUringRing.OP_WRITE : IoUringRing.OP_READ,
                              fd, address, len, position, slot)) {
                freeCount++;
                return null;
            }
            ops[slot] = op;
            inflight++;
        } finally {
            unlock();
        }
        unsubmitted++;
        return op;
    }

    // Submits what is unsubmitted and, with minComplete 1, waits until
    // there is a completion to reap
    private void submit(int minComplete) {
        int flags = (minComplete > 0) ? IoUringRing.ENTER_GETEVENTS : 0;
        for (;;) {
            int r = ring.enter(unsubmitted, minComplete, flags, registered);
            if (r >= 0) {
                unsubmitted -= r;
                if (unsubmitted == 0 || r == 0)
                    return;
                minComplete = 0;
                flags = 0;
            } else if (IoUring.mayEnterAgain(r)) {
                // completions to reap first, or a signal: the caller reaps,
                // and the entries go with the next submit
                return;
            }
        }
    }

    @Override
    public void afterContinuation() {
        turns++;
        if (!RESCUED.isEmpty())
            resumeRescued();
        if (inflight == 0)
            return;
        if (unsubmitted > 0)
            submit(0);
        if (ring.taskRunPending())
            ring.enter(0, 0, IoUringRing.ENTER_GETEVENTS, registered);
        reap(Resume.UNPARK);
    }

    @Override
    public boolean ownsEvents() {
        return true;
    }

    @Override
    public boolean hasPendingEvents() {
        return inflight > 0;
    }

    @Override
    public boolean beginIdleWait() {
        if (inflight == 0)
            return false;
        // With the lock, so that the rescuer either has reaped the read of
        // the eventfd before (and it is queued again here) or leaves the
        // ring alone from now on: the wait must not lose its wake-up
        lock();
        try {
            if (!armed) {
                // a read of the eventfd, which a release writes, ends the wait
                if (!ring.prepare(IoUringRing.OP_READ, wakeup.efd(), wakeupBuffer, 8, -1L, WAKEUP))
                    return false;   // the submission queue is full: park, and be rescued
                armed = true;
                unsubmitted++;
            }
            waiting = true;
        } finally {
            unlock();
        }
        return true;
    }

    @Override
    public boolean idleWait() {
        submit(1);
        turns++;
        // a release from now on unparks, and needs no write of the eventfd
        waiting = false;
        return reap(Resume.LAZILY) > 0;
    }

    @Override
    public void endIdleWait() {
        waiting = false;
    }

    @Override
    public boolean wakeIdle() {
        if (!waiting)
            return false;
        try {
            wakeup.set();
        } catch (IOException e) {
            throw new InternalError(e);
        }
        return true;
    }

    @Override
    public void retire() {
        // from now on only this carrier reaps, so that its waits below
        // are for completions that it will see
        lock();
        closed = true;
        unlock();
        RINGS.remove(this);
        if (armed) {
            try {
                wakeup.set();
            } catch (IOException e) {
                throw new InternalError(e);
            }
        }
        while (inflight > 0 || armed) {
            submit(1);
            reap(Resume.BY_RESCUER);
        }
        if (registered >= 0)
            ring.unregisterRingFd(registered);
        ring.close();
        try {
            wakeup.close();
        } catch (IOException ignore) { }
        UNSAFE.freeMemory(wakeupBuffer);
    }

    // How the carrier resumes the threads whose I/O it reaped
    private enum Resume {
        // unpark, as any thread does: between virtual threads
        UNPARK,
        // queue them on the carrier without a signal, when it is idle: it
        // then runs them itself (ForkJoinPool's idle wait)
        LAZILY,
        // through the rescuer, for a carrier that terminates: a
        // terminating worker's queue is dropped
        BY_RESCUER
    }

    // Reaps the completions there are and resumes their threads; returns
    // how many were resumed on this carrier.  Called by the carrier.
    private int reap(Resume how) {
        if (!ring.hasCompletions())
            return 0;
        Op[] done;
        lock();
        try {
            done = reapLocked();
        } finally {
            unlock();
        }
        for (Op op : done) {
            switch (how) {
                case UNPARK -> LockSupport.unpark(op.waiter);
                case LAZILY -> JLA.unparkVirtualThreadLazily(op.waiter);
                case BY_RESCUER -> Rescuer.ORPHANS.add(op);
            }
        }
        if (how == Resume.BY_RESCUER && done.length > 0)
            Rescuer.watch();
        return (how == Resume.BY_RESCUER) ? 0 : done.length;
    }

    // Unparks the threads that the rescuer left for busy carriers: called
    // on a carrier, it queues them there; called by the rescuer once a
    // carrier is idle, in the pool's shared queue, where that carrier
    // finds them
    private static void resumeRescued() {
        Op op;
        while ((op = RESCUED.poll()) != null)
            LockSupport.unpark(op.waiter);
    }

    // Reaps for the rescuer, which may still look at a ring that its
    // carrier retires, and resumes the threads: unparked, where the pool
    // has an idle carrier to wake for them, else left for busy carriers.
    // A ring whose lock is held is in use by its carrier, or was, by a
    // carrier that the OS took off its CPU in it: the rescuer does not
    // spin for it, and looks again next time.
    private void rescue(boolean idleCarrier) {
        Op[] done;
        if (!lock.compareAndSet(false, true))
            return;
        try {
            if (closed || waiting || !ring.hasCompletions())
                return;
            done = reapLocked();
        } finally {
            unlock();
        }
        for (Op op : done) {
            IoHandoffs.count();
            if (idleCarrier)
                LockSupport.unpark(op.waiter);
            else
                RESCUED.add(op);
        }
    }

    // Copies the completions out, frees their slots, and returns their
    // operations, done; lock held
    private Op[] reapLocked() {
        int count = ring.reap(userData, results);
        Op[] done = new Op[count];
        int n = 0;
        for (int i = 0; i < count; i++) {
            long ud = userData[i];
            if (ud == WAKEUP) {
                armed = false;
                continue;
            }
            int slot = (int) ud;
            Op op = ops[slot];
            ops[slot] = null;
            free[freeCount++] = slot;
            op.result = results[i];
            op.done = true;
            done[n++] = op;
        }
        inflight -= n;
        return (n == count) ? done : java.util.Arrays.copyOf(done, n);
    }

    private void lock() {
        while (!lock.compareAndSet(false, true))
            Thread.onSpinWait();
    }

    private void unlock() {
        lock.set(false);
    }

    /**
     * The thread that reaps the rings of carriers held elsewhere.  It
     * parks while no ring has I/O in flight.
     */
    private static final class Rescuer {
        // Completions reaped by terminating carriers, to unpark
        static final ConcurrentLinkedQueue<Op> ORPHANS = new ConcurrentLinkedQueue<>();

        private static volatile Thread thread;
        private static volatile boolean parked;

        // Has the rescuer look at the rings: after I/O is started, and when
        // a terminating carrier leaves orphans
        static void watch() {
            Thread t = thread;
            if (t == null) {
                synchronized (Rescuer.class) {
                    if ((t = thread) == null) {
                        t = InnocuousThread.newSystemThread("IoUring-Carrier-Rescuer",
                                                             Rescuer::run);
                        t.setDaemon(true);
                        thread = t;
                        t.start();
                        return;
                    }
                }
            }
            if (parked)
                LockSupport.unpark(t);
        }

        private static void run() {
            for (;;) {
                Op op;
                while ((op = ORPHANS.poll()) != null) {
                    LockSupport.unpark(op.waiter);
                    IoHandoffs.count();
                }
                // what no busy carrier took, now that one is idle
                boolean idleCarrier = hasIdleCarrier();
                if (idleCarrier)
                    resumeRescued();
                boolean busy = false;
                for (CarrierRing r : RINGS) {
                    if (r.inflight == 0)
                        continue;
                    busy = true;
                    // a carrier that has not come back to its ring since
                    // the last look, and does not wait in it, is held
                    int t = r.turns;
                    if (t == r.seenTurns && !r.waiting)
                        r.rescue(idleCarrier);
                    r.seenTurns = t;
                }
                if (busy || !RESCUED.isEmpty()) {
                    LockSupport.parkNanos(RESCUE_NANOS);
                } else {
                    parked = true;
                    if (!anyInflight() && ORPHANS.isEmpty())
                        LockSupport.park();
                    parked = false;
                }
            }
        }

        // Whether the pool has fewer carriers running than its parallelism:
        // a thread unparked now wakes one, which then finds it
        private static boolean hasIdleCarrier() {
            ForkJoinPool pool = carriers;
            return pool.getActiveThreadCount() < pool.getParallelism();
        }

        private static boolean anyInflight() {
            for (CarrierRing r : RINGS) {
                if (r.inflight > 0)
                    return true;
            }
            return false;
        }
    }
}
