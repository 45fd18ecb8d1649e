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
 * @summary The default provider's selector takes RDMA channels (issue 41,
 *          item 3).  Selector.open(), with no rules file, serves TCP
 *          channels on loopback and RDMA channels opened with RdmaSockets
 *          at once, from a platform and from a virtual thread, echoing
 *          every byte, compared; it waits in epoll until the first RDMA
 *          channel registers and again once the last RDMA key is
 *          deregistered, and in rpoll in between (its SocketOpsPollSet, and
 *          on x86-64 the system call its blocked thread is in).  With RDMA
 *          keys, select(timeout), wakeup, interrupt and a ready RDMA channel
 *          end a select; 40 RDMA keys (more than the poll set's first
 *          array) are each selected once, with interest cleared and set
 *          again, and a key cancelled during select loses no other key's
 *          event; a closed selector leaves its channels usable, and 2,000
 *          selectors that held RDMA keys leave no descriptor behind.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @modules java.base/sun.nio.ch:+open
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaDefaultSelector
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.RdmaSockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaDefaultSelector {
    static final int CLIENTS = 6;               // of each kind
    static final int SIZE = 256 * 1024;         // echoed by each client
    static final long WAIT_MILLIS = Utils.adjustTimeout(10_000);
    static final AtomicInteger SELECTING_THREADS = new AtomicInteger();

    static final Field FOREIGN_KEYS;
    static {
        try {
            FOREIGN_KEYS = Class.forName("sun.nio.ch.EPollSelectorImpl").getDeclaredField("foreignKeys");
            FOREIGN_KEYS.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) throws Exception {
        for (boolean virtual : new boolean[] { false, true })
            mixed(virtual);
        endingSelect();
        manyKeys();
        closedSelector();
        RdmaTestLib.log("TCP only");
        try (Selector sel = Selector.open()) {
            assertEquals("sun.nio.ch.EPollSelectorImpl", sel.getClass().getName());
            serveAndCheck(sel, false, false, 0);
            assertFalse(pollsRdma(sel), "a selector that never held an RDMA channel polls RDMA");
        }
    }

    /**
     * TCP and RDMA clients echoed by one default selector; then the RDMA
     * channels are closed, and the selector serves TCP in epoll again.
     */
    static void mixed(boolean virtual) throws Exception {
        RdmaTestLib.log("TCP and RDMA in one default selector, served by a "
                + (virtual ? "virtual" : "platform") + " thread");
        try (Selector sel = Selector.open()) {
            assertEquals("sun.nio.ch.EPollSelectorImpl", sel.getClass().getName());
            assertFalse(pollsRdma(sel), "a new selector polls RDMA");
            List<SocketChannel> accepted = serveAndCheck(sel, virtual, true, CLIENTS);
            assertTrue(pollsRdma(sel), "a selector with RDMA keys does not poll RDMA");

            RdmaTestLib.log("  RDMA channels closed: back to epoll");
            for (SelectionKey k : sel.keys()) {
                if (k.channel().provider() != sel.provider())
                    k.channel().close();
            }
            for (SocketChannel sc : accepted)
                assertFalse(sc.isOpen(), "an RDMA channel left open");
            sel.selectNow();
            assertFalse(pollsRdma(sel), "the selector still polls RDMA with no RDMA key");
            serveAndCheck(sel, virtual, false, 0);
            assertFalse(pollsRdma(sel), "TCP alone made the selector poll RDMA");
        }
    }

    /**
     * Serves CLIENTS TCP clients and rdmaClients RDMA clients with a
     * non-blocking echo server on sel, run by one thread, and checks every
     * byte each gets back. While the clients run, checks which system call
     * the selecting thread blocks in (a platform thread on x86-64).
     *
     * @return the accepted RDMA channels, still registered
     */
    static List<SocketChannel> serveAndCheck(Selector sel, boolean virtual, boolean rdma, int rdmaClients)
        throws Exception
    {
        ServerSocketChannel tcpServer = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        tcpServer.configureBlocking(false);
        tcpServer.register(sel, SelectionKey.OP_ACCEPT);
        ServerSocketChannel rdmaServer = null;
        if (rdma) {
            rdmaServer = RdmaSockets.openServerSocketChannel(StandardProtocolFamily.INET)
                    .bind(RdmaTestLib.anyPort());
            rdmaServer.configureBlocking(false);
            rdmaServer.register(sel, SelectionKey.OP_ACCEPT);
        }

        EchoLoop loop = new EchoLoop(sel);
        String name = "rdio-sel-" + SELECTING_THREADS.incrementAndGet();
        Thread server = virtual ? Thread.ofVirtual().start(loop) : Thread.ofPlatform().name(name).start(loop);
        List<Callable<byte[]>> clients = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        Random random = new Random(rdmaClients * 31L + (virtual ? 1 : 0));
        for (int i = 0; i < CLIENTS + rdmaClients; i++) {
            byte[] bytes = new byte[SIZE];
            random.nextBytes(bytes);
            sent.add(bytes);
            InetSocketAddress to = (InetSocketAddress) (i < CLIENTS ? tcpServer : rdmaServer).getLocalAddress();
            boolean tcp = i < CLIENTS;
            clients.add(() -> {
                try (SocketChannel sc = tcp ? SocketChannel.open()
                        : RdmaSockets.openSocketChannel(StandardProtocolFamily.INET)) {
                    sc.connect(to);
                    return echo(sc, bytes);
                }
            });
        }
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            if (!virtual && RdmaTestLib.X86_64) {
                // blocked with nothing to do yet: the call it waits in
                int call = RdmaTestLib.awaitBlockedIn(name, rdma ? RdmaTestLib.POLL_CALLS : RdmaTestLib.EPOLL_CALLS);
                RdmaTestLib.log("  the selecting thread waits in system call " + call);
            }
            List<Future<byte[]>> results = new ArrayList<>();
            for (Callable<byte[]> c : clients)
                results.add(pool.submit(c));
            for (int i = 0; i < results.size(); i++) {
                byte[] got = results.get(i).get(WAIT_MILLIS * 3, TimeUnit.MILLISECONDS);
                assertTrue(Arrays.equals(sent.get(i), got),
                        (i < CLIENTS ? "TCP" : "RDMA") + " client " + i + ": the echo differs");
            }
        } finally {
            // on a failure, clients blocked in a read end with their channels
            pool.shutdownNow();
            loop.stopped = true;
            sel.wakeup();
        }
        assertTrue(pool.awaitTermination(WAIT_MILLIS, TimeUnit.MILLISECONDS), "clients did not end");
        loop.stop(server);
        assertEquals(CLIENTS, loop.tcpAccepted.get(), "TCP connections accepted");
        assertEquals(rdmaClients, loop.rdmaAccepted.get(), "RDMA connections accepted");
        RdmaTestLib.log("  " + CLIENTS + " TCP and " + rdmaClients + " RDMA clients, "
                + SIZE + " bytes each echoed and compared");
        tcpServer.close();
        for (SocketChannel sc : loop.accepted) {
            if (sc.provider() == sel.provider())
                sc.close();
        }
        return loop.accepted.stream().filter(sc -> sc.provider() != sel.provider()).toList();
    }

    /** Writes bytes from a second thread while it reads them back. */
    static byte[] echo(SocketChannel sc, byte[] bytes) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                RdmaTestLib.writeFully(sc, ByteBuffer.wrap(bytes));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        ByteBuffer back = RdmaTestLib.readFully(sc, bytes.length);
        assertTrue(writer.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "writer did not end");
        if (failure.get() != null)
            throw new AssertionError("write failed", failure.get());
        return back.array();
    }

    /** A non-blocking echo server on a selector, until stopped. */
    static final class EchoLoop implements Runnable {
        final Selector sel;
        final AtomicInteger tcpAccepted = new AtomicInteger(), rdmaAccepted = new AtomicInteger();
        final List<SocketChannel> accepted = new ArrayList<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile boolean stopped;

        EchoLoop(Selector sel) {
            this.sel = sel;
        }

        public void run() {
            try {
                while (!stopped) {
                    sel.select(key -> {
                        try {
                            handle(key);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    });
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }

        void handle(SelectionKey key) throws IOException {
            if (key.isAcceptable()) {
                SocketChannel sc = ((ServerSocketChannel) key.channel()).accept();
                if (sc == null)
                    return;
                (sc.provider() == sel.provider() ? tcpAccepted : rdmaAccepted).incrementAndGet();
                accepted.add(sc);
                sc.configureBlocking(false);
                sc.register(sel, SelectionKey.OP_READ, ByteBuffer.allocate(16 * 1024));
                return;
            }
            SocketChannel sc = (SocketChannel) key.channel();
            ByteBuffer buf = (ByteBuffer) key.attachment();
            if (key.isReadable() && sc.read(buf) < 0) {
                key.cancel();
                sc.close();
                return;
            }
            buf.flip();
            sc.write(buf);
            buf.compact();
            // wait to write what is left before reading more
            key.interestOps(buf.position() > 0 ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        void stop(Thread t) throws Exception {
            stopped = true;
            sel.wakeup();
            assertTrue(t.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "selector loop did not stop");
            if (failure.get() != null)
                throw new AssertionError("selector loop failed", failure.get());
        }
    }

    /** select(timeout), wakeup, interrupt and a ready channel with an RDMA key registered. */
    static void endingSelect() throws Exception {
        RdmaTestLib.log("select ended by timeout, wakeup, interrupt and data, with an RDMA key");
        SocketChannel[] pair = RdmaTestLib.pair();
        try (Selector sel = Selector.open(); SocketChannel client = pair[0]; SocketChannel peer = pair[1]) {
            client.configureBlocking(false);
            SelectionKey key = client.register(sel, SelectionKey.OP_READ);

            long t0 = System.nanoTime();
            assertEquals(0, sel.select(300), "keys selected with nothing ready");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertGreaterThanOrEqual(ms, 250L, "select(300), elapsed ms");
            assertLessThan(ms, WAIT_MILLIS, "select(300), elapsed ms");
            assertTrue(pollsRdma(sel), "a selector with an RDMA key does not poll RDMA");

            for (boolean virtual : new boolean[] { false, true }) {
                // wakeup
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread t = selecting(sel, virtual, outcome);
                RdmaTestLib.awaitFrame(t, "RdmaNet", "pollArray0");
                sel.wakeup();
                assertTrue(t.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "wakeup did not end select");
                assertEquals(0, outcome.get(), "select after wakeup");
                // interrupt
                t = selecting(sel, virtual, outcome);
                RdmaTestLib.awaitFrame(t, "RdmaNet", "pollArray0");
                t.interrupt();
                assertTrue(t.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "interrupt did not end select");
                assertEquals(0, outcome.get(), "select after interrupt");
                // data on the RDMA channel
                t = selecting(sel, virtual, outcome);
                RdmaTestLib.awaitFrame(t, "RdmaNet", "pollArray0");
                peer.write(ByteBuffer.wrap(new byte[] { 42 }));
                assertTrue(t.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "data did not end select");
                assertEquals(1, outcome.get(), "select with the RDMA channel readable");
                assertTrue(sel.selectedKeys().remove(key), "the RDMA key is not selected");
                ByteBuffer one = ByteBuffer.allocate(1);
                assertEquals(1, client.read(one), "byte read");
                assertEquals((byte) 42, one.get(0), "byte read");
                RdmaTestLib.log("  " + (virtual ? "virtual" : "platform") + " thread: wakeup, interrupt, data");
            }
        }
    }

    /**
     * More RDMA keys than the poll set's first array holds (it grows by 16):
     * registered with no interest, as Netty registers, which polls none of
     * them; interest set, cleared (back to epoll) and set again; every key
     * selected once its peer writes; and a key cancelled while the selector
     * waits, which deregistration moves the last key into the place of,
     * with its ready events, before they are processed.
     */
    static void manyKeys() throws Exception {
        int n = 40;
        RdmaTestLib.log(n + " RDMA keys: growth, interest cleared and set, a cancel during select");
        List<SocketChannel[]> pairs = new ArrayList<>();
        try (Selector sel = Selector.open()) {
            List<SelectionKey> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SocketChannel[] pair = RdmaTestLib.pair();
                pairs.add(pair);
                pair[0].configureBlocking(false);
                keys.add(pair[0].register(sel, 0, i));
            }
            assertEquals(0, sel.selectNow(), "keys with no interest selected");
            assertFalse(pollsRdma(sel), "RDMA keys with no interest are polled");
            keys.forEach(k -> k.interestOps(SelectionKey.OP_READ));
            assertEquals(0, sel.selectNow(), "keys selected with nothing ready");
            assertTrue(pollsRdma(sel), "RDMA keys with OP_READ are not polled");
            keys.forEach(k -> k.interestOps(0));
            sel.selectNow();
            assertFalse(pollsRdma(sel), "RDMA keys whose interest was cleared are polled");
            keys.forEach(k -> k.interestOps(SelectionKey.OP_READ));
            sel.selectNow();
            assertTrue(pollsRdma(sel), "RDMA keys whose interest was set again are not polled");

            // the first key, cancelled while the selector waits, is the
            // place the last one moves to; the last then becomes readable
            SelectionKey first = keys.get(0), last = keys.get(n - 1);
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread t = selecting(sel, false, outcome);
            RdmaTestLib.awaitFrame(t, "RdmaNet", "pollArray0");
            first.cancel();
            pairs.get(n - 1)[1].write(ByteBuffer.wrap(new byte[] { (byte) (n - 1) }));
            assertTrue(t.join(java.time.Duration.ofMillis(WAIT_MILLIS)), "data did not end select");
            assertEquals(1, outcome.get(), "keys selected when the last became readable");
            assertEquals(Set.of(last), sel.selectedKeys(), "the keys selected");
            sel.selectedKeys().clear();

            // every other peer writes its number: each key is selected, once
            for (int i = 1; i < n - 1; i++)
                pairs.get(i)[1].write(ByteBuffer.wrap(new byte[] { (byte) i }));
            Set<Object> selected = new java.util.HashSet<>();
            long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
            while (selected.size() < n - 1 && System.nanoTime() < deadline) {
                sel.select(key -> {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    try {
                        assertEquals(1, ((SocketChannel) key.channel()).read(one), "byte read");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    assertEquals((byte) (int) (Integer) key.attachment(), one.get(0), "the byte of key "
                            + key.attachment());
                    assertTrue(selected.add(key.attachment()), "key " + key.attachment() + " selected twice");
                }, WAIT_MILLIS);
            }
            assertEquals(n - 1, selected.size(), "keys selected and read: " + selected);
            RdmaTestLib.log("  " + n + " keys: each selected once with its byte; the cancel lost no event");
        } finally {
            for (SocketChannel[] pair : pairs) {
                pair[0].close();
                pair[1].close();
            }
        }
    }

    static Thread selecting(Selector sel, boolean virtual, AtomicReference<Object> outcome) {
        outcome.set(null);
        Runnable r = () -> {
            try {
                outcome.set(sel.select());
            } catch (Throwable e) {
                outcome.set(e);
            }
        };
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    /**
     * A selector closed while it holds RDMA and TCP keys leaves the
     * channels open and usable; 2,000 such selectors leave no descriptor.
     */
    static void closedSelector() throws Exception {
        RdmaTestLib.log("selectors closed with RDMA keys");
        SocketChannel[] pair = RdmaTestLib.pair();
        try (SocketChannel client = pair[0]; SocketChannel peer = pair[1];
             ServerSocketChannel tcp = ServerSocketChannel.open()) {
            tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).configureBlocking(false);
            client.configureBlocking(false);
            int rounds = 2_000;
            int before = RdmaTestLib.fdCount();
            for (int i = 0; i < rounds; i++) {
                Selector sel = Selector.open();
                client.register(sel, SelectionKey.OP_READ);
                tcp.register(sel, SelectionKey.OP_ACCEPT);
                sel.selectNow();
                if (i == 0)
                    assertTrue(pollsRdma(sel), "the selector does not poll RDMA");
                sel.close();
            }
            int after = RdmaTestLib.fdCount();
            RdmaTestLib.log("  " + rounds + " selectors: descriptors " + before + " before, " + after + " after");
            assertLessThanOrEqual(after, before, "descriptors after closing " + rounds + " selectors");
            client.configureBlocking(true);
            RdmaTestLib.echo(client, peer, 64 * 1024, 5);
        }
    }

    /** Whether the default selector waits in rpoll (it holds RDMA keys). */
    static boolean pollsRdma(Selector sel) throws Exception {
        synchronized (sel) {
            return FOREIGN_KEYS.get(sel) != null;
        }
    }
}
