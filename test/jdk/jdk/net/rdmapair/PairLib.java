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

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

/**
 * What the two-guest tests share: guest B's control agent, the peer program
 * PairPeer started in B with the JDK under test, and a checksummed echo.
 * test/infra/rdma-guest/rdma-pair.sh runs them in guest A, with
 * -Drdio.rdma.peer naming B's address and RDIO_RDMA_AGENT_PORT the agent's
 * port (test/infra/rdma-guest/agent: one line, a busybox sh command, per
 * TCP connection; its output, then "rdio-agent-exit: STATUS").
 */
public final class PairLib {
    private PairLib() { }

    /** Guest B, where the peers listen. */
    public static final InetAddress PEER;
    static {
        try {
            PEER = InetAddress.getByName(System.getProperty("rdio.rdma.peer"));
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    static final int AGENT_PORT = Integer.parseInt(System.getenv().getOrDefault("RDIO_RDMA_AGENT_PORT", "5999"));

    /** How long a peer JVM in B may take to listen: a JVM start and a compile under TCG. */
    public static final long PEER_START_MILLIS = Utils.adjustTimeout(60_000);
    /** How long one agent command may take, unless it says otherwise. */
    static final long AGENT_MILLIS = Utils.adjustTimeout(30_000);

    public record Result(int status, String output) { }

    /** Runs COMMAND in B through the agent, within AGENT_MILLIS. */
    public static Result agent(String command) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(PEER, AGENT_PORT), (int) AGENT_MILLIS);
            s.setSoTimeout((int) AGENT_MILLIS);
            OutputStream out = s.getOutputStream();
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            s.shutdownOutput();
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int i = all.lastIndexOf("rdio-agent-exit: ");
            if (i < 0)
                throw new IOException("the agent in B did not finish \"" + command + "\": " + all);
            int status = Integer.parseInt(all.substring(i + "rdio-agent-exit: ".length()).trim());
            return new Result(status, all.substring(0, i));
        }
    }

    /** Runs COMMAND in B and returns its output; fails unless it exits 0. */
    public static String agentOk(String command) throws IOException {
        Result r = agent(command);
        if (r.status() != 0)
            throw new AssertionError("in B, \"" + command + "\" exited " + r.status() + ": " + r.output());
        return r.output();
    }

    /**
     * Sends COMMAND to B's agent without waiting for its end: for a
     * power-off, after which B answers nothing.
     */
    public static void agentFireAndForget(String command) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(PEER, AGENT_PORT), (int) AGENT_MILLIS);
            s.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
        }
    }

    /** rxe's counters of A's device, as rdma(8) prints them. */
    public static String rxeCounters() throws IOException {
        return run("rdma", "stat", "show", "link", "rxe0/1");
    }

    /** rxe's counters of B's device, as rdma(8) prints them. */
    public static String peerRxeCounters() throws IOException {
        return agentOk("host rdma stat show link rxe0/1").strip();
    }

    /** One counter of rdma(8)'s output. */
    public static long counter(String counters, String name) {
        Matcher m = Pattern.compile(" " + name + " (\\d+)").matcher(counters);
        if (!m.find())
            throw new AssertionError("no " + name + " in " + counters);
        return Long.parseLong(m.group(1));
    }

    /** How much one counter grew from rdma(8)'s output THEN to its output NOW. */
    public static long counterDelta(String now, String then, String name) {
        return counter(now, name) - counter(then, name);
    }

    /** The output of a command of guest A, with its errors. */
    public static String run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + String.join(" ", cmd), e);
        }
        return out.strip();
    }

    /** B's log of the peer on PORT. */
    static String peerLog(int port) {
        try {
            return agent("cat /results/peer-" + port + ".log").output();
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * Starts PairPeer MODE on PORT in B, with the JDK under test (as a
     * source file: B cannot see A's compiled classes), in the background;
     * its output goes to B's results share.  Returns its process id in B.
     */
    public static int startPeer(String mode, int port) throws IOException {
        return startPeer(mode, port, "");
    }

    /** As startPeer(mode, port), with JAVA_OPTIONS before the source file. */
    public static int startPeer(String mode, int port, String javaOptions) throws IOException {
        String java = System.getProperty("test.jdk") + "/bin/java";
        String src = System.getProperty("test.src") + "/PairPeer.java";
        String cmd = "spawn /results/peer-" + port + ".log JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1 " + java + " "
                + javaOptions + " " + src + " " + mode + " " + PEER.getHostAddress() + " " + port;
        return Integer.parseInt(agentOk(cmd).trim());
    }

    public static void stopPeer(int pid) throws IOException {
        agent("kill " + pid);
    }

    /**
     * An RDMA channel connected to the peer on PORT, retried while the peer
     * starts (a connect to a port nobody listens on is rejected at once),
     * for at most PEER_START_MILLIS.
     */
    public static SocketChannel connect(int port) throws Exception {
        long deadline = System.nanoTime() + PEER_START_MILLIS * 1_000_000;
        while (true) {
            SocketChannel sc = Sockets.openRdmaSocketChannel();
            try {
                sc.connect(new InetSocketAddress(PEER, port));
                return sc;
            } catch (IOException e) {
                sc.close();
                if (System.nanoTime() > deadline)
                    throw new AssertionError("no peer on " + PEER + ":" + port + " after " + PEER_START_MILLIS
                            + " ms: " + e + "; its log: " + peerLog(port), e);
                Thread.sleep(200);  // a retry interval, not a wait for an event
            }
        }
    }

    /** The byte at offset N of the stream both ends write. */
    static byte pattern(long n) {
        return (byte) (n * 31 + (n >>> 11));
    }

    /**
     * Writes BYTES to SC and reads as many back from the echo at once, in
     * two threads of the kind asked for, comparing each byte read with the
     * one written at its offset and the CRC32 of each direction.  Returns
     * the seconds taken.  Any IOException is rethrown; wrong bytes fail.
     */
    public static double echo(SocketChannel sc, long bytes, boolean virtual) throws Exception {
        return echo(sc, sc, bytes, virtual, new AtomicLong());
    }

    /** As echo(SocketChannel...), counting the bytes read back so far in PROGRESS. */
    public static double echo(SocketChannel sc, long bytes, boolean virtual, AtomicLong progress) throws Exception {
        return echo(sc, sc, bytes, virtual, progress);
    }

    /**
     * As echo(SocketChannel...), through a classic RDMA Socket's streams;
     * the channels of Channels.newChannel only copy.
     */
    public static double echo(Socket s, long bytes, boolean virtual, AtomicLong progress) throws Exception {
        return echo(Channels.newChannel(s.getInputStream()), Channels.newChannel(s.getOutputStream()), bytes, virtual,
                progress);
    }

    private static double echo(ReadableByteChannel in, WritableByteChannel out, long bytes, boolean virtual,
                               AtomicLong progress) throws Exception {
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        CRC32 sent = new CRC32();
        long t0 = System.nanoTime();
        Runnable writer = () -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            long off = 0;
            try {
                while (off < bytes) {
                    buf.clear();
                    int n = (int) Math.min(buf.capacity(), bytes - off);
                    for (int i = 0; i < n; i++) buf.put(pattern(off + i));
                    buf.flip();
                    sent.update(buf.duplicate());
                    while (buf.hasRemaining()) out.write(buf);
                    off += n;
                }
            } catch (Throwable e) {
                writerFailure.set(e);
            }
        };
        Thread w = virtual ? Thread.ofVirtual().start(writer) : Thread.ofPlatform().start(writer);
        CRC32 received = new CRC32();
        inThread(virtual, () -> readPattern(in, bytes, received, progress));
        w.join();
        if (writerFailure.get() != null) {
            if (writerFailure.get() instanceof IOException e) throw e;
            throw new AssertionError("writer failed", writerFailure.get());
        }
        if (sent.getValue() != received.getValue())
            throw new AssertionError("CRC32 sent " + Long.toHexString(sent.getValue()) + ", received "
                    + Long.toHexString(received.getValue()));
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Starts BODY in a new thread NAME of the kind asked for; what it throws goes to OUTCOME. */
    public static Thread start(String name, boolean virtual, Utils.ThrowingRunnable body,
                               AtomicReference<Throwable> outcome) {
        Runnable r = () -> {
            try {
                body.run();
            } catch (Throwable e) {
                outcome.set(e);
            }
        };
        return (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).name(name).start(r);
    }

    /** Runs BODY in a new thread of the kind asked for, and rethrows what it threw. */
    public static void inThread(boolean virtual, Utils.ThrowingRunnable body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        start("pair-reader", virtual, body, failure).join();
        Throwable e = failure.get();
        if (e instanceof Exception x) throw x;
        if (e instanceof Error x) throw x;
    }

    /**
     * Asserts that every thread started since BEFORE (a snapshot of
     * Thread.getAllStackTraces) ends within MILLIS, polling the thread
     * list.  Left out are the JDK's pools that grow and shrink on their
     * own and serve whoever uses them: the virtual-thread scheduler's
     * threads (group CarrierThreads: its carriers, kept for their
     * keep-alive time, and its delay scheduler, started by the first timed
     * park) and the process reaper, which runs a test's commands.  Left
     * out too is the RDMA drain watcher while it waits with no call to
     * watch (RdmaDrainWatch): one daemon thread per VM, started by the
     * first rshutdown or rclose of a socket that connected or tried to,
     * which the reaper may make after the snapshot for a socket closed
     * before it (a warm-up's refused connect).  While it samples a call
     * it parks with a timeout, and counts as left behind.
     */
    static void assertNoThreadsLeft(Set<Thread> before, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        Set<Thread> extra;
        while (!(extra = newThreads(before)).isEmpty() && System.nanoTime() < deadline)
            Thread.sleep(50);   // polling the thread list
        if (!extra.isEmpty())
            throw new AssertionError("threads left behind " + millis + " ms after the end: " + extra);
    }

    private static Set<Thread> newThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t != Thread.currentThread())
                .filter(t -> t.getThreadGroup() == null || !t.getThreadGroup().getName().equals("CarrierThreads"))
                .filter(t -> !t.getName().equals("process reaper"))
                .filter(t -> !(t.getName().equals("RDMA-Drain-Watch") && t.getState() == Thread.State.WAITING))
                .collect(Collectors.toSet());
    }

    // Reads BYTES of the pattern from IN, each byte compared, into CRC;
    // PROGRESS counts them.
    private static void readPattern(ReadableByteChannel in, long bytes, CRC32 crc, AtomicLong progress)
            throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        long off = 0;
        while (off < bytes) {
            buf.clear();
            if (bytes - off < buf.capacity()) buf.limit((int) (bytes - off));
            int n = in.read(buf);
            if (n < 0) throw new IOException("EOF after " + off + " of " + bytes + " bytes");
            buf.flip();
            crc.update(buf.duplicate());
            for (int i = 0; i < n; i++) {
                byte b = buf.get(i);
                if (b != pattern(off + i))
                    throw new AssertionError("wrong byte at offset " + (off + i) + ": " + b + ", not " + pattern(off + i));
            }
            off += n;
            progress.set(off);
        }
    }
}
