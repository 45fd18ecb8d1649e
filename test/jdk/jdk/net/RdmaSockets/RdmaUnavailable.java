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
 * @summary Issue item 11, on a host without RDMA (no RDMA device, or no
 *          librdmacm, or a JDK configured --with-rdma=no): every RDMA
 *          factory of jdk.net.Sockets and jdk.net.RdmaSockets throws
 *          UnsupportedOperationException whose message says which of these
 *          is missing, and the rest of the JDK is unaffected.  Also the API
 *          shape: jdk.net.Sockets is no longer deprecated as a class (this
 *          file calls its new factories and compiles with -Werror
 *          -Xlint:deprecation), its legacy option methods still are, and
 *          RdmaSocketOptions defines three Integer options.
 * @requires os.family == "linux"
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
            try {
                Object o = f.open();
                throw new AssertionError("opened " + o + ": this test is for a host without RDMA");
            } catch (UnsupportedOperationException e) {
                String m = e.getMessage();
                if (m == null || !REASON.matcher(m).matches())
                    throw new AssertionError("unclear message: " + m, e);
                if (first == null) {
                    first = m;
                    System.out.println("UnsupportedOperationException: " + m);
                } else if (!first.equals(m)) {
                    throw new AssertionError("messages differ: " + first + " / " + m);
                }
            }
        }

        // bad arguments are reported as such, before availability
        expect(NullPointerException.class, () -> RdmaSockets.openSocketChannel(null));
        expect(NullPointerException.class, () -> Sockets.openRdmaServerSocket(null));
        UnsupportedOperationException uoe =
                expect(UnsupportedOperationException.class, () -> RdmaSockets.openSocket(StandardProtocolFamily.UNIX));
        if (!uoe.getMessage().contains("UNIX"))
            throw new AssertionError("message does not name the family: " + uoe.getMessage());

        // the rest of the JDK is unaffected: default sockets and selectors work
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(null);
             SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
             SocketChannel peer = ssc.accept();
             Selector sel = Selector.open()) {
            sc.write(ByteBuffer.wrap(new byte[] { 5 }));
            peer.configureBlocking(false);
            peer.register(sel, java.nio.channels.SelectionKey.OP_READ);
            if (sel.select(10_000) != 1)
                throw new AssertionError("default selector");
            ByteBuffer b = ByteBuffer.allocate(1);
            if (peer.read(b) != 1 || b.get(0) != 5)
                throw new AssertionError("default channel");
        }
        try (Socket s = new Socket(); ServerSocket ss = new ServerSocket(0)) {
            s.connect(ss.getLocalSocketAddress());
        }

        // API shape
        if (Sockets.class.isAnnotationPresent(Deprecated.class))
            throw new AssertionError("jdk.net.Sockets is deprecated as a class");
        for (Method m : Sockets.class.getMethods()) {
            if (m.getDeclaringClass() != Sockets.class)
                continue;
            boolean deprecated = m.isAnnotationPresent(Deprecated.class);
            boolean rdma = m.getName().startsWith("openRdma");
            if (rdma == deprecated)
                throw new AssertionError(m + (deprecated ? " is deprecated" : " is not deprecated"));
        }
        for (SocketOption<Integer> o : List.of(RdmaSocketOptions.RDMA_SQSIZE, RdmaSocketOptions.RDMA_RQSIZE,
                                               RdmaSocketOptions.RDMA_INLINE)) {
            if (o.type() != Integer.class || !o.toString().equals(o.name()) || !o.name().startsWith("RDMA_"))
                throw new AssertionError(o);
        }
        System.out.println("OK");
    }

    static <T extends Throwable> T expect(Class<T> c, Factory f) throws Exception {
        try {
            f.open();
        } catch (Throwable t) {
            if (c.isInstance(t))
                return c.cast(t);
            throw new AssertionError("expected " + c.getName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + c.getName());
    }
}
