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
 * @summary Two guests: an RDMA SocketChannel from guest A to an echo peer in
 *          guest B, across the virtual link (test/infra/rdma-guest/rdma-pair.sh),
 *          carries 16 MiB each way intact, every byte and the CRC32 of each
 *          direction compared, from platform and from virtual threads.
 *          -Drdio.rdma.pairEchoBytes=N carries N bytes each way (64 MiB,
 *          67108864, in the extended run), as -Drdio.rdma.pairBytes=N
 *          does where that is not set.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairEcho
 */

import java.nio.channels.SocketChannel;
import java.util.List;

public class PairEcho {
    // 128 times rsockets' 128 KiB buffers, 3.6 s each way at the link's 4.7 MB/s
    static final long BYTES = Long.getLong("rdio.rdma.pairEchoBytes", Long.getLong("rdio.rdma.pairBytes", 16L << 20));
    static final int PORT = 7101;

    public static void main(String[] args) throws Exception {
        int pid = PairLib.startPeer("echo", PORT);
        try {
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("echo across the link, platform threads", () -> echo(false)),
                    new RdmaTestLib.Case("echo across the link, virtual threads", () -> echo(true))));
        } finally {
            PairLib.stopPeer(pid);
        }
    }

    static void echo(boolean virtual) throws Exception {
        try (SocketChannel sc = PairLib.connect(PORT)) {
            double secs = PairLib.echo(sc, BYTES, virtual);
            RdmaTestLib.log(String.format("%d MiB each way in %.1f s: %.1f MB/s each way",
                    BYTES >> 20, secs, BYTES / secs / 1e6));
        }
    }
}
