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
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One rsocket and everything the JDK keeps for it, from its rsocket call to
 * its rclose.  {@link RdmaSocketOps} finds it by the socket's number, which
 * rsockets may hand out again once rclose has freed it, so {@link #close}
 * takes it out of that table before anything else.
 *
 * <p> The life cycle, one state machine (doc/rdma-sockets-design.md):
 * <pre>
 *   OPEN --listen--> LISTENING ----------------------------------.
 *     |                                                          |
 *     +--connect--> CONNECTING --done--> CONNECTED               |
 *     |                 |                   |                    |
 *     |               failed      drain, or shutdown of both     |
 *     |                 |         directions, once SETTLED       |
 *     |                 |                   v                    |
 *     |                 |                DRAINED                 |
 *     v                 v                   v                    v
 *   close: rclose at once: it cannot wait (rsockets' rclose shuts down
 *   only a connected socket)
 * </pre>
 * A CONNECTED socket that is closed, or whose shutdown is asked for, before
 * it is SETTLED (RdmaReaper) goes to the {@link RdmaReaper}, which makes the
 * calls once it is: no thread of the application waits for the peer.
 * An accepted socket starts CONNECTED.
 *
 * <p> Locks, in the order they are taken: a channel's locks (never held
 * while anything here waits for the peer); {@code callLock}, held by a
 * thread in rshutdown or rclose of this socket, or in the disconnect
 * watcher's call, which wait for the transport only (microseconds, or the
 * retries of a connection that is failing); then the monitors of the
 * {@link RdmaServiceRoom}, the {@link RdmaDisconnectWatcher} and the
 * {@link RdmaPoller}s, each held for a few steps, with no wait under it.
 * No thread waits for an rpoll to end: the socket counts the rpolls that
 * include it, and the last to leave wakes the reaper (RdmaPollGate).
 * The fields are volatile, or guarded by one of them as marked.
 */
final class RdmaSocket {
    /*
     * java.base exports its common cleaner (CleanerFactory) to a few
     * modules only, not to jdk.net, so RDMA sockets have their own: one
     * daemon thread.
     */
    private static final Cleaner CLEANER = Cleaner.create();

    // poll(2) events
    private static final int POLLIN = RdmaPoller.POLLIN;
    private static final int POLLOUT = RdmaPoller.POLLOUT;

    // rshutdown's how of both directions, as RdmaNet.shutdown0 takes it
    static final int SHUT_RDWR = 2;

    // directions as bits; how (0 input, 1 output, 2 both) is bits - 1
    private static final int INPUT = 1, OUTPUT = 2, BOTH = INPUT | OUTPUT;

    /*
     * The spin before a wait: a reply on a fast network comes sooner than
     * a parked thread is woken.  Each socket spins for up to its budget,
     * which doubles (up to MAX_SPIN_MICROS) when the spin caught the event or
     * the event came within MAX_SPIN_MICROS of parking, and halves when the
     * spin missed it: a socket that waits long, such as an idle
     * connection, soon stops spinning.  -Djdk.net.rdma.spinMicros=N sets
     * the most (0 to 65535; 0 never spins), for hosts with cores to spare
     * for spinning through the longer waits of large transfers, as rsockets'
     * own polling_time does for its blocking calls; other values are
     * ignored.
     */
    static final int MAX_SPIN_MICROS =
            (int) RdmaNet.longProperty("jdk.net.rdma.spinMicros", 200, 0, Character.MAX_VALUE);
    static final int MIN_SPIN_MICROS = 10;

    private final RdmaSocketOps ops;

    /** The rsocket's number. */
    final int fd;

    /**
     * Whether this is an IPv4 rsocket, which may serve an INET6 channel in
     * place of its platform socket (RdmaRules.replace).
     */
    final boolean inet4;

    private volatile int spinMicros = MAX_SPIN_MICROS;

    // after shutdown of a direction, a wait for it returns at once
    private volatile boolean inputShut, outputShut;

    /** Whether a connect is in progress: the ticking poller waits for it. */
    volatile boolean connecting;

    // SO_LINGER, emulated: rsockets keeps no linger time
    private volatile int linger = -1;

    // its place in the service threads' room; written under the room's monitor
    volatile boolean serviced;
    RdmaServiceRoom.Backlog listenRoom;     // while listening
    RdmaServiceRoom.Backlog acceptedFrom;   // an accepted socket's listener's room

    // one rshutdown or rclose of the socket at a time
    private final ReentrantLock callLock = new ReentrantLock();

    // the directions rshutdown has shut down (INPUT, OUTPUT); written
    // under callLock
    private volatile int shut;

    // the directions whose shutdown was asked for and waits for the reaper
    private final AtomicInteger pendingShut = new AtomicInteger();

    // shut down in both directions: rclose cannot wait
    private volatile boolean drained;

    // closed: forgotten by the ops, its rclose made or left to the reaper
    private volatile boolean closed;

    /**
     * Whether a drain waited for the transport beyond its bound
     * (RdmaDrainWatch): the rshutdown and rclose that follow are not
     * waited on.
     */
    volatile boolean stalled;

    // whether rclose was made; guarded by callLock
    private boolean rclosed;

    /*
     * Whether the socket is the reaper's, or a thread drains it: the
     * holder finishes what is asked meanwhile (release).  Taken with
     * compareAndSet, so that the reaper never polls a socket that a thread
     * drains: rshutdown leaves a drained socket blocking, and an rpoll of
     * it could then wait for good.
     */
    private final AtomicBoolean busy = new AtomicBoolean();

    /** The rpolls of the pollers that include the socket (RdmaPollGate). */
    final RdmaPollGate polls;

    // set by track; run once, by close or by the Cleaner
    private volatile Cleaner.Cleanable cleanable;

    RdmaSocket(RdmaSocketOps ops, int fd, boolean inet4) {
        this.ops = ops;
        this.fd = fd;
        this.inet4 = inet4;
        this.polls = new RdmaPollGate(ops, this);
    }

    // -- the Cleaner and close

    /*
     * An rsocket pins memory and holds a queue pair until rclose, so one
     * whose channel (or classic Socket) becomes unreachable unclosed is
     * closed by the Cleaner, as NioSocketImpl closes a leaked socket.  The
     * action holds this object, not the FileDescriptor, and close runs the
     * same action, so the number is closed once.
     */
    void track(Object owner) {
        cleanable = CLEANER.register(owner, this::close);
    }

    /** Closes the socket, now or through its Cleaner registration. */
    void closeOnce() {
        Cleaner.Cleanable c = cleanable;
        if (c != null) {
            c.clean();
        } else {
            close();
        }
    }

    /*
     * The one close, run once, by a channel's close (under its state lock,
     * or in a selector's deregistration) or by the Cleaner: it never waits
     * for the peer.  A socket that is not connected, or that is drained,
     * is closed here: rclose cannot wait (rsockets' rclose shuts down a
     * connected socket only).  Any other goes to the reaper, which drains
     * and closes it once that cannot wait either.  The socket counts
     * against the service threads' room until rclose has removed it.
     */
    private void close() {
        // forget the number before rclose lets rsockets reuse it, and let
        // no rpoll begin that could touch the socket once rclose frees it
        ops.forget(this);
        closed = true;
        boolean unpolled = polls.close();
        if (!busy.compareAndSet(false, true))
            return;     // the reaper, or the thread that drains it, closes it
        if (!needsSettling() && unpolled && callLock.tryLock()) {
            try {
                rclose();
            } finally {
                callLock.unlock();
            }
        } else {
            toReaper();
        }
    }

    /*
     * Hands the socket, which the caller holds (busy), to the reaper; or,
     * where the reaper could not be made, makes the calls now, waiting as
     * rsockets does.
     */
    private void toReaper() {
        RdmaReaper r = ops.reaper();
        if (r != null) {
            r.add(this);
        } else {
            while (!reap()) { }
        }
    }

    /**
     * Takes the call lock for a call into rsockets from outside this class
     * (RdmaDisconnectWatcher), unless rclose has been made: returns false
     * then, holding nothing.  {@link #endCall} releases it.
     */
    boolean beginCall() {
        callLock.lock();
        if (rclosed) {
            callLock.unlock();
            return false;
        }
        return true;
    }

    void endCall() {
        callLock.unlock();
    }

    // guarded by callLock
    private void rclose() {
        if (rclosed)
            return;
        rclosed = true;
        ops.unwatch(this);
        ops.waits().drainEnds(this);
        if (serviced) {
            // a connected socket's rclose makes rshutdown's wait
            RdmaDrainWatch w = ops.drainWatch();
            RdmaDrainWatch.Call c = w.begin(this);
            try {
                RdmaNet.close0(fd);
            } finally {
                w.end(c);
            }
        } else {
            RdmaNet.close0(fd);
        }
        ops.room().released(this);
    }

    /**
     * Whether what is asked of the socket, its close or the shutdowns
     * asked for, could wait for the peer unless the socket is SETTLED
     * (RdmaReaper).  rsockets' rclose shuts down a connected socket only,
     * and its rshutdown of the input alone sends nothing while the output
     * is open.
     */
    boolean needsSettling() {
        if (!serviced || connecting || drained)
            return false;
        int p = pendingShut.get();
        return closed || (p & OUTPUT) != 0 || ((p & INPUT) != 0 && (shut & OUTPUT) != 0);
    }

    /**
     * The reaper's call, once the socket is SETTLED or need not be: makes
     * the shutdowns asked for, or the drain and rclose of a closed socket.
     * Returns whether the reaper is done with the socket.
     */
    boolean reap() {
        callLock.lock();
        try {
            boolean calls = closed || (pendingShut.get() != 0 && !drained);
            if (calls && !polls.exclude())
                return false;   // the last rpoll to leave wakes the reaper
            if (closed) {
                if (!drained && serviced && !connecting) {
                    try {
                        rshutdown(SHUT_RDWR);
                    } catch (IOException e) {
                        // a failed connection: nothing waits to be delivered
                    }
                }
                rclose();
                return true;    // gone: it stays busy
            }
            int p = pendingShut.getAndSet(0);
            try {
                if (p != 0 && !drained)
                    rshutdown(p - 1);
            } catch (IOException e) {
                // the connection failed: a later read or write says so
            } finally {
                if (calls)
                    polls.include();
            }
        } finally {
            callLock.unlock();
        }
        return !release();
    }

    /*
     * Gives the socket up, and takes it back if a close or shutdown was
     * asked for meanwhile.  Returns whether it took it back: the caller
     * then hands it to the reaper, or, being the reaper, keeps it.
     */
    private boolean release() {
        busy.set(false);
        boolean asked = closed || (pendingShut.get() != 0 && !drained);
        return asked && busy.compareAndSet(false, true);
    }

    // -- shutdown and the drain

    /*
     * rshutdown of a connected socket waits until every send has been
     * delivered (rsockets' drain), so it is made only once the socket is
     * SETTLED, when that takes the transport's round trip, not the peer's
     * program (RdmaReaper).  shutdownInput and shutdownOutput, under the
     * channel's state lock, only ask for it: the reaper makes it, at once
     * if the socket is SETTLED.  The channel stops its own reads or writes
     * at once, and the waits in park end (stopWaits).
     */
    void shutdown(int how) throws IOException {
        if (drained)
            return;
        pendingShut.accumulateAndGet(how + 1, (a, b) -> a | b);
        if (busy.compareAndSet(false, true))
            toReaper();
    }

    /*
     * The drain before a channel's close, in the closing thread with none
     * of the channel's locks held: rshutdown of both directions if the
     * socket is SETTLED, so that the rclose that follows, under the state
     * lock or in a selector, cannot wait.  Otherwise the close leaves the
     * drain to the reaper.  Here, rather than always in the reaper, so that
     * librdmacm frees in the thread that allocated, which keeps resident
     * memory flat over open/close cycles (RdmaLeak).
     */
    void drain() throws IOException {
        if (!serviced || drained || !busy.compareAndSet(false, true))
            return;
        try {
            callLock.lock();
            try {
                // if an rpoll includes the socket, the close that follows
                // leaves the drain to the reaper
                if (!drained && !connecting && (RdmaPoller.readiness(fd, POLLOUT) & RdmaReaper.SETTLED) != 0
                        && polls.exclude()) {
                    pendingShut.set(0);
                    try {
                        rshutdown(SHUT_RDWR);
                    } finally {
                        polls.include();
                    }
                } else {
                    polls.include();
                }
            } finally {
                callLock.unlock();
            }
        } finally {
            if (release())
                toReaper();
        }
    }

    /*
     * Holds callLock, and the socket is excluded from the pollers' rpolls
     * (RdmaPollGate.exclude).  Once both directions are shut down, the
     * selectors leave the socket out of their rpolls too
     * (RdmaWaits.select): after a failed connection's drain rsockets
     * leaves it blocking.
     */
    private void rshutdown(int how) throws IOException {
        int dirs = how + 1;
        if ((dirs | shut) == BOTH) {
            drained = true;
            ops.waits().drainBegins(this);
        }
        shut |= dirs;
        RdmaDrainWatch w = ops.drainWatch();
        RdmaDrainWatch.Call c = w.begin(this);
        try {
            RdmaNet.shutdown0(fd, how);
        } finally {
            w.end(c);
        }
    }

    /*
     * The peer of a socket that RdmaDisconnectWatcher watches disconnected,
     * and librdmacm shut the socket down in both directions.
     */
    void peerDisconnected() {
        drained = true;
    }

    // -- waits

    /** Stops the waits for event: after shutdown of that direction they return at once. */
    void stopWaits(int event) {
        if ((event & POLLIN) != 0)
            inputShut = true;
        else
            outputShut = true;
    }

    /** Whether waits for event return at once. */
    boolean waitsStopped(int event) {
        return ((event & POLLIN) != 0) ? inputShut : outputShut;
    }

    int spinMicros() {
        return spinMicros;
    }

    void setSpinMicros(int micros) {
        spinMicros = Math.min(micros, MAX_SPIN_MICROS);
    }

    // -- SO_LINGER

    int linger() {
        return linger;
    }

    void setLinger(int linger) {
        this.linger = linger < 0 ? -1 : Math.min(linger, 65535);
    }
}
