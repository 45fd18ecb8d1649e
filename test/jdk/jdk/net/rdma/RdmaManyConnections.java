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
/*
 * @test
 * @summary One JVM holds 1,024 open RDMA connections, both ends in this
 *          JVM: each echoes 8 bytes of its own, checked byte for byte, while
 *          all are open; then all are closed and the process holds no more
 *          descriptors than before.  Buffers and queues are
 *          small, as a server with many idle connections would set them.
 *          librdmacm 44.0 needs room for the 2,048 sockets in its connection
 *          service (jdk.net.rdma.serviceRounds, doc/rdma-sockets-design.md).
 *          -Drdio.rdma.connections=N opens N (4,096, 8,192
 *          sockets, in make test-rdio-extended; make bench-rdma's scale figure
 *          sets it too).
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 -Drdio.rdma.caseTimeout=800 RdmaManyConnections
 */

import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import jdk.net.Sockets;

import static jdk.test.lib.Asserts.*;

public class RdmaManyConnections {
    // 2,048 sockets, 4 times librdmacm 44.0's default room of 512, past which that library corrupts its heap
    static final int COUNT = Integer.getInteger("rdio.rdma.connections", 1024);

    public static void main(String[] args) throws Exception {
        // room in librdmacm 44.0's connection service for both ends of every connection and the
        // backlog (jdk.net.rdma.serviceRounds: 4 sockets a round), set before
        // the first RDMA socket
        if (System.getProperty("jdk.net.rdma.serviceRounds") == null)
            System.setProperty("jdk.net.rdma.serviceRounds", Integer.toString((2 * COUNT + 64) / 4 + 8));
        RdmaTestLib.runCases(List.of(new RdmaTestLib.Case(COUNT + " connections", RdmaManyConnections::many)));
    }

    static void many() throws Exception {
        // the baseline: RDMA initialised, the pollers started (a read
        // parked until its byte came), nothing open
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel c = Sockets.openRdmaSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            c.connect(ssc.getLocalAddress());
            try (SocketChannel a = ssc.accept()) {
                Thread reader = Thread.ofPlatform().start(() -> {
                    try {
                        RdmaTestLib.readFully(c, 1);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                RdmaTestLib.awaitWaiting(reader);
                a.write(ByteBuffer.wrap(new byte[1]));
                reader.join();
            }
        }
        int fds0 = RdmaTestLib.fdCount();
        RdmaTestLib.log("  descriptors before: " + fds0);

        List<SocketChannel> clients = new ArrayList<>();
        List<SocketChannel> accepted = new ArrayList<>();
        long t0 = System.nanoTime();
        try (ServerSocketChannel ssc = RdmaTestLib.smallServer()) {
            RdmaTestLib.connectSmall(ssc, COUNT, clients, accepted);
            RdmaTestLib.log(String.format("  %d connections open, %d descriptors, VmRSS %d kB, VmPin %d kB",
                    COUNT, RdmaTestLib.fdCount(), RdmaTestLib.status("VmRSS"), RdmaTestLib.status("VmPin")));
            // every connection echoes while all are open
            ByteBuffer back = ByteBuffer.allocate(8);
            for (int i = 0; i < COUNT; i++) {
                byte[] msg = RdmaTestLib.message(8, i * 8L);
                RdmaTestLib.writeFully(clients.get(i), ByteBuffer.wrap(msg));
                SocketChannel a = accepted.get(i);
                RdmaTestLib.writeFully(a, RdmaTestLib.readFully(a, 8));
                back.clear();
                while (back.hasRemaining()) {
                    if (clients.get(i).read(back) < 0)
                        fail("EOF on connection " + i);
                }
                assertEquals(-1, back.flip().mismatch(ByteBuffer.wrap(msg)),
                        "first differing byte of connection " + i + "'s echo");
            }
            RdmaTestLib.log(String.format("  %d echoes checked, %.1f s", COUNT, (System.nanoTime() - t0) / 1e9));
        } finally {
            for (SocketChannel c : clients)
                c.close();
            for (SocketChannel c : accepted)
                c.close();
        }
        RdmaTestLib.log(String.format("  all closed, %.1f s", (System.nanoTime() - t0) / 1e9));
        // no more than before: librdmacm may close a few descriptors of its
        // own (its service threads' socket pairs) only after the baseline
        int fds1 = RdmaTestLib.fdCount();
        RdmaTestLib.log("  descriptors " + fds1);
        assertLessThanOrEqual(fds1, fds0, "descriptors after every connection was closed");
    }
}
