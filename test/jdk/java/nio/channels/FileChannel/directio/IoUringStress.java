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
 * @summary io_uring stress, the engine on (the default) where the kernel
 *          allows it: 64 virtual threads doing DIRECT positional reads and
 *          writes on one FileChannel, and an AsynchronousFileChannel (DIRECT)
 *          with 256 operations outstanding, for a few seconds; every block
 *          read back is compared byte for byte with what was last written
 *          there, every asynchronous operation completes exactly once, the
 *          virtual threads' scheduler adds at most 4 carriers (their I/O
 *          blocks a carrier only while fewer than 4 others are in
 *          progress; they park in the rest), and the process then holds
 *          io_uring instances: one for the AsynchronousFileChannel and at
 *          most one per carrier (none before the first I/O).  About 6 s.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringStress
 */

/*
 * @test id=off
 * @summary The same load with -Djdk.nio.useIoUring=false: JDK 25's paths
 *          (pread and pwrite, a pool thread per asynchronous operation) move
 *          the same bytes, and the process holds no io_uring instance.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false IoUringStress
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;

/**
 * Proves that direct I/O through the io_uring engine, from many virtual
 * threads at once and from an AsynchronousFileChannel with a deep queue,
 * neither loses nor corrupts nor misplaces data, and loses no completion;
 * and, in its second run, that the engine's switch turns it off with the
 * same results.
 *
 * <p> Each thread and each asynchronous "chain" (one operation outstanding
 * at a time, 256 chains) owns its own blocks, so it always knows the
 * generation each of its blocks should hold: it writes runs of 1 to 8
 * blocks with a new generation, reads runs back and compares every byte
 * with {@link Blocks#of}.  Heap and direct buffers alternate (a heap buffer
 * goes through the JDK's temporary direct buffer).  Two platform threads do
 * the same on the same channel (they keep pread and pwrite).  After the
 * timed phase every block of both files is read again, with DIRECT through
 * the engine and then with buffered I/O, which does not go through it, and
 * compared.  Every asynchronous operation is counted when it is issued and
 * when its handler runs; a second run of a handler for the same operation
 * is a failure, as is any operation without one 30 s after the timed phase.
 *
 * <p> The engine is expected to hold io_uring descriptors after the I/O
 * when it is not turned off and io_uring_setup works in this process
 * (IoUringProbe), none otherwise, and none before the first direct I/O in
 * either case.  Where the engine is in use, the virtual threads' scheduler
 * must have added at most IoUringProbe.VIRTUAL_MIN_OVERLAP carriers: a
 * virtual thread that holds its carrier during a DIRECT read or write (as
 * pread does) makes it add one, and 64 of them add dozens (43 to 65
 * carriers on 2 cores with the engine off).  With the engine such an I/O
 * goes to the carrier's ring, and the virtual thread parks, once that many
 * others are in progress.
 * -Drdio.iouring.seconds=N changes the timed phase (4 s).
 */
public class IoUringStress {

    static final long SECONDS = Long.getLong("rdio.iouring.seconds", 4);
    static final long WAIT = 30;                  // seconds, any bounded wait
    static final int SIZE = Blocks.SIZE;
    static final int MAX_RUN = 8;                 // blocks per read or write

    // FileChannel: one region of REGION blocks per thread
    static final int VIRTUAL = 64, PLATFORM = 2, REGION = 32;
    static final int FC_FILE = 1;

    // AsynchronousFileChannel: one region of SLOT blocks per chain
    static final int OUTSTANDING = 256, SLOT = 8;
    static final int AFC_FILE = 2;

    static final AtomicLong mismatches = new AtomicLong();
    static final AtomicLong errors = new AtomicLong();
    static final ConcurrentLinkedQueue<String> messages = new ConcurrentLinkedQueue<>();

    static long deadline;

    // A block that differs from what was written, or an operation that failed
    static void mismatch(String what) {
        if (mismatches.incrementAndGet() <= 20)
            messages.add(what);
    }

    static void error(String what, Throwable t) {
        if (errors.incrementAndGet() <= 20)
            messages.add(what + ": " + t);
        if (errors.get() == 1)
            t.printStackTrace(System.out);
    }

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        List<String> before = IoUringProbe.ringFds();
        if (!before.isEmpty())
            throw new AssertionError("io_uring descriptors before any direct I/O (the engine should set"
                                     + " up its ring on first use): " + before);
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine expected " + (expect.ring() ? "on" : "off") + ": " + expect.why());

        Path fcFile = dir.resolve("stress-fc.bin");
        Path afcFile = dir.resolve("stress-afc.bin");
        for (Path f : List.of(fcFile, afcFile)) {
            Files.deleteIfExists(f);
            Files.createFile(f);
        }
        DirectIO.Alignment a = DirectIO.alignment(fcFile);
        System.out.println("alignment " + a);
        if (SIZE % a.offset() != 0 || SIZE % a.memory() != 0)
            throw new AssertionError("blocks of " + SIZE + " bytes cannot be DIRECT transfers here: " + a);

        // Loads the classes the virtual threads use: a virtual thread that
        // loaded one from the class path would read a file, for which the
        // scheduler adds a carrier
        Blocks.describe(ByteBuffer.wrap(Blocks.of(0, 0, 0)), 0);

        long start = System.nanoTime();
        deadline = start + TimeUnit.SECONDS.toNanos(SECONDS);
        Workers workers = null;
        Chains chains = null;
        FileChannel fc = FileChannel.open(fcFile, READ, WRITE, ExtendedOpenOption.DIRECT);
        AsynchronousFileChannel afc = AsynchronousFileChannel.open(afcFile, READ, WRITE, ExtendedOpenOption.DIRECT);
        boolean passed = false;
        try {
            chains = new Chains(afc);
            chains.start();
            workers = new Workers(fc);
            workers.start();
            workers.await();
            chains.await();
            System.out.printf("timed phase: %.1f s%n", (System.nanoTime() - start) / 1e9);
            workers.report();
            chains.report();
            // Measured while the 64 virtual threads' carriers are alive
            // (the scheduler keeps an added carrier for 30 s)
            long carriers = IoUringProbe.carriers();
            int parallelism = IoUringProbe.parallelism();
            System.out.println("carrier threads of virtual threads: " + carriers + " (parallelism " + parallelism + ")");
            int bound = parallelism + IoUringProbe.VIRTUAL_MIN_OVERLAP;
            if (expect.carrierRings() && carriers > bound)
                throw new AssertionError("with the io_uring engine a virtual thread parks during its DIRECT"
                        + " I/O once " + IoUringProbe.VIRTUAL_MIN_OVERLAP + " others are in progress, so the"
                        + " scheduler needs at most " + bound + " carriers (its parallelism " + parallelism
                        + " and one per I/O that blocks its carrier); it has " + carriers);

            // Every block of both files, through the engine
            verifyFileChannel(fc, workers);
            verifyAsync(afc, chains);
            passed = true;
        } finally {
            if (!passed)
                messages.forEach(m -> System.out.println("  " + m));
            // a channel's close waits for its I/O, which may be what failed
            close(afc, "the AsynchronousFileChannel", passed);
            close(fc, "the FileChannel", passed);
        }
        // and once more without it
        verifyBuffered(fcFile, FC_FILE, workers.gens(), "FileChannel file, buffered read");
        verifyBuffered(afcFile, AFC_FILE, chains.gens(), "asynchronous file, buffered read");

        messages.forEach(m -> System.out.println("  " + m));
        if (mismatches.get() != 0 || errors.get() != 0)
            throw new AssertionError(mismatches.get() + " blocks differed from what was written there and "
                                     + errors.get() + " operations failed; the first are listed above");
        expect.check("after the I/O");
        System.out.printf("passed in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    // Closes c within WAIT seconds, or fails (or, after a failure, says so)
    static void close(java.io.Closeable c, String what, boolean fail) throws InterruptedException {
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                c.close();
            } catch (IOException e) {
                error("close of " + what, e);
            }
        });
        long wait = fail ? WAIT : 5;     // after a failure, only long enough to say so
        if (!t.join(java.time.Duration.ofSeconds(wait))) {
            IoUringProbe.dumpThreads("close of " + what);
            String m = "the close of " + what + " did not return within " + wait + " s";
            if (fail)
                throw new AssertionError(m);
            System.out.println(m);
        }
    }

    // -- FileChannel: 64 virtual and 2 platform threads ------------------------------

    static final class Workers {
        final FileChannel fc;
        final Worker[] all = new Worker[VIRTUAL + PLATFORM];
        final CountDownLatch done = new CountDownLatch(all.length);

        Workers(FileChannel fc) {
            this.fc = fc;
        }

        void start() {
            for (int w = 0; w < all.length; w++) {
                Worker worker = all[w] = new Worker(this, w, w < VIRTUAL);
                (worker.virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon())
                        .name("worker-" + w).start(worker);
            }
        }

        void await() throws InterruptedException {
            if (!done.await(WAIT + SECONDS, TimeUnit.SECONDS)) {
                StringBuilder sb = new StringBuilder();
                for (Worker w : all)
                    if (!w.finished)
                        sb.append("\n  worker-").append(w.index).append(w.virtual ? " (virtual): " : " (platform): ")
                          .append(w.doing);
                IoUringProbe.dumpThreads("FileChannel workers did not finish");
                throw new AssertionError(done.getCount() + " FileChannel threads did not finish within "
                                         + (WAIT + SECONDS) + " s; each was:" + sb);
            }
        }

        void report() {
            long v = 0, p = 0, bytes = 0;
            for (Worker w : all) {
                if (w.virtual) v += w.ops; else p += w.ops;
                bytes += w.bytes;
            }
            System.out.printf("FileChannel: %d operations on %d virtual threads, %d on %d platform threads, %d MiB%n",
                              v, VIRTUAL, p, PLATFORM, bytes >> 20);
        }

        long[] gens() {
            long[] g = new long[all.length * REGION];
            for (Worker w : all)
                System.arraycopy(w.gen, 0, g, w.index * REGION, REGION);
            return g;
        }
    }

    static final class Worker implements Runnable {
        final Workers workers;
        final int index;
        final boolean virtual;
        final long first;                         // its first block
        final long[] gen = new long[REGION];      // what each of its blocks holds
        long ops, bytes;
        volatile String doing = "starting";
        volatile boolean finished;

        Worker(Workers workers, int index, boolean virtual) {
            this.workers = workers;
            this.index = index;
            this.virtual = virtual;
            this.first = (long) index * REGION;
        }

        public void run() {
            try {
                SplittableRandom rnd = new SplittableRandom(index * 7919L + 1);
                ByteBuffer direct = Blocks.aligned(REGION * SIZE);
                ByteBuffer heap = ByteBuffer.allocate(REGION * SIZE);
                write(0, REGION, direct);
                while (System.nanoTime() < deadline && errors.get() == 0) {
                    int start = rnd.nextInt(REGION);
                    int len = rnd.nextInt(1, Math.min(MAX_RUN, REGION - start) + 1);
                    ByteBuffer buf = rnd.nextBoolean() ? direct : heap;
                    if (rnd.nextBoolean()) {
                        write(start, len, buf);
                    } else {
                        read(start, len, buf);
                    }
                }
                read(0, REGION, direct);
                doing = "done";
            } catch (Throwable t) {
                error("worker-" + index + (virtual ? " (virtual)" : " (platform)") + " " + doing, t);
            } finally {
                finished = true;
                workers.done.countDown();
            }
        }

        void write(int start, int len, ByteBuffer buf) throws IOException {
            buf.clear().limit(len * SIZE);
            for (int i = start; i < start + len; i++)
                Blocks.put(buf, FC_FILE, first + i, 1, ++gen[i]);
            buf.flip();
            long pos = (first + start) * SIZE;
            doing = "writing blocks " + (first + start) + "+" + len + (buf.isDirect() ? " from a direct buffer" : " from a heap buffer");
            while (buf.hasRemaining()) {
                int n = workers.fc.write(buf, pos + buf.position());
                if (n <= 0)
                    throw new AssertionError("write returned " + n);
            }
            ops++;
            bytes += len * SIZE;
        }

        void read(int start, int len, ByteBuffer buf) throws IOException {
            buf.clear().limit(len * SIZE);
            long pos = (first + start) * SIZE;
            doing = "reading blocks " + (first + start) + "+" + len + (buf.isDirect() ? " into a direct buffer" : " into a heap buffer");
            while (buf.hasRemaining()) {
                int n = workers.fc.read(buf, pos + buf.position());
                if (n <= 0)
                    throw new AssertionError("read returned " + n + " at " + (pos + buf.position())
                                             + " (the file is " + workers.fc.size() + " bytes)");
            }
            ops++;
            bytes += len * SIZE;
            for (int i = 0; i < len; i++) {
                long b = first + start + i;
                if (!Blocks.matches(buf, i * SIZE, FC_FILE, b, gen[start + i]))
                    mismatch("FileChannel read on worker-" + index + (virtual ? " (virtual)" : " (platform)")
                             + (buf.isDirect() ? ", direct" : ", heap") + " buffer: block " + b
                             + " should be generation " + gen[start + i] + ", it holds " + Blocks.describe(buf, i * SIZE));
            }
        }
    }

    // -- AsynchronousFileChannel: 256 operations outstanding -------------------------

    /** One read or write, counted once issued until its handler runs once. */
    static final class Op {
        final long id;
        final Chain chain;
        final boolean write;
        final int start, len;                     // blocks of the chain's region
        final ByteBuffer buf;
        final AtomicBoolean completed = new AtomicBoolean();

        Op(long id, Chain chain, boolean write, int start, int len, ByteBuffer buf) {
            this.id = id;
            this.chain = chain;
            this.write = write;
            this.start = start;
            this.len = len;
            this.buf = buf;
        }

        long position() {
            return (chain.first + start) * SIZE + buf.position();
        }

        public String toString() {
            return "op " + id + " of chain " + chain.index + ": " + (write ? "write" : "read") + " of blocks "
                   + (chain.first + start) + "+" + len + (buf.isDirect() ? ", direct" : ", heap") + " buffer";
        }
    }

    static final class Chains {
        final AsynchronousFileChannel afc;
        final Chain[] all = new Chain[OUTSTANDING];
        final CountDownLatch done = new CountDownLatch(OUTSTANDING);
        final AtomicLong ids = new AtomicLong();
        final AtomicLong issued = new AtomicLong();
        final AtomicLong completions = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final AtomicInteger outstanding = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final Set<Op> inFlight = ConcurrentHashMap.newKeySet();

        Chains(AsynchronousFileChannel afc) {
            this.afc = afc;
        }

        void start() {
            for (int s = 0; s < OUTSTANDING; s++)
                all[s] = new Chain(this, s);
            for (Chain c : all)
                c.next();
        }

        void await() throws InterruptedException {
            if (!done.await(WAIT + SECONDS, TimeUnit.SECONDS)) {
                IoUringProbe.dumpThreads("asynchronous operations outstanding");
                StringBuilder sb = new StringBuilder();
                inFlight.stream().limit(10).forEach(op -> sb.append("\n  ").append(op));
                throw new AssertionError("lost completions: " + done.getCount() + " of " + OUTSTANDING
                        + " chains still wait for an operation " + (WAIT + SECONDS) + " s after the start; issued "
                        + issued + ", completed " + completions + "; some outstanding:" + sb);
            }
            if (issued.get() != completions.get() || duplicates.get() != 0 || !inFlight.isEmpty())
                throw new AssertionError("asynchronous operations issued " + issued + ", completed "
                        + completions + " (" + duplicates + " completed twice), without completion " + inFlight);
        }

        void report() {
            long writes = 0, reads = 0;
            for (Chain c : all) {
                writes += c.writes;
                reads += c.reads;
            }
            System.out.printf("AsynchronousFileChannel: %d operations issued, %d completed once, none twice"
                              + " (%d writes, %d reads), at most %d outstanding%n",
                              issued.get(), completions.get(), writes, reads, peak.get());
        }

        long[] gens() {
            long[] g = new long[OUTSTANDING * SLOT];
            for (Chain c : all)
                System.arraycopy(c.gen, 0, g, c.index * SLOT, SLOT);
            return g;
        }
    }

    /**
     * Reads and writes its own blocks, one operation at a time, each issued
     * from the handler of the one before.
     */
    static final class Chain implements CompletionHandler<Integer, Op> {
        final Chains chains;
        final int index;
        final long first;
        final long[] gen = new long[SLOT];
        final SplittableRandom rnd;
        final ByteBuffer direct = Blocks.aligned(SLOT * SIZE);
        final ByteBuffer heap = ByteBuffer.allocate(SLOT * SIZE);
        boolean started;
        long writes, reads;

        Chain(Chains chains, int index) {
            this.chains = chains;
            this.index = index;
            this.first = (long) index * SLOT;
            this.rnd = new SplittableRandom(index * 104729L + 3);
        }

        // Issues the next operation, or ends the chain
        void next() {
            if (started && (System.nanoTime() >= deadline || errors.get() != 0)) {
                chains.done.countDown();
                return;
            }
            ByteBuffer buf = rnd.nextBoolean() ? direct : heap;
            int start = 0, len = SLOT;
            boolean write = !started || rnd.nextBoolean();
            if (started) {
                start = rnd.nextInt(SLOT);
                len = rnd.nextInt(1, Math.min(MAX_RUN, SLOT - start) + 1);
            }
            started = true;
            buf.clear().limit(len * SIZE);
            if (write) {
                for (int i = start; i < start + len; i++)
                    Blocks.put(buf, AFC_FILE, first + i, 1, ++gen[i]);
                buf.flip();
            }
            issue(new Op(chains.ids.incrementAndGet(), this, write, start, len, buf));
        }

        void issue(Op op) {
            chains.inFlight.add(op);
            chains.issued.incrementAndGet();
            chains.peak.accumulateAndGet(chains.outstanding.incrementAndGet(), Math::max);
            try {
                if (op.write) {
                    chains.afc.write(op.buf, op.position(), op, this);
                } else {
                    chains.afc.read(op.buf, op.position(), op, this);
                }
            } catch (Throwable t) {
                error(op + " could not be issued", t);
                chains.issued.decrementAndGet();
                chains.outstanding.decrementAndGet();
                chains.inFlight.remove(op);
                chains.done.countDown();
            }
        }

        // Counts the completion; false for a second one
        private boolean once(Op op) {
            if (!op.completed.compareAndSet(false, true)) {
                chains.duplicates.incrementAndGet();
                error(op + " completed twice", new AssertionError("second completion"));
                return false;
            }
            chains.completions.incrementAndGet();
            chains.outstanding.decrementAndGet();
            chains.inFlight.remove(op);
            return true;
        }

        @Override
        public void completed(Integer n, Op op) {
            if (!once(op))
                return;
            try {
                if (n <= 0) {
                    error(op.toString(), new AssertionError("completed with " + n));
                    chains.done.countDown();
                    return;
                }
                if (op.buf.hasRemaining()) {        // short: the rest as an operation of its own
                    issue(new Op(chains.ids.incrementAndGet(), this, op.write, op.start, op.len, op.buf));
                    return;
                }
                if (op.write) {
                    writes++;
                } else {
                    reads++;
                    for (int i = 0; i < op.len; i++) {
                        long b = first + op.start + i;
                        if (!Blocks.matches(op.buf, i * SIZE, AFC_FILE, b, gen[op.start + i]))
                            mismatch("AsynchronousFileChannel " + op + ": block " + b + " should be generation "
                                     + gen[op.start + i] + ", it holds " + Blocks.describe(op.buf, i * SIZE));
                    }
                }
            } catch (Throwable t) {
                error(op.toString(), t);
                chains.done.countDown();
                return;
            }
            next();
        }

        @Override
        public void failed(Throwable t, Op op) {
            if (once(op)) {
                error(op + " failed", t);
                chains.done.countDown();
            }
        }
    }

    // -- Read-back of whole files ---------------------------------------------------

    // With DIRECT on a virtual thread, through the engine
    static void verifyFileChannel(FileChannel fc, Workers workers) throws Exception {
        long[] gens = workers.gens();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                ByteBuffer buf = Blocks.aligned(REGION * SIZE);
                for (int r = 0; r < gens.length / REGION; r++) {
                    buf.clear();
                    long pos = (long) r * REGION * SIZE;
                    while (buf.hasRemaining())
                        if (fc.read(buf, pos + buf.position()) <= 0)
                            throw new AssertionError("end of file at " + (pos + buf.position()));
                    check(buf, FC_FILE, (long) r * REGION, gens, "FileChannel file, DIRECT read on a virtual thread");
                }
            } catch (Throwable e) {
                error("DIRECT read-back of the FileChannel file", e);
            }
        });
        if (!t.join(java.time.Duration.ofSeconds(WAIT))) {
            IoUringProbe.dumpThreads("read-back");
            throw new AssertionError("the DIRECT read-back of the FileChannel file did not end within " + WAIT + " s");
        }
    }

    // 256 reads outstanding at once, each awaited through its Future
    static void verifyAsync(AsynchronousFileChannel afc, Chains chains) throws Exception {
        long[] gens = chains.gens();
        List<Future<Integer>> futures = new ArrayList<>();
        List<ByteBuffer> bufs = new ArrayList<>();
        for (int s = 0; s < OUTSTANDING; s++) {
            ByteBuffer buf = (s % 2 == 0) ? Blocks.aligned(SLOT * SIZE) : ByteBuffer.allocate(SLOT * SIZE);
            bufs.add(buf);
            futures.add(afc.read(buf, (long) s * SLOT * SIZE));
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        for (int s = 0; s < OUTSTANDING; s++) {
            int n;
            try {
                n = futures.get(s).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                IoUringProbe.dumpThreads("Future of a read-back");
                throw new AssertionError("read-back " + s + " of " + OUTSTANDING + " (a Future) did not complete within "
                                         + WAIT + " s");
            }
            if (n != SLOT * SIZE)
                throw new AssertionError("read-back of chain " + s + "'s " + SLOT * SIZE + " bytes returned " + n);
            check(bufs.get(s), AFC_FILE, (long) s * SLOT, gens, "asynchronous file, DIRECT read through a Future");
        }
    }

    static void verifyBuffered(Path file, int id, long[] gens, String how) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length != gens.length * SIZE)
            throw new AssertionError(how + ": the file is " + all.length + " bytes, not " + (long) gens.length * SIZE);
        check(ByteBuffer.wrap(all), id, 0, gens, how);
    }

    // The blocks in buf (from index 0) are blocks first, first + 1, ... at gens[block]
    static void check(ByteBuffer buf, int id, long first, long[] gens, String how) {
        int count = buf.capacity() / SIZE;
        for (int i = 0; i < count; i++) {
            long b = first + i;
            if (!Blocks.matches(buf, i * SIZE, id, b, gens[(int) b]))
                mismatch(how + ": block " + b + " should be generation " + gens[(int) b] + ", it holds "
                         + Blocks.describe(buf, i * SIZE));
        }
    }
}
