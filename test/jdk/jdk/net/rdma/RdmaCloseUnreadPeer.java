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
 * @summary The close of a connected RDMA channel whose peer has stopped
 *          reading returns at once, and the peer, when it reads
 *          again, gets every byte written before the close, then EOF.  The
 *          writes use up the peer's posted receive buffers, so rsockets'
 *          disconnect message finds none, and rshutdown and rclose would
 *          wait for its delivery until the peer reads.  Covers a
 *          non-blocking and a blocking channel and a Socket with a blocked
 *          writer, closed by a platform and a virtual thread, a
 *          shutdownOutput, and a channel registered with a selector, whose
 *          deregistration finishes the close.  Runs in the Soft-RoCE guest
 *          (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaCloseUnreadPeer
 */

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaCloseUnreadPeer {
    // a close or shutdown never waits for the peer (RdmaReaper takes what
    // would): it must return within this
    static final long RETURN_MILLIS = 1_000;

    // bytes per write: small, so that the peer's receive buffers run out
    // before its buffer space does
    static final int CHUNK = 100;

    // writes that return 0 in a row before the peer is taken to be full;
    // rsockets gives the credits back only when the peer reads, so once
    // full it stays full
    static final int FULL_AFTER = 2_000;

    enum Mode { NON_BLOCKING, BLOCKING }

    public static void main(String[] args) throws Exception {
        List<RdmaTestLib.Case> cases = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (boolean virtual : new boolean[] { false, true }) {
                cases.add(new RdmaTestLib.Case("close of a " + mode + " SocketChannel, by a "
                        + (virtual ? "virtual" : "platform") + " thread",
                        () -> channelClose(mode == Mode.BLOCKING, virtual)));
            }
        }
        for (boolean virtual : new boolean[] { false, true }) {
            cases.add(new RdmaTestLib.Case("close of a Socket with a blocked writer, by a "
                    + (virtual ? "virtual" : "platform") + " thread", () -> socketClose(virtual)));
        }
        cases.add(new RdmaTestLib.Case("shutdownOutput", RdmaCloseUnreadPeer::shutdownOutput));
        cases.add(new RdmaTestLib.Case("close of a channel registered with a selector",
                RdmaCloseUnreadPeer::registeredClose));
        RdmaTestLib.runCases(cases);
    }

    /**
     * Writes CHUNK-byte pieces of the test stream to c, non-blocking, until
     * the peer, which does not read, takes no more; returns the bytes
     * written.  c is left non-blocking.
     */
    static long fill(SocketChannel c) throws IOException {
        c.configureBlocking(false);
        long sent = 0;
        int zeros = 0;
        ByteBuffer bb = ByteBuffer.allocate(CHUNK);
        RdmaTestLib.fill(bb, 0);
        while (zeros < FULL_AFTER) {
            if (!bb.hasRemaining()) {
                bb.clear();
                RdmaTestLib.fill(bb, sent);
            }
            int n = c.write(bb);
            zeros = (n == 0) ? zeros + 1 : 0;
            sent += n;
        }
        assertGreaterThan(sent, 0L, "bytes written before the peer was full");
        return sent;
    }

    /**
     * Reads the peer's end until EOF, within a few seconds, and checks that
     * it got exactly the sent bytes of the test stream.
     */
    static void receiveAll(SocketChannel peer, long sent) throws Exception {
        CompletableFuture<Void> got = CompletableFuture.runAsync(() -> {
            try {
                ByteBuffer in = ByteBuffer.allocate((int) sent + 1);
                peer.configureBlocking(true);
                while (peer.read(in) >= 0) {
                    if (!in.hasRemaining())
                        fail("more than the " + sent + " bytes sent");
                }
                in.flip();
                assertEquals((int) sent, in.remaining(), "bytes the peer got before EOF");
                assertEquals(-1, in.mismatch(ByteBuffer.wrap(RdmaTestLib.message((int) sent, 0))),
                        "the first byte the peer got that differs from the one sent");
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, r -> Thread.ofPlatform().start(r));
        got.get(Utils.adjustTimeout(5_000), TimeUnit.MILLISECONDS);
    }

    /** Runs task in a thread and fails unless it returns, normally, within RETURN_MILLIS. */
    static long bounded(String what, boolean virtual, Utils.ThrowingRunnable task) throws Exception {
        AtomicReference<Throwable> outcome = new AtomicReference<>(new AssertionError("not ended"));
        long t0 = System.nanoTime();
        Thread t = RdmaTestLib.start(virtual, outcome, task);
        assertTrue(t.join(Duration.ofMillis(RETURN_MILLIS)),
                what + " did not return within " + RETURN_MILLIS + " ms");
        assertNull(outcome.get(), "what " + what + " threw");
        return (System.nanoTime() - t0) / 1_000_000;
    }

    static void channelClose(boolean blocking, boolean virtual) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = connect(ssc, c)) {
                long sent = fill(c);
                c.configureBlocking(blocking);
                long ms = bounded("the close", virtual, c::close);
                receiveAll(peer, sent);
                RdmaTestLib.log("  " + sent + " bytes in writes of " + CHUNK + " filled the peer;"
                        + " the close returned after " + ms + " ms; the peer then got them all, then EOF");
            }
        }
    }

    static void socketClose(boolean virtual) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            Socket s = c.socket();
            try (c; SocketChannel peer = connect(ssc, c)) {
                long sent = fill(c);
                c.configureBlocking(true);
                // a writer blocked for want of the peer's buffers
                AtomicReference<Throwable> wrote = new AtomicReference<>(new AssertionError("not ended"));
                Thread writer = RdmaTestLib.start(false, wrote, () -> {
                    OutputStream out = s.getOutputStream();
                    out.write(RdmaTestLib.message(CHUNK, sent));
                    throw new AssertionError("a write to a peer that does not read returned");
                });
                RdmaTestLib.awaitWaiting(writer);
                long ms = bounded("the close", virtual, s::close);
                assertTrue(writer.join(Duration.ofMillis(RETURN_MILLIS)), "the blocked writer was not woken");
                // as for TCP, a Socket's stream may also say "Socket closed"
                Throwable e = wrote.get();
                if (!(e instanceof AsynchronousCloseException || e instanceof SocketException))
                    fail("the writer ended with " + e + ", not AsynchronousCloseException", e);
                receiveAll(peer, sent);
                RdmaTestLib.log("  the close returned after " + ms + " ms; the writer got " + wrote.get()
                        + "; the peer then got the " + sent + " bytes written before, then EOF");
            }
        }
    }

    static void shutdownOutput() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = connect(ssc, c)) {
                long sent = fill(c);
                long ms = bounded("shutdownOutput", false, c::shutdownOutput);
                receiveAll(peer, sent);
                long closeMs = bounded("the close after shutdownOutput", false, c::close);
                RdmaTestLib.log("  shutdownOutput returned after " + ms + " ms; the peer then got the "
                        + sent + " bytes, then EOF; the close took " + closeMs + " ms");
            }
        }
    }

    static void registeredClose() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Selector sel = Sockets.openRdmaSelector()) {
            ssc.bind(RdmaTestLib.anyPort());
            Map<Integer, String> fds = RdmaTestLib.openFds();
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = connect(ssc, c)) {
                long sent = fill(c);
                c.register(sel, SelectionKey.OP_READ);
                long ms = bounded("the close", false, c::close);
                // the selector's flush of the cancelled key finishes the close
                long flushMs = bounded("the selector's flush of the cancelled key", false, sel::selectNow);
                assertTrue(sel.keys().isEmpty(), "keys left after the flush: " + sel.keys());
                receiveAll(peer, sent);
                RdmaTestLib.log("  the close returned after " + ms + " ms, the selector's flush after "
                        + flushMs + " ms; the peer then got the " + sent + " bytes, then EOF");
            }
            // the socket, whose last sends waited for the peer, is freed
            // once the peer has taken them
            awaitNoNewFds(fds);
        }
    }

    /**
     * Waits, for a few seconds at most, until every descriptor open is one
     * of those in before.  Some of those may close meanwhile: the socket of
     * an earlier case whose close ended its wait for the peer is freed in
     * the background, when the peer lets it.
     */
    static void awaitNoNewFds(Map<Integer, String> before) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(5_000));
        Map<Integer, String> added;
        while (!(added = newFds(before)).isEmpty()) {
            if (System.nanoTime() - deadline > 0)
                fail("descriptors open that were not before the connection: " + added);
            Thread.sleep(10);
        }
    }

    static Map<Integer, String> newFds(Map<Integer, String> before) throws IOException {
        Map<Integer, String> now = RdmaTestLib.openFds();
        now.entrySet().removeIf(e -> e.getValue().equals(before.get(e.getKey())));
        return now;
    }

    static SocketChannel connect(ServerSocketChannel ssc, SocketChannel c) throws IOException {
        c.connect(ssc.getLocalAddress());
        return ssc.accept();
    }
}
