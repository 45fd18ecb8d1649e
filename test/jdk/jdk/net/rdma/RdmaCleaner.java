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
 * @summary An RDMA socket that becomes unreachable without being closed is
 *          closed by a Cleaner: for a classic Socket, a SocketChannel and an
 *          accepted channel, the peer reads EOF once the garbage collector
 *          has run, and the process holds no more descriptors than before
 *          the sockets were opened.  Runs in the Soft-RoCE guest
 *          (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaCleaner
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

import jdk.net.Sockets;
import jdk.test.lib.Utils;
import jdk.test.lib.util.ForceGC;

import static jdk.test.lib.Asserts.*;

public class RdmaCleaner {
    static final long WAIT_MILLIS = Utils.adjustTimeout(10_000);

    public static void main(String[] args) throws Exception {
        // the poller's eventfds, made at the first wait, are not the sockets'
        RdmaTestLib.startPoller();
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("a classic Socket left unclosed", () -> leak(RdmaCleaner::classicClient)),
                new RdmaTestLib.Case("a SocketChannel left unclosed", () -> leak(RdmaCleaner::channelClient)),
                new RdmaTestLib.Case("an accepted channel left unclosed", RdmaCleaner::leakAccepted)));
    }

    interface Client {
        /** Connects to ssc's address, returns nothing that refers to the socket. */
        void connectAndDrop(ServerSocketChannel ssc) throws IOException;
    }

    static void classicClient(ServerSocketChannel ssc) throws IOException {
        Socket s = Sockets.openRdmaSocket();
        s.connect(ssc.getLocalAddress(), 10_000);
        s.getOutputStream().write(42);
    }

    static void channelClient(ServerSocketChannel ssc) throws IOException {
        SocketChannel sc = Sockets.openRdmaSocketChannel();
        sc.connect(ssc.getLocalAddress());
        sc.write(ByteBuffer.wrap(new byte[] { 42 }));
    }

    /** The client socket is dropped unclosed; the accepted end must read EOF after GC. */
    static void leak(Client client) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            int before = RdmaTestLib.fdCount();
            client.connectAndDrop(ssc);
            try (SocketChannel peer = ssc.accept()) {
                assertEquals(42, (int) RdmaTestLib.readFully(peer, 1).get(), "the byte sent");
                peer.configureBlocking(false);
                assertEofAfterGc(peer);
            }
            // librdmacm's service threads may close descriptors of their own meanwhile
            assertTrue(ForceGC.waitFor(() -> fdCountOrMinus1() <= before, WAIT_MILLIS),
                    "descriptors back to " + before + " or fewer, now " + fdCountOrMinus1());
        }
    }

    static void leakAccepted() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            sc.connect(ssc.getLocalAddress());
            ssc.accept().write(ByteBuffer.wrap(new byte[] { 7 }));   // dropped unclosed
            assertEquals(7, (int) RdmaTestLib.readFully(sc, 1).get(), "the byte sent");
            sc.configureBlocking(false);
            assertEofAfterGc(sc);
        }
    }

    /** Runs the GC until a non-blocking read of ch gives EOF, for WAIT_MILLIS at most. */
    static void assertEofAfterGc(SocketChannel ch) {
        ByteBuffer b = ByteBuffer.allocate(16);
        boolean eof = ForceGC.waitFor(() -> read(ch, b) == -1, WAIT_MILLIS);
        assertTrue(eof, "the peer read EOF within " + WAIT_MILLIS + " ms of the socket becoming unreachable");
    }

    static int read(SocketChannel ch, ByteBuffer b) {
        try {
            return ch.read(b.clear());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int fdCountOrMinus1() {
        try {
            return RdmaTestLib.fdCount();
        } catch (IOException e) {
            return -1;
        }
    }
}
