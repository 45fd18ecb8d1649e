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
 * @summary A task queued on a carrier that then blocks must be run by the
 *          other carrier, though that carrier drives DIRECT reads through
 *          its io_uring.  On a scheduler of 2 carriers, 8 virtual threads
 *          (enough for a read to overlap the 4 others that send it to the
 *          ring) read blocks in bursts of 8 (each compared byte for byte)
 *          and sleep 1 ms between bursts, so that the scheduler's timer keeps
 *          a queue of the pool full.  Meanwhile 1,000 rounds run the case
 *          of upstream's java/lang/Thread/virtual/Starvation: a virtual
 *          thread holds a monitor, and starts another that, pinned, blocks
 *          its carrier on entering that monitor; the first is queued on
 *          that carrier.  Each round must end within 1 s: a carrier that
 *          kept to the timer's queue left the first thread there for up to
 *          16 s.  About 1 s.
 * @requires os.family == "linux"
 * @modules java.base/jdk.internal.vm jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks ReaderThreads
 * @run main/othervm
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringStarvation
 */

/*
 * @test id=off
 * @summary The same with the engine off (JDK 25's paths).
 * @requires os.family == "linux"
 * @modules java.base/jdk.internal.vm jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks ReaderThreads
 * @run main/othervm -Djdk.nio.useIoUring=false
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringStarvation
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.internal.vm.Continuation;

import static java.nio.file.StandardOpenOption.*;

public class IoUringStarvation {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 64;
    static final int FILE = 8;                  // Blocks' file number
    static final int READERS = 8;
    static final int BURST = 8;                 // reads between sleeps
    static final int ROUNDS = 1000;
    static final long ROUND_MILLIS = 1000;      // the longest a round may take
    static final long WAIT = 10;                // seconds, any other bounded wait

    static final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    static final AtomicLong reads = new AtomicLong();
    static volatile boolean running = true;

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation ring = IoUringProbe.expectation();
        System.out.println("engine: " + ring.why());
        Path file = Blocks.create(DirectIODir.get().resolve("starvation"), FILE, BLOCKS);

        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            List<Thread> readers = ReaderThreads.start(READERS, failures, seed -> readLoop(fc, seed));
            ReaderThreads.awaitReads(reads, READERS * BURST, failures, WAIT);

            long worst = 0, t0 = System.nanoTime(), before = reads.get();
            for (int i = 1; i <= ROUNDS && failures.isEmpty(); i++) {
                long start = System.nanoTime();
                Thread round = Thread.ofVirtual().start(IoUringStarvation::round);
                if (!round.join(Duration.ofMillis(ROUND_MILLIS))) {
                    IoUringProbe.dumpThreads("round " + i + " still running after " + ROUND_MILLIS + " ms");
                    throw new AssertionError("round " + i + " of " + ROUNDS + " did not end within "
                            + ROUND_MILLIS + " ms: the thread that holds the monitor waits in the"
                            + " queue of the carrier that its pinned thread blocks");
                }
                worst = Math.max(worst, System.nanoTime() - start);
            }
            System.out.printf("%d rounds in %d ms, the longest %.1f ms; %d blocks read meanwhile%n",
                    ROUNDS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), worst / 1e6,
                    reads.get() - before);
            ring.check("after the rounds");

            running = false;
            for (Thread t : readers)
                check(t.join(Duration.ofSeconds(WAIT)), t + " still reading " + WAIT + " s after the stop");
        }
        if (!failures.isEmpty())
            throw new AssertionError("a thread failed", failures.peek());
        Files.delete(file);
    }

    // One round of upstream's Starvation case, on a scheduler of 2 carriers
    static void round() {
        Object lock = new Object();
        Thread blocker;
        try {
            synchronized (lock) {
                CountDownLatch started = new CountDownLatch(1);
                blocker = Thread.ofVirtual().start(() -> {
                    started.countDown();
                    // pinned, so that entering the monitor blocks the carrier
                    Continuation.pin();
                    try {
                        synchronized (lock) { }
                    } finally {
                        Continuation.unpin();
                    }
                });
                started.await();
            }
            blocker.join();
        } catch (Throwable e) {
            failures.add(e);
        }
    }

    static void readLoop(FileChannel fc, int seed) throws IOException, InterruptedException {
        ByteBuffer buf = Blocks.aligned(SIZE);
        SplittableRandom random = new SplittableRandom(seed);
        while (running) {
            for (int i = 0; i < BURST; i++) {
                int b = random.nextInt(BLOCKS);
                Blocks.check(buf, fc.read(Blocks.spoil(buf), (long) b * SIZE), FILE, b, 1);
                reads.incrementAndGet();
            }
            Thread.sleep(1);
        }
    }

    static void check(boolean ok, String message) {
        if (!ok)
            throw new AssertionError(message);
    }
}
