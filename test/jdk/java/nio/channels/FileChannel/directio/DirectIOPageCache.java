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
 * @summary Reading a 256 MiB file with DIRECT or DONTCACHE leaves under 1%
 *          of its pages in the page cache, and a buffered read caches
 *          nearly all of them; a DONTCACHE write leaves under 1% once the
 *          data is on disk.  Where the file system refuses DONTCACHE
 *          (btrfs), a DONTCACHE read caches as a buffered one does; where
 *          it buffers direct I/O (tmpfs, ext4 with data=journal), all stay
 *          cached.  Residency is measured with fincore(1) (util-linux),
 *          which reads it with mincore(2).
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir PageCache
 * @run main/othervm DirectIOPageCache
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOPageCache {
    static final long SIZE = 256L << 20;
    static final int CHUNK = 1 << 20;
    static ByteBuffer buf;
    static boolean uncached;   // whether DONTCACHE keeps pages out of the cache here

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        DirectIO.Alignment a;
        {
            Path probe = Files.createTempFile(dir, "probe", ".bin");
            a = DirectIO.alignment(probe);
            Files.delete(probe);
        }
        buf = ByteBuffer.allocateDirect(CHUNK + a.memory() - 1).alignedSlice(a.memory()).slice(0, CHUNK);

        boolean buffersDirect = DirectIODir.cachesDirectIO();
        uncached = DirectIODir.takesDontCache() && !buffersDirect;
        System.out.println(DirectIODir.type() + (buffersDirect ? " buffers direct I/O" : "")
                           + (uncached ? "" : ", DONTCACHE keeps pages cached"));

        // Each case reads its own file, written with DIRECT so that it
        // starts out of the page cache, unless the file system caches it.
        double direct = readAndMeasure(dir, "DIRECT", ExtendedOpenOption.DIRECT);
        double buffered = readAndMeasure(dir, "buffered");
        double dontCache = readAndMeasure(dir, "DONTCACHE", ExtendedOpenOption.DONTCACHE);
        double dontCacheWrite = writeAndMeasure(dir);

        StringBuilder bad = new StringBuilder();
        if ((direct >= 1.0) != buffersDirect) bad.append("DIRECT read left " + direct + "% cached; ");
        if (buffered < 90.0) bad.append("buffered read left only " + buffered + "% cached; ");
        if ((dontCache >= 1.0) == uncached) bad.append("DONTCACHE read left " + dontCache + "% cached; ");
        if ((dontCacheWrite >= 1.0) == uncached) bad.append("DONTCACHE write left " + dontCacheWrite + "% cached; ");
        if (bad.length() > 0)
            fail(bad.toString());
    }

    static Path createUncached(Path dir, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        try (FileChannel ch = FileChannel.open(file, CREATE_NEW, WRITE, ExtendedOpenOption.DIRECT)) {
            for (long done = 0; done < SIZE; done += CHUNK) {
                buf.clear();
                while (buf.hasRemaining())
                    buf.putLong(done + buf.position());
                buf.flip();
                while (buf.hasRemaining())
                    ch.write(buf);
            }
        }
        double before = PageCache.residentPercent(file);
        if (!DirectIODir.cachesDirectIO())
            assertLessThan(before, 1.0, file + ": percent cached after a DIRECT write");
        return file;
    }

    static double readAndMeasure(Path dir, String how, OpenOption... extra) throws Exception {
        Path file = createUncached(dir, "pagecache-" + how + ".bin");
        OpenOption[] opts = new OpenOption[extra.length + 1];
        opts[0] = READ;
        System.arraycopy(extra, 0, opts, 1, extra.length);
        long total = 0;
        try (FileChannel ch = FileChannel.open(file, opts)) {
            int n;
            while ((n = ch.read(buf.clear())) > 0)
                total += n;
        }
        assertEquals(SIZE, total, how + ": bytes read");
        double pct = PageCache.residentPercent(file);
        System.out.printf("%-10s read of %d MiB: %.2f%% of the file's pages cached%n", how, SIZE >> 20, pct);
        Files.delete(file);
        return pct;
    }

    static double writeAndMeasure(Path dir) throws Exception {
        Path file = dir.resolve("pagecache-dontcache-write.bin");
        Files.deleteIfExists(file);
        try (FileChannel ch = FileChannel.open(file, CREATE_NEW, READ, WRITE, ExtendedOpenOption.DONTCACHE)) {
            for (long done = 0; done < SIZE; done += CHUNK) {
                buf.clear();
                while (buf.hasRemaining())
                    ch.write(buf);
            }
            ch.force(true);
        }
        double pct = uncached ? PageCache.residentPercentAfterWriteback(file)
                              : PageCache.residentPercent(file);
        System.out.printf("%-10s write of %d MiB: %.2f%% of the file's pages cached%n", "DONTCACHE", SIZE >> 20, pct);
        Files.delete(file);
        return pct;
    }
}
