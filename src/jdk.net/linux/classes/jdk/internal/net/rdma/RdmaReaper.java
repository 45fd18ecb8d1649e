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
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The one thread that finishes the shutdowns and closes of RDMA sockets
 * that would otherwise wait for the peer.
 *
 * <p> rshutdown of a connected rsocket sends a control message and then
 * waits, blocking, until every send has completed (rsocket.c, rshutdown),
 * and rclose of a connected rsocket calls rshutdown (rclose).  A send
 * completes once the peer's device acknowledges it, which needs a receive
 * the peer posted; the peer reposts its receives only when its program
 * calls into rsockets, and the sender may use all of them (the credits it
 * is first granted are the peer's whole receive queue, rs_format_conn_data).
 * So against a peer that does not read, those calls wait until it does, and
 * rsockets offers no way to end the wait: rshutdown makes the socket
 * blocking first.
 *
 * <p> So no thread of the application enters them when they could wait for
 * the peer: a socket whose shutdown or close could wait is handed here.
 * The reaper waits in rpoll, with every such socket and its own eventfd,
 * until the socket shows POLLOUT (credits are back: the peer has free
 * receives, and the control message and every send before it complete
 * without the peer's program), POLLHUP (the peer disconnected) or POLLERR
 * (the connection failed: a vanished machine ends so, once the transport's
 * retries run out).  Then the calls cannot wait for the peer, and the
 * reaper makes them.  It holds a socket whose peer neither reads, nor
 * disconnects, nor fails, for as long as that lasts: it never drops bytes
 * that the peer may still take.  Once it makes the calls, they wait for
 * the transport only, and RdmaDrainWatch bounds that wait as a transport's
 * retries would.
 *
 * <p> The reaper is a daemon platform thread, started on first use; a
 * socket costs it one rpoll entry, whatever the number of sockets.
 */
final class RdmaReaper {
    private static final int POLLOUT = RdmaPoller.POLLOUT;
    private static final int POLLERR = 0x0008;
    private static final int POLLHUP = 0x0010;
    private static final int POLLNVAL = 0x0020;

    /** The events after which a socket's shutdown and close cannot wait for the peer. */
    static final int SETTLED = POLLOUT | POLLERR | POLLHUP | POLLNVAL;

    private final String name;
    private final int wakeFd;
    private final ConcurrentLinkedQueue<RdmaSocket> incoming = new ConcurrentLinkedQueue<>();

    // guarded by this
    private volatile Thread thread;

    // the thread's own
    private final Set<RdmaSocket> held = new LinkedHashSet<>();
    private int[] fds = new int[16];
    private int[] events = new int[16];
    private RdmaSocket[] polled = new RdmaSocket[16];

    RdmaReaper(String name) throws IOException {
        this.name = name;
        this.wakeFd = RdmaPoller.eventfd0();
    }

    /**
     * Hands s to the reaper, which calls {@link RdmaSocket#reap} once s
     * shows one of the {@link #SETTLED} events, and again each time after
     * that until reap says it is done with s.
     */
    void add(RdmaSocket s) {
        incoming.add(s);
        synchronized (this) {
            if (thread == null) {
                thread = RdmaNet.newThread(name, this::run);
                thread.start();
                return;
            }
        }
        RdmaPoller.signal0(wakeFd);
    }

    /**
     * Makes the thread look at its sockets again: one of them is no longer
     * in another thread's rpoll (RdmaPollGate.leave).
     */
    void wakeup() {
        if (thread != null)
            RdmaPoller.signal0(wakeFd);
    }

    /** The sockets the reaper holds (for tests, through reflection). */
    int held() {
        return held.size() + incoming.size();
    }

    private void run() {
        for (;;) {
            RdmaSocket s;
            while ((s = incoming.poll()) != null)
                held.add(s);
            // what cannot wait for the peer is done at once
            for (Iterator<RdmaSocket> it = held.iterator(); it.hasNext(); ) {
                s = it.next();
                if (!s.needsSettling() && reap(s))
                    it.remove();
            }
            if (held.size() + 1 > fds.length) {
                int size = Math.max(held.size() + 1, fds.length * 2);
                fds = Arrays.copyOf(fds, size);
                events = Arrays.copyOf(events, size);
                polled = Arrays.copyOf(polled, size);
            }
            fds[0] = wakeFd;
            events[0] = RdmaPoller.POLLIN;
            int n = 1;
            for (RdmaSocket h : held) {
                // one that waits for other rpolls to end is SETTLED, and
                // would end this rpoll at once: its wakeup says when
                if (!h.polls.awaited()) {
                    fds[n] = h.fd;
                    events[n] = POLLOUT;
                    polled[n++] = h;
                }
            }
            int ready;
            try {
                ready = RdmaPoller.poll0(fds, events, n, -1);
            } catch (IOException e) {
                // rpoll failed (ENOMEM): try again shortly
                ready = 0;
                LockSupport.parkNanos(10_000_000L);
            }
            if (ready > 0 && events[0] != 0)
                RdmaPoller.drain0(wakeFd);
            for (int i = 1; i < n; i++) {
                if (ready > 0 && (events[i] & SETTLED) != 0 && reap(polled[i]))
                    held.remove(polled[i]);
                polled[i] = null;
            }
        }
    }

    // s.reap(); an unexpected error must not end the reaper's thread
    private static boolean reap(RdmaSocket s) {
        try {
            return s.reap();
        } catch (RuntimeException e) {
            return true;
        }
    }
}
