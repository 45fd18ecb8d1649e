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
 * @summary RDMA sockets carry data intact: echo over every factory (Socket and
 *          ServerSocket with streams, SocketChannel blocking with scatter/
 *          gather, SocketChannel non-blocking with an RDMA Selector, both
 *          with the Sockets and the RdmaSockets names); a 256 MiB transfer
 *          with a CRC32 compared at both ends; 64 concurrent connections
 *          served by one selector thread, each verifying its bytes, within a
 *          time bound; an echo from 100 virtual threads; eight listeners
 *          open at once, each echoing a connection.  Runs in the
 *          Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaEcho
 */

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import jdk.net.RdmaSockets;
import jdk.net.Sockets;

import static java.net.StandardProtocolFamily.INET;
import static java.net.StandardProtocolFamily.INET6;
import static jdk.test.lib.Asserts.*;

public class RdmaEcho {
    static final int MSG = 10_000;

    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("Socket echo (Sockets.openRdmaSocket/ServerSocket)",
                        () -> socketEcho(Sockets.openRdmaServerSocket(), Sockets.openRdmaSocket())),
                new RdmaTestLib.Case("Socket echo (RdmaSockets.openSocket/ServerSocket INET)",
                        () -> socketEcho(RdmaSockets.openServerSocket(INET), RdmaSockets.openSocket(INET))),
                new RdmaTestLib.Case("SocketChannel blocking echo, scatter/gather",
                        () -> blockingChannelEcho(Sockets.openRdmaServerSocketChannel(),
                                                  Sockets.openRdmaSocketChannel())),
                new RdmaTestLib.Case("SocketChannel blocking echo (RdmaSockets)",
                        () -> blockingChannelEcho(RdmaSockets.openServerSocketChannel(INET),
                                                  RdmaSockets.openSocketChannel(INET))),
                new RdmaTestLib.Case("SocketChannel non-blocking echo with a Selector",
                        () -> selectorEcho(1, 64 * 1024, 60)),
                new RdmaTestLib.Case("256 MiB transfer with CRC32 at both ends",
                        RdmaEcho::bigTransfer),
                new RdmaTestLib.Case("100 virtual threads echo",
                        RdmaEcho::virtualThreads),
                new RdmaTestLib.Case("64 connections on one selector thread",
                        () -> selectorEcho(64, 32 * 1024, 300)),
                new RdmaTestLib.Case("8 listeners open at once",
                        RdmaEcho::manyListeners)));
    }

    /** Accepts one connection and echoes it until EOF. */
    static Thread socketEchoServer(ServerSocket ss) {
        Thread t = new Thread(() -> {
            try (Socket s = ss.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[4096];
                int n;
                while ((n = in.read(buf)) > 0)
                    out.write(buf, 0, n);
            } catch (Exception e) {
                e.printStackTrace();
            }
        });
        t.start();
        return t;
    }

    static void socketEcho(ServerSocket ss, Socket s) throws Exception {
        try (ss; s) {
            ss.bind(RdmaTestLib.anyPort());
            System.out.println("  server " + ss.getLocalSocketAddress());
            Thread server = socketEchoServer(ss);
            s.connect(ss.getLocalSocketAddress(), 30_000);
            s.setSoTimeout(60_000);
            System.out.println("  " + s.getLocalSocketAddress() + " -> " + s.getRemoteSocketAddress());
            assertTrue(s.isConnected(), "isConnected after connect");
            assertEquals(RdmaTestLib.SERVER, s.getInetAddress(), "the connected socket's remote address");
            byte[] msg = RdmaTestLib.message(MSG, 7);
            s.getOutputStream().write(msg);
            byte[] back = new byte[MSG];
            new DataInputStream(s.getInputStream()).readFully(back);
            assertEquals(-1, Arrays.mismatch(msg, back), "the first echoed byte that differs");
            s.shutdownOutput();
            assertEquals(-1, s.getInputStream().read(), "read after the server closes");
            assertTrue(server.join(Duration.ofSeconds(60)), "server done within 60 s");
        }
        assertTrue(s.isClosed(), "socket closed");
        assertTrue(ss.isClosed(), "server socket closed");
    }

    static void blockingChannelEcho(ServerSocketChannel ssc, SocketChannel sc) throws Exception {
        try (ssc; sc) {
            ssc.bind(RdmaTestLib.anyPort());
            InetSocketAddress local = (InetSocketAddress) ssc.getLocalAddress();
            assertNotEquals(0, local.getPort(), "the port bound");
            Thread server = new Thread(() -> {
                try (SocketChannel peer = ssc.accept()) {
                    assertTrue(peer.isBlocking(), "accepted channel is blocking");
                    assertEquals(local, peer.getLocalAddress(), "accepted channel's local address");
                    // scatter read, gather write
                    ByteBuffer[] bufs = { ByteBuffer.allocate(100), ByteBuffer.allocateDirect(3000),
                                          ByteBuffer.allocate(7000) };
                    long total = 0;
                    while (total < MSG) {
                        long n = peer.read(bufs);
                        if (n < 0)
                            fail("EOF after " + total + " of " + MSG + " bytes");
                        total += n;
                    }
                    for (ByteBuffer b : bufs)
                        b.flip();
                    while (bufs[2].hasRemaining())
                        peer.write(bufs);
                    ByteBuffer one = ByteBuffer.allocate(1);
                    assertEquals(-1, peer.read(one), "server's read after the client's shutdownOutput");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            server.start();
            assertTrue(sc.connect(local), "blocking connect's result");
            assertTrue(sc.isConnected(), "isConnected after connect");
            assertEquals(local, sc.getRemoteAddress(), "remote address");
            assertEquals(RdmaTestLib.SERVER, ((InetSocketAddress) sc.getLocalAddress()).getAddress(),
                    "local address");
            ByteBuffer a = ByteBuffer.wrap(RdmaTestLib.message(4000, 0));
            ByteBuffer b = ByteBuffer.allocateDirect(MSG - 4000);
            RdmaTestLib.fill(b, 4000);
            ByteBuffer[] srcs = { a, b };
            while (b.hasRemaining())
                sc.write(srcs);
            ByteBuffer back = RdmaTestLib.readFully(sc, MSG);
            assertEquals(-1, back.mismatch(ByteBuffer.wrap(RdmaTestLib.message(MSG, 0))), "the first echoed byte that differs");
            sc.shutdownOutput();
            assertTrue(server.join(Duration.ofSeconds(60)), "server done within 60 s");
            ByteBuffer one = ByteBuffer.allocate(1);
            assertEquals(-1, sc.read(one), "read after the server closes");
        }
    }

    /**
     * count clients send bytes to an echo server that is one thread with one
     * RDMA selector; the clients are driven by another thread with another
     * RDMA selector. Everything is non-blocking, and all connections are
     * open at once.
     */
    static void selectorEcho(int count, int bytesPerClient, int boundSeconds) throws Exception {
        long t0 = System.nanoTime();
        try (Selector sel = RdmaSockets.openSelector();
             Selector cs = Sockets.openRdmaSelector();
             ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort(), count);
            ssc.configureBlocking(false);
            ssc.register(sel, SelectionKey.OP_ACCEPT);
            InetSocketAddress addr = (InetSocketAddress) ssc.getLocalAddress();
            Throwable[] serverFailure = new Throwable[1];
            int[] maxOpen = new int[1];
            Thread server = new Thread(() -> {
                try {
                    maxOpen[0] = serve(sel, count);
                } catch (Throwable e) {
                    serverFailure[0] = e;
                }
            }, "selector");
            server.start();

            record Client(SocketChannel sc, ByteBuffer out, ByteBuffer in, byte[] expected) { }
            List<Client> clients = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                SocketChannel sc = Sockets.openRdmaSocketChannel();
                byte[] msg = RdmaTestLib.message(bytesPerClient, i * 1_000_003L);
                Client c = new Client(sc, ByteBuffer.wrap(msg), ByteBuffer.allocate(bytesPerClient), msg);
                clients.add(c);
                if (count == 1) {
                    // connect on a non-blocking channel: pending until finishConnect
                    sc.configureBlocking(false);
                    if (!sc.connect(addr)) {
                        assertTrue(sc.isConnectionPending(), "isConnectionPending after connect");
                        SelectionKey k = sc.register(cs, SelectionKey.OP_CONNECT);
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                        while (!sc.finishConnect()) {
                            assertLessThan(System.nanoTime() - deadline, 0L, "connect not done within 5 s");
                            cs.select(1000);
                        }
                        k.interestOps(0);
                        cs.selectedKeys().clear();
                    }
                    assertTrue(sc.isConnected(), "isConnected after finishConnect");
                    assertFalse(sc.isConnectionPending(), "isConnectionPending after finishConnect");
                    sc.register(cs, SelectionKey.OP_READ | SelectionKey.OP_WRITE, c);
                } else {
                    // blocking connects, then all connections are open at once, non-blocking
                    sc.connect(addr);
                    sc.configureBlocking(false);
                    sc.register(cs, SelectionKey.OP_READ | SelectionKey.OP_WRITE, c);
                    if ((i + 1) % 16 == 0)
                        RdmaTestLib.log("  " + (i + 1) + " of " + count + " connected");
                }
            }
            int done = 0;
            long deadline = t0 + TimeUnit.SECONDS.toNanos(boundSeconds);
            while (done < count) {
                if (System.nanoTime() > deadline)
                    fail(done + " of " + count + " clients done after " + boundSeconds + " s");
                cs.select(1000);
                Iterator<SelectionKey> it = cs.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    Client c = (Client) k.attachment();
                    if (k.isWritable() && c.out().hasRemaining()) {
                        c.sc().write(c.out());
                        if (!c.out().hasRemaining())
                            k.interestOps(SelectionKey.OP_READ);
                    }
                    if (k.isReadable()) {
                        if (c.sc().read(c.in()) < 0)
                            fail("EOF after " + c.in().position() + " of " + bytesPerClient + " bytes");
                        if (!c.in().hasRemaining()) {
                            assertEquals(-1, c.in().flip().mismatch(ByteBuffer.wrap(c.expected())),
                                    "the first echoed byte that differs");
                            k.cancel();
                            c.sc().close();
                            done++;
                            if (done % 16 == 0)
                                RdmaTestLib.log("  " + done + " of " + count + " clients done");
                        }
                    }
                }
            }
            assertTrue(server.join(Duration.ofSeconds(boundSeconds)), "selector thread done within " + boundSeconds + " s");
            if (serverFailure[0] != null)
                fail("server: " + serverFailure[0], serverFailure[0]);
            System.out.println("  at most " + maxOpen[0] + " connections open at once on the server");
            if (count > 1)
                assertGreaterThan(maxOpen[0], 1, "connections open at once on the server");
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("  %d connections x %d bytes echoed in %.1f s%n", count, bytesPerClient, secs);
        assertLessThan(secs, (double) boundSeconds, "seconds to echo");
    }

    /**
     * The echo server's loop: accepts count connections, echoes each until
     * EOF; returns how many were open at once at most.
     */
    static int serve(Selector sel, int count) throws Exception {
        int accepted = 0, finished = 0, maxOpen = 0;
        while (finished < count) {
            sel.select(5000);
            Iterator<SelectionKey> it = sel.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey k = it.next();
                it.remove();
                if (k.isAcceptable()) {
                    SocketChannel sc;
                    while ((sc = ((ServerSocketChannel) k.channel()).accept()) != null) {
                        sc.configureBlocking(false);
                        sc.register(sel, SelectionKey.OP_READ, ByteBuffer.allocate(8192));
                        accepted++;
                        maxOpen = Math.max(maxOpen, accepted - finished);
                    }
                    continue;
                }
                SocketChannel sc = (SocketChannel) k.channel();
                ByteBuffer buf = (ByteBuffer) k.attachment();
                if (buf.hasRemaining() && sc.read(buf) < 0) {
                    k.cancel();
                    sc.close();
                    finished++;
                    continue;
                }
                buf.flip();
                sc.write(buf);
                buf.compact();
                k.interestOps((buf.hasRemaining() ? SelectionKey.OP_READ : 0)
                        | (buf.position() > 0 ? SelectionKey.OP_WRITE : 0));
            }
        }
        assertEquals(count, accepted, "connections accepted");
        return maxOpen;
    }

    static void bigTransfer() throws Exception {
        final long total = 256L << 20;
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            long[] serverCrc = new long[1];
            Thread server = new Thread(() -> {
                try (SocketChannel peer = ssc.accept()) {
                    CRC32 crc = new CRC32();
                    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
                    long got = 0;
                    int n;
                    while ((n = peer.read(buf.clear())) >= 0) {
                        buf.flip();
                        crc.update(buf);
                        got += n;
                    }
                    assertEquals(total, got, "bytes the server received");
                    serverCrc[0] = crc.getValue();
                    // report it to the client
                    ByteBuffer r = ByteBuffer.allocate(8).putLong(crc.getValue()).flip();
                    RdmaTestLib.writeFully(peer, r);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            server.start();
            try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                sc.connect(ssc.getLocalAddress());
                CRC32 crc = new CRC32();
                ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
                // pseudo-random data; each 1 MiB chunk starts with its number
                byte[] chunk = new byte[1 << 20];
                new java.util.Random(42).nextBytes(chunk);
                long t0 = System.nanoTime();
                long chunks = 0;
                for (long sent = 0; sent < total; sent += chunk.length) {
                    ByteBuffer.wrap(chunk).putLong(chunks++);
                    crc.update(chunk);
                    buf.clear().put(chunk).flip();
                    RdmaTestLib.writeFully(sc, buf);
                    if (chunks % 32 == 0)
                        RdmaTestLib.log(String.format("  %d MiB sent, %.1f s", chunks,
                                (System.nanoTime() - t0) / 1e9));
                }
                sc.shutdownOutput();
                long remote = RdmaTestLib.readFully(sc, 8).getLong();
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf("  256 MiB in %.1f s (%.1f MB/s), crc %x / %x%n", secs,
                        total / 1e6 / secs, crc.getValue(), remote);
                assertEquals(crc.getValue(), remote, "the server's CRC32 of the bytes the client sent");
            }
            assertTrue(server.join(Duration.ofSeconds(60)), "server done within 60 s");
            assertNotEquals(0L, serverCrc[0], "the server's CRC32 (0 if it failed)");
        }
    }

    static void virtualThreads() throws Exception {
        final int n = 100;
        java.util.concurrent.atomic.AtomicInteger vtDone = new java.util.concurrent.atomic.AtomicInteger();
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor()) {
            ssc.bind(RdmaTestLib.anyPort(), n);
            InetSocketAddress addr = (InetSocketAddress) ssc.getLocalAddress();
            // the server: a virtual thread accepts, and a virtual thread per connection echoes
            Future<?> acceptor = vts.submit(() -> {
                for (int i = 0; i < n; i++) {
                    SocketChannel peer = ssc.accept();
                    vts.submit(() -> {
                        try (peer) {
                            ByteBuffer b = ByteBuffer.allocate(4096);
                            while (peer.read(b.clear()) > 0) {
                                b.flip();
                                RdmaTestLib.writeFully(peer, b);
                            }
                        }
                        return null;
                    });
                }
                return null;
            });
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                final long seed = i * 7919L;
                clients.add(vts.submit(() -> {
                    assertTrue(Thread.currentThread().isVirtual(), "client thread is virtual");
                    try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                        sc.connect(addr);
                        byte[] msg = RdmaTestLib.message(3000, seed);
                        RdmaTestLib.writeFully(sc, ByteBuffer.wrap(msg));
                        ByteBuffer back = RdmaTestLib.readFully(sc, msg.length);
                        assertEquals(-1, back.mismatch(ByteBuffer.wrap(msg)), "the first echoed byte that differs");
                    }
                    int d = vtDone.incrementAndGet();
                    if (d % 20 == 0)
                        RdmaTestLib.log("  " + d + " of " + n + " virtual-thread clients done");
                    return null;
                }));
            }
            for (Future<?> f : clients)
                f.get(300, TimeUnit.SECONDS);
            acceptor.get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * Eight server channels listening at once, each accepting and echoing
     * one connection: librdmacm 44.0 loses the connections of a listener
     * added after its listen service's array grows past four entries.
     */
    static void manyListeners() throws Exception {
        final int n = 8;
        List<ServerSocketChannel> listeners = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                listeners.add(ssc);
                ssc.bind(RdmaTestLib.anyPort());
            }
            for (int i = 0; i < n; i++) {
                ServerSocketChannel ssc = listeners.get(i);
                try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                    sc.connect(ssc.getLocalAddress());
                    try (SocketChannel peer = ssc.accept()) {
                        byte[] msg = RdmaTestLib.message(1000, i * 31L);
                        RdmaTestLib.writeFully(sc, ByteBuffer.wrap(msg));
                        ByteBuffer got = RdmaTestLib.readFully(peer, msg.length);
                        assertEquals(-1, got.mismatch(ByteBuffer.wrap(msg)),
                                "the first byte that differs on listener " + i);
                    }
                }
            }
        } finally {
            for (ServerSocketChannel ssc : listeners)
                ssc.close();
        }
    }
}
