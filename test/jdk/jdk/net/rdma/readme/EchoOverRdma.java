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
 *
 * README.md's example of RDMA sockets from jdk.net.Sockets.
 * The README shows this file from the line after this comment, byte for
 * byte (make/scripts/check-readme.sh); ../ReadmeRdmaExamples.java runs it.
 */

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import jdk.net.Sockets;

// java EchoOverRdma.java ADDRESS MESSAGE, ADDRESS being an RDMA device's address
public class EchoOverRdma {
    public static void main(String[] args) throws Exception {
        try (ServerSocketChannel server = Sockets.openRdmaServerSocketChannel();
             SocketChannel client = Sockets.openRdmaSocketChannel()) {
            server.bind(new InetSocketAddress(args[0], 0));
            Thread.ofVirtual().start(() -> {            // the server echoes until EOF
                try (SocketChannel peer = server.accept()) {
                    ByteBuffer buf = ByteBuffer.allocate(4096);
                    while (peer.read(buf.clear()) > 0)
                        peer.write(buf.flip());
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
            client.connect(server.getLocalAddress());
            client.write(ByteBuffer.wrap(args[1].getBytes()));
            client.shutdownOutput();
            ByteBuffer reply = ByteBuffer.allocate(4096);
            while (client.read(reply) > 0) { }
            System.out.println(new String(reply.array(), 0, reply.position()));
        }
    }
}
