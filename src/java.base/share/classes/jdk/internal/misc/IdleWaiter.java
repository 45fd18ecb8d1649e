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

package jdk.internal.misc;

/**
 * A ForkJoinPool worker thread that, when idle, may wait for work in a wait
 * of its own rather than park: a carrier thread whose io_uring has I/O in
 * flight waits in io_uring_enter, so that it is the thread that reaps and
 * resumes the virtual threads that wait for that I/O.
 *
 * <p> The pool calls {@link #beginIdleWait}, {@link #idleWait} and {@link
 * #endIdleWait} on the worker itself, in that order, and {@link #wakeIdle}
 * from a thread that has just released the worker, which unparks the
 * worker only if wakeIdle returns false: a permit that a worker in its own
 * wait did not take would make the worker thread's next park return at
 * once, and that park may be a pinned virtual thread's.
 */
public interface IdleWaiter {
    /**
     * Whether the worker has a source of events of its own, pending or not
     * (an io_uring that it drives).  Each task such a worker takes then
     * lasts as long as the events it handles meanwhile, so the pool has it
     * look at every queue after each task, rather than keep to the queue
     * it took the task from.  Called by the worker itself.
     */
    default boolean ownsEvents() {
        return false;
    }

    /**
     * Called by a worker that found no task: whether it has events of its
     * own pending (I/O in flight), so that it should go to its idle wait at
     * once rather than spin for tasks first, which would delay those events
     * by the spin.
     */
    boolean hasPendingEvents();

    /**
     * Called by the idle worker before it would park.  Returns false if it
     * is to park as usual; true if it waits in {@link #idleWait}, in which
     * case a later {@link #wakeIdle} ends that wait.  The pool reads the
     * worker's phase again after this returns true, and calls idleWait only
     * if the worker is still idle.
     */
    boolean beginIdleWait();

    /**
     * Waits until {@link #wakeIdle} or an event of the worker's own, and
     * handles that event.  May return at any time.  Returns true if it
     * submitted tasks to the worker's own queue, which the pool must then
     * not drop by trimming the worker.
     */
    boolean idleWait();

    /** Ends what {@link #beginIdleWait} began, when it returned true. */
    void endIdleWait();

    /**
     * Ends the worker's idle wait, if it is in one; any thread may call it.
     * Returns true if the worker was in its idle wait, between {@link
     * #beginIdleWait} and the end of {@link #idleWait}, and so needs no
     * unpark; false if it may park, or has parked, as usual.
     */
    boolean wakeIdle();
}
