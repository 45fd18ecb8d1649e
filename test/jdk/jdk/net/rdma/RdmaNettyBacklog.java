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
 * @summary A Netty server with default options over transparent RDMA
 *          (issue 41): a ServerBootstrap that sets no SO_BACKLOG listens
 *          with Netty's default, the kernel's somaxconn (4096 on the
 *          guest's kernel), more than the room of librdmacm 44.0's
 *          workaround (512 sockets); the listen must not be refused for
 *          it.  The server (netty/NettyDefaultEchoServer.java) and a
 *          client written with Netty's API (netty/NettyEchoClient.java)
 *          run as two JVMs with a rules file that makes the server's
 *          listener and the client's connections RDMA sockets.  Every
 *          echoed byte is checked; that the traffic went over RDMA is shown
 *          by both JVMs' listings of their switched sockets and by the
 *          packet counters of the RDMA device.  The Netty jars come from
 *          configure (RDIO_NETTY_DIR, set by test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 RdmaNettyBacklog
 */

import static jdk.test.lib.Asserts.*;

public class RdmaNettyBacklog {
    static final int PORT = 18017;
    static final int CONNECTIONS = 4, REQUESTS = 100, SIZE = 1024;

    public static void main(String[] args) throws Exception {
        FrameworkRun run = new FrameworkRun("RDIO_NETTY_DIR", "the Netty jars", "netty-transport-", PORT);
        try (run) {
            int backlog = run.startListening("netty/NettyDefaultEchoServer.java", 120);
            System.out.println("Netty's default backlog: " + backlog);
            assertGreaterThan(backlog, FrameworkRun.ROOM, "Netty's default backlog (NetUtil.SOMAXCONN)"
                    + " is above the room, as on the guest's kernel (somaxconn 4096)");

            RdmaNetty.echo(run, PORT, CONNECTIONS, REQUESTS, SIZE);
        }
        RdmaNetty.checkRdma(run, CONNECTIONS, REQUESTS);
    }
}
