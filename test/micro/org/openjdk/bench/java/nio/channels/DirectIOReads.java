/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */
package org.openjdk.bench.java.nio.channels;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import com.sun.nio.file.ExtendedOpenOption;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Positional reads at random aligned offsets of one file, through a
 * FileChannel opened with and without ExtendedOpenOption.DIRECT, into an
 * aligned direct buffer as the talk's example does.
 *
 * The file lives in the directory named by the system property
 * rdio.bench.dir (default java.io.tmpdir).  BUFFERED reads here come from a
 * warm page cache; cold-cache comparisons and the fio baseline belong to
 * the direct I/O benchmark suite (doc/jep-direct-io.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DirectIOReads {
    private static final long FILE_SIZE = 64L << 20;

    @Param({"4096", "1048576"})
    public int size;

    @Param({"BUFFERED", "DIRECT"})
    public String mode;

    private Path file;
    private FileChannel channel;
    private ByteBuffer buffer;
    private SplittableRandom random;

    @Setup
    public void setup() throws IOException {
        Path dir = Path.of(System.getProperty("rdio.bench.dir", System.getProperty("java.io.tmpdir")));
        file = Files.createTempFile(dir, "DirectIOReads", ".dat");
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        new SplittableRandom(42).nextBytes(chunk.array());
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long written = 0; written < FILE_SIZE; written += chunk.capacity()) {
                out.write(chunk.clear());
            }
            out.force(true);
        }
        channel = mode.equals("DIRECT")
                ? FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)
                : FileChannel.open(file, StandardOpenOption.READ);
        int alignment = (int) Files.getFileStore(file).getBlockSize();
        buffer = ByteBuffer.allocateDirect(size + alignment - 1).alignedSlice(alignment);
        random = new SplittableRandom(7);
    }

    @Benchmark
    public int randomRead() throws IOException {
        long position = random.nextLong(FILE_SIZE / size) * size;
        return channel.read(buffer.clear(), position);
    }

    @TearDown
    public void tearDown() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }
}
