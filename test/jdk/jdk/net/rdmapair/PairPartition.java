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
 * @summary Two guests: a partition of the link while an RDMA SocketChannel
 *          and a classic RDMA Socket from guest A to an echo peer in guest
 *          B carry 8 MiB each way.  Both guests drop every packet they send
 *          (netem loss 100% on each eth0), then the link heals.  A short
 *          partition (3 s), well within a transport's retry budget: the
 *          blocked reader and writer resume once it heals, and every byte
 *          arrives once, in order (each byte and the CRC32 of each
 *          direction compared).  A long one (25 s), beyond the budget
 *          (17.2 s): a transport that gives up fails the stream with an
 *          IOException; Soft-RoCE's never gives up at rsockets' retry_count
 *          7, so there the stream resumes, intact.  Wrong bytes always fail.
 *          -Drdio.rdma.partitionBytes=N carries N bytes each way (32 MiB,
 *          33554432, in the extended run), as -Drdio.rdma.pairBytes=N
 *          does where that is not set.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairPartition
 */

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;

public class PairPartition {
    static final int PORT = 7251;
    // the partition comes at 1 MiB back, with under 1 MiB more in flight: 6 MiB or more are left to resume
    static final long BYTES = Long.getLong("rdio.rdma.partitionBytes", Long.getLong("rdio.rdma.pairBytes", 8L << 20));
    static final int SHORT_SECS = 3, LONG_SECS = 25;
    // Both ends' retransmission timers: after the heal a retry lands within
    // one local ACK timeout (at most 2.15 s for RoCE) and rxe then resends
    // what is unacknowledged; twice that, for the emulated guests.
    static final long RESUME_MILLIS = 5_000;

    interface Stream {
        double echo(AtomicLong progress) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int pid = PairLib.startPeer("echo", PORT);
        try {
            PairLib.connect(PORT).close();
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("channel, platform threads, " + SHORT_SECS + " s partition",
                            () -> channel(false, SHORT_SECS)),
                    new RdmaTestLib.Case("classic socket, virtual threads, " + SHORT_SECS + " s partition",
                            () -> socket(true, SHORT_SECS)),
                    new RdmaTestLib.Case("channel, virtual threads, " + LONG_SECS + " s partition",
                            () -> channel(true, LONG_SECS))));
        } finally {
            heal();
            PairLib.stopPeer(pid);
        }
    }

    static void channel(boolean virtual, int secs) throws Exception {
        try (SocketChannel sc = PairLib.connect(PORT)) {
            partitioned("channel", secs, progress -> PairLib.echo(sc, BYTES, virtual, progress));
        }
    }

    static void socket(boolean virtual, int secs) throws Exception {
        try (Socket s = Sockets.openRdmaSocket()) {
            s.connect(new InetSocketAddress(PairLib.PEER, PORT));
            partitioned("classic socket", secs, progress -> PairLib.echo(s, BYTES, virtual, progress));
        }
    }

    // Runs STREAM's echo, and partitions the link for SECS once a MiB has
    // come back.
    static void partitioned(String what, int secs, Stream stream) throws Exception {
        AtomicLong progress = new AtomicLong();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread t = PairLib.start("echo", false, () -> stream.echo(progress), outcome);
        long deadline = System.nanoTime() + PairLib.AGENT_MILLIS * 1_000_000;
        while (progress.get() < (1 << 20) && t.isAlive()) {
            if (System.nanoTime() > deadline)
                throw new AssertionError("only " + progress.get() + " bytes came back before the partition");
            Thread.sleep(20);   // polling a counter
        }
        if (!t.isAlive())
            throw new AssertionError("the echo ended before the partition: " + outcome.get(), outcome.get());

        // B drops what it sends for SECS on its own clock (the agent cannot
        // answer through the partition), A likewise.
        PairLib.agentFireAndForget("host tc qdisc add dev eth0 root netem loss 100%; sleep " + secs
                + "; host tc qdisc del dev eth0 root");
        run("tc", "qdisc", "add", "dev", "eth0", "root", "netem", "loss", "100%");
        long p0 = progress.get(), t0 = System.nanoTime();
        // Nothing crosses meanwhile; a few bytes already in A's receive
        // buffer may still be read.
        Thread.sleep(secs * 1000L);    // the partition's length, the fault itself
        long during = progress.get() - p0;
        run("tc", "qdisc", "del", "dev", "eth0", "root");
        long healed = System.nanoTime();
        RdmaTestLib.log(String.format("%s: partitioned at %d bytes back, for %d s; %d bytes came back meanwhile",
                what, p0, secs, during));

        // The echo resumes within RESUME_MILLIS of the heal (B's own heal
        // lags A's by the agent's start, under a second).
        long p1 = progress.get();
        deadline = healed + (RESUME_MILLIS + PairLib.AGENT_MILLIS) * 1_000_000;
        while (progress.get() == p1 && t.isAlive() && System.nanoTime() < deadline)
            Thread.sleep(20);   // polling a counter
        double resumed = (System.nanoTime() - healed) / 1e9;
        t.join(Math.max(1, PairLib.AGENT_MILLIS * 4));
        if (t.isAlive())
            throw new AssertionError(what + ": the echo did not end after the heal; " + progress.get() + " of "
                    + BYTES + " bytes back");
        Throwable e = outcome.get();
        if (e instanceof AssertionError a)
            throw a;    // a wrong byte, or a CRC that differs
        if (e instanceof IOException x) {
            // a transport that gave up: allowed beyond its retry budget only
            if (secs * 1_000_000_000L < 17_200_000_000L)
                throw new AssertionError(what + ": the stream failed after a " + secs + " s partition: " + x, x);
            RdmaTestLib.log(what + ": the stream failed after a " + secs + " s partition (the transport gave up): " + x);
            return;
        }
        if (e != null)
            throw new AssertionError(what + ": " + e, e);
        RdmaTestLib.log(String.format("%s: resumed %.1f s after the heal; %d MiB each way intact", what, resumed,
                BYTES >> 20));
        if (resumed * 1000 > RESUME_MILLIS + 1000)
            throw new AssertionError(String.format("%s: resumed only %.1f s after the heal (bound %d ms)", what,
                    resumed, RESUME_MILLIS));
    }

    static void heal() throws Exception {
        new ProcessBuilder("tc", "qdisc", "del", "dev", "eth0", "root").start().waitFor();
    }

    static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0)
            throw new AssertionError(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out);
    }
}
