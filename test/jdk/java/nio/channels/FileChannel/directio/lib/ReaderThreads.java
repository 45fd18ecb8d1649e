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


import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Virtual threads that keep reading while a test does something else: the
 * tests start them, wait until they have read, and stop them with a flag
 * of their own.
 */
public final class ReaderThreads {
    private ReaderThreads() { }

    /** A reader's loop; each reader has its own seed. */
    public interface Loop {
        void run(int seed) throws Throwable;
    }

    /**
     * Starts count virtual threads, the i-th running loop with seed i.
     * What a loop throws is added to failures.
     */
    public static List<Thread> start(int count, Queue<Throwable> failures, Loop loop) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int seed = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    loop.run(seed);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        return threads;
    }

    /**
     * Waits until reads reaches n, or a reader failed; fails if neither
     * happens within the given seconds.
     */
    public static void awaitReads(AtomicLong reads, long n, Queue<Throwable> failures, long seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (reads.get() < n && failures.isEmpty() && System.nanoTime() < deadline)
            Thread.sleep(10);   // polling the readers' count: reads have no event to wait for
        if (!failures.isEmpty())
            throw new AssertionError("a reader failed", failures.peek());
        if (reads.get() < n)
            throw new AssertionError("the readers read " + reads.get() + " blocks in " + seconds
                    + " s, not " + n);
    }
}
