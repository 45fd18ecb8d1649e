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
 * @summary RDMA sockets interoperate with librdmacm's rstream tool.  A Java
 *          client (Sockets.openRdmaSocketChannel) against an rstream server,
 *          and an rstream client against a Java server
 *          (Sockets.openRdmaServerSocket, streams), both with rstream's
 *          verification (-T v): its protocol is a 16-byte exchange, then per
 *          iteration count transfers of size bytes from client to server
 *          and back, bytes counting up modulo 256 in each direction.  Java
 *          checks every byte it receives, rstream too.  Runs in the
 *          Soft-RoCE guest.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=600 RdmaInterop
 */

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaInterop {
    static final long TIMEOUT_SECONDS = 120;

    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("Java client, rstream server, 64 B x 1 x 100",
                        () -> javaClient(7481, 64, 1, 100)),
                new RdmaTestLib.Case("Java client, rstream server, 64 KiB x 20 x 2",
                        () -> javaClient(7482, 65536, 20, 2)),
                new RdmaTestLib.Case("rstream client, Java server, 64 B x 1 x 100",
                        () -> javaServer(7483, 64, 1, 100)),
                new RdmaTestLib.Case("rstream client, Java server, 64 KiB x 20 x 2",
                        () -> javaServer(7484, 65536, 20, 2))));
    }

    /** rstream's byte stream: each side's bytes count up from 0, modulo 256. */
    static final class Counter {
        long n;

        byte[] next(int size) {
            byte[] b = new byte[size];
            for (int i = 0; i < size; i++)
                b[i] = (byte) n++;
            return b;
        }

        void verify(byte[] b) {
            for (int i = 0; i < b.length; i++, n++)
                if (b[i] != (byte) n)
                    fail("byte " + n + " of the stream is " + (b[i] & 0xff) + ", expected " + (n & 0xff));
        }
    }

    static List<String> rstream(String role, int port, int size, int count, int iters) {
        List<String> cmd = new ArrayList<>(List.of(tool("rstream"), role, RdmaTestLib.SERVER.getHostAddress(),
                "-p", Integer.toString(port), "-S", Integer.toString(size), "-C", Integer.toString(count),
                "-I", Integer.toString(iters), "-T", "v"));
        return cmd;
    }

    static void javaClient(int port, int size, int count, int iters) throws Exception {
        Path log = Path.of("rstream-server-" + port + ".log");
        Process server = start(rstream("-b", port, size, count, iters), log);
        try {
            // rstream says nothing when it listens: try to connect until it does
            SocketChannel sc = null;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Utils.adjustTimeout(20_000));
            while (sc == null) {
                SocketChannel c = Sockets.openRdmaSocketChannel();
                try {
                    c.connect(new InetSocketAddress(RdmaTestLib.SERVER, port));
                    sc = c;
                } catch (java.net.ConnectException e) {
                    c.close();
                    if (System.nanoTime() > deadline || !server.isAlive())
                        fail("cannot connect to rstream: " + e + "; " + Files.readString(log), e);
                    Thread.sleep(50);
                }
            }
            try (SocketChannel c = sc) {
                Counter out = new Counter(), in = new Counter();
                RdmaTestLib.writeFully(c, ByteBuffer.wrap(out.next(16)));
                in.verify(RdmaTestLib.readFully(c, 16).array());
                long t0 = System.nanoTime();
                for (int it = 0; it < iters; it++) {
                    for (int t = 0; t < count; t++)
                        RdmaTestLib.writeFully(c, ByteBuffer.wrap(out.next(size)));
                    for (int t = 0; t < count; t++)
                        in.verify(RdmaTestLib.readFully(c, size).array());
                }
                System.out.printf("  Java client: %d bytes each way verified in %.2f s%n",
                        (long) size * count * iters, (System.nanoTime() - t0) / 1e9);
            }
            finish(server, log, "rstream server");
        } finally {
            server.destroyForcibly();
        }
    }

    static void javaServer(int port, int size, int count, int iters) throws Exception {
        Path log = Path.of("rstream-client-" + port + ".log");
        try (ServerSocket ss = Sockets.openRdmaServerSocket()) {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(RdmaTestLib.SERVER, port));
            Process client = start(rstream("-s", port, size, count, iters), log);
            try {
                ss.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                try (Socket s = ss.accept()) {
                    s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                    DataInputStream din = new DataInputStream(s.getInputStream());
                    OutputStream dout = s.getOutputStream();
                    Counter out = new Counter(), in = new Counter();
                    byte[] b = new byte[16];
                    din.readFully(b);
                    in.verify(b);
                    dout.write(out.next(16));
                    b = new byte[size];
                    for (int it = 0; it < iters; it++) {
                        for (int t = 0; t < count; t++) {
                            din.readFully(b);
                            in.verify(b);
                        }
                        for (int t = 0; t < count; t++)
                            dout.write(out.next(size));
                    }
                    finish(client, log, "rstream client");
                }
            } finally {
                client.destroyForcibly();
            }
        }
    }

    static void finish(Process p, Path log, String what) throws Exception {
        assertTrue(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                what + " done within " + TIMEOUT_SECONDS + " s; its output: " + Files.readString(log));
        String out = Files.readString(log);
        System.out.print(out.indent(4));
        assertEquals(0, p.exitValue(), what + " exit status; its output: " + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("custom ")),
                what + " reports a completed transfer (a line \"custom ...\"); its output: " + out);
    }

    static Process start(List<String> cmd, Path log) throws Exception {
        System.out.println("  $ " + String.join(" ", cmd));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** The path of an rdma-core tool. */
    static String tool(String name) {
        for (String dir : List.of("/usr/bin", "/usr/sbin", "/bin", "/sbin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p))
                return p.toString();
        }
        throw new RuntimeException(name + " (rdmacm-utils) is not installed");
    }
}
