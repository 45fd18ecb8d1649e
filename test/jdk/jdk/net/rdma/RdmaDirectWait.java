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
 * @test id=direct
 * @summary A platform thread blocked in an RDMA read without a timeout
 *          waits in an rpoll of its own, woken through the eventfd of one
 *          of the poller's slots: another thread's shutdownOutput moves it
 *          to the poller, and it still reads what the peer sends after
 *          that; threads that wait so in turn add no eventfd; one thread
 *          per CPU (2 to 4) waits so at a time, the others through the
 *          poller.  Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 -Djdk.net.rdma.directIdleMillis=600000 RdmaDirectWait direct
 */

/*
 * @test id=idle
 * @summary A platform thread that blocks when idle readers have held
 *          every slot for a second (RdmaPoller.DIRECT_IDLE_MILLIS) makes
 *          the longest-waiting of them give its slot up and wait on
 *          through the poller, so that the next thread to block waits in
 *          its own rpoll; each gets what its peer sends after that.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaDirectWait idle
 */

/*
 * @test id=poller
 * @summary As id=direct, with -Djdk.net.rdma.waitMode=poller: every wait
 *          parks through the poller thread, and no thread gets an eventfd.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 -Djdk.net.rdma.waitMode=poller RdmaDirectWait poller
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;


import static jdk.test.lib.Asserts.*;

public class RdmaDirectWait {
    // the bound on a wakeup or a delivery, in milliseconds
    static final long WAKE_MILLIS = 2_000;

    // threads that block in turn in the eventfd case
    static final int THREADS = 20;

    // how long a thread holds a slot before a thread that finds none takes
    // it (RdmaPoller.DIRECT_IDLE_MILLIS)
    static final long IDLE_MILLIS = 1_000;

    static boolean direct;

    public static void main(String[] args) throws Exception {
        direct = !args[0].equals("poller");
        if (args[0].equals("idle")) {
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("idle readers give their slots up to a reader that blocks later",
                                         RdmaDirectWait::idleReadersFreeSlots)));
            return;
        }
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("a blocked reader reads what comes after another thread's shutdownOutput",
                                     RdmaDirectWait::shutdownOutputUnderReader),
                new RdmaTestLib.Case("platform threads that wait in turn add no eventfd",
                                     RdmaDirectWait::wakeFds),
                new RdmaTestLib.Case("one platform thread per slot waits in its own rpoll, the others through the poller",
                                     RdmaDirectWait::directWaitersMax)));
    }

    // Waits until t waits in the way the mode makes it: in its own rpoll
    // (RdmaPoller.wait0), or parked through the poller.
    static void awaitModeWait(Thread t) {
        if (direct) {
            RdmaTestLib.awaitFrame(t, "RdmaPoller", "wait0");
        } else {
            RdmaTestLib.awaitWaiting(t);
        }
        assertTrue(t.isAlive(), "the reader ended before it waited");
        if (!direct)
            assertNotEquals(Thread.State.RUNNABLE, t.getState(), "the reader's state in poller mode");
    }

    /*
     * rshutdown waits for the socket's sends, and an rpoll of the socket
     * meanwhile may wait behind it: the reaper's rshutdown wakes the direct
     * waiter, which waits through the poller until the shutdown is done.
     */
    static void shutdownOutputUnderReader() throws Exception {
        SocketChannel[] p = RdmaTestLib.pair();
        try {
            byte[] reply = RdmaTestLib.message(1000, 5);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            ByteBuffer got = ByteBuffer.allocate(reply.length);
            Thread reader = RdmaTestLib.start(false, outcome, () -> {
                while (got.hasRemaining()) {
                    if (p[0].read(got) < 0)
                        throw new AssertionError("EOF after " + got.position() + " bytes");
                }
            });
            awaitModeWait(reader);

            long t0 = System.nanoTime();
            p[0].shutdownOutput();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            RdmaTestLib.log("  shutdownOutput returned in " + ms + " ms");
            assertLessThan(ms, WAKE_MILLIS, "ms the shutdownOutput took");
            // the reaper makes the rshutdown: once the peer has its EOF, the
            // reader has left its own rpoll for it, and waits through the
            // poller, which left the socket out until the rshutdown ended
            assertEquals(-1, p[1].read(ByteBuffer.allocate(1)), "the peer's read after the shutdownOutput");
            awaitState(reader, Thread.State.WAITING);
            assertTrue(reader.isAlive(), "the reader ended before the peer wrote: " + outcome.get());

            RdmaTestLib.writeFully(p[1], ByteBuffer.wrap(reply));
            assertTrue(reader.join(Duration.ofMillis(WAKE_MILLIS)),
                       "the reader did not get the reply within " + WAKE_MILLIS + " ms");
            assertNull(outcome.get(), "the reader threw");
            assertEquals(-1, got.flip().mismatch(ByteBuffer.wrap(reply)), "the first byte of the reply that differs");
        } finally {
            p[0].close();
            p[1].close();
        }
    }

    /*
     * A thread that waits in its own rpoll is woken through the eventfd of
     * the slot it holds, which the poller made with itself: platform
     * threads that wait so one after the other add no eventfd.
     */
    static void wakeFds() throws Exception {
        SocketChannel[] p = RdmaTestLib.pair();
        try {
            int base = -1;
            for (int i = 0; i <= THREADS; i++) {
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                ByteBuffer one = ByteBuffer.allocate(1);
                Thread t = RdmaTestLib.start(false, outcome, () -> {
                    if (p[0].read(one) != 1)
                        throw new AssertionError("no byte");
                });
                awaitModeWait(t);
                // the first wait made the poller, and its eventfds, if need be
                if (i == 0)
                    base = RdmaTestLib.eventfdCount();
                p[1].write(ByteBuffer.wrap(new byte[] { (byte) i }));
                assertTrue(t.join(Duration.ofMillis(WAKE_MILLIS)), "reader " + i + " did not get its byte");
                assertNull(outcome.get(), "reader " + i + " threw");
                assertEquals((byte) i, one.get(0), "the byte reader " + i + " read");
            }
            int after = RdmaTestLib.eventfdCount();
            RdmaTestLib.log("  eventfds: " + base + " while the first reader waited, " + after
                            + " after " + THREADS + " more");
            assertEquals(base, after, "eventfds after " + THREADS + " readers, each in its own thread");
        } finally {
            p[0].close();
            p[1].close();
        }
    }

    /*
     * Readers that wait on idle connections take every slot.  A second on,
     * a reader that blocks finds none free and parks through the poller,
     * and the reader that has held a slot longest gives it up and parks
     * too; a reader that blocks after that waits in its own rpoll.  Without
     * the eviction, the idle readers would keep the slots for as long as
     * they wait.
     */
    static void idleReadersFreeSlots() throws Exception {
        int max = Math.clamp(Runtime.getRuntime().availableProcessors(), 2, 4);
        int n = max + 2;
        try (Readers readers = new Readers()) {
            for (int i = 0; i < n; i++)
                readers.pair();
            long idleSince = 0;
            for (int i = 0; i < n; i++) {
                if (i == max) {
                    // the idle readers' waits reach the bound (a time, not
                    // an event, so slept out)
                    long left = idleSince + TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS) - System.nanoTime();
                    if (left > 0)
                        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(left) + 1);
                }
                Thread t = readers.start(i);
                if (i < max) {
                    // an idle reader takes a free slot
                    RdmaTestLib.awaitFrame(t, "RdmaPoller", "wait0");
                    idleSince = System.nanoTime();
                } else if (i == max) {
                    // no slot is free: this reader parks, and the first
                    // idle reader leaves its rpoll and parks
                    RdmaTestLib.awaitWaiting(t);
                    awaitState(t, Thread.State.WAITING);
                    awaitState(readers.threads.get(0), Thread.State.WAITING);
                    long inOwnRpoll = readers.inOwnRpoll();
                    RdmaTestLib.log("  after " + IDLE_MILLIS + " ms, " + inOwnRpoll + " of " + max
                                    + " idle readers still in their own rpoll");
                    assertEquals((long) max - 1, inOwnRpoll, "idle readers still in their own rpoll");
                } else {
                    // the slot given up is free for the next reader
                    RdmaTestLib.awaitFrame(t, "RdmaPoller", "wait0");
                }
                assertTrue(t.isAlive(), "reader " + i + " ended: " + readers.outcomes.get(i).get());
            }
            readers.sendAndCheck();
        }
    }

    /**
     * Connected pairs, each with a platform thread, started apart, that
     * reads 8 bytes from the pair's first channel.
     */
    static final class Readers implements AutoCloseable {
        final List<SocketChannel[]> pairs = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final List<AtomicReference<Throwable>> outcomes = new ArrayList<>();
        private final List<ByteBuffer> got = new ArrayList<>();

        /** Connects another pair. */
        void pair() throws IOException {
            pairs.add(RdmaTestLib.pair());
        }

        /** Starts the reader of pair i, the next one, and returns it. */
        Thread start(int i) {
            SocketChannel c = pairs.get(i)[0];
            ByteBuffer b = ByteBuffer.allocate(8);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread t = RdmaTestLib.start(false, outcome, () -> {
                while (b.hasRemaining()) {
                    if (c.read(b) < 0)
                        throw new AssertionError("EOF");
                }
            });
            threads.add(t);
            outcomes.add(outcome);
            got.add(b);
            return t;
        }

        /** How many readers wait in their own rpoll. */
        long inOwnRpoll() {
            return threads.stream().filter(t -> RdmaTestLib.inFrame(t, "RdmaPoller", "wait0")).count();
        }

        /** Has each pair's peer send its reader 8 bytes, and checks that each got them. */
        void sendAndCheck() throws Exception {
            int n = pairs.size();
            for (int i = 0; i < n; i++)
                pairs.get(i)[1].write(ByteBuffer.wrap(RdmaTestLib.message(8, i)));
            for (int i = 0; i < n; i++) {
                assertTrue(threads.get(i).join(Duration.ofMillis(WAKE_MILLIS)), "reader " + i + " did not get its bytes");
                assertNull(outcomes.get(i).get(), "reader " + i + " threw");
                assertEquals(-1, got.get(i).flip().mismatch(ByteBuffer.wrap(RdmaTestLib.message(8, i))),
                             "the first byte reader " + i + " got wrong");
            }
        }

        @Override
        public void close() throws IOException {
            for (SocketChannel[] p : pairs) {
                p[0].close();
                p[1].close();
            }
        }
    }

    // Waits until thread t is in state, for at most WAKE_MILLIS.
    static void awaitState(Thread t, Thread.State state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAKE_MILLIS);
        while (t.getState() != state) {
            if (System.nanoTime() - deadline > 0)
                fail(t + " not " + state + " within " + WAKE_MILLIS + " ms (it is " + t.getState()
                     + (RdmaTestLib.inFrame(t, "RdmaPoller", "wait0") ? ", in its own rpoll)" : ")"));
            Thread.sleep(1);
        }
    }

    /*
     * rsockets wakes every thread in rpoll on every event, so only a few
     * threads wait in rpolls of their own at a time.
     */
    static void directWaitersMax() throws Exception {
        int max = Math.clamp(Runtime.getRuntime().availableProcessors(), 2, 4);
        int n = max + 4;
        try (Readers readers = new Readers()) {
            for (int i = 0; i < n; i++) {
                readers.pair();
                readers.start(i);
            }
            // wait until each reader is in its own rpoll or parked
            long expected = direct ? max : 0;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10_000);
            long inOwnRpoll, parked;
            while (true) {
                inOwnRpoll = readers.inOwnRpoll();
                parked = readers.threads.stream().filter(t -> t.getState() == Thread.State.WAITING).count();
                if ((inOwnRpoll == expected && parked == n - expected) || System.nanoTime() - deadline > 0)
                    break;
                Thread.sleep(1);
            }
            RdmaTestLib.log("  " + inOwnRpoll + " of " + n + " blocked readers in their own rpoll, "
                            + parked + " parked; slots: " + max);
            assertEquals(expected, inOwnRpoll, "readers waiting in their own rpoll");
            assertEquals(n - expected, parked, "readers parked through the poller");
            readers.sendAndCheck();
        }
    }
}
