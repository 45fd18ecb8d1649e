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
 *          run has a deadline.
 * @requires os.family == "linux"
 * @library /test/lib
 * @compile -Xlint:deprecation -Werror talk/WebServer.java talk/WebClient.java
 *          talk/RdmaSocketsWebServer.java talk/RdmaSocketsWebClient.java
 * @run main/othervm -Djdk.net.hosts.file=talk.hosts TalkWebExamples
 */

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static jdk.test.lib.Asserts.*;

public class TalkWebExamples {
    static final String TALK_ADDR = "30.30.30.1";
    static final long DEADLINE_SECONDS = 120;

    interface Main {
        void main(String[] args) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        Files.writeString(Path.of("talk.hosts"), TALK_ADDR + " " + host + "\n");

        NetworkInterface nif = NetworkInterface.getByInetAddress(RdmaTestLib.SERVER);
        assertNotNull(nif, "the interface with " + RdmaTestLib.SERVER
                + " (none: run in the RDMA test guest, make/scripts/rdma-guest.sh)");
        boolean added = false;
        if (NetworkInterface.getByInetAddress(InetAddress.getByName(TALK_ADDR)) == null) {
            ip("addr", "add", TALK_ADDR + "/32", "dev", nif.getName());
            added = true;
        }
        try {
            System.out.println("getLocalHost() = " + InetAddress.getLocalHost());
            assertEquals(TALK_ADDR, InetAddress.getLocalHost().getHostAddress(), "getLocalHost()'s address");
            for (int size : new int[] { 1, 4096, 65536, 1 << 20 }) {
                run("Sockets", WebServer::main, WebClient::main, size);
                run("RdmaSockets", RdmaSocketsWebServer::main, RdmaSocketsWebClient::main, size);
            }
        } finally {
            if (added)
                ip("addr", "del", TALK_ADDR + "/32", "dev", nif.getName());
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
        if (ct.isAlive() || st.isAlive())
            fail(api + " example, " + size + " bytes: not done after "
                    + DEADLINE_SECONDS + " s (client alive " + ct.isAlive() + ", server alive "
                    + st.isAlive() + ")");
        for (Throwable t : failure)
            if (t != null)
                fail(api + " example, " + size + " bytes: " + t, t);
        System.out.printf("%s example, %d bytes each way: %.2f s%n", api, size,
                (System.nanoTime() - t0) / 1e9);
    }

    static void ip(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Files.isExecutable(Path.of("/usr/sbin/ip")) ? "/usr/sbin/ip" : "/sbin/ip");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + " exit status; its output: " + out);
        System.out.println("$ " + String.join(" ", cmd) + " " + out.strip());
    }
}
