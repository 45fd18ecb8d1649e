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

import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

/**
 * The room librdmacm's service threads have for sockets. On a librdmacm
 * with the cm_svc_run bug (RdmaWorkarounds.c, bug 1) the connection
 * service thread corrupts memory when it holds more sockets (accepted,
 * connected and connecting ones) than {@link RdmaNet#SERVICE_CAPACITY},
 * and the listen service thread when it holds more listeners than
 * {@link RdmaNet#LISTEN_CAPACITY}. So connects that would pass the first
 * are refused, accepted sockets that do not fit are closed, and listens
 * past the second are refused, each with a SocketException that says so.
 * A listener also holds room for the connections librdmacm takes before
 * they are accepted (its {@link Backlog}).
 *
 * <p> Each {@link RdmaSocket} records its own place in the count (its
 * {@code serviced}, {@code listenRoom} and {@code acceptedFrom}); this
 * class keeps the totals. All of it is guarded by this object's monitor,
 * which is taken last: nothing is called while it is held.
 */
final class RdmaServiceRoom {
    /**
     * The room a listener holds: its backlog, capped at half the room left
     * when it listened. The sockets it accepts use it first, so it holds
     * reserved - accepted more (at least 0) for the connections that
     * librdmacm has taken and accept has not yet returned.
     */
    static final class Backlog {
        final int reserved;
        int accepted;       // its accepted sockets not yet closed; guarded by the room

        Backlog(int reserved) {
            this.reserved = reserved;
        }
    }

    // guarded by this
    private int registered;                                 // sockets the connection service holds
    private final List<Backlog> listening = new ArrayList<>();
    private volatile boolean anyListening;

    /** Whether a socket listens: a blocking select then re-checks (RdmaSocketOps.poll). */
    boolean anyListening() {
        return anyListening;
    }

    /*
     * The backlog is a hint, as the kernel caps it at somaxconn: the
     * listener holds the smaller of the backlog and half the room left for
     * its connections, and listens with that backlog, at least 1
     * (rdma_listen takes 0 for the largest). Half, so that a server with a
     * large default backlog (Netty's is somaxconn) leaves room for the
     * connects of the same process. Where no room is left it still listens,
     * holding none: accept then gives the connections that fit the room
     * left at that time, and closes the rest. Only more listeners than the
     * listen service thread has room for are refused.
     */
    synchronized void listen(RdmaSocket s, int backlog) throws SocketException {
        if (listening.size() >= RdmaNet.LISTEN_CAPACITY)
            throw new SocketException("RDMA listen: " + listening.size() + " listening RDMA sockets are open, and"
                    + " librdmacm " + versionString() + " holds at most " + RdmaNet.LISTEN_CAPACITY
                    + " in one process (its cm_svc_run bug, fixed in rdma-core v44.7 and v53.0):"
                    + " close one, or install a fixed librdmacm");
        long left = RdmaNet.SERVICE_CAPACITY - inUse();
        Backlog room = new Backlog((int) Math.max(0, Math.min(Math.max(backlog, 1), (left + 1) / 2)));
        listening.add(room);
        anyListening = true;
        s.listenRoom = room;
    }

    /** The listener no longer listens (its listen failed, or it is being closed). */
    synchronized void unlisten(RdmaSocket s) {
        if (s.listenRoom != null) {
            listening.remove(s.listenRoom);
            anyListening = !listening.isEmpty();
            s.listenRoom = null;
        }
    }

    /** Counts a connecting socket, or refuses the connect if it does not fit. */
    synchronized void connect(RdmaSocket s) throws SocketException {
        check("connect", 1);
        registered++;
        s.serviced = true;
    }

    /**
     * Counts a socket that listener accepted: it uses the room its listener
     * holds, if any is left. Throws if it does not fit; the caller closes
     * it, which un-counts it.
     */
    synchronized void accepted(RdmaSocket s, RdmaSocket listener) throws SocketException {
        long used = inUse();
        int before = registered;
        registered++;
        s.serviced = true;
        Backlog from = listener.listenRoom;
        if (from != null) {
            from.accepted++;
            s.acceptedFrom = from;
        }
        if (inUse() > RdmaNet.SERVICE_CAPACITY)
            throw new SocketException(noRoom("accept", 1, used, before, RdmaNet.SERVICE_CAPACITY)
                    + "; the connection was closed");
    }

    /** Un-counts a socket once rclose has removed it from the service, or rconnect never added it. */
    synchronized void released(RdmaSocket s) {
        if (s.serviced) {
            registered--;
            s.serviced = false;
        }
        if (s.acceptedFrom != null) {
            s.acceptedFrom.accepted--;
            s.acceptedFrom = null;
        }
    }

    // the room in use: the registered sockets, and what the listeners hold
    // beyond their accepted sockets; holds this
    private long inUse() {
        long used = registered;
        for (Backlog b : listening)
            used += Math.max(0, b.reserved - b.accepted);
        return used;
    }

    // refuses op, which needs room for more sockets, if they do not fit; holds this
    private void check(String op, int more) throws SocketException {
        int capacity = RdmaNet.SERVICE_CAPACITY;
        if (capacity == Integer.MAX_VALUE)
            return;
        long used = inUse();
        if (used + more > capacity)
            throw new SocketException(noRoom(op, more, used, registered, capacity));
    }

    /*
     * Why op, which needs room for more sockets, is refused: what it asked,
     * what is in use (used, of which registered are sockets registered with
     * the service), and the jdk.net.rdma.serviceRounds that would fit them.
     */
    private static String noRoom(String op, int more, long used, int registered, int capacity) {
        String remedy = RdmaNet.SERVICE_SETS_GROWN
                ? "-Djdk.net.rdma.serviceRounds=" + (used + more + 3) / 4 + " (now " + capacity / 4
                  + ") would fit them"
                : "this JVM could not make room for more (no local address of an RDMA device took"
                  + " the workaround's connects)";
        return "RDMA " + op + " needs room for " + more + " more socket" + (more == 1 ? "" : "s")
                + ", and " + used + " of " + capacity + " are in use (" + registered
                + " connected, connecting or accepted RDMA sockets, " + (used - registered)
                + " held for listen backlogs):"
                + " librdmacm " + versionString() + " holds at most " + capacity + " in one process (its"
                + " cm_svc_run bug, fixed in rdma-core v44.7 and v53.0); " + remedy
                + ", or install a fixed librdmacm";
    }

    private static String versionString() {
        int v = RdmaNet.LIBRARY_VERSION;
        return (v < 0) ? "(version unknown)" : (v / 1000) + "." + (v % 1000);
    }
}
