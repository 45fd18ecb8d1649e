/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much of a file is in the page cache, measured with fincore(1)
 * (util-linux), which reads it with mincore(2).
 */
public final class PageCache {
    private PageCache() { }

    /**
     * The share of the file's bytes in the page cache, in percent.
     */
    public static double residentPercent(Path file) throws IOException {
        String out = Command.output("fincore", "--bytes", "--noheadings", "--output", "RES",
                                    file.toString());
        long size = Files.size(file);
        return (size == 0) ? 0.0 : 100.0 * Long.parseLong(out) / size;
    }

    /**
     * The residency of a file just written and forced to disk.  The kernel
     * drops a DONTCACHE page when its writeback completes, which force()
     * waits for, but a page may still be on its way out: this waits, for
     * at most 5 s, until the residency falls under 1 %.
     */
    public static double residentPercentAfterWriteback(Path file)
        throws IOException, InterruptedException
    {
        double pct = residentPercent(file);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (pct >= 1.0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            pct = residentPercent(file);
        }
        return pct;
    }
}
