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
 * @summary Two guests: 640 RDMA connections from guest A to an echo peer
 *          in guest B, all open at once, each echoing 8 KiB of its own across
 *          the link while netem drops 1% of B's packets, one virtual thread
 *          per connection, every byte compared; then all close, and A holds
 *          no more descriptors than before.  librdmacm 44.0 needs room for
 *          both ends' sockets in its connection service on each side
 *          (jdk.net.rdma.serviceRounds, doc/rdma-sockets-design.md), as a
 *          program with that many connections sets it.
 *          -Drdio.rdma.pairConnections=N opens N (1,024 in make
 *          test-rdio-extended).
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=900 -Drdio.rdma.caseTimeout=800 PairMany
 */

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jdk.net.Sockets;

public class PairMany {
    // past librdmacm 44.0's default room of 512 sockets on either side, so that both still need serviceRounds
    static final int COUNT = Integer.getInteger("rdio.rdma.pairConnections", 640);
    static final int BYTES = 8192;
    static final int PORT = 7401;
    static final String LOSS = "1%";
    // room for COUNT sockets and a backlog, 4 sockets a round
    static final String ROUNDS = Integer.toString((COUNT + 64) / 4 + 8);

    public static void main(String[] args) throws Exception {
        if (System.getProperty("jdk.net.rdma.serviceRounds") == null)
            System.setProperty("jdk.net.rdma.serviceRounds", ROUNDS);
        int pid = PairLib.startPeer("echo", PORT, "-Djdk.net.rdma.serviceRounds=" + ROUNDS);
        try {
            RdmaTestLib.runCases(List.of(new RdmaTestLib.Case(COUNT + " connections under " + LOSS + " loss",
                    PairMany::many)));
        } finally {
            PairLib.agent("host tc qdisc del dev eth0 root");
            PairLib.stopPeer(pid);
        }
    }

    static void many() throws Exception {
        // one connection first, from a virtual thread, so that what the JDK
        // keeps open for good (the pollers' descriptors) is counted before
        try (SocketChannel sc = PairLib.connect(PORT)) {
            PairLib.inThread(true, () -> echo(sc, -1));
        }
        long fds0 = RdmaTestLib.fdCount();
        List<SocketChannel> channels = new ArrayList<>();
        try {
            long t0 = System.nanoTime();
            // connect 16 at a time, before the loss
            try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
                List<Future<SocketChannel>> futures = new ArrayList<>();
                for (int i = 0; i < COUNT; i++) {
                    futures.add(pool.submit(() -> {
                        SocketChannel sc = Sockets.openRdmaSocketChannel();
                        try {
                            sc.connect(new InetSocketAddress(PairLib.PEER, PORT));
                        } catch (IOException e) {
                            sc.close();
                            throw e;
                        }
                        return sc;
                    }));
                }
                for (Future<SocketChannel> f : futures)
                    channels.add(f.get());
            }
            RdmaTestLib.log(String.format("%d connections open in %.1f s", COUNT, (System.nanoTime() - t0) / 1e9));

            PairLib.agentOk("host tc qdisc add dev eth0 root netem loss " + LOSS);
            t0 = System.nanoTime();
            try (ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<?>> futures = new ArrayList<>();
                for (int i = 0; i < COUNT; i++) {
                    int id = i;
                    SocketChannel sc = channels.get(i);
                    futures.add(vts.submit(() -> {
                        echo(sc, id);
                        return null;
                    }));
                }
                for (Future<?> f : futures)
                    f.get();
            }
            RdmaTestLib.log(String.format("%d connections echoed %d bytes each, compared, under %s loss in %.1f s",
                    COUNT, BYTES, LOSS, (System.nanoTime() - t0) / 1e9));
            RdmaTestLib.log("netem in B: " + PairLib.agent("host tc -s qdisc show dev eth0").output().strip());
            // half close under the loss, half after it
            closeAll("under " + LOSS + " loss", channels.subList(0, COUNT / 2));
            PairLib.agentOk("host tc qdisc del dev eth0 root");
            closeAll("without loss", channels.subList(COUNT / 2, COUNT));
        } finally {
            for (SocketChannel sc : channels)
                sc.close();
        }
        // the descriptors go as the reaper and the drains finish
        long deadline = System.nanoTime() + 20_000_000_000L;
        long fds;
        while ((fds = RdmaTestLib.fdCount()) > fds0 && System.nanoTime() < deadline)
            Thread.sleep(100);  // polling the descriptor count
        RdmaTestLib.log("descriptors: " + fds0 + " before, " + fds + " after");
        if (fds > fds0)
            throw new AssertionError(fds + " descriptors after the closes, " + fds0 + " before");
    }

    // Closes CHANNELS one after another, as a server shutting down would,
    // and logs the distribution of the closes' times.
    static void closeAll(String what, List<SocketChannel> channels) throws IOException {
        long[] micros = new long[channels.size()];
        long t0 = System.nanoTime();
        for (int i = 0; i < micros.length; i++) {
            long c0 = System.nanoTime();
            channels.get(i).close();
            micros[i] = (System.nanoTime() - c0) / 1000;
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        java.util.Arrays.sort(micros);
        RdmaTestLib.log(String.format("%d closes %s in %.1f s: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms",
                micros.length, what, secs, micros[micros.length / 2] / 1e3, micros[micros.length * 9 / 10] / 1e3,
                micros[micros.length * 99 / 100] / 1e3, micros[micros.length - 1] / 1e3));
    }

    // Writes connection ID's own BYTES and reads them back, each compared.
    static void echo(SocketChannel sc, int id) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(BYTES);
        for (int i = 0; i < BYTES; i++)
            out.put((byte) (id * 7 + i * 13 + (i >> 8)));
        out.flip();
        ByteBuffer expected = out.duplicate();
        while (out.hasRemaining())
            sc.write(out);
        ByteBuffer in = ByteBuffer.allocate(BYTES);
        while (in.hasRemaining()) {
            if (sc.read(in) < 0)
                throw new IOException("connection " + id + ": EOF after " + in.position() + " of " + BYTES + " bytes");
        }
        in.flip();
        if (!in.equals(expected)) {
            int at = in.mismatch(expected);
            throw new AssertionError("connection " + id + ": wrong byte at offset " + at);
        }
    }
}
