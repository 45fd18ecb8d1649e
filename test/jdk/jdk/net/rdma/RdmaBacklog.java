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
 * @summary A listen backlog is a hint on RDMA sockets too (issue 41): on a
 *          librdmacm with the cm_svc_run bug, whose workaround leaves room
 *          for 4 * jdk.net.rdma.serviceRounds sockets, a listener holds the
 *          smaller of its backlog and half the room left, and no listen is
 *          refused for its backlog.  In a JVM with the default room (512)
 *          and one with room for 16, with a rules file that switches them
 *          at bind: a ServerSocketChannel with backlog 4096, a ServerSocket
 *          with backlog 1024, and a ServerSocket and a ServerSocketChannel
 *          with the default backlog all listen, holding half the room left
 *          each at most.  Connects fit the room they leave (each echoing
 *          its own bytes, compared), the next connect fails with a
 *          SocketException that names what it asked, what is in use and the
 *          serviceRounds that would fit, and a connection from another JVM
 *          to a listener that listened with no room left, so holds none, is
 *          closed by accept, which says why.  Once the others are closed,
 *          connections to that listener fit the room; the next connect
 *          fails; a close gives the room back.  A listener's accepted sockets use the room it holds: with
 *          a backlog of half the room, half the room in connections fit.
 *          On a librdmacm with the fix (rdma-guest.sh --librdmacm) there is
 *          no room: the same listeners listen, the connect and the other
 *          JVM's connection work, and one connection more than the room of
 *          the bug's workaround would hold, to each listener, echoes.
 *          The fills of the room (after the listeners close, to the
 *          listener with a backlog of half the room, and past the room
 *          on a librdmacm with the fix) run in a JVM whose room is at most
 *          -Drdio.rdma.backlogFillRoom (16, so in the JVM with room for 16
 *          only; 512, the default room's JVM too, in the extended run).
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @run main/othervm/timeout=900 RdmaBacklog
 */

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jdk.net.Sockets;
import jdk.test.lib.Utils;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaBacklog {
    // the listeners' ports, which the rules file switches to RDMA at bind
    static final int PORT = 18320, PORTS = 6;
    static final int TIMEOUT_MILLIS = (int) Utils.adjustTimeout(60_000);
    static final int MESSAGE = 256;
    static final String DEFAULT_ROUNDS = "128";
    // the fills count the room as at any size: room for 16 proves them, the default room's 512 is the extended run's
    static final int FILL_ROOM = Integer.getInteger("rdio.rdma.backlogFillRoom", 16);
    static final String FILLS_LEFT_OUT = "room fills left out";

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            child(Path.of(args[1]));
            return;
        }
        if (args.length > 0 && args[0].equals("client")) {
            client(new InetSocketAddress(RdmaTestLib.SERVER, Integer.parseInt(args[1])));
            return;
        }
        Path conf = Path.of("backlog.conf").toAbsolutePath();
        Files.writeString(conf, "bind * " + PORT + "-" + (PORT + PORTS - 1) + "\n");
        assertGreaterThanOrEqual(FILL_ROOM, 16, "rdio.rdma.backlogFillRoom, below which no JVM fills its room");
        // the default room, then room for 16
        for (String rounds : List.of("", "4")) {
            boolean fills = 4 * Integer.parseInt(rounds.isEmpty() ? DEFAULT_ROUNDS : rounds) <= FILL_ROOM;
            Path listing = Path.of("backlog-rdma" + rounds + ".log").toAbsolutePath();
            List<String> opts = new ArrayList<>(List.of(
                    "--add-opens", "jdk.net/jdk.internal.net.rdma=ALL-UNNAMED",
                    "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + listing,
                    "-Drdio.rdma.backlogFillRoom=" + FILL_ROOM));
            if (!rounds.isEmpty())
                opts.add("-Djdk.net.rdma.serviceRounds=" + rounds);
            opts.addAll(List.of("RdmaBacklog", "child", listing.toString()));
            OutputAnalyzer out = ProcessTools.executeTestJava(opts.toArray(String[]::new));
            out.outputTo(System.out);
            out.errorTo(System.out);
            out.shouldHaveExitValue(0);
            out.shouldContain("all four listen");
            if (out.getStdout().contains("no room limit")) {
                out.shouldContain("connect while the first listener is open: echoed");
                out.shouldContain("accept took a connection from another JVM");
                out.shouldContain("the listeners with the default backlog accept: echoed");
                if (fills) {
                    out.shouldContain("connections past the room echoed");
                    out.shouldContain("a listener's accepted sockets past the room: echoed");
                }
            } else {
                out.shouldContain("connects beside the listeners' room: echoed");
                if (rounds.isEmpty())
                    out.shouldContain("the listeners with the default backlog accept: echoed");
                out.shouldContain("connect refused while the room is held");
                out.shouldContain("accept closed a connection beyond the room");
                if (fills) {
                    out.shouldContain("connect refused past the room");
                    out.shouldContain("connect after a close: echoed");
                    out.shouldContain("accepted sockets use their listener's room");
                }
            }
            if (fills)
                out.shouldNotContain(FILLS_LEFT_OUT);
            else
                out.shouldContain(FILLS_LEFT_OUT);
        }
    }

    static void child(Path listing) throws Exception {
        Class<?> rdmaNet = Class.forName("jdk.internal.net.rdma.RdmaNet");
        Field f = rdmaNet.getDeclaredField("SERVICE_CAPACITY");
        f.setAccessible(true);
        int room = f.getInt(null);
        f = rdmaNet.getDeclaredField("LIBRARY_VERSION");
        f.setAccessible(true);
        int version = f.getInt(null);
        Method serviceBug = rdmaNet.getDeclaredMethod("hasServiceBug", int.class);
        serviceBug.setAccessible(true);
        String rounds = System.getProperty("jdk.net.rdma.serviceRounds", DEFAULT_ROUNDS);
        if (!(Boolean) serviceBug.invoke(null, version)) {
            // the fix: no room, and what the room would refuse works
            assertEquals(Integer.MAX_VALUE, room, "the room on librdmacm " + version + ", which has the fix");
            System.out.println("librdmacm " + version + ", no room limit");
            unlimited(listing, 4 * Integer.parseInt(rounds));
            return;
        }
        System.out.println("librdmacm " + version + ", room for " + room + " sockets");
        assertEquals(4 * Integer.parseInt(rounds), room, "the room of " + rounds + " rounds");

        InetAddress server = RdmaTestLib.SERVER;
        List<AutoCloseable> open = new ArrayList<>();
        try {
            // Four listeners, opened the ordinary way; the rules file makes
            // them RDMA sockets.  Each holds the smaller of its backlog and
            // half the room left when it listens.
            Listeners l = listen(server, listing, open);
            ServerSocketChannel big = l.big();
            ServerSocket ss1024 = l.ss1024(), ssDefault = l.ssDefault();
            ServerSocketChannel sscDefault = l.sscDefault();
            int left = room, held = 0;
            for (int backlog : new int[] { 4096, 1024, 50, 50 }) {
                int hold = Math.min(backlog, (left + 1) / 2);
                held += hold;
                left -= hold;
            }
            System.out.println("all four listen: backlogs 4096, 1024, 50 and 0 (50), holding " + held
                    + " of the room of " + room);

            // The room left takes that many connects; the sockets the
            // listeners accept use the room they hold.  Then a connect is
            // refused, naming what is in use.
            List<Socket[]> pairs = new ArrayList<>();
            ServerSocket[] to = { ss1024, ssDefault, sscDefault.socket() };
            ServerSocket none = new ServerSocket();
            open.add(none);
            try {
                for (int i = 0; i < left; i++)
                    pairs.add(connect(to[i % to.length], i));
                System.out.println(left + " connects beside the listeners' room: echoed");
                if (left >= to.length)
                    System.out.println("the listeners with the default backlog accept: echoed");
                refused(ss1024, 1, room, 2 * left, held - left);
                System.out.println("connect refused while the room is held");

                // A listener that listens with no room left holds none.  A
                // connection from another JVM to it is taken by librdmacm;
                // accept closes it and says why, and the peer reads EOF.
                none.bind(new InetSocketAddress(server, PORT + 4), 1024);
                none.setSoTimeout(TIMEOUT_MILLIS);
                Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), "RdmaBacklog", "client", "" + (PORT + 4))
                        .redirectErrorStream(true).start();
                try {
                    none.accept().close();
                    fail("accept returned a connection beyond the room");
                } catch (SocketException e) {
                    System.out.println("accept: " + e.getMessage());
                    assertTrue(e.getMessage().contains("RDMA accept needs room for 1 more socket, and " + room
                            + " of " + room + " are in use"), "what accept asked and what is in use: " + e.getMessage());
                    assertTrue(e.getMessage().contains("the connection was closed"), e.getMessage());
                }
                assertTrue(peer.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "the peer JVM did not end");
                String peerOut = new String(peer.getInputStream().readAllBytes());
                System.out.println("peer: " + peerOut.strip());
                assertEquals(0, peer.exitValue(), "the peer's exit status; its output: " + peerOut);
                assertTrue(peerOut.contains("client: EOF"), "the peer read EOF: " + peerOut);
                System.out.println("accept closed a connection beyond the room");
            } finally {
                close(pairs);
            }
            if (room > FILL_ROOM) {
                System.out.println(FILLS_LEFT_OUT + ": room " + room + ", above rdio.rdma.backlogFillRoom "
                        + FILL_ROOM);
                return;
            }

            // Closing the other listeners gives their room back: connections
            // to the one that holds none fit the room, two sockets each.
            for (AutoCloseable c : List.of(big, ss1024, ssDefault, sscDefault))
                c.close();
            pairs = new ArrayList<>();
            try {
                for (int i = 0; i < room / 2; i++)
                    pairs.add(connect(none, i));
                System.out.println(pairs.size() + " connections echoed");
                refused(none, 1, room, room, 0);
                System.out.println("connect refused past the room");
                for (Socket s : pairs.remove(0))
                    s.close();
                pairs.add(connect(none, room));
                System.out.println("connect after a close: echoed");
            } finally {
                close(pairs);
            }
            none.close();

            // A listener's accepted sockets use the room it holds: with a
            // backlog of half the room, connections of half the room fit
            // (the other half of the room holds their client ends).
            try (ServerSocketChannel half = ServerSocketChannel.open()) {
                half.bind(new InetSocketAddress(server, PORT + 5), room / 2);
                pairs = new ArrayList<>();
                try {
                    for (int i = 0; i < room / 2; i++)
                        pairs.add(connect(half.socket(), room + 3 + i));
                    refused(half.socket(), 1, room, room, 0);
                } finally {
                    close(pairs);
                }
            }
            System.out.println("accepted sockets use their listener's room: " + room / 2 + " connections");
        } finally {
            for (AutoCloseable c : open)
                c.close();
        }
    }

    /*
     * The child on a librdmacm with the fix of cm_svc_run, where no room is
     * counted: the four listeners listen as they do with the bug; while the
     * first (backlog 4096) is open, a connect to the second and a
     * connection from another JVM work; and past what the bug's room (room:
     * that of the same serviceRounds) would hold, connections to a
     * listener that held none, and to one with a backlog of half the room,
     * echo.
     */
    static void unlimited(Path listing, int room) throws Exception {
        InetAddress server = RdmaTestLib.SERVER;
        List<AutoCloseable> open = new ArrayList<>();
        List<Socket[]> pairs = new ArrayList<>();
        try {
            Listeners l = listen(server, listing, open);
            ServerSocketChannel big = l.big();
            ServerSocket ss1024 = l.ss1024(), ssDefault = l.ssDefault();
            ServerSocketChannel sscDefault = l.sscDefault();
            System.out.println("all four listen: backlogs 4096, 1024, 50 and 0 (50)");

            pairs.add(connect(ss1024, 0));
            System.out.println("connect while the first listener is open: echoed");

            // another JVM's connection is accepted, and reads what is sent
            ss1024.setSoTimeout(TIMEOUT_MILLIS);
            Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "RdmaBacklog", "client", "" + (PORT + 1))
                    .redirectErrorStream(true).start();
            try (Socket a = ss1024.accept()) {
                a.getOutputStream().write(42);
                assertTrue(peer.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "the peer JVM did not end");
            }
            String peerOut = new String(peer.getInputStream().readAllBytes());
            System.out.println("peer: " + peerOut.strip());
            assertEquals(0, peer.exitValue(), "the peer's exit status; its output: " + peerOut);
            assertTrue(peerOut.contains("client: read 42"), "the peer read what accept's socket sent: " + peerOut);
            System.out.println("accept took a connection from another JVM");

            // more connections than the bug's room holds, the first listener still open
            boolean fills = room <= FILL_ROOM;
            if (fills) {
                for (int i = 1; i <= room / 2; i++)
                    pairs.add(connect(ss1024, i));
                System.out.println(pairs.size() + " connections past the room echoed ("
                        + 2 * pairs.size() + " sockets, the room of the bug's workaround " + room + ")");
            }
            pairs.add(connect(ssDefault, room + 1));
            pairs.add(connect(sscDefault.socket(), room + 2));
            System.out.println("the listeners with the default backlog accept: echoed");
            big.close();
            close(pairs);
            pairs.clear();
            if (!fills) {
                System.out.println(FILLS_LEFT_OUT + ": room " + room + ", above rdio.rdma.backlogFillRoom "
                        + FILL_ROOM);
                return;
            }

            // a listener with a backlog of half the room accepts past it
            try (ServerSocketChannel half = ServerSocketChannel.open()) {
                half.bind(new InetSocketAddress(server, PORT + 5), room / 2);
                for (int i = 0; i <= room / 2; i++)
                    pairs.add(connect(half.socket(), room + 3 + i));
            }
            System.out.println("a listener's accepted sockets past the room: echoed, " + (room / 2 + 1)
                    + " connections with a backlog of " + room / 2);
        } finally {
            close(pairs);
            for (AutoCloseable c : open)
                c.close();
        }
    }

    /** Closes both ends of every connection of pairs. */
    static void close(List<Socket[]> pairs) throws IOException {
        for (Socket[] pair : pairs) {
            for (Socket s : pair)
                s.close();
        }
    }

    /*
     * An RDMA connection to ss, accepted, over which MESSAGE bytes of their
     * own (seed) go to the accepted end and back, compared.  [0] the client.
     */
    static Socket[] connect(ServerSocket ss, long seed) throws Exception {
        ss.setSoTimeout(TIMEOUT_MILLIS);
        Socket c = RdmaTestLib.smallClient().socket();
        Socket a = null;
        try {
            c.connect(ss.getLocalSocketAddress(), TIMEOUT_MILLIS);
            c.setSoTimeout(TIMEOUT_MILLIS);
            a = ss.accept();
            a.setSoTimeout(TIMEOUT_MILLIS);
            byte[] sent = RdmaTestLib.message(MESSAGE, seed * 1009);
            c.getOutputStream().write(sent);
            a.getOutputStream().write(readFully(a.getInputStream(), MESSAGE));
            byte[] back = readFully(c.getInputStream(), MESSAGE);
            assertEquals(-1, Arrays.mismatch(sent, back), "the first byte that differs in echo " + seed);
            return new Socket[] { c, a };
        } catch (Throwable e) {
            c.close();
            if (a != null)
                a.close();
            throw e;
        }
    }

    static byte[] readFully(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length != n)
            throw new IOException("EOF after " + b.length + " of " + n + " bytes");
        return b;
    }

    /** The four listeners of both children, from the first port on. */
    record Listeners(ServerSocketChannel big, ServerSocket ss1024, ServerSocket ssDefault,
                     ServerSocketChannel sscDefault) { }

    /*
     * Binds the four listeners, opened the ordinary way, with backlogs
     * 4096, 1024, ServerSocket's default (50) and ServerSocketChannel's (0,
     * that is 50), adding them to open, and checks that the listing shows
     * the rules file made each an RDMA socket.
     */
    static Listeners listen(InetAddress server, Path listing, List<AutoCloseable> open) throws IOException {
        ServerSocketChannel big = ServerSocketChannel.open();
        open.add(big);
        big.bind(new InetSocketAddress(server, PORT), 4096);
        ServerSocket ss1024 = new ServerSocket();
        open.add(ss1024);
        ss1024.bind(new InetSocketAddress(server, PORT + 1), 1024);
        ServerSocket ssDefault = new ServerSocket();
        open.add(ssDefault);
        ssDefault.bind(new InetSocketAddress(server, PORT + 2));
        ServerSocketChannel sscDefault = ServerSocketChannel.open();
        open.add(sscDefault);
        sscDefault.bind(new InetSocketAddress(server, PORT + 3));
        String log = Files.readString(listing);
        for (int p = PORT; p < PORT + 4; p++) {
            String line = "rdma: bind to " + server.getHostAddress() + " port " + p + " (line 1:";
            assertTrue(log.lines().anyMatch(l -> l.startsWith(line) && l.contains("): RDMA socket")),
                       "port " + p + " switched to RDMA in the listing:\n" + log);
        }
        return new Listeners(big, ss1024, ssDefault, sscDefault);
    }

    /*
     * A connect to ss must fail, saying that it needs room for asked more
     * sockets, that used of room are in use, registered of them by sockets,
     * and which jdk.net.rdma.serviceRounds would fit.
     */
    static void refused(ServerSocket ss, int asked, int room, int registered, int held) throws Exception {
        try (Socket c = Sockets.openRdmaSocketChannel().socket()) {
            c.connect(ss.getLocalSocketAddress(), TIMEOUT_MILLIS);
            fail("a connect past the room of " + room + " sockets succeeded");
        } catch (SocketException e) {
            String m = e.getMessage();
            System.out.println("refused: " + m);
            int used = registered + held;
            assertTrue(m.contains("RDMA connect needs room for " + asked + " more socket"), "what was asked: " + m);
            assertTrue(m.contains(used + " of " + room + " are in use (" + registered
                    + " connected, connecting or accepted RDMA sockets, " + held + " held for listen backlogs)"),
                    "what is in use: " + m);
            int fit = (used + asked + 3) / 4;
            assertTrue(4 * fit >= used + asked && 4 * (fit - 1) < used + asked, "rounds " + fit);
            assertTrue(m.contains("-Djdk.net.rdma.serviceRounds=" + fit + " (now " + room / 4 + ") would fit"),
                       "the property value that would fit: " + m);
        }
    }

    /*
     * The peer JVM of the accept case: connects to port and reads, which
     * ends in EOF when the server closes the connection.
     */
    static void client(InetSocketAddress addr) throws Exception {
        try (Socket c = Sockets.openRdmaSocketChannel().socket()) {
            c.connect(addr, TIMEOUT_MILLIS);
            c.setSoTimeout(TIMEOUT_MILLIS);
            int b = c.getInputStream().read();
            System.out.println(b < 0 ? "client: EOF" : "client: read " + b);
        } catch (SocketException e) {
            // a reset is as good a sign of the close
            System.out.println("client: EOF (" + e + ")");
        }
    }
}
