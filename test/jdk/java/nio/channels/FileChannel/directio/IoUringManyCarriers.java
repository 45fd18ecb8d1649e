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
 * @summary 256 virtual threads on a scheduler of 64 carriers
 *          (jdk.virtualThreadScheduler.parallelism and maxPoolSize 64, as a
 *          program that sizes its scheduler sets them) do DIRECT positional
 *          writes and reads of blocks of their own through one FileChannel,
 *          with the io_uring engine on and the JVM told of 64 CPUs
 *          (-XX:ActiveProcessorCount=64), so that every carrier may take a
 *          ring: every block read is what its thread last wrote there, byte
 *          for byte, and after the load the whole file read without DIRECT
 *          holds each block's last generation; the process holds at most a
 *          ring per carrier and one more, and prints the hand-offs (the
 *          rescuer's, for carriers the OS kept off the real CPUs); no thread
 *          takes longer than the bound.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -XX:ActiveProcessorCount=64
 *      -Djdk.virtualThreadScheduler.parallelism=64 -Djdk.virtualThreadScheduler.maxPoolSize=64
 *      IoUringManyCarriers
 */

/*
 * @test id=oversubscribed
 * @summary The same on this machine's CPUs: where it has fewer than 64,
 *          the carriers take no rings (a ring keeps its carrier runnable
 *          through the I/O, and 64 runnable carriers would crowd out the
 *          JIT compiler), so the I/O is JDK 25's: the same bytes, no
 *          io_uring descriptor and no hand-off.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.virtualThreadScheduler.parallelism=64 -Djdk.virtualThreadScheduler.maxPoolSize=64
 *      IoUringManyCarriers
 */

/*
 * @test id=off
 * @summary The same with the engine off (JDK 25's paths): the same bytes,
 *          no ring and no hand-off.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false
 *      -Djdk.virtualThreadScheduler.parallelism=64 -Djdk.virtualThreadScheduler.maxPoolSize=64
 *      IoUringManyCarriers
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.sun.nio.file.ExtendedOpenOption;
import sun.nio.ch.IoHandoffs;

import static java.nio.file.StandardOpenOption.*;

public class IoUringManyCarriers {
    static final int SIZE = Blocks.SIZE;
    static final int THREADS = 256;
    static final int REGION = 4;            // blocks per thread
    static final int ROUNDS = 20;           // generations each thread writes
    static final int FILE = 4;              // Blocks' file number
    static final long WAIT = 20;            // seconds, for every thread to end

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation ring = IoUringProbe.expectation();
        System.out.println("engine: " + ring.why() + "; parallelism "
                + System.getProperty("jdk.virtualThreadScheduler.parallelism"));
        Path file = DirectIODir.get().resolve("many-carriers");
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long handoffs = IoHandoffs.total();
        long t0 = System.nanoTime();
        try (FileChannel fc = FileChannel.open(file, CREATE, TRUNCATE_EXISTING, READ, WRITE,
                                               ExtendedOpenOption.DIRECT)) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        region(fc, id);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(WAIT).toNanos();
            for (Thread t : threads) {
                long left = Math.max(1, deadline - System.nanoTime());
                if (!t.join(Duration.ofNanos(left))) {
                    IoUringProbe.dumpThreads("a thread still in its I/O");
                    throw new AssertionError(t + " still running " + WAIT + " s after the start");
                }
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " threads failed; the first is the cause",
                                                      failures.peek());
                failures.stream().skip(1).limit(5).forEach(e::addSuppressed);
                throw e;
            }
            ring.check("after the load");
            // no AsynchronousFileChannel here, so not even the VM's ring
            if (!ring.carrierRings() && !IoUringProbe.ringFds().isEmpty())
                throw new AssertionError("io_uring descriptors " + IoUringProbe.ringFds()
                        + " where carriers should take no ring (" + ring.why() + ")");
        }
        long n = IoHandoffs.total() - handoffs;
        System.out.printf("%d threads, %d DIRECT I/Os in %d ms, %d hand-offs%n", THREADS,
                2L * THREADS * ROUNDS * REGION, (System.nanoTime() - t0) / 1_000_000, n);
        // With the engine on, a rescue is a carrier that the OS kept off
        // its CPU for longer than the rescuer's period, which 64 carriers
        // on 2 CPUs make a matter of chance, so the count is printed
        if (!ring.carrierRings() && n != 0)
            throw new AssertionError(n + " hand-offs counted, with the engine not in use");

        // the file as buffered I/O, which the engine is not on the path of, sees it
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file));
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < REGION; i++) {
                long block = (long) t * REGION + i;
                if (!Blocks.matches(all, (int) block * SIZE, FILE, block, ROUNDS))
                    throw new AssertionError("block " + block + " read buffered holds "
                            + Blocks.describe(all, (int) block * SIZE) + ", not generation " + ROUNDS);
            }
        }
        Files.delete(file);
    }

    // ROUNDS generations of thread id's blocks, each block written and the
    // region then read back in an order of its own, every byte compared
    static void region(FileChannel fc, int id) throws Exception {
        ByteBuffer buf = Blocks.aligned(SIZE);
        SplittableRandom random = new SplittableRandom(id);
        long first = (long) id * REGION;
        for (int gen = 1; gen <= ROUNDS; gen++) {
            for (int i = 0; i < REGION; i++) {
                buf.clear().put(Blocks.of(FILE, first + i, gen)).flip();
                int n = fc.write(buf, (first + i) * SIZE);
                if (n != SIZE)
                    throw new AssertionError("wrote " + n + " bytes of block " + (first + i));
            }
            int start = random.nextInt(REGION);
            for (int k = 0; k < REGION; k++) {
                long block = first + (start + k) % REGION;
                Blocks.check(buf, fc.read(Blocks.spoil(buf), block * SIZE), FILE, block, gen);
            }
        }
    }
}
