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
 * @summary The exceptions of RDMA sockets, as java.net specifies them: a
 *          connect that fails throws ConnectException ("Connection refused"
 *          when nothing listens), a bind to an address in use or not on an
 *          RDMA device throws BindException, and a write to a peer that has
 *          closed or died throws SocketException "Connection reset", never
 *          ConnectException.  Runs in the Soft-RoCE guest
 *          (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaErrors
 */

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jdk.net.Sockets;
import jdk.test.lib.Asserts.TestMethod;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaErrors {
    // how long a write to a closed or dead peer may go on before it fails
    static final long RESET_MILLIS = Utils.adjustTimeout(20_000);

    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("connect to a port nobody listens on", RdmaErrors::refused),
                new RdmaTestLib.Case("connect to an address no RDMA device reaches", RdmaErrors::noDevice),
                new RdmaTestLib.Case("bind to a port in use", RdmaErrors::addressInUse),
                new RdmaTestLib.Case("bind to an address not on an RDMA device", RdmaErrors::bindNoDevice),
                new RdmaTestLib.Case("write after the peer closed with unread data", RdmaErrors::peerClosed),
                new RdmaTestLib.Case("write to a peer that died", RdmaErrors::peerDied)));
    }

    /** A server address on the RDMA device where nothing listens. */
    static InetSocketAddress deadAddress() throws IOException {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            return (InetSocketAddress) ssc.getLocalAddress();
        }
    }

    static void refused() throws Exception {
        InetSocketAddress dead = deadAddress();
        try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            ConnectException e = assertThrows(ConnectException.class, () -> sc.connect(dead));
            System.out.println("  channel: " + e);
            assertEquals("Connection refused", e.getMessage());
        }
        try (Socket s = Sockets.openRdmaSocket()) {
            ConnectException e = assertThrows(ConnectException.class, () -> s.connect(dead, 10_000));
            System.out.println("  socket: " + e);
            assertEquals("Connection refused", e.getMessage());
        }
    }

    static void noDevice() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), deadAddress().getPort());
        try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            ConnectException e = assertThrows(ConnectException.class, () -> sc.connect(loopback));
            System.out.println("  " + e);
        }
    }

    static void addressInUse() throws Exception {
        try (ServerSocketChannel first = Sockets.openRdmaServerSocketChannel()) {
            first.bind(RdmaTestLib.anyPort());
            InetSocketAddress taken = (InetSocketAddress) first.getLocalAddress();
            try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                 ServerSocketChannel reuse = Sockets.openRdmaServerSocketChannel();
                 ServerSocket ss = Sockets.openRdmaServerSocket();
                 SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                reuse.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                assertBindException("server channel", () -> ssc.bind(taken), "Address already in use");
                assertBindException("server channel, SO_REUSEADDR", () -> reuse.bind(taken),
                        "Address already in use");
                assertBindException("server socket", () -> ss.bind(taken), "Address already in use");
                assertBindException("client channel", () -> sc.bind(taken), "Address already in use");
            }
        }
    }

    static void bindNoDevice() throws Exception {
        // 192.0.2.1 (TEST-NET-1) is on no interface; loopback addresses
        // are no test, rdma_cm binds them to the first RDMA device
        InetSocketAddress nowhere = new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 0);
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            assertBindException("server channel", () -> ssc.bind(nowhere), null);
            assertBindException("client channel", () -> sc.bind(nowhere), null);
        }
    }

    /** bind throws BindException, with the given message unless that is null. */
    static void assertBindException(String what, TestMethod bind, String message) {
        BindException e = assertThrows(BindException.class, bind);
        System.out.println("  " + what + ": " + e);
        if (message != null)
            assertEquals(message, e.getMessage(), what);
    }

    static void peerClosed() throws Exception {
        // channel: the accepted end closes with bytes it never read
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            try (SocketChannel c = Sockets.openRdmaSocketChannel()) {
                c.connect(ssc.getLocalAddress());
                SocketChannel peer = ssc.accept();
                RdmaTestLib.writeFully(c, ByteBuffer.allocate(1000));
                RdmaTestLib.readFully(peer, 1);
                peer.close();
                ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
                assertReset(writeUntilFailure(c, () -> c.write(chunk.clear())));
                int n = c.read(ByteBuffer.allocate(1));
                System.out.println("  read after the reset: " + n);
                assertEquals(-1, n, "read after the peer closed");
            }
        }
        // socket streams: the same through the Socket adaptor
        try (ServerSocket ss = Sockets.openRdmaServerSocket()) {
            ss.bind(RdmaTestLib.anyPort());
            try (Socket s = Sockets.openRdmaSocket()) {
                s.connect(ss.getLocalSocketAddress());
                Socket peer = ss.accept();
                OutputStream out = s.getOutputStream();
                out.write(new byte[1000]);
                peer.getInputStream().read();
                peer.close();
                byte[] chunk = new byte[64 * 1024];
                assertReset(writeUntilFailure(s, () -> out.write(chunk)));
            }
        }
    }

    static void peerDied() throws Exception {
        // an rstream client connects, sends, and is killed before it reads
        Path log = Path.of("rstream-killed.log");
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            int port = ((InetSocketAddress) ssc.getLocalAddress()).getPort();
            List<String> cmd = List.of(RdmaInterop.tool("rstream"), "-s", RdmaTestLib.SERVER.getHostAddress(),
                    "-p", Integer.toString(port), "-S", "64", "-C", "1", "-I", "1000", "-T", "v");
            System.out.println("  $ " + String.join(" ", cmd));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try (SocketChannel c = ssc.accept()) {
                RdmaTestLib.readFully(c, 16);
                p.destroyForcibly();
                assertTrue(p.waitFor(10, TimeUnit.SECONDS), "rstream killed");
                System.out.println("  rstream killed: exit status " + p.exitValue());
                ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
                assertReset(writeUntilFailure(c, () -> c.write(chunk.clear())));
            } finally {
                p.destroyForcibly();
                System.out.print(Files.readString(log).indent(4));
            }
        }
    }

    interface Write {
        void run() throws IOException;
    }

    /**
     * Writes until a write throws, and returns what it threw. After
     * RESET_MILLIS the channel is closed, which ends a write that waits for
     * good, and the case fails.
     */
    static IOException writeUntilFailure(Closeable channel, Write write) throws Exception {
        AtomicBoolean expired = new AtomicBoolean();
        Thread watchdog = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(RESET_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            expired.set(true);
            try {
                channel.close();
            } catch (IOException e) {
                // the writer fails anyway
            }
        });
        long t0 = System.nanoTime();
        long writes = 0;
        try {
            for (;;) {
                try {
                    write.run();
                    writes++;
                } catch (IOException e) {
                    System.out.printf("  %d writes, then after %.2f s: %s%n", writes,
                            (System.nanoTime() - t0) / 1e9, e);
                    assertFalse(expired.get(), "no write failed within " + RESET_MILLIS + " ms");
                    return e;
                }
            }
        } finally {
            watchdog.interrupt();
            watchdog.join();
        }
    }

    /** e is the reset that java.net specifies: SocketException "Connection reset". */
    static void assertReset(IOException e) {
        if (!(e instanceof SocketException) || e instanceof ConnectException)
            throw new AssertionError("expected a SocketException, got " + e, e);
        assertEquals("Connection reset", e.getMessage(), "message of " + e);
    }
}
