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
 * @summary A blocking write on an RDMA channel writes every byte and
 *          returns the count of all of them, as WritableByteChannel
 *          specifies, although the rsocket underneath is non-blocking and
 *          takes only what fits in its send buffer: one buffer and a
 *          gathering write of three, each several times the send buffer,
 *          from a platform and a virtual thread; the peer checks every
 *          byte.  (A blocking write used to return after the first part.)
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaBlockingWrite
 */

import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

import jdk.net.Sockets;

import static jdk.test.lib.Asserts.*;

public class RdmaBlockingWrite {
    static final int SIZE = 4 << 20;

    public static void main(String[] args) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel().bind(RdmaTestLib.anyPort());
             SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            sc.connect(ssc.getLocalAddress());
            try (SocketChannel peer = ssc.accept()) {
                long seed = 0;
                for (boolean virtual : new boolean[] { false, true }) {
                    check(sc, peer, virtual, seed++, false);
                    check(sc, peer, virtual, seed++, true);
                }
            }
        }
    }

    // one write (or a gathering write of three buffers) of SIZE bytes in a
    // platform or virtual thread, read and compared by this thread
    static void check(SocketChannel sc, SocketChannel peer, boolean virtual, long seed,
                      boolean gathering) throws Exception {
        ByteBuffer all = ByteBuffer.allocateDirect(SIZE);
        RdmaTestLib.fill(all, seed * 7);
        ByteBuffer[] parts = {
            all.slice(0, SIZE / 4), ByteBuffer.allocate(SIZE / 2).put(all.slice(SIZE / 4, SIZE / 2)).flip(),
            all.slice(3 * SIZE / 4, SIZE / 4)
        };
        Callable<Long> write = gathering ? () -> sc.write(parts) : () -> (long) sc.write(all.duplicate());
        FutureTask<ByteBuffer> read = new FutureTask<>(() -> RdmaTestLib.readFully(peer, SIZE));
        Thread.ofPlatform().start(read);
        FutureTask<Long> task = new FutureTask<>(write);
        Thread writer = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
        // the write returns once it wrote everything (or, the bug, a part:
        // then the reader waits for bytes that never come, until the
        // channels' close at the failure ends it)
        long n = task.get();
        writer.join();
        String what = (virtual ? "virtual" : "platform") + " thread, " + (gathering ? "gathering " : "") + "write";
        assertEquals((long) SIZE, n, "bytes that the blocking " + what + " returned");
        ByteBuffer got = read.get();
        if (gathering) {
            for (ByteBuffer b : parts)
                assertFalse(b.hasRemaining(), "a buffer of the " + what + " has bytes left");
        }
        assertEquals(-1, got.mismatch(all), "the first byte that differs after the " + what);
        System.out.println(what + ": " + n + " bytes");
    }
}
