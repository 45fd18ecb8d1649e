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
 * @summary Blocking RDMA channels and sockets as the java.nio and java.net
 *          contracts say: asynchronous close (read, accept), interrupt
 *          (platform and virtual thread),
 *          SO_TIMEOUT expiry (read, accept), connection refused (Socket,
 *          blocking and non-blocking channel), shutdownInput waking a reader;
 *          Selector wakeup, timed select, IllegalSelectorException for a TCP
 *          channel in an RDMA selector;
 *          every bad input: null or unsupported family, closed, unbound and
 *          not-yet-connected channels, a family that does not match the
 *          address, unsupported options, bad option values, RDMA options set
 *          too late; supported options round-trip.  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=600 RdmaBehaviour
 */

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalSelectorException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnsupportedAddressTypeException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.ExtendedSocketOptions;
import jdk.net.RdmaSocketOptions;
import jdk.net.RdmaSockets;
import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static java.net.StandardProtocolFamily.INET;
import static java.net.StandardProtocolFamily.INET6;
import static jdk.test.lib.Asserts.*;

public class RdmaBehaviour {
    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("asynchronous close of a blocked read and accept", RdmaBehaviour::asyncClose),
                new RdmaTestLib.Case("interrupt of a blocked read (platform, virtual)", RdmaBehaviour::interrupt),
                new RdmaTestLib.Case("SO_TIMEOUT expiry (read, accept)", RdmaBehaviour::soTimeout),
                new RdmaTestLib.Case("connection refused", RdmaBehaviour::refused),
                new RdmaTestLib.Case("shutdownInput wakes a blocked reader", RdmaBehaviour::shutdownInput),
                new RdmaTestLib.Case("selector wakeup, timed select, mixing", RdmaBehaviour::selector),
                new RdmaTestLib.Case("bad inputs", RdmaBehaviour::badInputs),
                new RdmaTestLib.Case("options", RdmaBehaviour::options),
                new RdmaTestLib.Case("options at their limits", RdmaBehaviour::optionLimits)));
    }

    /** Starts task in a thread; returns the thread, whose outcome lands in result. */
    static Thread start(boolean virtual, AtomicReference<Throwable> result, Utils.ThrowingRunnable task) {
        Runnable r = () -> {
            try {
                task.run();
                result.set(new AssertionError("returned normally"));
            } catch (Throwable t) {
                result.set(t);
            }
        };
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    static void finish(Thread t, AtomicReference<Throwable> result, Class<? extends Throwable> expected)
        throws InterruptedException
    {
        long millis = 2_000;
        assertTrue(t.join(Duration.ofMillis(millis)), "blocked thread woke up within " + millis + " ms");
        Throwable r = result.get();
        System.out.println("  " + r);
        if (!expected.isInstance(r))
            fail("expected " + expected.getName() + ", got " + r, r);
    }

    static void asyncClose() throws Exception {
        SocketChannel[] p = RdmaTestLib.pair();
        try {
            AtomicReference<Throwable> result = new AtomicReference<>();
            Thread t = start(false, result, () -> p[0].read(ByteBuffer.allocate(10)));
            RdmaTestLib.awaitWaiting(t);
            p[0].close();
            finish(t, result, AsynchronousCloseException.class);
        } finally {
            p[0].close();
            p[1].close();
        }
        ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
        ssc.bind(RdmaTestLib.anyPort());
        AtomicReference<Throwable> result = new AtomicReference<>();
        Thread t = start(true, result, ssc::accept);
        RdmaTestLib.awaitWaiting(t);
        ssc.close();
        finish(t, result, AsynchronousCloseException.class);
    }

    static void interrupt() throws Exception {
        for (boolean virtual : new boolean[] { false, true }) {
            SocketChannel[] p = RdmaTestLib.pair();
            try {
                AtomicReference<Throwable> result = new AtomicReference<>();
                Thread t = start(virtual, result, () -> p[0].read(ByteBuffer.allocate(10)));
                RdmaTestLib.awaitWaiting(t);
                t.interrupt();
                finish(t, result, ClosedByInterruptException.class);
                assertFalse(p[0].isOpen(), "channel open after the interrupt");
            } finally {
                p[0].close();
                p[1].close();
            }
        }
    }

    static void soTimeout() throws Exception {
        try (ServerSocket ss = RdmaSockets.openServerSocket(INET)) {
            ss.bind(RdmaTestLib.anyPort());
            ss.setSoTimeout(500);
            long t0 = System.nanoTime();
            assertThrows(SocketTimeoutException.class, ss::accept);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertGreaterThanOrEqual(ms, 450L, "accept's timeout of 500 ms, elapsed ms");
            ss.setSoTimeout(0);
            try (Socket s = RdmaSockets.openSocket(INET)) {
                s.connect(ss.getLocalSocketAddress());
                try (Socket peer = ss.accept()) {
                    s.setSoTimeout(700);
                    assertEquals(700, s.getSoTimeout(), "getSoTimeout");
                    t0 = System.nanoTime();
                    assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read());
                    ms = (System.nanoTime() - t0) / 1_000_000;
                    assertGreaterThanOrEqual(ms, 650L, "read's timeout of 700 ms, elapsed ms");
                    // the socket stays usable after a timeout
                    peer.getOutputStream().write(42);
                    assertEquals(42, s.getInputStream().read(), "read after a timeout");
                }
            }
        }
    }

    static void refused() throws Exception {
        // a port nobody listens on: bind a server, note its port, close it
        InetSocketAddress dead;
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            dead = (InetSocketAddress) ssc.getLocalAddress();
        }
        SocketChannel sc = Sockets.openRdmaSocketChannel();
        assertThrows(ConnectException.class, () -> sc.connect(dead));
        assertFalse(sc.isOpen(), "channel open after a failed connect");
        try (Socket s = Sockets.openRdmaSocket()) {
            assertThrows(ConnectException.class, () -> s.connect(dead, 10_000));
        }
        try (SocketChannel nb = Sockets.openRdmaSocketChannel()) {
            nb.configureBlocking(false);
            assertThrows(ConnectException.class, () -> {
                if (nb.connect(dead))
                    return;
                try (Selector sel = Sockets.openRdmaSelector()) {
                    nb.register(sel, SelectionKey.OP_CONNECT);
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    while (!nb.finishConnect()) {
                        if (System.nanoTime() > deadline)
                            fail("connect neither failed nor succeeded in 5 s");
                        sel.select(1000);
                    }
                }
            });
        }
    }

    static void shutdownInput() throws Exception {
        SocketChannel[] p = RdmaTestLib.pair();
        try {
            AtomicReference<Throwable> result = new AtomicReference<>();
            int[] n = new int[1];
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    n[0] = p[0].read(ByteBuffer.allocate(10));
                } catch (Throwable e) {
                    result.set(e);
                }
            });
            RdmaTestLib.awaitWaiting(t);
            p[0].shutdownInput();
            long millis = 2_000;
            assertTrue(t.join(Duration.ofMillis(millis)), "reader woke up within " + millis + " ms of shutdownInput");
            assertNull(result.get(), "read threw");
            assertEquals(-1, n[0], "read after shutdownInput");
            // output still works: a half close
            p[0].write(ByteBuffer.wrap(new byte[] { 1, 2, 3 }));
            assertEquals((byte) 3, RdmaTestLib.readFully(p[1], 3).get(2), "last byte from the half-closed channel");
            p[1].shutdownOutput();
            assertEquals(-1, p[0].read(ByteBuffer.allocate(1)), "read after the peer's shutdownOutput");
        } finally {
            p[0].close();
            p[1].close();
        }
    }

    static void selector() throws Exception {
        try (Selector sel = Sockets.openRdmaSelector()) {
            // wakeup before select: select returns at once
            sel.wakeup();
            long t0 = System.nanoTime();
            sel.select(30_000);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertLessThan(ms, 10_000L, "select(30000) after wakeup, elapsed ms");
            // wakeup during select: select polls its descriptors in native
            // code, where the thread stays RUNNABLE, so the waker waits for
            // it to be in the poll selector's doSelect
            Thread selecting = Thread.currentThread();
            AtomicReference<Throwable> wakerFailure = new AtomicReference<>();
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    RdmaTestLib.awaitFrame(selecting, "PollSelectorImpl", "doSelect");
                } catch (Throwable e) {
                    wakerFailure.set(e);
                }
                sel.wakeup();
            });
            t0 = System.nanoTime();
            sel.select();
            ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("  select() woken after " + ms + " ms");
            waker.join();
            assertNull(wakerFailure.get(), "the waker did not see select");
            assertLessThan(ms, 10_000L, "select() with a wakeup during it, elapsed ms");
            // timed select, nothing ready
            t0 = System.nanoTime();
            assertEquals(0, sel.select(300), "keys selected with nothing registered");
            ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("  select(300) returned after " + ms + " ms");
            assertGreaterThanOrEqual(ms, 250L, "select(300), elapsed ms");
            assertLessThan(ms, 10_000L, "select(300), elapsed ms");

            // mixing
            try (SocketChannel tcp = SocketChannel.open()) {
                tcp.configureBlocking(false);
                assertThrows(IllegalSelectorException.class, () -> tcp.register(sel, SelectionKey.OP_READ));
            }
            try (SocketChannel rdma = Sockets.openRdmaSocketChannel(); Selector def = Selector.open()) {
                rdma.configureBlocking(false);
                // the default selector takes it (RdmaDefaultSelector tests it in full)
                assertEquals(def, rdma.register(def, SelectionKey.OP_READ).selector());
                // not supported by the RDMA provider
                assertThrows(UnsupportedOperationException.class, () -> rdma.provider().openDatagramChannel());
                assertThrows(UnsupportedOperationException.class, () -> rdma.provider().openPipe());
            }
        }
    }

    static void badInputs() throws Exception {
        // families
        assertThrows(NullPointerException.class, () -> RdmaSockets.openSocketChannel(null));
        assertThrows(NullPointerException.class, () -> RdmaSockets.openServerSocketChannel(null));
        assertThrows(NullPointerException.class, () -> RdmaSockets.openSocket(null));
        assertThrows(NullPointerException.class, () -> Sockets.openRdmaServerSocket(null));
        assertThrows(UnsupportedOperationException.class,
                () -> RdmaSockets.openSocketChannel(StandardProtocolFamily.UNIX));
        assertThrows(UnsupportedOperationException.class,
                () -> Sockets.openRdmaServerSocketChannel(StandardProtocolFamily.UNIX));

        // closed
        SocketChannel closed = Sockets.openRdmaSocketChannel();
        closed.close();
        assertThrows(ClosedChannelException.class, () -> closed.read(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> closed.write(ByteBuffer.allocate(1)));
        assertThrows(ClosedChannelException.class, () -> closed.connect(RdmaTestLib.anyPort()));
        assertThrows(ClosedChannelException.class, () -> closed.bind(null));
        assertThrows(ClosedChannelException.class,
                () -> closed.setOption(RdmaSocketOptions.RDMA_SQSIZE, 64));
        assertThrows(ClosedChannelException.class, closed::getLocalAddress);
        ServerSocketChannel closedServer = Sockets.openRdmaServerSocketChannel();
        closedServer.close();
        assertThrows(ClosedChannelException.class, closedServer::accept);

        // unbound, not yet connected
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            assertThrows(NotYetBoundException.class, ssc::accept);
            assertNull(ssc.getLocalAddress(), "an unbound server's address");
            assertThrows(NotYetConnectedException.class, () -> sc.read(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, () -> sc.write(ByteBuffer.allocate(1)));
            assertThrows(NotYetConnectedException.class, sc::shutdownInput);
            assertThrows(NotYetConnectedException.class, sc::shutdownOutput);
            assertNull(sc.getRemoteAddress(), "an unconnected channel's remote address");
            assertThrows(NullPointerException.class, () -> sc.connect(null));
            assertThrows(NullPointerException.class, () -> sc.read((ByteBuffer) null));
        }

        // family and address do not match
        InetAddress v6 = InetAddress.getByName("::1");
        try (SocketChannel sc = Sockets.openRdmaSocketChannel(INET)) {
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> sc.bind(new InetSocketAddress(v6, 0)));
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> sc.connect(new InetSocketAddress(v6, 7000)));
        }
        try (SocketChannel sc = RdmaSockets.openSocketChannel(INET6)) {
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> sc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
        }
        try (ServerSocketChannel ssc = RdmaSockets.openServerSocketChannel(INET6)) {
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> ssc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
        }

        // unsupported options
        try (SocketChannel sc = Sockets.openRdmaSocketChannel();
             ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Socket s = Sockets.openRdmaSocket()) {
            for (SocketOption<?> o : List.of(StandardSocketOptions.IP_TOS, StandardSocketOptions.SO_REUSEPORT,
                    ExtendedSocketOptions.TCP_KEEPIDLE, ExtendedSocketOptions.TCP_QUICKACK)) {
                assertFalse(sc.supportedOptions().contains(o), o + " listed as supported");
                assertThrows(UnsupportedOperationException.class, () -> sc.getOption(o));
            }
            assertThrows(UnsupportedOperationException.class,
                    () -> sc.setOption(StandardSocketOptions.IP_TOS, 8));
            assertThrows(UnsupportedOperationException.class,
                    () -> ssc.setOption(StandardSocketOptions.SO_SNDBUF, 8192));
            assertThrows(UnsupportedOperationException.class, () -> s.setOOBInline(true));
            assertThrows(UnsupportedOperationException.class, () -> s.setTrafficClass(8));

            // bad values
            for (int bad : new int[] { -1, 0, 65535, Integer.MAX_VALUE, Integer.MIN_VALUE }) {
                assertThrows(IllegalArgumentException.class,
                        () -> sc.setOption(RdmaSocketOptions.RDMA_SQSIZE, bad));
                assertThrows(IllegalArgumentException.class,
                        () -> ssc.setOption(RdmaSocketOptions.RDMA_RQSIZE, bad));
            }
            for (int bad : new int[] { -1, 65535, Integer.MAX_VALUE }) {
                assertThrows(IllegalArgumentException.class,
                        () -> sc.setOption(RdmaSocketOptions.RDMA_INLINE, bad));
            }
            assertThrows(IllegalArgumentException.class,
                    () -> sc.setOption(RdmaSocketOptions.RDMA_INLINE, null));
            assertThrows(IllegalArgumentException.class,
                    () -> sc.setOption(StandardSocketOptions.SO_RCVBUF, -1));
            assertThrows(IllegalArgumentException.class,
                    () -> sc.setOption(StandardSocketOptions.SO_SNDBUF, -5));
            assertThrows(NullPointerException.class, () -> sc.setOption(null, 1));
        }

        // RDMA options once connected
        SocketChannel[] p = RdmaTestLib.pair();
        try {
            assertThrows(SocketException.class, () -> p[0].setOption(RdmaSocketOptions.RDMA_SQSIZE, 64));
            assertThrows(SocketException.class, () -> p[1].setOption(RdmaSocketOptions.RDMA_INLINE, 32));
            assertThrows(SocketException.class, () -> p[0].socket().sendUrgentData(1));
            InputStream in = p[0].socket().getInputStream();
            assertEquals(0, in.available(), "available() with nothing sent");
            // rsockets has no FIONREAD: available() peeks, and must see
            // what has arrived without consuming it
            byte[] msg = RdmaTestLib.message(1000, 11);
            RdmaTestLib.writeFully(p[1], ByteBuffer.wrap(msg));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (in.available() < msg.length && System.nanoTime() < deadline)
                Thread.onSpinWait();
            assertEquals(msg.length, in.available(), "available() after 1000 bytes arrived");
            assertEquals(-1, Arrays.mismatch(msg, in.readNBytes(msg.length)), "bytes read after available()");
            assertEquals(0, in.available(), "available() after reading them");
        } finally {
            p[0].close();
            p[1].close();
        }
    }

    static void options() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            System.out.println("  client options " + sc.supportedOptions());
            System.out.println("  server options " + ssc.supportedOptions());
            ssc.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            assertTrue(ssc.getOption(StandardSocketOptions.SO_REUSEADDR), "SO_REUSEADDR after setting it");
            ssc.setOption(RdmaSocketOptions.RDMA_SQSIZE, 100);
            assertEquals(100, ssc.getOption(RdmaSocketOptions.RDMA_SQSIZE), "server RDMA_SQSIZE");
            ssc.bind(RdmaTestLib.anyPort());

            sc.setOption(RdmaSocketOptions.RDMA_SQSIZE, 64);
            sc.setOption(RdmaSocketOptions.RDMA_RQSIZE, 128);
            sc.setOption(RdmaSocketOptions.RDMA_INLINE, 0);
            System.out.println("  RDMA_SQSIZE " + sc.getOption(RdmaSocketOptions.RDMA_SQSIZE)
                    + ", RDMA_RQSIZE " + sc.getOption(RdmaSocketOptions.RDMA_RQSIZE)
                    + ", RDMA_INLINE " + sc.getOption(RdmaSocketOptions.RDMA_INLINE));
            assertEquals(64, sc.getOption(RdmaSocketOptions.RDMA_SQSIZE), "RDMA_SQSIZE");
            assertEquals(128, sc.getOption(RdmaSocketOptions.RDMA_RQSIZE), "RDMA_RQSIZE");
            sc.setOption(StandardSocketOptions.SO_SNDBUF, 65536);
            sc.setOption(StandardSocketOptions.SO_RCVBUF, 65536);
            System.out.println("  SO_SNDBUF " + sc.getOption(StandardSocketOptions.SO_SNDBUF)
                    + ", SO_RCVBUF " + sc.getOption(StandardSocketOptions.SO_RCVBUF));
            sc.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertTrue(sc.getOption(StandardSocketOptions.TCP_NODELAY), "TCP_NODELAY after setting it");
            sc.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            assertTrue(sc.getOption(StandardSocketOptions.SO_KEEPALIVE), "SO_KEEPALIVE after setting it");
            assertEquals(-1, sc.getOption(StandardSocketOptions.SO_LINGER), "SO_LINGER default");
            sc.setOption(StandardSocketOptions.SO_LINGER, 100_000);
            assertEquals(65535, sc.getOption(StandardSocketOptions.SO_LINGER), "SO_LINGER set to 100000 (capped)");
            Socket s = sc.socket();
            s.setSoLinger(true, 5);
            assertEquals(5, s.getSoLinger(), "getSoLinger after setSoLinger(true, 5)");
            s.setSoLinger(false, 0);
            assertEquals(-1, s.getSoLinger(), "getSoLinger after setSoLinger(false, 0)");
            s.setTcpNoDelay(false);
            assertFalse(s.getTcpNoDelay(), "getTcpNoDelay after setTcpNoDelay(false)");

            sc.connect(ssc.getLocalAddress());
            try (SocketChannel peer = ssc.accept()) {
                System.out.println("  accepted RDMA_SQSIZE " + peer.getOption(RdmaSocketOptions.RDMA_SQSIZE));
                // linger set on an open connection: close still delivers the data
                peer.setOption(StandardSocketOptions.SO_LINGER, 0);
                peer.write(ByteBuffer.wrap(new byte[] { 9 }));
            }
            assertEquals((byte) 9, RdmaTestLib.readFully(sc, 1).get(0), "the byte sent before a close with SO_LINGER 0");
        }
    }

    /**
     * SO_SNDBUF, SO_RCVBUF and the RDMA options set to 0, 1 and
     * Integer.MAX_VALUE, in that order: each either throws
     * IllegalArgumentException or leaves the option no smaller than the
     * smaller request did; then a connection with each end at the
     * extremes carries data intact.
     */
    static void optionLimits() throws Exception {
        List<SocketOption<Integer>> options = List.of(StandardSocketOptions.SO_SNDBUF,
                StandardSocketOptions.SO_RCVBUF, RdmaSocketOptions.RDMA_SQSIZE,
                RdmaSocketOptions.RDMA_RQSIZE, RdmaSocketOptions.RDMA_INLINE);
        for (boolean server : new boolean[] { false, true }) {
            try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                 SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                for (SocketOption<Integer> o : options) {
                    NetworkChannel ch = server ? ssc : sc;
                    if (!ch.supportedOptions().contains(o))
                        continue;
                    int dflt = ch.getOption(o);
                    int before = 0;
                    StringBuilder seen = new StringBuilder("  " + (server ? "server " : "") + o + ": default " + dflt);
                    for (int v : new int[] { 0, 1, Integer.MAX_VALUE }) {
                        try {
                            ch.setOption(o, v);
                        } catch (IllegalArgumentException e) {
                            seen.append(", ").append(v).append(" -> IllegalArgumentException");
                            assertTrue(e.getMessage() != null && e.getMessage().contains(Integer.toString(v)),
                                    o + " set to " + v + ": the message names the value: " + e.getMessage());
                            continue;
                        }
                        int now = ch.getOption(o);
                        seen.append(", ").append(v).append(" -> ").append(now);
                        assertGreaterThanOrEqual(now, before, o + " after setting " + v
                                + ", a larger request than the one that gave " + before);
                        if (v == Integer.MAX_VALUE)
                            assertGreaterThanOrEqual(now, dflt, o + " after setting " + v + " (default " + dflt + ")");
                        before = now;
                    }
                    System.out.println(seen);
                }
            }
        }
        // queue or inline sizes above the device's limits fail the connect
        // with a message that names the options, or the device takes them
        for (SocketOption<Integer> o : List.of(RdmaSocketOptions.RDMA_INLINE, RdmaSocketOptions.RDMA_SQSIZE)) {
            try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                 SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                ssc.bind(RdmaTestLib.anyPort());
                sc.setOption(o, 65534);
                if (o == RdmaSocketOptions.RDMA_SQSIZE)
                    sc.setOption(RdmaSocketOptions.RDMA_RQSIZE, 65534);
                try {
                    sc.connect(ssc.getLocalAddress());
                    System.out.println("  connect with " + o + " 65534: connected");
                } catch (SocketException e) {
                    System.out.println("  connect with " + o + " 65534: " + e);
                    assertTrue(e.getMessage().contains(o.name()), "the message names " + o + ": " + e.getMessage());
                }
            }
        }
        // the smallest and the largest buffers, and the smallest queues,
        // carry data
        for (int v : new int[] { 0, 1, Integer.MAX_VALUE }) {
            try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                 SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                int queue = (v == Integer.MAX_VALUE) ? 384 : Math.max(v, 1);
                ssc.setOption(StandardSocketOptions.SO_RCVBUF, v);
                ssc.setOption(RdmaSocketOptions.RDMA_SQSIZE, queue);
                ssc.setOption(RdmaSocketOptions.RDMA_RQSIZE, queue);
                ssc.setOption(RdmaSocketOptions.RDMA_INLINE, Math.min(v, 64));
                ssc.bind(RdmaTestLib.anyPort());
                sc.setOption(StandardSocketOptions.SO_SNDBUF, v);
                sc.setOption(StandardSocketOptions.SO_RCVBUF, v);
                sc.setOption(RdmaSocketOptions.RDMA_SQSIZE, queue);
                sc.setOption(RdmaSocketOptions.RDMA_RQSIZE, queue);
                sc.setOption(RdmaSocketOptions.RDMA_INLINE, Math.min(v, 64));
                sc.connect(ssc.getLocalAddress());
                try (SocketChannel peer = ssc.accept()) {
                    peer.setOption(StandardSocketOptions.SO_SNDBUF, v);
                    long t0 = System.nanoTime();
                    RdmaTestLib.echo(sc, peer, 1 << 20, v);
                    System.out.printf("  1 MiB echo with every option set to %d: SO_SNDBUF %d, SO_RCVBUF %d,"
                            + " RDMA_SQSIZE %d, %.0f ms%n", v, sc.getOption(StandardSocketOptions.SO_SNDBUF),
                            sc.getOption(StandardSocketOptions.SO_RCVBUF),
                            sc.getOption(RdmaSocketOptions.RDMA_SQSIZE), (System.nanoTime() - t0) / 1e6);
                }
            }
        }
    }
}
