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
 * @summary Two guests: with netem dropping 1% of guest B's packets on its
 *          link (both B's data and its acknowledgements of A's), an RDMA
 *          SocketChannel from guest A to an echo peer in B carries 64 MiB
 *          each way, every byte and the CRC32 of each direction compared,
 *          from platform and virtual threads.  Bytes arrive or the stream
 *          fails with an IOException; wrong bytes always fail the test.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=900 PairLoss
 */

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.List;

public class PairLoss {
    static final long BYTES = Long.getLong("rdio.rdma.pairBytes", 64L << 20);
    static final String LOSS = System.getProperty("rdio.rdma.pairLoss", "1%");
    static final int PORT = 7201;

    public static void main(String[] args) throws Exception {
        int pid = PairLib.startPeer("echo", PORT);
        try {
            // the peer first, without loss, so that its start is not slowed
            PairLib.connect(PORT).close();
            PairLib.agentOk("host tc qdisc add dev eth0 root netem loss " + LOSS);
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("echo under " + LOSS + " loss, platform threads", () -> echo(false)),
                    new RdmaTestLib.Case("echo under " + LOSS + " loss, virtual threads", () -> echo(true))));
        } finally {
            PairLib.agent("host tc qdisc del dev eth0 root");
            PairLib.stopPeer(pid);
        }
    }

    static void echo(boolean virtual) throws Exception {
        try (SocketChannel sc = PairLib.connect(PORT)) {
            double secs = PairLib.echo(sc, BYTES, virtual);
            RdmaTestLib.log(String.format("%d MiB each way under %s loss in %.1f s: %.1f MB/s each way",
                    BYTES >> 20, LOSS, secs, BYTES / secs / 1e6));
        } catch (IOException e) {
            // allowed by the contract, but the transport's retries should
            // carry 1%: report it as what it is
            throw new AssertionError("the stream failed under " + LOSS + " loss (no wrong byte was read): " + e, e);
        } finally {
            RdmaTestLib.log("netem in B: " + PairLib.agent("host tc -s qdisc show dev eth0").output().strip());
        }
    }
}
