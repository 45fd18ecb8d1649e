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
 * @summary The io_uring engine's count of hand-offs between threads
 *          (sun.nio.ch.IoHandoffs, which make bench-directio reports per
 *          I/O) counts what the engine does: none for platform threads'
 *          DIRECT reads; for AsynchronousFileChannel operations one at a
 *          time, exactly one per operation (the pool thread that reads);
 *          with 64 outstanding, at most a tenth of one per operation on the
 *          default pool, whose handlers the ring's thread runs, and one to
 *          two on a pool of the program's own (to the ring's thread and
 *          from it); for 32 virtual threads, whose carriers reap their own
 *          rings, at most a tenth of one per read (the rescuer's, for a
 *          carrier the OS kept off its CPU).  Every byte read is compared.
 *          Each load's count is read once its hand-offs have all been made:
 *          every completion handler has returned and the engine's rescuers
 *          are parked with nothing to watch, as a rescuer counts a hand-off
 *          after the thread it hands to may already have gone on.  About 3 s.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks ReadChain
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringHandoffs
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.nio.file.ExtendedOpenOption;
import sun.nio.ch.IoHandoffs;

import static java.nio.file.StandardOpenOption.*;

public class IoUringHandoffs {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 256;
    static final int OPS = 200;         // per thread or chain
    static final long WAIT = 10;        // seconds
    static final int FILE = 1;          // Blocks' file number

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation ring = IoUringProbe.expectation();
        System.out.println("engine: " + ring.why());
        Path file = Blocks.create(DirectIODir.get().resolve("handoffs"), FILE, BLOCKS);

        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            long n = count("platform threads", 4 * OPS, () -> threads(fc, 4, false));
            check(n == 0, "platform threads' DIRECT reads made " + n + " hand-offs, not 0");
            n = count("32 virtual threads", 32 * OPS, () -> threads(fc, 32, true));
            check(n <= 32 * OPS / 10, n + " hand-offs for " + 32 * OPS
                  + " reads of virtual threads, more than a tenth of one each");
        }
        // Without the ring (turned off, or denied here) the engine is not
        // in the path and counts nothing.  An operation alone runs on a
        // pool thread, the default pool's or the program's: one hand-off
        // each, exactly.
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (AsynchronousFileChannel afc = AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
             AsynchronousFileChannel own = AsynchronousFileChannel.open(file,
                     Set.of(READ, ExtendedOpenOption.DIRECT), pool)) {
            long one = ring.ring() ? OPS : 0;
            long n = count("1 AFC chain, default pool", OPS, () -> chains(afc, 1));
            check(n == one, n + " hand-offs for " + OPS + " operations one at a time, not " + one);
            n = count("1 AFC chain, own pool", OPS, () -> chains(own, 1));
            check(n == one, n + " hand-offs for " + OPS + " operations one at a time on a pool, not " + one);

            // With others outstanding on the default pool, the ring's
            // thread runs the handlers, and the next operation a handler
            // starts needs no wake-up: the count is the first operations'
            // wake-ups of the ring, and a take-over when the machine delays
            // a completion by more than 2 ms (IoUring.RESCUE_NANOS), so it
            // is bounded by a tenth of an operation each.
            n = count("64 AFC chains, default pool", 64 * OPS, () -> chains(afc, 64));
            long most = ring.ring() ? 64 * OPS / 10 : 0;
            check(n <= most, n + " hand-offs for " + 64 * OPS + " operations 64 at a time"
                  + " on the default pool, more than " + most);

            // A pool of the program's own with many outstanding costs one
            // hand-off per operation, to the pool thread that reads, or two
            // at most: to the ring's thread and from it to the pool.
            n = count("64 AFC chains, own pool", 64 * OPS, () -> chains(own, 64));
            if (ring.ring()) {
                check(n >= 64 * OPS && n <= 2L * 64 * OPS,
                      n + " hand-offs for " + 64 * OPS + " operations 64 at a time on a pool, not 1 to 2 each");
            } else {
                check(n == 0, n + " hand-offs without the engine");
            }
        } finally {
            pool.shutdown();
        }
        Files.delete(file);
    }

    interface Load {
        void run() throws Exception;
    }

    // The hand-offs of a load, counted once it has settled, so that none of
    // its own falls into the next load's count
    static long count(String what, int ops, Load load) throws Exception {
        long before = IoHandoffs.total();
        load.run();
        long ended = IoHandoffs.total();
        settle(what);
        long after = IoHandoffs.total();
        long n = after - before;
        System.out.printf("%s: %d hand-offs for %d I/Os (%.2f each), %d of them counted after the load ended%n",
                          what, n, ops, (double) n / ops, after - ended);
        return n;
    }

    // The engine's threads that count hand-offs of their own, after the
    // thread they hand to can have gone on: the VM ring's rescuer, which
    // counts a take-over once the old owner may be done, and the carrier
    // rings' rescuer, which counts each completion it reaps after the
    // waiting thread can see it done.  Each parks without a deadline once
    // nothing is outstanding, which it can do only after its last count.
    static final Set<String> RESCUERS = Set.of("IoUring-Rescuer", "IoUring-Carrier-Rescuer");

    // Waits until each rescuer that exists is parked without a deadline; a
    // load's I/O is all done when it returns, so none has work left
    static void settle(String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        List<Thread> rescuers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> RESCUERS.contains(t.getName())).toList();
        for (Thread t : rescuers) {
            while (t.getState() != Thread.State.WAITING) {
                check(System.nanoTime() < deadline, what + ": " + t.getName() + " is still " + t.getState()
                      + " " + WAIT + " s after the load's I/O ended");
                Thread.sleep(1);    // polls the rescuer's state: it parks at its next look, 1 or 2 ms on
            }
        }
    }

    static void check(boolean ok, String message) {
        if (!ok)
            throw new AssertionError(message);
    }

    // OPS reads of random blocks by each of count threads, every byte compared
    static void threads(FileChannel fc, int count, boolean virtual) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int seed = t;
            Runnable r = () -> {
                ByteBuffer buf = Blocks.aligned(SIZE);
                SplittableRandom random = new SplittableRandom(seed);
                try {
                    for (int i = 0; i < OPS; i++) {
                        int b = random.nextInt(BLOCKS);
                        Blocks.check(buf, fc.read(buf.clear(), (long) b * SIZE), FILE, b, 1);
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            };
            threads.add(virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r));
        }
        for (Thread t : threads)
            check(t.join(java.time.Duration.ofSeconds(WAIT)), t + " did not finish within " + WAIT + " s");
        if (!failures.isEmpty())
            throw new AssertionError(failures.get(0));
    }

    // count chains of OPS reads, each issued by the completion handler of
    // the last; returns once every handler has returned, as a handler that
    // starts a read counts the ring's wake-up, and the next handlers, the
    // chain's end among them, can run first
    static void chains(AsynchronousFileChannel afc, int count) throws Exception {
        List<CompletableFuture<Long>> ends = new ArrayList<>();
        for (int c = 0; c < count; c++) {
            ReadChain chain = new ReadChain(afc, FILE, BLOCKS, 1000 + c, OPS, false);
            chain.start();
            ends.add(chain.settled());
        }
        CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).get(WAIT, TimeUnit.SECONDS);
    }
}
