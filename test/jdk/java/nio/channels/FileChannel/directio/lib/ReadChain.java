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

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chain of reads of an AsynchronousFileChannel whose file holds {@link
 * Blocks}' blocks 0 to blocks - 1 of one file number at generation 1: one
 * read of a random block outstanding at a time, each started by the
 * completion handler of the last, so that with the JDK's default pool the
 * next read is started on the thread that ran the handler.  Every block
 * read is compared byte for byte, into a buffer spoiled first if asked.
 * The chain ends after its count of reads, or at the first read after
 * {@link #stop}, or at the first failure.  A handler starts the next read
 * before it returns, so the chain can end while an earlier handler is
 * still running: {@link #settled} waits for that too.
 */
public final class ReadChain implements CompletionHandler<Integer, Integer> {
    private final AsynchronousFileChannel afc;
    private final int file;
    private final int blocks;
    private final long count;
    private final boolean spoil;
    private final SplittableRandom random;
    private final ByteBuffer buf = Blocks.aligned(Blocks.SIZE);
    private final CompletableFuture<Long> end = new CompletableFuture<>();
    private final CompletableFuture<Long> settled = new CompletableFuture<>();
    // start and the handlers running now
    private final AtomicInteger running = new AtomicInteger();
    private volatile boolean stopping;
    // written only by the handler of the chain's one outstanding read
    private volatile long issued;
    private volatile long reads;
    private volatile long lastNanos;

    /**
     * A chain of count reads (Long.MAX_VALUE: until stopped) of afc, whose
     * file holds blocks blocks of file number file; seed picks the blocks.
     */
    public ReadChain(AsynchronousFileChannel afc, int file, int blocks, long seed, long count, boolean spoil) {
        this.afc = afc;
        this.file = file;
        this.blocks = blocks;
        this.count = count;
        this.spoil = spoil;
        this.random = new SplittableRandom(seed);
    }

    /**
     * Starts the first read; returns what completes, with the number of
     * blocks read, when the chain ends, or exceptionally with its failure.
     */
    public CompletableFuture<Long> start() {
        running.incrementAndGet();
        try {
            next();
        } finally {
            leave();
        }
        return end;
    }

    /**
     * What completes as {@link #start}'s result does, once every handler
     * of the chain has also returned: whatever a handler did on its thread
     * after it started the next read has then been done.
     */
    public CompletableFuture<Long> settled() {
        return settled;
    }

    /** Ends the chain once its outstanding read completes. */
    public void stop() {
        stopping = true;
    }

    /**
     * The reads started so far: one more than {@link #reads} while a read
     * is outstanding or its block is being compared.
     */
    public long issued() {
        return issued;
    }

    /** The blocks read and compared so far. */
    public long reads() {
        return reads;
    }

    /** System.nanoTime() at the last block compared, 0 before the first. */
    public long lastNanos() {
        return lastNanos;
    }

    private void next() {
        if (stopping || reads == count) {
            end.complete(reads);
            return;
        }
        int b = random.nextInt(blocks);
        issued = issued + 1;
        try {
            afc.read(spoil ? Blocks.spoil(buf) : buf.clear(), (long) b * Blocks.SIZE, b, this);
        } catch (Throwable e) {
            end.completeExceptionally(e);
        }
    }

    @Override
    public void completed(Integer n, Integer block) {
        running.incrementAndGet();
        try {
            try {
                Blocks.check(buf, n, file, block, 1);
            } catch (Throwable e) {
                end.completeExceptionally(e);
                return;
            }
            reads = reads + 1;
            lastNanos = System.nanoTime();
            next();
        } finally {
            leave();
        }
    }

    @Override
    public void failed(Throwable e, Integer block) {
        running.incrementAndGet();
        try {
            end.completeExceptionally(new AssertionError("the read of block " + block + " failed", e));
        } finally {
            leave();
        }
    }

    // Once the chain has ended no handler starts, so the last to leave
    // after the end settles it
    private void leave() {
        if (running.decrementAndGet() == 0 && end.isDone()) {
            end.whenComplete((n, e) -> {
                if (e != null) {
                    settled.completeExceptionally(e);
                } else {
                    settled.complete(n);
                }
            });
        }
    }
}
