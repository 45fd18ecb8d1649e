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

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import sun.nio.ch.IOStatus;
import sun.nio.ch.SelChImpl;

/**
 * The waits of RDMA sockets, and the selectors' rpoll ({@link #select}).
 * Every rsocket is non-blocking: a blocking operation, connect included,
 * is a non-blocking call plus {@link #park}: a short spin in one native
 * call, adaptive per socket, then the thread registers with an
 * {@link RdmaPoller} and parks until the poller finds the socket ready,
 * the timeout expires, or close, shutdown or interrupt unparks it.  A
 * virtual thread unmounts while parked, so it never pins its carrier, and
 * a blocked thread costs no CPU.  A few platform threads whose wait has
 * no timeout wait in an rpoll of their own instead, which saves the hop
 * through the poller thread (RdmaPoller.registerDirect).
 */
final class RdmaWaits {
    /*
     * Whether a platform thread whose wait has no timeout waits in its own
     * rpoll (RdmaPoller.registerDirect), rather than through the poller
     * thread.  -Djdk.net.rdma.waitMode=poller sends every wait through the
     * poller, as jdk.pollerMode chooses the NIO poller's mode.
     */
    private static final boolean DIRECT_WAITS =
            !"poller".equals(System.getProperty("jdk.net.rdma.waitMode"));

    // how often the ticking poller re-checks the sockets waited on in
    // accept and connect
    private static final long TICK_NANOS = 10_000_000L;

    // the waits of accepts and connects, and of every other operation
    // (created on first use)
    private volatile RdmaPoller tickingPoller;
    private volatile RdmaPoller poller;

    /** The ticking poller (accepts and connects) or the blocking one, made on first use. */
    RdmaPoller poller(boolean ticking) throws IOException {
        RdmaPoller p = ticking ? tickingPoller : poller;
        if (p == null) {
            synchronized (this) {
                if (ticking) {
                    if ((p = tickingPoller) == null)
                        tickingPoller = p = RdmaPoller.ticking("RDMA-Ticking-Poller", TICK_NANOS);
                } else {
                    if ((p = poller) == null)
                        poller = p = RdmaPoller.blocking("RDMA-Poller");
                }
            }
        }
        return p;
    }

    /**
     * Waits until socket s, of channel ch, is ready for event, the timeout
     * of nanos (if positive) expires, or a close, shutdown or interrupt
     * ends the wait: a spin, then a wait through a poller.
     */
    void park(RdmaSocket s, SelChImpl ch, int event, long nanos) throws IOException {
        int fdVal = s.fd;
        int spin = s.spinMicros();
        if (spin > 0) {
            if (RdmaPoller.spin0(fdVal, event, spin * 1000L) != 0) {
                s.setSpinMicros(spin * 2);
                return;
            }
            s.setSpinMicros(spin / 2);
        }
        boolean ticking = s.listenRoom != null || s.connecting;
        RdmaPoller p = poller(ticking);
        boolean virtual = Thread.currentThread().isVirtual();
        long start = System.nanoTime();
        int revents = IOStatus.UNAVAILABLE;
        int slot;
        if (!ticking && !virtual && nanos <= 0 && DIRECT_WAITS
                && (slot = p.registerDirect(s, event)) >= 0) {
            // the thread waits in its own rpoll (RdmaPoller), or, asked to
            // give its slot up after a long wait, waits on below
            try {
                if (!ch.isOpen() || s.waitsStopped(event))
                    return;
                revents = p.awaitDirect(s, event, slot);
            } finally {
                p.deregisterDirect(s, event, slot);
            }
        }
        boolean ready;
        if (revents != IOStatus.UNAVAILABLE) {
            ready = revents != 0;
        } else {
            // A platform thread waits whatever its interrupt status, as in
            // poll(2): the interrupt of an interruptible channel closes it,
            // which wakes the thread, and that of a classic socket's channel
            // must not end the wait (SocketOpsSwitch.setUninterruptible),
            // nor make every park return at once.  A virtual thread's
            // interrupt ends the wait.
            boolean interrupted = !virtual && Thread.interrupted();
            p.register(s, event);
            try {
                // a close, shutdown or interrupt before the registration did
                // not see it
                if (!ch.isOpen() || s.waitsStopped(event)
                        || (virtual && Thread.currentThread().isInterrupted()))
                    return;
                if (nanos > 0) {
                    LockSupport.parkNanos(nanos);
                } else {
                    LockSupport.park();
                }
            } finally {
                ready = !p.deregister(s, event);
                if (interrupted)
                    Thread.currentThread().interrupt();
            }
        }
        if (ready && ch.isOpen() && System.nanoTime() - start < RdmaSocket.MAX_SPIN_MICROS * 1000L)
            s.setSpinMicros(Math.max(spin * 2, RdmaSocket.MIN_SPIN_MICROS));
    }

    /*
     * The open sockets shut down in both directions by rshutdown, which the
     * selectors' rpolls leave out (select); few, and only between a drain
     * and its rclose, unless the program shuts both directions down and
     * keeps the channel open.
     */
    private final Set<RdmaSocket> drained = ConcurrentHashMap.newKeySet();

    /** A socket's rshutdown of both directions begins. */
    void drainBegins(RdmaSocket s) {
        drained.add(s);
    }

    /** The socket's rclose: no selector polls it any more. */
    void drainEnds(RdmaSocket s) {
        drained.remove(s);
    }

    /**
     * A selector's rpoll of its pollfd array, for timeout milliseconds
     * (negative: none), its listeners and connects re-checked every
     * recheckMillis if positive.  The drained sockets are left out:
     * rshutdown leaves a failed connection's socket blocking, so an rpoll
     * of it could wait for good.  One that began earlier still polls it.
     */
    int select(long pollAddress, int numfds, int timeout, int recheckMillis) throws IOException {
        int[] left = null;
        if (!drained.isEmpty()) {
            left = new int[drained.size()];
            int n = 0;
            for (RdmaSocket s : drained) {
                if (n == left.length)
                    break;
                left[n++] = s.fd;
            }
            left = Arrays.copyOf(left, n);
        }
        return RdmaNet.pollArray0(pollAddress, numfds, timeout, recheckMillis, left);
    }

    /** Wakes the waiter for event on s, if any. */
    void wake(RdmaSocket s, int event) {
        forEachPoller(p -> p.wake(s, event));
    }

    /** Makes every rpoll that includes s end soon (RdmaPoller.kick). */
    void kick(RdmaSocket s) {
        forEachPoller(p -> p.kick(s));
    }

    /** Lets the pollers poll s again for its waiters (RdmaPoller.resume). */
    void resume(RdmaSocket s) {
        forEachPoller(p -> p.resume(s));
    }

    // the pollers made so far
    private void forEachPoller(Consumer<RdmaPoller> action) {
        RdmaPoller p = tickingPoller;
        if (p != null)
            action.accept(p);
        p = poller;
        if (p != null)
            action.accept(p);
    }
}
