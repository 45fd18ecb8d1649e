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

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jdk.net.RdmaSocketOptions;
import jdk.net.Sockets;
import jdk.test.lib.Asserts;
import jdk.test.lib.Utils;

/**
 * Helpers shared by the RDMA tests, which run in the Soft-RoCE guest of
 * test/infra/rdma-guest/rdma-guest.sh (rxe0 on the guest-only address
 * RDIO_RDMA_SERVER_ADDR). There they never skip; elsewhere they fail.
 */
public final class RdmaTestLib {
    private RdmaTestLib() { }

    /** The address of the RDMA device: servers bind to it, clients connect to it. */
    public static final InetAddress SERVER;
    static {
        String s = System.getProperty("rdio.rdma.server",
                System.getenv().getOrDefault("RDIO_RDMA_SERVER_ADDR", "10.77.0.1"));
        try {
            SERVER = InetAddress.getByName(s);
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A server address on the RDMA device with an ephemeral port. */
    public static InetSocketAddress anyPort() {
        return new InetSocketAddress(SERVER, 0);
    }

    /** Byte n of a test stream. */
    public static byte pattern(long n) {
        return (byte) (n * 31 + (n >>> 8));
    }

    /** Fills buf (position to limit) with the pattern from stream offset off. */
    public static void fill(ByteBuffer buf, long off) {
        for (int i = buf.position(); i < buf.limit(); i++)
            buf.put(i, pattern(off + i - buf.position()));
    }

    /** n bytes of the test stream from stream offset off. */
    public static byte[] message(int n, long off) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = pattern(off + i);
        return b;
    }

    /** Reads exactly n bytes into a new buffer, or fails at EOF. */
    public static ByteBuffer readFully(SocketChannel sc, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (sc.read(b) < 0)
                throw new EOFException("EOF after " + b.position() + " of " + n + " bytes");
        }
        return b.flip();
    }

    /** Writes all of buf. */
    public static void writeFully(SocketChannel sc, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining())
            sc.write(buf);
    }

    /**
     * Sends n bytes of the test stream (from offset seed * 7) from a to b,
     * which a second thread sends back, and checks every byte that returns.
     */
    public static void echo(SocketChannel a, SocketChannel b, int n, long seed) throws Exception {
        ByteBuffer out = ByteBuffer.allocateDirect(n);
        fill(out, seed * 7);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                writeFully(b, readFully(b, n));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        writeFully(a, out);
        ByteBuffer back = readFully(a, n);
        t.join();
        if (failure.get() != null)
            throw new AssertionError("the echoing side of echo " + seed + " failed", failure.get());
        out.flip();
        Asserts.assertEquals(-1, back.mismatch(out), "the first byte that differs after echo " + seed);
    }

    /**
     * A server channel bound to the RDMA device with a backlog of 64, whose
     * accepted channels get small buffers and queues, as a server with
     * many idle connections would set them.
     */
    public static ServerSocketChannel smallServer() throws IOException {
        ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
        ssc.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
        ssc.setOption(RdmaSocketOptions.RDMA_SQSIZE, 16);
        ssc.setOption(RdmaSocketOptions.RDMA_RQSIZE, 16);
        return ssc.bind(anyPort(), 64);
    }

    /** An unconnected client channel with small buffers and queues. */
    public static SocketChannel smallClient() throws IOException {
        SocketChannel c = Sockets.openRdmaSocketChannel();
        c.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
        c.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
        c.setOption(RdmaSocketOptions.RDMA_SQSIZE, 16);
        c.setOption(RdmaSocketOptions.RDMA_RQSIZE, 16);
        return c;
    }

    /**
     * Opens count connections to ssc with small buffers, one after another,
     * adding the client ends to clients and the accepted ends to accepted
     * (so that the caller closes what was opened, even on failure), and logs
     * progress every 512.
     */
    public static void connectSmall(ServerSocketChannel ssc, int count, List<SocketChannel> clients,
                                    List<SocketChannel> accepted) throws IOException {
        SocketAddress addr = ssc.getLocalAddress();
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
            SocketChannel c = smallClient();
            clients.add(c);
            c.connect(addr);
            accepted.add(ssc.accept());
            if ((i + 1) % 512 == 0)
                log(String.format("  %d connected, %.1f s, %d descriptors", i + 1,
                        (System.nanoTime() - t0) / 1e9, fdCount()));
        }
    }

    /** Runs ip(8) with args and fails unless it succeeds. */
    public static void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Files.isExecutable(Path.of("/usr/sbin/ip")) ? "/usr/sbin/ip" : "/sbin/ip");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        Asserts.assertEquals(0, p.waitFor(), String.join(" ", cmd) + " exit status; its output: " + out);
        System.out.println("$ " + String.join(" ", cmd) + " " + out.strip());
    }

    /** The number of open file descriptors of this process. */
    public static int fdCount() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return (int) s.count();
        }
    }

    /**
     * The open file descriptors of this process, by number, each with the
     * target of its /proc/self/fd link; without the descriptor that lists
     * them.
     */
    public static Map<Integer, String> openFds() throws IOException {
        Path dir = Path.of("/proc/self/fd");
        String listing = dir.toRealPath().toString();
        Map<Integer, String> fds = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path fd : (Iterable<Path>) s::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (!target.equals(listing))
                        fds.put(Integer.valueOf(fd.getFileName().toString()), target);
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return fds;
    }

    /** A connected pair on the RDMA device: [0] the client, [1] the accepted channel. */
    public static SocketChannel[] pair() throws IOException {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            c.connect(ssc.getLocalAddress());
            return new SocketChannel[] { c, ssc.accept() };
        }
    }

    /**
     * Makes a blocking read wait, so that the RDMA poller, which holds
     * eventfds for the life of the process, exists before a test counts
     * descriptors.
     */
    public static void startPoller() throws Exception {
        SocketChannel[] p = pair();
        try (SocketChannel c = p[0]; SocketChannel peer = p[1]) {
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread t = start(false, outcome, () -> readFully(c, 1));
            awaitWaiting(t);
            peer.write(ByteBuffer.wrap(new byte[] { 1 }));
            t.join();
            if (outcome.get() != null)
                throw new AssertionError("the read that starts the poller failed", outcome.get());
        }
    }

    /** The number of open eventfds of this process. */
    public static int eventfdCount() throws IOException {
        return (int) openFds().values().stream().filter("anon_inode:[eventfd]"::equals).count();
    }

    /** A field of /proc/self/status in kB (VmRSS, VmPin, VmLck), or a count (Threads). */
    public static long status(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                String[] f = line.substring(field.length() + 1).trim().split("\\s+");
                return Long.parseLong(f[0]);
            }
        }
        throw new AssertionError("no " + field + " in /proc/self/status");
    }

    /**
     * Starts task in a new virtual or platform thread, which sets outcome
     * to what the task threw, or to null when it returns.
     */
    public static Thread start(boolean virtual, AtomicReference<Throwable> outcome,
                               Utils.ThrowingRunnable task) {
        Runnable r = () -> {
            try {
                task.run();
                outcome.set(null);
            } catch (Throwable e) {
                outcome.set(e);
            }
        };
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    /**
     * What a thread blocked on a connection to a peer that is then killed
     * does, and how it must end: a reader reads one byte (EOF or a
     * SocketException), a writer writes until a write blocks (a
     * SocketException), and a selecting thread returns "ended".
     */
    public enum Blocked { READER, WRITER, SELECTOR }

    /**
     * Starts a virtual or platform thread that blocks on c as kind (READER
     * or WRITER), and sets outcome to what the read returned or to what
     * was thrown.
     */
    public static Thread startBlocked(Blocked kind, boolean virtual, SocketChannel c,
                                      AtomicReference<Object> outcome) {
        Runnable task = () -> {
            try {
                if (kind == Blocked.WRITER) {
                    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
                    for (;;)
                        c.write(chunk.clear());
                }
                outcome.set(c.read(ByteBuffer.allocate(1)));
            } catch (Throwable t) {
                outcome.set(t);
            }
        };
        return virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
    }

    /**
     * Kills the peer process with SIGKILL, then waits for each of threads,
     * blocked on a connection to it as kinds says, until wakeMillis after
     * the peer ended, prints how each ended, and returns what is wrong with
     * that (empty if nothing).
     */
    public static List<String> killAndAwait(Process peer, List<Thread> threads, List<String> names,
                                            List<Blocked> kinds, List<AtomicReference<Object>> outcomes,
                                            long wakeMillis) throws InterruptedException {
        peer.destroyForcibly();
        Asserts.assertTrue(peer.waitFor(10, TimeUnit.SECONDS), "the peer JVM ended after SIGKILL");
        long killed = System.nanoTime();
        System.out.println("peer killed: exit status " + peer.exitValue());
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            String failure = endedAfterKill(names.get(i), kinds.get(i), threads.get(i), outcomes.get(i),
                                            killed, wakeMillis);
            if (failure != null)
                failures.add(failure);
        }
        return failures;
    }

    private static String endedAfterKill(String name, Blocked kind, Thread t, AtomicReference<Object> outcome,
                                         long killed, long wakeMillis) throws InterruptedException {
        long left = wakeMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        boolean ended = t.join(Duration.ofMillis(Math.max(left, 1)));
        Object o = outcome.get();
        System.out.printf("  %s: %s after %d ms%n", name, ended ? o : "still blocked",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
        if (!ended)
            return name + " still blocked " + wakeMillis + " ms after the kill";
        return switch (kind) {
            case SELECTOR -> "ended".equals(o) ? null : name + ": " + o;
            case READER -> (o instanceof SocketException || Integer.valueOf(-1).equals(o)) ? null
                    : name + ": " + o + ", not EOF or a SocketException";
            case WRITER -> (o instanceof SocketException) ? null : name + ": " + o + ", not a SocketException";
        };
    }

    /** How long a thread may take to reach a wait, in milliseconds. */
    static final long REACH_MILLIS = Utils.adjustTimeout(10_000);

    /**
     * Waits until thread t, platform or virtual, is waiting, or has ended
     * (the caller then reports its outcome). A blocked RDMA operation parks
     * between polls of its rsocket, or, in a platform thread without a
     * timeout, waits in its own rpoll (RdmaPoller.wait0), so a thread seen
     * in WAITING or TIMED_WAITING, or in that frame, is inside the
     * operation, past the checks it makes on entry. Fails if t neither
     * waits nor ends within REACH_MILLIS.
     */
    public static void awaitWaiting(Thread t) {
        await(() -> !t.isAlive() || isWaiting(t), () -> t + " waiting (it is " + t.getState() + ")");
    }

    /** Whether thread t is waiting, as awaitWaiting finds it. */
    public static boolean isWaiting(Thread t) {
        return switch (t.getState()) {
            case WAITING, TIMED_WAITING, BLOCKED -> true;
            case RUNNABLE -> inFrame(t, "RdmaPoller", "wait0");
            default -> false;
        };
    }

    /** Whether thread t runs method of a class whose name contains className. */
    public static boolean inFrame(Thread t, String className, String method) {
        return Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getMethodName().equals(method) && f.getClassName().contains(className));
    }

    /**
     * Waits until thread t runs method of a class whose name contains
     * className, or has ended (the caller then reports its outcome): for a
     * thread that waits in native code, where its state stays RUNNABLE.
     * Fails if t neither gets there nor ends within REACH_MILLIS.
     */
    public static void awaitFrame(Thread t, String className, String method) {
        await(() -> !t.isAlive() || inFrame(t, className, method),
              () -> t + " in " + className + "." + method);
    }

    // Returns once seen is true, which it need not stay: a blocked RDMA
    // operation is RUNNABLE while it polls, between parks.
    private static void await(BooleanSupplier seen, Supplier<String> what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REACH_MILLIS);
        while (!seen.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0)
                Asserts.fail(what.get() + ": not seen within " + REACH_MILLIS + " ms");
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        }
    }

    /** Each case's deadline, in seconds (rdio.rdma.caseTimeout). */
    static final long CASE_TIMEOUT = Long.getLong("rdio.rdma.caseTimeout", 300);

    /**
     * Prints a progress line, also to build/rdma-guest/progress.log when
     * run by test/infra/rdma-guest/rdma-guest.sh, to show where a run is while it runs.
     */
    public static void log(String line) {
        System.out.println(line);
        if (PROGRESS != null) {
            try {
                Files.writeString(PROGRESS, line + "\n", java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException | SecurityException e) {
                // stdout only
            }
        }
    }

    // build/rdma-guest/progress.log next to the assembled test tree, when
    // that directory exists (the guest shares it read-write)
    private static final Path PROGRESS;
    static {
        Path p = null;
        String src = System.getProperty("test.src", "");
        int i = src.indexOf("/build/src/test/jdk/");
        if (i > 0) {
            Path dir = Path.of(src.substring(0, i), "build", "rdma-guest");
            if (Files.isDirectory(dir) && Files.isWritable(dir))
                p = dir.resolve("progress.log");
        }
        PROGRESS = p;
    }

    /**
     * Runs the named cases in order, each in its own thread with a deadline
     * (on expiry it prints every thread's stack and fails that case),
     * printing each one's time; fails at the end if any failed.  A case
     * past its deadline cannot be stopped, so the cases after it are not
     * run but failed: run beside it, they would measure and fail for its
     * sake.
     */
    public static void runCases(List<Case> cases) throws Exception {
        // a thread of the RDMA implementation that dies says so in the log
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            log("uncaught in " + t + ": " + e);
            e.printStackTrace(System.out);
        });
        List<String> failed = new ArrayList<>();
        String running = null;      // a case past its deadline
        for (Case c : cases) {
            if (running != null) {
                log("--- " + c.name() + " NOT RUN: " + running + " is still running");
                failed.add(c.name() + " (not run: " + running + " is still running)");
                continue;
            }
            long t0 = System.nanoTime();
            log("--- " + c.name());
            Throwable[] failure = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    c.body().run();
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }, "case");
            t.start();
            t.join(CASE_TIMEOUT * 1000);
            if (t.isAlive()) {
                failure[0] = new AssertionError("not done after " + CASE_TIMEOUT + " s");
                dumpThreads();
                running = c.name();
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            if (failure[0] == null) {
                log(String.format("--- %s passed in %.1f s", c.name(), secs));
            } else {
                log(String.format("--- %s FAILED in %.1f s: %s", c.name(), secs, failure[0]));
                failure[0].printStackTrace(System.out);
                // the cause goes into the summary: CI keeps only that line
                String why = String.valueOf(failure[0]).lines().findFirst().orElse("");
                failed.add(c.name() + " (" + (why.length() > 200 ? why.substring(0, 200) + "..." : why) + ")");
            }
        }
        if (!failed.isEmpty())
            throw new AssertionError("failed cases: " + failed);
    }

    /**
     * Logs the stack of every thread, virtual threads and RDMA's own
     * among them (HotSpotDiagnosticMXBean's thread dump).
     */
    public static void dumpThreads() {
        try {
            Path file = Files.createTempFile(Path.of("."), "threads", ".txt");
            Files.delete(file);     // dumpThreads will not overwrite
            java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toAbsolutePath().toString(),
                                 com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            log("thread dump:\n" + Files.readString(file));
            Files.delete(file);
        } catch (IOException e) {
            log("no thread dump: " + e);
        }
    }

    public record Case(String name, Utils.ThrowingRunnable body) { }

    static final boolean X86_64 = System.getProperty("os.arch").equals("amd64");
    // x86-64 system calls a thread blocked in select can be in
    static final Set<Integer> EPOLL_CALLS = Set.of(232, 281, 441);  // epoll_wait, epoll_pwait, epoll_pwait2
    static final Set<Integer> POLL_CALLS = Set.of(7, 271);          // poll, ppoll

    /**
     * Waits until /proc shows the named platform thread in one of the
     * expected system calls three readings in a row (a selecting thread may
     * pass through others, and is "running" or in no call between them),
     * and returns it; fails with the readings seen if that does not happen
     * within REACH_MILLIS.
     */
    static int awaitBlockedIn(String name, Set<Integer> expected) throws Exception {
        long deadline = System.nanoTime() + REACH_MILLIS * 1_000_000;
        Map<String, Integer> seen = new TreeMap<>();
        int inARow = 0;
        while (System.nanoTime() < deadline) {
            String call = currentCall(name);
            if (call != null) {
                seen.merge(call, 1, Integer::sum);
                int n = call.matches("\\d+") ? Integer.parseInt(call) : -1;
                inARow = expected.contains(n) ? inARow + 1 : 0;
                if (inARow == 3)
                    return n;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("thread " + name + " not seen in system call " + expected
                + " three readings in a row; readings: " + seen);
    }

    /** The first field of /proc's syscall file of the named task, or null if there is none. */
    static String currentCall(String name) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(name))
                        return Files.readString(task.resolve("syscall")).strip().split(" ")[0];
                } catch (IOException e) {
                    // a task that ended while listed
                }
            }
        }
        return null;
    }

    /**
     * The static field NAME of jdk.internal.net.rdma.RdmaNet, the
     * workarounds' switches and the library's version; the test opens the
     * package ({@code @modules jdk.net/jdk.internal.net.rdma:+open}).
     */
    public static Object rdmaNetField(String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = Class.forName("jdk.internal.net.rdma.RdmaNet").getDeclaredField(name);
        f.setAccessible(true);
        return f.get(null);
    }
}
