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
 * @test id=default
 * @summary A read that waits on an RDMA socket spins for at most 200 us by
 *          default before it parks: a timed read that times out costs its
 *          thread almost no CPU.  Runs in the Soft-RoCE guest
 *          (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm RdmaSpinMicros parks
 */

/*
 * @test id=off
 * @summary -Djdk.net.rdma.spinMicros=0: no spin.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=0 RdmaSpinMicros parks
 */

/*
 * @test id=long
 * @summary -Djdk.net.rdma.spinMicros=65000: the first wait of a socket
 *          spins for 65 ms, on a CPU, before it parks.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=65000 RdmaSpinMicros spins
 */

/*
 * @test id=ignored
 * @summary -Djdk.net.rdma.spinMicros=70000, above the 65535 most, is
 *          ignored rather than cut down: the default applies.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=70000 RdmaSpinMicros parks
 */

/*
 * @test id=virtual
 * @summary A virtual thread's timed read parks as a platform thread's
 *          does: its carrier spends almost no CPU on it.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm -Djdk.virtualThreadScheduler.parallelism=1 RdmaSpinMicros parks virtual
 */

/*
 * @test id=virtual-long
 * @summary -Djdk.net.rdma.spinMicros=65000 on a virtual thread: the spin
 *          runs on its carrier before the virtual thread unmounts.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm -Djdk.virtualThreadScheduler.parallelism=1
 *                   -Djdk.net.rdma.spinMicros=65000 RdmaSpinMicros spins virtual
 */

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

import static jdk.test.lib.Asserts.*;

public class RdmaSpinMicros {
    // the timed read's timeout, well past any spin budget
    static final int TIMEOUT_MILLIS = 500;
    // a read that parks at once costs less CPU than this: measured 2 to
    // 10 ms on a platform thread...
    static final long PARKED_MAX_CPU_MILLIS = 25;
    // ...and 8 to 31 ms on a virtual one, whose carrier also unmounts and
    // mounts it, and reads every thread's CPU time (31 on a loaded
    // machine); a read that spun for the 65 ms budget measured 72 to 88
    // ms, one that spun for the timeout would take 500
    static final long VIRTUAL_PARKED_MAX_CPU_MILLIS = 50;
    // a read that spins for 65 ms costs more than this, even if the guest
    // takes its CPU away for a while
    static final long SPUN_MIN_CPU_MILLIS = 40;

    public static void main(String[] args) throws Exception {
        boolean spins = switch (args[0]) {
            case "spins" -> true;
            case "parks" -> false;
            default -> throw new IllegalArgumentException(args[0]);
        };
        boolean virtual = args.length > 1 && args[1].equals("virtual");
        // The first timed read loads and links the path; its socket's
        // budget then shrinks, so the measured read uses a new socket,
        // which starts at the most.
        long cpuMillis = virtual ? virtualTimedReads() : timedReads();
        System.out.println("CPU time of a read that timed out after " + TIMEOUT_MILLIS
                + " ms on a " + (virtual ? "virtual" : "platform") + " thread: " + cpuMillis
                + " ms (" + System.getProperty("jdk.net.rdma.spinMicros", "default") + ")");
        if (spins) {
            assertGreaterThanOrEqual(cpuMillis, SPUN_MIN_CPU_MILLIS, "the read did not spin");
        } else {
            assertLessThan(cpuMillis, virtual ? VIRTUAL_PARKED_MAX_CPU_MILLIS : PARKED_MAX_CPU_MILLIS,
                    "the read spun");
        }
    }

    /** The warm-up read and the measured one, on this platform thread. */
    static long timedReads() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        timedRead(mx::getCurrentThreadCpuTime);
        return timedRead(mx::getCurrentThreadCpuTime) / 1_000_000;
    }

    /**
     * The warm-up read and the measured one, each on a virtual thread of
     * its own, measured on the scheduler's carrier: ThreadMXBean has
     * no CPU time for a virtual thread, and the spin runs in native code
     * on the carrier, before the virtual thread parks and unmounts.
     */
    static long virtualTimedReads() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] cpu = new long[2];
        Exception[] failure = new Exception[1];
        for (int i = 0; i < cpu.length; i++) {
            int run = i;
            Thread.ofVirtual().start(() -> {
                try {
                    cpu[run] = timedRead(() -> carriersCpuTime(mx));
                } catch (Exception e) {
                    failure[0] = e;
                }
            }).join();
            if (failure[0] != null)
                throw failure[0];
        }
        return cpu[1] / 1_000_000;
    }

    // the CPU time of the virtual thread scheduler's carriers, in nanoseconds
    static long carriersCpuTime(ThreadMXBean mx) {
        long sum = 0;
        int carriers = 0;
        for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null && info.getThreadName().matches("ForkJoinPool-\\d+-worker-\\d+")) {
                sum += Math.max(0, mx.getThreadCpuTime(info.getThreadId()));
                carriers++;
            }
        }
        assertGreaterThanOrEqual(carriers, 1, "carriers of the virtual thread scheduler");
        return sum;
    }

    /**
     * A read on a new connection that times out, then one that gets the
     * byte the peer sends after it; returns the CPU time, by clock, that
     * the first read cost, in nanoseconds.
     */
    static long timedRead(LongSupplier clock) throws Exception {
        SocketChannel[] p = RdmaTestLib.pair();
        try (SocketChannel c = p[0]; SocketChannel peer = p[1]) {
            Socket s = c.socket();
            s.setSoTimeout(TIMEOUT_MILLIS);
            InputStream in = s.getInputStream();
            long cpu = clock.getAsLong();
            assertThrows(SocketTimeoutException.class, in::read);
            cpu = clock.getAsLong() - cpu;
            // the connection still works after the timeout
            peer.write(ByteBuffer.wrap(new byte[] { 42 }));
            assertEquals(42, in.read(), "the byte sent after the timeout");
            return cpu;
        }
    }
}
