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
 * @summary Transparent RDMA and asynchronous socket channels: they stay
 *          platform sockets, so with -Djdk.net.rdma.conf a bind or connect
 *          that a rule matches fails with a SocketException naming the
 *          rule, never runs over TCP unnoticed; one that no rule matches
 *          works over TCP, bytes compared.  The case runs in a JVM of its
 *          own, started with the options a user would give.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaTransparentAsync
 */

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class RdmaTransparentAsync {
    static final long SECONDS = 10;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            app();
            return;
        }
        String server = RdmaTestLib.SERVER.getHostAddress();
        Path conf = Path.of("async.conf");
        Files.writeString(conf, String.join("\n",
                "bind    " + server + " *",
                "connect " + server + " *",
                ""));
        OutputAnalyzer out = ProcessTools.executeTestJava(
                "-Djdk.net.rdma.conf=" + conf.toAbsolutePath(), "RdmaTransparentAsync", "app");
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        out.shouldContain("all cases passed");
    }

    static String ruleText(int line, String rule) {
        return ", line " + line + " (" + rule + ") matches the ";
    }

    static void app() throws Exception {
        String server = RdmaTestLib.SERVER.getHostAddress();

        // A listener on the RDMA address: the bind rule matches
        try (AsynchronousServerSocketChannel assc = AsynchronousServerSocketChannel.open()) {
            SocketException e = assertThrows(SocketException.class,
                    () -> assc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
            System.out.println("server bind: " + e.getMessage());
            assertTrue(e.getMessage().contains(ruleText(1, "bind " + server + " *")), e.getMessage());
            assertTrue(e.getMessage().contains("asynchronous"), e.getMessage());
            assertNull(assc.getLocalAddress(), "bound after the refusal");
            assertTrue(assc.isOpen(), "a refused bind closes nothing");
        }

        // A client bound to the RDMA address: the bind rule matches too
        try (AsynchronousSocketChannel asc = AsynchronousSocketChannel.open()) {
            SocketException e = assertThrows(SocketException.class,
                    () -> asc.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0)));
            assertTrue(e.getMessage().contains(ruleText(1, "bind " + server + " *")), e.getMessage());
        }

        // An unbound client connecting to an RDMA listener: the connect
        // rule matches; the connect fails as a failed connect does, and the
        // listener sees no connection
        try (ServerSocketChannel rdma = ServerSocketChannel.open()) {
            rdma.bind(new InetSocketAddress(RdmaTestLib.SERVER, 0));
            rdma.configureBlocking(false);
            AsynchronousSocketChannel asc = AsynchronousSocketChannel.open();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> asc.connect(rdma.getLocalAddress()).get(SECONDS, TimeUnit.SECONDS));
            assertEquals(SocketException.class, e.getCause().getClass(), "cause: " + e.getCause());
            String m = e.getCause().getMessage();
            System.out.println("connect: " + m);
            assertTrue(m.contains(ruleText(2, "connect " + server + " *")), m);
            assertFalse(asc.isOpen(), "a failed connect closes the channel, as any failed connect");
            assertNull(rdma.accept(), "a connection reached the RDMA listener");
        }

        // No rule matches loopback: TCP, bytes compared
        try (AsynchronousServerSocketChannel assc = AsynchronousServerSocketChannel.open()
                     .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             AsynchronousSocketChannel asc = AsynchronousSocketChannel.open()) {
            var accepted = assc.accept();
            asc.connect(assc.getLocalAddress()).get(SECONDS, TimeUnit.SECONDS);
            try (AsynchronousSocketChannel peer = accepted.get(SECONDS, TimeUnit.SECONDS)) {
                byte[] data = new byte[256 * 1024];
                for (int i = 0; i < data.length; i++)
                    data[i] = (byte) (i * 31 + 7);
                ByteBuffer out = ByteBuffer.wrap(data);
                ByteBuffer in = ByteBuffer.allocate(data.length);
                while (out.hasRemaining() || in.hasRemaining()) {
                    var w = out.hasRemaining() ? asc.write(out) : null;
                    if (in.hasRemaining())
                        peer.read(in).get(SECONDS, TimeUnit.SECONDS);
                    if (w != null)
                        w.get(SECONDS, TimeUnit.SECONDS);
                }
                assertEquals(-1, Arrays.mismatch(data, in.array()), "first byte that differs over TCP");
            }
        }
        System.out.println("all cases passed");
    }
}
