/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

// The talk's RDMA WebServer example, as on its slide except where the slide
// does not compile: ':' for ';' at line ends, the closing braces of its
// loops, class and method, 'String[] args' for the slide's 'String ☐ args',
// and ',' for '.' after 'addr'.  Nothing else is changed.

import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.ByteBuffer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.InetAddress;
import jdk.net.Sockets;
public class WebServer {
  public static void main (String[] args)
      throws IOException {
    ServerSocketChannel ssc =
Sockets.openRdmaServerSocketChannel();
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
