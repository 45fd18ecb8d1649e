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
 *          (make/scripts/rdma-guest.sh).
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm RdmaSpinMicros parks
 */

/*
 * @test id=off
 * @summary -Djdk.net.rdma.spinMicros=0: no spin.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=0 RdmaSpinMicros parks
 */

/*
 * @test id=long
 * @summary -Djdk.net.rdma.spinMicros=65000: the first wait of a socket
 *          spins for 65 ms, on a CPU, before it parks.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=65000 RdmaSpinMicros spins
 */

/*
 * @test id=ignored
 * @summary -Djdk.net.rdma.spinMicros=70000, above the 65535 most, is
 *          ignored rather than cut down: the default applies.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.net.rdma.spinMicros=70000 RdmaSpinMicros parks
 */

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import static jdk.test.lib.Asserts.*;

public class RdmaSpinMicros {
    // the timed read's timeout, well past any spin budget
    static final int TIMEOUT_MILLIS = 500;
    // a read that parks at once costs less CPU than this...
    static final long PARKED_MAX_CPU_MILLIS = 20;
    // ...and one that spins for 65 ms more than this, even if the guest
    // takes its CPU away for a while
    static final long SPUN_MIN_CPU_MILLIS = 40;

    public static void main(String[] args) throws Exception {
        boolean spins = switch (args[0]) {
            case "spins" -> true;
            case "parks" -> false;
            default -> throw new IllegalArgumentException(args[0]);
        };
        // The first timed read loads and links the path; its socket's
        // budget then shrinks, so the measured read uses a new socket,
        // which starts at the most.
        timedRead(false);
        long cpuMillis = timedRead(true) / 1_000_000;
        System.out.println("CPU time of a read that timed out after " + TIMEOUT_MILLIS
                + " ms: " + cpuMillis + " ms (" + System.getProperty("jdk.net.rdma.spinMicros", "default") + ")");
        if (spins) {
            assertGreaterThanOrEqual(cpuMillis, SPUN_MIN_CPU_MILLIS, "the read did not spin");
        } else {
            assertLessThan(cpuMillis, PARKED_MAX_CPU_MILLIS, "the read spun");
        }
    }

    /**
     * A read on a new connection that times out, then one that gets the
     * byte the peer sends after it; returns the CPU time that the first
     * read cost this thread, in nanoseconds.
     */
    static long timedRead(boolean measured) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        SocketChannel[] p = RdmaTestLib.pair();
        try (SocketChannel c = p[0]; SocketChannel peer = p[1]) {
            Socket s = c.socket();
            s.setSoTimeout(TIMEOUT_MILLIS);
            InputStream in = s.getInputStream();
            long cpu = mx.getCurrentThreadCpuTime();
            assertThrows(SocketTimeoutException.class, in::read);
            cpu = mx.getCurrentThreadCpuTime() - cpu;
            // the connection still works after the timeout
            peer.write(ByteBuffer.wrap(new byte[] { 42 }));
            assertEquals(42, in.read(), "the byte sent after the timeout");
            return cpu;
        }
    }
}
