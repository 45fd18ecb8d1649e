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

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/**
 * An unchanged framework from Maven Central over transparent RDMA, as two
 * JVMs: a server and a client, each with the framework's jars on its class
 * path and a rules file that makes the server's listener on the port and
 * the client's connections to it RDMA sockets, and each writing a listing
 * of the sockets it switched. The listings and the packet counters of rxe0,
 * read before the server starts and after the client ends, show that the
 * traffic went over RDMA. Shared by RdmaNetty, RdmaNettyBacklog and
 * RdmaHelidon; the server is stopped by close.
 */
public final class FrameworkRun implements AutoCloseable {
    /** The room of librdmacm 44.0's workaround with the default jdk.net.rdma.serviceRounds. */
    public static final int ROOM = 512;
    static final Path COUNTERS = Path.of("/sys/class/infiniband/rxe0/ports/1/hw_counters");

    /** The address the client connects to: the RDMA device's. */
    public final String server = RdmaTestLib.SERVER.getHostAddress();
    private final int port;
    private final String classPath;
    private final String java = JDKToolFinder.getJDKTool("java");
    private final Path conf = Path.of("rdma.conf").toAbsolutePath();
    private final Path serverLog = Path.of("server-rdma.log").toAbsolutePath();
    private final Path clientLog = Path.of("client-rdma.log").toAbsolutePath();
    private final Path serverOut = Path.of("server.out").toAbsolutePath();
    private Process serverProcess;
    private long sentBefore, rcvdBefore;

    /**
     * A run on port with the jars of the directory that the environment
     * variable jarsVariable names (what says what they are), which must
     * hold a jar whose name contains jar.
     */
    public FrameworkRun(String jarsVariable, String what, String jar, int port) throws IOException {
        classPath = classPath(jarsVariable, what, jar);
        this.port = port;
        Files.writeString(conf, "bind * " + port + "\nconnect " + server + " " + port + "\n");
    }

    /**
     * The class path of the jars of the directory that the environment
     * variable jarsVariable names (what says what they are), which must
     * hold a jar whose name contains jar.
     */
    public static String classPath(String jarsVariable, String what, String jar) throws IOException {
        String dir = System.getenv(jarsVariable);
        assertNotNull(dir, jarsVariable + ", " + what + " (configure fetches them;"
                + " test/infra/rdma-guest/rdma-guest.sh passes them on)");
        String classPath;
        try (Stream<Path> jars = Files.list(Path.of(dir))) {
            classPath = jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString)
                    .sorted().collect(Collectors.joining(File.pathSeparator));
        }
        assertTrue(classPath.contains(jar), jar + " in " + dir);
        return classPath;
    }

    /** A file of the test's sources, such as netty/NettyEchoClient.java. */
    public static String source(String file) {
        return Path.of(System.getProperty("test.src"), file).toString();
    }

    /**
     * Starts the server, java with args after the class path and the RDMA
     * properties, and waits at most seconds (scaled by the timeout factor)
     * until its output shows ready; returns its output so far.
     */
    public String startServer(String ready, int seconds, String... args) throws Exception {
        sentBefore = counter("sent_pkts");
        rcvdBefore = counter("rcvd_pkts");
        serverProcess = new ProcessBuilder(command(serverLog, args))
                .redirectErrorStream(true).redirectOutput(serverOut.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(seconds * 1000L));
        while (!(Files.exists(serverOut) && Files.readString(serverOut).contains(ready))) {
            assertTrue(serverProcess.isAlive(), "the server exited: " + Files.readString(serverOut));
            assertTrue(System.nanoTime() < deadline, "the server did not start listening: "
                    + Files.readString(serverOut));
            Thread.sleep(100);
        }
        return Files.readString(serverOut);
    }

    /**
     * Starts the server from source, a file of the test's sources run with
     * the port as its argument, which prints "listening on port PORT with
     * backlog N" once it listens; waits for it as startServer does and
     * returns N.
     */
    public int startListening(String source, int seconds) throws Exception {
        String started = startServer("listening on port", seconds, source(source), "" + port);
        Matcher m = Pattern.compile("listening on port " + port + " with backlog (\\d+)").matcher(started);
        assertTrue(m.find(), "the server's backlog in: " + started);
        return Integer.parseInt(m.group(1));
    }

    /** Runs the client, java with args after the class path and the RDMA properties, which must exit 0. */
    public OutputAnalyzer runClient(String... args) throws Exception {
        OutputAnalyzer out = ProcessTools.executeProcess(command(clientLog, args));
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        return out;
    }

    private String[] command(Path listing, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", classPath,
                "-Djdk.net.rdma.conf=" + conf, "-Djdk.net.rdma.debug=" + listing));
        cmd.addAll(List.of(args));
        return cmd.toArray(String[]::new);
    }

    /** Stops the server and prints its output. */
    @Override
    public void close() throws IOException {
        if (serverProcess == null)
            return;
        serverProcess.destroy();
        try {
            // SIGTERM lets the server's shutdown hooks run; one that hangs is killed
            if (!serverProcess.waitFor(Utils.adjustTimeout(60_000), TimeUnit.MILLISECONDS))
                serverProcess.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            serverProcess.destroyForcibly();
            throw new InterruptedIOException("interrupted while the server exits");
        }
        System.out.println("--- server\n" + Files.readString(serverOut));
    }

    /**
     * Checks that the server's listener is an RDMA socket in its listing,
     * and returns the number of the client's connections to it that are.
     */
    public long checkListings() throws IOException {
        String s = Files.readString(serverLog), c = Files.readString(clientLog);
        System.out.println("--- server listing\n" + s + "--- client listing\n" + c);
        assertTrue(s.contains("rdma: bind to 0.0.0.0 port " + port + " (line 1: bind * " + port + "): RDMA socket"),
                   "the server's listener in its listing");
        return c.lines().filter(l -> l.startsWith("rdma: connect to " + server + " port " + port
                + " (line 2: connect " + server + " " + port + "): RDMA socket")).count();
    }

    /**
     * Checks that rxe0 sent and received at least packets packets since the
     * server started (it carries both ends, so it counts every packet twice:
     * once sent, once received).
     */
    public void checkPackets(long packets, String what) throws IOException {
        long sent = counter("sent_pkts") - sentBefore, rcvd = counter("rcvd_pkts") - rcvdBefore;
        System.out.println("rxe0: " + sent + " packets sent, " + rcvd + " received");
        assertTrue(sent >= packets, sent + " packets sent by rxe0 for " + what);
        assertTrue(rcvd >= packets, rcvd + " packets received by rxe0 for " + what);
    }

    static long counter(String name) throws IOException {
        return Long.parseLong(Files.readString(COUNTERS.resolve(name)).strip());
    }
}
