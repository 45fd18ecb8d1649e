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
package org.openjdk.bench.java.nio.channels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.sun.nio.file.ExtendedOpenOption;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * 4 KiB random direct reads or writes of one file with {@code qd} I/Os in
 * flight at all times, through one of three paths; the score is the rate
 * of completed I/Os (IOPS), the numbers to set beside fio's
 * {@code --ioengine=io_uring --iodepth=QD} and
 * {@code --ioengine=psync --numjobs=QD}.
 *
 * <p> Every I/O is 4096 bytes at a uniformly random 4096-aligned offset of
 * the file (drawn with replacement, as fio's {@code --norandommap}), on a
 * channel opened with {@code ExtendedOpenOption.DIRECT} (O_DIRECT), from or
 * into a buffer of its own carved from a direct buffer with
 * {@code ByteBuffer.alignedSlice} (aligned to {@code FileStore.getBlockSize()},
 * at least 4096). Paths ({@code path}):
 * <ul>
 * <li> {@code AFC}: one {@code AsynchronousFileChannel} (the JDK's default
 *      thread pool, {@code AsynchronousFileChannel.open(path, options...)})
 *      with {@code qd} chains of operations: each chain has one read or
 *      write outstanding, and its {@code CompletionHandler} records the
 *      completion and issues the chain's next operation from inside
 *      {@code completed}. That is what a performance-minded user writes: no
 *      thread blocks in {@code Future.get()} and no thread is needed per
 *      outstanding operation.
 * <li> {@code AFC_POOL}: the same chains on an {@code AsynchronousFileChannel}
 *      opened with a pool of the program's own,
 *      {@code Executors.newFixedThreadPool} with a thread per CPU, so that
 *      every handler runs on a thread of that pool. Not in the default
 *      list of paths: run it with {@code -p path=AFC_POOL}.
 * <li> {@code FC_VIRTUAL}: {@code qd} virtual threads, each in a loop of
 *      {@code FileChannel.read(dst, position)} or
 *      {@code write(src, position)} on one shared {@code FileChannel}.
 * <li> {@code FC_PLATFORM}: the same from {@code qd} platform threads.
 * </ul>
 *
 * <p> Writes ({@code op=randwrite}) write real data: every buffer is filled
 * with random bytes once and gets a unique 8-byte sequence number at its
 * start before every write, so no two writes carry the same block. They go
 * to the file under test, the same file the reads read; a file of random
 * bytes stays a file of random bytes. The file must exist at its full size
 * (written, not sparse), so that writes overwrite allocated blocks.
 *
 * <p> How the I/O is driven inside JMH: the {@code qd} workers (chains or
 * threads) are started in the iteration's set-up, before JMH starts its
 * clock, and run until the iteration's tear-down stops them and waits for
 * their last I/O. The one benchmark thread ({@code @Threads(1)}; more are
 * refused) consumes completions: each invocation of {@link #io} takes one
 * completed I/O, and when none is left it sleeps for at most 1 ms
 * ({@code parkNanos}) and looks again, so the workers never signal it. JMH's
 * Throughput score is therefore completed I/Os per second in the timed
 * window: the IOPS, low by at most the completions of the last
 * millisecond of an iteration.
 *
 * <p> Secondary results, over all measurement iterations of the trial
 * (warm-up iterations are left out):
 * <ul>
 * <li> latency per I/O, p50 and p99: {@code System.nanoTime()} before the
 *      call that starts the I/O to its completion (the return of
 *      {@code read}/{@code write}, or the start of {@code completed}), as
 *      fio's total latency ({@code lat}, submission included) measures
 *      it; recorded by each worker into a histogram of its own with 64
 *      linear buckets per power of two (about 1.6% resolution, as fio's),
 *      merged when the workers have stopped;
 * <li> CPU time per I/O: the JVM process's CPU time
 *      ({@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime()},
 *      user and system, all threads: the workers, the JDK's I/O threads,
 *      the JIT, GC and JMH's own) from just before the workers start to
 *      just after they stop, over the I/Os completed in that time;
 * <li> context switches per I/O: the process's voluntary and involuntary
 *      context switches ({@code getrusage(RUSAGE_SELF)}, all threads, as
 *      fio's {@code ctx} counts them for its jobs) over the same window and
 *      I/Os, NaN where getrusage cannot be called; the benchmark thread's
 *      1 ms polls add at most 1,000 a second;
 * <li> hand-offs per I/O: the hand-offs between threads that the fork's
 *      direct I/O engine counts ({@code sun.nio.ch.IoHandoffs.total()},
 *      read only if {@code java.base/sun.nio.ch} is exported to the
 *      benchmark), over the same window and I/Os; NaN on other JDKs.
 * </ul>
 * They are printed at the end of the trial, one line starting
 * {@code DirectIOQueueDepth:}, and appended as the same line of
 * {@code key=value} fields to the file named by the system property
 * {@code rdio.bench.qd.out}, if set (as make bench-directio does). JMH's
 * {@code @AuxCounters} are not used for them: JMH sums their values over
 * iterations, which percentiles do not allow.
 *
 * <p> The file is the one named by the system property rdio.bench.file (as
 * make bench-directio sets it; for {@code randwrite} its contents are
 * overwritten with random bytes); otherwise a 256 MiB file of random bytes
 * is created in rdio.bench.dir (default java.io.tmpdir) and removed after
 * the trial. Only public APIs are used, so the class runs on any JDK 25.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class DirectIOQueueDepth {
    static final int SIZE = 4096;
    private static final long DEFAULT_FILE_SIZE = 256L << 20;
    private static final long POLL_NANOS = 1_000_000;
    private static final long STOP_TIMEOUT_SECONDS = 60;

    /** I/Os in flight. */
    @Param({"1", "4", "16", "64"})
    public int qd;

    /** AFC, AFC_POOL, FC_VIRTUAL or FC_PLATFORM: see the class comment. */
    @Param({"AFC", "FC_VIRTUAL", "FC_PLATFORM"})
    public String path;

    /** randread or randwrite (fio's names). */
    @Param({"randread", "randwrite"})
    public String op;

    /**
     * AFC and AFC_POOL: how long each completion handler computes, in ns
     * (a spin on nanoTime), before it issues the next operation, as a
     * handler that parses what it read would; 0, the default, for none.
     */
    @Param({"0"})
    public long handlerNanos;

    private Path file;
    private boolean ownFile;
    private long blocks;
    private int alignment;
    private boolean write;
    private FileChannel channel;
    private AsynchronousFileChannel afc;
    private ExecutorService pool;       // AFC_POOL's
    private final SplittableRandom seeds = new SplittableRandom(20261124L);

    // The workers of the current iteration and what they report.
    private Worker[] workers;
    private final LongAdder done = new LongAdder();
    private volatile boolean running;
    private volatile Throwable failure;
    private boolean measuring;
    private long cpuStart, wallStart, switchesStart, handoffsStart;

    // The benchmark thread's view: completions available and consumed.
    private long available, consumed;

    // Accumulated over the trial's measurement iterations.
    private final Histogram total = new Histogram();
    private long totalCpuNanos, totalWallNanos, totalSwitches, totalHandoffs, iterations;

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    // getrusage(int, struct rusage *), and where ru_nvcsw and ru_nivcsw lie
    // in Linux's struct rusage on 64-bit platforms (two timevals, then longs)
    private static final MethodHandle GETRUSAGE = getrusage();
    private static final int RUSAGE_SELF = 0, RUSAGE_SIZE = 144, NVCSW = 128, NIVCSW = 136;

    // sun.nio.ch.IoHandoffs.total(), or null on a JDK without it
    private static final MethodHandle HANDOFFS = handoffs();

    private static MethodHandle getrusage() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("getrusage")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static MethodHandle handoffs() {
        try {
            Class<?> c = Class.forName("sun.nio.ch.IoHandoffs");
            return MethodHandles.lookup().findStatic(c, "total", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The process's context switches so far, or -1 if they cannot be read. */
    static long contextSwitches() {
        if (GETRUSAGE == null || !System.getProperty("os.name").equals("Linux"))
            return -1;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ru = arena.allocate(RUSAGE_SIZE, 8);
            if ((int) GETRUSAGE.invokeExact(RUSAGE_SELF, ru) != 0)
                return -1;
            return ru.get(ValueLayout.JAVA_LONG, NVCSW) + ru.get(ValueLayout.JAVA_LONG, NIVCSW);
        } catch (Throwable e) {
            return -1;
        }
    }

    /** The engine's hand-offs so far, or -1 on a JDK that does not count them. */
    static long handoffsSoFar() {
        if (HANDOFFS == null)
            return -1;
        try {
            return (long) HANDOFFS.invokeExact();
        } catch (Throwable e) {
            return -1;
        }
    }

    /** count per I/O, NaN if the count is unknown (-1) or there was no I/O. */
    private static double perIo(long count, long ios) {
        return count < 0 || ios == 0 ? Double.NaN : (double) count / ios;
    }

    /**
     * Latencies in ns: values below 64 exactly, above that 64 linear
     * buckets per power of two, up to 2^40 ns (values above land in the
     * last bucket). Written by one thread at a time.
     */
    static final class Histogram {
        static final int SUB_BITS = 6, SUB = 1 << SUB_BITS, MAX_EXP = 40;
        final long[] counts = new long[(MAX_EXP - SUB_BITS + 1) * SUB + SUB];
        long n;

        static int index(long v) {
            if (v < SUB)
                return (int) Math.max(v, 0);
            int e = 63 - Long.numberOfLeadingZeros(v);
            if (e >= MAX_EXP)
                return (MAX_EXP - SUB_BITS + 1) * SUB + SUB - 1;
            int shift = e - SUB_BITS;
            return (shift + 1) * SUB + (int) ((v >>> shift) - SUB);
        }

        /** The middle of bucket i, in ns. */
        static double middle(int i) {
            if (i < SUB)
                return i;
            int shift = i / SUB - 1;
            long low = (long) (SUB + i % SUB) << shift;
            return low + ((1L << shift) - 1) / 2.0;
        }

        void record(long v) {
            counts[index(v)]++;
            n++;
        }

        void add(Histogram h) {
            for (int i = 0; i < counts.length; i++)
                counts[i] += h.counts[i];
            n += h.n;
        }

        /** The value at quantile q (0 < q <= 1), in ns; NaN if empty. */
        double quantile(double q) {
            if (n == 0)
                return Double.NaN;
            long rank = Math.max(1, (long) Math.ceil(q * n));
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank)
                    return middle(i);
            }
            return middle(counts.length - 1);
        }
    }

    /** One source of I/O: a thread, or a chain of AFC operations. */
    abstract class Worker {
        final Histogram hist = new Histogram();
        final ByteBuffer buffer;
        final SplittableRandom random;
        final long id;
        long seq;

        Worker(int id) {
            this.id = id;
            this.random = seeds.split();
            buffer = ByteBuffer.allocateDirect(SIZE + alignment - 1).alignedSlice(alignment).slice(0, SIZE);
            byte[] bytes = new byte[SIZE];
            random.nextBytes(bytes);
            buffer.put(0, bytes);
        }

        /** The buffer ready for the next I/O, stamped if it is written. */
        ByteBuffer next() {
            buffer.clear();
            if (write)
                buffer.putLong(0, (id << 48) | ++seq);
            return buffer;
        }

        long position() {
            return random.nextLong(blocks) * SIZE;
        }

        void completed(long started, long ended, int n) {
            if (n != SIZE)
                throw new IllegalStateException((write ? "write" : "read") + " of " + SIZE + " B returned " + n);
            hist.record(ended - started);
            done.increment();
        }

        abstract void start();
        abstract void await(long deadline) throws InterruptedException;
    }

    /** A loop of positional FileChannel reads or writes in a thread. */
    final class ThreadWorker extends Worker implements Runnable {
        private final boolean virtual;
        private Thread thread;

        ThreadWorker(int id, boolean virtual) {
            super(id);
            this.virtual = virtual;
        }

        @Override
        public void run() {
            try {
                while (running) {
                    ByteBuffer b = next();
                    long pos = position();
                    long t0 = System.nanoTime();
                    int n = write ? channel.write(b, pos) : channel.read(b, pos);
                    long t1 = System.nanoTime();
                    completed(t0, t1, n);
                }
            } catch (Throwable t) {
                fail(t);
            }
        }

        @Override
        void start() {
            String name = "DirectIOQueueDepth-" + id;
            thread = virtual ? Thread.ofVirtual().name(name).start(this)
                             : Thread.ofPlatform().name(name).daemon().start(this);
        }

        @Override
        void await(long deadline) throws InterruptedException {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !thread.join(java.time.Duration.ofNanos(left)))
                throw new IllegalStateException(thread + " did not stop");
        }
    }

    /**
     * A chain of AsynchronousFileChannel operations: one outstanding, the
     * next issued by the completion handler of the last.
     */
    final class ChainWorker extends Worker implements CompletionHandler<Integer, Void> {
        private final CountDownLatch stopped = new CountDownLatch(1);
        private long issued;    // nanoTime of the outstanding operation's start

        ChainWorker(int id) {
            super(id);
        }

        private void issue() {
            if (!running) {
                stopped.countDown();
                return;
            }
            ByteBuffer b = next();
            long pos = position();
            issued = System.nanoTime();
            if (write)
                afc.write(b, pos, null, this);
            else
                afc.read(b, pos, null, this);
        }

        @Override
        public void completed(Integer n, Void unused) {
            long t = System.nanoTime();
            try {
                completed(issued, t, n);
                if (handlerNanos > 0) {
                    long end = t + handlerNanos;
                    while (System.nanoTime() < end)
                        Thread.onSpinWait();
                }
                issue();
            } catch (Throwable e) {
                fail(e);
                stopped.countDown();
            }
        }

        @Override
        public void failed(Throwable e, Void unused) {
            fail(e);
            stopped.countDown();
        }

        @Override
        void start() {
            try {
                issue();
            } catch (Throwable e) {
                fail(e);
                stopped.countDown();
            }
        }

        @Override
        void await(long deadline) throws InterruptedException {
            if (!stopped.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS))
                throw new IllegalStateException("an AsynchronousFileChannel operation did not complete");
        }
    }

    private void fail(Throwable t) {
        if (failure == null)
            failure = t;
        running = false;
    }

    @Setup(Level.Trial)
    public void setup(BenchmarkParams params) throws IOException {
        if (params.getThreads() != 1)
            throw new IllegalArgumentException("DirectIOQueueDepth runs with one benchmark thread (-t 1); use -p qd=N");
        if (qd < 1)
            throw new IllegalArgumentException("qd " + qd);
        switch (op) {
            case "randread" -> write = false;
            case "randwrite" -> write = true;
            default -> throw new IllegalArgumentException("op " + op);
        }
        switch (path) {
            case "AFC", "AFC_POOL", "FC_VIRTUAL", "FC_PLATFORM" -> { }
            default -> throw new IllegalArgumentException("path " + path);
        }
        String name = System.getProperty("rdio.bench.file");
        if (name != null) {
            file = Path.of(name);
        } else {
            Path dir = Path.of(System.getProperty("rdio.bench.dir", System.getProperty("java.io.tmpdir")));
            file = Files.createTempFile(dir, "DirectIOQueueDepth", ".dat");
            ownFile = true;
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            new SplittableRandom(42).nextBytes(chunk.array());
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
                for (long written = 0; written < DEFAULT_FILE_SIZE; written += chunk.capacity()) {
                    out.write(chunk.clear());
                }
                out.force(true);
            }
        }
        blocks = Files.size(file) / SIZE;
        if (blocks < 2)
            throw new IllegalStateException(file + " is too small");
        alignment = (int) Math.max(SIZE, Files.getFileStore(file).getBlockSize());
        OpenOption[] options = {write ? StandardOpenOption.WRITE : StandardOpenOption.READ,
                                ExtendedOpenOption.DIRECT};
        try {
            switch (path) {
                case "AFC" -> afc = AsynchronousFileChannel.open(file, options);
                case "AFC_POOL" -> {
                    pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
                    afc = AsynchronousFileChannel.open(file, Set.of(options), pool);
                }
                default -> channel = FileChannel.open(file, options);
            }
        } catch (IOException | RuntimeException e) {
            if (pool != null)
                pool.shutdown();
            if (ownFile)
                Files.deleteIfExists(file);
            throw e;
        }
    }

    @Setup(Level.Iteration)
    public void startWorkers(IterationParams params) {
        measuring = params.getType() == IterationType.MEASUREMENT;
        failure = null;
        done.reset();
        workers = new Worker[qd];
        for (int i = 0; i < qd; i++) {
            workers[i] = switch (path) {
                case "AFC", "AFC_POOL" -> new ChainWorker(i);
                case "FC_VIRTUAL" -> new ThreadWorker(i, true);
                default -> new ThreadWorker(i, false);
            };
        }
        available = consumed = 0;
        running = true;
        switchesStart = contextSwitches();
        handoffsStart = handoffsSoFar();
        cpuStart = OS.getProcessCpuTime();
        wallStart = System.nanoTime();
        for (Worker w : workers)
            w.start();
    }

    /**
     * Takes one completed I/O, waiting (1 ms at a time) while there is none.
     * One invocation is one I/O, so JMH's ops/s is IOPS.
     */
    @Benchmark
    public void io(Control control) {
        while (consumed >= available) {
            Throwable t = failure;
            if (t != null)
                throw new IllegalStateException("I/O failed: " + t, t);
            if (control.stopMeasurement)
                return;
            LockSupport.parkNanos(POLL_NANOS);
            available = done.sum();
        }
        consumed++;
    }

    @TearDown(Level.Iteration)
    public void stopWorkers() throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
        for (Worker w : workers)
            w.await(deadline);
        long wall = System.nanoTime() - wallStart;
        long cpu = OS.getProcessCpuTime() - cpuStart;
        long switches = contextSwitches(), handoffs = handoffsSoFar();
        Throwable t = failure;
        if (t != null)
            throw new IllegalStateException("I/O failed: " + t, t);
        if (measuring) {
            for (Worker w : workers)
                total.add(w.hist);
            totalCpuNanos += cpu;
            // -1 marks a count that could not be read, and stays so
            totalSwitches = (switches < 0 || switchesStart < 0 || totalSwitches < 0)
                    ? -1 : totalSwitches + switches - switchesStart;
            totalHandoffs = (handoffs < 0 || handoffsStart < 0 || totalHandoffs < 0)
                    ? -1 : totalHandoffs + handoffs - handoffsStart;
            totalWallNanos += wall;
            iterations++;
        }
        workers = null;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            if (iterations > 0) {
                String line = String.format(Locale.ROOT,
                        "DirectIOQueueDepth: path=%s qd=%d op=%s ios=%d seconds=%.3f iops=%.1f"
                        + " p50_us=%.2f p99_us=%.2f cpu_us_per_io=%.3f cpu_cores=%.3f"
                        + " csw_per_io=%.3f handoffs_per_io=%.3f iterations=%d jdk=%s file=%s",
                        path, qd, op, total.n, totalWallNanos / 1e9, total.n / (totalWallNanos / 1e9),
                        total.quantile(0.50) / 1e3, total.quantile(0.99) / 1e3,
                        total.n == 0 ? Double.NaN : totalCpuNanos / 1e3 / total.n,
                        (double) totalCpuNanos / totalWallNanos,
                        perIo(totalSwitches, total.n), perIo(totalHandoffs, total.n), iterations,
                        System.getProperty("java.runtime.version"), file);
                System.out.println();
                System.out.println(line);
                String out = System.getProperty("rdio.bench.qd.out");
                if (out != null) {
                    try {
                        Files.writeString(Path.of(out), line + System.lineSeparator(),
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        } finally {
            if (afc != null)
                afc.close();
            if (pool != null)
                pool.shutdown();
            if (channel != null)
                channel.close();
            if (ownFile)
                Files.deleteIfExists(file);
        }
    }
}
