/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

/*
 * @test
 * @summary Reading a 256 MiB file with DIRECT or DONTCACHE leaves under 1%
 *          of its pages in the page cache, and a buffered read caches
 *          nearly all of them; a DONTCACHE write leaves under 1% once the
 *          data is on disk.  Residency is measured with fincore(1)
 *          (util-linux), which reads it with mincore(2).
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib
 * @build DirectIODir
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

public class DirectIOPageCache {
    static final long SIZE = 256L << 20;
    static final int CHUNK = 1 << 20;
    static ByteBuffer buf;

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        DirectIO.Alignment a;
        {
            Path probe = Files.createTempFile(dir, "probe", ".bin");
            a = DirectIO.alignment(probe);
            Files.delete(probe);
        }
        buf = ByteBuffer.allocateDirect(CHUNK + a.memory() - 1).alignedSlice(a.memory()).slice(0, CHUNK);

        // Each case reads its own file, written with DIRECT so that it
        // starts out of the page cache.
        double direct = readAndMeasure(dir, "DIRECT", ExtendedOpenOption.DIRECT);
        double buffered = readAndMeasure(dir, "buffered");
        double dontCache = readAndMeasure(dir, "DONTCACHE", ExtendedOpenOption.DONTCACHE);
        double dontCacheWrite = writeAndMeasure(dir);

        StringBuilder bad = new StringBuilder();
        if (direct >= 1.0) bad.append("DIRECT read left " + direct + "% cached; ");
        if (buffered < 90.0) bad.append("buffered read left only " + buffered + "% cached; ");
        if (dontCache >= 1.0) bad.append("DONTCACHE read left " + dontCache + "% cached; ");
        if (dontCacheWrite >= 1.0) bad.append("DONTCACHE write left " + dontCacheWrite + "% cached; ");
        if (bad.length() > 0)
            throw new AssertionError(bad.toString());
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
        double before = residentPercent(file);
        if (before >= 1.0)
            throw new AssertionError(file + " is " + before + "% cached after a DIRECT write");
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
        if (total != SIZE)
            throw new AssertionError(how + ": read " + total + " bytes of " + SIZE);
        double pct = residentPercent(file);
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
        // The kernel drops a written page when its writeback completes,
        // which force() waits for; allow it a moment all the same.
        double pct = residentPercent(file);
        for (int i = 0; i < 50 && pct >= 1.0; i++) {
            Thread.sleep(100);
            pct = residentPercent(file);
        }
        System.out.printf("%-10s write of %d MiB: %.2f%% of the file's pages cached%n", "DONTCACHE", SIZE >> 20, pct);
        Files.delete(file);
        return pct;
    }

    static double residentPercent(Path file) throws IOException {
        Process p = new ProcessBuilder("fincore", "--bytes", "--noheadings", "--output", "RES", file.toString())
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        try {
            if (p.waitFor() != 0)
                throw new IOException("fincore failed: " + out);
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        return 100.0 * Long.parseLong(out) / Files.size(file);
    }
}
