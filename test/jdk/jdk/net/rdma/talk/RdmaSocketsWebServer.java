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

// The talk's example (see WebServer.java) with its one factory call written
// against jdk.net.RdmaSockets, the names of JEP 337's CSR.

import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.ByteBuffer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.InetAddress;
import jdk.net.RdmaSockets;
import java.net.StandardProtocolFamily;
public class RdmaSocketsWebServer {
  public static void main (String[] args)
      throws IOException {
    ServerSocketChannel ssc =
RdmaSockets.openServerSocketChannel(StandardProtocolFamily.INET);
    InetAddress addr = InetAddress.getLocalHost();
    InetSocketAddress hostAddress = new InetSocketAddress(addr,
9000);
    ssc.bind(hostAddress);
    SocketChannel client = ssc.accept();
int xfSize = Integer.parseInt(args[0]);
ByteBuffer buffer = ByteBuffer.allocate(xfSize);
int readCount = 0;
int writeCount = 0;
int readB = 0;
int writeB = 0;
while (readCount < xfSize) {
  readB = client.read(buffer);
  readCount = readCount + readB;
}
buffer.flip();
while (writeCount < xfSize) {
  writeB = client.write(buffer);
  writeCount = writeCount + writeB;
}
client.close();
ssc.close();
  }
}
