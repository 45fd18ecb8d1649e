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
package org.openjdk.bench.jdk.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import jdk.net.RdmaSocketOptions;
import jdk.net.Sockets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * RDMA socket channels against TCP socket channels, in one JVM: a client
 * channel (the benchmark thread) and a server channel served by a platform
 * thread, both blocking, with direct buffers.
 *
 * <ul>
 * <li> {@code pingPong}: the client writes {@code size} bytes, the server
 *      reads them all and writes them back, the client reads them all.  The
 *      score is the round trip, in microseconds, sampled (JMH's SampleTime:
 *      percentiles of every round trip over five forks).
 * <li> {@code stream}: the client writes 64 KiB buffers that the server
 *      reads and drops.  The score is writes per second; times 64 KiB it is
 *      the one-way throughput.
 * <li> {@code socketPingPong}: {@code pingPong} through a classic
 *      {@code Socket}'s streams with byte arrays, on both ends: the path of
 *      programs written before NIO, and the heap-buffer path (each read and
 *      write copies through a temporary direct buffer).  Not run by make
 *      bench-rdma; make bench-rdma-streams runs it beside {@code pingPong}.
 * </ul>
 *
 * <p> The server binds to the address in the system property
 * rdio.rdma.server (make bench-rdma passes the Soft-RoCE guest's server
 * address), else the loopback address, which suits only {@code tcp}.  The
 * C baselines that these runs are compared with are librdmacm's rstream,
 * over rsockets and over TCP (its "-T s"), from the same guest boot
 * (test/infra/bench/bench-rdma.sh).
 *
 * <p> Across two machines, -Drdio.rdma.remote=HOST:PORT makes
 * {@code pingPong} and {@code stream} connect to the echo server of
 * {@link #main} there (RDMA to PORT, TCP to PORT + 1) instead of a server
 * thread of their own (make bench-rdma-pingpong-pair runs it in the other
 * guest of a pair).
 *
 * <p> -Drdio.rdma.inline=N sets RDMA_INLINE on both ends of the channels'
 * connections, and -Drdio.rdma.heapBuffers=true makes the client's buffers
 * of {@code pingPong} and {@code stream} heap buffers, which NIO copies
 * through a temporary direct buffer (make bench-rdma-ab compares settings).
 *
 * <p> The warm-up is long because the guest's CPU is emulated: C2 makes
 * its last compilation of the benchmark loop about 12 s into a fork (with
 * -XX:+PrintCompilation), and a shorter warm-up measured the deoptimised
 * loop, doubling the p99 (doc/results/rdma.md, "the warm-up under
 * emulation").
 */
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(5)
public class RdmaChannels {
    static final int STREAM_CHUNK = 64 * 1024;

    /** One connection, opened for a trial: the client end and its server. */
    abstract static class Connection {
        ServerSocketChannel listener;
        SocketChannel client;
        Thread server;
        ByteBuffer out;
        ByteBuffer in;

        /**
         * Connects a client of the transport ("rdma" or "tcp") to a server
         * thread that reads n bytes at a time and, if echo, writes them back;
         * with rdio.rdma.remote, to such a thread of main's on the remote
         * machine.
         */
        void open(String transport, int n, boolean echo) throws IOException {
            boolean rdma = switch (transport) {
                case "rdma" -> true;
                case "tcp" -> false;
                default -> throw new IllegalArgumentException("transport " + transport);
            };
            client = rdma ? Sockets.openRdmaSocketChannel() : SocketChannel.open();
            Integer inline = Integer.getInteger("rdio.rdma.inline");
            if (rdma && inline != null)
                client.setOption(RdmaSocketOptions.RDMA_INLINE, inline);
            boolean heap = Boolean.getBoolean("rdio.rdma.heapBuffers");
            out = heap ? ByteBuffer.allocate(n) : ByteBuffer.allocateDirect(n);
            in = heap ? ByteBuffer.allocate(n) : ByteBuffer.allocateDirect(n);
            String remote = System.getProperty("rdio.rdma.remote");
            if (remote != null) {
                // the server of main: its port by transport, then the header
                int colon = remote.lastIndexOf(':');
                int port = Integer.parseInt(remote.substring(colon + 1)) + (rdma ? 0 : 1);
                client.connect(new InetSocketAddress(remote.substring(0, colon), port));
                writeFully(client, ByteBuffer.allocate(5).putInt(n).put((byte) (echo ? 1 : 0)).flip());
                return;
            }
            listener = rdma ? Sockets.openRdmaServerSocketChannel() : ServerSocketChannel.open();
            if (rdma && inline != null)
                listener.setOption(RdmaSocketOptions.RDMA_INLINE, inline);
            listener.bind(new InetSocketAddress(serverAddress(), 0));
            client.connect(listener.getLocalAddress());
            SocketChannel peer = listener.accept();
            if (rdma && inline != null) {
                // the device may raise the size (rxe: to at least 32); both
                // ends must have the same
                int mine = client.getOption(RdmaSocketOptions.RDMA_INLINE);
                int theirs = peer.getOption(RdmaSocketOptions.RDMA_INLINE);
                System.out.println("RDMA_INLINE " + inline + ": client " + mine + ", accepted " + theirs);
                if (mine != theirs)
                    throw new IOException("RDMA_INLINE " + inline + " gave the client " + mine
                            + " and the accepted socket " + theirs);
            }
            server = serverThread(peer, n, echo);
            server.start();
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            closeTrial(client, server, listener);
        }
    }

    /** Ping-pong: size bytes there and back. */
    @State(Scope.Thread)
    public static class Echo extends Connection {
        @Param({"rdma", "tcp"})
        public String transport;

        @Param({"64", "1024", "32768", "1048576"})
        public int size;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open(transport, size, true);
        }
    }

    /** Streaming: 64 KiB writes that the server reads and drops. */
    @State(Scope.Thread)
    public static class Sink extends Connection {
        @Param({"rdma", "tcp"})
        public String transport;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open(transport, STREAM_CHUNK, false);
        }
    }

    /** Ping-pong over a classic Socket's streams: size bytes there and back. */
    @State(Scope.Thread)
    public static class SocketEcho {
        @Param({"rdma", "tcp"})
        public String transport;

        @Param({"64", "1024"})
        public int size;

        ServerSocket listener;
        Socket client;
        Thread server;
        OutputStream out;
        DataInputStream in;
        byte[] message;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            boolean rdma = transport.equals("rdma");
            listener = rdma ? Sockets.openRdmaServerSocket() : new ServerSocket();
            listener.bind(new InetSocketAddress(serverAddress(), 0));
            client = rdma ? Sockets.openRdmaSocket() : new Socket();
            client.connect(listener.getLocalSocketAddress());
            Socket peer = listener.accept();
            int n = size;
            server = new Thread(() -> {
                byte[] b = new byte[n];
                try (peer) {
                    DataInputStream pin = new DataInputStream(peer.getInputStream());
                    OutputStream pout = peer.getOutputStream();
                    for (;;) {
                        pin.readFully(b);
                        pout.write(b);
                    }
                } catch (IOException e) {
                    // EOF or the client closed: the trial is over
                }
            }, "server");
            server.setDaemon(true);
            server.start();
            out = client.getOutputStream();
            in = new DataInputStream(client.getInputStream());
            message = new byte[n];
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            closeTrial(client, server, listener);
        }
    }

    /**
     * A daemon thread that reads n bytes at a time from peer and, if echo,
     * writes them back, until the client closes.
     */
    static Thread serverThread(SocketChannel peer, int n, boolean echo) {
        Thread server = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocateDirect(n);
            try (peer) {
                while (readFully(peer, b.clear())) {
                    if (echo)
                        writeFully(peer, b.flip());
                }
            } catch (IOException e) {
                // the client closed: the trial is over
            }
        }, "server");
        server.setDaemon(true);
        return server;
    }

    /**
     * The echo server of rdio.rdma.remote, for a client on another
     * machine: serves RDMA on ADDR:PORT and TCP on ADDR:(PORT + 1) until
     * killed, each connection in a thread of serverThread.  A client first
     * sends its message size (an int) and whether to echo (a byte).
     *
     *   java -cp benchmarks.jar org.openjdk.bench.jdk.net.RdmaChannels ADDR PORT
     */
    public static void main(String[] args) throws IOException {
        InetAddress addr = InetAddress.getByName(args[0]);
        int port = Integer.parseInt(args[1]);
        for (boolean rdma : new boolean[] {true, false}) {
            ServerSocketChannel listener = rdma ? Sockets.openRdmaServerSocketChannel() : ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(addr, rdma ? port : port + 1));
            new Thread(() -> {
                try {
                    for (;;) {
                        SocketChannel peer = listener.accept();
                        ByteBuffer header = ByteBuffer.allocate(5);
                        if (readFully(peer, header))
                            serverThread(peer, header.flip().getInt(), header.get() != 0).start();
                        else
                            peer.close();
                    }
                } catch (IOException e) {
                    e.printStackTrace();
                    System.exit(1);
                }
            }, rdma ? "rdma-acceptor" : "tcp-acceptor").start();
            System.out.println("serving " + (rdma ? "RDMA" : "TCP") + " on " + listener.getLocalAddress());
        }
    }

    /** Closes the client, waits for its server thread to end, closes the listener. */
    static void closeTrial(AutoCloseable client, Thread server, AutoCloseable listener)
        throws Exception
    {
        if (client != null)
            client.close();
        if (server != null)
            server.join(10_000);
        if (listener != null)
            listener.close();
    }

    static InetAddress serverAddress() throws IOException {
        String host = System.getProperty("rdio.rdma.server");
        return (host != null) ? InetAddress.getByName(host) : InetAddress.getLoopbackAddress();
    }

    /** Reads exactly b.remaining() bytes; false at EOF. */
    static boolean readFully(SocketChannel sc, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (sc.read(b) < 0)
                return false;
        }
        return true;
    }

    static void writeFully(SocketChannel sc, ByteBuffer b) throws IOException {
        while (b.hasRemaining())
            sc.write(b);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int pingPong(Echo s) throws IOException {
        writeFully(s.client, s.out.clear());
        if (!readFully(s.client, s.in.clear()))
            throw new IOException("the echo server closed the connection");
        return s.in.get(0);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int socketPingPong(SocketEcho s) throws IOException {
        s.out.write(s.message);
        s.in.readFully(s.message);
        return s.message[0];
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public int stream(Sink s) throws IOException {
        writeFully(s.client, s.out.clear());
        return s.out.position();
    }
}
