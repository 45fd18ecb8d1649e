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

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the rpolls of the {@link RdmaPoller}s that include one socket (a
 * poller thread's, a direct waiter's), and keeps new ones out while the
 * socket may not be polled: while rshutdown runs, which makes the socket
 * blocking, so that an rpoll of it could wait behind it; and once the
 * socket is closed, so that no rpoll touches it after rclose.
 *
 * <p> No thread waits for the rpolls to end.  The socket's holder
 * ({@code RdmaSocket.busy}) calls {@link #exclude}: it either sees the
 * count, or the rpoll that is about to begin sees the flag and leaves the
 * socket out.  If rpolls include the socket, the holder makes them end
 * soon (RdmaPoller.kick) and gives the socket to the reaper, or, being the
 * reaper, keeps it out of its own rpoll ({@link #awaited}); the last rpoll
 * to leave wakes the reaper.
 */
final class RdmaPollGate {
    private final RdmaSocketOps ops;
    private final RdmaSocket socket;
    private final AtomicInteger rpolls = new AtomicInteger();
    private volatile boolean excluded;
    private volatile boolean closed;

    RdmaPollGate(RdmaSocketOps ops, RdmaSocket socket) {
        this.ops = ops;
        this.socket = socket;
    }

    /**
     * Takes the socket for an rpoll that is about to begin; returns false,
     * taking nothing, if it may not be polled now.
     */
    boolean enter() {
        rpolls.incrementAndGet();
        if (excluded || closed) {
            leave();
            return false;
        }
        return true;
    }

    /** Gives the socket back after an rpoll that {@link #enter} took it for. */
    void leave() {
        if (rpolls.decrementAndGet() == 0 && (excluded || closed)) {
            // its holder may have handed it to the reaper to wait for this
            RdmaReaper r = ops.reaper();
            if (r != null)
                r.wakeup();
        }
    }

    /** Whether an rpoll includes the socket now. */
    boolean polled() {
        return rpolls.get() != 0;
    }

    /**
     * Whether the socket is kept out of rpolls and waits for those that
     * include it to end: the reaper leaves it out of its own rpoll
     * meanwhile, since it is SETTLED and would end that rpoll at once.
     */
    boolean awaited() {
        return excluded && polled();
    }

    /**
     * Lets no rpoll begin until {@link #include}; returns whether none
     * includes the socket, so that rshutdown or rclose may be made.
     * Otherwise the rpolls are made to end soon.
     */
    boolean exclude() {
        excluded = true;
        return unpolled();
    }

    /** Lets the pollers poll the socket again for its waiters, unless it is closed. */
    void include() {
        if (!closed) {
            excluded = false;
            ops.waits().resume(socket);
        }
    }

    /**
     * Lets no rpoll begin, for good; returns whether none includes the
     * socket.  Otherwise the rpolls are made to end soon.
     */
    boolean close() {
        closed = true;
        return unpolled();
    }

    // after the gate shut: whether no rpoll includes the socket; if some
    // do, they are made to end soon
    private boolean unpolled() {
        if (!polled())
            return true;
        ops.waits().kick(socket);
        return false;
    }
}
