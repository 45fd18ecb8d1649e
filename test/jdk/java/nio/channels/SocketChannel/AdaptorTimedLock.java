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
 * @summary The adaptors of SocketChannel and ServerSocketChannel count the
 *          wait for the read or accept lock against SO_TIMEOUT, as
 *          NioSocketImpl does: several threads that read, or accept, on one
 *          socket with a timeout each time out after about the timeout,
 *          not one after another; the socket then still delivers its bytes
 *          and accepts connections.
 * @library /test/lib
 * @run main AdaptorTimedLock platform
 * @run main AdaptorTimedLock virtual
 */

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

import static jdk.test.lib.Asserts.*;

public class AdaptorTimedLock {

    // Eight waiters on one lock with a 1 s timeout: without the timed lock
    // the last times out after about 8 s, with it each after about 1 s.
    // The bound leaves 2 s for a slow machine and still tells them apart.
    static final int WAITERS = 8;
    static final int TIMEOUT_MS = 1000;
    static final long BOUND_MS = TIMEOUT_MS + 2000;

    interface Blocking {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        ThreadFactory factory = switch (args[0]) {
            case "platform" -> Thread.ofPlatform().factory();
            case "virtual" -> Thread.ofVirtual().factory();
            default -> throw new IllegalArgumentException(args[0]);
        };
        InetAddress lo = InetAddress.getLoopbackAddress();

        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(lo, 0));
            try (SocketChannel sc = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel peer = listener.accept()) {
                Socket s = sc.socket();
                s.setSoTimeout(TIMEOUT_MS);
                InputStream in = s.getInputStream();
                timesOutTogether("read", factory, () -> in.read(new byte[16]));

                // nothing was lost: the next read gets the peer's bytes
                byte[] sent = "after the timeouts".getBytes();
                peer.write(ByteBuffer.wrap(sent));
                byte[] got = in.readNBytes(sent.length);
                assertTrue(Arrays.equals(sent, got), "read " + Arrays.toString(got));
            }
        }

        try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
            ssc.bind(new InetSocketAddress(lo, 0));
            ServerSocket ss = ssc.socket();
            ss.setSoTimeout(TIMEOUT_MS);
            timesOutTogether("accept", factory, () -> ss.accept().close());

            // the server socket still accepts
            try (Socket client = new Socket(lo, ss.getLocalPort());
                 Socket accepted = ss.accept()) {
                assertEquals(client.getLocalSocketAddress(), accepted.getRemoteSocketAddress());
            }
        }
        System.out.println("OK");
    }

    /**
     * Starts WAITERS threads that call op at once and checks that each
     * throws SocketTimeoutException within BOUND_MS of the start.
     */
    static void timesOutTogether(String what, ThreadFactory factory, Blocking op)
        throws Exception
    {
        CountDownLatch go = new CountDownLatch(1);
        long[] elapsed = new long[WAITERS];
        Throwable[] thrown = new Throwable[WAITERS];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            int k = i;
            threads.add(factory.newThread(() -> {
                try {
                    go.await();
                    long start = System.nanoTime();
                    try {
                        op.run();
                    } catch (Throwable e) {
                        thrown[k] = e;
                    }
                    elapsed[k] = (System.nanoTime() - start) / 1_000_000;
                } catch (InterruptedException e) {
                    thrown[k] = e;
                }
            }));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread t : threads)
            t.join();

        System.out.println(what + ": timed out after " + Arrays.toString(elapsed) + " ms");
        for (int i = 0; i < WAITERS; i++) {
            if (!(thrown[i] instanceof SocketTimeoutException))
                throw new RuntimeException(what + " " + i + " did not time out", thrown[i]);
            // the timeout is a lower bound too: none gave up early
            assertTrue(elapsed[i] >= TIMEOUT_MS - 50,
                       what + " " + i + " timed out after " + elapsed[i] + " ms");
            assertTrue(elapsed[i] <= BOUND_MS,
                       what + " " + i + " timed out after " + elapsed[i] + " ms, bound "
                       + BOUND_MS + ": it waited for the lock without a limit");
        }
    }
}
