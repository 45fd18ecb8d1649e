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
 * @summary Threads blocked reading idle RDMA connections cost no CPU:
 *          500 virtual threads blocked on 500 idle connections use under
 *          0.025 cores of process CPU time over 10 s, and 200 platform
 *          threads on 200 under 0.05; then one byte sent on each
 *          connection wakes its reader, which gets that byte.  Both ends
 *          are in this JVM, with small buffers and queues.  librdmacm 44.0
 *          needs room for the 1,000 sockets in its connection service
 *          (jdk.net.rdma.serviceRounds, doc/rdma-sockets-design.md).
 *          -Drdio.rdma.idleVirtual=N and -Drdio.rdma.idlePlatform=N set
 *          the counts (1,000 virtual readers in make
 *          test-rdio-extended); the bound is 0.05 cores for 1,000 virtual or 200
 *          platform readers, in proportion for fewer but at least 0.02
 *          cores (0.004 to 0.015 were measured, doc/benchmarks-rdma.md),
 *          and 0.05 for more.
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 -Drdio.rdma.caseTimeout=400 RdmaIdleCost
 */

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;


import static jdk.test.lib.Asserts.*;

public class RdmaIdleCost {
    static final long MEASURE_MILLIS = 10_000;
    // the bound: 0.05 cores for 1,000 virtual readers, and for 200 platform readers
    static final double MAX_CORES = 0.05;
    static final int MAX_CORES_VIRTUAL = 1000, MAX_CORES_PLATFORM = 200;
    // the least bound, for few: 1,000 virtual readers cost 0.004 to 0.006 cores, 200 to 1,000 platform 0.009 to 0.015
    static final double MIN_CORES = 0.02;
    // half the full count with half its bound: a reader that costs 50 us of CPU a second fails it still
    static final int VIRTUAL = Integer.getInteger("rdio.rdma.idleVirtual", 500);
    // the full count: half of it would halve the bound to 0.025, under twice the 0.015 measured
    static final int PLATFORM = Integer.getInteger("rdio.rdma.idlePlatform", 200);

    // the bound for count readers: MAX_CORES per full count, in proportion below it
    static double maxCores(int count, boolean virtual) {
        int full = virtual ? MAX_CORES_VIRTUAL : MAX_CORES_PLATFORM;
        return Math.clamp(MAX_CORES * count / full, MIN_CORES, MAX_CORES);
    }

    public static void main(String[] args) throws Exception {
        // room in librdmacm 44.0's connection service for both ends of the larger case's connections and the
        // backlog (jdk.net.rdma.serviceRounds: 4 sockets a round), set before
        // the first RDMA socket
        if (System.getProperty("jdk.net.rdma.serviceRounds") == null)
            System.setProperty("jdk.net.rdma.serviceRounds",
                    Integer.toString((2 * Math.max(VIRTUAL, PLATFORM) + 64) / 4 + 8));
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case(VIRTUAL + " virtual-thread readers", () -> idle(VIRTUAL, true)),
                new RdmaTestLib.Case(PLATFORM + " platform-thread readers", () -> idle(PLATFORM, false))));
    }

    static void idle(int count, boolean virtual) throws Exception {
        List<SocketChannel> clients = new ArrayList<>();
        List<SocketChannel> accepted = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        AtomicReferenceArray<Object> got = new AtomicReferenceArray<>(count);
        try (ServerSocketChannel ssc = RdmaTestLib.smallServer()) {
            RdmaTestLib.connectSmall(ssc, count, clients, accepted);
            for (int i = 0; i < count; i++) {
                int k = i;
                SocketChannel c = clients.get(i);
                Runnable r = () -> {
                    try {
                        ByteBuffer b = ByteBuffer.allocate(2);
                        int n = c.read(b);
                        got.set(k, (n == 1) ? (Object) b.get(0) : "read " + n);
                    } catch (Throwable e) {
                        got.set(k, e);
                    }
                };
                readers.add(virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r));
            }
            for (Thread t : readers)
                RdmaTestLib.awaitWaiting(t);
            RdmaTestLib.log("  " + count + " readers blocked, " + RdmaTestLib.status("Threads") + " threads");

            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long wall0 = System.nanoTime();
            Thread.sleep(MEASURE_MILLIS);   // the measurement interval, not a wait for an event
            double cores = (os.getProcessCpuTime() - cpu0) / (double) (System.nanoTime() - wall0);
            RdmaTestLib.log(String.format("  %d %s readers blocked for %d ms: %.4f cores (bound %.3f)", count,
                    virtual ? "virtual" : "platform", MEASURE_MILLIS, cores, maxCores(count, virtual)));
            for (int i = 0; i < count; i++)
                assertTrue(readers.get(i).isAlive(), "reader " + i + " still blocked: " + got.get(i));

            for (int i = 0; i < count; i++)
                accepted.get(i).write(ByteBuffer.wrap(new byte[] { (byte) i }));
            long deadline = System.nanoTime() + 10_000_000_000L;
            for (Thread t : readers) {
                if (!t.join(Duration.ofNanos(Math.max(deadline - System.nanoTime(), 1)))) {
                    RdmaTestLib.dumpThreads();
                    fail(t + " did not wake within 10 s of its byte");
                }
            }
            for (int i = 0; i < count; i++)
                assertEquals((byte) i, got.get(i), "what reader " + i + " got");
            assertLessThan(cores, maxCores(count, virtual), "cores used while " + count + " readers were blocked");
        } finally {
            for (SocketChannel c : clients)
                c.close();
            for (SocketChannel c : accepted)
                c.close();
            for (Thread t : readers)
                t.join();
        }
    }
}
