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
 * @test id=full
 * @summary A carrier's ring holds 255 I/Os; past that a virtual thread's
 *          DIRECT positional I/O falls back to a compensated pread or
 *          pwrite.  On a loop device that the block layer throttles to
 *          1,000 reads and 1,000 writes a second (the cgroup's blkio
 *          throttle or io.max), so that I/O stays in flight, 2,000 virtual
 *          threads on one carrier each read or write a block of their own:
 *          a ring is seen full (the I/O in flight in each, read from
 *          CarrierRing while they run), every read returns its block's
 *          bytes, and every write lands, byte for byte.  Needs root
 *          (losetup, the throttle), as the directio tests that make loop
 *          devices do.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch:open
 * @library lib /test/lib
 * @build ScratchMount Command Blocks
 * @run main/othervm -Djdk.virtualThreadScheduler.parallelism=1 IoUringRingFull full
 */

/*
 * @test id=queued
 * @summary An I/O below the bar of 4 others goes to the ring, not to a
 *          compensated pread or pwrite, while virtual threads wait in the
 *          scheduler's shared queue: on the same throttled device, 200
 *          virtual threads started from a platform thread, one carrier,
 *          each read or write a block of their own (compared as above), and
 *          they run on at most 2 carriers.  Counting only the carrier's own
 *          queue, the first I/Os were compensated, each adding a carrier
 *          that then blocked too: 5 carriers ran them.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch:open
 * @library lib /test/lib
 * @build ScratchMount Command Blocks
 * @run main/othervm -Djdk.virtualThreadScheduler.parallelism=1 IoUringRingFull queued
 */

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import com.sun.nio.file.ExtendedOpenOption;
import jtreg.SkippedException;

public class IoUringRingFull {
    private static final int IOPS = 1_000;
    private static final int FILE = 7;

    public static void main(String[] args) throws Exception {
        boolean full = args[0].equals("full");
        // more than a ring holds (255), or fewer
        int threads = full ? 2_000 : 200;
        if (!"root".equals(System.getProperty("user.name")))
            throw new SkippedException("needs root: it makes a loop device and throttles it");
        try (ScratchMount loop = ScratchMount.loopDevice()) {
            Path dev = loop.path();
            try (FileChannel fc = FileChannel.open(dev, READ, WRITE, ExtendedOpenOption.DIRECT)) {
                ByteBuffer all = Blocks.aligned(threads * Blocks.SIZE);
                Blocks.put(all, FILE, 0, threads, 1);
                all.flip();
                while (all.hasRemaining())
                    fc.write(all, all.position());
                try (Throttle t = Throttle.of(dev, IOPS)) {
                    run(fc, threads, full);
                }
                // every block as the threads left it: even ones read at
                // generation 1, odd ones written at generation 2
                ByteBuffer back = Blocks.spoil(Blocks.aligned(threads * Blocks.SIZE));
                while (back.hasRemaining()) {
                    if (fc.read(back, back.position()) <= 0)
                        throw new AssertionError("short read of the device at " + back.position());
                }
                for (int i = 0; i < threads; i++) {
                    long gen = (i % 2 == 0) ? 1 : 2;
                    if (!Blocks.matches(back, i * Blocks.SIZE, FILE, i, gen))
                        throw new AssertionError("block " + i + " should be generation " + gen
                                + ", holds " + Blocks.describe(back, i * Blocks.SIZE));
                }
            }
        }
    }

    // Starts the threads from this platform thread, so that they wait in
    // the scheduler's shared queue for the one carrier.  Meanwhile the most
    // I/O in flight in any carrier's ring is sampled.
    private static void run(FileChannel fc, int count, boolean full) throws Exception {
        Set<String> carriers = ConcurrentHashMap.newKeySet();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        RingWatch watch = new RingWatch();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int block = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    carriers.add(carrier());
                    io(fc, block);
                    carriers.add(carrier());
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        Duration limit = Duration.ofSeconds(10);
        if (!watch.until(threads, limit))
            throw new AssertionError("the threads did not end within " + limit);
        if (failure.get() != null)
            throw new AssertionError("an I/O failed", failure.get());
        System.out.println(carriers.size() + " carriers: " + carriers
                + "; most I/O in flight in one ring: " + watch.most + " of " + watch.slots);
        if (full && watch.most < watch.slots)
            throw new AssertionError("no carrier's ring filled: at most " + watch.most
                    + " of its " + watch.slots + " slots were in flight");
        if (!full && carriers.size() > 2)
            throw new AssertionError(carriers.size() + " carriers ran the threads: I/O below"
                    + " the bar was compensated while threads waited to run");
    }

    /** Samples the I/O in flight in the carriers' rings (CarrierRing.RINGS). */
    static final class RingWatch {
        final int slots;
        int most;
        private final List<?> rings;
        private final Field inflight;

        RingWatch() throws ReflectiveOperationException {
            Class<?> c = Class.forName("sun.nio.ch.CarrierRing");
            Field f = c.getDeclaredField("SLOTS");
            f.setAccessible(true);
            slots = f.getInt(null);
            f = c.getDeclaredField("RINGS");
            f.setAccessible(true);
            rings = (List<?>) f.get(null);
            inflight = c.getDeclaredField("inflight");
            inflight.setAccessible(true);
        }

        // Samples, every 0.1 ms, until the threads end or a ring is seen
        // full, then waits for them; returns whether they ended within the
        // limit.  A full ring stays full for about a quarter of a second
        // here: its 255 I/Os wait their turn in the throttle.
        boolean until(List<Thread> threads, Duration limit) throws Exception {
            long deadline = System.nanoTime() + limit.toNanos();
            Thread last = threads.get(threads.size() - 1);
            while (last.isAlive() && most < slots && System.nanoTime() < deadline) {
                for (Object r : rings)
                    most = Math.max(most, inflight.getInt(r));
                LockSupport.parkNanos(100_000);
            }
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !t.join(Duration.ofNanos(left)))
                    return false;
            }
            return true;
        }
    }

    // Block n: an even one is read and compared, an odd one written anew
    private static void io(FileChannel fc, int n) throws IOException {
        long position = (long) n * Blocks.SIZE;
        ByteBuffer buf = Blocks.aligned(Blocks.SIZE);
        if (n % 2 == 0) {
            Blocks.spoil(buf);
            Blocks.check(buf, fc.read(buf, position), FILE, n, 1);
        } else {
            buf.put(Blocks.of(FILE, n, 2)).flip();
            int w = fc.write(buf, position);
            if (w != Blocks.SIZE)
                throw new AssertionError("wrote " + w + " bytes of block " + n);
        }
    }

    // The carrier's name, from the virtual thread's: "...@ForkJoinPool-1-worker-1"
    private static String carrier() {
        String s = Thread.currentThread().toString();
        int at = s.indexOf('@');
        return (at < 0) ? "none" : s.substring(at + 1);
    }

    /**
     * The block layer's limit of reads and writes a second on a device, for
     * the cgroup of this process: cgroup v1's blkio throttle, or v2's
     * io.max.  Closing it lifts the limit.
     */
    record Throttle(List<Path> files, List<String> lift) implements AutoCloseable {
        static Throttle of(Path dev, int iops) throws IOException {
            String majMin = Files.readString(
                    Path.of("/sys/class/block", dev.getFileName().toString(), "dev")).trim();
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                if (f.length < 3)
                    continue;
                if (Set.of(f[1].split(",")).contains("blkio")) {
                    Path g = Path.of("/sys/fs/cgroup/blkio" + f[2]);
                    Path r = g.resolve("blkio.throttle.read_iops_device");
                    Path w = g.resolve("blkio.throttle.write_iops_device");
                    if (Files.isWritable(r) && Files.isWritable(w)) {
                        Files.writeString(r, majMin + " " + iops);
                        Files.writeString(w, majMin + " " + iops);
                        return new Throttle(List.of(r, w), List.of(majMin + " 0", majMin + " 0"));
                    }
                } else if (f[0].equals("0") && f[1].isEmpty()) {
                    Path max = Path.of("/sys/fs/cgroup" + f[2], "io.max");
                    if (Files.isWritable(max)) {
                        Files.writeString(max, majMin + " riops=" + iops + " wiops=" + iops);
                        return new Throttle(List.of(max), List.of(majMin + " riops=max wiops=max"));
                    }
                }
            }
            throw new SkippedException("no block I/O throttle for this process's cgroup"
                    + " (cgroup v1 blkio, or io.max of a v2 cgroup other than the root)");
        }

        @Override
        public void close() throws IOException {
            for (int i = 0; i < files.size(); i++)
                Files.writeString(files.get(i), lift.get(i));
        }
    }
}
