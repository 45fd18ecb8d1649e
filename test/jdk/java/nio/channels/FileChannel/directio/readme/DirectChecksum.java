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
 * README.md's example of a DIRECT read sized and aligned with jdk.nio.DirectIO.
 * The README shows this file from the line after this comment, byte for
 * byte (make/scripts/check-readme.sh); ../ReadmeDirectIOExamples.java runs it.
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32;
import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

// java DirectChecksum.java FILE: the file's CRC32, read past the page cache
public class DirectChecksum {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        DirectIO.Alignment align = DirectIO.alignment(file);   // asks statx; does not open the file
        int size = 256 * align.readOffset();                   // every read a multiple of it
        ByteBuffer buf = ByteBuffer.allocateDirect(size + align.memory() - 1)
                                   .alignedSlice(align.memory());
        CRC32 crc = new CRC32();
        try (FileChannel ch = FileChannel.open(file, ExtendedOpenOption.DIRECT)) {
            for (long pos = 0; pos < ch.size(); ) {
                pos += ch.read(buf.clear(), pos);              // short only at the end of the file
                crc.update(buf.flip());
            }
            System.out.printf("%d bytes, CRC32 %08x, %s%n", ch.size(), crc.getValue(), align);
        }
    }
}
