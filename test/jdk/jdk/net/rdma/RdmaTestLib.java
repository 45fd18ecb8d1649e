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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Helpers shared by the RDMA tests, which run in the Soft-RoCE guest of
 * make/scripts/rdma-guest.sh (rxe0 on the guest-only address
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

    /** Reads exactly n bytes into a new buffer, or fails at EOF. */
    public static ByteBuffer readFully(SocketChannel sc, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (sc.read(b) < 0)
                throw new AssertionError("EOF after " + b.position() + " of " + n + " bytes");
        }
        return b.flip();
    }

    /** Writes all of buf. */
    public static void writeFully(SocketChannel sc, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining())
            sc.write(buf);
    }

    /** The number of open file descriptors of this process. */
    public static int fdCount() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return (int) s.count();
        }
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

    public static void check(boolean ok, String what) {
        if (!ok)
            throw new AssertionError(what);
    }

    /** Runs task, which must throw an exception of type expected. */
    public static <T extends Throwable> T expect(Class<T> expected, ThrowingRunnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            if (expected.isInstance(t)) {
                System.out.println("  expected " + t);
                return expected.cast(t);
            }
            throw new AssertionError("expected " + expected.getName() + ", got " + t, t);
        }
        throw new AssertionError("expected " + expected.getName() + ", nothing thrown");
    }

    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Each case's deadline, in seconds (rdio.rdma.caseTimeout). */
    static final long CASE_TIMEOUT = Long.getLong("rdio.rdma.caseTimeout", 300);

    /**
     * Prints a progress line, also to build/rdma-guest/progress.log when
     * run by make/scripts/rdma-guest.sh, to show where a run is while it runs.
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
     * printing each one's time; fails at the end if any failed.
     */
    public static void runCases(List<Case> cases) throws Exception {
        List<String> failed = new ArrayList<>();
        for (Case c : cases) {
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
                StringBuilder sb = new StringBuilder("thread dump:\n");
                for (var e : Thread.getAllStackTraces().entrySet()) {
                    sb.append('"').append(e.getKey().getName()).append("\" ")
                      .append(e.getKey().getState()).append('\n');
                    for (StackTraceElement f : e.getValue())
                        sb.append("    at ").append(f).append('\n');
                }
                log(sb.toString());
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            if (failure[0] == null) {
                log(String.format("--- %s passed in %.1f s", c.name(), secs));
            } else {
                log(String.format("--- %s FAILED in %.1f s: %s", c.name(), secs, failure[0]));
                failure[0].printStackTrace(System.out);
                failed.add(c.name());
            }
        }
        if (!failed.isEmpty())
            throw new AssertionError("failed cases: " + failed);
    }

    public record Case(String name, ThrowingRunnable body) { }
}
