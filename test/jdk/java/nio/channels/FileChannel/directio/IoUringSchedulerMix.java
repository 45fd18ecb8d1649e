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
 * @test id=on
 * @summary The virtual thread scheduler with carriers that wait in their
 *          io_uring when idle, under a load that keeps both carriers busy:
 *          on 2 carriers, for 3 s, 16 virtual threads read blocks through
 *          the engine (each compared byte for byte) while 16 pairs pass a
 *          token back and forth (park and unpark, each token checked, and
 *          every 4096th pass held 5 ms on its carrier, so that the rescuer
 *          takes that carrier's completions), 16 threads sleep 1 ms at a
 *          time (unparked by the scheduler's timer), and 4 yield in a loop.
 *          No wake-up is lost: every thread ends within 10 s of the stop;
 *          the scheduler adds at most 4 carriers (for reads that overlap
 *          fewer than 4 others, which block their carriers); and no reader
 *          is found waiting in the engine (CarrierRing) 1 s after its last
 *          read (the rescuer's readers had waited in the pool's shared
 *          queue for the rest of the run: the busy carriers never look
 *          there; and readers whose completions a carrier had reaped waited
 *          in its queue behind a reader that, overlapping fewer than 4
 *          others, read with the carrier blocked again and again: 5 of 16
 *          runs before such a read went to the ring when its carrier had
 *          tasks queued, none of 16 after).  The rest is
 *          printed, not asserted, as JDK 25's scheduler itself starves
 *          threads resumed through that shared queue under this load: the
 *          sleepers, which its timer resumes, for the whole run, and a
 *          reader that met another in the channel's NativeThreadSet
 *          monitor, which the VM's unblocker thread resumes (such stalls
 *          are printed, with the stack).  About 4 s.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringSchedulerMix
 */

/*
 * @test id=off
 * @summary The same with the engine off (JDK 25's paths), where a reader's
 *          pread holds its carrier, and the pool adds one for the others.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringSchedulerMix
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import com.sun.nio.file.ExtendedOpenOption;
import sun.nio.ch.IoHandoffs;

import static java.nio.file.StandardOpenOption.*;

public class IoUringSchedulerMix {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 256;
    static final int FILE = 7;              // Blocks' file number
    static final long RUN_MILLIS = 3000;
    static final long WAIT = 10;            // seconds, for every thread to end
    static final int READERS = 16;
    static final long READER_GAP_MILLIS = 1000;
    static final int HOLD_EVERY = 4096;     // token passes between holds
    static final long HOLD_NANOS = 5_000_000;

    // what each group has done so far
    static final String[] GROUPS = { "readers", "token pairs", "sleepers", "yielders" };
    static final AtomicLong[] PROGRESS = {
        new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong() };
    // each reader's reads so far
    static final AtomicLongArray READS = new AtomicLongArray(READERS);

    static final AtomicBoolean stop = new AtomicBoolean();
    static final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine: " + expect.why());
        Path file = Blocks.create(DirectIODir.get().resolve("scheduler-mix"), FILE, BLOCKS);
        List<Thread> threads = new ArrayList<>();
        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            Thread[] readerThreads = new Thread[READERS];
            for (int i = 0; i < READERS; i++) {
                int id = i;
                threads.add(readerThreads[i] = start(() -> read(fc, id)));
            }
            for (int i = 0; i < 16; i++) {
                var ping = new SynchronousQueue<Long>();
                var pong = new SynchronousQueue<Long>();
                threads.add(start(() -> serve(ping, pong)));
                threads.add(start(() -> play(ping, pong)));
            }
            for (int i = 0; i < 16; i++)
                threads.add(start(IoUringSchedulerMix::sleep));
            for (int i = 0; i < 4; i++)
                threads.add(start(IoUringSchedulerMix::yieldLoop));

            // Samples the groups' progress until the run ends: a sampling
            // loop, as progress has no event to wait for
            Gaps groups = new Gaps(GROUPS.length), readers = new Gaps(READERS);
            // readers found READER_GAP_MILLIS after their last read, by
            // where they were: in the engine, or elsewhere
            List<String> engineStalls = new ArrayList<>(), otherStalls = new ArrayList<>();
            long[] seen = new long[READERS];
            long t0 = System.nanoTime();
            long now;
            while ((now = System.nanoTime()) - t0 < RUN_MILLIS * 1_000_000L && failures.isEmpty()) {
                for (int g = 0; g < GROUPS.length; g++)
                    groups.sample(g, PROGRESS[g].get(), now);
                for (int r = 0; r < READERS; r++) {
                    // where a reader is as it goes past the bound, once a stall
                    if (readers.sample(r, READS.get(r), now) > READER_GAP_MILLIS
                            && seen[r] != readers.lastChange[r]) {
                        seen[r] = readers.lastChange[r];
                        StackTraceElement[] stack = readerThreads[r].getStackTrace();
                        boolean engine = java.util.Arrays.stream(stack)
                                .anyMatch(e -> e.getClassName().startsWith("sun.nio.ch.CarrierRing"));
                        (engine ? engineStalls : otherStalls).add(describe(r, stack));
                    }
                }
                Thread.sleep(10);
            }
            stop.set(true);
            for (Thread t : threads) {
                if (!t.join(Duration.ofSeconds(WAIT))) {
                    IoUringProbe.dumpThreads("a thread still running after the stop");
                    throw new AssertionError(t + " still running " + WAIT + " s after the stop");
                }
            }
            if (!failures.isEmpty())
                throw new AssertionError(failures.size() + " threads failed", failures.peek());
            for (int g = 0; g < GROUPS.length; g++) {
                System.out.printf("%s: %d done, longest without progress %d ms%n",
                        GROUPS[g], PROGRESS[g].get(), groups.longest(g));
            }
            int worst = readers.worst();
            System.out.printf("each reader: at least %d reads; reader %d went longest without one, %d ms%n",
                    readers.fewest(), worst, readers.longest(worst));
            otherStalls.forEach(System.out::print);
            System.out.println("hand-offs: " + IoHandoffs.total());
            long carriers = IoUringProbe.carriers();
            int parallelism = Integer.getInteger("jdk.virtualThreadScheduler.parallelism");
            System.out.println("carrier threads: " + carriers);
            int bound = parallelism + IoUringProbe.VIRTUAL_MIN_OVERLAP;
            if (expect.carrierRings() && carriers > bound)
                throw new AssertionError(carriers + " carrier threads, more than " + bound
                        + ": with the engine a virtual thread parks in its DIRECT I/O once "
                        + IoUringProbe.VIRTUAL_MIN_OVERLAP + " others are in progress");
            expect.check("after the run");
            if (!engineStalls.isEmpty())
                throw new AssertionError(engineStalls.size() + " readers waited in the engine "
                        + READER_GAP_MILLIS + " ms after their last read; the first:\n" + engineStalls.get(0));
        }
    }

    static String describe(int reader, StackTraceElement[] stack) {
        var sb = new StringBuilder("reader " + reader + ", " + READER_GAP_MILLIS
                + " ms after its last read:\n");
        for (StackTraceElement e : stack)
            sb.append("\tat ").append(e).append('\n');
        return sb.toString();
    }

    // How long each of a set of counters went without a change, sampled
    static final class Gaps {
        final long[] last, lastChange, longest;

        Gaps(int n) {
            last = new long[n];
            lastChange = new long[n];
            longest = new long[n];
            java.util.Arrays.fill(lastChange, System.nanoTime());
        }

        // returns how long counter i has gone without a change, in ms
        long sample(int i, long value, long now) {
            if (value != last[i]) {
                last[i] = value;
                lastChange[i] = now;
            }
            long gap = (now - lastChange[i]) / 1_000_000;
            longest[i] = Math.max(longest[i], gap);
            return gap;
        }

        long longest(int i) {
            return longest[i];
        }

        int worst() {
            int w = 0;
            for (int i = 1; i < longest.length; i++) {
                if (longest[i] > longest[w])
                    w = i;
            }
            return w;
        }

        long fewest() {
            return java.util.Arrays.stream(last).min().orElse(0);
        }
    }

    static Thread start(Runnable task) {
        return Thread.ofVirtual().start(() -> {
            try {
                task.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
    }

    static void read(FileChannel fc, int id) {
        SplittableRandom random = new SplittableRandom(id);
        ByteBuffer buf = Blocks.aligned(SIZE);
        try {
            while (!stop.get()) {
                int b = random.nextInt(BLOCKS);
                Blocks.check(buf, fc.read(Blocks.spoil(buf), (long) b * SIZE), FILE, b, 1);
                PROGRESS[0].incrementAndGet();
                READS.incrementAndGet(id);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // The pair's two threads pass a number back and forth, each adding one:
    // every exchange parks one thread and unparks the other
    static void serve(SynchronousQueue<Long> ping, SynchronousQueue<Long> pong) {
        try {
            for (;;) {
                Long n = ping.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (n == null) {
                    if (stop.get())
                        return;
                    continue;
                }
                pong.put(n + 1);
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static void play(SynchronousQueue<Long> ping, SynchronousQueue<Long> pong) {
        try {
            long n = 0;
            while (!stop.get()) {
                // bounded, as the other side stops polling once told to stop
                if (!ping.offer(n, 100, java.util.concurrent.TimeUnit.MILLISECONDS))
                    continue;
                long m = pong.take();
                if (m != n + 1)
                    throw new AssertionError("sent " + n + ", got back " + m);
                n = m;
                PROGRESS[1].incrementAndGet();
                if (n % HOLD_EVERY == 0)
                    hold();
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    // Keeps the carrier, computing, for longer than the rescuer's period
    static void hold() {
        long end = System.nanoTime() + HOLD_NANOS;
        while (System.nanoTime() < end)
            Thread.onSpinWait();
    }

    static void sleep() {
        try {
            while (!stop.get()) {
                Thread.sleep(1);
                PROGRESS[2].incrementAndGet();
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static void yieldLoop() {
        long x = 0;
        while (!stop.get()) {
            for (int i = 0; i < 1000; i++)
                x += i ^ x;
            Thread.yield();
            PROGRESS[3].incrementAndGet();
        }
        if (x == 42)
            System.out.println(x);      // keeps the loop
    }
}
