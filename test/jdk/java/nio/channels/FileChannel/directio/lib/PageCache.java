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
