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
 * @summary Two guests: the peer process in guest B killed with SIGKILL (its
 *          kernel disconnects its connections) while guest A has, to it, a
 *          channel with a blocked reader, a channel with a writer, an RDMA
 *          Socket with a blocked reader, and a channel registered for
 *          OP_READ with an RDMA selector and a thread blocked in select().
 *          Within the bound of the disconnect, each read ends with EOF or
 *          an IOException (as TCP's ends with EOF or "Connection reset"),
 *          the writer with an IOException, select() returns with the key
 *          selected and the read then gives EOF or an IOException; every
 *          close returns within 2 s and no thread is left behind.
 * @requires os.family == "linux"
 * @requires rdio.rdma.peer != null
 * @library /test/lib ../rdma
 * @run main/othervm/timeout=600 PairPeerKilled
 */

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class PairPeerKilled {
    static final int SINK = 7351;
    // When a process dies its kernel releases its rdma_cm file, which
    // destroys its connected ids, and the CM sends each peer a DREQ
    // (drivers/infiniband/core/cm.c, cm_destroy_id): A's end learns of the
    // disconnect from one message.  Should it be lost, the CM resends it
    // after the connection's timeout: twice the packet life time (RoCE:
    // CMA_IBOE_PACKET_LIFETIME 16, 4.096 us << 16 = 268 ms) plus the
    // response timeout (CMA_CM_RESPONSE_TIMEOUT 20: 4.096 us << 20 =
    // 4.29 s), 4.83 s.  The bound allows one resend, twice over for the
    // emulated guests' scheduling.
    static final long FAIL_MILLIS = 2 * 2 * (2 * 268 + 4295);
    // "at once": a close
    static final long CLOSE_MILLIS = 2_000;
    // no thread left behind: the threads that ended must be gone within this
    static final long THREADS_MILLIS = 5_000;

    /** A thread and what it ended with: an Integer (what a read returned) or a Throwable. */
    record Watched(String name, Thread thread, AtomicReference<Object> outcome) {
        String describe() {
            return name + (thread.isAlive() ? ": still running" : ": " + outcome.get());
        }
    }

    static Watched start(String name, boolean virtual, Utils.ThrowingRunnable body, AtomicReference<Object> outcome) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = PairLib.start(name, virtual, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                outcome.compareAndSet(null, e);
            }
        }, failure);
        return new Watched(name, t, outcome);
    }

    public static void main(String[] args) throws Exception {
        int pid = PairLib.startPeer("sink", SINK);
        // Warm up, from both kinds of thread: a connection to the sink with
        // bytes written, and an RDMA selector, start the RDMA
        // implementation's threads and the virtual threads' scheduler.
        for (boolean virtual : new boolean[] {false, true}) {
            PairLib.inThread(virtual, () -> {
                try (SocketChannel sc = PairLib.connect(SINK); Selector sel = Sockets.openRdmaSelector()) {
                    sc.write(ByteBuffer.wrap(new byte[4096]));
                    sc.configureBlocking(false);
                    sc.register(sel, SelectionKey.OP_READ);
                    assertEquals(sel.selectNow(), 0, "the sink wrote");
                }
            });
            // and a read that waits (the sink never writes), ended by a
            // close, starts the poller of the kind of thread
            SocketChannel sc = PairLib.connect(SINK);
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread t = PairLib.start("warm-up reader", virtual, () -> sc.read(ByteBuffer.allocate(1)), outcome);
            RdmaTestLib.awaitWaiting(t);    // blocked in the read
            sc.close();
            t.join(CLOSE_MILLIS);
            assertFalse(t.isAlive(), "the warm-up's read still blocked after its close");
            assertTrue(outcome.get() instanceof IOException, "the warm-up's read ended with " + outcome.get());
        }
        Set<Thread> before = Thread.getAllStackTraces().keySet();

        SocketChannel readCh = PairLib.connect(SINK);
        SocketChannel writeCh = PairLib.connect(SINK);
        SocketChannel selCh = PairLib.connect(SINK);
        Socket sock = Sockets.openRdmaSocket();
        sock.connect(new InetSocketAddress(PairLib.PEER, SINK));
        Selector sel = Sockets.openRdmaSelector();
        selCh.configureBlocking(false);
        SelectionKey key = selCh.register(sel, SelectionKey.OP_READ);

        AtomicLong written = new AtomicLong();
        Watched chReader = start("channel reader (virtual)", true, () -> {
            throw new Ended(readCh.read(ByteBuffer.allocate(1)));
        }, new AtomicReference<>());
        Watched writer = start("channel writer (virtual)", true, () -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            while (true) {
                buf.clear();
                written.addAndGet(writeCh.write(buf));
            }
        }, new AtomicReference<>());
        InputStream in = sock.getInputStream();
        Watched sockReader = start("socket reader (platform)", false, () -> {
            throw new Ended(in.read());
        }, new AtomicReference<>());
        // The selecting thread: what select returned and the key's ready
        // set, then what a read of the channel gives.
        AtomicReference<String> selected = new AtomicReference<>();
        Watched selector = start("pk-select", false, () -> {
            int n = sel.select();
            selected.set(n + " selected, key " + (sel.selectedKeys().contains(key) ? "in" : "not in")
                    + " the selected set, readyOps " + key.readyOps());
            assertTrue(sel.selectedKeys().contains(key) && key.isReadable(), "select: " + selected.get());
            throw new Ended(selCh.read(ByteBuffer.allocate(1)));
        }, new AtomicReference<>());
        List<Watched> all = List.of(chReader, writer, sockReader, selector);

        // The writer's bytes flow, and every reader waits.
        long deadline = System.nanoTime() + PairLib.AGENT_MILLIS * 1_000_000;
        while (written.get() < (4 << 20)) {
            assertTrue(System.nanoTime() < deadline, "the writer wrote only " + written.get() + " bytes: "
                    + writer.describe());
            Thread.sleep(50);   // polling a counter
        }
        RdmaTestLib.awaitWaiting(chReader.thread());
        RdmaTestLib.awaitWaiting(sockReader.thread());
        int call = RdmaTestLib.awaitBlockedIn(selector.name(), RdmaTestLib.POLL_CALLS);
        RdmaTestLib.log("the selecting thread waits in system call " + call);
        for (Watched w : all)
            assertTrue(w.thread().isAlive(), w.describe() + " before the kill");

        RdmaTestLib.log("killing the peer (pid " + pid + " in B), " + written.get() + " bytes written");
        PairLib.agentOk("kill -9 " + pid);
        long t0 = System.nanoTime();
        // Watch every thread for FAIL_MILLIS.
        Map<Watched, Long> ended = new LinkedHashMap<>();
        while (ended.size() < all.size() && System.nanoTime() - t0 < FAIL_MILLIS * 1_000_000) {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            for (Watched w : all) {
                if (!w.thread().isAlive() && !ended.containsKey(w)) {
                    ended.put(w, ms);
                    RdmaTestLib.log(w.name() + " ended " + ms + " ms after the kill: " + w.outcome().get());
                }
            }
            Thread.sleep(10);   // polling the threads' states
        }
        RdmaTestLib.log("the peer in B: " + PairLib.agent("grep State /proc/" + pid + "/status").output().strip());
        if (selected.get() != null)
            RdmaTestLib.log("select: " + selected.get());
        for (Watched w : all) {
            if (w.thread().isAlive()) {
                StringBuilder sb = new StringBuilder(w.name() + " still running " + FAIL_MILLIS + " ms after the kill:");
                for (StackTraceElement e : w.thread().getStackTrace()) sb.append("\n\tat ").append(e);
                RdmaTestLib.log(sb.toString());
            }
        }
        // Each blocked read: EOF or an IOException, within the bound.
        for (Watched w : List.of(chReader, sockReader, selector)) {
            assertTrue(ended.containsKey(w), w.name() + " still blocked after " + FAIL_MILLIS + " ms");
            Object o = w.outcome().get();
            assertTrue(o instanceof Ended e && e.n == -1 || o instanceof IOException,
                    w.name() + " ended with " + o + ", neither EOF nor an IOException");
        }
        assertNotNull(selected.get(), "select did not return");
        // The writer: an IOException, within the bound.
        assertTrue(ended.containsKey(writer), "the writer still writing after " + FAIL_MILLIS + " ms");
        assertTrue(writer.outcome().get() instanceof IOException, "the writer ended with " + writer.outcome().get());

        // Every close returns at once.
        close("the reader's channel", readCh);
        close("the writer's channel", writeCh);
        close("the selected channel", selCh);
        close("the selector", sel);
        close("the socket", sock);

        // No thread left behind: every thread that started since the
        // warm-up ends.
        PairLib.assertNoThreadsLeft(before, THREADS_MILLIS);
    }

    /** What a read returned, thrown to end its thread. */
    static final class Ended extends Exception {
        private static final long serialVersionUID = 1L;
        final int n;
        Ended(int n) {
            super(n == -1 ? "EOF (read returned -1)" : "read returned " + n, null, false, false);
            this.n = n;
        }
    }

    // Closes C in a thread of its own, which must end within CLOSE_MILLIS.
    static void close(String name, AutoCloseable c) throws Exception {
        long c0 = System.nanoTime();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = PairLib.start("close", false, c::close, failure);
        t.join(CLOSE_MILLIS);
        long ms = (System.nanoTime() - c0) / 1_000_000;
        RdmaTestLib.log("close of " + name + (t.isAlive() ? " still running after " : " took ") + ms + " ms"
                + (failure.get() != null ? ": " + failure.get() : ""));
        assertFalse(t.isAlive(), "close of " + name + " did not return within " + CLOSE_MILLIS + " ms");
        assertNull(failure.get(), "close of " + name + " threw");
    }
}
