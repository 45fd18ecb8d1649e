/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
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

/*
 * @test
 * @summary ForkJoinPool's idle-waiter hook (patch 0025), alone: a worker
 *          that waits for work in an idle wait of its own
 *          (jdk.internal.misc.IdleWaiter, as a carrier with an io_uring
 *          does) is woken by the pool's release through wakeIdle, runs the
 *          task, and is left no park permit by the release: a task's
 *          parkNanos of 200 ms on that worker lasts at least 150 ms, in
 *          each of 10 rounds.  A permit that the waiting worker did not
 *          take ended the worker thread's next park at once, which for a
 *          carrier is a pinned virtual thread's: upstream's JfrEvents, whose
 *          class initializer parks, then ended its initializer early and
 *          waited for good.  Each round also checks that the worker was in
 *          its idle wait when the task came, and that the task ran on it.
 * @modules java.base/jdk.internal.misc
 * @run main/othervm IdleWaiterWake
 */

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jdk.internal.misc.IdleWaiter;

public class IdleWaiterWake {
    static final int ROUNDS = 10;
    static final long PARK_NANOS = 200_000_000L;
    static final long LEAST_NANOS = 150_000_000L;
    static final long WAIT_NANOS = 5_000_000_000L;

    /**
     * A worker that always has events pending, and waits for them on a
     * monitor: like io_uring_enter, and unlike a park, Object.wait does not
     * take the thread's park permit.
     */
    static final class Worker extends ForkJoinWorkerThread implements IdleWaiter {
        final Object lock = new Object();
        boolean woken;              // guarded by lock
        volatile boolean waiting;

        Worker(ForkJoinPool pool) {
            super(null, pool, true);
        }

        @Override
        public boolean hasPendingEvents() {
            return true;
        }

        @Override
        public boolean beginIdleWait() {
            synchronized (lock) {
                woken = false;
            }
            waiting = true;
            return true;
        }

        @Override
        public boolean idleWait() {
            synchronized (lock) {
                try {
                    if (!woken)
                        lock.wait(1000);
                } catch (InterruptedException e) {
                    // the pool's interrupt: the wait may end at any time
                }
            }
            waiting = false;
            return false;
        }

        @Override
        public void endIdleWait() {
            waiting = false;
        }

        @Override
        public boolean wakeIdle() {
            if (!waiting)
                return false;
            synchronized (lock) {
                woken = true;
                lock.notifyAll();
            }
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        Worker[] worker = new Worker[1];
        ForkJoinPool pool = new ForkJoinPool(1, p -> worker[0] = new Worker(p), null, false);
        try {
            pool.submit(() -> { }).get();
            for (int round = 1; round <= ROUNDS; round++) {
                Worker w = worker[0];
                // the worker in its idle wait: polled, as the wait has no event of its own
                long deadline = System.nanoTime() + WAIT_NANOS;
                while (!w.waiting && System.nanoTime() < deadline)
                    Thread.onSpinWait();
                if (!w.waiting)
                    throw new AssertionError("round " + round + ": the worker is not in its idle wait");
                long[] parked = new long[1];
                Thread[] ranOn = new Thread[1];
                pool.submit(() -> {
                    ranOn[0] = Thread.currentThread();
                    long t0 = System.nanoTime();
                    LockSupport.parkNanos(PARK_NANOS);
                    parked[0] = System.nanoTime() - t0;
                }).get(WAIT_NANOS, TimeUnit.NANOSECONDS);
                System.out.printf("round %d: the task's park of %d ms lasted %.1f ms%n",
                        round, PARK_NANOS / 1_000_000, parked[0] / 1e6);
                if (ranOn[0] != w)
                    throw new AssertionError("round " + round + ": the task ran on " + ranOn[0]
                            + ", not on the worker " + w);
                if (parked[0] < LEAST_NANOS)
                    throw new AssertionError("round " + round + ": the park returned after "
                            + parked[0] / 1_000_000 + " ms: the release left the worker a permit");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
