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
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reads of one file through a FileChannel, one thread, one read at a time
 * (queue depth 1), into an aligned direct buffer as the talk's example does.
 *
 * <p> Workloads: random positional reads of 4 KiB and of 512 B at offsets
 * that are multiples of the read size, and sequential reads of 1 MiB, all
 * positional (FileChannel.read(ByteBuffer, long), pread).
 *
 * <p> Modes, all on the same file:
 * <ul>
 * <li> DIRECT: {@code ExtendedOpenOption.DIRECT} (O_DIRECT).
 * <li> BUFFERED_COLD: plain buffered reads, with the file's pages dropped
 *      from the page cache (posix_fadvise POSIX_FADV_DONTNEED, through the
 *      FFM API, which needs no privileges) before every warm-up and
 *      measurement iteration and before every new pass over the file; a
 *      pass reads no block twice (random reads follow a random permutation
 *      of the blocks), so every read misses the cache, apart from what the
 *      kernel's read-ahead brings in.
 * <li> DONTCACHE: {@code ExtendedOpenOption.DONTCACHE} (RWF_DONTCACHE), a
 *      fork addition looked up by name so that this source compiles and runs
 *      on JDK 25 as shipped too.
 * </ul>
 * The file's pages are dropped before every iteration in all modes, so that
 * every mode starts from the same state.
 *
 * <p> A case that the JDK under test cannot run fails in its trial set-up
 * with a message that starts with "N/A:" (the JDK lacks the option, or the
 * file system refuses it) or "REFUSED:" (the JDK refuses the read itself,
 * e.g. upstream's 4096-byte rule for a 512 B direct read), so that a runner
 * can tell these apart from real failures.
 *
 * <p> The file is the one named by the system property rdio.bench.file (as
 * make bench-directio sets it); otherwise a 256 MiB file is created in
 * rdio.bench.dir (default java.io.tmpdir) and removed after the trial.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class DirectIOReads {
    private static final long DEFAULT_FILE_SIZE = 256L << 20;
    private static final int POSIX_FADV_DONTNEED = 4;
    private static final int O_RDONLY = 0;

    @Param({"RAND_4K", "RAND_512", "SEQ_1M"})
    public String workload;

    @Param({"DIRECT", "BUFFERED_COLD", "DONTCACHE"})
    public String mode;

    private Path file;
    private boolean ownFile;
    private long fileSize;
    private int size;
    private boolean sequential;
    private long position;       // the next block: sequential index, or input of the permutation
    private long blocks, mask, k1, k2, k3;
    private int bits;
    private FileChannel channel;
    private ByteBuffer buffer;

    private static final MethodHandle OPEN, CLOSE, FADVISE;
    static {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        OPEN = linker.downcallHandle(libc.find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        FADVISE = linker.downcallHandle(libc.find("posix_fadvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }

    /** Drops the file's clean pages from the page cache. */
    static void dropPages(Path file) {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(file.toString()), O_RDONLY);
            if (fd < 0)
                throw new IllegalStateException("open(" + file + ") failed");
            int rc = (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
            int ignore = (int) CLOSE.invokeExact(fd);
            if (rc != 0)
                throw new IllegalStateException("posix_fadvise(" + file + ") failed: " + rc);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** ExtendedOpenOption.DONTCACHE, or null if this JDK lacks it. */
    static OpenOption dontCache() {
        for (ExtendedOpenOption o : ExtendedOpenOption.values()) {
            if (o.name().equals("DONTCACHE"))
                return o;
        }
        return null;
    }

    @Setup(Level.Trial)
    public void setup() throws IOException {
        switch (workload) {
            case "RAND_4K" -> { size = 4096; sequential = false; }
            case "RAND_512" -> { size = 512; sequential = false; }
            case "SEQ_1M" -> { size = 1 << 20; sequential = true; }
            default -> throw new IllegalArgumentException("workload " + workload);
        }
        String name = System.getProperty("rdio.bench.file");
        if (name != null) {
            file = Path.of(name);
        } else {
            Path dir = Path.of(System.getProperty("rdio.bench.dir", System.getProperty("java.io.tmpdir")));
            file = Files.createTempFile(dir, "DirectIOReads", ".dat");
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
        fileSize = Files.size(file) / size * size;
        if (fileSize < 2L * size)
            throw new IllegalStateException(file + " is too small");

        // An aligned buffer of exactly size bytes, also when size is smaller
        // than the alignment.
        int alignment = Math.max(4096, (int) Files.getFileStore(file).getBlockSize());
        int rounded = (size + alignment - 1) / alignment * alignment;
        buffer = ByteBuffer.allocateDirect(rounded + alignment - 1)
                .alignedSlice(alignment).slice(0, size);
        blocks = fileSize / size;
        bits = Math.max(1, 64 - Long.numberOfLeadingZeros(blocks - 1));
        mask = (bits == 64) ? -1L : (1L << bits) - 1;
        SplittableRandom seeds = new SplittableRandom(7);
        k1 = seeds.nextLong() | 1;
        k2 = seeds.nextLong() | 1;
        k3 = seeds.nextLong();

        try {
            switch (mode) {
                case "DIRECT" ->
                    channel = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
                case "BUFFERED_COLD" -> channel = FileChannel.open(file, StandardOpenOption.READ);
                case "DONTCACHE" -> {
                    OpenOption dontCache = dontCache();
                    if (dontCache == null)
                        throw new UnsupportedOperationException(
                                "N/A: this JDK has no ExtendedOpenOption.DONTCACHE");
                    try {
                        channel = FileChannel.open(file, StandardOpenOption.READ, dontCache);
                    } catch (UnsupportedOperationException e) {
                        throw new UnsupportedOperationException(
                                "N/A: DONTCACHE refused for " + file + ": " + e.getMessage(), e);
                    }
                }
                default -> throw new IllegalArgumentException("mode " + mode);
            }
            // One probe read at the smallest offset that is not 0, so that a
            // JDK that refuses this read size says so here and not in the
            // middle of the measurement.
            int n;
            try {
                n = channel.read(buffer.clear(), size);
            } catch (IOException e) {
                channel.close();
                throw new IOException("REFUSED: " + mode + " read of " + size + " B at "
                        + size + ": " + e.getMessage(), e);
            }
            if (n != size)
                throw new IllegalStateException("probe read returned " + n + ", not " + size);
        } catch (IOException | RuntimeException e) {
            if (ownFile)
                Files.deleteIfExists(file);
            throw e;
        }
    }

    @Setup(Level.Iteration)
    public void coldCache() {
        dropPages(file);
    }

    /**
     * A bijection of [0, 2^bits): odd multipliers and right xor-shifts are
     * each invertible modulo 2^bits.
     */
    private long mix(long x) {
        int shift = Math.max(1, bits / 2);
        x = (x * k1) & mask;
        x ^= x >>> shift;
        x = (x * k2 + k3) & mask;
        x ^= x >>> shift;
        return (x * k1) & mask;
    }

    /** The i-th block of a fixed random permutation of [0, blocks). */
    private long permuted(long i) {
        long x = i;
        do {
            x = mix(x);             // cycle-walking: stays a bijection on [0, blocks)
        } while (x >= blocks);
        return x;
    }

    /**
     * One read of size bytes.  A pass visits every block of the file once,
     * in order (SEQ) or in a random order (RAND, as fio's random map does),
     * so that BUFFERED_COLD never reads a block that it read before in the
     * same pass; a new pass drops the file's pages first.
     */
    @Benchmark
    public int read() throws IOException {
        if (position >= blocks) {
            dropPages(file);
            position = 0;
        }
        long block = sequential ? position : permuted(position);
        position++;
        return channel.read(buffer.clear(), block * size);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (channel != null)
            channel.close();
        if (ownFile)
            Files.deleteIfExists(file);
    }
}
