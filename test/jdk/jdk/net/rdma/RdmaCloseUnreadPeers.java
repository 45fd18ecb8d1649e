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

/*
 * @test
 * @summary 512 connected RDMA channels whose peers have stopped reading
 *          are closed at once: each close returns at once, the JVM's
 *          thread count does not grow with them (one reaper thread
 *          finishes the closes that would wait for the peer), every peer
 *          that then reads gets every byte written before the close, then
 *          EOF, and once they have, the process holds no more descriptors
 *          than before.  Buffers and queues are small, as a server with
 *          many idle connections would set them, so that a few writes use
 *          up a peer's receive buffers.  librdmacm 44.0 needs room for the
 *          sockets in its connection service (jdk.net.rdma.serviceRounds).
 *          -Drdio.rdma.closes=N closes N (2,000 in make
 *          test-rdio-extended); the peers' time to read is bounded by 10 s + 55 ms a close.
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 -Drdio.rdma.caseTimeout=800 RdmaCloseUnreadPeers
 */

import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaCloseUnreadPeers {
    // a thread per close would add 512 threads; 1,024 sockets, twice librdmacm 44.0's default room of 512
    static final int COUNT = Integer.getInteger("rdio.rdma.closes", 512);

    // a close never waits for the peer; this bounds the slowest of them
    static final long CLOSE_MILLIS = 1_000;

    // threads the closes may add: the reaper, if the warm-up did not start it
    static final long MORE_THREADS = 1;

    // how long the peers may take to read every byte and EOF once they read:
    // the reaper finishes the closes one after another (120 s for 2,000)
    static final long READ_MILLIS = 10_000 + 55L * COUNT;

    public static void main(String[] args) throws Exception {
        if (System.getProperty("jdk.net.rdma.serviceRounds") == null)
            System.setProperty("jdk.net.rdma.serviceRounds", Integer.toString((2 * COUNT + 64) / 4 + 8));
        RdmaTestLib.runCases(List.of(new RdmaTestLib.Case(
                COUNT + " closes against peers that do not read", RdmaCloseUnreadPeers::closes)));
    }

    static void closes() throws Exception {
        RdmaTestLib.startPoller();
        int fds0 = RdmaTestLib.fdCount();
        RdmaTestLib.log("  before: " + fds0 + " descriptors");

        List<SocketChannel> clients = new ArrayList<>();
        List<SocketChannel> accepted = new ArrayList<>();
        long[] sent = new long[COUNT];
        try (ServerSocketChannel ssc = RdmaTestLib.smallServer()) {
            RdmaTestLib.connectSmall(ssc, COUNT, clients, accepted);
            long t0 = System.nanoTime();
            for (int i = 0; i < COUNT; i++)
                sent[i] = RdmaCloseUnreadPeer.fill(clients.get(i));
            RdmaTestLib.log(String.format("  %d peers full, %.1f s, %d to %d bytes each", COUNT,
                    (System.nanoTime() - t0) / 1e9, min(sent), max(sent)));

            // counted once connected: librdmacm's threads, and the
            // disconnect watcher where librdmacm needs it, have started
            long threads0 = RdmaTestLib.status("Threads");
            long slowest = 0;
            t0 = System.nanoTime();
            for (SocketChannel c : clients) {
                long c0 = System.nanoTime();
                c.close();
                slowest = Math.max(slowest, System.nanoTime() - c0);
            }
            long threads1 = RdmaTestLib.status("Threads");
            RdmaTestLib.log(String.format("  %d closed in %.1f s, the slowest in %.1f ms; %d threads",
                    COUNT, (System.nanoTime() - t0) / 1e9, slowest / 1e6, threads1));
            assertLessThan(slowest, TimeUnit.MILLISECONDS.toNanos(CLOSE_MILLIS), "ns of the slowest close");
            assertLessThanOrEqual(threads1, threads0 + MORE_THREADS, "threads after the closes ("
                    + threads0 + " before)");

            // every peer reads what was sent, then EOF, byte for byte, each
            // in a virtual thread of its own: the reaper finishes the
            // closes in the order the peers let it
            t0 = System.nanoTime();
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < COUNT; i++) {
                int n = i;
                readers.add(Thread.ofVirtual().start(() -> {
                    try {
                        receiveAll(accepted.get(n), sent[n], n);
                    } catch (Throwable e) {
                        failures.add("peer " + n + ": " + e);
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(READ_MILLIS));
            for (Thread t : readers) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !t.join(Duration.ofNanos(left)))
                    fail("not every peer got its bytes and EOF within " + READ_MILLIS + " ms: " + t);
            }
            assertTrue(failures.isEmpty(), failures.size() + " peers failed, the first: " + failures.peek());
            RdmaTestLib.log(String.format("  every peer got its bytes and EOF, %.1f s",
                    (System.nanoTime() - t0) / 1e9));
        } finally {
            for (SocketChannel c : clients)
                c.close();
            for (SocketChannel c : accepted)
                c.close();
        }
        // the reaper has closed the last rsockets once their peers read
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(10_000));
        int fds;
        while ((fds = RdmaTestLib.fdCount()) > fds0) {
            if (System.nanoTime() - deadline > 0)
                fail(fds + " descriptors open, " + fds0 + " before the connections");
            Thread.sleep(10);
        }
        RdmaTestLib.log("  after: " + fds + " descriptors");
    }

    // reads peer n until EOF and checks it got exactly the sent bytes of the test stream
    static void receiveAll(SocketChannel peer, long sent, int n) throws Exception {
        ByteBuffer in = ByteBuffer.allocate((int) sent + 1);
        while (peer.read(in) >= 0) {
            if (!in.hasRemaining())
                fail("peer " + n + " got more than the " + sent + " bytes sent");
        }
        in.flip();
        assertEquals((int) sent, in.remaining(), "bytes peer " + n + " got before EOF");
        assertEquals(-1, in.mismatch(ByteBuffer.wrap(RdmaTestLib.message((int) sent, 0))),
                "the first byte peer " + n + " got that differs from the one sent");
    }

    static long min(long[] a) {
        return java.util.Arrays.stream(a).min().orElse(0);
    }

    static long max(long[] a) {
        return java.util.Arrays.stream(a).max().orElse(0);
    }
}
