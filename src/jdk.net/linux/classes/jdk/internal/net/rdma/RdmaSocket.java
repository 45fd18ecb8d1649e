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

/**
 * One rsocket and everything the JDK keeps for it, from its rsocket call to
 * its rclose.  {@link RdmaSocketOps} finds it by the socket's number, which
 * rsockets may hand out again once rclose has freed it, so {@link #close}
 * takes it out of that table before anything else.
 *
 * <p> The life cycle, one state machine:
 * <pre>
 *   OPEN --listen--> LISTENING ----------------------------.
 *     |                                                    |
 *     +--connect--> CONNECTING --done--> CONNECTED         |
 *     |                 |                   |  drain       |
 *     |               failed                v              |
 *     |                 |                DRAINED           |
 *     v                 v                   |              v
 *   close: rclose at once             close: rclose, bounded; if the drain's
 *   (nothing to wait for)             wait was ended (UNDELIVERED), rclose in
 *                                     the background, up to 60 s
 * </pre>
 * An accepted socket starts CONNECTED. Shutting one direction down
 * ({@link #shutdown}) only stops the waits for it; shutting both is the
 * drain.
 *
 * <p> Locks: the fields are volatile, or guarded by the
 * {@link RdmaServiceRoom}'s monitor where they count against the service
 * threads' room. Nothing here holds a lock while it calls into librdmacm.
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

    // a shutdown of both directions is the drain (RdmaNet.shutdown0)
    static final int SHUT_RDWR = 2;

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
    static final int MAX_SPIN_MICROS = spinMicrosProperty();
    static final int MIN_SPIN_MICROS = 10;

    /*
     * A test hook: a peer whose machine has gone cannot be made in one
     * kernel, where rxe delivers a device's traffic to itself, so
     * jdk.internal.net.rdma.testDrainMillis makes the first drain of each
     * connected socket (in drain, or in close if it was not drained) last
     * that long, as the transport's retries would.
     */
    private static final long TEST_DRAIN_MILLIS = Long.getLong("jdk.internal.net.rdma.testDrainMillis", 0);

    private final RdmaSocketOps ops;

    /** The rsocket's number. */
    final int fd;

    /** Whether this is an IPv4 rsocket in place of an INET6 channel's platform socket. */
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

    // shut down in both directions (drained), and whether that shutdown
    // had its wait for the peer ended (undelivered)
    private volatile boolean drained, undelivered;
    private final AtomicBoolean testDrained = new AtomicBoolean();

    // set by track; run once, by close or by the Cleaner
    private volatile Cleaner.Cleanable cleanable;

    RdmaSocket(RdmaSocketOps ops, int fd, boolean inet4) {
        this.ops = ops;
        this.fd = fd;
        this.inet4 = inet4;
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
     * The one close.  A connected socket is drained first, here if its
     * channel did not (a Cleaner's close); rclose shuts it down again,
     * which waits as the drain does.  Once every send is delivered, ending
     * that wait loses nothing; otherwise the rclose waits for the peer in
     * the background, as a TCP close leaves the kernel to deliver what the
     * peer has not taken.  The socket counts against the service threads'
     * room until rclose has removed it from them.
     */
    private void close() {
        // forget the number before rclose lets rsockets reuse it, and let
        // no poller touch the socket once rclose frees it
        ops.forget(this);
        delayDrainForTest();
        if (!serviced) {
            RdmaNet.close0(fd, 0);
            ops.room().released(this);
            return;
        }
        if (!drained) {
            try {
                boundedShutdown(SHUT_RDWR);
            } catch (IOException e) {
                // a failed connection: nothing waits to be delivered
            }
        }
        if (undelivered) {
            RdmaCloseWatchdog.closeInBackground(fd, () -> ops.room().released(this));
        } else {
            RdmaCloseWatchdog.run(fd, RdmaCloseWatchdog.BOUND_MILLIS, call -> RdmaNet.close0(fd, call));
            ops.room().released(this);
        }
    }

    // -- shutdown and the drain

    /*
     * rshutdown and rclose of a connected socket wait until the transport
     * has delivered everything sent (rsockets' drain): at once for a live
     * peer, after the transport's retries (seconds) for one whose machine
     * has gone without a disconnect.  So the channel drains a connected
     * socket before it closes it, in the closing thread and holding none of
     * its locks (RdmaSocketOps.drain), and the rclose that follows, under
     * its state lock or in a selector, finds the sends delivered or the
     * connection failed.  Both run in application threads: librdmacm then
     * frees in the thread that allocated, and resident memory stays flat
     * over open/close cycles (RdmaLeak).  A peer that does not read could
     * make either wait for good: RdmaCloseWatchdog bounds them, and only a
     * socket whose sends that peer has not all taken is closed in the
     * background.  A shutdownInput or shutdownOutput still drains under the
     * channel's state lock.  The poller leaves the socket out while it
     * drains, so that it never waits behind the drain in rpoll.
     */
    void shutdown(int how) throws IOException {
        // both directions are shut down already, and another rshutdown
        // would wait for the peer again
        if (drained)
            return;
        // created if need be, so that no thread starts to wait on the
        // socket through a poller that did not exist when this looked
        RdmaPoller p = ops.poller(false);
        p.exclude(fd);
        try {
            boundedShutdown(how);
        } finally {
            p.include(fd);
        }
    }

    /** The drain before a channel's close: see {@link #shutdown}. */
    void drain() throws IOException {
        if (!serviced)
            return;
        delayDrainForTest();
        shutdown(SHUT_RDWR);
    }

    /*
     * rshutdown, its wait for the peer bounded (RdmaCloseWatchdog).  When
     * the wait was ended, sends may still be queued for a peer that does
     * not read: the socket is then closed in the background (close).
     */
    private void boundedShutdown(int how) throws IOException {
        if (how == SHUT_RDWR)
            drained = true;
        if (RdmaCloseWatchdog.run(fd, RdmaCloseWatchdog.BOUND_MILLIS,
                                  call -> RdmaNet.shutdown0(fd, how, call)))
            undelivered = true;
    }

    /*
     * The peer of a socket that RdmaDisconnectWatcher watches disconnected,
     * and librdmacm shut the socket down in both directions.
     */
    void peerDisconnected() {
        drained = true;
    }

    private void delayDrainForTest() {
        if (TEST_DRAIN_MILLIS <= 0 || !serviced || !testDrained.compareAndSet(false, true))
            return;
        long deadline = System.nanoTime() + TEST_DRAIN_MILLIS * 1_000_000L;
        boolean interrupted = false;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            } catch (InterruptedException e) {
                interrupted = true;     // a native drain is not interruptible either
            }
        }
        if (interrupted)
            Thread.currentThread().interrupt();
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

    private static int spinMicrosProperty() {
        int defaultMicros = 200;
        String value = System.getProperty("jdk.net.rdma.spinMicros");
        if (value == null)
            return defaultMicros;
        try {
            int micros = Integer.parseInt(value.trim());
            return (micros >= 0 && micros <= Character.MAX_VALUE) ? micros : defaultMicros;
        } catch (NumberFormatException e) {
            return defaultMicros;
        }
    }

    // -- SO_LINGER

    int linger() {
        return linger;
    }

    void setLinger(int linger) {
        this.linger = linger < 0 ? -1 : Math.min(linger, 65535);
    }
}
