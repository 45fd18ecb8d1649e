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
package org.openjdk.bench.java.nio.channels;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
 * TCP over loopback through SocketChannel and the default Selector, with
 * nothing but the platform's API, so that one jar runs on JDK 25 and on
 * this JDK, with and without -Djdk.net.rdma.conf: what a program that
 * never asked for RDMA pays for the fork, and for a rules file that
 * matches none of its sockets (make bench-tcp-rules runs the three side by
 * side in the RDMA guest).
 *
 * <ul>
 * <li>{@code pingPong}: one round trip of {@code size} bytes with an echo
 *     thread, blocking channels.
 * <li>{@code stream}: 64 KiB writes to a thread that reads and drops them.
 * <li>{@code selectOne}: a Selector holds {@code idle} connections that
 *     never become ready, and one that does: each operation writes a byte
 *     to that one's peer, selects, and reads it back. A selector whose
 *     wait is linear in its keys shows here.
 * </ul>
 */
@State(Scope.Thread)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class SocketChannelLoopback {
    static final int STREAM_CHUNK = 64 * 1024;

    /** A loopback listener and a client connected to it; the server thread runs per subclass. */
    abstract static class Pair {
        ServerSocketChannel listener;
        SocketChannel client;
        Thread server;

        void open(int bufferSize, boolean echo) throws IOException {
            listener = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            client = SocketChannel.open(listener.getLocalAddress());
            SocketChannel peer = listener.accept();
            server = Thread.ofPlatform().daemon().start(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(bufferSize);
                try (peer) {
                    while (peer.read(b.clear()) > 0) {
                        if (echo) {
                            b.flip();
                            while (b.hasRemaining())
                                peer.write(b);
                        }
                    }
                } catch (IOException e) {
                    // the client closed: the trial is over
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            client.close();
            server.join(10_000);
            listener.close();
        }
    }

    @State(Scope.Thread)
    public static class Echo extends Pair {
        @Param({"64", "1024"})
        public int size;
        ByteBuffer out, in;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open(size, true);
            out = ByteBuffer.allocateDirect(size);
            in = ByteBuffer.allocateDirect(size);
        }
    }

    @State(Scope.Thread)
    public static class Sink extends Pair {
        ByteBuffer out;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open(STREAM_CHUNK, false);
            out = ByteBuffer.allocateDirect(STREAM_CHUNK);
        }
    }

    @State(Scope.Thread)
    public static class Idle {
        @Param({"2000"})
        public int idle;
        ServerSocketChannel listener;
        final List<SocketChannel> channels = new ArrayList<>();
        Selector selector;
        SocketChannel writer, reader;
        final ByteBuffer one = ByteBuffer.allocateDirect(1);

        @Setup(Level.Trial)
        public void setup() throws IOException {
            listener = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            selector = Selector.open();
            for (int i = 0; i <= idle; i++) {
                SocketChannel c = SocketChannel.open(listener.getLocalAddress());
                SocketChannel a = listener.accept();
                channels.add(c);
                channels.add(a);
                a.configureBlocking(false);
                a.register(selector, SelectionKey.OP_READ);
                if (i == idle) {
                    writer = c;
                    reader = a;
                }
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            selector.close();
            for (SocketChannel c : channels)
                c.close();
            listener.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int pingPong(Echo s) throws IOException {
        writeFully(s.client, s.out.clear());
        s.in.clear();
        while (s.in.hasRemaining()) {
            if (s.client.read(s.in) < 0)
                throw new IOException("the echo thread closed the connection");
        }
        return s.in.get(0);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public int stream(Sink s) throws IOException {
        writeFully(s.client, s.out.clear());
        return s.out.position();
    }

    static void writeFully(SocketChannel sc, ByteBuffer b) throws IOException {
        while (b.hasRemaining())
            sc.write(b);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int selectOne(Idle s) throws IOException {
        s.writer.write(s.one.clear());
        int n = s.selector.select();
        if (n != 1 || !s.selector.selectedKeys().iterator().next().channel().equals(s.reader))
            throw new IOException(n + " keys selected, not the one written to");
        s.selector.selectedKeys().clear();
        if (s.reader.read(s.one.clear()) != 1)
            throw new IOException("the byte selected was not read");
        return n;
    }
}
