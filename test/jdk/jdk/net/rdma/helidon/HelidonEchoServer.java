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

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;

/**
 * A web server written with Helidon SE's WebServer, which serves each
 * connection on a virtual thread, with its defaults: only the port is
 * chosen, so it listens on every address (Helidon's default host, 0.0.0.0)
 * with Helidon's default backlog (1024) and connection options. Nothing in
 * it is about RDMA. It is run as a source file, with Helidon's jars on the
 * class path:
 *
 *   java -cp HELIDON_JARS HelidonEchoServer.java PORT
 *
 * POST /echo answers with the request's body; GET /bytes/N answers with N
 * bytes of a fixed pattern, byte i being (byte) (i * 31 + (i >>> 8)). Once it
 * listens it prints "listening on port PORT with backlog N", N as its
 * configuration has it, and serves until it is killed. A bind that fails
 * ends it with the exception.
 */
public class HelidonEchoServer {
    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        WebServerConfig config = WebServer.builder()
                .port(port)
                .routing(r -> r
                        .post("/echo", (req, res) -> res.send(req.content().as(byte[].class)))
                        .get("/bytes/{n}", (req, res) -> res.send(
                                pattern(Integer.parseInt(req.path().pathParameters().get("n"))))))
                .buildPrototype();
        WebServer server = WebServer.create(config).start();
        System.out.println("listening on port " + server.port() + " with backlog " + config.backlog());
    }

    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (i * 31 + (i >>> 8));
        return b;
    }
}
