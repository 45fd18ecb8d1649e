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
 * @summary An unchanged framework from Maven Central over transparent RDMA:
 *          Netty's echo example server (netty-example's EchoServer, run from
 *          its jar) and a client written with Netty's API on its NIO
 *          transport (netty/NettyEchoClient.java) run as two JVMs with a
 *          rules file that makes the server's listener and the client's
 *          connections RDMA sockets.  Every echoed byte is checked; that the
 *          traffic went over RDMA is shown by both JVMs' listings of their
 *          switched sockets and by the packet counters of the RDMA device.
 *          The Netty jars come from configure (RDIO_NETTY_DIR, set by
 *          make/scripts/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaNetty
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.Utils;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaNetty {
    static final int PORT = 18007;
    static final int CONNECTIONS = 4, REQUESTS = 250, SIZE = 1024;
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
        assertTrue(classPath.contains("netty-example-"), "netty-example in " + dir);

        String server = RdmaTestLib.SERVER.getHostAddress();
        Path conf = Path.of("netty.conf").toAbsolutePath();
        Files.writeString(conf, "bind * " + PORT + "\nconnect " + server + " " + PORT + "\n");
        Path serverLog = Path.of("server-rdma.log").toAbsolutePath();
        Path clientLog = Path.of("client-rdma.log").toAbsolutePath();
        Path serverOut = Path.of("server.out").toAbsolutePath();
        String java = JDKToolFinder.getJDKTool("java");

        long sentBefore = counter("sent_pkts"), rcvdBefore = counter("rcvd_pkts");
        Process echoServer = new ProcessBuilder(java, "-cp", classPath,
                "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + serverLog,
                "-Dport=" + PORT, "io.netty.example.echo.EchoServer")
                .redirectErrorStream(true).redirectOutput(serverOut.toFile()).start();
        try {
            // Netty's LoggingHandler says ACTIVE once the listener is bound
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(60_000));
            while (!(Files.exists(serverOut) && Files.readString(serverOut).contains("] ACTIVE"))) {
                assertTrue(echoServer.isAlive(), "EchoServer exited: " + Files.readString(serverOut));
                assertTrue(System.nanoTime() < deadline, "EchoServer did not start listening: "
                        + Files.readString(serverOut));
                Thread.sleep(100);
            }

            Path client = Path.of(System.getProperty("test.src"), "netty", "NettyEchoClient.java");
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
        System.out.println("--- EchoServer\n" + Files.readString(serverOut));

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
