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
 * @summary io_uring engine on (where the kernel allows it): close and
 *          interrupt racing with outstanding DIRECT I/O.  An
 *          AsynchronousFileChannel closed with 256 operations outstanding
 *          completes each exactly once, with its result or
 *          AsynchronousCloseException, and its completed reads hold the
 *          right bytes; a virtual thread interrupted in a FileChannel read or
 *          write gets ClosedByInterruptException and closes the channel, the
 *          other threads get AsynchronousCloseException or
 *          ClosedChannelException; a channel closed while virtual threads
 *          read ends them the same way; and what was written before the
 *          close reads back intact.  Fresh file and channel each round, 300
 *          rounds or 5 s per case; about 10 s.  A wait fails once the
 *          process's I/O has made no progress for 10 s, unless that I/O is
 *          in the kernel while the disks work (a busy, shared disk), saying
 *          whether the engine lost a completion or the device is stuck.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks IoProgress
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringCloseInterrupt
 */

/*
 * @test id=off
 * @summary The same races with -Djdk.nio.useIoUring=false, which turns the
 *          engine off (JDK 25's paths).
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks IoProgress
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false IoUringCloseInterrupt
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

/**
 * Proves that closing a DIRECT channel, or interrupting a virtual thread in
 * its I/O, while reads and writes are in flight (queued to io_uring, or in
 * pread and pwrite with the engine off) neither hangs nor loses, doubles or
 * corrupts anything, and that each operation ends as the channel's
 * specification says:
 *
 * <ul>
 * <li> asynchronous close: 256 reads and writes, half awaited through
 *      Futures and half through CompletionHandlers, then a close, from a
 *      platform thread, a virtual thread, or the handler of the last
 *      operation issued (with the channel's default pool, and with a pool
 *      of its own of two threads, which a close that waited for its
 *      handlers would deadlock).  Each operation completes exactly once,
 *      with the full block or AsynchronousCloseException;
 *      each read that completed holds its block's bytes; afterwards each
 *      block written holds the new bytes if its write completed, and the
 *      old or the new ones if it was closed.
 * <li> interrupt: 8 virtual threads reading and writing runs of up to 16
 *      blocks of their own, one interrupted: it gets
 *      ClosedByInterruptException with its interrupt status set, the
 *      channel is closed, each other thread gets AsynchronousCloseException
 *      or ClosedChannelException (never ClosedByInterruptException).
 * <li> close: the file written with DIRECT on the channel, then 6 virtual
 *      threads reading (and comparing) and 2 writing while another thread,
 *      platform or virtual, closes the channel: each ends with
 *      AsynchronousCloseException or ClosedChannelException, and the
 *      readers' blocks then hold exactly what was written before the close.
 * </ul>
 * After each round, the file is read with buffered I/O and every block
 * compared; each block written around the close or interrupt holds the
 * last generation written before it or the one in flight, whole.  Every
 * wait for I/O is bounded by its progress ({@link IoProgress}): on a disk
 * that another process keeps busy, a journaled write can wait for seconds
 * in the kernel, and that is no stall of the engine.  Each case
 * runs 300 rounds, or as many as fit in 5 s (-Drdio.iouring.seconds=N).  The
 * process holds io_uring descriptors afterwards where the engine should be
 * in use, one for AsynchronousFileChannels and at most one per carrier,
 * none otherwise (IoUringProbe).
 */
public class IoUringCloseInterrupt {
    static final long SECONDS = Long.getLong("rdio.iouring.seconds", 5);
    static final int MAX_ROUNDS = 300;
    static final int SIZE = Blocks.SIZE;

    static Path dir;

    public static void main(String[] args) throws Exception {
        dir = DirectIODir.get();
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine expected " + (expect.ring() ? "on" : "off") + ": " + expect.why());
        long start = System.nanoTime();
        asyncClose();
        interrupt();
        closeWhileReading();
        expect.check("after the rounds");
        System.out.printf("passed in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    static long end() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
    }

    static void join(Thread t, String what) throws Exception {
        IoProgress.await(what, n -> t.join(Duration.ofNanos(n)), null,
                         () -> t + " has not ended; its stack is in the thread dump above");
    }

    // A file of blocks 0 to count - 1 of file id at generation 1, written with buffered I/O
    static Path blocksFile(String name, int id, int count) throws IOException {
        Path f = dir.resolve(name);
        byte[] all = new byte[count * SIZE];
        for (int b = 0; b < count; b++)
            System.arraycopy(Blocks.of(id, b, 1), 0, all, b * SIZE, SIZE);
        Files.write(f, all);
        return f;
    }

    // The blocks of the file, read with buffered I/O
    static ByteBuffer contents(Path f) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(f));
    }

    // -- (a) AsynchronousFileChannel closed with 256 operations outstanding ---------

    static final int OPS = 256;

    // Whether operation i is awaited through a CompletionHandler, else a Future
    static boolean viaHandler(int i) {
        return i % 4 >= 2 || i == OPS;
    }

    static void asyncClose() throws Exception {
        long end = end();
        int rounds = 0, done = 0, closed = 0;
        int[] byMode = new int[4];
        ExecutorService pool = null;
        for (; rounds < MAX_ROUNDS && System.nanoTime() < end; rounds++) {
            int mode = rounds % 4;
            // operation i reads block i if i is even, and writes generation 2 there if i is odd
            Path f = blocksFile("async-close-" + rounds + ".bin", rounds, OPS + 1);
            Set<OpenOption> options = Set.of(READ, WRITE, ExtendedOpenOption.DIRECT);
            if (mode == 3)
                pool = Executors.newFixedThreadPool(2);
            AsynchronousFileChannel ch = (mode == 3) ? AsynchronousFileChannel.open(f, options, pool)
                                                     : AsynchronousFileChannel.open(f, options.toArray(new OpenOption[0]));
            String how = switch (mode) {
                case 0 -> "closed by a platform thread";
                case 1 -> "closed by a virtual thread";
                case 2 -> "closed in the handler of the last operation issued";
                default -> "closed in the handler of the last operation issued, with a pool of 2 threads";
            };
            String round = "round " + rounds + " (" + how + ")";

            AtomicReferenceArray<Object> outcome = new AtomicReferenceArray<>(OPS + 1);
            AtomicInteger[] calls = new AtomicInteger[OPS + 1];
            CountDownLatch handled = new CountDownLatch(
                    (int) java.util.stream.IntStream.rangeClosed(0, OPS).filter(i -> viaHandler(i)).count());
            CountDownLatch closing = new CountDownLatch(1);
            Throwable[] closeFailure = new Throwable[1];
            @SuppressWarnings("unchecked")
            Future<Integer>[] futures = new Future[OPS + 1];
            ByteBuffer[] bufs = new ByteBuffer[OPS + 1];
            CompletionHandler<Integer, Integer> handler = new CompletionHandler<Integer, Integer>() {
                public void completed(Integer n, Integer i) { end(i, n); }
                public void failed(Throwable t, Integer i) { end(i, t); }
                void end(int i, Object result) {
                    if (calls[i].incrementAndGet() == 1) {
                        outcome.set(i, result);
                        if (i == OPS && mode >= 2) {
                            try {
                                ch.close();
                            } catch (Throwable t) {
                                closeFailure[0] = t;
                            }
                            closing.countDown();
                        }
                        handled.countDown();
                    }
                }
            };
            // the last one (OPS) is a read through a handler
            for (int i = 0; i <= OPS; i++) {
                calls[i] = new AtomicInteger();
                boolean write = i % 2 == 1;
                boolean viaHandler = viaHandler(i);
                ByteBuffer buf = bufs[i] = (i % 3 == 0) ? ByteBuffer.allocate(SIZE) : Blocks.aligned(SIZE);
                long block = i;
                if (write)
                    buf.put(Blocks.of(rounds, block, 2)).flip();
                if (viaHandler) {
                    if (write)
                        ch.write(buf, block * SIZE, i, handler);
                    else
                        ch.read(buf, block * SIZE, i, handler);
                } else {
                    futures[i] = write ? ch.write(buf, block * SIZE) : ch.read(buf, block * SIZE);
                }
            }
            if (mode < 2) {
                Thread closer = (mode == 0 ? Thread.ofPlatform().daemon() : Thread.ofVirtual()).start(() -> {
                    try {
                        ch.close();
                    } catch (Throwable t) {
                        closeFailure[0] = t;
                    }
                    closing.countDown();
                });
                join(closer, round + ": close");
            } else {
                IoProgress.await(round + ": the close in the handler",
                                 n -> closing.await(n, TimeUnit.NANOSECONDS), null, null);
            }
            if (closeFailure[0] != null)
                throw new AssertionError(round + ": close failed", closeFailure[0]);
            if (ch.isOpen())
                throw new AssertionError(round + ": the channel is open after its close");

            // Every operation ends, exactly once
            LongSupplier ended = () -> handled.getCount() + java.util.Arrays.stream(futures)
                    .filter(fu -> fu != null && !fu.isDone()).count();
            IoProgress.await(round + ": every operation's Future", n -> {
                for (Future<Integer> fu : futures) {
                    if (fu == null || fu.isDone())
                        continue;
                    try {
                        fu.get(n, TimeUnit.NANOSECONDS);
                    } catch (ExecutionException e) {
                        // its outcome, taken below
                    } catch (TimeoutException e) {
                        return false;
                    }
                }
                return true;
            }, ended, () -> {
                List<Integer> missing = new ArrayList<>();
                for (int i = 0; i <= OPS; i++)
                    if (futures[i] != null && !futures[i].isDone())
                        missing.add(i);
                return "the Futures of operations " + missing + " are not done";
            });
            for (int i = 0; i <= OPS; i++) {
                if (futures[i] == null)
                    continue;
                try {
                    outcome.set(i, futures[i].get());
                } catch (ExecutionException e) {
                    outcome.set(i, e.getCause());
                }
            }
            IoProgress.await(round + ": every handler", n -> handled.await(n, TimeUnit.NANOSECONDS), ended, () -> {
                List<Integer> missing = new ArrayList<>();
                for (int i = 0; i <= OPS; i++)
                    if (futures[i] == null && calls[i].get() == 0)
                        missing.add(i);
                return "the handlers of operations " + missing + " have not run";
            });
            if (mode == 3) {
                pool.shutdown();
                ExecutorService p = pool;
                IoProgress.await(round + ": the channel's pool to terminate",
                                 n -> p.awaitTermination(n, TimeUnit.NANOSECONDS), null, null);
            }

            // Results, or AsynchronousCloseException; reads hold their bytes
            ByteBuffer file = contents(f);
            for (int i = 0; i <= OPS; i++) {
                boolean write = i % 2 == 1;
                long block = i;
                String op = round + ": operation " + i + " (" + (write ? "write" : "read") + " of block " + block
                            + " through a " + (futures[i] != null ? "Future" : "CompletionHandler") + ")";
                if (futures[i] == null && calls[i].get() != 1)
                    throw new AssertionError(op + " completed " + calls[i].get() + " times");
                Object r = outcome.get(i);
                if (r instanceof Integer n) {
                    if (n != SIZE)
                        throw new AssertionError(op + " completed with " + n + ", not " + SIZE);
                    done++;
                    if (!write && !Blocks.matches(bufs[i], 0, rounds, block, 1))
                        throw new AssertionError(op + " completed, but it read " + Blocks.describe(bufs[i], 0)
                                                 + ", not generation 1");
                    if (write && !Blocks.matches(file, (int) block * SIZE, rounds, block, 2))
                        throw new AssertionError(op + " completed, but the block holds "
                                                 + Blocks.describe(file, (int) block * SIZE) + ", not generation 2");
                } else if (r instanceof AsynchronousCloseException) {
                    closed++;
                    if (write && !Blocks.matches(file, (int) block * SIZE, rounds, block, 1)
                              && !Blocks.matches(file, (int) block * SIZE, rounds, block, 2))
                        throw new AssertionError(op + " was closed, and the block holds "
                                                 + Blocks.describe(file, (int) block * SIZE)
                                                 + ", neither generation 1 nor 2");
                } else {
                    if (r instanceof Throwable t)
                        t.printStackTrace(System.out);
                    throw new AssertionError(op + " ended with " + r + ", neither its result nor"
                                             + " AsynchronousCloseException");
                }
            }
            for (int b = 0; b <= OPS; b += 2)
                if (!Blocks.matches(file, b * SIZE, rounds, b, 1))
                    throw new AssertionError(round + ": block " + b + ", which was only read, holds "
                                             + Blocks.describe(file, b * SIZE));
            byMode[mode]++;
            Files.delete(f);
        }
        // a late second completion of any earlier round would have been counted by now
        System.out.printf("asynchronous close: %d rounds (%d, %d, %d, %d by mode), %d operations completed,"
                          + " %d closed%n", rounds, byMode[0], byMode[1], byMode[2], byMode[3], done, closed);
    }

    // -- FileChannel: virtual threads in DIRECT reads and writes -------------------

    static final int THREADS = 8, REGION = 16;

    /** A virtual thread reading and writing its own blocks until its channel closes. */
    static final class Worker implements Runnable {
        final FileChannel ch;
        final int id, index;
        final boolean writes;
        final long first;
        final long[] gen = new long[REGION];       // what each block holds
        final long[] pending = new long[REGION];   // the generation a write in flight puts there
        final CountDownLatch started;
        volatile Throwable ended;                  // how it ended
        volatile boolean interruptStatus;          // when it ended
        volatile String mismatch;
        volatile String doing = "starting";
        volatile int ops;
        Thread thread;

        Worker(FileChannel ch, int id, int index, boolean writes, CountDownLatch started, long initialGen) {
            this.ch = ch;
            this.id = id;
            this.index = index;
            this.writes = writes;
            this.first = (long) index * REGION;
            this.started = started;
            java.util.Arrays.fill(gen, initialGen);
        }

        Worker start() {
            thread = Thread.ofVirtual().name("worker-" + index).start(this);
            return this;
        }

        public void run() {
            SplittableRandom rnd = new SplittableRandom(id * 31L + index);
            ByteBuffer direct = Blocks.aligned(REGION * SIZE);
            ByteBuffer heap = ByteBuffer.allocate(REGION * SIZE);
            try {
                while (true) {
                    ByteBuffer buf = rnd.nextBoolean() ? direct : heap;
                    int start = rnd.nextInt(REGION);
                    int len = rnd.nextInt(1, REGION - start + 1);
                    buf.clear().limit(len * SIZE);
                    long pos = (first + start) * SIZE;
                    if (writes && rnd.nextBoolean()) {
                        for (int i = start; i < start + len; i++)
                            Blocks.put(buf, id, first + i, 1, pending[i] = gen[i] + 1);
                        buf.flip();
                        doing = "writing blocks " + (first + start) + "+" + len;
                        while (buf.hasRemaining())
                            ch.write(buf, pos + buf.position());
                        for (int i = start; i < start + len; i++) {
                            gen[i] = pending[i];
                            pending[i] = 0;
                        }
                    } else {
                        doing = "reading blocks " + (first + start) + "+" + len;
                        while (buf.hasRemaining())
                            if (ch.read(buf, pos + buf.position()) < 0)
                                throw new AssertionError("end of file at " + (pos + buf.position()));
                        for (int i = 0; i < len; i++)
                            if (mismatch == null && !Blocks.matches(buf, i * SIZE, id, first + start + i, gen[start + i]))
                                mismatch = "block " + (first + start + i) + " read as "
                                           + Blocks.describe(buf, i * SIZE) + ", not generation " + gen[start + i];
                    }
                    if (ops++ == 0)
                        started.countDown();
                }
            } catch (Throwable t) {
                interruptStatus = Thread.currentThread().isInterrupted();
                ended = t;
                started.countDown();
            }
        }

        // Each of its blocks holds the last generation written, or the one in flight
        void checkFile(ByteBuffer file, String round) {
            for (int i = 0; i < REGION; i++) {
                long b = first + i;
                if (!Blocks.matches(file, (int) b * SIZE, id, b, gen[i])
                        && (pending[i] == 0 || !Blocks.matches(file, (int) b * SIZE, id, b, pending[i])))
                    throw new AssertionError(round + ": block " + b + " holds " + Blocks.describe(file, (int) b * SIZE)
                                             + ", not generation " + gen[i]
                                             + (pending[i] == 0 ? "" : " (or " + pending[i] + ", in flight)"));
            }
        }

        // its state, "runnable" without a carrier while it waits to run
        String describe() {
            return thread + " (" + ops + " reads and writes done, " + doing + ")";
        }
    }

    // Each worker has finished a read or write: progress is another one
    // that has, as the others' reads can go on while one never runs
    static void awaitStarted(CountDownLatch started, List<Worker> workers, String round) throws Exception {
        IoProgress.await(round + ": a first read or write by every thread",
                         n -> started.await(n, TimeUnit.NANOSECONDS), started::getCount,
                         () -> "the threads:" + describe(workers, w -> true));
    }

    static void awaitWorkers(List<Worker> workers, String round) throws Exception {
        for (Worker w : workers) {
            IoProgress.await(round + ": the virtual threads' end after the channel was closed",
                             n -> w.thread.join(Duration.ofNanos(n)),
                             () -> workers.stream().filter(x -> x.thread.isAlive()).count(),
                             () -> "threads still in I/O:" + describe(workers, x -> x.thread.isAlive()));
        }
        for (Worker w : workers)
            if (w.mismatch != null)
                throw new AssertionError(round + ": " + w.thread.getName() + ": " + w.mismatch);
    }

    static String describe(List<Worker> workers, java.util.function.Predicate<Worker> which) {
        StringBuilder sb = new StringBuilder();
        for (Worker w : workers)
            if (which.test(w))
                sb.append("\n    ").append(w.describe());
        return sb.toString();
    }

    // Each worker but the victim ended with AsynchronousCloseException or
    // ClosedChannelException; returns how many with the first
    static int checkClosed(List<Worker> workers, Worker victim, String round) {
        int async = 0;
        for (Worker w : workers) {
            if (w == victim)
                continue;
            Throwable t = w.ended;
            if (!(t instanceof ClosedChannelException) || t instanceof ClosedByInterruptException) {
                if (t != null)
                    t.printStackTrace(System.out);
                throw new AssertionError(round + ": " + w.thread.getName() + ", " + w.doing + ", ended with " + t
                                         + ", not AsynchronousCloseException or ClosedChannelException");
            }
            if (t instanceof AsynchronousCloseException)
                async++;
        }
        return async;
    }

    // (b) one of 8 virtual threads interrupted
    static void interrupt() throws Exception {
        long end = end();
        int rounds = 0, async = 0, others = 0;
        for (; rounds < MAX_ROUNDS && System.nanoTime() < end; rounds++) {
            int id = 1000 + rounds;
            Path f = blocksFile("interrupt-" + rounds + ".bin", id, THREADS * REGION);
            String round = "interrupt round " + rounds;
            FileChannel ch = FileChannel.open(f, READ, WRITE, ExtendedOpenOption.DIRECT);
            CountDownLatch started = new CountDownLatch(THREADS);
            List<Worker> workers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++)
                workers.add(new Worker(ch, id, i, true, started, 1).start());
            awaitStarted(started, workers, round);
            Worker victim = workers.get(rounds % THREADS);
            // interrupt closes the channel in the interrupting thread, so it may wait for I/O too
            Thread interrupter = Thread.ofPlatform().daemon().start(victim.thread::interrupt);
            join(interrupter, round + ": Thread.interrupt");
            awaitWorkers(workers, round);

            Throwable t = victim.ended;
            if (!(t instanceof ClosedByInterruptException)) {
                if (t != null)
                    t.printStackTrace(System.out);
                throw new AssertionError(round + ": the interrupted " + victim.thread.getName() + " (" + victim.doing
                                         + ") ended with " + t + ", not ClosedByInterruptException");
            }
            if (!victim.interruptStatus)
                throw new AssertionError(round + ": ClosedByInterruptException without the interrupt status set");
            if (ch.isOpen())
                throw new AssertionError(round + ": the channel is open after the interrupt");
            async += checkClosed(workers, victim, round);
            others += THREADS - 1;
            ch.close();
            ByteBuffer file = contents(f);
            for (Worker w : workers)
                w.checkFile(file, round);
            Files.delete(f);
        }
        System.out.printf("interrupt: %d rounds; the interrupted thread got ClosedByInterruptException each"
                          + " time, the %d others AsynchronousCloseException %d times and ClosedChannelException"
                          + " %d times%n", rounds, others, async, others - async);
    }

    // (c) the channel closed by another thread while 6 virtual threads read and 2 write
    static void closeWhileReading() throws Exception {
        long end = end();
        int rounds = 0, async = 0, all = 0;
        for (; rounds < MAX_ROUNDS && System.nanoTime() < end; rounds++) {
            int id = 2000 + rounds;
            String round = "close round " + rounds + " (closed by a " + (rounds % 2 == 0 ? "platform" : "virtual")
                           + " thread)";
            Path f = dir.resolve("close-" + rounds + ".bin");
            Files.deleteIfExists(f);
            FileChannel ch = FileChannel.open(f, CREATE_NEW, READ, WRITE, ExtendedOpenOption.DIRECT);
            // written before the close: generation 2 of every block, with DIRECT on a virtual thread
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    ByteBuffer buf = Blocks.aligned(REGION * SIZE);
                    for (int r = 0; r < THREADS; r++) {
                        buf.clear();
                        Blocks.put(buf, id, (long) r * REGION, REGION, 2);
                        buf.flip();
                        while (buf.hasRemaining())
                            ch.write(buf, (long) r * REGION * SIZE + buf.position());
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            join(writer, round + ": writing the file");
            if (ch.size() != (long) THREADS * REGION * SIZE)
                throw new AssertionError(round + ": the file is " + ch.size() + " bytes after the writes");

            CountDownLatch started = new CountDownLatch(THREADS);
            List<Worker> workers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++)
                workers.add(new Worker(ch, id, i, i >= THREADS - 2, started, 2).start());
            awaitStarted(started, workers, round);
            Throwable[] closeFailure = new Throwable[1];
            Thread closer = (rounds % 2 == 0 ? Thread.ofPlatform().daemon() : Thread.ofVirtual()).start(() -> {
                try {
                    ch.close();
                } catch (Throwable t) {
                    closeFailure[0] = t;
                }
            });
            join(closer, round + ": close");
            if (closeFailure[0] != null)
                throw new AssertionError(round + ": close failed", closeFailure[0]);
            awaitWorkers(workers, round);
            async += checkClosed(workers, null, round);
            all += THREADS;
            ByteBuffer file = contents(f);
            for (Worker w : workers)
                w.checkFile(file, round);
            Files.delete(f);
        }
        System.out.printf("close: %d rounds; the %d threads got AsynchronousCloseException %d times and"
                          + " ClosedChannelException %d times%n", rounds, all, async, all - async);
    }
}
