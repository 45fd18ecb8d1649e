/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import sun.nio.ch.FileDispatcher.Completion;

/**
 * The reads and writes of a DIRECT {@link AsynchronousFileChannel} whose
 * dispatcher queues them to the operating system ({@link
 * FileDispatcher#start}), so that any number can be outstanding without
 * holding a pool thread each.  The caller checks the operation and starts
 * it; the dispatcher's completion thread finishes it, and hands the
 * completion handler to the channel's pool, as the spec requires.  A
 * channel on the JDK's default pool has no such hand-off while its handlers
 * are short ({@link #INLINE_HANDLER_NANOS}): the completion thread counts
 * as one of that pool's threads and runs the handler itself, and every
 * operation of such a channel that overlaps another is queued, however few
 * are outstanding, so that a handler that starts the next one starts it on
 * the thread that will complete it.
 *
 * <p> The channel's close waits, in {@link #awaitIdle}, until every
 * operation started has finished, so its buffers and its file descriptor
 * outlive the I/O.  An operation that fails because the channel was closed
 * fails with {@link AsynchronousCloseException}; one that completed is
 * reported as completed.
 */
final class AsyncFileIO {
    private final AsynchronousFileChannelImpl channel;
    private final FileDescriptor fd;
    private final DirectIOAlignment alignment;
    private final FileDispatcher nd;
    private final ExecutorService executor;
    // the JDK's default pool: handlers run on the completion thread
    private final boolean inline;

    // Whether each of the channel's last 8 handlers ran for longer than
    // INLINE_HANDLER_NANOS, a bit each, the latest lowest; racy updates
    // lose a sample at worst
    private volatile int slowHandlers;

    /**
     * How long a handler of a channel on the default pool may run on the
     * completion thread.  Once 5 of a channel's last 8 handlers ran longer,
     * its handlers go to the pool, whose threads run them side by side, as
     * on JDK 25, until fewer than 5 of the last 8 did.  The completion
     * thread is one for the whole VM, so handlers that compute serialize
     * on it.  Measured with 16 chains of 4 KiB reads on 2 CPUs
     * (doc/benchmarks-directio.md): handlers that computed 120 microseconds
     * each made 0.56 of JDK 25's rate on the completion thread and 1.00 on
     * the pool; of 15 microseconds, 0.89 and 1.11; of 8, 1.13 on the
     * completion thread.
     */
    static final long INLINE_HANDLER_NANOS = 10_000;

    // Operations started and not yet finished; guarded by this
    private int outstanding;

    AsyncFileIO(AsynchronousFileChannelImpl channel, FileDescriptor fd,
                DirectIOAlignment alignment, FileDispatcher nd, ExecutorService executor,
                boolean defaultPool) {
        this.channel = channel;
        this.fd = fd;
        this.alignment = alignment;
        this.nd = nd;
        this.executor = executor;
        this.inline = defaultPool;
    }

    /**
     * Starts a read or write, as AsynchronousFileChannel.read and write
     * specify, once the caller has checked the arguments.
     */
    <A> Future<Integer> start(boolean write, ByteBuffer buf, long position, A attachment,
                              CompletionHandler<Integer,? super A> handler) {
        PendingFuture<Integer,A> result = (handler == null) ? new PendingFuture<>(channel) : null;
        Operation<A> op = new Operation<>(write, buf, attachment, handler, result);
        try {
            op.start(position);
        } catch (IOException | RuntimeException e) {
            op.refused(e);
        }
        return result;
    }

    /** Waits until every operation started has finished. */
    synchronized void awaitIdle() {
        boolean interrupted = false;
        while (outstanding > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted)
            Thread.currentThread().interrupt();
    }

    // Counts an operation as outstanding; returns how many others are,
    // or -1 if the channel is closed
    private synchronized int begin() {
        if (!channel.isOpen())
            return -1;
        return outstanding++;
    }

    private synchronized void end() {
        if (--outstanding == 0)
            notifyAll();
    }

    /** One read or write, from its start to its completion. */
    private final class Operation<A> implements Completion {
        private final boolean write;
        private final ByteBuffer buf;
        private final A attachment;
        private final CompletionHandler<Integer,? super A> handler;
        private final PendingFuture<Integer,A> result;
        private ByteBuffer bb;      // the native buffer the I/O uses
        private int pos;            // its position at the start
        private boolean begun;      // counted as outstanding, bb's scope held

        Operation(boolean write, ByteBuffer buf, A attachment,
                  CompletionHandler<Integer,? super A> handler, PendingFuture<Integer,A> result) {
            this.write = write;
            this.buf = buf;
            this.attachment = attachment;
            this.handler = handler;
            this.result = result;
        }

        void start(long position) throws IOException {
            // the checks, in IOUtil's order
            if (write) {
                alignment.checkWritePosition(position);
            } else {
                alignment.checkReadPosition(position);
            }
            int rem = buf.remaining();
            if (buf instanceof DirectBuffer) {
                bb = buf;
                alignment.checkAddress(bb, bb.position());
                checkLength(rem);
            } else {
                // a native buffer in its place, as IOUtil does
                checkLength(rem);
                bb = Util.getTemporaryAlignedDirectBuffer(rem, alignment.memory());
                if (write) {
                    int p = buf.position();
                    bb.put(buf);
                    bb.flip();
                    buf.position(p);
                }
            }
            pos = bb.position();
            IOUtil.acquireScope(bb, true);
            int others = begin();
            if (others < 0) {
                IOUtil.releaseScope(bb);
                throw new AsynchronousCloseException();
            }
            begun = true;
            long address = IOUtil.bufferAddress(bb) + pos;
            // With few others outstanding, the operation runs on a pool
            // thread, as without the queue: one hand-over between threads,
            // where the queue costs two, to its thread and then to the
            // pool.  The queue pays off once many operations overlap, or
            // where the handler runs on the completion thread, once one
            // other does: alone, an operation is done sooner by pread or
            // pwrite on a pool thread (an io_uring write at depth 1 lost
            // to pwrite, doc/benchmarks-directio.md).
            if (nd.start(fd, write, address, rem, position,
                         (inline && others > 0) ? Integer.MAX_VALUE : others, this))
                return;
            Runnable task = () -> {
                int n = 0;
                IOException exc = null;
                try {
                    do {
                        n = write ? nd.pwrite(fd, address, rem, position)
                                  : nd.pread(fd, address, rem, position);
                    } while (n == IOStatus.INTERRUPTED && channel.isOpen());
                } catch (IOException e) {
                    exc = e;
                }
                end();
                finish(n, exc);
            };
            // counted first: the pool's thread may finish the operation, and
            // its caller see the count, before execute returns
            IoHandoffs.count();
            try {
                executor.execute(task);
            } catch (RejectedExecutionException e) {
                IoHandoffs.uncount();
                if (!nd.start(fd, write, address, rem, position, Integer.MAX_VALUE, this))
                    task.run();
            }
        }

        private void checkLength(int len) throws IOException {
            if (write) {
                alignment.checkWriteLength(len);
            } else {
                alignment.checkReadLength(len);
            }
        }

        // The operation failed before its I/O started: the failure goes to
        // the handler on a pool thread, as a failed I/O's would
        void refused(Throwable exc) {
            if (begun) {
                IOUtil.releaseScope(bb);
                end();
            }
            if (bb != null && bb != buf)
                Util.releaseTemporaryDirectBuffer(bb);
            if (!channel.isOpen() && exc instanceof IOException
                    && !(exc instanceof AsynchronousCloseException))
                exc = new AsynchronousCloseException();
            if (handler == null) {
                result.setResult(0, exc);
            } else {
                IoHandoffs.count();
                Invoker.invokeIndirectly(handler, attachment, 0, exc, executor);
            }
        }

        // Called by the dispatcher's completion thread.  The I/O is over,
        // so the channel may close now, before the handler runs: a handler
        // that closes the channel must not wait for its own pool.
        @Override
        public void completed(int n, IOException exc) {
            end();
            if (handler == null) {
                finish(n, exc);
            } else if (inline && Integer.bitCount(slowHandlers & 0xff) < 5) {
                timedFinish(n, exc);
            } else {
                IoHandoffs.count();     // before the handler can run
                // only the default pool's handlers are timed: the time
                // decides whether they come back to the completion thread
                Runnable task = inline ? () -> timedFinish(n, exc) : () -> finish(n, exc);
                try {
                    executor.execute(task);
                } catch (RejectedExecutionException x) {
                    // the pool is shut down: the handler runs on a thread of
                    // its own, as the completion thread must not block
                    Thread.ofVirtual().start(() -> finish(n, exc));
                }
            }
        }

        private void timedFinish(int n, IOException exc) {
            long t0 = System.nanoTime();
            try {
                finish(n, exc);
            } finally {
                boolean slow = System.nanoTime() - t0 > INLINE_HANDLER_NANOS;
                slowHandlers = (slowHandlers << 1) | (slow ? 1 : 0);
            }
        }

        void finish(int n, Throwable exc) {
            if (begun) {
                IOUtil.releaseScope(bb);
                if (exc == null && n == IOStatus.INTERRUPTED) {
                    exc = new AsynchronousCloseException();
                } else if (exc == null && n > 0) {
                    if (bb == buf) {
                        buf.position(pos + n);
                    } else if (write) {
                        buf.position(buf.position() + n);
                    } else {
                        bb.limit(pos + n);
                        buf.put(bb);
                    }
                }
            }
            if (bb != null && bb != buf)
                Util.releaseTemporaryDirectBuffer(bb);
            if (exc != null) {
                n = 0;
                if (!channel.isOpen() && !(exc instanceof AsynchronousCloseException)
                        && !(exc instanceof RuntimeException))
                    exc = new AsynchronousCloseException();
            } else {
                n = IOStatus.normalize(n);
            }
            if (handler == null) {
                result.setResult(n, exc);
            } else {
                Invoker.invokeUnchecked(handler, attachment, n, exc);
            }
        }
    }
}
