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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.example.echo.EchoServerHandler;

import jdk.net.RdmaSockets;

/**
 * Netty's default NIO event loop driving RDMA channels that the program
 * opened with jdk.net.RdmaSockets and handed to Netty, beside TCP channels,
 * in one event loop group: Netty's own defaults otherwise (its selectors
 * from the default SelectorProvider, its thread count, no channel option
 * set). Run as a source file with Netty's jars on the class path:
 *
 *   java -cp NETTY_JARS NettyRdmaChannels.java RDMA_ADDRESS CONNECTIONS SIZE
 *
 * Starts an echo server over RDMA on RDMA_ADDRESS and one over TCP on
 * loopback, then CONNECTIONS clients of each kind, each sending SIZE
 * random bytes and checking every byte of the echo. Prints
 *
 *   verified RDMA N x SIZE, TCP N x SIZE, selector provider CLASS
 *
 * and exits 0; exits 1 at a wrong byte, an error, or after -Dtimeout
 * seconds (default 120).
 */
public class NettyRdmaChannels {
    public static void main(String[] args) throws Exception {
        InetAddress rdmaAddress = InetAddress.getByName(args[0]);
        int connections = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        long timeout = Long.getLong("timeout", 120);

        // one group for the listeners and the connections of both kinds
        EventLoopGroup group = new NioEventLoopGroup();
        try {
            Channel rdmaServer = server(group, () -> new NioServerSocketChannel(
                    rdma(RdmaSockets::openServerSocketChannel)), new InetSocketAddress(rdmaAddress, 0));
            Channel tcpServer = server(group, NioServerSocketChannel::new,
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));

            List<CompletableFuture<byte[]>> echoes = new ArrayList<>();
            List<byte[]> sent = new ArrayList<>();
            Random random = new Random(size);
            for (int i = 0; i < 2 * connections; i++) {
                boolean rdma = i < connections;
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                sent.add(bytes);
                ChannelFactory<SocketChannel> factory = rdma
                        ? () -> new NioSocketChannel(rdma(RdmaSockets::openSocketChannel))
                        : NioSocketChannel::new;
                echoes.add(client(group, factory, (rdma ? rdmaServer : tcpServer).localAddress(), bytes));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
            for (int i = 0; i < echoes.size(); i++) {
                byte[] got = echoes.get(i).get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (!Arrays.equals(sent.get(i), got))
                    throw new AssertionError((i < connections ? "RDMA" : "TCP") + " connection " + i
                            + ": the echo differs");
            }
            rdmaServer.close().sync();
            tcpServer.close().sync();
            // the provider whose selectors the group's loops opened
            System.out.println("verified RDMA " + connections + " x " + size + ", TCP " + connections
                    + " x " + size + ", selector provider "
                    + ((NioEventLoop) group.next()).selectorProvider().getClass().getName());
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    interface Opener<T> {
        T open(StandardProtocolFamily family) throws IOException;
    }

    /** An RDMA channel for IPv4, as Netty's channel factories take no checked exception. */
    static <T> T rdma(Opener<T> opener) {
        try {
            return opener.open(StandardProtocolFamily.INET);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An echo server of the group (Netty's example handler), bound to address. */
    static Channel server(EventLoopGroup group, ChannelFactory<ServerSocketChannel> factory,
                          InetSocketAddress address) throws InterruptedException {
        return new ServerBootstrap().group(group).channelFactory(factory)
                .childHandler(new EchoServerHandler())
                .bind(address).sync().channel();
    }

    /** A client of the group that sends bytes to address and completes with what comes back. */
    static CompletableFuture<byte[]> client(EventLoopGroup group, ChannelFactory<SocketChannel> factory,
                                            java.net.SocketAddress address, byte[] bytes) {
        CompletableFuture<byte[]> echo = new CompletableFuture<>();
        ByteBuf received = Unpooled.buffer(bytes.length);
        new Bootstrap().group(group).channelFactory(factory)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(bytes));
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf in = (ByteBuf) msg;
                        received.writeBytes(in);
                        in.release();
                        if (received.readableBytes() >= bytes.length) {
                            byte[] got = new byte[received.readableBytes()];
                            received.readBytes(got);
                            echo.complete(got);
                            ctx.close();
                        }
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        echo.completeExceptionally(cause);
                        ctx.close();
                    }
                })
                .connect(address).addListener(f -> {
                    if (!f.isSuccess())
                        echo.completeExceptionally(f.cause());
                });
        return echo;
    }
}
