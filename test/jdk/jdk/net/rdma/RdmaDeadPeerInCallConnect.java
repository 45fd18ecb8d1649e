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
 * @summary A peer JVM killed with SIGKILL, seen on connections whose
 *          handshake ended within rconnect (a non-blocking connect that
 *          returned true).  librdmacm releases without rdma-core's fix
 *          6de134096 never watch such a socket's event channel
 *          (RdmaWorkarounds.c, bug 3), so without RdmaDisconnectWatcher
 *          nothing there learnt of the death.  A platform reader, a
 *          virtual reader, a writer blocked on the full connection, a
 *          selector waiting for OP_READ and one waiting for OP_WRITE alone
 *          on a connection whose buffers the peer let fill, each on such a
 *          connection, wake within 10 s with EOF or a SocketException; a
 *          fifth connection, not read until then, still yields the 1000
 *          bytes the peer sent, compared, then EOF or a SocketException.
 *          Where the library needs RdmaDisconnectWatcher, its thread runs
 *          while it watches the six and ends within 2 s of the last
 *          disconnect; where not, it never starts.
 *          Runs in the Soft-RoCE guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @modules jdk.net/jdk.internal.net.rdma:+open
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaDeadPeerInCallConnect
 */

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaDeadPeerInCallConnect {
    static final int NEEDED = 6;        // platform reader, virtual reader, writer, selector, unread,
                                        // write selector
    static final int MAX_TRIES = 4000;
    static final int SENT = 1000;       // bytes the peer sends on each connection
    static final long WAKE_MILLIS = 10_000;
    static final long WATCHER_END_MILLIS = 2_000;
    static final String WATCHER = "RDMA-Disconnect-Watcher";
    static final byte KEEP = 'k';

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            peer();
            return;
        }
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder("RdmaDeadPeerInCallConnect", "peer");
        Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<SocketChannel> kept = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
            String line = out.readLine();
            assertNotNull(line, "the peer's port (the peer exited)");
            InetSocketAddress peer = new InetSocketAddress(RdmaTestLib.SERVER, Integer.parseInt(line.strip()));

            // Connect until NEEDED connects complete within the call; close
            // the others once they complete.
            int tries = 0;
            try (Selector connecting = Sockets.openRdmaSelector()) {
                while (kept.size() < NEEDED && tries < MAX_TRIES) {
                    tries++;
                    SocketChannel c = Sockets.openRdmaSocketChannel();
                    c.configureBlocking(false);
                    if (c.connect(peer)) {
                        // tell the peer to keep it, and to stop reading it
                        c.configureBlocking(true);
                        RdmaTestLib.writeFully(c, ByteBuffer.wrap(new byte[] { KEEP }));
                        c.configureBlocking(false);
                        kept.add(c);
                        continue;
                    }
                    SelectionKey k = c.register(connecting, SelectionKey.OP_CONNECT);
                    while (!c.finishConnect())
                        connecting.select(1000);
                    k.cancel();
                    connecting.selectNow();
                    c.close();
                }
            }
            System.out.printf("%d of %d connects completed within rconnect%n", kept.size(), tries);
            assertEquals(kept.size(), NEEDED, "connects that completed within rconnect, of " + tries);

            List<Thread> threads = new ArrayList<>();
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<String> names = List.of("platform reader", "virtual reader", "writer", "selector",
                    "write selector");
            List<RdmaTestLib.Blocked> kinds = List.of(RdmaTestLib.Blocked.READER, RdmaTestLib.Blocked.READER,
                    RdmaTestLib.Blocked.WRITER, RdmaTestLib.Blocked.SELECTOR, RdmaTestLib.Blocked.SELECTOR);
            for (int i = 0; i < 3; i++) {
                SocketChannel c = kept.get(i);
                c.configureBlocking(true);
                assertEquals(RdmaTestLib.readFully(c, SENT), ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)),
                        "the bytes the peer sent on connection " + i);
                AtomicReference<Object> outcome = new AtomicReference<>();
                threads.add(RdmaTestLib.startBlocked(kinds.get(i), i == 1, c, outcome));
                outcomes.add(outcome);
            }
            Selector sel = Sockets.openRdmaSelector();
            SocketChannel selected = kept.get(3);
            selected.register(sel, SelectionKey.OP_READ);
            AtomicReference<Object> selectOutcome = new AtomicReference<>();
            threads.add(Thread.ofPlatform().start(() -> selectOutcome.set(selectUntilEnd(sel))));
            outcomes.add(selectOutcome);

            // a selector waiting for OP_WRITE alone, on a connection whose
            // buffers the unread peer has let fill
            SocketChannel full = kept.get(5);
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            int filled = 0, wrote;
            while ((wrote = full.write(chunk.clear())) > 0)
                filled += wrote;
            System.out.println("write selector: " + filled + " bytes written before a write wrote nothing");
            Selector wsel = Sockets.openRdmaSelector();
            full.register(wsel, SelectionKey.OP_WRITE);
            AtomicReference<Object> writeSelectOutcome = new AtomicReference<>();
            threads.add(Thread.ofPlatform().start(() -> writeSelectOutcome.set(selectUntilWriteFails(wsel))));
            outcomes.add(writeSelectOutcome);

            for (Thread t : threads.subList(0, 3))
                RdmaTestLib.awaitWaiting(t);
            RdmaTestLib.awaitFrame(threads.get(3), "RdmaNet", "pollArray0");
            RdmaTestLib.awaitFrame(threads.get(4), "RdmaNet", "pollArray0");

            // the watcher's thread runs exactly where the library needs it
            boolean unserved = (Boolean) RdmaTestLib.rdmaNetField("CONNECT_UNSERVED");
            assertEquals(watcherThreads().isEmpty(), !unserved,
                    "a thread " + WATCHER + " while six sockets are connected, CONNECT_UNSERVED " + unserved);

            List<String> failures = RdmaTestLib.killAndAwait(p, threads, names, kinds, outcomes, WAKE_MILLIS);

            // the connection nobody read: the peer's bytes, then the end
            SocketChannel unread = kept.get(4);
            unread.configureBlocking(true);
            ByteBuffer got = ByteBuffer.allocate(SENT + 1);
            AtomicReference<Object> end = new AtomicReference<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    int n;
                    while ((n = unread.read(got)) > 0 && got.position() < SENT) { }
                    end.set((got.position() < SENT) ? n : unread.read(got));
                } catch (Throwable t) {
                    end.set(t);
                }
            });
            if (!reader.join(Duration.ofMillis(WAKE_MILLIS))) {
                failures.add("the unread connection: a read still blocked after " + WAKE_MILLIS
                        + " ms, " + got.position() + " bytes read");
            } else {
                byte[] bytes = Arrays.copyOf(got.array(), got.position());
                Object e = end.get();
                System.out.printf("  unread connection: %d bytes, then %s%n", bytes.length, e);
                if (!Arrays.equals(bytes, RdmaTestLib.message(SENT, 0)))
                    failures.add("the unread connection gave " + bytes.length + " bytes, not the " + SENT + " sent");
                else if (!(e instanceof SocketException || Integer.valueOf(-1).equals(e)))
                    failures.add("the unread connection, after its bytes: " + e + ", not EOF or a SocketException");
            }

            // every watched socket has had its disconnect: nothing is left
            // to watch, so the watcher's thread ends
            long t0 = System.nanoTime();
            List<Thread> left;
            while (!(left = watcherThreads()).isEmpty()
                    && System.nanoTime() - t0 < WATCHER_END_MILLIS * 1_000_000)
                Thread.sleep(10);   // polling the thread list
            if (!left.isEmpty())
                failures.add(WATCHER + " still running " + WATCHER_END_MILLIS
                        + " ms after the disconnects of every socket it watched");

            if (!failures.isEmpty())
                RdmaTestLib.dumpThreads();
            sel.close();
            wsel.close();
            if (!failures.isEmpty())
                fail(String.join("; ", failures));
        } finally {
            p.destroyForcibly();
            for (SocketChannel c : kept)
                c.close();
        }
    }

    static List<Thread> watcherThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(WATCHER))
                .toList();
    }

    /**
     * Selects until the key's channel has read EOF or thrown a
     * SocketException, reading what the peer sent first; returns "ended",
     * or what else the reads returned or threw.
     */
    static Object selectUntilEnd(Selector sel) {
        try {
            ByteBuffer got = ByteBuffer.allocate(SENT + 1);
            for (;;) {
                sel.select();
                for (SelectionKey k : sel.selectedKeys()) {
                    SocketChannel c = (SocketChannel) k.channel();
                    try {
                        if (c.read(got) >= 0)
                            continue;
                    } catch (SocketException e) {
                        System.out.println("  channel in the selector: " + e);
                    }
                    if (!Arrays.equals(Arrays.copyOf(got.array(), got.position()), RdmaTestLib.message(SENT, 0)))
                        return "read " + got.position() + " bytes, not the " + SENT + " sent";
                    return "ended";
                }
                sel.selectedKeys().clear();
            }
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * Selects for OP_WRITE until a write of the key's channel throws a
     * SocketException; returns "ended", or what else was thrown.
     */
    static Object selectUntilWriteFails(Selector sel) {
        try {
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            for (;;) {
                sel.select();
                for (SelectionKey k : sel.selectedKeys()) {
                    try {
                        ((SocketChannel) k.channel()).write(chunk.clear());
                    } catch (SocketException e) {
                        System.out.println("  channel in the write selector: " + e);
                        return "ended";
                    }
                }
                sel.selectedKeys().clear();
            }
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * The peer: listens, prints its port, and on each connection it accepts
     * sends SENT bytes, then reads one byte: it keeps the connection,
     * reading no more, if the byte is KEEP, and closes it at EOF.
     */
    static void peer() throws Exception {
        ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
        ssc.bind(RdmaTestLib.anyPort(), 64);
        System.out.println(((InetSocketAddress) ssc.getLocalAddress()).getPort());
        for (;;) {
            SocketChannel c = ssc.accept();
            Thread.ofVirtual().start(() -> {
                try {
                    RdmaTestLib.writeFully(c, ByteBuffer.wrap(RdmaTestLib.message(SENT, 0)));
                    ByteBuffer b = ByteBuffer.allocate(1);
                    if (c.read(b) == 1 && b.get(0) == KEEP)
                        return;     // held until the kill
                    c.close();
                } catch (IOException e) {
                    // the test closed it abruptly
                }
            });
        }
    }
}
