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
 * @summary On a host without RDMA (no RDMA device, or no librdmacm, or
 *          a JDK configured --with-rdma=no): every RDMA factory of
 *          jdk.net.Sockets and jdk.net.RdmaSockets throws
 *          UnsupportedOperationException whose message says which of these
 *          is missing, and the rest of the JDK is unaffected.  Also the API
 *          shape: jdk.net.Sockets, which JDK 25 deprecates, is not
 *          deprecated as a class (this file calls its new factories and
 *          compiles with -Werror -Xlint:deprecation), its legacy option
 *          methods are, and RdmaSocketOptions defines three Integer options.
 * @requires os.family == "linux"
 * @library /test/lib
 * @compile -Xlint:deprecation -Werror RdmaUnavailable.java
 * @run main RdmaUnavailable
 */

import java.lang.reflect.Method;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketOption;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.regex.Pattern;

import jdk.net.RdmaSocketOptions;
import jdk.net.RdmaSockets;
import jdk.net.Sockets;

import static java.net.StandardProtocolFamily.INET;
import static java.net.StandardProtocolFamily.INET6;
import static jdk.test.lib.Asserts.*;

public class RdmaUnavailable {
    interface Factory {
        Object open() throws Exception;
    }

    // what may be missing, as the factories say it
    static final Pattern REASON = Pattern.compile(
            "RDMA sockets are not (available: (no RDMA device.*|librdmacm\\.so\\.1 not found.*|librdmacm\\.so\\.1 lacks .*)"
            + "|part of this JDK build \\(it was configured with --with-rdma=no\\))");

    public static void main(String[] args) throws Exception {
        List<Factory> factories = List.of(
                Sockets::openRdmaSocket,
                Sockets::openRdmaServerSocket,
                Sockets::openRdmaSocketChannel,
                Sockets::openRdmaServerSocketChannel,
                Sockets::openRdmaSelector,
                () -> Sockets.openRdmaSocket(INET),
                () -> Sockets.openRdmaServerSocket(INET6),
                () -> Sockets.openRdmaSocketChannel(INET6),
                () -> Sockets.openRdmaServerSocketChannel(INET),
                () -> RdmaSockets.openSocket(INET),
                () -> RdmaSockets.openServerSocket(INET),
                () -> RdmaSockets.openSocketChannel(INET),
                () -> RdmaSockets.openServerSocketChannel(INET6),
                RdmaSockets::openSelector);
        String first = null;
        for (Factory f : factories) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, f::open,
                    "an RDMA factory on a host without RDMA");
            String m = e.getMessage();
            assertTrue(m != null && REASON.matcher(m).matches(), "the message \"" + m
                    + "\" names what is missing");
            if (first == null) {
                first = m;
                System.out.println("UnsupportedOperationException: " + m);
            } else {
                assertEquals(first, m, "the message of every RDMA factory");
            }
        }

        // bad arguments are reported as such, before availability
        assertThrows(NullPointerException.class, () -> RdmaSockets.openSocketChannel(null));
        assertThrows(NullPointerException.class, () -> Sockets.openRdmaServerSocket(null));
        UnsupportedOperationException uoe = assertThrows(UnsupportedOperationException.class,
                () -> RdmaSockets.openSocket(StandardProtocolFamily.UNIX));
        assertTrue(uoe.getMessage().contains("UNIX"), "the message \"" + uoe.getMessage() + "\" names the family");

        // the rest of the JDK is unaffected: default sockets and selectors work
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(null);
             SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
             SocketChannel peer = ssc.accept();
             Selector sel = Selector.open()) {
            sc.write(ByteBuffer.wrap(new byte[] { 5 }));
            peer.configureBlocking(false);
            peer.register(sel, java.nio.channels.SelectionKey.OP_READ);
            assertEquals(1, sel.select(10_000), "keys the default selector selects");
            ByteBuffer b = ByteBuffer.allocate(1);
            assertEquals(1, peer.read(b), "bytes read from a default channel");
            assertEquals((byte) 5, b.get(0), "the byte read from a default channel");
        }
        try (Socket s = new Socket(); ServerSocket ss = new ServerSocket(0)) {
            s.connect(ss.getLocalSocketAddress());
        }

        // API shape
        assertFalse(Sockets.class.isAnnotationPresent(Deprecated.class), "jdk.net.Sockets deprecated as a class");
        for (Method m : Sockets.class.getMethods()) {
            if (m.getDeclaringClass() != Sockets.class)
                continue;
            // the RDMA factories are new; the rest are the legacy option methods
            boolean rdma = m.getName().startsWith("openRdma");
            assertEquals(!rdma, m.isAnnotationPresent(Deprecated.class), m + " deprecated");
        }
        for (SocketOption<Integer> o : List.of(RdmaSocketOptions.RDMA_SQSIZE, RdmaSocketOptions.RDMA_RQSIZE,
                                               RdmaSocketOptions.RDMA_INLINE)) {
            assertEquals(Integer.class, o.type(), o + "'s type");
            assertEquals(o.name(), o.toString(), o.name() + "'s toString()");
            assertTrue(o.name().startsWith("RDMA_"), o.name() + " starts with RDMA_");
        }
        System.out.println("OK");
    }
}
