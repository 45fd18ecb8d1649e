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
 * @summary shutdownOutput and shutdownInput of a connected RDMA channel
 *          whose peer has stopped reading return at once, and hold no lock
 *          that the channel's other methods need: getLocalAddress, isOpen
 *          and register, called meanwhile by another thread, each return
 *          within 1 s.  The peer, when it reads again, gets every byte
 *          written before the shutdown, then EOF.  The writes use up the
 *          peer's posted receive buffers, so rsockets' shutdown message
 *          finds none, and its rshutdown would wait until the peer reads.
 *          Covers platform and virtual threads.  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaShutdownUnreadPeer
 */

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaShutdownUnreadPeer {
    // How long another method may take while a shutdown is under way.  A
    // lock held across rsockets' wait for the peer would hold the other
    // thread until the peer reads, which it does only after the checks, so
    // the bound needs no tightness to catch it; it leaves room for the
    // pauses of a JVM under emulation, which pass 100 ms.
    static final long OTHER_MILLIS = 1_000;

    // a shutdown never waits for the peer; this bounds it
    static final long SHUTDOWN_MILLIS = 1_000;

    public static void main(String[] args) throws Exception {
        List<RdmaTestLib.Case> cases = new ArrayList<>();
        for (boolean virtual : new boolean[] { false, true }) {
            cases.add(new RdmaTestLib.Case("shutdowns against a peer that does not read, other calls by a "
                    + (virtual ? "virtual" : "platform") + " thread", () -> shutdowns(virtual)));
        }
        RdmaTestLib.runCases(cases);
    }

    static void shutdowns(boolean virtual) throws Throwable {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Selector sel = Sockets.openRdmaSelector()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = RdmaCloseUnreadPeer.connect(ssc, c)) {
                long sent = RdmaCloseUnreadPeer.fill(c);

                // the other calls, timed, until the shutdowns have returned
                AtomicBoolean done = new AtomicBoolean();
                AtomicLong slowest = new AtomicLong();
                AtomicLong calls = new AtomicLong();
                AtomicReference<Throwable> outcome = new AtomicReference<>(new AssertionError("not ended"));
                Thread other = RdmaTestLib.start(virtual, outcome, () -> {
                    do {
                        long t0 = System.nanoTime();
                        c.getLocalAddress();
                        c.isOpen();
                        SelectionKey key = c.register(sel, SelectionKey.OP_READ);
                        key.interestOps(0);
                        slowest.accumulateAndGet(System.nanoTime() - t0, Math::max);
                        calls.incrementAndGet();
                    } while (!done.get());
                });
                // the other thread calls before, during and after each shutdown
                awaitCalls(calls, 1);
                long out = timed(c::shutdownOutput);
                awaitCalls(calls, calls.get() + 1);
                long in = timed(c::shutdownInput);
                awaitCalls(calls, calls.get() + 1);
                done.set(true);
                other.join();
                assertNull(outcome.get(), "what the other calls threw");
                RdmaTestLib.log(String.format("  shutdownOutput %.1f ms, shutdownInput %.1f ms; %d rounds of"
                        + " the other calls, the slowest %.1f ms", out / 1e6, in / 1e6, calls.get(),
                        slowest.get() / 1e6));
                assertLessThan(out, TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_MILLIS), "ns of shutdownOutput");
                assertLessThan(in, TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_MILLIS), "ns of shutdownInput");
                assertLessThan(slowest.get(), TimeUnit.MILLISECONDS.toNanos(OTHER_MILLIS),
                        "ns of the slowest round of getLocalAddress, isOpen and register");
                assertEquals(-1, c.read(ByteBuffer.allocate(1)), "a read after shutdownInput");

                RdmaCloseUnreadPeer.receiveAll(peer, sent);
            }
        }
    }

    static long timed(Utils.ThrowingRunnable task) throws Throwable {
        long t0 = System.nanoTime();
        task.run();
        return System.nanoTime() - t0;
    }

    // waits until the other thread has made n rounds of calls
    static void awaitCalls(AtomicLong calls, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (calls.get() < n) {
            if (System.nanoTime() - deadline > 0)
                fail("the other thread made no round of calls within 5 s");
            Thread.onSpinWait();
        }
    }
}
