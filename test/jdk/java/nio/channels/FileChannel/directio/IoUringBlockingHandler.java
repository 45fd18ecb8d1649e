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
 * @build DirectIODir IoUringProbe Blocks ReadChain
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringBlockingHandler
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
        Path file = Blocks.create(DirectIODir.get().resolve("blocking-handler"), FILE, BLOCKS);

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

    static void checkBlock(ByteBuffer buf, int n, int block) {
        Blocks.check(buf, n, FILE, block, 1);
    }

    // A handler that waits for another read of the same channel
    static void waitInHandler(AsynchronousFileChannel afc) throws Exception {
        CompletableFuture<Void> end = new CompletableFuture<>();
        ByteBuffer first = Blocks.aligned(SIZE);
        afc.read(first, 3L * SIZE, null, new CompletionHandler<Integer, Void>() {
            public void completed(Integer n, Void a) {
                try {
                    checkBlock(first, n, 3);
                    ByteBuffer second = Blocks.aligned(SIZE);
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
        List<ReadChain> chains = new ArrayList<>();
        List<CompletableFuture<Long>> stopped = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            ReadChain chain = new ReadChain(c % 2 == 0 ? afc : other, FILE, BLOCKS, 100 + c, Long.MAX_VALUE, false);
            chains.add(chain);
            stopped.add(chain.start());
        }
        List<Thread> threads = new ArrayList<>();
        CountDownLatch threadsReading = new CountDownLatch(32);
        for (int t = 0; t < 32; t++) {
            int seed = t;
            threads.add(Thread.ofVirtual().start(() -> {
                ByteBuffer buf = Blocks.aligned(SIZE);
                SplittableRandom random = new SplittableRandom(seed);
                try {
                    for (boolean first = true; running; first = false) {
                        int b = random.nextInt(BLOCKS);
                        checkBlock(buf.clear(), fc.read(buf, (long) b * SIZE), b);
                        last.set(System.nanoTime());
                        if (first)
                            threadsReading.countDown();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        // every chain and thread under way
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        while (chains.stream().anyMatch(c -> c.reads() == 0) && System.nanoTime() < deadline)
            Thread.sleep(10);   // polling the chains' counts
        for (CompletableFuture<Long> f : stopped) {
            if (f.isDone())
                f.join();   // a chain that failed: its failure
        }
        if (chains.stream().anyMatch(c -> c.reads() == 0) || !threadsReading.await(WAIT, TimeUnit.SECONDS))
            throw new AssertionError("the chains and threads did not all read within " + WAIT + " s");

        CountDownLatch slept = new CountDownLatch(1);
        long[] gap = new long[1];
        ByteBuffer buf = Blocks.aligned(SIZE);
        afc.read(buf, 5L * SIZE, null, new CompletionHandler<Integer, Void>() {
            public void completed(Integer n, Void a) {
                try {
                    checkBlock(buf, n, 5);
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SLEEP_MILLIS);
                    last.set(System.nanoTime());
                    // sample the others' progress while this handler blocks
                    for (long now; (now = System.nanoTime()) < end; ) {
                        Thread.sleep(10);
                        gap[0] = Math.max(gap[0], System.nanoTime() - lastOf(chains));
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
        chains.forEach(ReadChain::stop);
        CompletableFuture.allOf(stopped.toArray(CompletableFuture[]::new)).get(WAIT, TimeUnit.SECONDS);
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

    // nanoTime of the last completion of the other chains and the threads
    static long lastOf(List<ReadChain> chains) {
        long t = last.get();
        for (ReadChain c : chains)
            t = Math.max(t, c.lastNanos());
        return t;
    }
}
