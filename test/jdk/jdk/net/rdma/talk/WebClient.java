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

// The talk's RDMA WebClient example, as on its slide except where the slide
// does not compile: ':' for ';' at line ends, the closing braces of its
// loops, class and method, 'String[] args' for the slide's 'String ☐ args',
// and ',' for '.' after 'addr'.  Nothing else is changed.

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import jdk.net.Sockets;
public class WebClient {
  public static void main(String args[]) throws IOException {
    int xfSize = Integer.parseInt(args[0]);
    InetSocketAddress hostAddress = new
InetSocketAddress("30.30.30.1", 9000);
    SocketChannel client = Sockets.openRdmaSocketChannel();
    client.connect(hostAddress);
    ByteBuffer buf = ByteBuffer.allocate(xfSize);
    for (int i = 0; i < xfSize; i++) {
      buf.put((byte)'a');
    }
    buf.flip();
int writeB = 0;
int writeCount = 0;
int readB = 0;
int readCount = 0;
while (writeCount < xfSize) {
  writeB = client.write(buf);
  writeCount = writeCount + writeB;
}
buf.flip();
while (readCount < xfSize) {
  readB = client.read(buf);
  readCount = readCount + readB;
}
client.close();
  }
}
