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
 * @summary A rules file (-Djdk.net.rdma.conf) on a host without RDMA fails
 *          only the sockets that a rule matches: loopback and wildcard TCP
 *          channels, classic sockets and a Selector.open() selector (JDK
 *          25's epoll selector) work beside rules that name another
 *          address, bytes compared; a bind or connect that a rule matches
 *          throws SocketException naming the file, the rule's line and why
 *          RDMA is unavailable, and never goes on over TCP; one warning on
 *          standard error per JVM.  A file without rules warns not, and a
 *          malformed file still fails every bind, connect and selector
 *          open.  Each case runs in a JVM of its own, started with the
 *          options a user would give.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaRulesWithoutRdma
 */

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import jdk.net.RdmaSocketOptions;
import jdk.net.RdmaSockets;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import jtreg.SkippedException;

import static java.net.StandardProtocolFamily.INET;
import static jdk.test.lib.Asserts.*;

public class RdmaRulesWithoutRdma {
    // TEST-NET-1 (RFC 5737): no host has it, so no connect may reach it
    static final String OTHER = "192.0.2.1";

    // the rules: lines 2 and 4 to 5; loopback, and wildcard binds to
    // ports outside 7-9, match none
    static final String RULES = String.join("\n",
            "# the issue's rule: connects to another address",
            "connect " + OTHER + " *",
            "# binds to that address, and binds to any address on ports 7 to 9",
            "bind    " + OTHER + " *",
            "bind    *   7-9   # a comment after a rule",
            "");

    // why RDMA is unavailable, as RdmaUnavailable accepts it
    static final Pattern REASON = Pattern.compile(
            "RDMA sockets are not (available: (no RDMA device.*|librdmacm\\.so\\.1 not found.*|librdmacm\\.so\\.1 lacks .*)"
            + "|part of this JDK build \\(it was configured with --with-rdma=no\\))");

    static final String WARNING = "WARNING: -Djdk.net.rdma.conf=";

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            App.main(args);
            return;
        }
        String reason;
        try {
            RdmaSockets.openSocketChannel(INET).close();
            throw new SkippedException("this host has RDMA; the test is of a host without it");
        } catch (UnsupportedOperationException e) {
            reason = e.getMessage();
        }
        assertTrue(REASON.matcher(reason).matches(), "the reason \"" + reason + "\"");

        // sound rules that match other sockets
        Path conf = Path.of("other.conf").toAbsolutePath();
        Files.writeString(conf, RULES);
        Path listing = Path.of("other.log").toAbsolutePath();
        OutputAnalyzer out = run(conf, "rules", "-Djdk.net.rdma.debug=" + listing);
        out.shouldHaveExitValue(0);
        out.shouldContain("all cases passed");
        String warning = WARNING + conf + " names 3 rules, but " + reason
                + ". A bind or connect that a rule matches will throw SocketException;"
                + " sockets that no rule matches are TCP sockets.";
        assertEquals(1, count(out.getStderr(), WARNING), "warnings on standard error");
        assertTrue(out.getStderr().contains(warning + "\n"), "the warning, exactly");
        assertEquals(0, count(out.getStdout(), WARNING), "warnings on standard output");

        // the listing has the rules, the warning and each refused socket
        String log = Files.readString(listing);
        System.out.println("--- listing\n" + log);
        assertTrue(log.contains("rdma: 3 rules from " + conf + "\n"), "rule count in the listing");
        assertTrue(log.contains("rdma:   line 5: bind * 7-9\n"), "a rule in the listing");
        assertTrue(log.contains("rdma: " + warning + "\n"), "the warning in the listing");
        assertTrue(log.contains("rdma: -Djdk.net.rdma.conf=" + conf + ", line 2 (connect " + OTHER + " *)"
                + " asks for an RDMA socket for the connect to " + OTHER + " port 80: " + reason + "\n"),
                "a refused connect in the listing");
        assertFalse(Pattern.compile("RDMA socket [0-9]").matcher(log).find(), "a switched socket in the listing");

        // a file without rules: no warning, and TCP as without a file
        Path empty = Path.of("empty.conf").toAbsolutePath();
        Files.writeString(empty, "# no rules yet\n\n");
        out = run(empty, "norules");
        out.shouldHaveExitValue(0);
        out.shouldContain("all cases passed");
        assertEquals(0, count(out.getStderr(), WARNING), "warnings without rules");

        // a malformed file is a fault on every host: everything fails
        Path bad = Path.of("bad.conf").toAbsolutePath();
        Files.writeString(bad, "connect " + OTHER + " *\nbnd * *\n");
        out = run(bad, "bad");
        out.shouldHaveExitValue(0);
        out.shouldContain("fault: -Djdk.net.rdma.conf=" + bad
                + ", line 2: unknown keyword 'bnd' (a rule starts with bind or connect)\n");
        assertEquals(0, count(out.getStderr(), WARNING), "warnings for a malformed file");
    }

    static OutputAnalyzer run(Path conf, String mode, String... options) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("-Djdk.net.rdma.conf=" + conf);
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("RdmaRulesWithoutRdma", mode, conf.toString()));
        OutputAnalyzer out = ProcessTools.executeTestJava(cmd);
        out.outputTo(System.out);
        out.errorTo(System.out);
        return out;
    }

    static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1))
            n++;
        return n;
    }

    /** The programs run in the child JVMs: java.net and plain NIO. */
    static class App {
        static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
        static final long TIMEOUT_MILLIS = 20_000;

        static String conf;
        static boolean rules;      // whether the file has RULES

        static void main(String[] args) throws Exception {
            conf = args[1];
            rules = args[0].equals("rules");
            switch (args[0]) {
                case "rules" -> {
                    tcpChannels();
                    matchingConnect();
                    matchingBind();
                    selector();
                    classicSockets();
                    // sockets keep working after the refusals
                    tcpChannels();
                }
                case "norules" -> {
                    tcpChannels();
                    selector();
                    classicSockets();
                }
                case "bad" -> badFile();
                default -> throw new IllegalArgumentException(args[0]);
            }
            System.out.println("all cases passed");
        }

        static byte[] message(int size, long seed) {
            byte[] b = new byte[size];
            new Random(seed).nextBytes(b);
            return b;
        }

        static boolean isRdma(Set<SocketOption<?>> options) {
            return options.contains(RdmaSocketOptions.RDMA_SQSIZE);
        }

        static boolean isRdma(NetworkChannel ch) {
            return isRdma(ch.supportedOptions());
        }

        static void writeFully(SocketChannel ch, byte[] b) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(b);
            while (bb.hasRemaining())
                ch.write(bb);
        }

        // reads n bytes, each read bounded by the socket's SO_TIMEOUT
        static byte[] readFully(InputStream in, int n) throws IOException {
            byte[] b = in.readNBytes(n);
            assertEquals(n, b.length, "bytes before end of stream");
            return b;
        }

        static byte[] readFully(SocketChannel ch, int n) throws IOException {
            Socket s = ch.socket();
            s.setSoTimeout((int) TIMEOUT_MILLIS);
            return readFully(s.getInputStream(), n);
        }

        // bytes both ways over a connection of two blocking channels
        static void echo(SocketChannel a, SocketChannel b, long seed) throws IOException {
            byte[] there = message(65536, seed), back = message(40000, seed + 1);
            writeFully(a, there);
            assertTrue(Arrays.equals(there, readFully(b, there.length)), "bytes that arrived");
            writeFully(b, back);
            assertTrue(Arrays.equals(back, readFully(a, back.length)), "bytes that came back");
        }

        // Loopback and wildcard listeners and their clients, which no rule
        // matches, are TCP channels.
        static void tcpChannels() throws Exception {
            try (ServerSocketChannel ssc = ServerSocketChannel.open()
                         .bind(new InetSocketAddress(LOOPBACK, 0));
                 SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                 SocketChannel peer = ssc.accept()) {
                assertFalse(isRdma(ssc) || isRdma(sc) || isRdma(peer), "loopback channels are RDMA");
                echo(sc, peer, 1);
            }
            // a wildcard bind to a port outside 7-9
            try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(null);
                 SocketChannel sc = SocketChannel.open(new InetSocketAddress(LOOPBACK,
                         ((InetSocketAddress) ssc.getLocalAddress()).getPort()));
                 SocketChannel peer = ssc.accept()) {
                assertFalse(isRdma(ssc) || isRdma(sc), "wildcard listener is RDMA");
                echo(peer, sc, 2);
            }
        }

        // the refusal of a socket that the rule on line `line` matches
        static void assertRefused(SocketException e, int line, String rule, String what) {
            String m = e.getMessage();
            String start = "-Djdk.net.rdma.conf=" + conf + ", line " + line + " (" + rule + ")"
                    + " asks for an RDMA socket for the " + what + ": ";
            assertTrue(m != null && m.startsWith(start), "the message \"" + m + "\" starts with \"" + start + "\"");
            String reason = m.substring(start.length());
            assertTrue(REASON.matcher(reason).matches(), "\"" + reason + "\" says why RDMA is unavailable");
            System.out.println("refused: " + m);
        }

        // A connect that the rule matches fails before any TCP connect.
        static void matchingConnect() throws Exception {
            InetSocketAddress other = new InetSocketAddress(OTHER, 80);
            String rule = "connect " + OTHER + " *";
            try (SocketChannel sc = SocketChannel.open()) {
                // non-blocking, so that a connect that went on over TCP
                // would return false here rather than wait
                sc.configureBlocking(false);
                SocketException e = assertThrows(SocketException.class, () -> sc.connect(other),
                        "a non-blocking connect to " + other);
                assertRefused(e, 2, rule, "connect to " + OTHER + " port 80");
                assertFalse(sc.isOpen(), "the channel after its failed connect");
            }
            try (SocketChannel sc = SocketChannel.open()) {
                SocketException e = assertThrows(SocketException.class, () -> sc.connect(other),
                        "a blocking connect to " + other);
                assertRefused(e, 2, rule, "connect to " + OTHER + " port 80");
            }
            try (Socket s = new Socket()) {
                SocketException e = assertThrows(SocketException.class, () -> s.connect(other, 5000),
                        "Socket.connect to " + other);
                assertRefused(e, 2, rule, "connect to " + OTHER + " port 80");
                assertFalse(s.isConnected(), "the Socket connected");
            }
            // the adaptor of a channel
            try (SocketChannel sc = SocketChannel.open()) {
                SocketException e = assertThrows(SocketException.class,
                        () -> sc.socket().connect(new InetSocketAddress(OTHER, 443), 5000),
                        "an adaptor's connect to " + OTHER);
                assertRefused(e, 2, rule, "connect to " + OTHER + " port 443");
            }
        }

        // A bind that a rule matches fails; the channel stays usable.
        static void matchingBind() throws Exception {
            String otherRule = "bind " + OTHER + " *", portRule = "bind * 7-9";
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                SocketException e = assertThrows(SocketException.class,
                        () -> ssc.bind(new InetSocketAddress(OTHER, 0)), "a bind to " + OTHER);
                assertRefused(e, 4, otherRule, "bind to " + OTHER + " port 0");
                // "bind * 7-9" matches loopback on those ports
                e = assertThrows(SocketException.class,
                        () -> ssc.bind(new InetSocketAddress(LOOPBACK, 9)), "a loopback bind to port 9");
                assertRefused(e, 5, portRule, "bind to " + LOOPBACK.getHostAddress() + " port 9");
                // the refused channel is unchanged and binds where no rule matches
                assertTrue(ssc.isOpen() && ssc.getLocalAddress() == null, "the refused channel's state");
                ssc.bind(new InetSocketAddress(LOOPBACK, 0));
                try (SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                     SocketChannel peer = ssc.accept()) {
                    echo(sc, peer, 3);
                }
            }
            // a wildcard bind matches "bind * 7-9"
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                SocketException e = assertThrows(SocketException.class,
                        () -> ssc.bind(new InetSocketAddress(8)), "a wildcard bind to port 8");
                assertRefused(e, 5, portRule, "bind to 0.0.0.0 port 8");
            }
            try (ServerSocket ss = new ServerSocket()) {
                SocketException e = assertThrows(SocketException.class,
                        () -> ss.bind(new InetSocketAddress(OTHER, 0)), "ServerSocket.bind to " + OTHER);
                assertRefused(e, 4, otherRule, "bind to " + OTHER + " port 0");
                assertFalse(ss.isBound(), "the ServerSocket bound");
            }
            SocketException e = assertThrows(SocketException.class, () -> new ServerSocket(7).close(),
                    "new ServerSocket(7)");
            assertRefused(e, 5, portRule, "bind to 0.0.0.0 port 7");
            try (Socket s = new Socket()) {
                e = assertThrows(SocketException.class,
                        () -> s.bind(new InetSocketAddress(LOOPBACK, 8)), "Socket.bind to port 8");
                assertRefused(e, 5, portRule, "bind to " + LOOPBACK.getHostAddress() + " port 8");
            }
        }

        // Selector.open() is JDK 25's epoll selector: it accepts, connects
        // and reads on TCP channels, and a channel registered with it
        // before a refused connect goes away with its key.
        static void selector() throws Exception {
            try (Selector sel = Selector.open();
                 ServerSocketChannel ssc = ServerSocketChannel.open()
                         .bind(new InetSocketAddress(LOOPBACK, 0));
                 SocketChannel sc = SocketChannel.open()) {
                assertEquals("sun.nio.ch.EPollSelectorImpl", sel.getClass().getName(),
                        "the selector of Selector.open()");
                ssc.configureBlocking(false);
                SelectionKey sk = ssc.register(sel, SelectionKey.OP_ACCEPT);
                sc.configureBlocking(false);
                SelectionKey ck = sc.register(sel, SelectionKey.OP_CONNECT);
                boolean connected = sc.connect(ssc.getLocalAddress());
                if (connected)
                    ck.interestOps(0);

                // a channel refused at connect, registered before it
                SelectionKey rk = null;
                if (rules) {
                    SocketChannel refused = SocketChannel.open();
                    refused.configureBlocking(false);
                    rk = refused.register(sel, SelectionKey.OP_CONNECT);
                    assertThrows(SocketException.class,
                            () -> refused.connect(new InetSocketAddress(OTHER, 80)));
                    refused.close();
                    assertFalse(rk.isValid(), "the refused channel's key");
                }

                SocketChannel peer = null;
                long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000;
                while ((peer == null || !connected) && System.nanoTime() < deadline) {
                    sel.select(1000);
                    for (SelectionKey k : sel.selectedKeys()) {
                        if (k == sk && k.isAcceptable() && peer == null) {
                            peer = ssc.accept();
                        } else if (k == ck && k.isConnectable()) {
                            connected = sc.finishConnect();
                            if (connected)
                                ck.interestOps(0);
                        }
                    }
                    sel.selectedKeys().clear();
                }
                assertNotNull(peer, "accepted through the selector");
                assertTrue(connected, "connect finished through the selector");
                assertFalse(rk != null && sel.keys().contains(rk), "the refused channel's key is still registered");
                try (SocketChannel p = peer) {
                    byte[] msg = message(30000, 4);
                    p.configureBlocking(true);
                    writeFully(p, msg);
                    ck.interestOps(SelectionKey.OP_READ);
                    ByteBuffer in = ByteBuffer.allocate(msg.length);
                    while (in.hasRemaining() && System.nanoTime() < deadline) {
                        if (sel.select(1000) > 0 && ck.isReadable())
                            assertTrue(sc.read(in) >= 0, "end of stream");
                        sel.selectedKeys().clear();
                    }
                    assertTrue(Arrays.equals(msg, in.array()), "bytes read through the selector");
                }
            }
        }

        // new Socket() and new ServerSocket() to loopback and the wildcard
        // are TCP sockets: streams carry the bytes both ways.
        static void classicSockets() throws Exception {
            try (ServerSocket ss = new ServerSocket(0, 50, LOOPBACK);
                 Socket s = new Socket(LOOPBACK, ss.getLocalPort());
                 Socket peer = ss.accept()) {
                classicEcho(s, peer, 5);
                assertFalse(isRdma(s.supportedOptions()) || isRdma(ss.supportedOptions()),
                        "loopback sockets are RDMA");
            }
            try (ServerSocket ss = new ServerSocket(0);      // the wildcard
                 Socket s = new Socket()) {
                s.connect(new InetSocketAddress(LOOPBACK, ss.getLocalPort()), (int) TIMEOUT_MILLIS);
                try (Socket peer = ss.accept()) {
                    classicEcho(peer, s, 6);
                }
            }
        }

        static void classicEcho(Socket a, Socket b, long seed) throws IOException {
            a.setSoTimeout((int) TIMEOUT_MILLIS);
            b.setSoTimeout((int) TIMEOUT_MILLIS);
            byte[] there = message(50000, seed), back = message(7000, seed + 1);
            a.getOutputStream().write(there);
            assertTrue(Arrays.equals(there, readFully(b.getInputStream(), there.length)), "bytes that arrived");
            b.getOutputStream().write(back);
            assertTrue(Arrays.equals(back, readFully(a.getInputStream(), back.length)), "bytes that came back");
        }

        // A malformed file fails every bind, connect and selector open
        // with the same message, whatever the socket.
        static void badFile() throws Exception {
            List<String> messages = new ArrayList<>();
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                messages.add(assertThrows(SocketException.class,
                        () -> ssc.bind(new InetSocketAddress(LOOPBACK, 0))).getMessage());
            }
            try (SocketChannel sc = SocketChannel.open()) {
                sc.configureBlocking(false);
                messages.add(assertThrows(SocketException.class,
                        () -> sc.connect(new InetSocketAddress(LOOPBACK, 9))).getMessage());
            }
            messages.add(assertThrows(SocketException.class, () -> Selector.open().close()).getMessage());
            try (ServerSocket ss = new ServerSocket()) {
                messages.add(assertThrows(SocketException.class,
                        () -> ss.bind(new InetSocketAddress(LOOPBACK, 0))).getMessage());
            }
            try (Socket s = new Socket()) {
                messages.add(assertThrows(SocketException.class,
                        () -> s.connect(new InetSocketAddress(LOOPBACK, 9), 5000)).getMessage());
            }
            assertEquals(1L, messages.stream().distinct().count(), "the same fault each time: " + messages);
            System.out.println("fault: " + messages.get(0));
        }
    }
}
