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
 * @summary Transparent RDMA: with -Djdk.net.rdma.conf, channels that a
 *          program opens the ordinary way become RDMA channels at bind or
 *          connect when a rule matches, and stay TCP when none does; the
 *          default selector serves both at once; options set before the
 *          switch carry over; a channel registered with a selector before
 *          the switch is switched too, and a TCP channel that takes the
 *          closed socket's number is selected as itself; a selector with
 *          only TCP keys waits in epoll; -Djdk.net.rdma.debug lists every
 *          switch; and
 *          a bad rules file makes bind, connect and Selector.open (of
 *          channels and of classic sockets) fail with
 *          a message that names the line.  Each case runs in a JVM of its
 *          own, started with the options a user would give.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaTransparent
 */

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jdk.net.RdmaSocketOptions;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaTransparent {
    // the other end of the guest's veth pair: no RDMA device has it
    static final String NO_RDMA_ADDR = "10.77.0.2";
    static final int RANGE_LOW = 47000, RANGE_HIGH = 47009;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            App.main(args);
            return;
        }
        String server = RdmaTestLib.SERVER.getHostAddress();
        Path conf = Path.of("transparent.conf");
        Files.writeString(conf, String.join("\n",
                "# the RDMA device's address; listeners on any address in a port range",
                "bind    " + server + "  *",
                "bind    *  " + RANGE_LOW + "-" + RANGE_HIGH + "   # a comment after a rule",
                "",
                "connect " + server + "/24 *",
                "# a subnet, by its network address, which no interface has:",
                "# checked against the local addresses in it",
                "bind    " + server.substring(0, server.lastIndexOf('.')) + ".0/24 *",
                ""));
        Path listing = Path.of("transparent.log");
        OutputAnalyzer out = run(conf, "-Djdk.net.rdma.debug=" + listing.toAbsolutePath(), "app");
        out.shouldHaveExitValue(0);
        out.shouldContain("all cases passed");

        // the listing names the rules and every switch, with its rule
        String log = Files.readString(listing);
        System.out.println("--- listing\n" + log);
        assertTrue(log.contains("rdma: 4 rules from " + conf.toAbsolutePath()), "rule count in listing");
        assertTrue(log.contains("bind to " + server + " port "), "bind switch in listing");
        assertTrue(log.contains("connect to " + server + " port "), "connect switch in listing");
        assertTrue(log.contains("(line 3: bind * " + RANGE_LOW + "-" + RANGE_HIGH + ")"), "range rule in listing");
        assertTrue(log.contains("carrying {TCP_NODELAY=true}"), "carried option in listing");
        assertFalse(log.contains("127.0.0.1"), "a loopback socket in the listing");

        // a bad rules file: every bind, connect and selector open fails,
        // naming the file's line and what is wrong with it
        bad("bnd * *", 2, "unknown keyword 'bnd' (a rule starts with bind or connect)");
        bad("connect " + server, 2, "'connect " + server + "' is not a rule: connect ADDRESS PORTS");
        bad("connect " + server + " 9-3", 2, "bad port range '9-3'");
        bad("connect " + server + " 70000", 2, "bad port range '70000'");
        bad("connect 10.77.0.0/33 *", 2, "prefix length 33 is longer than the 32 bits of 10.77.0.0");
        bad("connect 10.77.0.0/x *", 2, "bad prefix length in '10.77.0.0/x'");
        bad("bind " + NO_RDMA_ADDR + " *", 2, NO_RDMA_ADDR + " is not an address of an RDMA device");
        bad("bind 10.77.1.0/24 *", 2, "no local address in 10.77.1.0/24 is an RDMA device's"
                + " (no local address is in it)");
        bad("bind " + NO_RDMA_ADDR + "/31 *", 2, "no local address in " + NO_RDMA_ADDR
                + "/31 is an RDMA device's (RDMA sockets could not bind " + NO_RDMA_ADDR + " (");
        OutputAnalyzer missing = run(Path.of("no-such.conf"), null, "bad");
        missing.shouldHaveExitValue(0);
        missing.shouldContain("cannot read the rules file: java.nio.file.NoSuchFileException: no-such.conf");
    }

    static OutputAnalyzer run(Path conf, String debug, String mode) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("-Djdk.net.rdma.conf=" + (conf.toString().equals("no-such.conf") ? conf : conf.toAbsolutePath()));
        if (debug != null)
            cmd.add(debug);
        cmd.addAll(List.of("RdmaTransparent", mode));
        OutputAnalyzer out = ProcessTools.executeTestJava(cmd);
        out.outputTo(System.out);
        out.errorTo(System.out);
        return out;
    }

    static void bad(String rule, int line, String fault) throws Exception {
        Path conf = Path.of("bad.conf");
        Files.writeString(conf, "# a bad rule\n" + rule + "\n");
        OutputAnalyzer out = run(conf, null, "bad");
        out.shouldHaveExitValue(0);
        out.shouldContain("-Djdk.net.rdma.conf=" + conf.toAbsolutePath() + ", line " + line + ": " + fault);
    }

    /** The programs run in the child JVMs: plain NIO, no jdk.net API. */
    static class App {
        static void main(String[] args) throws Exception {
            if (args[0].equals("bad")) {
                badFile();
            } else {
                for (Case c : List.<Case>of(App::rdmaEcho, App::tcpStaysTcp, App::portRange,
                                            App::mixedSelector, App::classicBothKinds,
                                            App::registeredBeforeSwitch, App::numberTakenAfterSwitch,
                                            App::tcpKeysInEpoll,
                                            App::virtualThread, App::socketAdaptor)) {
                    c.run();
                }
                System.out.println("all cases passed");
            }
        }

        interface Case {
            void run() throws Exception;
        }

        static boolean isRdma(NetworkChannel ch) {
            return ch.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE);
        }

        static InetSocketAddress server(int port) {
            return new InetSocketAddress(RdmaTestLib.SERVER, port);
        }

        // Each of bind, connect and Selector.open throws the file's fault,
        // and so do the bind and connect of classic sockets.
        static void badFile() throws Exception {
            List<String> messages = new ArrayList<>();
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                fail("bind succeeded");
            } catch (SocketException e) {
                messages.add(e.getMessage());
            }
            try (SocketChannel sc = SocketChannel.open()) {
                sc.connect(server(9));
                fail("connect succeeded");
            } catch (SocketException e) {
                messages.add(e.getMessage());
            }
            try (Selector sel = Selector.open()) {
                fail("Selector.open succeeded");
            } catch (SocketException e) {
                messages.add(e.getMessage());
            }
            try (ServerSocket ss = new ServerSocket()) {
                ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                fail("ServerSocket.bind succeeded");
            } catch (SocketException e) {
                messages.add(e.getMessage());
            }
            try (Socket s = new Socket()) {
                s.connect(server(9), 5000);
                fail("Socket.connect succeeded");
            } catch (SocketException e) {
                messages.add(e.getMessage());
            }
            assertEquals(1L, messages.stream().distinct().count(), "the same fault each time: " + messages);
            System.out.println("fault: " + messages.get(0));
        }

        // A listener on the RDMA address and a client connecting to it are
        // RDMA channels; an option set before the connect carries over.
        static void rdmaEcho() throws Exception {
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                assertFalse(isRdma(ssc), "unbound channel");
                ssc.bind(server(0));
                assertTrue(isRdma(ssc), "listener bound to the RDMA address");
                try (SocketChannel sc = SocketChannel.open()) {
                    sc.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    sc.connect(ssc.getLocalAddress());
                    assertTrue(isRdma(sc), "client connected to the RDMA address");
                    assertEquals(Boolean.TRUE, sc.getOption(StandardSocketOptions.TCP_NODELAY),
                                 "TCP_NODELAY after the switch");
                    assertEquals(RdmaTestLib.SERVER, ((InetSocketAddress) sc.getLocalAddress()).getAddress());
                    try (SocketChannel peer = ssc.accept()) {
                        assertTrue(isRdma(peer), "accepted channel");
                        RdmaTestLib.echo(sc, peer, 1 << 20, 1);
                        RdmaTestLib.echo(peer, sc, 100_000, 2);
                    }
                }
            }
        }

        // Sockets that no rule names stay TCP sockets, and work.
        static void tcpStaysTcp() throws Exception {
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                assertFalse(isRdma(ssc), "loopback listener");
                try (SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                     SocketChannel peer = ssc.accept()) {
                    assertFalse(isRdma(sc), "loopback client");
                    assertFalse(isRdma(peer), "loopback peer");
                    RdmaTestLib.echo(sc, peer, 65536, 3);
                }
            }
        }

        // "bind * LOW-HIGH": a wildcard bind in the range is RDMA, one
        // outside it is not; a client reaches the wildcard RDMA listener.
        static void portRange() throws Exception {
            ServerSocketChannel in = null;
            for (int port = RANGE_LOW; port <= RANGE_HIGH && in == null; port++) {
                ServerSocketChannel ssc = ServerSocketChannel.open();
                try {
                    ssc.bind(new InetSocketAddress(port));
                    in = ssc;
                } catch (IOException e) {
                    ssc.close();    // in use: try the next
                }
            }
            assertNotNull(in, "a free port in " + RANGE_LOW + "-" + RANGE_HIGH);
            try (ServerSocketChannel ssc = in;
                 ServerSocketChannel out = ServerSocketChannel.open().bind(new InetSocketAddress(0))) {
                assertTrue(isRdma(ssc), "wildcard listener in the range");
                assertFalse(isRdma(out), "wildcard listener outside the range");
                int port = ((InetSocketAddress) ssc.getLocalAddress()).getPort();
                try (SocketChannel sc = SocketChannel.open(server(port));
                     SocketChannel peer = ssc.accept()) {
                    assertTrue(isRdma(sc) && isRdma(peer), "connection to the wildcard listener");
                    RdmaTestLib.echo(sc, peer, 65536, 4);
                }
            }
        }

        // One Selector.open() selector serves an RDMA and a TCP listener,
        // a non-blocking RDMA connect, and reads on both kinds.
        static void mixedSelector() throws Exception {
            try (Selector sel = Selector.open();
                 ServerSocketChannel rdmaL = ServerSocketChannel.open().bind(server(0));
                 ServerSocketChannel tcpL = ServerSocketChannel.open()
                         .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 SocketChannel rdmaC = SocketChannel.open();
                 SocketChannel tcpC = SocketChannel.open(tcpL.getLocalAddress())) {
                assertTrue(isRdma(rdmaL) && !isRdma(tcpL), "listener kinds");
                rdmaL.configureBlocking(false);
                tcpL.configureBlocking(false);
                rdmaL.register(sel, SelectionKey.OP_ACCEPT, "rdma");
                tcpL.register(sel, SelectionKey.OP_ACCEPT, "tcp");
                rdmaC.configureBlocking(false);
                boolean connected = rdmaC.connect(rdmaL.getLocalAddress());
                assertTrue(isRdma(rdmaC), "non-blocking client switched at connect");
                SelectionKey ck = rdmaC.register(sel, connected ? 0 : SelectionKey.OP_CONNECT, "client");

                // both listeners become acceptable, and the connect finishes
                List<SocketChannel> accepted = new ArrayList<>();
                long deadline = System.nanoTime() + 20_000_000_000L;
                while ((accepted.size() < 2 || !rdmaC.isConnected()) && System.nanoTime() < deadline) {
                    sel.select(1000);
                    for (SelectionKey k : sel.selectedKeys()) {
                        if (k.isAcceptable()) {
                            SocketChannel a = ((ServerSocketChannel) k.channel()).accept();
                            if (a != null) {
                                assertEquals(k.attachment().equals("rdma"), isRdma(a), "accepted kind");
                                accepted.add(a);
                            }
                        } else if (k.isConnectable() && rdmaC.finishConnect()) {
                            k.interestOps(0);
                        }
                    }
                    sel.selectedKeys().clear();
                }
                assertEquals(2, accepted.size(), "accepted through the selector");
                assertTrue(rdmaC.isConnected(), "connect finished through the selector");
                rdmaL.keyFor(sel).cancel();
                tcpL.keyFor(sel).cancel();

                // the peers write; the selector reports both clients readable
                ck.interestOps(SelectionKey.OP_READ);
                tcpC.configureBlocking(false);
                tcpC.register(sel, SelectionKey.OP_READ, "tcpC");
                byte[] rdmaMsg = RdmaTestLib.message(3000, 5), tcpMsg = RdmaTestLib.message(3000, 6);
                for (SocketChannel a : accepted) {
                    a.configureBlocking(true);
                    RdmaTestLib.writeFully(a, ByteBuffer.wrap(isRdma(a) ? rdmaMsg : tcpMsg));
                }
                ByteBuffer rdmaIn = ByteBuffer.allocate(rdmaMsg.length), tcpIn = ByteBuffer.allocate(tcpMsg.length);
                while ((rdmaIn.hasRemaining() || tcpIn.hasRemaining()) && System.nanoTime() < deadline) {
                    sel.select(1000);
                    for (SelectionKey k : sel.selectedKeys()) {
                        SocketChannel ch = (SocketChannel) k.channel();
                        ByteBuffer into = (ch == rdmaC) ? rdmaIn : tcpIn;
                        assertTrue(ch.read(into) >= 0, "EOF on " + k.attachment());
                    }
                    sel.selectedKeys().clear();
                }
                assertTrue(Arrays.equals(rdmaMsg, rdmaIn.array()), "bytes read from the RDMA channel");
                assertTrue(Arrays.equals(tcpMsg, tcpIn.array()), "bytes read from the TCP channel");
                for (SocketChannel a : accepted)
                    a.close();
            }
        }

        // The same file serves classic sockets of both kinds at once: an
        // RDMA and a loopback TCP connection (new ServerSocket(), new
        // Socket()) are open together, with their bytes interleaved.
        // (A host without RDMA, where this file's rules fail only the
        // sockets they match: RdmaRulesWithoutRdma.)
        static void classicBothKinds() throws Exception {
            try (ServerSocket rdmaL = new ServerSocket();
                 ServerSocket tcpL = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                 Socket rdmaC = new Socket();
                 Socket tcpC = new Socket()) {
                rdmaL.bind(server(0));
                rdmaC.connect(rdmaL.getLocalSocketAddress(), 20_000);
                tcpC.connect(tcpL.getLocalSocketAddress(), 20_000);
                try (Socket rdmaP = rdmaL.accept(); Socket tcpP = tcpL.accept()) {
                    // Socket caches supportedOptions() at its first call: asked now
                    assertTrue(rdmaL.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE)
                               && rdmaC.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE)
                               && rdmaP.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE),
                               "the sockets to the RDMA address are RDMA sockets");
                    assertFalse(tcpL.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE)
                                || tcpC.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE)
                                || tcpP.supportedOptions().contains(RdmaSocketOptions.RDMA_SQSIZE),
                                "the loopback sockets are TCP sockets");
                    for (Socket s : List.of(rdmaC, rdmaP, tcpC, tcpP))
                        s.setSoTimeout(20_000);
                    for (int round = 0; round < 4; round++) {
                        byte[] toRdma = RdmaTestLib.message(20_000, 100 + round);
                        byte[] toTcp = RdmaTestLib.message(20_000, 200 + round);
                        rdmaC.getOutputStream().write(toRdma);
                        tcpC.getOutputStream().write(toTcp);
                        assertTrue(Arrays.equals(toTcp, tcpP.getInputStream().readNBytes(toTcp.length)),
                                   "bytes over TCP, round " + round);
                        assertTrue(Arrays.equals(toRdma, rdmaP.getInputStream().readNBytes(toRdma.length)),
                                   "bytes over RDMA, round " + round);
                        rdmaP.getOutputStream().write(toTcp);
                        tcpP.getOutputStream().write(toRdma);
                        assertTrue(Arrays.equals(toRdma, tcpC.getInputStream().readNBytes(toRdma.length)),
                                   "bytes back over TCP, round " + round);
                        assertTrue(Arrays.equals(toTcp, rdmaC.getInputStream().readNBytes(toTcp.length)),
                                   "bytes back over RDMA, round " + round);
                    }
                }
            }
        }

        // A switch closes the channel's kernel socket, whose number the
        // next socket opened takes: a TCP channel with that number, in the
        // selector that held the switched channel's key, is selected as
        // itself, and the switched key does not take its events.
        static void numberTakenAfterSwitch() throws Exception {
            try (Selector sel = Selector.open();
                 ServerSocketChannel tcpL = ServerSocketChannel.open()
                         .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                for (int attempt = 1; ; attempt++) {
                    Set<Integer> before = openFds();
                    SocketChannel switched = SocketChannel.open();
                    Set<Integer> opened = openFds();
                    opened.removeAll(before);
                    switched.configureBlocking(false);
                    // registered with no interest, as Netty does: the
                    // selector maps its number to the key all the same
                    SelectionKey sk = switched.register(sel, 0, "switched");
                    sel.selectNow();
                    switched.bind(server(0));
                    assertTrue(isRdma(switched), "bound to the RDMA address");
                    Set<Integer> beforeTcp = openFds();
                    SocketChannel tcp = SocketChannel.open(tcpL.getLocalAddress());
                    Set<Integer> tcpFds = openFds();
                    tcpFds.removeAll(beforeTcp);
                    if (opened.size() != 1 || !opened.equals(tcpFds)) {
                        // another thread of the JVM took the number first
                        switched.close();
                        tcp.close();
                        tcpL.accept().close();
                        assertTrue(attempt < 5, "the number of the switched socket, " + opened
                                + ", was not taken by the next socket, " + tcpFds + ", in 5 attempts");
                        continue;
                    }
                    try (switched; tcp; SocketChannel peer = tcpL.accept()) {
                        tcp.configureBlocking(false);
                        SelectionKey tk = tcp.register(sel, SelectionKey.OP_READ, "tcp");
                        byte[] msg = RdmaTestLib.message(1000, 11);
                        RdmaTestLib.writeFully(peer, ByteBuffer.wrap(msg));
                        ByteBuffer in = ByteBuffer.allocate(msg.length);
                        long deadline = System.nanoTime() + 5_000_000_000L;
                        while (in.hasRemaining() && System.nanoTime() < deadline) {
                            sel.select(1000);
                            assertFalse(sel.selectedKeys().contains(sk), "the switched key was selected");
                            if (tk.isReadable())
                                assertTrue(tcp.read(in) >= 0, "EOF");
                            sel.selectedKeys().clear();
                        }
                        assertTrue(Arrays.equals(msg, in.array()),
                                   "bytes read through the selector on number " + tcpFds);
                        System.out.println("number " + tcpFds + " taken, attempt " + attempt);
                    }
                    return;
                }
            }
        }

        static Set<Integer> openFds() throws IOException {
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
                return fds.map(f -> Integer.valueOf(f.getFileName().toString()))
                          .collect(Collectors.toCollection(TreeSet::new));
            }
        }

        // A selector whose keys are all TCP waits in epoll, at JDK 25's
        // cost, though a rules file is in use; a switched channel's key
        // makes it wait in rpoll (poll) until that key is cancelled.
        static void tcpKeysInEpoll() throws Exception {
            if (!RdmaTestLib.X86_64)
                return;     // the system call numbers are x86-64's
            try (Selector sel = Selector.open();
                 ServerSocketChannel tcpL = ServerSocketChannel.open()
                         .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 ServerSocketChannel rdmaL = ServerSocketChannel.open().bind(server(0))) {
                assertTrue(isRdma(rdmaL) && !isRdma(tcpL), "listener kinds");
                tcpL.configureBlocking(false);
                rdmaL.configureBlocking(false);
                tcpL.register(sel, SelectionKey.OP_ACCEPT);
                AtomicReference<Throwable> failed = new AtomicReference<>();
                String name = "tcp-epoll-sel";   // /proc shows 15 characters
                Thread selecting = new Thread(() -> {
                    try {
                        while (sel.isOpen()) {
                            sel.select();
                            sel.selectedKeys().clear();
                        }
                    } catch (ClosedSelectorException e) {
                        // closed between isOpen and select: done
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                }, name);
                selecting.start();
                try {
                    RdmaTestLib.awaitBlockedIn(name, RdmaTestLib.EPOLL_CALLS);
                    SelectionKey rk = rdmaL.register(sel, SelectionKey.OP_ACCEPT);
                    sel.wakeup();
                    RdmaTestLib.awaitBlockedIn(name, RdmaTestLib.POLL_CALLS);
                    rk.cancel();
                    sel.wakeup();
                    RdmaTestLib.awaitBlockedIn(name, RdmaTestLib.EPOLL_CALLS);
                } finally {
                    sel.close();
                    selecting.join(5000);
                }
                assertFalse(selecting.isAlive(), "selecting thread still running after close");
                assertNull(failed.get(), "select failed: " + failed.get());
            }
        }

        // A channel registered with a selector before it is bound or
        // connected is switched too, as Netty needs (it registers every
        // channel first): a listener registered with no interest, and a
        // client whose key is already in the selector's poll array with
        // its TCP descriptor and keeps the same interest across the switch,
        // so the selector sees the new descriptor only through the key's
        // reset.
        static void registeredBeforeSwitch() throws Exception {
            try (Selector sel = Selector.open();
                 ServerSocketChannel ssc = ServerSocketChannel.open();
                 SocketChannel sc = SocketChannel.open()) {
                ssc.configureBlocking(false);
                SelectionKey sk = ssc.register(sel, 0);
                sc.configureBlocking(false);
                SelectionKey ck = sc.register(sel, SelectionKey.OP_CONNECT);
                sel.selectNow();
                sel.selectedKeys().clear();

                ssc.bind(server(0));
                assertTrue(isRdma(ssc), "listener registered before bind");
                sk.interestOps(SelectionKey.OP_ACCEPT);
                boolean connected = sc.connect(ssc.getLocalAddress());
                assertTrue(isRdma(sc), "client registered before connect");

                SocketChannel peer = null;
                long deadline = System.nanoTime() + 20_000_000_000L;
                while ((peer == null || !connected) && System.nanoTime() < deadline) {
                    sel.select(1000);
                    for (SelectionKey k : sel.selectedKeys()) {
                        if (k == sk && k.isAcceptable() && peer == null) {
                            peer = ssc.accept();
                        } else if (k == ck && k.isConnectable()) {
                            connected = sc.finishConnect();
                        }
                    }
                    sel.selectedKeys().clear();
                }
                assertNotNull(peer, "accepted through the selector");
                assertTrue(connected, "connect finished through the selector");
                try (SocketChannel p = peer) {
                    assertTrue(isRdma(p), "accepted channel");
                    ck.interestOps(SelectionKey.OP_READ);
                    byte[] msg = RdmaTestLib.message(2000, 7);
                    p.configureBlocking(true);
                    RdmaTestLib.writeFully(p, ByteBuffer.wrap(msg));
                    ByteBuffer in = ByteBuffer.allocate(msg.length);
                    while (in.hasRemaining() && System.nanoTime() < deadline) {
                        if (sel.select(1000) > 0 && ck.isReadable())
                            assertTrue(sc.read(in) >= 0, "EOF");
                        sel.selectedKeys().clear();
                    }
                    assertTrue(Arrays.equals(msg, in.array()), "bytes read through the selector");
                }
            }
        }

        // A virtual thread blocks in read on a switched channel until the
        // peer writes.
        static void virtualThread() throws Exception {
            try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(server(0))) {
                AtomicReference<Object> result = new AtomicReference<>();
                SocketChannel[] client = new SocketChannel[1];
                Thread vt = Thread.ofVirtual().start(() -> {
                    try {
                        SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                        client[0] = sc;
                        result.set(RdmaTestLib.readFully(sc, 5000));
                    } catch (Throwable e) {
                        result.set(e);
                    }
                });
                try (SocketChannel peer = ssc.accept()) {
                    RdmaTestLib.awaitWaiting(vt);
                    byte[] msg = RdmaTestLib.message(5000, 8);
                    RdmaTestLib.writeFully(peer, ByteBuffer.wrap(msg));
                    vt.join();
                    if (result.get() instanceof Throwable t)
                        throw new AssertionError("virtual thread", t);
                    assertTrue(isRdma(client[0]), "virtual thread's channel");
                    ByteBuffer got = (ByteBuffer) result.get();
                    assertEquals(-1, got.mismatch(ByteBuffer.wrap(msg)), "first byte that differs");
                } finally {
                    if (client[0] != null)
                        client[0].close();
                }
            }
        }

        // The socket adaptor of an ordinary channel connects through the
        // rule too, and its streams carry the bytes.
        static void socketAdaptor() throws Exception {
            try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(server(0));
                 SocketChannel sc = SocketChannel.open()) {
                Socket s = sc.socket();
                s.connect(ssc.getLocalAddress(), 10_000);
                assertTrue(isRdma(sc), "adaptor's channel");
                try (SocketChannel peer = ssc.accept()) {
                    byte[] msg = RdmaTestLib.message(4096, 9);
                    s.getOutputStream().write(msg);
                    ByteBuffer got = RdmaTestLib.readFully(peer, msg.length);
                    assertEquals(-1, got.mismatch(ByteBuffer.wrap(msg)), "first byte that differs");
                }
            }
        }
    }
}
