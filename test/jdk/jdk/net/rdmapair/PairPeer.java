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

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.zip.CRC32;

import jdk.net.Sockets;

/**
 * The peer program of the two-guest tests, run in guest B by PairLib
 * (java PairPeer.java MODE ADDRESS PORT, a source file on its own: B cannot
 * see the classes jtreg compiled in A).  It listens for RDMA connections on
 * ADDRESS:PORT and serves each in a thread of its own until its end of
 * stream, printing a line per connection with the bytes and CRC32 of what it
 * read.  MODE echo writes back every byte it reads; MODE sink only reads.
 * Not a test.
 */
public class PairPeer {
    public static void main(String[] args) throws Exception {
        boolean echo = switch (args[0]) {
            case "echo" -> true;
            case "sink" -> false;
            default -> throw new IllegalArgumentException("mode " + args[0]);
        };
        ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel();
        ssc.bind(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])));
        System.out.println("listening on " + ssc.getLocalAddress() + ", " + args[0]);
        while (true) {
            SocketChannel sc = ssc.accept();
            Thread.ofPlatform().start(() -> serve(sc, echo));
        }
    }

    static void serve(SocketChannel sc, boolean echo) {
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        CRC32 crc = new CRC32();
        long total = 0;
        try (sc) {
            int n;
            while ((n = sc.read(buf)) >= 0) {
                buf.flip();
                crc.update(buf.duplicate());
                total += n;
                if (echo) {
                    while (buf.hasRemaining()) sc.write(buf);
                }
                buf.clear();
            }
            System.out.printf("connection from %s: read %d bytes, CRC32 %x%n", sc.getRemoteAddress(), total,
                    crc.getValue());
        } catch (IOException e) {
            System.out.printf("connection: %s after %d bytes%n", e, total);
        }
    }
}
