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

package jdk.internal.net.rdma;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the waits of rshutdown and rclose.  Both send a control message
 * and wait until every send is delivered, and a delivery takes a receive
 * buffer at the peer.  A peer that has stopped reading posts no more, and
 * the wait would then last until it reads again, where a TCP close never
 * waits for its peer.  Past its bound, a watched call has its wait ended
 * (RdmaNet.abort0) every RETRY_MILLIS until it returns.  An rshutdown
 * ended so leaves its sends queued; an rclose ended so frees the socket
 * and drops what is still queued, so an rclose that may find sends
 * undelivered runs in the background (closeInBackground), as the kernel
 * keeps a closed TCP socket until the peer has taken its data.
 */
final class RdmaCloseWatchdog {
    private RdmaCloseWatchdog() { }

    /**
     * How long a shutdown or close may wait for its peer in the calling
     * thread.  A live peer that reads takes every send in microseconds.
     */
    static final long BOUND_MILLIS = 2_000;

    /**
     * How long the background rclose of a socket whose sends were not all
     * delivered waits for the peer to read them before it drops them, as
     * Linux gives up an orphaned TCP connection whose peer's window stays
     * closed after a number of probes (tcp_orphan_retries).
     */
    static final long BACKGROUND_MILLIS = 60_000;

    // a signal that reaches the thread before its read is lost: send again
    private static final long RETRY_MILLIS = 10;

    private static final AtomicLong CALLS = new AtomicLong();

    private static final ScheduledThreadPoolExecutor TIMER;
    static {
        TIMER = new ScheduledThreadPoolExecutor(1, task -> RdmaNet.newThread("RDMA close watchdog", task));
        TIMER.setRemoveOnCancelPolicy(true);
    }

    /** A native call that can be told apart from others by its number. */
    interface Call<X extends Exception> {
        void run(long call) throws X;
    }

    /**
     * Runs call on socket fd, ending its waits from boundMillis after it
     * starts.  Returns whether a wait was ended.
     */
    static <X extends Exception> boolean run(int fd, long boundMillis, Call<X> call) throws X {
        Watch w = new Watch(fd, CALLS.incrementAndGet());
        ScheduledFuture<?> f = TIMER.scheduleWithFixedDelay(w::abort, boundMillis, RETRY_MILLIS,
                                                            TimeUnit.MILLISECONDS);
        try {
            call.run(w.number);
        } finally {
            f.cancel(false);
        }
        return w.ended();
    }

    /**
     * Closes socket fd in a thread of its own, bounded by BACKGROUND_MILLIS,
     * and then runs closed.
     */
    static void closeInBackground(int fd, Runnable closed) {
        RdmaNet.newThread("RDMA close of socket " + fd, () -> {
            try {
                run(fd, BACKGROUND_MILLIS, call -> RdmaNet.close0(fd, call));
            } finally {
                closed.run();
            }
        }).start();
    }

    private static final class Watch {
        final int fd;
        final long number;
        private boolean ended;

        Watch(int fd, long number) {
            this.fd = fd;
            this.number = number;
        }

        // Once the call has returned, abort0 finds it no more; a signal sent
        // before that is recorded before ended() can read it.
        synchronized void abort() {
            if (RdmaNet.abort0(fd, number))
                ended = true;
        }

        synchronized boolean ended() {
            return ended;
        }
    }
}
