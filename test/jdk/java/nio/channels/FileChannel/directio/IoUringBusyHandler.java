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
 * @summary Completion handlers of a DIRECT AsynchronousFileChannel on the
 *          default pool that compute for long run side by side, as on
 *          JDK 25, not one at a time on the engine's completion thread:
 *          8 chains of reads whose handlers each compute for 300
 *          microseconds (a spin, no blocking, so the ring's rescue never
 *          acts) have at least 2 handlers running at once, on at least 2
 *          threads, before 2,000 have run; every block read is compared.
 *          Without the engine's switch to the pool for long handlers, at
 *          most 1 ran at once in 2,007.  Also with the engine off.
 * @requires os.family == "linux"
 * @library lib /test/lib
 * @build DirectIODir Blocks
 * @run main/othervm IoUringBusyHandler
 * @run main/othervm -Djdk.nio.useIoUring=false IoUringBusyHandler
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.file.StandardOpenOption.READ;

import com.sun.nio.file.ExtendedOpenOption;

public class IoUringBusyHandler {
    private static final int FILE = 11;
    private static final int BLOCKS = 256;
    private static final int CHAINS = 8;
    private static final int MAX_HANDLERS = 2_000;
    private static final long SPIN_NANOS = 300_000;

    private static final AtomicInteger running = new AtomicInteger();
    private static final AtomicInteger mostRunning = new AtomicInteger();
    private static final AtomicInteger handlers = new AtomicInteger();
    private static final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private static final AtomicReference<Throwable> failure = new AtomicReference<>();
    private static final CountDownLatch stopped = new CountDownLatch(CHAINS);

    public static void main(String[] args) throws Exception {
        Path file = Blocks.create(DirectIODir.get().resolve("busy-handler"), FILE, BLOCKS);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ,
                ExtendedOpenOption.DIRECT)) {
            for (int i = 0; i < CHAINS; i++)
                new Chain(ch, i).read();
            if (!stopped.await(10, TimeUnit.SECONDS))
                throw new AssertionError("the chains did not stop within 10 s ("
                        + handlers.get() + " handlers ran)");
        } finally {
            Files.deleteIfExists(file);
        }
        if (failure.get() != null)
            throw new AssertionError("a read failed", failure.get());
        System.out.println(handlers.get() + " handlers; at most " + mostRunning.get()
                + " at once, on " + threads.size() + " threads");
        if (mostRunning.get() < 2 || threads.size() < 2)
            throw new AssertionError("handlers of 300 microseconds ran one at a time (at most "
                    + mostRunning.get() + " at once, on " + threads.size() + " threads) in "
                    + handlers.get() + " handlers");
    }

    /** One read outstanding; its handler checks the block, computes, and reads the next. */
    static final class Chain implements CompletionHandler<Integer, Long> {
        private final AsynchronousFileChannel ch;
        private final ByteBuffer buf = Blocks.aligned(Blocks.SIZE);
        private long block;

        Chain(AsynchronousFileChannel ch, int first) {
            this.ch = ch;
            this.block = first;
        }

        void read() {
            Blocks.spoil(buf);
            ch.read(buf, block * Blocks.SIZE, block, this);
        }

        @Override
        public void completed(Integer n, Long b) {
            int now = running.incrementAndGet();
            mostRunning.accumulateAndGet(now, Math::max);
            threads.add(Thread.currentThread());
            boolean more;
            try {
                Blocks.check(buf, n, FILE, b, 1);
                long end = System.nanoTime() + SPIN_NANOS;
                while (System.nanoTime() < end)
                    Thread.onSpinWait();
                int h = handlers.incrementAndGet();
                more = h < MAX_HANDLERS && (mostRunning.get() < 2 || threads.size() < 2);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                more = false;
            } finally {
                running.decrementAndGet();
            }
            if (more) {
                block = (block + CHAINS) % BLOCKS;
                read();
            } else {
                stopped.countDown();
            }
        }

        @Override
        public void failed(Throwable e, Long b) {
            failure.compareAndSet(null, e);
            stopped.countDown();
        }
    }
}
