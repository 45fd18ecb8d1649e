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

/*
 * @test
 * @summary 256 MiB written with DIRECT in 1 MiB transfers of varying
 *          alignment-sized pieces, read back with DIRECT, with buffered I/O
 *          and with DONTCACHE; the CRC32C of every read equals the written.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir
 * @run main/othervm DirectIOIntegrity
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOIntegrity {
    static final long SIZE = 256L << 20;
    static final int CHUNK = 1 << 20;

    public static void main(String[] args) throws Exception {
        Path file = DirectIODir.get().resolve("integrity.bin");
        Files.deleteIfExists(file);
        Files.createFile(file);
        DirectIO.Alignment a = DirectIO.alignment(file);
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK + a.memory() - 1).alignedSlice(a.memory()).slice(0, CHUNK);
        SplittableRandom rnd = new SplittableRandom(42);
        CRC32C written = new CRC32C();

        // Gathering writes of two pieces, split at a random aligned point.
        try (FileChannel ch = FileChannel.open(file, WRITE, ExtendedOpenOption.DIRECT)) {
            for (long done = 0; done < SIZE; done += CHUNK) {
                buf.clear();
                while (buf.hasRemaining())
                    buf.putLong(rnd.nextLong());
                buf.flip();
                written.update(buf.duplicate());
                int split = a.offset() * rnd.nextInt(1, CHUNK / a.offset());
                ByteBuffer[] pieces = { buf.slice(0, split), buf.slice(split, CHUNK - split) };
                long n = 0;
                while (n < CHUNK)
                    n += ch.write(pieces);
            }
            ch.force(true);
        }
        assertEquals(SIZE, Files.size(file), "file size after the writes");
        System.out.printf("written: %d MiB, CRC32C %08x%n", SIZE >> 20, written.getValue());

        readBack(file, buf, "DIRECT", written.getValue(), ExtendedOpenOption.DIRECT);
        readBack(file, buf, "buffered", written.getValue());
        readBack(file, buf, "DONTCACHE", written.getValue(), ExtendedOpenOption.DONTCACHE);
        Files.delete(file);
    }

    // Reads file with READ and extra through buf; the bytes read must be
    // SIZE with CRC32C want.
    static void readBack(Path file, ByteBuffer buf, String how, long want, OpenOption... extra)
            throws Exception {
        OpenOption[] opts = new OpenOption[extra.length + 1];
        opts[0] = READ;
        System.arraycopy(extra, 0, opts, 1, extra.length);
        CRC32C crc = new CRC32C();
        long total = 0;
        try (FileChannel ch = FileChannel.open(file, opts)) {
            int n;
            buf.clear();
            while ((n = ch.read(buf)) > 0) {
                total += n;
                if (!buf.hasRemaining()) {
                    crc.update(buf.flip());
                    buf.clear();
                }
            }
            crc.update(buf.flip());
        }
        System.out.printf("read back with %s: %d bytes, CRC32C %08x%n", how, total, crc.getValue());
        assertEquals(SIZE, total, how + ": bytes read back");
        assertEquals(Long.toHexString(want), Long.toHexString(crc.getValue()), how + ": CRC32C of the bytes read back");
    }
}
