/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

// The talk's example (see WebClient.java) with its one factory call written
// against jdk.net.RdmaSockets, the names of JEP 337's CSR.

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import jdk.net.RdmaSockets;
import java.net.StandardProtocolFamily;
public class RdmaSocketsWebClient {
  public static void main(String args[]) throws IOException {
    int xfSize = Integer.parseInt(args[0]);
    InetSocketAddress hostAddress = new
InetSocketAddress("30.30.30.1", 9000);
    SocketChannel client = RdmaSockets.openSocketChannel(StandardProtocolFamily.INET);
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
