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
 * @test id=loss1
 * @summary Two guests: with netem dropping 1% of guest B's packets on its
 *          link (both B's data and its acknowledgements of A's), an RDMA
 *          SocketChannel and a classic RDMA Socket from guest A to an echo
 *          peer in B each carry the same number of bytes each way, every
 *          byte and the CRC32 of each direction compared, from platform and
 *          virtual threads.  Bytes arrive or the stream fails with an
 *          IOException; wrong bytes always fail the test.  4 MiB each
 *          way per case: 32 times rsockets' 128 KiB buffers, so that the
 *          writer waits for room under the loss, and about 70 of B's
 *          packets dropped per case.  -Drdio.rdma.loss1Bytes=N
 *          sets this run's bytes per case (16 MiB, 16777216, in the
 *          extended run; 256 MiB takes about 42 minutes,
 *          doc/testing.md), -Drdio.rdma.pairBytes=N every case's of both
 *          runs where the run's own property is not set.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=900 PairLoss 1% 4096
 */

/*
 * @test id=loss10
 * @summary The same at 10% loss, 256 KiB each way per case (170 to 370
 *          of B's packets dropped, 16 to 62 s, per case).
 *          -Drdio.rdma.loss10Bytes=N sets this run's bytes per case,
 *          -Drdio.rdma.pairBytes=N as above.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=900 PairLoss 10% 256
 */

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jdk.net.Sockets;

public class PairLoss {
    static final int PORT = 7201;

    public static void main(String[] args) throws Exception {
        String loss = args[0];
        // LOSS, then each case's KiB each way (1%: 4 MiB, about 70 drops a case); rdio.rdma.loss1Bytes for 1%
        long bytes = Long.getLong("rdio.rdma.loss" + loss.replace("%", "") + "Bytes",
                Long.getLong("rdio.rdma.pairBytes", Long.parseLong(args[1]) << 10));
        int pid = PairLib.startPeer("echo", PORT);
        try {
            // the peer first, without loss, so that its start is not slowed
            PairLib.connect(PORT).close();
            PairLib.agentOk("host tc qdisc add dev eth0 root netem loss " + loss);
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("channel under " + loss + " loss, platform threads",
                            () -> echoChannel(loss, bytes, false)),
                    new RdmaTestLib.Case("channel under " + loss + " loss, virtual threads",
                            () -> echoChannel(loss, bytes, true)),
                    new RdmaTestLib.Case("classic socket under " + loss + " loss, platform threads",
                            () -> echoSocket(loss, bytes, false)),
                    new RdmaTestLib.Case("classic socket under " + loss + " loss, virtual threads",
                            () -> echoSocket(loss, bytes, true))));
        } finally {
            PairLib.agent("host tc qdisc del dev eth0 root");
            PairLib.stopPeer(pid);
        }
    }

    static void echoChannel(String loss, long bytes, boolean virtual) throws Exception {
        Retries before = Retries.now();
        try (SocketChannel sc = PairLib.connect(PORT)) {
            report("channel", loss, bytes, PairLib.echo(sc, bytes, virtual));
        } catch (IOException e) {
            throw failed(loss, e);
        } finally {
            netem();
            Retries.log(before);
        }
    }

    static void echoSocket(String loss, long bytes, boolean virtual) throws Exception {
        Retries before = Retries.now();
        try (Socket s = Sockets.openRdmaSocket()) {
            s.connect(new InetSocketAddress(PairLib.PEER, PORT));
            report("classic socket", loss, bytes, PairLib.echo(s, bytes, virtual, new AtomicLong()));
        } catch (IOException e) {
            throw failed(loss, e);
        } finally {
            netem();
            Retries.log(before);
        }
    }

    /**
     * rxe's counters in A and in B.  A sender retransmits after a NAK of
     * a sequence error, which rcvd_seq_err counts, or when its ACK timer
     * fires; completer_retry_err counts both.
     */
    record Retries(String a, String b) {
        static Retries now() throws IOException {
            return new Retries(PairLib.rxeCounters(), PairLib.peerRxeCounters());
        }

        // A diagnostic: it must not hide how the case ended
        static void log(Retries before) {
            try {
                Retries now = now();
                RdmaTestLib.log("rxe retries in A: " + since(now.a, before.a)
                        + "; in B: " + since(now.b, before.b));
            } catch (IOException | RuntimeException e) {
                RdmaTestLib.log("rxe's counters could not be read: " + e);
            }
        }

        private static String since(String now, String then) {
            long retries = PairLib.counterDelta(now, then, "completer_retry_err");
            long nak = PairLib.counterDelta(now, then, "rcvd_seq_err");
            return retries + " (" + nak + " after a sequence-error NAK), "
                    + PairLib.counterDelta(now, then, "sent_pkts") + " packets sent";
        }
    }

    static void report(String what, String loss, long bytes, double secs) {
        RdmaTestLib.log(String.format("%s: %.1f MiB each way under %s loss in %.1f s: %.2f MB/s each way",
                what, bytes / 1048576.0, loss, secs, bytes / secs / 1e6));
    }

    // Allowed by the contract, but the transport's retries should carry
    // the loss: reported as what it is.
    static AssertionError failed(String loss, IOException e) {
        return new AssertionError("the stream failed under " + loss + " loss (no wrong byte was read): " + e, e);
    }

    static void netem() throws IOException {
        RdmaTestLib.log("netem in B: " + PairLib.agent("host tc -s qdisc show dev eth0").output().strip());
    }
}
