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
 * @summary A Netty server with default options over transparent RDMA
 *          (issue 41): a ServerBootstrap that sets no SO_BACKLOG listens
 *          with Netty's default, the kernel's somaxconn (4096 on the
 *          guest's kernel), more than the room of librdmacm 44.0's
 *          workaround (512 sockets); the listen must not be refused for
 *          it.  The server (netty/NettyDefaultEchoServer.java) and a
 *          client written with Netty's API (netty/NettyEchoClient.java)
 *          run as two JVMs with a rules file that makes the server's
 *          listener and the client's connections RDMA sockets.  Every
 *          echoed byte is checked; that the traffic went over RDMA is shown
 *          by both JVMs' listings of their switched sockets and by the
 *          packet counters of the RDMA device.  The Netty jars come from
 *          configure (RDIO_NETTY_DIR, set by make/scripts/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaNettyBacklog
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.Utils;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaNettyBacklog {
    static final int PORT = 18017;
    static final int CONNECTIONS = 4, REQUESTS = 100, SIZE = 1024;
    // the room of librdmacm 44.0's workaround with the default jdk.net.rdma.serviceRounds
    static final int ROOM = 512;
    static final Path COUNTERS = Path.of("/sys/class/infiniband/rxe0/ports/1/hw_counters");

    public static void main(String[] args) throws Exception {
        String dir = System.getenv("RDIO_NETTY_DIR");
        assertNotNull(dir, "RDIO_NETTY_DIR, the Netty jars (configure fetches them;"
                + " make/scripts/rdma-guest.sh passes them on)");
        String classPath;
        try (Stream<Path> jars = Files.list(Path.of(dir))) {
            classPath = jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString)
                    .sorted().collect(Collectors.joining(File.pathSeparator));
        }
        assertTrue(classPath.contains("netty-transport-"), "netty-transport in " + dir);

        String server = RdmaTestLib.SERVER.getHostAddress();
        Path conf = Path.of("netty-backlog.conf").toAbsolutePath();
        Files.writeString(conf, "bind * " + PORT + "\nconnect " + server + " " + PORT + "\n");
        Path serverLog = Path.of("server-rdma.log").toAbsolutePath();
        Path clientLog = Path.of("client-rdma.log").toAbsolutePath();
        Path serverOut = Path.of("server.out").toAbsolutePath();
        String java = JDKToolFinder.getJDKTool("java");
        Path src = Path.of(System.getProperty("test.src"), "netty");

        long sentBefore = counter("sent_pkts"), rcvdBefore = counter("rcvd_pkts");
        Process echoServer = new ProcessBuilder(java, "-cp", classPath,
                "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + serverLog,
                src.resolve("NettyDefaultEchoServer.java").toString(), "" + PORT)
                .redirectErrorStream(true).redirectOutput(serverOut.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(120_000));
            while (!(Files.exists(serverOut) && Files.readString(serverOut).contains("listening on port"))) {
                assertTrue(echoServer.isAlive(), "the server exited: " + Files.readString(serverOut));
                assertTrue(System.nanoTime() < deadline, "the server did not start listening: "
                        + Files.readString(serverOut));
                Thread.sleep(100);
            }
            String started = Files.readString(serverOut);
            Matcher m = Pattern.compile("listening on port " + PORT + " with backlog (\\d+)").matcher(started);
            assertTrue(m.find(), "the server's backlog in: " + started);
            int backlog = Integer.parseInt(m.group(1));
            System.out.println("Netty's default backlog: " + backlog);
            assertGreaterThan(backlog, ROOM, "Netty's default backlog (NetUtil.SOMAXCONN) is above the room,"
                    + " as on the guest's kernel (somaxconn 4096)");

            Path client = src.resolve("NettyEchoClient.java");
            OutputAnalyzer out = ProcessTools.executeProcess(java, "-cp", classPath,
                    "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + clientLog,
                    client.toString(), server, "" + PORT, "" + CONNECTIONS, "" + REQUESTS, "" + SIZE);
            out.outputTo(System.out);
            out.errorTo(System.out);
            out.shouldHaveExitValue(0);
            out.shouldContain("verified " + CONNECTIONS * REQUESTS + " requests of " + SIZE + " bytes");
        } finally {
            echoServer.destroy();
            echoServer.waitFor();
        }
        System.out.println("--- server\n" + Files.readString(serverOut));

        // The server's listener and each of the client's connections became RDMA sockets.
        String s = Files.readString(serverLog), c = Files.readString(clientLog);
        System.out.println("--- server listing\n" + s + "--- client listing\n" + c);
        assertTrue(s.contains("rdma: bind to 0.0.0.0 port " + PORT + " (line 1: bind * " + PORT + "): RDMA socket"),
                   "the server's listener in its listing");
        long switched = c.lines().filter(l -> l.startsWith("rdma: connect to " + server + " port " + PORT
                + " (line 2: connect " + server + " " + PORT + "): RDMA socket")).count();
        assertEquals((long) CONNECTIONS, switched, "the client's connections in its listing");

        // Every message and every echo crossed rxe0: at least one packet
        // each way, counted by the device (both ends share it).
        long sent = counter("sent_pkts") - sentBefore, rcvd = counter("rcvd_pkts") - rcvdBefore;
        System.out.println("rxe0: " + sent + " packets sent, " + rcvd + " received");
        long messages = 2L * CONNECTIONS * REQUESTS;
        assertTrue(sent >= messages, sent + " packets sent by rxe0 for " + messages + " messages");
        assertTrue(rcvd >= messages, rcvd + " packets received by rxe0 for " + messages + " messages");
    }

    static long counter(String name) throws Exception {
        return Long.parseLong(Files.readString(COUNTERS.resolve(name)).strip());
    }
}
