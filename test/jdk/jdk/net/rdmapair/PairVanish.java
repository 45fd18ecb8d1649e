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
 * @summary Two guests: guest B powered off at once (sysrq o: no FIN, no
 *          disconnect) while guest A has RDMA channels to a sink peer in B.
 *          A channel with a blocked read and a writer whose sends are in
 *          flight, and one with only a blocked read and SO_KEEPALIVE (its
 *          keepalive time lowered), each end with an IOException in both
 *          threads within the bound of the queue pair's retries; a third
 *          channel with only a blocked read and no keepalive stays blocked
 *          (nothing is sent, so nothing fails) until its close ends it.
 *          The failed channels close at once, the idle one within the
 *          retries' bound (its close drains), and no thread is left
 *          behind.  B
 *          is gone afterwards: this test runs last (names sort).
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairVanish
 */

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static jdk.test.lib.Asserts.*;

public class PairVanish {
    static final int SINK = 7301, ECHO = 7302;
    // rsockets connects with retry_count 7 (rsocket.c, rs_do_connect): a
    // send unacknowledged after 8 tries of the local ACK timeout fails the
    // queue pair.  The RDMA CM gives RoCE a timeout exponent of at most 19
    // (4.096 us << 19 = 2.15 s), so the transport gives up within 17.2 s.
    static final double ACK_TIMEOUT_MAX = 4.096e-6 * (1 << 19);
    static final int RETRY_COUNT = 7;
    static final int KEEPALIVE_SECS = 2;
    // Twice the transport's budget, for the emulated guest's scheduling,
    // plus the keepalive interval for the channel that only reads.
    static final long FAIL_MILLIS = (long) (2 * (RETRY_COUNT + 1) * ACK_TIMEOUT_MAX * 1000) + KEEPALIVE_SECS * 1000;
    static final long CLOSE_MILLIS = 5_000;
    static final Path KEEPALIVE = Path.of("/proc/sys/net/ipv4/tcp_keepalive_time");

    record Blocked(String name, Thread thread, AtomicReference<Throwable> outcome) { }

    public static void main(String[] args) throws Exception {
        // Warm up: the RDMA implementation's own threads start now, and the
        // link works.
        PairLib.startPeer("echo", ECHO);
        PairLib.startPeer("sink", SINK);
        try (SocketChannel sc = PairLib.connect(ECHO)) {
            PairLib.echo(sc, 1 << 20, false);
        }
        Set<Thread> before = Thread.getAllStackTraces().keySet();

        SocketChannel busy = PairLib.connect(SINK);
        String saved = Files.readString(KEEPALIVE).strip();
        SocketChannel kept;
        Files.writeString(KEEPALIVE, Integer.toString(KEEPALIVE_SECS));
        try {
            kept = PairLib.connect(SINK);
            kept.setOption(StandardSocketOptions.SO_KEEPALIVE, true);  // rsockets reads the time now
        } finally {
            Files.writeString(KEEPALIVE, saved);
        }
        SocketChannel idle = PairLib.connect(SINK);

        AtomicLong written = new AtomicLong();
        Blocked busyReader = reader("busy reader (platform)", busy, false);
        Blocked busyWriter = start("busy writer (virtual)", true, () -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            while (true) {
                buf.clear();
                written.addAndGet(busy.write(buf));
            }
        });
        Blocked keptReader = reader("keepalive reader (virtual)", kept, true);
        Blocked idleReader = reader("idle reader (platform)", idle, false);
        // The writer's bytes flow, and every reader waits.
        long deadline = System.nanoTime() + PairLib.AGENT_MILLIS * 1_000_000;
        while (written.get() < (8 << 20)) {
            assertTrue(System.nanoTime() < deadline, "the writer wrote only " + written.get() + " bytes");
            Thread.sleep(50);   // polling a counter
        }
        for (Blocked b : new Blocked[] {busyReader, keptReader, idleReader})
            RdmaTestLib.awaitWaiting(b.thread());

        RdmaTestLib.log("powering B off, " + written.get() + " bytes written");
        PairLib.agentFireAndForget("echo o > /proc/sysrq-trigger");
        long t0 = System.nanoTime();
        for (Blocked b : new Blocked[] {busyWriter, busyReader, keptReader}) {
            b.thread().join(Math.max(1, FAIL_MILLIS - (System.nanoTime() - t0) / 1_000_000));
            double secs = (System.nanoTime() - t0) / 1e9;
            assertFalse(b.thread().isAlive(), b.name() + " still blocked " + secs + " s after the power-off"
                    + " (bound " + FAIL_MILLIS + " ms)");
            Throwable e = b.outcome().get();
            RdmaTestLib.log(String.format("%s ended %.1f s after the power-off: %s", b.name(), secs, e));
            assertTrue(e instanceof IOException, b.name() + " ended with " + e + ", not an IOException");
        }
        // Nothing was sent on the idle channel, so nothing noticed: it is
        // still blocked, and its close ends it.
        assertTrue(idleReader.thread().isAlive(), "the idle reader ended: " + idleReader.outcome().get());
        // The failed channels close at once.  The idle one is still
        // connected: its close drains (rshutdown sends a disconnect and
        // waits for its completion, design doc 4.1), which against a
        // vanished machine lasts the transport's retries.
        close("busy", busy, CLOSE_MILLIS);
        close("keepalive", kept, CLOSE_MILLIS);
        close("idle", idle, FAIL_MILLIS + CLOSE_MILLIS);
        idleReader.thread().join(CLOSE_MILLIS);
        assertFalse(idleReader.thread().isAlive(), "the idle reader is still blocked after its close");
        assertTrue(idleReader.outcome().get() instanceof AsynchronousCloseException,
                "the idle reader ended with " + idleReader.outcome().get());

        // No thread left behind: every thread that started since the
        // warm-up ends, within the close bound.
        deadline = System.nanoTime() + CLOSE_MILLIS * 1_000_000;
        Set<Thread> extra;
        while (!(extra = newThreads(before)).isEmpty() && System.nanoTime() < deadline)
            Thread.sleep(50);   // polling the thread list
        assertTrue(extra.isEmpty(), "threads left behind: " + extra);
    }

    static void close(String name, SocketChannel sc, long boundMillis) throws IOException {
        long c0 = System.nanoTime();
        sc.close();
        long ms = (System.nanoTime() - c0) / 1_000_000;
        RdmaTestLib.log("close of the " + name + " channel took " + ms + " ms (bound " + boundMillis + " ms)");
        assertTrue(ms < boundMillis, "close of the " + name + " channel took " + ms + " ms");
    }

    static Set<Thread> newThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t != Thread.currentThread())
                .collect(Collectors.toSet());
    }

    static Blocked reader(String name, SocketChannel sc, boolean virtual) {
        return start(name, virtual, () -> {
            int n = sc.read(ByteBuffer.allocate(1));
            throw new AssertionError("read returned " + n);
        });
    }

    static Blocked start(String name, boolean virtual, jdk.test.lib.Utils.ThrowingRunnable body) {
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        return new Blocked(name, PairLib.start(name, virtual, body, outcome), outcome);
    }
}
