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
 * @summary A peer JVM killed with SIGKILL: a thread blocked reading an RDMA
 *          channel connected to it, platform or virtual, gets EOF or a
 *          SocketException within 10 s, and so does a writer blocked
 *          because the dead peer stopped reading, and a thread blocked in
 *          an RDMA selector's select for OP_READ finds the keys ready and
 *          reads EOF or gets a SocketException; then the channels close
 *          without hanging.  The peer is the client of one set of
 *          connections (the test's side accepted them) and the server of
 *          another (the test's side connected).  Runs in the Soft-RoCE
 *          guest (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaDeadPeer
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jdk.net.Sockets;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaDeadPeer {
    // per side: a platform reader, a virtual reader, a platform writer,
    // a non-blocking channel in a selector
    static final int PER_SIDE = 4;
    static final long WAKE_MILLIS = 10_000;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            peer(Integer.parseInt(args[0]));
            return;
        }
        List<SocketChannel> accepted = new ArrayList<>();
        List<SocketChannel> connected = new ArrayList<>();
        Process p = null;
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            int port = ((InetSocketAddress) ssc.getLocalAddress()).getPort();
            ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder("RdmaDeadPeer", Integer.toString(port));
            p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
            for (int i = 0; i < PER_SIDE; i++) {
                SocketChannel c = ssc.accept();
                accepted.add(c);
                assertEquals((byte) i, RdmaTestLib.readFully(c, 1).get(0), "the byte the peer sent");
            }
            String line = out.readLine();
            assertNotNull(line, "the peer's port (the peer exited)");
            int peerPort = Integer.parseInt(line.strip());
            for (int i = 0; i < PER_SIDE; i++) {
                SocketChannel c = Sockets.openRdmaSocketChannel();
                connected.add(c);
                c.connect(new InetSocketAddress(RdmaTestLib.SERVER, peerPort));
                assertEquals((byte) i, RdmaTestLib.readFully(c, 1).get(0), "the byte the peer sent");
            }

            List<Thread> threads = new ArrayList<>();
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<String> names = new ArrayList<>();
            List<RdmaTestLib.Blocked> kinds = new ArrayList<>();
            Selector sel = Sockets.openRdmaSelector();
            for (List<SocketChannel> side : List.of(accepted, connected)) {
                SocketChannel c = side.get(3);
                c.configureBlocking(false);
                c.register(sel, SelectionKey.OP_READ, side == accepted ? "accepted" : "connected");
            }
            AtomicReference<Object> selected = new AtomicReference<>();
            threads.add(Thread.ofPlatform().start(() -> selected.set(selectUntilEnd(sel))));
            outcomes.add(selected);
            names.add("selector on an accepted and a connected channel");
            kinds.add(RdmaTestLib.Blocked.SELECTOR);
            for (List<SocketChannel> side : List.of(accepted, connected)) {
                String sideName = side == accepted ? "accepted" : "connected";
                for (int i = 0; i < 3; i++) {
                    AtomicReference<Object> outcome = new AtomicReference<>();
                    RdmaTestLib.Blocked kind = (i == 2) ? RdmaTestLib.Blocked.WRITER : RdmaTestLib.Blocked.READER;
                    threads.add(RdmaTestLib.startBlocked(kind, i == 1, side.get(i), outcome));
                    outcomes.add(outcome);
                    kinds.add(kind);
                    names.add(sideName + (i == 2 ? " writer" : i == 1 ? " virtual reader" : " platform reader"));
                }
            }
            // the selecting thread waits in rpoll, in native code
            RdmaTestLib.awaitFrame(threads.get(0), "RdmaNet", "pollArray0");
            for (Thread t : threads.subList(1, threads.size()))
                RdmaTestLib.awaitWaiting(t);

            List<String> failures = RdmaTestLib.killAndAwait(p, threads, names, kinds, outcomes, WAKE_MILLIS);
            if (!failures.isEmpty())
                RdmaTestLib.dumpThreads();
            // close, in a thread of its own so that a close that hangs fails the test
            Thread closer = Thread.ofPlatform().start(() -> {
                for (SocketChannel c : accepted) close(c);
                for (SocketChannel c : connected) close(c);
            });
            long t0 = System.nanoTime();
            sel.close();
            if (!closer.join(Duration.ofMillis(WAKE_MILLIS))) {
                failures.add("closing the channels took over " + WAKE_MILLIS + " ms");
                RdmaTestLib.dumpThreads();
            }
            System.out.printf("  closed the %d channels in %d ms%n", accepted.size() + connected.size(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            if (!failures.isEmpty())
                fail(String.join("; ", failures));
        } finally {
            if (p != null)
                p.destroyForcibly();
        }
    }

    /**
     * Selects until every key's channel has read EOF or thrown a
     * SocketException; returns "ended", or what else a read returned or
     * threw.
     */
    static Object selectUntilEnd(Selector sel) {
        try {
            int open = sel.keys().size();
            while (open > 0) {
                sel.select();
                for (SelectionKey k : sel.selectedKeys()) {
                    SocketChannel c = (SocketChannel) k.channel();
                    try {
                        int n = c.read(ByteBuffer.allocate(1));
                        if (n != -1)
                            return k.attachment() + " channel: read " + n + ", not EOF";
                    } catch (SocketException e) {
                        System.out.println("  " + k.attachment() + " channel in the selector: " + e);
                    }
                    k.cancel();
                    open--;
                }
                sel.selectedKeys().clear();
            }
            return "ended";
        } catch (Throwable t) {
            return t;
        }
    }

    static void close(SocketChannel c) {
        long t0 = System.nanoTime();
        try {
            c.close();
        } catch (IOException e) {
            System.out.println("  close: " + e);
        }
        System.out.printf("  close: %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /**
     * The peer: connects PER_SIDE times to the test's server and sends
     * byte i on connection i, then listens, prints its port, accepts
     * PER_SIDE connections and sends byte i on each, and waits for the kill.
     */
    static void peer(int port) throws Exception {
        List<SocketChannel> keep = new ArrayList<>();
        for (int i = 0; i < PER_SIDE; i++) {
            SocketChannel c = Sockets.openRdmaSocketChannel();
            c.connect(new InetSocketAddress(RdmaTestLib.SERVER, port));
            c.write(ByteBuffer.wrap(new byte[] { (byte) i }));
            keep.add(c);
        }
        ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
        ssc.bind(RdmaTestLib.anyPort());
        System.out.println(((InetSocketAddress) ssc.getLocalAddress()).getPort());
        for (int i = 0; i < PER_SIDE; i++) {
            SocketChannel c = ssc.accept();
            c.write(ByteBuffer.wrap(new byte[] { (byte) i }));
            keep.add(c);
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
