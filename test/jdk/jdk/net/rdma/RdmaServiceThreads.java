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
 * @summary Every JVM readies librdmacm's service threads for many sockets
 *          when RDMA sockets are first used (RdmaNet.growServiceSets, the
 *          workaround for rdma-core's cm_svc_run bug, fixed in v53.0 and
 *          v44.7).  Six fresh JVMs each open an RDMA socket, report whether
 *          that was done, and then run 1024 more rounds of it on the RDMA
 *          device's address.  A non-blocking rconnect to a local address
 *          can be refused before it returns, and the workaround must then
 *          try that round again: giving up leaves the JVM unprepared, and
 *          it can then hang with a few dozen sockets open (RdmaEcho's
 *          virtual-thread case) or refuse connects past 3 sockets.
 *          Refusals can come back early a thousand times in a row, so past
 *          a budget of them the workaround makes up the rounds with
 *          connections to itself: a child runs that path alone (a budget
 *          of 0).  The
 *          rounds are those of jdk.net.rdma.serviceRounds, and past the room
 *          they make, a connect fails with a SocketException that names
 *          what it asked, what is in use and the value of the property that
 *          would fit, and works again once a connection is closed.  A
 *          listener's backlog (here below the room) holds room that its
 *          accepted sockets use: it takes none from the connections.
 *          The rounds send packets: the RDMA device sends at least 4 while
 *          RdmaNet initializes.  On a
 *          librdmacm with the fix (rdma-guest.sh --librdmacm) none of that
 *          runs: RdmaNet initializes without sending a packet, there is no
 *          room limit, and with the same serviceRounds three times the
 *          connections that the room would hold, and eight listeners, all
 *          work, as do many connections in each fresh JVM.
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @run main/othervm/timeout=300 RdmaServiceThreads
 */

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jdk.net.Sockets;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

public class RdmaServiceThreads {
    static final int JVMS = 6;
    static final int MORE_ROUNDS = 1024;
    static final int CONNECTED_ROUNDS = 32;

    // rounds for the capacity case: room for 4 * 4 sockets
    static final int FEW_ROUNDS = 4;
    static final int BACKLOG = 4;
    static final int ROOM = 4 * FEW_ROUNDS;

    // on a librdmacm with the fix: JVMs, and connections in each
    static final int FIXED_JVMS = 2;
    static final int FIXED_CONNECTIONS = 64;
    static final int LISTENERS = 8;

    // Packets that rxe0 sends while RdmaNet initializes: with the
    // workaround's 128 connection rounds, 20 to 61 in a JVM on 44.0 (13
    // JVMs); without them RdmaNet has nothing to send (0 in 6 JVMs on 56.1).
    static final int QUIET = 4;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            if (!args[0].equals("capacity")) {
                child();
            } else if (hasServiceBug()) {
                capacity();
            } else {
                noCapacity();
            }
            return;
        }
        // the parent's librdmacm is its children's
        boolean bug = hasServiceBug();
        System.out.println("librdmacm " + intField("LIBRARY_VERSION") + (bug ? " has" : " does not have")
                + " the cm_svc_run bug");
        OutputAnalyzer few = ProcessTools.executeTestJava(
                "--add-opens", "jdk.net/jdk.internal.net.rdma=ALL-UNNAMED",
                "-Djdk.net.rdma.serviceRounds=" + FEW_ROUNDS, "RdmaServiceThreads", "capacity");
        System.out.println("capacity: " + few.getStdout().strip().replace('\n', ' '));
        few.shouldHaveExitValue(0);
        few.shouldContain(bug ? "connect after a close: ok" : "no room limit: ok");
        for (int i = 0; i < (bug ? JVMS : FIXED_JVMS); i++) {
            OutputAnalyzer out = ProcessTools.executeTestJava(
                    "--add-opens", "jdk.net/jdk.internal.net.rdma=ALL-UNNAMED",
                    "RdmaServiceThreads", "child");
            System.out.println("JVM " + i + ": " + out.getStdout().strip().replace('\n', ' '));
            out.shouldHaveExitValue(0);
            if (bug) {
                out.shouldContain("at first use: true");
                out.shouldContain(MORE_ROUNDS + " more rounds: true");
                out.shouldContain(CONNECTED_ROUNDS + " rounds by connection: true");
            } else {
                out.shouldContain("at first use: false");
                out.shouldContain(FIXED_CONNECTIONS + " connections and " + LISTENERS
                        + " listeners without the workaround: true");
            }
        }
    }

    /*
     * Whether this JVM's librdmacm has the cm_svc_run bug, by its release
     * (RdmaLibraryVersions checks that release against the library the
     * guest was given).
     */
    static boolean hasServiceBug() throws Exception {
        Class<?> rdmaNet = Class.forName("jdk.internal.net.rdma.RdmaNet");
        Method bug = rdmaNet.getDeclaredMethod("hasServiceBug", int.class);
        bug.setAccessible(true);
        return (Boolean) bug.invoke(null, intField("LIBRARY_VERSION"));
    }

    static int intField(String name) throws Exception {
        return (Integer) RdmaTestLib.rdmaNetField(name);
    }

    /*
     * A packet counter of the RDMA device (rdio.rdma.device), for all
     * processes: the workaround's connection rounds each send a connect
     * request, and nothing else of the guest sends while a child starts.
     */
    static long sentPackets() throws Exception {
        String dev = System.getProperty("rdio.rdma.device", "rxe0");
        return Long.parseLong(Files.readString(
                Path.of("/sys/class/infiniband", dev, "ports/1/hw_counters/sent_pkts")).strip());
    }

    static void child() throws Exception {
        // what RdmaNet's initialization, the workaround with it, sends
        long before = sentPackets();
        Class<?> rdmaNet = Class.forName("jdk.internal.net.rdma.RdmaNet");
        long sent = sentPackets() - before;
        System.out.println("packets sent while RdmaNet initialized: " + sent);
        boolean bug = hasServiceBug();
        if (bug) {
            if (sent < QUIET)
                throw new AssertionError("the workaround's 128 connection rounds sent " + sent + " packets");
        } else if (sent >= QUIET) {
            throw new AssertionError("RdmaNet's initialization sent " + sent
                    + " packets on a librdmacm without the bug: workaround rounds ran");
        }
        try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            Field grown = rdmaNet.getDeclaredField("SERVICE_SETS_GROWN");
            grown.setAccessible(true);
            System.out.println("at first use: " + grown.getBoolean(null));
            if (!bug) {
                if (grown.getBoolean(null) || intField("SERVICE_CAPACITY") != Integer.MAX_VALUE)
                    throw new AssertionError("the workaround ran on a librdmacm without the bug");
                manySockets();
                return;
            }
            if (!grown.getBoolean(null))
                return;
            Field capacity = rdmaNet.getDeclaredField("SERVICE_CAPACITY");
            capacity.setAccessible(true);
            if (capacity.getInt(null) != 4 * 128)
                throw new AssertionError("room for " + capacity.getInt(null) + " sockets, not 4 * 128");
        }
        Method grow = rdmaNet.getDeclaredMethod("growServiceSets0",
                byte[].class, int.class, int.class, int.class);
        grow.setAccessible(true);
        Object more = grow.invoke(null, RdmaTestLib.SERVER.getAddress(), MORE_ROUNDS, MORE_ROUNDS,
                4 * MORE_ROUNDS + 64);
        System.out.println(MORE_ROUNDS + " more rounds: " + more);
        Object connected = grow.invoke(null, RdmaTestLib.SERVER.getAddress(), CONNECTED_ROUNDS, 1, 0);
        System.out.println(CONNECTED_ROUNDS + " rounds by connection: " + connected);
    }

    /*
     * On a librdmacm with the fix, without the workaround: many connections
     * open at once, and several listeners, each echoing.  Before the fix,
     * a service thread that was never readied polled freed memory from the
     * fourth socket on.
     */
    static void manySockets() throws Exception {
        List<SocketChannel> open = new ArrayList<>();
        List<ServerSocketChannel> listeners = new ArrayList<>();
        try {
            try (ServerSocketChannel ssc = RdmaTestLib.smallServer()) {
                List<SocketChannel> accepted = new ArrayList<>();
                try {
                    RdmaTestLib.connectSmall(ssc, FIXED_CONNECTIONS, open, accepted);
                    for (int i = 0; i < FIXED_CONNECTIONS; i++)
                        RdmaTestLib.echo(open.get(i), accepted.get(i), 64, i);
                } finally {
                    open.addAll(accepted);
                }
            }
            for (int i = 0; i < LISTENERS; i++) {
                ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                listeners.add(ssc);
                ssc.bind(RdmaTestLib.anyPort());
            }
            for (int i = 0; i < LISTENERS; i++) {
                SocketChannel c = Sockets.openRdmaSocketChannel();
                open.add(c);
                c.connect(listeners.get(i).getLocalAddress());
                SocketChannel a = listeners.get(i).accept();
                open.add(a);
                RdmaTestLib.echo(c, a, 64, FIXED_CONNECTIONS + i);
            }
            System.out.println(FIXED_CONNECTIONS + " connections and " + LISTENERS
                    + " listeners without the workaround: true");
        } finally {
            for (SocketChannel c : open)
                c.close();
            for (ServerSocketChannel ssc : listeners)
                ssc.close();
        }
    }

    /*
     * On a librdmacm with the fix, the same serviceRounds leave no room
     * limit: three times the connections that the room of 16 would hold,
     * through a listener with a backlog of 4, all connect and echo, and a
     * close and a connect after it work as ever.
     */
    static void noCapacity() throws Exception {
        for (String name : List.of("SERVICE_CAPACITY", "LISTEN_CAPACITY")) {
            if (intField(name) != Integer.MAX_VALUE)
                throw new AssertionError(name + " " + intField(name) + " on a librdmacm without the bug");
        }
        System.out.println("librdmacm " + intField("LIBRARY_VERSION") + ", no room limit with serviceRounds "
                + FEW_ROUNDS);
        List<SocketChannel> open = new ArrayList<>();
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort(), BACKLOG);
            int pairs = 3 * ROOM / 2;
            for (int i = 0; i < pairs; i++) {
                SocketChannel c = Sockets.openRdmaSocketChannel();
                open.add(c);
                c.connect(ssc.getLocalAddress());
                SocketChannel a = ssc.accept();
                open.add(a);
                RdmaTestLib.echo(c, a, 64, i);
            }
            System.out.println(pairs + " connections (" + 2 * pairs + " sockets) echoed, past a room of " + ROOM);
            open.remove(0).close();
            open.remove(0).close();
            try (SocketChannel c = Sockets.openRdmaSocketChannel()) {
                c.connect(ssc.getLocalAddress());
                ssc.accept().close();
            }
            System.out.println("no room limit: ok");
        } finally {
            for (SocketChannel c : open)
                c.close();
        }
    }

    /*
     * With room for 16 sockets, and a listener with a backlog of 4 that
     * holds room for 4 of them, which its accepted sockets use: eight
     * connections (sixteen sockets) fit, and the ninth connect is refused,
     * naming what it asked, what is in use and the rounds that would fit
     * (5), until one is closed.
     */
    static void capacity() throws Exception {
        Class<?> rdmaNet = Class.forName("jdk.internal.net.rdma.RdmaNet");
        Field capacity = rdmaNet.getDeclaredField("SERVICE_CAPACITY");
        capacity.setAccessible(true);
        Field version = rdmaNet.getDeclaredField("LIBRARY_VERSION");
        version.setAccessible(true);
        System.out.println("librdmacm " + version.getInt(null));
        if (capacity.getInt(null) != ROOM)
            throw new AssertionError("room for " + capacity.getInt(null) + " sockets, not " + ROOM);
        List<SocketChannel> open = new ArrayList<>();
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort(), BACKLOG);
            int pairs = ROOM / 2;
            for (int i = 0; i < pairs; i++) {
                SocketChannel c = Sockets.openRdmaSocketChannel();
                open.add(c);
                c.connect(ssc.getLocalAddress());
                open.add(ssc.accept());
            }
            try (SocketChannel c = Sockets.openRdmaSocketChannel()) {
                c.connect(ssc.getLocalAddress());
                throw new AssertionError("connect " + (pairs + 1) + " past the room for " + ROOM
                        + " sockets succeeded");
            } catch (SocketException e) {
                String m = e.getMessage();
                System.out.println("refused: " + m);
                for (String part : List.of("RDMA connect needs room for 1 more socket",
                                           ROOM + " of " + ROOM + " are in use (" + ROOM
                                           + " connected, connecting or accepted RDMA sockets, 0 held",
                                           "-Djdk.net.rdma.serviceRounds=" + (FEW_ROUNDS + 1) + " (now "
                                           + FEW_ROUNDS + ") would fit")) {
                    if (!m.contains(part))
                        throw new AssertionError("the message does not say \"" + part + "\": " + m);
                }
            }
            // a close gives the room back
            open.remove(0).close();
            open.remove(0).close();
            try (SocketChannel c = Sockets.openRdmaSocketChannel()) {
                c.connect(ssc.getLocalAddress());
                ssc.accept().close();
            }
            System.out.println("connect after a close: ok");
        } finally {
            for (SocketChannel c : open)
                c.close();
        }
    }
}
