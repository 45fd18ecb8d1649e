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
 * @summary With the io_uring engine on, the completion handlers of an
 *          AsynchronousFileChannel on the default pool run on the ring's
 *          thread; a handler that blocks must not stop the ring.  A
 *          handler that waits in Future.get() for another read of the same
 *          channel gets its bytes; while one handler sleeps for 1 s, the
 *          other chains of the channel, another channel's chains and 32
 *          virtual threads reading through the ring go on completing, with
 *          no gap longer than 500 ms (another thread takes the ring over
 *          after 2 ms, IoUring.RESCUE_NANOS); every byte compared.  Also
 *          with the engine off, where the default pool runs each handler on
 *          a thread of its own.  About 3 s.
 * @requires os.family == "linux"
 * @modules jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=true IoUringBlockingHandler
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.nio.useIoUring=false IoUringBlockingHandler
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

public class IoUringBlockingHandler {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 256;
    static final int FILE = 1;                  // Blocks' file number
    static final long WAIT = 10;                // seconds, any bounded wait
    static final long SLEEP_MILLIS = 1000;      // the blocked handler's sleep
    static final long GAP_MILLIS = 500;         // the longest gap allowed meanwhile

    static final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    static volatile boolean running = true;
    // nanoTime of the last completion seen by the other chains and threads
    static final AtomicLong last = new AtomicLong();

    public static void main(String[] args) throws Exception {
        System.out.println("engine: " + IoUringProbe.expectation().why());
        Path file = DirectIODir.get().resolve("blocking-handler");
        ByteBuffer init = ByteBuffer.allocate(BLOCKS * SIZE);
        Blocks.put(init, FILE, 0, BLOCKS, 1);
        Files.write(file, init.array());

        try (AsynchronousFileChannel afc = AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
             AsynchronousFileChannel other = AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
             FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            waitInHandler(afc);
            sleepInHandler(afc, other, fc);
        }
        Files.delete(file);
        if (!failures.isEmpty())
            throw new AssertionError("a read failed", failures.peek());
    }

    static ByteBuffer buffer() {
        return ByteBuffer.allocateDirect(2 * SIZE).alignedSlice(SIZE).slice(0, SIZE);
    }

    static void checkBlock(ByteBuffer buf, int n, int block) {
        if (n != SIZE)
            throw new AssertionError("read " + n + " bytes of block " + block);
        if (!Blocks.matches(buf, 0, FILE, block, 1))
            throw new AssertionError("block " + block + " holds " + Blocks.describe(buf, 0));
    }

    // A handler that waits for another read of the same channel
    static void waitInHandler(AsynchronousFileChannel afc) throws Exception {
        CompletableFuture<Void> end = new CompletableFuture<>();
        ByteBuffer first = buffer();
        afc.read(first, 3L * SIZE, null, new CompletionHandler<Integer, Void>() {
            public void completed(Integer n, Void a) {
                try {
                    checkBlock(first, n, 3);
                    ByteBuffer second = buffer();
                    int got = afc.read(second, 7L * SIZE).get(WAIT, TimeUnit.SECONDS);
                    checkBlock(second, got, 7);
                    end.complete(null);
                } catch (Throwable e) {
                    end.completeExceptionally(e);
                }
            }
            public void failed(Throwable e, Void a) {
                end.completeExceptionally(e);
            }
        });
        end.get(2 * WAIT, TimeUnit.SECONDS);
        System.out.println("a handler's Future.get() of a read of its own channel returned");
    }

    // One handler sleeps while other chains and virtual threads read on
    static void sleepInHandler(AsynchronousFileChannel afc, AsynchronousFileChannel other,
                               FileChannel fc) throws Exception {
        List<CountDownLatch> stopped = new ArrayList<>();
        for (int c = 0; c < 8; c++)
            stopped.add(new Chain(c % 2 == 0 ? afc : other, c).start());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int seed = t;
            threads.add(Thread.ofVirtual().start(() -> {
                ByteBuffer buf = buffer();
                SplittableRandom random = new SplittableRandom(seed);
                try {
                    while (running) {
                        int b = random.nextInt(BLOCKS);
                        checkBlock(buf.clear(), fc.read(buf, (long) b * SIZE), b);
                        last.set(System.nanoTime());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        Thread.sleep(200);      // every chain and thread under way

        CountDownLatch slept = new CountDownLatch(1);
        long[] gap = new long[1];
        ByteBuffer buf = buffer();
        afc.read(buf, 5L * SIZE, null, new CompletionHandler<Integer, Void>() {
            public void completed(Integer n, Void a) {
                try {
                    checkBlock(buf, n, 5);
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SLEEP_MILLIS);
                    last.set(System.nanoTime());
                    // sample the others' progress while this handler blocks
                    for (long now; (now = System.nanoTime()) < end; ) {
                        Thread.sleep(10);
                        gap[0] = Math.max(gap[0], System.nanoTime() - last.get());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    slept.countDown();
                }
            }
            public void failed(Throwable e, Void a) {
                failures.add(e);
                slept.countDown();
            }
        });
        if (!slept.await(WAIT, TimeUnit.SECONDS))
            throw new AssertionError("the sleeping handler did not end");
        running = false;
        for (CountDownLatch l : stopped) {
            if (!l.await(WAIT, TimeUnit.SECONDS))
                throw new AssertionError("a chain did not stop");
        }
        for (Thread t : threads) {
            if (!t.join(java.time.Duration.ofSeconds(WAIT)))
                throw new AssertionError(t + " did not stop");
        }
        long gapMillis = TimeUnit.NANOSECONDS.toMillis(gap[0]);
        System.out.println("while a handler slept " + SLEEP_MILLIS + " ms, the longest gap between"
                + " other completions was " + gapMillis + " ms");
        if (gapMillis > GAP_MILLIS)
            throw new AssertionError("while a handler slept " + SLEEP_MILLIS + " ms, other I/O"
                    + " stopped for " + gapMillis + " ms (at most " + GAP_MILLIS + " allowed)");
    }

    // Reads of random blocks, each issued by the handler of the last
    static final class Chain implements CompletionHandler<Integer, Integer> {
        final AsynchronousFileChannel afc;
        final ByteBuffer buf = buffer();
        final SplittableRandom random;
        final CountDownLatch stopped = new CountDownLatch(1);

        Chain(AsynchronousFileChannel afc, int seed) {
            this.afc = afc;
            this.random = new SplittableRandom(100 + seed);
        }

        CountDownLatch start() {
            next();
            return stopped;
        }

        void next() {
            if (!running) {
                stopped.countDown();
                return;
            }
            int b = random.nextInt(BLOCKS);
            afc.read(buf.clear(), (long) b * SIZE, b, this);
        }

        public void completed(Integer n, Integer b) {
            try {
                checkBlock(buf, n, b);
                last.set(System.nanoTime());
                next();
            } catch (Throwable e) {
                failures.add(e);
                stopped.countDown();
            }
        }

        public void failed(Throwable e, Integer b) {
            failures.add(e);
            stopped.countDown();
        }
    }
}
