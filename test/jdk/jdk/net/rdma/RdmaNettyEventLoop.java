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
 * @summary Netty's default NIO event loop drives RDMA channels that a
 *          program opened with jdk.net.RdmaSockets and handed to Netty
 *          (new NioSocketChannel(channel), new NioServerSocketChannel(
 *          channel)), beside TCP channels in the same event loop group,
 *          with no rules file (issue 41, item 3): the group's selectors are
 *          the default provider's.  netty/NettyRdmaChannels.java runs in a
 *          JVM with Netty's jars (RDIO_NETTY_DIR); every echoed byte is
 *          compared, and rxe0's packet counters show the RDMA traffic.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=600 RdmaNettyEventLoop
 */

import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaNettyEventLoop {
    static final int CONNECTIONS = 4, SIZE = 1024 * 1024;

    public static void main(String[] args) throws Exception {
        String classPath = FrameworkRun.classPath("RDIO_NETTY_DIR", "the Netty jars", "netty-example-");
        long sent = FrameworkRun.counter("sent_pkts"), rcvd = FrameworkRun.counter("rcvd_pkts");
        OutputAnalyzer out = ProcessTools.executeProcess(JDKToolFinder.getJDKTool("java"),
                "-cp", classPath, FrameworkRun.source("netty/NettyRdmaChannels.java"),
                RdmaTestLib.SERVER.getHostAddress(), "" + CONNECTIONS, "" + SIZE);
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        out.shouldContain("verified RDMA " + CONNECTIONS + " x " + SIZE + ", TCP " + CONNECTIONS + " x " + SIZE
                + ", selector provider sun.nio.ch.EPollSelectorProvider");

        // The RDMA echoes crossed rxe0, which carries both ends: a packet
        // holds at most an MTU (4096 bytes at most on RoCE), and the bytes
        // go there and back.
        long packets = 2L * CONNECTIONS * SIZE / 4096;
        sent = FrameworkRun.counter("sent_pkts") - sent;
        rcvd = FrameworkRun.counter("rcvd_pkts") - rcvd;
        System.out.println("rxe0: " + sent + " packets sent, " + rcvd + " received");
        assertGreaterThanOrEqual(sent, packets, "packets sent by rxe0");
        assertGreaterThanOrEqual(rcvd, packets, "packets received by rxe0");
    }
}
