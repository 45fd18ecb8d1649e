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

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * A client of Netty's echo example server (io.netty.example.echo.EchoServer,
 * from the netty-example jar), written with Netty's client API on its NIO
 * transport: an ordinary Netty program, with nothing in it about RDMA. It is
 * run as a source file, with Netty's jars on the class path:
 *
 *   java -cp NETTY_JARS NettyEchoClient.java HOST PORT CONNECTIONS REQUESTS SIZE [WARMUP]
 *
 * Each connection sends WARMUP (default 0) and then REQUESTS messages of SIZE
 * bytes, one at a time; every message is a different run of a byte pattern,
 * and its echo must come back byte for byte before the next one is sent.
 * The figures count the REQUESTS messages only. Prints one line,
 *
 *   verified N requests of SIZE bytes on C connections in T s: R requests/s,
 *   round trip p50 X p90 Y p99 Z us
 *
 * and exits 0; exits 1 at a wrong byte, an error, a connection closed early,
 * or when the run takes longer than -Dtimeout seconds (default 300).
 */
public class NettyEchoClient {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        int requests = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        int warmup = (args.length > 5) ? Integer.parseInt(args[5]) : 0;
        long timeout = Long.getLong("timeout", 300);

        long[] roundTrips = new long[connections * requests];
        CountDownLatch warm = new CountDownLatch(connections);
        CountDownLatch done = new CountDownLatch(connections);
        AtomicReference<String> failure = new AtomicReference<>();
        EventLoopGroup group = new NioEventLoopGroup(2);
        long start = 0;
        try {
            for (int c = 0; c < connections; c++) {
                int id = c;
                new Bootstrap().group(group).channel(NioSocketChannel.class)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .handler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new Echoes(id, warmup, requests, size, roundTrips,
                                                                 warm, done, failure));
                            }
                        })
                        .connect(host, port).sync();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
            if (!warm.await(timeout, TimeUnit.SECONDS))
                failure.compareAndSet(null, "warm-up not done within " + timeout + " s");
            start = System.nanoTime();
            if (!done.await(deadline - start, TimeUnit.NANOSECONDS))
                failure.compareAndSet(null, "not done within " + timeout + " s");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
        if (failure.get() != null) {
            System.out.println("FAILED: " + failure.get());
            System.exit(1);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Arrays.sort(roundTrips);
        System.out.printf("verified %d requests of %d bytes on %d connections in %.2f s: %.0f requests/s,"
                        + " round trip p50 %.1f p90 %.1f p99 %.1f us%n",
                roundTrips.length, size, connections, seconds, roundTrips.length / seconds,
                percentile(roundTrips, 50), percentile(roundTrips, 90), percentile(roundTrips, 99));
    }

    static double percentile(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(i, 0)] / 1000.0;
    }

    // byte i of message seq of connection id
    static byte pattern(int id, int seq, int i) {
        return (byte) (id * 131 + seq * 31 + i * 7 + (i >>> 8));
    }

    /** Sends a connection's messages one after another and checks each echo. */
    static final class Echoes extends ChannelInboundHandlerAdapter {
        private final int id, warmup, requests, size;
        private final long[] roundTrips;
        private final CountDownLatch warm, done;
        private final AtomicReference<String> failure;
        private int seq;          // the message in flight, counting the warm-up
        private int matched;      // its bytes echoed so far
        private long sentAt;

        Echoes(int id, int warmup, int requests, int size, long[] roundTrips, CountDownLatch warm,
               CountDownLatch done, AtomicReference<String> failure) {
            this.id = id;
            this.warmup = warmup;
            this.requests = requests;
            this.size = size;
            this.roundTrips = roundTrips;
            this.warm = warm;
            this.done = done;
            this.failure = failure;
        }

        private void send(ChannelHandlerContext ctx) {
            byte[] m = new byte[size];
            for (int i = 0; i < size; i++)
                m[i] = pattern(id, seq, i);
            matched = 0;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(Unpooled.wrappedBuffer(m));
        }

        private void fail(ChannelHandlerContext ctx, String why) {
            failure.compareAndSet(null, "connection " + id + ": " + why);
            warm.countDown();
            done.countDown();
            ctx.close();
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (warmup == 0)
                warm.countDown();
            send(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                while (in.isReadable()) {
                    byte b = in.readByte();
                    if (seq >= warmup + requests || matched >= size) {
                        fail(ctx, "a byte more than was sent, after message " + seq);
                        return;
                    }
                    if (b != pattern(id, seq, matched)) {
                        fail(ctx, "message " + seq + ", byte " + matched + ": " + b + " instead of "
                                + pattern(id, seq, matched));
                        return;
                    }
                    if (++matched == size) {
                        if (seq >= warmup)
                            roundTrips[id * requests + seq - warmup] = System.nanoTime() - sentAt;
                        if (++seq == warmup)
                            warm.countDown();
                        if (seq == warmup + requests) {
                            done.countDown();
                            ctx.close();
                        } else {
                            send(ctx);
                        }
                    }
                }
            } finally {
                in.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (seq < warmup + requests)
                fail(ctx, "closed by the server after " + seq + " of " + (warmup + requests) + " messages");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(ctx, cause.toString());
        }
    }
}
