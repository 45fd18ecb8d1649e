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
 * @summary Transparent RDMA for classic sockets: with -Djdk.net.rdma.conf,
 *          new Socket() and new ServerSocket() become RDMA sockets at bind
 *          or connect when a rule matches and stay TCP when none does;
 *          options and timeouts set before the switch carry over; reads,
 *          accepts and connects honour SO_TIMEOUT, also when several
 *          threads wait on one socket, wake on close, take interrupts
 *          as a Socket does (not as a channel), and work
 *          from virtual threads; and the JDK's own HTTP server and
 *          HttpURLConnection, unchanged, talk over RDMA.  A connect to the
 *          wildcard address goes, as over TCP, to the local host's
 *          address, and switches when a rule names that.  The cases run in
 *          a JVM started with the options a user would give.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.httpserver
 * @run main/othervm/timeout=600 RdmaTransparentSockets
 */

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import jdk.net.RdmaSocketOptions;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaTransparentSockets {

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            App.main(args);
            return;
        }
        String server = RdmaTestLib.SERVER.getHostAddress();
        Path conf = Path.of("sockets.conf");
        Files.writeString(conf, "bind " + server + " *\nconnect " + server + " *\n");
        Path listing = Path.of("sockets.log");
        // the local host's name gives the RDMA address, for the wildcard connect
        Path hosts = Path.of("hosts");
        Files.writeString(hosts, server + " " + Files.readString(Path.of("/proc/sys/kernel/hostname")).strip()
                + "\n127.0.0.1 localhost\n");
        OutputAnalyzer out = ProcessTools.executeTestJava(
                "-Djdk.net.rdma.conf=" + conf.toAbsolutePath(),
                "-Djdk.net.hosts.file=" + hosts.toAbsolutePath(),
                "-Djdk.net.rdma.debug=" + listing.toAbsolutePath(),
                "--add-opens", "java.base/java.net=ALL-UNNAMED",
                "RdmaTransparentSockets", "app");
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);

        String log = Files.readString(listing);
        System.out.println("--- listing\n" + log);
        assertTrue(log.contains("bind to " + server + " port "), "bind switch in listing");
        assertTrue(log.contains("connect to " + server + " port "), "connect switch in listing");
        assertTrue(log.contains("carrying {TCP_NODELAY=true}"), "carried option in listing");
        assertFalse(log.contains("127.0.0.1"), "a loopback socket in the listing");
    }

    /** The program run in the child JVM: java.net only, no jdk.net API. */
    static class App {
        static void main(String[] args) throws Exception {
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("classic sockets switched, bytes both ways", App::echo),
                    new RdmaTestLib.Case("loopback sockets stay TCP", App::tcpStaysTcp),
                    new RdmaTestLib.Case("bind then connect, constructor forms", App::bindThenConnect),
                    new RdmaTestLib.Case("connect to the wildcard address", App::wildcardConnect),
                    new RdmaTestLib.Case("SocketImpl.fd follows the switch", App::implFd),
                    new RdmaTestLib.Case("SO_TIMEOUT on read and accept", App::timeouts),
                    new RdmaTestLib.Case("concurrent timed reads and accepts", App::concurrentTimeouts),
                    new RdmaTestLib.Case("close wakes a blocked read and accept", App::closeWakes),
                    new RdmaTestLib.Case("interrupts, as on a Socket", App::interrupts),
                    new RdmaTestLib.Case("virtual threads", App::virtualThreads),
                    new RdmaTestLib.Case("HttpServer and HttpURLConnection", App::http)));
        }

        // Socket caches supportedOptions() at its first call: ask only
        // after the bind or connect
        static boolean isRdma(Set<SocketOption<?>> options) {
            return options.contains(RdmaSocketOptions.RDMA_SQSIZE);
        }

        static boolean isRdma(Socket s) {
            return isRdma(s.supportedOptions());
        }

        static boolean isRdma(ServerSocket ss) {
            return isRdma(ss.supportedOptions());
        }

        static InetSocketAddress server(int port) {
            return new InetSocketAddress(RdmaTestLib.SERVER, port);
        }

        // n bytes written from a thread of its own, read and compared here
        static void send(Socket from, Socket to, int n, long seed) throws Exception {
            byte[] msg = RdmaTestLib.message(n, seed);
            CompletableFuture<Void> w = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = from.getOutputStream();
                    out.write(msg);
                    out.flush();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            byte[] got = to.getInputStream().readNBytes(n);
            w.get(30, TimeUnit.SECONDS);
            assertEquals(-1, Arrays.mismatch(msg, got), "first byte that differs");
        }

        static void echo() throws Exception {
            try (ServerSocket ss = new ServerSocket()) {
                ss.setReuseAddress(true);
                ss.bind(server(0));
                assertTrue(isRdma(ss), "server socket bound to the RDMA address");
                assertTrue(ss.getReuseAddress(), "SO_REUSEADDR after the switch");
                assertEquals(RdmaTestLib.SERVER, ss.getInetAddress(), "server socket's address");
                assertTrue(ss.getLocalPort() > 0, "server socket's port");
                try (Socket s = new Socket()) {
                    s.setTcpNoDelay(true);
                    s.setSoTimeout(20_000);
                    s.connect(ss.getLocalSocketAddress(), 10_000);
                    assertTrue(isRdma(s), "client connected to the RDMA address");
                    assertTrue(s.getTcpNoDelay(), "TCP_NODELAY after the switch");
                    assertEquals(20_000, s.getSoTimeout(), "SO_TIMEOUT after the switch");
                    assertEquals(ss.getLocalSocketAddress(), s.getRemoteSocketAddress(), "client's remote");
                    assertEquals(RdmaTestLib.SERVER, s.getLocalAddress(), "client's local address");
                    try (Socket peer = ss.accept()) {
                        assertTrue(isRdma(peer), "accepted socket");
                        assertEquals(s.getLocalSocketAddress(), peer.getRemoteSocketAddress(), "peer's remote");
                        assertEquals(s.getRemoteSocketAddress(), peer.getLocalSocketAddress(), "peer's local");
                        send(s, peer, 1 << 20, 1);
                        send(peer, s, 100_000, 2);
                        assertEquals(0, s.getInputStream().available(), "available, nothing sent");
                        peer.getOutputStream().write(RdmaTestLib.message(10, 3));
                        long deadline = System.nanoTime() + 10_000_000_000L;
                        while (s.getInputStream().available() < 10 && System.nanoTime() < deadline)
                            Thread.onSpinWait();
                        assertEquals(10, s.getInputStream().available(), "available after 10 bytes");
                        s.getInputStream().readNBytes(10);
                        try {
                            s.sendUrgentData(1);
                            fail("urgent data on an RDMA socket");
                        } catch (SocketException expected) {
                            System.out.println("sendUrgentData: " + expected);
                        }
                        s.shutdownOutput();
                        assertEquals(-1, peer.getInputStream().read(), "EOF after shutdownOutput");
                    }
                }
            }
        }

        static void wildcardConnect() throws Exception {
            assertEquals(RdmaTestLib.SERVER, InetAddress.getLocalHost(), "the local host's address (hosts file)");
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER);
                 Socket s = new Socket()) {
                s.connect(new InetSocketAddress(ss.getLocalPort()));
                try (Socket peer = ss.accept()) {
                    assertTrue(isRdma(s) && isRdma(peer), "a wildcard connect to an RDMA server");
                    assertEquals(RdmaTestLib.SERVER, s.getInetAddress(), "the connected address");
                    send(s, peer, 65536, 8);
                    send(peer, s, 65536, 9);
                }
                // switched at bind, before the connect
                try (Socket bound = new Socket()) {
                    bound.bind(server(0));
                    assertTrue(isRdma(bound), "switched at bind");
                    bound.connect(new InetSocketAddress(ss.getLocalPort()));
                    try (Socket peer = ss.accept()) {
                        assertEquals(RdmaTestLib.SERVER, bound.getInetAddress(), "the connected address");
                        send(bound, peer, 65536, 10);
                    }
                }
            }
        }

        static void tcpStaysTcp() throws Exception {
            InetAddress lo = InetAddress.getLoopbackAddress();
            try (ServerSocket ss = new ServerSocket(0, 50, lo);
                 Socket s = new Socket(lo, ss.getLocalPort());
                 Socket peer = ss.accept()) {
                assertFalse(isRdma(ss) || isRdma(s) || isRdma(peer), "loopback sockets");
                s.sendUrgentData(1);            // TCP keeps its urgent data
                send(s, peer, 65536, 4);
                send(peer, s, 65536, 5);
            }
        }

        static void bindThenConnect() throws Exception {
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER)) {
                assertTrue(isRdma(ss), "new ServerSocket(port, backlog, addr)");
                try (Socket s = new Socket()) {
                    s.bind(server(0));
                    assertTrue(s.getLocalPort() > 0, "client's bound port");
                    int port = s.getLocalPort();
                    s.connect(ss.getLocalSocketAddress());
                    assertTrue(isRdma(s), "client bound to the RDMA address");
                    assertEquals(port, s.getLocalPort(), "client's port after connect");
                    try (Socket peer = ss.accept()) {
                        send(s, peer, 5000, 6);
                    }
                }
                try (Socket s = new Socket(RdmaTestLib.SERVER, ss.getLocalPort());
                     Socket peer = ss.accept()) {
                    assertTrue(isRdma(s), "new Socket(addr, port)");
                    send(peer, s, 5000, 7);
                }
            }
        }

        /*
         * Code that reflects on SocketImpl.fd (upstream's ImplAccept and
         * UnreferencedSockets tests) finds the switched socket's descriptor
         * there, open until the socket is closed.
         */
        static void implFd() throws Exception {
            Field implField = Socket.class.getDeclaredField("impl");
            implField.setAccessible(true);
            Field delegateField = Class.forName("java.net.DelegatingSocketImpl").getDeclaredField("delegate");
            delegateField.setAccessible(true);
            Field ssImplField = ServerSocket.class.getDeclaredField("impl");
            ssImplField.setAccessible(true);
            Field fdField = SocketImpl.class.getDeclaredField("fd");
            fdField.setAccessible(true);
            try (ServerSocket ss = new ServerSocket()) {
                ss.bind(server(0));
                assertTrue(isRdma(ss), "server switched");
                FileDescriptor fd = (FileDescriptor) fdField.get(ssImplField.get(ss));
                assertTrue(fd != null && fd.valid(), "ServerSocket's SocketImpl.fd after the switch: " + fd);
                Socket s = new Socket();
                SocketImpl impl = (SocketImpl) delegateField.get(implField.get(s));
                s.bind(server(0));
                assertTrue(isRdma(s), "client switched");
                fd = (FileDescriptor) fdField.get(impl);
                assertTrue(fd != null && fd.valid(), "Socket's SocketImpl.fd after the switch: " + fd);
                s.connect(ss.getLocalSocketAddress());
                try (Socket peer = ss.accept()) {
                    send(s, peer, 1000, 11);
                }
                s.close();
                assertFalse(fd.valid(), "SocketImpl.fd after close");
            }
        }

        static void timeouts() throws Exception {
            try (ServerSocket ss = new ServerSocket()) {
                ss.setSoTimeout(300);       // set before the switch
                ss.bind(server(0));
                assertTrue(isRdma(ss), "server socket");
                long t0 = System.nanoTime();
                assertThrows(SocketTimeoutException.class, ss::accept);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 250, "accept timed out after " + ms + " ms");
                ss.setSoTimeout(0);
                try (Socket s = new Socket()) {
                    s.connect(ss.getLocalSocketAddress(), 10_000);
                    try (Socket peer = ss.accept()) {
                        s.setSoTimeout(300);
                        InputStream in = s.getInputStream();
                        assertThrows(SocketTimeoutException.class, in::read);
                        // the socket stays usable after a read timeout
                        send(peer, s, 1000, 8);
                    }
                }
            }
        }

        // Six virtual threads read, then accept, on one socket with a 1 s
        // timeout.  Each must time out after about 1 s, as over TCP; a
        // switched socket reads through the channel's adaptor, which
        // waited for its lock without a limit, so the last took 6 s.
        static void concurrentTimeouts() throws Exception {
            final int waiters = 6, timeout = 1000, bound = timeout + 2500;
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER);
                 Socket s = new Socket(RdmaTestLib.SERVER, ss.getLocalPort());
                 Socket peer = ss.accept()) {
                assertTrue(isRdma(s) && isRdma(ss), "switched");
                s.setSoTimeout(timeout);
                InputStream in = s.getInputStream();
                timeOutTogether("read", waiters, timeout, bound, () -> in.read());
                send(peer, s, 1000, 9);     // nothing lost to the timeouts
                ss.setSoTimeout(timeout);
                timeOutTogether("accept", waiters, timeout, bound, () -> ss.accept().close());
            }
        }

        interface Blocking {
            void run() throws Exception;
        }

        static void timeOutTogether(String what, int waiters, long timeout, long bound,
                                    Blocking op) throws Exception {
            long start = System.nanoTime();
            List<CompletableFuture<Long>> results = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                CompletableFuture<Long> r = new CompletableFuture<>();
                Thread.startVirtualThread(() -> {
                    try {
                        op.run();
                        r.completeExceptionally(new AssertionError(what + " returned"));
                    } catch (SocketTimeoutException e) {
                        r.complete((System.nanoTime() - start) / 1_000_000);
                    } catch (Throwable e) {
                        r.completeExceptionally(e);
                    }
                });
                results.add(r);
            }
            long[] ms = new long[waiters];
            for (int i = 0; i < waiters; i++)
                ms[i] = results.get(i).get(bound + 10_000, TimeUnit.MILLISECONDS);
            System.out.println(what + " timed out after " + Arrays.toString(ms) + " ms");
            for (long t : ms) {
                assertTrue(t >= timeout - 50, what + " gave up early: " + t + " ms");
                assertTrue(t <= bound, what + " timed out after " + t + " ms, bound " + bound);
            }
        }

        /**
         * Starts a thread of builder that completes result with what call
         * returns or throws.
         */
        static <T> Thread start(Thread.Builder builder, CompletableFuture<T> result, Callable<T> call) {
            return builder.start(() -> {
                try {
                    result.complete(call.call());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
        }

        static void closeWakes() throws Exception {
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER);
                 Socket s = new Socket(RdmaTestLib.SERVER, ss.getLocalPort());
                 Socket peer = ss.accept()) {
                CompletableFuture<Integer> read = new CompletableFuture<>();
                Thread t = start(Thread.ofPlatform(), read, () -> s.getInputStream().read());
                RdmaTestLib.awaitWaiting(t);
                s.close();
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> read.get(10, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof SocketException, "read after close: " + e.getCause());
            }
            ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER);
            CompletableFuture<Socket> accept = new CompletableFuture<>();
            Thread t = start(Thread.ofPlatform(), accept, ss::accept);
            RdmaTestLib.awaitWaiting(t);
            ss.close();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> accept.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof SocketException, "accept after close: " + e.getCause());
        }

        // A Socket's blocking operations on a platform thread ignore an
        // interrupt (NioSocketImpl), where a channel's close the channel; a
        // switched socket is a channel's adaptor and must still act as a
        // Socket.  On a virtual thread an interrupt closes both.
        static void interrupts() throws Exception {
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER)) {
                assertTrue(isRdma(ss), "server socket");
                // an accept with the status already set times out, the
                // status stays set and the server socket open
                ss.setSoTimeout(500);
                Thread.currentThread().interrupt();
                try {
                    assertThrows(SocketTimeoutException.class, ss::accept);
                    assertTrue(Thread.currentThread().isInterrupted(), "interrupt status kept");
                } finally {
                    Thread.interrupted();
                }
                ss.setSoTimeout(0);     // and it accepts the next connections

                try (Socket s = new Socket(RdmaTestLib.SERVER, ss.getLocalPort());
                     Socket peer = ss.accept()) {
                    // a platform thread interrupted while it waits in read
                    // goes on waiting, and reads what the peer then sends
                    byte[] msg = RdmaTestLib.message(100, 11);
                    CompletableFuture<byte[]> read = new CompletableFuture<>();
                    Thread t = start(Thread.ofPlatform(), read, () -> {
                        byte[] got = s.getInputStream().readNBytes(msg.length);
                        if (!Thread.currentThread().isInterrupted())
                            throw new AssertionError("interrupt status lost");
                        return got;
                    });
                    RdmaTestLib.awaitWaiting(t);
                    // a channel's interrupt hook closes it within interrupt()
                    t.interrupt();
                    peer.getOutputStream().write(msg);
                    assertTrue(Arrays.equals(msg, read.get(10, TimeUnit.SECONDS)), "bytes read after the interrupt");
                    t.join();
                }

                try (Socket s = new Socket(RdmaTestLib.SERVER, ss.getLocalPort());
                     Socket peer = ss.accept()) {
                    // a virtual thread's interrupt closes the socket
                    CompletableFuture<Integer> read = new CompletableFuture<>();
                    Thread t = start(Thread.ofVirtual(), read, () -> s.getInputStream().read());
                    RdmaTestLib.awaitWaiting(t);
                    t.interrupt();
                    ExecutionException e = assertThrows(ExecutionException.class,
                            () -> read.get(10, TimeUnit.SECONDS));
                    assertTrue(e.getCause() instanceof SocketException
                               && "Closed by interrupt".equals(e.getCause().getMessage()),
                               "virtual thread's read after an interrupt: " + e.getCause());
                    assertThrows(SocketException.class, () -> s.getInputStream().read());
                }
            }
        }

        static void virtualThreads() throws Exception {
            try (ServerSocket ss = new ServerSocket(0, 50, RdmaTestLib.SERVER)) {
                AtomicReference<Object> result = new AtomicReference<>();
                byte[] msg = RdmaTestLib.message(5000, 9);
                Thread server = Thread.ofVirtual().start(() -> {
                    try (Socket peer = ss.accept()) {
                        result.set(peer.getInputStream().readNBytes(msg.length));
                    } catch (Throwable e) {
                        result.set(e);
                    }
                });
                Thread client = Thread.ofVirtual().start(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(ss.getLocalSocketAddress());
                        if (!isRdma(s))
                            throw new AssertionError("virtual thread's socket is not RDMA");
                        s.getOutputStream().write(msg);
                        server.join();
                    } catch (Throwable e) {
                        result.compareAndSet(null, e);
                    }
                });
                client.join(30_000);
                server.join(30_000);
                assertFalse(client.isAlive() || server.isAlive(), "virtual threads done");
                if (result.get() instanceof Throwable e)
                    throw new AssertionError("virtual thread", e);
                assertEquals(-1, Arrays.mismatch(msg, (byte[]) result.get()), "first byte that differs");
            }
        }

        // An unchanged HTTP server (channels) and client (new Socket()).
        static void http() throws Exception {
            byte[] body = RdmaTestLib.message(256 * 1024, 10);
            HttpServer hs = HttpServer.create(server(0), 0);
            hs.createContext("/data", ex -> {
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            });
            hs.start();
            try {
                URI uri = new URI("http", null, RdmaTestLib.SERVER.getHostAddress(),
                        hs.getAddress().getPort(), "/data", null, null);
                for (int i = 0; i < 3; i++) {
                    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
                    c.setConnectTimeout(10_000);
                    c.setReadTimeout(20_000);
                    assertEquals(200, c.getResponseCode(), "response code");
                    try (InputStream in = c.getInputStream()) {
                        assertEquals(-1, Arrays.mismatch(body, in.readAllBytes()), "first byte that differs");
                    }
                }
            } finally {
                hs.stop(0);
            }
        }
    }
}
