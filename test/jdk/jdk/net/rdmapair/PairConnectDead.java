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
 * @summary Two guests: a connect from guest A to an address on the link
 *          that no machine answers (.3 of the guests' /24, which neither
 *          guest has: no ARP reply, as from a powered-off machine), with an
 *          RDMA SocketChannel and an RDMA Socket, from platform and virtual
 *          threads.  Left alone, it fails with a SocketException (the class
 *          a caller of a TCP connect to the same address catches) within
 *          the bound of rsockets' address resolution, and the channel or
 *          socket is closed; with a timeout, the Socket's connect ends with
 *          SocketTimeoutException; an interrupt ends a channel's connect
 *          with ClosedByInterruptException and a close from another thread
 *          ends it with AsynchronousCloseException (the Socket's with the
 *          exception a TCP channel's socket adaptor throws then), each
 *          within 2 s; no thread is left behind.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairConnectDead
 */

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class PairConnectDead {
    // A port in B with no listener (a connect to it is refused at once),
    // and the port the connects to the dead address ask for.
    static final int REFUSING = 7409, PORT = 7401;
    // rsockets resolves the address with a timeout of 1000 << retries ms
    // and tries again on ETIMEDOUT while retries <= RS_CONN_RETRIES, 6
    // (rsocket.c, rs_do_connect, around rdma_resolve_addr): 7 tries of 1,
    // 2, 4 ... 64 s, 127 s in all.  The kernel's resolution of an address
    // whose ARP is never answered ends only at each try's timeout
    // (drivers/infiniband/core/addr.c: the neighbour stays invalid,
    // -ENODATA until the timeout, then -ETIMEDOUT).
    static final long RESOLVE_MILLIS = 127_000;
    // the bound: the resolution, plus 20 s for the emulated guest's
    // scheduling and the kernel's timers
    static final long FAIL_MILLIS = RESOLVE_MILLIS + 20_000;
    // "at once": an interrupt's or a close's end of a connect, and a close
    static final long AT_ONCE_MILLIS = 2_000;
    // the timeout of a timed connect, and what it may overrun
    static final int CONNECT_TIMEOUT = 2_000;
    static final long TIMEOUT_SLACK_MILLIS = 3_000;

    static final InetSocketAddress DEAD;
    static {
        // .3 of the guests' /24 (A is .1, B .2): on the link, but no
        // machine has it, so no ARP request for it is ever answered, as
        // for a machine that is powered off.
        byte[] b = PairLib.PEER.getAddress();
        b[3] = 3;
        try {
            DEAD = new InetSocketAddress(InetAddress.getByAddress(b), PORT);
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A connect in a thread of its own: when it started, when it ended, what it threw. */
    record Attempt(String name, Thread thread, long start, AtomicLong end, AtomicReference<Throwable> outcome,
                   AutoCloseable target) {
        long millis() {
            return (end.get() - start) / 1_000_000;
        }
        String describe() {
            return name + ": " + (thread.isAlive() ? "still blocked" : millis() + " ms, " + outcome.get());
        }
    }

    static Attempt attempt(String name, boolean virtual, AutoCloseable target, Utils.ThrowingRunnable connect) {
        AtomicLong end = new AtomicLong();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        long start = System.nanoTime();
        Thread t = PairLib.start(name, virtual, () -> {
            try {
                connect.run();
                outcome.set(new AssertionError("connected to " + DEAD));
            } finally {
                end.set(System.nanoTime());
            }
        }, outcome);
        return new Attempt(name, t, start, end, outcome, target);
    }

    static Attempt channel(String name, boolean virtual) throws IOException {
        SocketChannel sc = Sockets.openRdmaSocketChannel();
        return attempt(name, virtual, sc, () -> sc.connect(DEAD));
    }

    static Attempt socket(String name, boolean virtual, int timeout) throws IOException {
        Socket s = Sockets.openRdmaSocket();
        return attempt(name, virtual, s, () -> s.connect(DEAD, timeout));
    }

    static boolean closed(AutoCloseable c) {
        return c instanceof SocketChannel sc ? !sc.isOpen() : ((Socket) c).isClosed();
    }

    public static void main(String[] args) throws Exception {
        // Warm up, from both kinds of thread: connects refused at once by
        // B (no listener) start the RDMA implementation's threads, and the
        // virtual threads' scheduler and pollers.
        for (boolean virtual : new boolean[] {false, true}) {
            PairLib.inThread(virtual, () -> {
                InetSocketAddress refusing = new InetSocketAddress(PairLib.PEER, REFUSING);
                try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                    assertThrows(IOException.class, () -> sc.connect(refusing));
                }
                try (Socket s = Sockets.openRdmaSocket()) {
                    assertThrows(IOException.class, () -> s.connect(refusing));
                }
                try (SocketChannel sc = SocketChannel.open()) {
                    assertThrows(IOException.class, () -> sc.connect(refusing));
                }
            });
            // and a connect to the dead address, closed while it waits,
            // starts the poller of connects
            Attempt a = channel("warm-up", virtual);
            RdmaTestLib.awaitWaiting(a.thread());   // blocked in the connect
            a.target().close();
            a.thread().join(AT_ONCE_MILLIS);
            assertFalse(a.thread().isAlive(), "the warm-up's connect still blocked after its close");
        }
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        RdmaTestLib.log("connecting to " + DEAD + ", which no machine answers");

        // 1. Connects left alone, all at once (each lasts the whole
        // resolution), and the same connects over TCP to compare.
        List<Attempt> alone = new ArrayList<>();
        alone.add(channel("RDMA channel, platform", false));
        alone.add(channel("RDMA channel, virtual", true));
        alone.add(socket("RDMA socket, platform", false, 0));
        alone.add(socket("RDMA socket, virtual", true, 0));
        SocketChannel tcpChannel = SocketChannel.open();
        Attempt tcp = attempt("TCP channel, platform", false, tcpChannel, () -> tcpChannel.connect(DEAD));
        Socket tcpSocket = new Socket();
        Attempt tcpSock = attempt("TCP socket, virtual", true, tcpSocket, () -> tcpSocket.connect(DEAD));

        // 2. While they wait: timed connects of the RDMA Socket.
        for (boolean virtual : new boolean[] {false, true}) {
            Attempt a = socket("RDMA socket, timeout " + CONNECT_TIMEOUT + " ms, " + (virtual ? "virtual" : "platform"),
                    virtual, CONNECT_TIMEOUT);
            a.thread().join(CONNECT_TIMEOUT + TIMEOUT_SLACK_MILLIS);
            RdmaTestLib.log(a.describe());
            assertFalse(a.thread().isAlive(), a.name() + " still blocked after "
                    + (CONNECT_TIMEOUT + TIMEOUT_SLACK_MILLIS) + " ms");
            assertTrue(a.outcome().get() instanceof SocketTimeoutException, a.name() + " ended with " + a.outcome().get());
            assertTrue(a.millis() >= CONNECT_TIMEOUT - 100, a.name() + " timed out early, after " + a.millis() + " ms");
            assertTrue(closed(a.target()), a.name() + ": the socket is not closed");
        }

        // 3. An interrupt of a thread blocked in a channel's connect.
        for (boolean virtual : new boolean[] {false, true}) {
            Attempt a = channel("RDMA channel interrupted, " + (virtual ? "virtual" : "platform"), virtual);
            RdmaTestLib.awaitWaiting(a.thread());   // blocked in the connect
            long t0 = System.nanoTime();
            a.thread().interrupt();
            a.thread().join(AT_ONCE_MILLIS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.log(a.describe() + "; ended " + ms + " ms after the interrupt");
            assertFalse(a.thread().isAlive(), a.name() + ": still blocked " + AT_ONCE_MILLIS + " ms after the interrupt");
            assertTrue(a.outcome().get() instanceof ClosedByInterruptException, a.name() + " ended with " + a.outcome().get());
            assertTrue(closed(a.target()), a.name() + ": the channel is open");
        }

        // 4. A close from another thread of a channel or Socket whose
        // connect is blocked.  An RDMA Socket is the adaptor of an RDMA
        // channel (RdmaSockets.openSocket), so it must end as the adaptor
        // of a TCP channel does, whatever the Socket of new Socket() does:
        // both measured here.
        Throwable tcpAdaptor = tcpClosed("TCP channel's socket closed, virtual", () -> SocketChannel.open().socket());
        Throwable tcpSocketImpl = tcpClosed("TCP socket closed, virtual", Socket::new);
        List<Attempt> closing = new ArrayList<>();
        for (boolean virtual : new boolean[] {false, true}) {
            String kind = virtual ? "virtual" : "platform";
            closing.add(channel("RDMA channel closed, " + kind, virtual));
            closing.add(socket("RDMA socket closed, " + kind, virtual, 0));
        }
        for (Attempt a : closing) {
            RdmaTestLib.awaitWaiting(a.thread());   // blocked in the connect
            long t0 = System.nanoTime();
            a.target().close();
            long closeMs = (System.nanoTime() - t0) / 1_000_000;
            a.thread().join(AT_ONCE_MILLIS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.log(a.describe() + "; close took " + closeMs + " ms, the connect ended " + ms
                    + " ms after the close began");
            assertTrue(closeMs <= AT_ONCE_MILLIS, a.name() + ": the close took " + closeMs + " ms");
            assertFalse(a.thread().isAlive(), a.name() + ": still blocked " + AT_ONCE_MILLIS + " ms after the close");
            if (a.target() instanceof SocketChannel) {
                assertTrue(a.outcome().get() instanceof AsynchronousCloseException, a.name() + " ended with "
                        + a.outcome().get() + ", not an AsynchronousCloseException");
            } else {
                assertTrue(a.outcome().get() != null && a.outcome().get().getClass() == tcpAdaptor.getClass(),
                        a.name() + " ended with " + a.outcome().get() + ", not as a TCP channel's socket ("
                        + tcpAdaptor + "; new Socket(): " + tcpSocketImpl + ")");
            }
            assertTrue(closed(a.target()), a.name() + ": not closed");
        }

        // 1, continued: every connect left alone ends within the bound.
        List<Attempt> all = new ArrayList<>(alone);
        all.add(tcp);
        all.add(tcpSock);
        for (Attempt a : all) {
            long left = FAIL_MILLIS - (System.nanoTime() - a.start()) / 1_000_000;
            a.thread().join(Math.max(left, 1));
            RdmaTestLib.log(a.describe());
        }
        for (Attempt a : all) {
            assertFalse(a.thread().isAlive(), a.name() + ": still blocked after " + FAIL_MILLIS + " ms");
            assertTrue(a.outcome().get() instanceof IOException, a.name() + " ended with " + a.outcome().get());
            assertTrue(closed(a.target()), a.name() + ": not closed after its failed connect");
        }
        // TCP fails as soon as ARP gives up (the kernel reports
        // EHOSTUNREACH: NoRouteToHostException); rsockets' address
        // resolution reports ETIMEDOUT (ConnectException).  Both are
        // SocketExceptions, the class a caller that handles a failed
        // connect of either catches.
        for (Attempt a : alone) {
            assertTrue(a.outcome().get() instanceof SocketException, a.name() + ": " + a.outcome().get()
                    + " is not a SocketException, as TCP's " + tcp.outcome().get() + " is");
        }
        assertTrue(tcp.outcome().get() instanceof SocketException, "TCP: " + tcp.outcome().get());
        assertTrue(tcpSock.outcome().get() instanceof SocketException, "TCP: " + tcpSock.outcome().get());

        // No thread left behind: every thread that started since the
        // warm-up ends, within the close bound.
        PairLib.assertNoThreadsLeft(before, AT_ONCE_MILLIS);
    }

    /**
     * Closes a TCP Socket whose connect to the dead address waits, in a
     * virtual thread, and returns what the connect threw.  TCP's connect
     * also ends when ARP gives up (NoRouteToHostException), which may come
     * first: then it tries again, up to 5 times.
     */
    static Throwable tcpClosed(String name, SocketOpener open) throws Exception {
        for (int i = 0; i < 5; i++) {
            Socket s = open.open();
            Attempt a = attempt(name, true, s, () -> s.connect(DEAD));
            RdmaTestLib.awaitWaiting(a.thread());   // blocked in the connect
            long t0 = System.nanoTime();
            s.close();
            a.thread().join(AT_ONCE_MILLIS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.log(a.describe() + "; ended " + ms + " ms after the close began");
            assertFalse(a.thread().isAlive(), a.name() + ": still blocked " + AT_ONCE_MILLIS + " ms after the close");
            if (!(a.outcome().get() instanceof NoRouteToHostException))
                return a.outcome().get();
        }
        throw new AssertionError("ARP gave up before each close of a TCP socket");
    }

    interface SocketOpener {
        Socket open() throws IOException;
    }
}
