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
 * @summary A virtual-thread framework from Maven Central with its defaults
 *          over transparent RDMA: a Helidon SE WebServer that chooses only
 *          its port (helidon/HelidonEchoServer.java; Helidon serves each
 *          connection on a virtual thread and listens with a backlog of
 *          1024, more than the room of librdmacm 44.0's workaround) and
 *          the JDK's HttpClient (helidon/HttpEchoClient.java) run as two
 *          JVMs with a rules file that makes the server's listener and the
 *          client's connections RDMA sockets.  POSTs of random bytes from
 *          1 KiB to 1 MiB come back byte for byte, and GETs bring a known
 *          payload of the same sizes; that the traffic went over RDMA is
 *          shown by both JVMs' listings of their switched sockets and by
 *          the packet counters of the RDMA device.  The Helidon jars come
 *          from configure (RDIO_HELIDON_DIR, set by test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @key randomness
 * @run main/othervm/timeout=900 RdmaHelidon
 */

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaHelidon {
    static final int PORT = 18027;
    // The largest payload of one RoCE packet (the largest InfiniBand MTU).
    static final int MAX_PAYLOAD = 4096;

    public static void main(String[] args) throws Exception {
        Random random = Utils.getRandomInstance();
        int[] sizes = IntStream.concat(IntStream.of(1024, 64 * 1024, 1024 * 1024),
                                       random.ints(3, 1024, 1024 * 1024)).toArray();
        long total = Arrays.stream(sizes).asLongStream().sum();
        int requests = 2 * sizes.length;
        System.out.println("sizes " + Arrays.toString(sizes));

        FrameworkRun run = new FrameworkRun("RDIO_HELIDON_DIR", "the Helidon jars", "helidon-webserver-", PORT);
        try (run) {
            int backlog = run.startListening("helidon/HelidonEchoServer.java", 300);
            System.out.println("Helidon's default backlog: " + backlog);
            assertGreaterThan(backlog, FrameworkRun.ROOM, "Helidon's default backlog (1024) is above the room");

            List<String> client = new ArrayList<>(List.of("-Dtimeout=" + Utils.adjustTimeout(300_000) / 1000,
                    FrameworkRun.source("helidon/HttpEchoClient.java"), run.server, "" + PORT,
                    "" + random.nextLong()));
            Arrays.stream(sizes).forEach(n -> client.add("" + n));
            run.runClient(client.toArray(String[]::new)).shouldContain("verified " + requests + " requests: "
                    + total + " bytes sent, " + 2 * total + " bytes received");
        }

        // The server's listener and the client's connections, one per
        // request at most (its pool keeps them), became RDMA sockets.
        long connections = run.checkListings();
        System.out.println("the client's RDMA connections: " + connections);
        assertGreaterThanOrEqual(connections, 1L, "the client's connections in its listing");
        assertLessThanOrEqual(connections, (long) requests, "the client's connections in its listing");

        // Every request and answer crossed rxe0: at least one packet each,
        // and no packet carries more than MAX_PAYLOAD bytes; the device
        // carries both ends.
        long bytes = 3 * total;
        long packets = Math.max(2L * requests, bytes / MAX_PAYLOAD);
        run.checkPackets(packets, requests + " requests and their answers, " + bytes + " bytes");
    }
}
