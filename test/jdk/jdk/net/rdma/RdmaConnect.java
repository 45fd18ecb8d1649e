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
/*
 * @test
 * @summary RDMA connects are non-blocking and concurrent: on a non-blocking
 *          channel connect returns false at once and OP_CONNECT on an RDMA
 *          selector plus finishConnect complete it; a connect to a peer that
 *          never answers (an unused guest address with a permanent neighbour
 *          entry, so the handshake is sent but never answered) ends with
 *          SocketTimeoutException at Socket.connect's timeout, and with
 *          ClosedByInterruptException or AsynchronousCloseException on
 *          interrupt or close, platform and virtual threads, each within
 *          2 s; while such a connect is pending, 16 connects to a live
 *          server on other threads all finish within 2 s and echo their
 *          bytes.  A connect that completes while no one looks, to a
 *          server that writes and closes at once, finishes, and reads the
 *          server's bytes and then end-of-stream.  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaConnect
 */

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;

import static jdk.test.lib.Asserts.*;

public class RdmaConnect {
    static final long BOUND_MILLIS = 2_000;
    static final int LIVE_CONNECTS = 16;

    // an address of rxe0's subnet that no host has: its permanent neighbour
    // entry lets rdma_cm resolve it, and the handshake is never answered
    static final InetAddress DEAD;
    static {
        byte[] a = RdmaTestLib.SERVER.getAddress();
        a[3] = (byte) 213;
        try {
            DEAD = InetAddress.getByAddress(a);
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    static final InetSocketAddress DEAD_PEER = new InetSocketAddress(DEAD, 7471);

    public static void main(String[] args) throws Exception {
        RdmaTestLib.ip("neigh", "replace", DEAD.getHostAddress(), "lladdr", "02:00:00:00:00:d5",
                       "dev", "veth0", "nud", "permanent");
        List<RdmaTestLib.Case> cases = new ArrayList<>();
        cases.add(new RdmaTestLib.Case("non-blocking connect through a selector", RdmaConnect::nonBlocking));
        cases.add(new RdmaTestLib.Case("finishConnect after the peer wrote and closed", RdmaConnect::peerClosedFirst));
        cases.add(new RdmaTestLib.Case("Socket.connect timeout to a peer that never answers", RdmaConnect::timeout));
        for (boolean virtual : new boolean[] { false, true }) {
            String kind = virtual ? " (virtual thread)" : " (platform thread)";
            cases.add(new RdmaTestLib.Case("interrupt of a pending connect" + kind, () -> abort(virtual, true)));
            cases.add(new RdmaTestLib.Case("close of a pending connect" + kind, () -> abort(virtual, false)));
        }
        cases.add(new RdmaTestLib.Case(LIVE_CONNECTS + " connects while a dead one is pending", RdmaConnect::concurrent));
        RdmaTestLib.runCases(cases);
    }

    /** A client channel bound to rxe0's address, so that rdma_cm routes through it. */
    static SocketChannel client() throws Exception {
        SocketChannel sc = Sockets.openRdmaSocketChannel();
        sc.bind(RdmaTestLib.anyPort());
        return sc;
    }

    static void nonBlocking() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = client();
             Selector sel = Sockets.openRdmaSelector()) {
            ssc.bind(RdmaTestLib.anyPort());
            sc.configureBlocking(false);
            long t0 = System.nanoTime();
            boolean done = sc.connect(ssc.getLocalAddress());
            long micros = (System.nanoTime() - t0) / 1000;
            RdmaTestLib.log("  connect returned " + done + " after " + micros + " us");
            assertFalse(done, "connect of a non-blocking channel completed before the handshake");
            assertTrue(sc.isConnectionPending(), "connection pending after connect returned false");
            SelectionKey key = sc.register(sel, SelectionKey.OP_CONNECT);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!key.isConnectable()) {
                assertLessThan(System.nanoTime() - deadline, 0L, "OP_CONNECT selected within 10 s");
                sel.select(1000);
            }
            assertTrue(sc.finishConnect(), "finishConnect after OP_CONNECT");
            assertTrue(sc.isConnected(), "connected after finishConnect");
            key.cancel();
            sel.selectNow();
            sc.configureBlocking(true);
            try (SocketChannel peer = ssc.accept()) {
                assertEquals(sc.getLocalAddress(), peer.getRemoteAddress(), "the accepted channel's peer");
                RdmaTestLib.echo(sc, peer, 4096, 1);
            }
        }
    }

    /*
     * The handshake completes in librdmacm's service thread while the
     * client does not poll, the server writes and closes, and only then
     * does the client finish its connect: rsockets reports that socket as
     * hung up (POLLHUP), not as refused.
     */
    static void peerClosedFirst() throws Exception {
        byte[] message = RdmaTestLib.message(1000, 7);
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = client()) {
            ssc.bind(RdmaTestLib.anyPort());
            sc.configureBlocking(false);
            assertFalse(sc.connect(ssc.getLocalAddress()), "a non-blocking connect completed at once");
            try (SocketChannel peer = ssc.accept()) {
                RdmaTestLib.writeFully(peer, ByteBuffer.wrap(message));
            }
            sc.configureBlocking(true);
            assertTrue(sc.finishConnect(), "finishConnect after the peer closed");
            assertEquals(ByteBuffer.wrap(message), RdmaTestLib.readFully(sc, message.length),
                         "the bytes the peer wrote before it closed");
            assertEquals(-1, sc.read(ByteBuffer.allocate(1)), "end-of-stream after them");
        }
    }

    static void timeout() throws Exception {
        Socket s = Sockets.openRdmaSocket();
        s.bind(RdmaTestLib.anyPort());
        int timeout = 500;
        long t0 = System.nanoTime();
        try {
            s.connect(DEAD_PEER, timeout);
            fail("connect to " + DEAD_PEER + ", where no host answers, succeeded");
        } catch (SocketTimeoutException expected) {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.log("  " + expected + " after " + ms + " ms");
            assertGreaterThanOrEqual(ms, (long) timeout - 1, "ms before the timeout");
            assertLessThan(ms, timeout + BOUND_MILLIS, "ms before SocketTimeoutException");
        } finally {
            s.close();
        }
        assertTrue(s.isClosed(), "socket closed after its connect timed out");
    }

    /** A thread that connects sc to the dead peer; its outcome goes to result. */
    static Thread deadConnect(SocketChannel sc, boolean virtual, AtomicReference<Throwable> result) {
        Runnable r = () -> {
            try {
                sc.connect(DEAD_PEER);
                result.set(new AssertionError("connect to " + DEAD_PEER + " succeeded"));
            } catch (Throwable e) {
                result.set(e);
            }
        };
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    static void abort(boolean virtual, boolean interrupt) throws Exception {
        try (SocketChannel sc = client()) {
            AtomicReference<Throwable> result = new AtomicReference<>();
            Thread t = deadConnect(sc, virtual, result);
            RdmaTestLib.awaitWaiting(t);
            assertTrue(sc.isConnectionPending(), "connection pending while the connect waits");
            long t0 = System.nanoTime();
            if (interrupt) {
                t.interrupt();
            } else {
                sc.close();
            }
            boolean ended = t.join(Duration.ofMillis(BOUND_MILLIS));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ended, "pending connect not ended within " + BOUND_MILLIS + " ms of the "
                    + (interrupt ? "interrupt" : "close"));
            Throwable e = result.get();
            RdmaTestLib.log("  ended in " + ms + " ms: " + e);
            Class<?> expected = interrupt ? ClosedByInterruptException.class : AsynchronousCloseException.class;
            if (!expected.isInstance(e))
                fail("expected " + expected.getName() + ", got " + e, e);
            assertFalse(sc.isOpen(), "channel open after its connect was ended");
            assertFalse(sc.isConnected(), "channel connected after its connect was ended");
        }
    }

    static void concurrent() throws Exception {
        List<SocketChannel> open = new ArrayList<>();
        SocketChannel dead = client();
        AtomicReference<Throwable> deadResult = new AtomicReference<>();
        Thread deadThread = deadConnect(dead, false, deadResult);
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort(), LIVE_CONNECTS);
            RdmaTestLib.awaitWaiting(deadThread);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread acceptor = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < LIVE_CONNECTS; i++) {
                        SocketChannel a = ssc.accept();
                        synchronized (open) {
                            open.add(a);
                        }
                        // echo 8 bytes per connection, then leave it open
                        RdmaTestLib.writeFully(a, RdmaTestLib.readFully(a, 8));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            List<Thread> clients = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int i = 0; i < LIVE_CONNECTS; i++) {
                int k = i;
                clients.add(Thread.ofPlatform().start(() -> {
                    try {
                        SocketChannel c = client();
                        synchronized (open) {
                            open.add(c);
                        }
                        c.connect(ssc.getLocalAddress());
                        ByteBuffer out = ByteBuffer.wrap(RdmaTestLib.message(8, k));
                        RdmaTestLib.writeFully(c, out);
                        ByteBuffer back = RdmaTestLib.readFully(c, 8);
                        assertEquals(-1, back.mismatch(out.flip()), "first differing byte of echo " + k);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS);
            for (Thread c : clients) {
                assertTrue(c.join(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1))),
                        c + " connected and echoed within " + BOUND_MILLIS + " ms");
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.log("  " + LIVE_CONNECTS + " connects and echoes in " + ms + " ms");
            assertTrue(acceptor.join(Duration.ofMillis(BOUND_MILLIS)), "the acceptor done");
            if (failure.get() != null)
                throw new AssertionError("a live connect or its echo failed", failure.get());
            assertTrue(deadThread.isAlive(), "the dead connect still pending: " + deadResult.get());
        } finally {
            dead.close();
            deadThread.join(Duration.ofMillis(BOUND_MILLIS));
            synchronized (open) {
                for (SocketChannel c : open)
                    c.close();
            }
        }
        Throwable e = deadResult.get();
        if (!(e instanceof AsynchronousCloseException))
            fail("the dead connect ended with " + e + ", not AsynchronousCloseException", e);
    }
}
