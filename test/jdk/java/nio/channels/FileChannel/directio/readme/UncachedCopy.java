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
 * README.md's example of ExtendedOpenOption.DONTCACHE.
 * The README shows this file from the line after this comment, byte for
 * byte (make/scripts/check-readme.sh); ../ReadmeDirectIOExamples.java runs it.
 */

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import jdk.nio.DirectIO;
import static com.sun.nio.file.ExtendedOpenOption.DONTCACHE;
import static java.nio.file.StandardOpenOption.*;

// java UncachedCopy.java FROM TO: copies a file without filling the page cache
public class UncachedCopy {
    public static void main(String[] args) throws Exception {
        try (FileChannel in = FileChannel.open(Path.of(args[0]), READ, DONTCACHE);
             FileChannel out = FileChannel.open(Path.of(args[1]), CREATE_NEW, WRITE, DONTCACHE)) {
            for (long pos = 0; pos < in.size(); )
                pos += in.transferTo(pos, in.size() - pos, out);
            out.force(true);                    // written back, the copy's pages leave the cache
            System.out.println(in.size() + " bytes copied, "
                               + (DirectIO.isUncached(in) ? "uncached" : "cached: DONTCACHE is a hint"));
        }
    }
}
