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
 *          disconnect) while guest A has four RDMA channels to a sink peer
 *          in B, with writers and blocked readers, with and without
 *          SO_KEEPALIVE, and a fifth registered with an RDMA selector.  If
 *          rxe's transport gives up (retry_exceeded_err grows), every
 *          thread with keepalive ends with an IOException within the
 *          retries' bound; if it retries for ever, as Soft-RoCE does with
 *          rsockets' retry_count 7, it retried and no call ended.  Either
 *          way every close returns within the transport's retry budget (the
 *          JDK ends a drain that nothing acknowledges for that long);
 *          meanwhile each closing channel answers as a closed one at once
 *          and the selector goes on selecting its other channel; every
 *          blocked thread then ends with an IOException, and no thread is
 *          left behind.  B is gone afterwards: this test runs last (names
 *          sort).
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairVanish
 */

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;

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
    // a byte through a connection within A, reported by the selector: well
    // within the drains' 17.2 s, with room for five closing threads on the
    // guest's one emulated CPU (the slowest of 165 took 3.1 s)
    static final long SELECT_MILLIS = 8_000;
    // A drain that no completion ends lasts the transport's retry budget
    // (8 tries of at most 2.15 s, RdmaDrainWatch.STALL_NANOS), counted from
    // when the watch first sees the thread asleep and sampled every 100 ms,
    // and its rclose one more sample; five closes at once on the guest's one
    // emulated CPU took up to 6.2 s beyond the budget.
    static final long CLOSE_BOUND_MILLIS = (long) ((RETRY_COUNT + 1) * ACK_TIMEOUT_MAX * 1000) + 3 * CLOSE_MILLIS;
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

        // Four channels to the sink: two with a writer and a reader, two
        // with a reader only; one of each with SO_KEEPALIVE, set while
        // tcp_keepalive_time is KEEPALIVE_SECS (rsockets reads it then).
        SocketChannel busy = PairLib.connect(SINK);
        SocketChannel idle = PairLib.connect(SINK);
        SocketChannel busyKept, idleKept;
        String saved = Files.readString(KEEPALIVE).strip();
        Files.writeString(KEEPALIVE, Integer.toString(KEEPALIVE_SECS));
        try {
            busyKept = PairLib.connect(SINK);
            busyKept.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            idleKept = PairLib.connect(SINK);
            idleKept.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        } finally {
            Files.writeString(KEEPALIVE, saved);
        }
        // A fifth, registered with an RDMA selector beside a connection
        // within A, whose selecting thread reads that connection's bytes.
        SocketChannel registered = PairLib.connect(SINK);
        registered.configureBlocking(false);
        ServerSocketChannel local = Sockets.openRdmaServerSocketChannel();
        local.bind(new InetSocketAddress(((InetSocketAddress) registered.getLocalAddress()).getAddress(), 0));
        SocketChannel localClient = Sockets.openRdmaSocketChannel();
        localClient.connect(local.getLocalAddress());
        SocketChannel localServer = local.accept();
        localServer.configureBlocking(false);
        Selector selector = Sockets.openRdmaSelector();
        registered.register(selector, SelectionKey.OP_READ);
        localServer.register(selector, SelectionKey.OP_READ);
        AtomicLong localBytes = new AtomicLong();
        AtomicReference<Throwable> selecting = new AtomicReference<>();
        Thread selectorThread = PairLib.start("selector", false, () -> {
            ByteBuffer buf = ByteBuffer.allocate(64);
            try {
                while (true) {
                    selector.select();
                    for (SelectionKey k : selector.selectedKeys()) {
                        if (k.channel() == localServer) {
                            buf.clear();
                            int n = localServer.read(buf);
                            if (n > 0) localBytes.addAndGet(n);
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } catch (ClosedSelectorException e) {
                // the test's end: it closed the selector
            }
        }, selecting);

        AtomicLong written = new AtomicLong();
        List<Blocked> kept = List.of(
                writer("writer, keepalive (virtual)", busyKept, true, written),
                reader("reader beside it, keepalive (platform)", busyKept, false),
                reader("reader alone, keepalive (virtual)", idleKept, true));
        List<Blocked> plain = List.of(
                writer("writer (platform)", busy, false, written),
                reader("reader beside it (virtual)", busy, true));
        Blocked idleReader = reader("reader alone (platform)", idle, false);
        // The writers' bytes flow, and every reader waits.
        long deadline = System.nanoTime() + PairLib.AGENT_MILLIS * 1_000_000;
        while (written.get() < (16 << 20)) {
            assertTrue(System.nanoTime() < deadline, "the writers wrote only " + written.get() + " bytes");
            Thread.sleep(50);   // polling a counter
        }
        for (Blocked b : List.of(kept.get(1), kept.get(2), plain.get(1), idleReader))
            RdmaTestLib.awaitWaiting(b.thread());

        String countersBefore = PairLib.rxeCounters();
        RdmaTestLib.log("rxe0 counters: " + countersBefore);
        // Every thread the JDK starts for these sockets, and the test's
        // own, runs by now.
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        RdmaTestLib.log("powering B off, " + written.get() + " bytes written");
        PairLib.agentFireAndForget("echo o > /proc/sysrq-trigger");
        long t0 = System.nanoTime();
        // Watch every thread for FAIL_MILLIS.
        Map<Blocked, Double> ended = new LinkedHashMap<>();
        List<Blocked> all = new ArrayList<>(kept);
        all.addAll(plain);
        all.add(idleReader);
        while (System.nanoTime() - t0 < FAIL_MILLIS * 1_000_000) {
            double secs = (System.nanoTime() - t0) / 1e9;
            for (Blocked b : all) {
                if (!b.thread().isAlive() && !ended.containsKey(b)) {
                    ended.put(b, secs);
                    RdmaTestLib.log(String.format("%s ended %.1f s after the power-off: %s", b.name(), secs,
                            b.outcome().get()));
                }
            }
            if (ended.size() == all.size() - 1)
                break;
            Thread.sleep(100);  // polling the threads' states
        }
        String countersAfter = PairLib.rxeCounters();
        String qps = PairLib.run("rdma", "-d", "res", "show", "qp");
        RdmaTestLib.log("rxe0 counters: " + countersAfter);
        RdmaTestLib.log("queue pairs: " + qps);
        long retries = PairLib.counterDelta(countersAfter, countersBefore, "completer_retry_err");
        long exceeded = PairLib.counterDelta(countersAfter, countersBefore, "retry_exceeded_err");
        if (exceeded == 0) {
            // Soft-RoCE: rxe's completer decrements a queue pair's retry
            // count only when it is not 7 (rxe_comp.c), and rsockets sets
            // 7, so rxe retries for ever: the transport never fails, and
            // nothing on A ends.  (Hardware gives up after 7 retries.)
            RdmaTestLib.log("rxe retried " + retries + " times and never gave up: no call ends");
            assertTrue(retries > 0, "no retries after the power-off");
            assertTrue(ended.isEmpty(), "ended without a transport failure: " + ended.keySet());
            assertFalse(qps.contains("state ERR"), "a queue pair failed: " + qps);
        } else {
            // A transport that gives up: every thread with a send in flight
            // or keepalive ends with an IOException within the bound.
            for (Blocked b : kept) {
                assertTrue(ended.containsKey(b), b.name() + " still blocked (bound " + FAIL_MILLIS + " ms)");
                assertTrue(b.outcome().get() instanceof IOException, b.name() + " ended with " + b.outcome().get());
            }
            for (Blocked b : plain) {
                if (ended.containsKey(b))
                    assertTrue(b.outcome().get() instanceof IOException, b.name() + " ended with " + b.outcome().get());
            }
            // Nothing was ever sent on the idle channel, so nothing noticed.
            assertTrue(idleReader.thread().isAlive(), "the reader alone ended: " + idleReader.outcome().get());
        }
        // Every close returns, a failed channel's at once.  One still
        // connected drains (rshutdown sends a disconnect and waits for every
        // send to complete, design doc 4.1); against a transport that never
        // gives up the JDK ends that wait once nothing was acknowledged for
        // a transport's whole retry budget (RdmaDrainWatch).  The four close
        // at once, as four threads of an application would.
        List<Thread> closers = new ArrayList<>();
        List<AtomicReference<Throwable>> closeFailures = new ArrayList<>();
        List<SocketChannel> channels = List.of(busyKept, idleKept, busy, idle, registered);
        List<String> names = List.of("busy, keepalive", "idle, keepalive", "busy", "idle", "registered with a selector");
        long c0 = System.nanoTime();
        for (SocketChannel sc : channels) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            closeFailures.add(failure);
            closers.add(PairLib.start("close", false, sc::close, failure));
        }
        // While the closes drain, no lock of theirs holds anything up: each
        // channel answers as a closed one at once, and the selector goes on
        // selecting its other channel (design doc 4.1; RdmaCloseDrain makes
        // the same checks in one guest, against a drain it holds up).
        long maxAnswer = 0, maxSelect = 0;
        int pings = 0;
        while (closers.stream().anyMatch(Thread::isAlive) && System.nanoTime() - c0 < CLOSE_BOUND_MILLIS * 1_000_000) {
            for (SocketChannel sc : channels) {
                long a0 = System.nanoTime();
                assertFalse(sc.isOpen(), "a channel being closed is open");
                assertThrows(ClosedChannelException.class, () -> sc.read(ByteBuffer.allocate(1)));
                assertThrows(ClosedChannelException.class, () -> sc.getRemoteAddress());
                maxAnswer = Math.max(maxAnswer, System.nanoTime() - a0);
            }
            long before0 = localBytes.get(), p0 = System.nanoTime();
            localClient.write(ByteBuffer.wrap(new byte[1]));
            while (localBytes.get() == before0) {
                assertTrue(System.nanoTime() - p0 < SELECT_MILLIS * 1_000_000,
                        "the selector did not report its other channel within " + SELECT_MILLIS + " ms");
                Thread.sleep(1);    // polling a counter
            }
            maxSelect = Math.max(maxSelect, System.nanoTime() - p0);
            pings++;
            Thread.sleep(100);      // pacing the pings, not waiting for an event
        }
        RdmaTestLib.log(String.format("while the closes ran: %d pings through the selector, the slowest %.1f ms; "
                + "the slowest answer of a closing channel %.1f ms", pings, maxSelect / 1e6, maxAnswer / 1e6));
        assertTrue(pings > 0, "no close lasted long enough to check the selector");
        for (int i = 0; i < channels.size(); i++) {
            long left = CLOSE_BOUND_MILLIS - (System.nanoTime() - c0) / 1_000_000;
            closers.get(i).join(Math.max(1, left));
            long ms = (System.nanoTime() - c0) / 1_000_000;
            Thread t = closers.get(i);
            RdmaTestLib.log("close of the channel " + names.get(i) + (t.isAlive() ? " still running after " : " returned within ")
                    + ms + " ms (bound " + CLOSE_BOUND_MILLIS + " ms)"
                    + (closeFailures.get(i).get() != null ? ": " + closeFailures.get(i).get() : ""));
            if (t.isAlive())
                dumpThreads();
            assertFalse(t.isAlive(), "close of the channel " + names.get(i) + " did not return within "
                    + CLOSE_BOUND_MILLIS + " ms");
            assertNull(closeFailures.get(i).get(), "close of the channel " + names.get(i) + " threw");
        }
        selector.close();
        selectorThread.join(CLOSE_MILLIS);
        assertFalse(selectorThread.isAlive(), "the selecting thread did not end after the selector's close");
        assertNull(selecting.get(), "the selecting thread failed");
        localClient.close();
        localServer.close();
        local.close();
        for (Blocked b : all) {
            b.thread().join(CLOSE_MILLIS);
            assertFalse(b.thread().isAlive(), b.name() + " is still blocked after its channel's close");
            assertTrue(b.outcome().get() instanceof IOException, b.name() + " ended with " + b.outcome().get());
        }

        // No thread left behind: every thread that started since the
        // power-off ends, within the close bound.
        PairLib.assertNoThreadsLeft(before, CLOSE_MILLIS);
    }

    // Every thread's stack, for a close that did not return.
    static void dumpThreads() {
        Thread.getAllStackTraces().forEach((t, stack) -> {
            StringBuilder sb = new StringBuilder("\"" + t.getName() + "\" " + t.getState());
            for (StackTraceElement e : stack)
                sb.append("\n    at ").append(e);
            RdmaTestLib.log(sb.toString());
        });
    }

    static Blocked writer(String name, SocketChannel sc, boolean virtual, AtomicLong written) {
        return start(name, virtual, () -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            while (true) {
                buf.clear();
                written.addAndGet(sc.write(buf));
            }
        });
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
