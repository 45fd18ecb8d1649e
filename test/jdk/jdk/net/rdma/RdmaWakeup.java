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
 * @summary A thread blocked in an RDMA read, write or accept, platform or
 *          virtual, is woken by close (AsynchronousCloseException) and by
 *          interrupt (ClosedByInterruptException) within 2 s, and a
 *          blocked thread waits without spinning.  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaWakeup
 */

import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.InterruptibleChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaWakeup {
    // the bound on a wakeup, from the close or interrupt to the thread's end
    static final long WAKE_MILLIS = 2_000;

    enum Op { READ, WRITE, ACCEPT }

    public static void main(String[] args) throws Exception {
        List<RdmaTestLib.Case> cases = new ArrayList<>();
        for (Op op : Op.values()) {
            for (boolean virtual : new boolean[] { false, true }) {
                for (boolean interrupt : new boolean[] { false, true }) {
                    String name = (interrupt ? "interrupt" : "close") + " of a blocked "
                            + op.name().toLowerCase() + " (" + (virtual ? "virtual" : "platform") + " thread)";
                    cases.add(new RdmaTestLib.Case(name, () -> wake(op, virtual, interrupt)));
                }
            }
        }
        RdmaTestLib.runCases(cases);
    }

    static void wake(Op op, boolean virtual, boolean interrupt) throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        try {
            InterruptibleChannel target;
            Utils.ThrowingRunnable task;
            switch (op) {
                case ACCEPT -> {
                    ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
                    open.add(ssc);
                    ssc.bind(RdmaTestLib.anyPort());
                    target = ssc;
                    task = ssc::accept;
                }
                case READ -> {
                    SocketChannel[] p = pair(open);
                    target = p[0];
                    task = () -> p[0].read(ByteBuffer.allocate(10));
                }
                default -> {
                    SocketChannel[] p = pair(open);
                    target = p[0];
                    // fill the send queue: the peer never reads
                    p[0].configureBlocking(false);
                    ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (p[0].write(chunk.clear()) > 0) {
                        if (System.nanoTime() - deadline > 0)
                            fail("the send queue never filled");
                    }
                    p[0].configureBlocking(true);
                    task = () -> {
                        while (true)
                            p[0].write(chunk.clear());
                    };
                }
            }
            AtomicReference<Throwable> result = new AtomicReference<>();
            Runnable r = () -> {
                try {
                    task.run();
                    result.set(new AssertionError("returned normally"));
                } catch (Throwable e) {
                    result.set(e);
                }
            };
            Thread t = virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
            RdmaTestLib.awaitWaiting(t);
            // waiting, not spinning: it stays in its wait while nothing happens
            long cpu0 = threadCpu(t, virtual);
            Thread.sleep(200);
            assertTrue(RdmaTestLib.isWaiting(t), "the blocked thread waits (it is " + t.getState() + ")");
            if (!virtual) {
                long cpuMs = (threadCpu(t, false) - cpu0) / 1_000_000;
                assertLessThan(cpuMs, 20L, "CPU ms of the blocked thread over 200 ms");
            }
            long t0 = System.nanoTime();
            if (interrupt) {
                t.interrupt();
            } else {
                target.close();
            }
            boolean ended = t.join(java.time.Duration.ofMillis(WAKE_MILLIS));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ended, "blocked " + op + " not woken within " + WAKE_MILLIS + " ms");
            Throwable e = result.get();
            RdmaTestLib.log("  woken in " + ms + " ms: " + e);
            Class<?> expected = interrupt ? ClosedByInterruptException.class : AsynchronousCloseException.class;
            if (!expected.isInstance(e))
                fail("expected " + expected.getName() + ", got " + e, e);
            assertFalse(target.isOpen(), "channel open after the wakeup");
        } finally {
            for (AutoCloseable c : open)
                c.close();
        }
    }

    // a platform thread's CPU time; for a virtual thread, unknown (0)
    static long threadCpu(Thread t, boolean virtual) {
        if (virtual)
            return 0;
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        return mx.getThreadCpuTime(t.threadId());
    }

    /** A connected pair with small buffers: [0] the client, [1] the accepted channel. */
    static SocketChannel[] pair(List<AutoCloseable> open) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            open.add(c);
            c.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            c.connect(ssc.getLocalAddress());
            SocketChannel a = ssc.accept();
            open.add(a);
            return new SocketChannel[] { c, a };
        }
    }
}
