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
 * README.md's example of the ordinary TCP program that rules.sh runs over RDMA.
 * The README shows this file from the line after this comment, byte for
 * byte (make/scripts/check-readme.sh); ../ReadmeRdmaExamples.java runs it.
 */

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

// An ordinary TCP program: nothing in it names RDMA.
public class PlainEcho {
    public static void main(String[] args) throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(args[0], 0));
            Thread.ofVirtual().start(() -> {            // the server echoes until EOF
                try (Socket peer = server.accept()) {
                    peer.getInputStream().transferTo(peer.getOutputStream());
                } catch (Exception e) {
                    e.printStackTrace();
                }
            });
            try (Socket client = new Socket(server.getInetAddress(), server.getLocalPort())) {
                client.getOutputStream().write(args[1].getBytes());
                client.shutdownOutput();
                System.out.println(new String(client.getInputStream().readAllBytes()));
            }
        }
    }
}
