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

// The direct I/O example of the talk "Programming modern devices with
// JDK 10 and beyond", as it compiles on JDK 10 and later.  It differs from
// the slide (slide/testDirectIO.java) in two places only, both marked:
// the slide leaves out the java.io imports, and it was written when
// FileStore.getBlockSize() returned int; the API returns long since JDK 10.
import java.nio.file.Paths;
import java.nio.file.Path;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import com.sun.nio.file.ExtendedOpenOption;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.io.File;                // not on the slide
import java.io.FileOutputStream;    // not on the slide
import java.io.IOException;         // not on the slide
public class testDirectIO {
  public static void main (String[] args) throws IOException {
    int fileSize = 8192;
    File datafile = File.createTempFile("myfile", null);
    datafile.deleteOnExit();
    FileOutputStream fos = new FileOutputStream(datafile);
    fos.write(new byte[fileSize]);
    fos.close();
    String path = datafile.getAbsolutePath();
    Path p = Paths.get(path);
    FileChannel newChannel = FileChannel.open(p, ExtendedOpenOption.DIRECT);
    FileStore store = Files.getFileStore(p);
    int alignment = (int) store.getBlockSize();   // slide: no (int) cast
    ByteBuffer buf = ByteBuffer.allocateDirect(fileSize + alignment - 1).alignedSlice(alignment);
    int result = newChannel.read(buf);
    newChannel.close();
  }
}
