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
 *          smaller of its backlog and the room left, and no listen is
 *          refused for its backlog.  In a JVM with the default room (512)
 *          and one with room for 16, with a rules file that switches them
 *          at bind: a ServerSocketChannel with backlog 4096, a ServerSocket
 *          with backlog 1024, and a ServerSocket and a ServerSocketChannel
 *          with the default backlog all listen.  While the first holds all
 *          the room, a connect in the JVM fails with a SocketException that
 *          names what it asked, what is in use and the serviceRounds that
 *          would fit, and a connection from another JVM to a listener that
 *          holds none is closed by accept, which says why.  Once the first
 *          is closed, connections up to the room work, each echoing its own
 *          bytes, compared; the next connect fails; a close gives the room
 *          back.  A listener's accepted sockets use the room it holds: with
 *          a backlog of half the room, half the room in connections fit.
 *          Runs in the Soft-RoCE guest (make/scripts/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @run main/othervm/timeout=900 RdmaBacklog
 */

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
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
    static final int PORT = 18320, PORTS = 5;
    static final int TIMEOUT_MILLIS = (int) Utils.adjustTimeout(60_000);
    static final int MESSAGE = 256;

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
        // the default room, then room for 16
        for (String rounds : List.of("", "4")) {
            Path listing = Path.of("backlog-rdma" + rounds + ".log").toAbsolutePath();
            List<String> opts = new ArrayList<>(List.of(
                    "--add-opens", "jdk.net/jdk.internal.net.rdma=ALL-UNNAMED",
                    "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + listing));
            if (!rounds.isEmpty())
                opts.add("-Djdk.net.rdma.serviceRounds=" + rounds);
            opts.addAll(List.of("RdmaBacklog", "child", listing.toString()));
            OutputAnalyzer out = ProcessTools.executeTestJava(opts.toArray(String[]::new));
            out.outputTo(System.out);
            out.errorTo(System.out);
            out.shouldHaveExitValue(0);
            out.shouldContain("all four listen");
            out.shouldContain("connect refused while the room is held");
            out.shouldContain("accept closed a connection beyond the room");
            out.shouldContain("connect refused past the room");
            out.shouldContain("connect after a close: echoed");
            out.shouldContain("accepted sockets use their listener's room");
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
        System.out.println("librdmacm " + version + ", room for " + room + " sockets");
        // the guest's librdmacm (44.0) has the bug; a fixed one has no room to test
        assertTrue(room < Integer.MAX_VALUE, "librdmacm " + version + " has no room limit");
        String rounds = System.getProperty("jdk.net.rdma.serviceRounds", "128");
        assertEquals(4 * Integer.parseInt(rounds), room, "the room of " + rounds + " rounds");

        InetAddress server = RdmaTestLib.SERVER;
        List<AutoCloseable> open = new ArrayList<>();
        try {
            // Four listeners, opened the ordinary way; the rules file makes
            // them RDMA sockets.  The first holds all the room, the others none.
            ServerSocketChannel big = ServerSocketChannel.open();
            open.add(big);
            big.bind(new InetSocketAddress(server, PORT), 4096);
            ServerSocket ss1024 = new ServerSocket();
            open.add(ss1024);
            ss1024.bind(new InetSocketAddress(server, PORT + 1), 1024);
            ServerSocket ssDefault = new ServerSocket();
            open.add(ssDefault);
            ssDefault.bind(new InetSocketAddress(server, PORT + 2));        // backlog 50
            ServerSocketChannel sscDefault = ServerSocketChannel.open();
            open.add(sscDefault);
            sscDefault.bind(new InetSocketAddress(server, PORT + 3));       // backlog 0, that is 50
            String log = Files.readString(listing);
            for (int p = PORT; p < PORT + 4; p++) {
                String line = "rdma: bind to " + server.getHostAddress() + " port " + p + " (line 1:";
                assertTrue(log.lines().anyMatch(l -> l.startsWith(line) && l.contains("): RDMA socket")),
                           "port " + p + " switched to RDMA in the listing:\n" + log);
            }
            System.out.println("all four listen: backlogs 4096, 1024, 50 and 0 (50)");

            // The first listener holds the room: a connect here is refused.
            refused(ss1024, 1, room, 0, room);
            System.out.println("connect refused while the room is held");

            // A connection from another JVM to a listener that holds no room
            // is taken by librdmacm; accept closes it and says why, and the
            // peer reads EOF.
            ss1024.setSoTimeout(TIMEOUT_MILLIS);
            Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "RdmaBacklog", "client", "" + (PORT + 1))
                    .redirectErrorStream(true).start();
            try {
                ss1024.accept().close();
                fail("accept returned a connection beyond the room");
            } catch (SocketException e) {
                System.out.println("accept: " + e.getMessage());
                assertTrue(e.getMessage().contains("RDMA accept needs room for 1 more socket, and " + room + " of "
                        + room + " are in use"), "what accept asked and what is in use: " + e.getMessage());
                assertTrue(e.getMessage().contains("the connection was closed"), e.getMessage());
            }
            assertTrue(peer.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), "the peer JVM did not end");
            String peerOut = new String(peer.getInputStream().readAllBytes());
            System.out.println("peer: " + peerOut.strip());
            assertEquals(0, peer.exitValue(), "the peer's exit status; its output: " + peerOut);
            assertTrue(peerOut.contains("client: EOF"), "the peer read EOF: " + peerOut);
            System.out.println("accept closed a connection beyond the room");

            // Closing the first listener gives its room back: connections to
            // a listener that holds none fit the room, two sockets each.
            big.close();
            List<Socket[]> pairs = new ArrayList<>();
            try {
                for (int i = 0; i < room / 2; i++)
                    pairs.add(connect(ss1024, i));
                System.out.println(pairs.size() + " connections echoed");
                refused(ss1024, 1, room, room, 0);
                System.out.println("connect refused past the room");
                for (Socket s : pairs.remove(0))
                    s.close();
                pairs.add(connect(ss1024, room));
                System.out.println("connect after a close: echoed");
                // the listeners that hold no room accept from the room left
                for (Socket s : pairs.remove(0))
                    s.close();
                for (Socket s : pairs.remove(0))
                    s.close();
                pairs.add(connect(ssDefault, room + 1));
                pairs.add(connect(sscDefault.socket(), room + 2));
                System.out.println("the listeners with the default backlog accept: echoed");
            } finally {
                for (Socket[] pair : pairs) {
                    for (Socket s : pair)
                        s.close();
                }
            }

            // A listener's accepted sockets use the room it holds: with a
            // backlog of half the room, connections of half the room fit
            // (the other half of the room holds their client ends).
            try (ServerSocketChannel half = ServerSocketChannel.open()) {
                half.bind(new InetSocketAddress(server, PORT + 4), room / 2);
                pairs = new ArrayList<>();
                try {
                    for (int i = 0; i < room / 2; i++)
                        pairs.add(connect(half.socket(), room + 3 + i));
                    refused(half.socket(), 1, room, room, 0);
                } finally {
                    for (Socket[] pair : pairs) {
                        for (Socket s : pair)
                            s.close();
                    }
                }
            }
            System.out.println("accepted sockets use their listener's room: " + room / 2 + " connections");
        } finally {
            for (AutoCloseable c : open)
                c.close();
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
