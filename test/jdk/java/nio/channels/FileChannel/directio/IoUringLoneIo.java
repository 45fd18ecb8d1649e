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

/*
 * @test id=spare
 * @summary A virtual thread's DIRECT positional read or write with no other
 *          in progress holds its carrier uncompensated where the scheduler
 *          has another: on 2 carriers, a virtual thread writes and reads
 *          500 blocks one at a time (each compared byte for byte) and the
 *          idle carrier is not woken (its context switches, from /proc,
 *          stay under one per 10 I/Os).
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringLoneIo spare
 */

/*
 * @test id=off
 * @summary The same with -Djdk.nio.useIoUring=false: JDK 25 compensates
 *          every such I/O, which wakes the idle carrier, and the test must
 *          see that (at least one switch per 4 I/Os).
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false
 *      -Djdk.virtualThreadScheduler.parallelism=2 IoUringLoneIo spare
 */

/*
 * @test id=single
 * @summary With a single carrier a lone I/O is compensated, as in JDK 25:
 *          a virtual thread that reads blocks back to back without yielding
 *          does not keep a virtual thread started from a platform thread
 *          from running before it stops (it stops once that one has run).
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.virtualThreadScheduler.parallelism=1 IoUringLoneIo single
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

public class IoUringLoneIo {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 64;
    static final int FILE = 9;              // Blocks' file number
    static final int ROUNDS = 500;          // writes and reads of every thread
    static final long WAIT = 10;            // seconds, any bounded wait
    // The kernel's name of the virtual thread scheduler's carriers
    // (ForkJoinPool-1-worker-N), cut to 15 characters
    static final String CARRIER_COMM = "ForkJoinPool-1-";

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine: " + expect.why());
        Path file = Blocks.create(DirectIODir.get().resolve("lone"), FILE, BLOCKS);
        try (FileChannel fc = FileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT)) {
            // loads, on this platform thread, the classes the virtual
            // threads use: a virtual thread that loaded one from the class
            // path would read a file, for which the scheduler adds a carrier
            ByteBuffer buf = Blocks.aligned(SIZE);
            Blocks.check(buf, fc.read(Blocks.spoil(buf), 0), FILE, 0, 1);
            Blocks.describe(buf, 0);
            switch (args[0]) {
                case "spare" -> spare(fc, expect);
                case "single" -> single(fc);
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
    }

    // Writes block b at a new generation and reads it back, one I/O at a time
    static void writeAndRead(FileChannel fc, ByteBuffer buf, int b, long gen) throws Exception {
        buf.clear();
        Blocks.put(buf, FILE, b, 1, gen);
        buf.flip();
        int n = fc.write(buf, (long) b * SIZE);
        if (n != SIZE)
            throw new AssertionError("wrote " + n + " bytes of block " + b + ", not " + SIZE);
        Blocks.check(buf, fc.read(Blocks.spoil(buf), (long) b * SIZE), FILE, b, gen);
    }

    static void spare(FileChannel fc, IoUringProbe.Expectation expect) throws Exception {
        int parallelism = IoUringProbe.parallelism();
        if (parallelism != 2)
            throw new AssertionError("run with -Djdk.virtualThreadScheduler.parallelism=2");
        // starts both carriers; the one the I/O thread does not run on then
        // waits for work
        CountDownLatch both = new CountDownLatch(2);
        List<Thread> starters = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starters.add(Thread.ofVirtual().start(() -> {
                both.countDown();
                try {
                    both.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        for (Thread t : starters) {
            if (!t.join(Duration.ofSeconds(WAIT)))
                throw new AssertionError("2 virtual threads did not both run in " + WAIT + " s");
        }
        if (IoUringProbe.carriers() != parallelism)
            throw new AssertionError("expected " + parallelism + " carriers, found " + IoUringProbe.carriers());

        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] woken = new long[1];
        Thread io = Thread.ofVirtual().start(() -> {
            try {
                ByteBuffer buf = Blocks.aligned(SIZE);
                String carrier = carrierTask();
                long before = otherCarriersSwitches(carrier);
                for (int i = 0; i < ROUNDS; i++)
                    writeAndRead(fc, buf, 1 + i % (BLOCKS - 1), 2 + i);
                woken[0] = otherCarriersSwitches(carrier) - before;
                if (!carrier.equals(carrierTask()))
                    throw new AssertionError("the I/O thread moved to another carrier, so the count"
                            + " of the others' context switches is not the other carrier's");
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        if (!io.join(Duration.ofSeconds(WAIT)))
            throw new AssertionError("the I/O thread still running " + WAIT + " s after its start");
        if (failure.get() != null)
            throw new AssertionError("the I/O thread failed", failure.get());
        int ios = 2 * ROUNDS;
        System.out.println(ROUNDS + " blocks written, read back and compared; the idle carrier switched "
                + woken[0] + " times for " + ios + " I/Os; carriers " + IoUringProbe.carriers());
        if (expect.carrierRings()) {
            // each compensated I/O wakes the idle carrier, which finds nothing and waits again
            if (woken[0] > ios / 10)
                throw new AssertionError("a DIRECT I/O that no other overlaps should hold its carrier"
                        + " uncompensated where the scheduler has others, but the idle carrier was"
                        + " woken " + woken[0] + " times for " + ios + " I/Os");
        } else if (woken[0] < ios / 4) {
            // about 95 % of the I/Os where they sleep in the kernel (ext4);
            // 40 % on tmpfs, where an I/O is a copy that often ends before
            // the woken carrier waits again
            throw new AssertionError("without carrier rings each such I/O is compensated, as in JDK 25,"
                    + " which wakes the idle carrier; it switched only " + woken[0] + " times for "
                    + ios + " I/Os (is compensation still seen by this test?)");
        }
    }

    // The kernel task of the current thread: for a virtual thread, its carrier's
    static String carrierTask() throws Exception {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }

    // The voluntary context switches, so far, of the virtual threads'
    // carriers other than the kernel task named
    static long otherCarriersSwitches(String except) throws Exception {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                if (t.getFileName().toString().equals(except))
                    continue;
                String comm;
                List<String> status;
                try {
                    comm = Files.readString(t.resolve("comm")).strip();
                    status = Files.readAllLines(t.resolve("status"));
                } catch (NoSuchFileException e) {
                    continue;       // the thread ended
                }
                if (!comm.startsWith(CARRIER_COMM))
                    continue;
                for (String line : status) {
                    if (line.startsWith("voluntary_ctxt_switches:"))
                        sum += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        }
        return sum;
    }

    static void single(FileChannel fc) throws Exception {
        if (IoUringProbe.parallelism() != 1)
            throw new AssertionError("run with -Djdk.virtualThreadScheduler.parallelism=1");
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] reads = new long[1];
        // reads until the other virtual thread has run, never yielding
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                ByteBuffer buf = Blocks.aligned(SIZE);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
                reading.countDown();
                while (ran.getCount() > 0) {
                    if (System.nanoTime() - deadline > 0)
                        throw new AssertionError("another virtual thread did not run in " + WAIT
                                + " s while this one read (the only carrier, uncompensated?)");
                    int b = (int) (reads[0]++ % BLOCKS);
                    Blocks.check(buf, fc.read(Blocks.spoil(buf), (long) b * SIZE), FILE, b, 1);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        if (!reading.await(WAIT, TimeUnit.SECONDS))
            throw new AssertionError("the reader did not start in " + WAIT + " s");
        Thread other = Thread.ofVirtual().start(ran::countDown);
        if (!reader.join(Duration.ofSeconds(2 * WAIT)) || !other.join(Duration.ofSeconds(WAIT)))
            throw new AssertionError("the reader or the other virtual thread did not end");
        if (failure.get() != null)
            throw new AssertionError("the reader failed", failure.get());
        System.out.println("the other virtual thread ran while the reader read; blocks read and compared: "
                + reads[0]);
    }
}
