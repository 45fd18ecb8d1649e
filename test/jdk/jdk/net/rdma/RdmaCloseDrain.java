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
 * @summary Closing a connected RDMA channel whose drain lasts seconds, as
 *          against a peer whose machine has gone, holds no lock that other
 *          operations need: a thread blocked reading it is woken at once, the
 *          channel's other methods answer at once, a selector it is
 *          registered with goes on selecting its other channels, and every
 *          byte written before the close reaches the peer before EOF.  The
 *          slow drain is made by the test, which holds the socket's call
 *          lock (RdmaSocket.callLock, reached through reflection) for as
 *          long as the drain is to last.  A close against a machine that
 *          has really gone is jdk/net/rdmapair/PairVanish, in two guests;
 *          the hook stays here for what that cannot show: a drain of a
 *          known length, after which a live peer gets every byte.
 *          A write or read that starts while the close drains fails as on a
 *          closed channel, and a selector that flushes the channel's
 *          cancelled key meanwhile leaves the socket to the close.
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 *          jdk.net/jdk.internal.net.rdma:+open
 * @run main/othervm/timeout=300 RdmaCloseDrain
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import jdk.net.Sockets;
import sun.nio.ch.SelChImpl;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaCloseDrain {
    // how long slowDrain makes a drain last
    static final long DRAIN_MILLIS = 4_000;

    // the bound on anything that must not wait for the drain
    static final long PROMPT_MILLIS = 1_500;

    // bytes written before the close, which the peer must get before EOF
    static final int SENT = 1 << 20;

    public static void main(String[] args) throws Exception {
        assertGreaterThan(DRAIN_MILLIS, PROMPT_MILLIS + 1_000, "drain made by slowDrain");
        List<RdmaTestLib.Case> cases = new ArrayList<>();
        for (boolean classic : new boolean[] { false, true }) {
            for (boolean virtual : new boolean[] { false, true }) {
                String name = "close of a " + (classic ? "Socket" : "blocking SocketChannel")
                        + " with a blocked reader, by a " + (virtual ? "virtual" : "platform") + " thread";
                cases.add(new RdmaTestLib.Case(name, () -> blockingClose(classic, virtual)));
            }
        }
        cases.add(new RdmaTestLib.Case("close of a channel registered with a selector that is selecting",
                RdmaCloseDrain::registeredClose));
        for (Mode mode : Mode.values()) {
            for (boolean virtual : new boolean[] { false, true }) {
                String name = "a write and a read on a " + mode.what + " while its close drains, from a "
                        + (virtual ? "virtual" : "platform") + " thread";
                cases.add(new RdmaTestLib.Case(name, () -> opsDuringDrain(mode, virtual)));
            }
        }
        cases.add(new RdmaTestLib.Case("a selector's flush of the cancelled key while the close drains",
                RdmaCloseDrain::flushDuringDrain));
        RdmaTestLib.runCases(cases);
    }

    /**
     * Reads the peer's end until EOF and checks that it got exactly the
     * SENT bytes of the test stream.
     */
    static CompletableFuture<Void> receiveAll(SocketChannel peer) {
        return CompletableFuture.runAsync(() -> {
            try {
                ByteBuffer got = ByteBuffer.allocate(SENT + 1);
                while (peer.read(got) >= 0) {
                    if (!got.hasRemaining())
                        fail("more than the " + SENT + " bytes sent");
                }
                got.flip();
                assertEquals(SENT, got.remaining(), "bytes the peer got before EOF");
                assertEquals(-1, got.mismatch(ByteBuffer.wrap(RdmaTestLib.message(SENT, 0))),
                        "the first byte the peer got that differs from the one sent");
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }, r -> Thread.ofPlatform().start(r));
    }

    /**
     * Makes the drain of c's close last DRAIN_MILLIS from now, as the
     * transport's retries would against a peer whose machine has gone: a
     * thread holds the rsocket's call lock, which the drain's rshutdown
     * takes, for that long.  Returns System.nanoTime() from before the
     * lock was taken: the drain cannot end sooner than DRAIN_MILLIS after.
     */
    static long slowDrain(SocketChannel c) throws Exception {
        Method ops = Class.forName("jdk.internal.net.rdma.RdmaProvider").getDeclaredMethod("ops");
        ops.setAccessible(true);
        Object table = field(ops.invoke(null), "sockets");
        Object socket = ((Map<?, ?>) table).get(((SelChImpl) c).getFDVal());
        assertNotNull(socket, "the RDMA socket of " + c);
        ReentrantLock callLock = (ReentrantLock) field(socket, "callLock");
        CountDownLatch held = new CountDownLatch(1);
        long t0 = System.nanoTime();
        Thread.ofPlatform().start(() -> {
            callLock.lock();
            try {
                held.countDown();
                Thread.sleep(DRAIN_MILLIS);     // the drain's length, not a wait for an event
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            } finally {
                callLock.unlock();
            }
        });
        held.await();
        return t0;
    }

    static Object field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    static void blockingClose(boolean classic, boolean virtual) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            Socket s = c.socket();
            try (c; SocketChannel peer = connect(ssc, c)) {
                CompletableFuture<Void> received = receiveAll(peer);
                RdmaTestLib.writeFully(c, ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)));

                // a reader blocked on the channel: the peer never sends
                AtomicReference<Throwable> read = new AtomicReference<>(new AssertionError("not ended"));
                Thread reader = RdmaTestLib.start(false, read, () -> {
                    if (classic) {
                        InputStream in = s.getInputStream();
                        in.read();
                    } else {
                        c.read(ByteBuffer.allocate(16));
                    }
                    throw new AssertionError("the read returned");
                });
                RdmaTestLib.awaitWaiting(reader);

                AtomicReference<Throwable> closed = new AtomicReference<>(new AssertionError("not ended"));
                long t0 = slowDrain(c);
                Thread closer = RdmaTestLib.start(virtual, closed, classic ? s::close : c::close);

                // the reader is woken while the close drains
                assertTrue(reader.join(Duration.ofMillis(PROMPT_MILLIS)),
                        "the blocked reader was not woken within " + PROMPT_MILLIS + " ms of the close");
                long wokenMs = millisSince(t0);
                Throwable e = read.get();
                // a Socket's stream may also say "Socket closed"
                if (!(e instanceof AsynchronousCloseException || (classic && e instanceof SocketException)))
                    fail("the reader ended with " + e + ", not AsynchronousCloseException", e);

                // the channel's state lock is free while the close drains
                long t1 = System.nanoTime();
                try {
                    c.getLocalAddress();
                    fail("getLocalAddress of a closed channel returned");
                } catch (ClosedChannelException expectedClosed) { }
                long lockMs = millisSince(t1);
                assertLessThan(lockMs, PROMPT_MILLIS, "ms getLocalAddress took during the drain");
                assertTrue(closer.isAlive(), "the close returned before the drain of "
                        + DRAIN_MILLIS + " ms ended (" + millisSince(t0) + " ms)");

                assertTrue(closer.join(Duration.ofMillis(DRAIN_MILLIS + PROMPT_MILLIS)), "the close did not return");
                long closeMs = millisSince(t0);
                assertNull(closed.get(), "what the close threw");
                assertGreaterThanOrEqual(closeMs, DRAIN_MILLIS, "ms the close took, drain included");
                received.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
                RdmaTestLib.log("  reader woken in " + wokenMs + " ms, getLocalAddress answered in "
                        + lockMs + " ms, close returned after " + closeMs + " ms; the peer got "
                        + SENT + " bytes, then EOF");
            }
        }
    }

    static void registeredClose() throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Selector sel = Sockets.openRdmaSelector()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c1 = Sockets.openRdmaSocketChannel();
            open.add(c1);
            SocketChannel peer1 = connect(ssc, c1);
            open.add(peer1);
            SocketChannel c2 = Sockets.openRdmaSocketChannel();
            open.add(c2);
            SocketChannel peer2 = connect(ssc, c2);
            open.add(peer2);

            CompletableFuture<Void> received = receiveAll(peer1);
            RdmaTestLib.writeFully(c1, ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)));
            c1.configureBlocking(false);
            c2.configureBlocking(false);
            SelectionKey k1 = c1.register(sel, SelectionKey.OP_READ);
            SelectionKey k2 = c2.register(sel, SelectionKey.OP_READ);

            // the selector's thread: records when c2 is readable, and
            // selects until told to stop
            CompletableFuture<Long> c2Readable = new CompletableFuture<>();
            AtomicReference<Throwable> selected = new AtomicReference<>(new AssertionError("not ended"));
            Thread selector = RdmaTestLib.start(false, selected, () -> {
                while (!Thread.currentThread().isInterrupted() && sel.isOpen()) {
                    sel.select(key -> {
                        if (key == k2 && key.isReadable()) {
                            c2Readable.complete(System.nanoTime());
                            key.interestOps(0);
                        }
                    });
                }
            });
            RdmaTestLib.awaitFrame(selector, "RdmaNet", "pollArray0");

            AtomicReference<Throwable> closed = new AtomicReference<>(new AssertionError("not ended"));
            long t0 = slowDrain(c1);
            Thread closer = RdmaTestLib.start(false, closed, c1::close);
            // the close is draining; the selector selects on
            RdmaTestLib.awaitFrame(closer, "RdmaSocket", "drain");
            long t1 = System.nanoTime();
            peer2.write(ByteBuffer.wrap(new byte[] { 42 }));
            long readyNanos = c2Readable.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
            long readyMs = (readyNanos - t1) / 1_000_000;
            assertTrue(closer.isAlive(), "the close returned before its drain ended");
            assertEquals(1, c2.read(ByteBuffer.allocate(2)), "bytes read from the ready channel");

            // a registration during the drain does not wait for it either
            SocketChannel c3 = Sockets.openRdmaSocketChannel();
            open.add(c3);
            c3.configureBlocking(false);
            long t2 = System.nanoTime();
            c3.register(sel, SelectionKey.OP_CONNECT);
            long registerMs = millisSince(t2);
            assertLessThan(registerMs, PROMPT_MILLIS, "ms a registration took during the drain");

            assertTrue(closer.join(Duration.ofMillis(DRAIN_MILLIS + PROMPT_MILLIS)), "the close did not return");
            long closeMs = millisSince(t0);
            assertNull(closed.get(), "what the close threw");
            assertGreaterThanOrEqual(closeMs, DRAIN_MILLIS, "ms the close took, drain included");

            // the selector then deregisters the key, and the peer gets
            // everything sent, then EOF
            long t3 = System.nanoTime();
            sel.wakeup();
            Utils.waitForCondition(() -> !sel.keys().contains(k1), PROMPT_MILLIS, 1);
            assertFalse(sel.keys().contains(k1), "the closed channel's key, " + PROMPT_MILLIS
                    + " ms after the close returned");
            long deregisterMs = millisSince(t3);
            received.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
            selector.interrupt();
            sel.wakeup();
            assertTrue(selector.join(Duration.ofMillis(PROMPT_MILLIS)), "the selector's thread did not end");
            assertNull(selected.get(), "what the selector's thread threw");
            RdmaTestLib.log("  another channel reported ready " + readyMs + " ms after its byte was sent,"
                    + " a registration took " + registerMs + " ms, both during the drain; close returned after "
                    + closeMs + " ms, the key was gone " + deregisterMs + " ms later; the peer got "
                    + SENT + " bytes, then EOF");
        } finally {
            for (AutoCloseable c : open)
                c.close();
        }
    }

    enum Mode {
        NON_BLOCKING("non-blocking SocketChannel"),
        BLOCKING("blocking SocketChannel"),
        SOCKET("Socket");

        final String what;

        Mode(String what) {
            this.what = what;
        }
    }

    /**
     * A write and a read that start once close has begun, while it drains,
     * fail as on a closed channel: the drain comes after the channel says
     * it is closing. Neither may reach the socket: a write would send bytes
     * after those the close drains (or meet the drained socket's reset), and
     * a read would see the drained socket's end-of-stream. The peer gets
     * exactly the bytes written before the close, then EOF.
     */
    static void opsDuringDrain(Mode mode, boolean virtual) throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = connect(ssc, c)) {
                CompletableFuture<Void> received = receiveAll(peer);
                RdmaTestLib.writeFully(c, ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)));
                c.configureBlocking(mode != Mode.NON_BLOCKING);
                // the streams are got before the close, as a program holds them
                InputStream in = c.socket().getInputStream();
                OutputStream out = c.socket().getOutputStream();

                AtomicReference<Throwable> closed = new AtomicReference<>(new AssertionError("not ended"));
                slowDrain(c);
                Thread closer = RdmaTestLib.start(false, closed, c::close);
                RdmaTestLib.awaitFrame(closer, "RdmaSocket", "drain");
                assertFalse(c.isOpen(), "isOpen while the close drains");

                AtomicReference<Throwable> wrote = new AtomicReference<>(new AssertionError("not ended"));
                AtomicReference<Throwable> read = new AtomicReference<>(new AssertionError("not ended"));
                Thread ops = RdmaTestLib.start(virtual, wrote, () -> {
                    try {
                        if (mode == Mode.SOCKET) {
                            out.write(new byte[] { 1, 2, 3 });
                            fail("the write returned");
                        } else {
                            int n = c.write(ByteBuffer.wrap(new byte[] { 1, 2, 3 }));
                            fail("the write returned " + n);
                        }
                    } finally {
                        try {
                            int n = (mode == Mode.SOCKET) ? in.read() : c.read(ByteBuffer.allocate(16));
                            fail("the read returned " + n);
                        } catch (Throwable e) {
                            read.set(e);
                        }
                    }
                });
                assertTrue(ops.join(Duration.ofMillis(PROMPT_MILLIS)),
                        "the write and read during the drain did not end within " + PROMPT_MILLIS + " ms");
                assertTrue(closer.isAlive(), "the close returned before its drain ended");
                expectClosed(mode, wrote.get(), "the write");
                expectClosed(mode, read.get(), "the read");

                assertTrue(closer.join(Duration.ofMillis(DRAIN_MILLIS + PROMPT_MILLIS)), "the close did not return");
                assertNull(closed.get(), "what the close threw");
                received.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
                RdmaTestLib.log("  write: " + wrote.get() + "; read: " + read.get()
                        + "; the peer got " + SENT + " bytes, then EOF");
            }
        }
    }

    // what an operation on a closed channel, or on a Socket's stream, throws
    static void expectClosed(Mode mode, Throwable e, String what) {
        boolean closed = e instanceof ClosedChannelException
                || (mode == Mode.SOCKET && e instanceof SocketException
                        && String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("closed"));
        if (!closed)
            fail(what + " during the drain ended with " + e + ", not as on a closed "
                    + mode.what, e);
    }

    /**
     * A selector that flushes the cancelled key of a channel whose close is
     * draining leaves the socket to the close: it is not closed under the
     * drain (a peer whose machine has gone would hold the selector for the
     * transport's retries), and it is closed once the drain ends.
     */
    static void flushDuringDrain() throws Exception {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
             Selector sel = Sockets.openRdmaSelector()) {
            ssc.bind(RdmaTestLib.anyPort());
            SocketChannel c = Sockets.openRdmaSocketChannel();
            try (c; SocketChannel peer = connect(ssc, c)) {
                CompletableFuture<Void> received = receiveAll(peer);
                RdmaTestLib.writeFully(c, ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)));
                c.configureBlocking(false);
                SelectionKey k = c.register(sel, SelectionKey.OP_READ);
                assertEquals(0, sel.selectNow(), "channels ready before the close");
                k.cancel();

                AtomicReference<Throwable> closed = new AtomicReference<>(new AssertionError("not ended"));
                slowDrain(c);
                Thread closer = RdmaTestLib.start(false, closed, c::close);
                RdmaTestLib.awaitFrame(closer, "RdmaSocket", "drain");
                int fds = RdmaTestLib.fdCount();
                long t0 = System.nanoTime();
                sel.selectNow();
                long flushMs = millisSince(t0);
                assertFalse(sel.keys().contains(k), "the cancelled key after selectNow");
                assertFalse(c.isRegistered(), "isRegistered after the key was flushed");
                assertEquals(fds, RdmaTestLib.fdCount(), "open file descriptors after the selector"
                        + " flushed the key, while the close drains");
                assertTrue(closer.isAlive(), "the close returned before its drain ended");

                assertTrue(closer.join(Duration.ofMillis(DRAIN_MILLIS + PROMPT_MILLIS)), "the close did not return");
                assertNull(closed.get(), "what the close threw");
                int after = RdmaTestLib.fdCount();
                assertLessThan(after, fds, "open file descriptors once the close returned");
                received.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
                RdmaTestLib.log("  the flush took " + flushMs + " ms and left the socket open ("
                        + fds + " descriptors); the close closed it (" + after + "); the peer got "
                        + SENT + " bytes, then EOF");
            }
        }
    }

    /** Connects c to ssc and returns the accepted end. */
    static SocketChannel connect(ServerSocketChannel ssc, SocketChannel c) throws IOException {
        c.connect(ssc.getLocalAddress());
        return ssc.accept();
    }

    static long millisSince(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
