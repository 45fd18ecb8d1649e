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
 * @summary An unchanged framework from Maven Central over transparent RDMA:
 *          Netty's echo example server (netty-example's EchoServer, run from
 *          its jar) and a client written with Netty's API on its NIO
 *          transport (netty/NettyEchoClient.java) run as two JVMs with a
 *          rules file that makes the server's listener and the client's
 *          connections RDMA sockets.  Every echoed byte is checked; that the
 *          traffic went over RDMA is shown by both JVMs' listings of their
 *          switched sockets and by the packet counters of the RDMA device.
 *          The Netty jars come from configure (RDIO_NETTY_DIR, set by
 *          test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaNetty
 */

import static jdk.test.lib.Asserts.*;

public class RdmaNetty {
    static final int PORT = 18007;
    static final int CONNECTIONS = 4, REQUESTS = 250, SIZE = 1024;

    public static void main(String[] args) throws Exception {
        FrameworkRun run = new FrameworkRun("RDIO_NETTY_DIR", "the Netty jars", "netty-example-", PORT);
        try (run) {
            // Netty's LoggingHandler says ACTIVE once the listener is bound
            run.startServer("] ACTIVE", 60, "-Dport=" + PORT, "io.netty.example.echo.EchoServer");
            echo(run, PORT, CONNECTIONS, REQUESTS, SIZE);
        }
        checkRdma(run, CONNECTIONS, REQUESTS);
    }

    /**
     * Runs netty/NettyEchoClient.java against the server on port, which
     * must echo every byte of its connections' requests.
     */
    static void echo(FrameworkRun run, int port, int connections, int requests, int size) throws Exception {
        run.runClient(FrameworkRun.source("netty/NettyEchoClient.java"),
                      run.server, "" + port, "" + connections, "" + requests, "" + size)
           .shouldContain("verified " + connections * requests + " requests of " + size + " bytes");
    }

    /** Checks, once the server has stopped, that the echo went over RDMA. */
    static void checkRdma(FrameworkRun run, int connections, int requests) throws Exception {
        // The server's listener and each of the client's connections became RDMA sockets.
        assertEquals((long) connections, run.checkListings(), "the client's connections in its listing");

        // Every message and every echo crossed rxe0: at least one packet
        // each way, counted by the device (both ends share it).
        long messages = 2L * connections * requests;
        run.checkPackets(messages, messages + " messages");
    }
}
