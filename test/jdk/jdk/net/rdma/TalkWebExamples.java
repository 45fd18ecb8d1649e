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
 * @summary The talk's RDMA WebServer and WebClient
 *          (talk/, unchanged but for the slide's typos) compile without a
 *          deprecation warning and run at several transfer sizes; so do the
 *          same programs written against jdk.net.RdmaSockets.  As on the
 *          slide, the server binds InetAddress.getLocalHost() port 9000 and
 *          the client connects to 30.30.30.1: the test puts 30.30.30.1 on
 *          the RDMA device's interface and maps the host name to it with
 *          jdk.net.hosts.file.  The examples' loops end only when every byte
 *          went both ways (a short stream or EOF never ends them), so each
 *          run has a deadline.  The examples count bytes without looking
 *          at them, so each is also run against a checking peer written
 *          here: the server must send back exactly the bytes it was sent,
 *          and the client must send exactly its size in 'a's.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @compile -Xlint:deprecation -Werror talk/WebServer.java talk/WebClient.java
 *          talk/RdmaSocketsWebServer.java talk/RdmaSocketsWebClient.java
 * @run main/othervm -Djdk.net.hosts.file=talk.hosts TalkWebExamples
 */

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jdk.net.Sockets;

import static jdk.test.lib.Asserts.*;

public class TalkWebExamples {
    static final String TALK_ADDR = "30.30.30.1";
    static final int PORT = 9000;
    static final long DEADLINE_SECONDS = 120;

    interface Main {
        void main(String[] args) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        Files.writeString(Path.of("talk.hosts"), TALK_ADDR + " " + host + "\n");

        NetworkInterface nif = NetworkInterface.getByInetAddress(RdmaTestLib.SERVER);
        assertNotNull(nif, "the interface with " + RdmaTestLib.SERVER
                + " (none: run in the RDMA test guest, test/infra/rdma-guest/rdma-guest.sh)");
        boolean added = false;
        if (NetworkInterface.getByInetAddress(InetAddress.getByName(TALK_ADDR)) == null) {
            RdmaTestLib.ip("addr", "add", TALK_ADDR + "/32", "dev", nif.getName());
            added = true;
        }
        try {
            System.out.println("getLocalHost() = " + InetAddress.getLocalHost());
            assertEquals(TALK_ADDR, InetAddress.getLocalHost().getHostAddress(), "getLocalHost()'s address");
            for (int size : new int[] { 1, 4096, 65536, 1 << 20 }) {
                run("Sockets", WebServer::main, WebClient::main, size);
                run("RdmaSockets", RdmaSocketsWebServer::main, RdmaSocketsWebClient::main, size);
                run("Sockets server", WebServer::main, TalkWebExamples::checkingClient, size);
                run("RdmaSockets server", RdmaSocketsWebServer::main, TalkWebExamples::checkingClient, size);
                run("Sockets client", TalkWebExamples::checkingServer, WebClient::main, size);
                run("RdmaSockets client", TalkWebExamples::checkingServer, RdmaSocketsWebClient::main, size);
            }
        } finally {
            if (added)
                RdmaTestLib.ip("addr", "del", TALK_ADDR + "/32", "dev", nif.getName());
        }
    }

    static void run(String api, Main server, Main client, int size) throws Exception {
        String[] argv = { Integer.toString(size) };
        Throwable[] failure = new Throwable[2];
        Thread st = new Thread(() -> {
            try {
                server.main(argv);
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "WebServer");
        long t0 = System.nanoTime();
        st.start();
        // the client tries to connect once, so it starts when the server
        // listens, that is once the server is in accept
        RdmaTestLib.awaitFrame(st, "ServerSocketChannel", "accept");
        Thread ct = new Thread(() -> {
            try {
                client.main(argv);
            } catch (Throwable t) {
                failure[1] = t;
            }
        }, "WebClient");
        ct.start();
        ct.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        st.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        // a checking peer's failure first: the example it ran against may
        // then loop for ever, which is not the fault to report
        for (Throwable t : failure)
            if (t != null)
                fail(api + " example, " + size + " bytes: " + t, t);
        if (ct.isAlive() || st.isAlive())
            fail(api + " example, " + size + " bytes: not done after "
                    + DEADLINE_SECONDS + " s (client alive " + ct.isAlive() + ", server alive "
                    + st.isAlive() + ")");
        System.out.printf("%s example, %d bytes each way: %.2f s%n", api, size,
                (System.nanoTime() - t0) / 1e9);
    }

    /** A client for the examples' servers: sends the test stream, checks every byte that comes back. */
    static void checkingClient(String[] args) throws Exception {
        int size = Integer.parseInt(args[0]);
        ByteBuffer sent = ByteBuffer.wrap(RdmaTestLib.message(size, size));
        try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
            sc.connect(new InetSocketAddress(TALK_ADDR, PORT));
            RdmaTestLib.writeFully(sc, sent.duplicate());
            ByteBuffer back = RdmaTestLib.readFully(sc, size);
            assertEquals(-1, back.mismatch(sent), "the first byte the server sent back wrong, of " + size);
            assertEquals(-1, sc.read(ByteBuffer.allocate(1)), "EOF once the server has sent its " + size + " bytes");
        }
    }

    /** A server for the examples' clients: checks that the client sends its size in 'a's, then echoes. */
    static void checkingServer(String[] args) throws Exception {
        int size = Integer.parseInt(args[0]);
        byte[] as = new byte[size];
        Arrays.fill(as, (byte) 'a');
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(new InetSocketAddress(InetAddress.getLocalHost(), PORT));
            try (SocketChannel c = ssc.accept()) {
                ByteBuffer got = RdmaTestLib.readFully(c, size);
                assertEquals(-1, got.mismatch(ByteBuffer.wrap(as)), "the first byte the client sent that is not 'a'");
                RdmaTestLib.writeFully(c, got.rewind());
                assertEquals(-1, c.read(ByteBuffer.allocate(1)),
                        "EOF after the client's " + size + " bytes (it sent more, or did not close)");
            }
        }
    }
}
