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
 * @summary Issue items 6 and 7, and the selector's contract: asynchronous
 *          close (read, accept), interrupt (platform and virtual thread),
 *          SO_TIMEOUT expiry (read, accept), connection refused (Socket,
 *          blocking and non-blocking channel), shutdownInput waking a reader;
 *          Selector wakeup, timed select, IllegalSelectorException both ways;
 *          every bad input: null or unsupported family, closed, unbound and
 *          not-yet-connected channels, a family that does not match the
 *          address, unsupported options, bad option values, RDMA options set
 *          too late; supported options round-trip.  Runs in the Soft-RoCE
 *          guest (make/scripts/rdma-guest.sh).
 * @requires os.family == "linux"
 * @run main/othervm/timeout=600 RdmaBehaviour
 */

import java.io.IOException;
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
import java.nio.channels.NotYetBoundException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.ExtendedSocketOptions;
import jdk.net.RdmaSocketOptions;
import jdk.net.RdmaSockets;
import jdk.net.Sockets;

import static java.net.StandardProtocolFamily.INET;
import static java.net.StandardProtocolFamily.INET6;

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
                new RdmaTestLib.Case("options", RdmaBehaviour::options)));
    }

    /** A connected pair: [0] the client, [1] the accepted channel. */
    static SocketChannel[] pair() throws IOException {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            c.connect(ssc.getLocalAddress());
            return new SocketChannel[] { c, ssc.accept() };
        }
    }

    /** Starts task in a thread; returns the thread, whose outcome lands in result. */
    static Thread start(boolean virtual, AtomicReference<Throwable> result, RdmaTestLib.ThrowingRunnable task) {
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

    static void waitBlocked(Thread t) throws InterruptedException {
        // let it reach its wait; rsocket waits poll, so the state may be RUNNABLE or (TIMED_)WAITING
        Thread.sleep(1000);
        RdmaTestLib.check(t.isAlive(), "thread still blocked");
    }

    static void finish(Thread t, AtomicReference<Throwable> result, Class<? extends Throwable> expected)
        throws InterruptedException
    {
        t.join(30_000);
        RdmaTestLib.check(!t.isAlive(), "blocked thread did not wake up within 30 s");
        Throwable r = result.get();
        System.out.println("  " + r);
        if (!expected.isInstance(r))
            throw new AssertionError("expected " + expected.getName() + ", got " + r, r);
    }

    static void asyncClose() throws Exception {
        SocketChannel[] p = pair();
        try {
            AtomicReference<Throwable> result = new AtomicReference<>();
            Thread t = start(false, result, () -> p[0].read(ByteBuffer.allocate(10)));
            waitBlocked(t);
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
        waitBlocked(t);
        ssc.close();
        finish(t, result, AsynchronousCloseException.class);
    }

    static void interrupt() throws Exception {
        for (boolean virtual : new boolean[] { false, true }) {
            SocketChannel[] p = pair();
            try {
                AtomicReference<Throwable> result = new AtomicReference<>();
                Thread t = start(virtual, result, () -> p[0].read(ByteBuffer.allocate(10)));
                waitBlocked(t);
                t.interrupt();
                finish(t, result, ClosedByInterruptException.class);
                RdmaTestLib.check(!p[0].isOpen(), "interrupt closed the channel");
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
            RdmaTestLib.expect(SocketTimeoutException.class, ss::accept);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            RdmaTestLib.check(ms >= 450, "accept timed out after " + ms + " ms");
            ss.setSoTimeout(0);
            try (Socket s = RdmaSockets.openSocket(INET)) {
                s.connect(ss.getLocalSocketAddress());
                try (Socket peer = ss.accept()) {
                    s.setSoTimeout(700);
                    RdmaTestLib.check(s.getSoTimeout() == 700, "getSoTimeout");
                    t0 = System.nanoTime();
                    RdmaTestLib.expect(SocketTimeoutException.class, () -> s.getInputStream().read());
                    ms = (System.nanoTime() - t0) / 1_000_000;
                    RdmaTestLib.check(ms >= 650, "read timed out after " + ms + " ms");
                    // the socket stays usable after a timeout
                    peer.getOutputStream().write(42);
                    RdmaTestLib.check(s.getInputStream().read() == 42, "read after a timeout");
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
        RdmaTestLib.expect(ConnectException.class, () -> sc.connect(dead));
        RdmaTestLib.check(!sc.isOpen(), "a failed connect closes the channel");
        try (Socket s = Sockets.openRdmaSocket()) {
            RdmaTestLib.expect(ConnectException.class, () -> s.connect(dead, 10_000));
        }
        try (SocketChannel nb = Sockets.openRdmaSocketChannel()) {
            nb.configureBlocking(false);
            RdmaTestLib.expect(ConnectException.class, () -> {
                if (nb.connect(dead))
                    return;
                try (Selector sel = Sockets.openRdmaSelector()) {
                    nb.register(sel, SelectionKey.OP_CONNECT);
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (!nb.finishConnect()) {
                        if (System.nanoTime() > deadline)
                            throw new AssertionError("connect neither failed nor succeeded in 30 s");
                        sel.select(1000);
                    }
                }
            });
        }
    }

    static void shutdownInput() throws Exception {
        SocketChannel[] p = pair();
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
            waitBlocked(t);
            p[0].shutdownInput();
            t.join(30_000);
            RdmaTestLib.check(!t.isAlive(), "reader woke up");
            RdmaTestLib.check(result.get() == null && n[0] == -1, "read returned " + n[0] + ", " + result.get());
            // output still works: a half close
            p[0].write(ByteBuffer.wrap(new byte[] { 1, 2, 3 }));
            RdmaTestLib.check(RdmaTestLib.readFully(p[1], 3).get(2) == 3, "half-closed channel writes");
            p[1].shutdownOutput();
            RdmaTestLib.check(p[0].read(ByteBuffer.allocate(1)) == -1, "EOF");
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
            RdmaTestLib.check(System.nanoTime() - t0 < 10_000_000_000L, "wakeup before select");
            // wakeup during select
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) { }
                sel.wakeup();
            });
            t0 = System.nanoTime();
            sel.select();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("  select() woken after " + ms + " ms");
            RdmaTestLib.check(ms < 10_000, "wakeup during select took " + ms + " ms");
            waker.join();
            // timed select, nothing ready
            t0 = System.nanoTime();
            RdmaTestLib.check(sel.select(300) == 0, "nothing ready");
            ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("  select(300) returned after " + ms + " ms");
            RdmaTestLib.check(ms >= 250 && ms < 10_000, "timed select took " + ms + " ms");

            // mixing
            try (SocketChannel tcp = SocketChannel.open()) {
                tcp.configureBlocking(false);
                RdmaTestLib.expect(IllegalSelectorException.class, () -> tcp.register(sel, SelectionKey.OP_READ));
            }
            try (SocketChannel rdma = Sockets.openRdmaSocketChannel(); Selector def = Selector.open()) {
                rdma.configureBlocking(false);
                RdmaTestLib.expect(IllegalSelectorException.class, () -> rdma.register(def, SelectionKey.OP_READ));
                // not supported by the RDMA provider
                RdmaTestLib.expect(UnsupportedOperationException.class, () -> rdma.provider().openDatagramChannel());
                RdmaTestLib.expect(UnsupportedOperationException.class, () -> rdma.provider().openPipe());
            }
        }
    }

    static void badInputs() throws Exception {
        // families
        RdmaTestLib.expect(NullPointerException.class, () -> RdmaSockets.openSocketChannel(null));
        RdmaTestLib.expect(NullPointerException.class, () -> RdmaSockets.openServerSocketChannel(null));
        RdmaTestLib.expect(NullPointerException.class, () -> RdmaSockets.openSocket(null));
        RdmaTestLib.expect(NullPointerException.class, () -> Sockets.openRdmaServerSocket(null));
        RdmaTestLib.expect(UnsupportedOperationException.class,
                () -> RdmaSockets.openSocketChannel(StandardProtocolFamily.UNIX));
        RdmaTestLib.expect(UnsupportedOperationException.class,
                () -> Sockets.openRdmaServerSocketChannel(StandardProtocolFamily.UNIX));

        // closed
        SocketChannel closed = Sockets.openRdmaSocketChannel();
        closed.close();
        RdmaTestLib.expect(ClosedChannelException.class, () -> closed.read(ByteBuffer.allocate(1)));
        RdmaTestLib.expect(ClosedChannelException.class, () -> closed.write(ByteBuffer.allocate(1)));
        RdmaTestLib.expect(ClosedChannelException.class, () -> closed.connect(RdmaTestLib.anyPort()));
        RdmaTestLib.expect(ClosedChannelException.class, () -> closed.bind(null));
        RdmaTestLib.expect(ClosedChannelException.class,
                () -> closed.setOption(RdmaSocketOptions.RDMA_SQSIZE, 64));
        RdmaTestLib.expect(ClosedChannelException.class, closed::getLocalAddress);
        ServerSocketChannel closedServer = Sockets.openRdmaServerSocketChannel();
        closedServer.close();
        RdmaTestLib.expect(ClosedChannelException.class, closedServer::accept);

        // unbound, not yet connected
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            RdmaTestLib.expect(NotYetBoundException.class, ssc::accept);
            RdmaTestLib.check(ssc.getLocalAddress() == null, "unbound server has no address");
            RdmaTestLib.expect(NotYetConnectedException.class, () -> sc.read(ByteBuffer.allocate(1)));
            RdmaTestLib.expect(NotYetConnectedException.class, () -> sc.write(ByteBuffer.allocate(1)));
            RdmaTestLib.expect(NotYetConnectedException.class, sc::shutdownInput);
            RdmaTestLib.expect(NotYetConnectedException.class, sc::shutdownOutput);
            RdmaTestLib.check(sc.getRemoteAddress() == null, "unconnected channel has no remote address");
            RdmaTestLib.expect(NullPointerException.class, () -> sc.connect(null));
            RdmaTestLib.expect(NullPointerException.class, () -> sc.read((ByteBuffer) null));
        }

        // family and address do not match
        InetAddress v6 = InetAddress.getByName("::1");
        try (SocketChannel sc = Sockets.openRdmaSocketChannel(INET)) {
            RdmaTestLib.expect(UnsupportedAddressTypeException.class,
                    () -> sc.bind(new InetSocketAddress(v6, 0)));
            RdmaTestLib.expect(UnsupportedAddressTypeException.class,
                    () -> sc.connect(new InetSocketAddress(v6, 7000)));
        }
        try (SocketChannel sc = RdmaSockets.openSocketChannel(INET6)) {
            RdmaTestLib.expect(UnsupportedAddressTypeException.class,
                    () -> sc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
        }
        try (ServerSocketChannel ssc = RdmaSockets.openServerSocketChannel(INET6)) {
            RdmaTestLib.expect(UnsupportedAddressTypeException.class,
                    () -> ssc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
        }

        // unsupported options
        try (SocketChannel sc = Sockets.openRdmaSocketChannel();
             ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Socket s = Sockets.openRdmaSocket()) {
            for (SocketOption<?> o : List.of(StandardSocketOptions.IP_TOS, StandardSocketOptions.SO_REUSEPORT,
                    ExtendedSocketOptions.TCP_KEEPIDLE, ExtendedSocketOptions.TCP_QUICKACK)) {
                RdmaTestLib.check(!sc.supportedOptions().contains(o), o + " listed as supported");
                RdmaTestLib.expect(UnsupportedOperationException.class, () -> sc.getOption(o));
            }
            RdmaTestLib.expect(UnsupportedOperationException.class,
                    () -> sc.setOption(StandardSocketOptions.IP_TOS, 8));
            RdmaTestLib.expect(UnsupportedOperationException.class,
                    () -> ssc.setOption(StandardSocketOptions.SO_SNDBUF, 8192));
            RdmaTestLib.expect(UnsupportedOperationException.class, () -> s.setOOBInline(true));
            RdmaTestLib.expect(UnsupportedOperationException.class, () -> s.setTrafficClass(8));

            // bad values
            for (int bad : new int[] { -1, 0, 65535, Integer.MAX_VALUE, Integer.MIN_VALUE }) {
                RdmaTestLib.expect(IllegalArgumentException.class,
                        () -> sc.setOption(RdmaSocketOptions.RDMA_SQSIZE, bad));
                RdmaTestLib.expect(IllegalArgumentException.class,
                        () -> ssc.setOption(RdmaSocketOptions.RDMA_RQSIZE, bad));
            }
            for (int bad : new int[] { -1, 65535, Integer.MAX_VALUE }) {
                RdmaTestLib.expect(IllegalArgumentException.class,
                        () -> sc.setOption(RdmaSocketOptions.RDMA_INLINE, bad));
            }
            RdmaTestLib.expect(IllegalArgumentException.class,
                    () -> sc.setOption(RdmaSocketOptions.RDMA_INLINE, null));
            RdmaTestLib.expect(IllegalArgumentException.class,
                    () -> sc.setOption(StandardSocketOptions.SO_RCVBUF, -1));
            RdmaTestLib.expect(IllegalArgumentException.class,
                    () -> sc.setOption(StandardSocketOptions.SO_SNDBUF, -5));
            RdmaTestLib.expect(NullPointerException.class, () -> sc.setOption(null, 1));
        }

        // RDMA options once connected
        SocketChannel[] p = pair();
        try {
            RdmaTestLib.expect(SocketException.class, () -> p[0].setOption(RdmaSocketOptions.RDMA_SQSIZE, 64));
            RdmaTestLib.expect(SocketException.class, () -> p[1].setOption(RdmaSocketOptions.RDMA_INLINE, 32));
            RdmaTestLib.expect(SocketException.class, () -> p[0].socket().sendUrgentData(1));
            RdmaTestLib.check(p[0].socket().getInputStream().available() == 0, "available");
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
            RdmaTestLib.check(ssc.getOption(StandardSocketOptions.SO_REUSEADDR), "SO_REUSEADDR");
            ssc.setOption(RdmaSocketOptions.RDMA_SQSIZE, 100);
            RdmaTestLib.check(ssc.getOption(RdmaSocketOptions.RDMA_SQSIZE) == 100, "server RDMA_SQSIZE "
                    + ssc.getOption(RdmaSocketOptions.RDMA_SQSIZE));
            ssc.bind(RdmaTestLib.anyPort());

            sc.setOption(RdmaSocketOptions.RDMA_SQSIZE, 64);
            sc.setOption(RdmaSocketOptions.RDMA_RQSIZE, 128);
            sc.setOption(RdmaSocketOptions.RDMA_INLINE, 0);
            System.out.println("  RDMA_SQSIZE " + sc.getOption(RdmaSocketOptions.RDMA_SQSIZE)
                    + ", RDMA_RQSIZE " + sc.getOption(RdmaSocketOptions.RDMA_RQSIZE)
                    + ", RDMA_INLINE " + sc.getOption(RdmaSocketOptions.RDMA_INLINE));
            RdmaTestLib.check(sc.getOption(RdmaSocketOptions.RDMA_SQSIZE) == 64, "RDMA_SQSIZE");
            RdmaTestLib.check(sc.getOption(RdmaSocketOptions.RDMA_RQSIZE) == 128, "RDMA_RQSIZE");
            sc.setOption(StandardSocketOptions.SO_SNDBUF, 65536);
            sc.setOption(StandardSocketOptions.SO_RCVBUF, 65536);
            System.out.println("  SO_SNDBUF " + sc.getOption(StandardSocketOptions.SO_SNDBUF)
                    + ", SO_RCVBUF " + sc.getOption(StandardSocketOptions.SO_RCVBUF));
            sc.setOption(StandardSocketOptions.TCP_NODELAY, true);
            RdmaTestLib.check(sc.getOption(StandardSocketOptions.TCP_NODELAY), "TCP_NODELAY");
            sc.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            RdmaTestLib.check(sc.getOption(StandardSocketOptions.SO_KEEPALIVE), "SO_KEEPALIVE");
            RdmaTestLib.check(sc.getOption(StandardSocketOptions.SO_LINGER) == -1, "SO_LINGER default");
            sc.setOption(StandardSocketOptions.SO_LINGER, 100_000);
            RdmaTestLib.check(sc.getOption(StandardSocketOptions.SO_LINGER) == 65535, "SO_LINGER capped");
            Socket s = sc.socket();
            s.setSoLinger(true, 5);
            RdmaTestLib.check(s.getSoLinger() == 5, "getSoLinger " + s.getSoLinger());
            s.setSoLinger(false, 0);
            RdmaTestLib.check(s.getSoLinger() == -1, "linger off");
            s.setTcpNoDelay(false);
            RdmaTestLib.check(!s.getTcpNoDelay(), "setTcpNoDelay");

            sc.connect(ssc.getLocalAddress());
            try (SocketChannel peer = ssc.accept()) {
                System.out.println("  accepted RDMA_SQSIZE " + peer.getOption(RdmaSocketOptions.RDMA_SQSIZE));
                // linger set on an open connection: close still delivers the data
                peer.setOption(StandardSocketOptions.SO_LINGER, 0);
                peer.write(ByteBuffer.wrap(new byte[] { 9 }));
            }
            RdmaTestLib.check(RdmaTestLib.readFully(sc, 1).get(0) == 9, "data sent before close arrives");
        }
    }
}
