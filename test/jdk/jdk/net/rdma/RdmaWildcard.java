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
 * @summary RDMA servers bound to the wildcard address, the usual way:
 *          ServerSocket.bind(null), bind(new InetSocketAddress(port)), and
 *          the wildcard of either family.  The second run prefers IPv6
 *          addresses, so that bind(null) and new InetSocketAddress(port)
 *          give ::, the IPv6 wildcard, which an INET socket must take too.  Each server reports the wildcard of
 *          its family as its address, and a client connecting to the RDMA
 *          device's address gets its bytes echoed.  An INET6 server takes
 *          either wildcard too.  A client channel binds to the wildcard
 *          before it connects.  A specific address of the other family is
 *          still UnsupportedAddressTypeException.  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaWildcard
 * @run main/othervm/timeout=300 -Djava.net.preferIPv6Addresses=true RdmaWildcard
 */

import java.io.DataInputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Arrays;
import java.util.List;

import jdk.net.RdmaSockets;
import jdk.net.Sockets;

import static java.net.StandardProtocolFamily.INET6;
import static jdk.test.lib.Asserts.*;

public class RdmaWildcard {
    static final InetAddress ANY4 = address("0.0.0.0");
    static final InetAddress ANY6 = address("::");

    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("ServerSocket.bind(null)", RdmaWildcard::serverSocketNull),
                new RdmaTestLib.Case("ServerSocketChannel.bind(new InetSocketAddress(port))",
                        RdmaWildcard::channelPort),
                new RdmaTestLib.Case("ServerSocketChannel.bind(0.0.0.0), bind(null), bind(::)", RdmaWildcard::channelAny4),
                new RdmaTestLib.Case("INET6 server: bind(null), bind(::), bind(0.0.0.0)", RdmaWildcard::inet6),
                new RdmaTestLib.Case("client channel bound to the wildcard", RdmaWildcard::clientBind),
                new RdmaTestLib.Case("an address of the other family", RdmaWildcard::otherFamily)));
    }

    static InetAddress address(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void serverSocketNull() throws Exception {
        try (ServerSocket ss = Sockets.openRdmaServerSocket()) {
            ss.bind(null);
            System.out.println("  bound: " + ss);
            assertEquals(ANY4, ss.getInetAddress(), "getInetAddress()");
            assertTrue(ss.getInetAddress() instanceof Inet4Address, "an IPv4 address");
            int port = ss.getLocalPort();
            assertGreaterThan(port, 0, "getLocalPort()");
            byte[] msg = RdmaTestLib.message(5000, port);
            try (Socket s = Sockets.openRdmaSocket()) {
                s.connect(new InetSocketAddress(RdmaTestLib.SERVER, port), 10_000);
                try (Socket peer = ss.accept()) {
                    s.getOutputStream().write(msg);
                    byte[] got = new byte[msg.length];
                    new DataInputStream(peer.getInputStream()).readFully(got);
                    assertEquals(-1, Arrays.mismatch(msg, got), "the first byte that differs");
                }
            }
        }
    }

    static void channelPort() throws Exception {
        // a port that was just free, as a server written for a fixed port would name it
        int port;
        try (ServerSocketChannel probe = Sockets.openRdmaServerSocketChannel()) {
            probe.bind(RdmaTestLib.anyPort());
            port = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        InetSocketAddress local = new InetSocketAddress(port);
        System.out.println("  binding to " + local);
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(local);
            assertEquals(new InetSocketAddress(ANY4, port), ssc.getLocalAddress(), "getLocalAddress()");
            echo(ssc);
        }
    }

    static void channelAny4() throws Exception {
        for (SocketAddress local : Arrays.asList(new InetSocketAddress(ANY4, 0), null,
                                                 new InetSocketAddress(ANY6, 0))) {
            try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
                ssc.bind(local);
                InetSocketAddress isa = (InetSocketAddress) ssc.getLocalAddress();
                System.out.println("  bind(" + local + "): " + isa);
                assertEquals(ANY4, isa.getAddress(), "address of bind(" + local + ")");
                echo(ssc);
            }
        }
    }

    static void inet6() throws Exception {
        for (SocketAddress local : Arrays.asList(null, new InetSocketAddress(ANY6, 0),
                                                 new InetSocketAddress(ANY4, 0))) {
            try (ServerSocketChannel ssc = RdmaSockets.openServerSocketChannel(INET6)) {
                ssc.bind(local);
                InetSocketAddress isa = (InetSocketAddress) ssc.getLocalAddress();
                System.out.println("  bind(" + local + "): " + isa);
                assertEquals(ANY6, isa.getAddress(), "address of bind(" + local + ")");
                assertTrue(isa.getAddress() instanceof Inet6Address, "an IPv6 address");
                assertGreaterThan(isa.getPort(), 0, "port");
            }
        }
    }

    static void clientBind() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                sc.bind(new InetSocketAddress(0));
                System.out.println("  client bound: " + sc.getLocalAddress());
                sc.connect(ssc.getLocalAddress());
                try (SocketChannel peer = ssc.accept()) {
                    byte[] msg = RdmaTestLib.message(3000, 7);
                    RdmaTestLib.writeFully(sc, ByteBuffer.wrap(msg));
                    ByteBuffer got = RdmaTestLib.readFully(peer, msg.length);
                    assertEquals(-1, got.mismatch(ByteBuffer.wrap(msg)), "the first byte that differs");
                }
            }
        }
    }

    static void otherFamily() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             ServerSocketChannel ssc6 = RdmaSockets.openServerSocketChannel(INET6)) {
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> ssc.bind(new InetSocketAddress(address("::1"), 0)));
            assertThrows(UnsupportedAddressTypeException.class,
                    () -> ssc6.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
        }
    }

    /** A client connects to the RDMA device's address at the server's port and its bytes come back. */
    static void echo(ServerSocketChannel ssc) throws Exception {
        int port = ((InetSocketAddress) ssc.getLocalAddress()).getPort();
        try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            sc.connect(new InetSocketAddress(RdmaTestLib.SERVER, port));
            try (SocketChannel peer = ssc.accept()) {
                byte[] msg = RdmaTestLib.message(4000, port);
                RdmaTestLib.writeFully(sc, ByteBuffer.wrap(msg));
                ByteBuffer got = RdmaTestLib.readFully(peer, msg.length);
                RdmaTestLib.writeFully(peer, got);
                ByteBuffer back = RdmaTestLib.readFully(sc, msg.length);
                assertEquals(-1, back.mismatch(ByteBuffer.wrap(msg)), "the first echoed byte that differs");
            }
        }
    }
}
