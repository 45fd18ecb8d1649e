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
 * @summary A carrier thread that owns an io_uring and ends (the virtual
 *          thread scheduler trims its idle carriers after 30 s) first
 *          drains and closes its ring: 16 virtual threads on 2 carriers
 *          read blocks through the engine, each compared byte for byte,
 *          and leave the process holding no more rings than carriers; once
 *          the scheduler has trimmed every carrier, no ring is left, and
 *          the rescuer's thread is parked; reads after that set up rings
 *          on the new carriers and are correct.  About 35 s, most of it the
 *          scheduler's 30 s keep-alive, which no property shortens.
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm/timeout=180 --enable-native-access=ALL-UNNAMED
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringCarrierRetire
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

public class IoUringCarrierRetire {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 256;
    static final int FILE = 6;              // Blocks' file number
    static final int THREADS = 16;
    static final int READS = 500;           // per thread and round
    static final long WAIT = 20;            // seconds, for the readers
    // The scheduler's keep-alive is 30 s (VirtualThread.createDefaultScheduler),
    // after which it trims one idle carrier, and that one the next; 60 s
    // leaves room for both on a loaded machine
    static final long TRIM_WAIT = 60;

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine: " + expect.why());
        Path file = Blocks.create(DirectIODir.get().resolve("retire"), FILE, BLOCKS);
        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            readAll(fc, 1);
            expect.check("after the first reads");

            // every carrier ends after the keep-alive, and its ring with it
            long deadline = System.nanoTime() + Duration.ofSeconds(TRIM_WAIT).toNanos();
            long t0 = System.nanoTime();
            int carriers;
            while ((carriers = IoUringProbe.carriers()) > 0) {
                int rings = IoUringProbe.ringFds().size();
                if (rings > carriers)
                    throw new AssertionError(rings + " io_uring descriptors with only " + carriers
                            + " carriers alive: a carrier ended without closing its ring");
                if (System.nanoTime() - deadline > 0)
                    throw new AssertionError(carriers + " carriers still alive " + TRIM_WAIT
                            + " s after the reads (the scheduler's keep-alive is 30 s)");
                Thread.sleep(100);      // polls a state the scheduler changes on its own clock
            }
            List<String> rings = IoUringProbe.ringFds();
            System.out.printf("every carrier ended %.1f s after the reads; io_uring descriptors: %s%n",
                    (System.nanoTime() - t0) / 1e9, rings);
            if (!rings.isEmpty())
                throw new AssertionError("carriers ended without closing their rings: " + rings);
            checkRescuerParked();

            // new carriers set up new rings, and read as well
            readAll(fc, 2);
            expect.check("after the reads on new carriers");
        }
    }

    // THREADS virtual threads each read READS random blocks into buffers
    // spoiled first, and compare them
    static void readAll(FileChannel fc, int round) throws Exception {
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long seed = round * 1000L + t;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    SplittableRandom random = new SplittableRandom(seed);
                    ByteBuffer buf = Blocks.aligned(SIZE);
                    for (int i = 0; i < READS; i++) {
                        int b = random.nextInt(BLOCKS);
                        Blocks.check(buf, fc.read(Blocks.spoil(buf), (long) b * SIZE), FILE, b, 1);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            if (!t.join(Duration.ofSeconds(WAIT))) {
                IoUringProbe.dumpThreads("a reader still reading");
                throw new AssertionError(t + " still reading " + WAIT + " s after the start");
            }
        }
        if (!failures.isEmpty())
            throw new AssertionError("round " + round + ": " + failures.size() + " readers failed",
                                     failures.peek());
        System.out.println("round " + round + ": " + THREADS * READS + " blocks read and compared");
    }

    // With no ring left, the rescuer has nothing to look at and must not
    // poll: its thread, if it ever started, parks without a timeout once
    // it has seen that (within its period of 2 ms; 2 s allowed)
    static void checkRescuerParked() throws InterruptedException {
        Thread rescuer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("IoUring-Carrier-Rescuer"))
                .findFirst().orElse(null);
        if (rescuer == null) {
            System.out.println("rescuer: never started");
            return;
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        Thread.State state;
        while ((state = rescuer.getState()) != Thread.State.WAITING) {
            if (System.nanoTime() - deadline > 0)
                throw new AssertionError("the rescuer is " + state + " with no ring left, not WAITING");
            Thread.sleep(10);
        }
        System.out.println("rescuer: " + state);
    }
}
