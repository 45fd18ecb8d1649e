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
 * @summary The README's two direct I/O examples, which
 *          make/scripts/check-readme.sh keeps equal to the files in
 *          readme/, run with the source launcher as a reader would run
 *          them.  DirectChecksum.java prints the size and CRC32 of a file
 *          that ends in a partial block, as computed here, and the
 *          alignment that DirectIO.alignment reports; the file, written
 *          with DIRECT, is still out of the page cache after its reads.
 *          UncachedCopy.java makes an exact copy of a file and says
 *          whether DONTCACHE was in effect, which it is where the kernel
 *          honours the hint; there neither file is left in the page cache.
 * @requires os.family == "linux"
 * @modules jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir PageCache
 * @run main/othervm/timeout=300 ReadmeDirectIOExamples
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import jdk.nio.DirectIO;
import jdk.test.lib.process.ProcessTools;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static com.sun.nio.file.ExtendedOpenOption.DONTCACHE;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class ReadmeDirectIOExamples {
    static final Path EXAMPLES = Path.of(System.getProperty("test.src"), "readme");
    // several reads of DirectChecksum's buffer (128 KiB to 1 MiB), then a
    // partial block
    static final int SIZE = (8 << 20) + 1234;
    static final long CHILD_SECONDS = 120;

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        byte[] data = new byte[SIZE];
        new Random(39).nextBytes(data);
        // tmpfs and ext4 with data=journal cache direct I/O by design
        boolean bypassesCache = !DirectIODir.cachesDirectIO();
        checksum(dir.resolve("checksum.bin"), data, bypassesCache);
        copy(dir.resolve("copy-from.bin"), dir.resolve("copy-to.bin"), data,
             DirectIODir.takesDontCache(), bypassesCache);
    }

    static void checksum(Path file, byte[] data, boolean bypassesCache) throws Exception {
        writeDirect(file, data);
        if (bypassesCache)
            assertLessThan(PageCache.residentPercent(file), 1.0, "% of the file cached before the example");
        CRC32 crc = new CRC32();
        crc.update(data);
        String want = String.format("%d bytes, CRC32 %08x, %s%n", data.length, crc.getValue(),
                                    DirectIO.alignment(file));
        assertEquals(want, run("DirectChecksum.java", file.toString()), "DirectChecksum's output");
        if (bypassesCache)
            assertLessThan(PageCache.residentPercent(file), 1.0, "% of the file cached after its DIRECT reads");
    }

    static void copy(Path from, Path to, byte[] data, boolean honoured, boolean bypassesCache)
        throws Exception
    {
        try (FileChannel ch = FileChannel.open(from, CREATE_NEW, WRITE, DONTCACHE)) {
            ch.write(ByteBuffer.wrap(data));
            ch.force(true);
        }
        boolean uncached = honoured && bypassesCache;
        if (uncached)
            assertLessThan(PageCache.residentPercentAfterWriteback(from), 1.0,
                           "% of the source cached before the example");
        String want = data.length + " bytes copied, " + (honoured ? "uncached" : "cached: DONTCACHE is a hint")
                      + System.lineSeparator();
        assertEquals(want, run("UncachedCopy.java", from.toString(), to.toString()), "UncachedCopy's output");
        if (uncached) {
            assertLessThan(PageCache.residentPercent(from), 1.0, "% of the source cached after the copy");
            assertLessThan(PageCache.residentPercentAfterWriteback(to), 1.0, "% of the copy cached");
        }
        // last: an ordinary read caches both files
        assertEquals(-1L, Files.mismatch(from, to), "the first byte of the copy that differs");
    }

    /**
     * Writes data with DIRECT, so that the file does not enter the page
     * cache: whole blocks from an aligned buffer, then a truncation to the
     * exact size.
     */
    static void writeDirect(Path file, byte[] data) throws Exception {
        Files.deleteIfExists(file);
        Files.createFile(file);
        DirectIO.Alignment a = DirectIO.alignment(file);
        int blocks = Math.ceilDiv(data.length, a.offset()) * a.offset();
        ByteBuffer buf = ByteBuffer.allocateDirect(blocks + a.memory() - 1).alignedSlice(a.memory());
        buf.put(data).position(blocks).flip();
        try (FileChannel ch = FileChannel.open(file, WRITE, DIRECT)) {
            while (buf.hasRemaining())
                ch.write(buf);
            ch.truncate(data.length);
        }
    }

    /**
     * Runs an example with the source launcher, its output in a file (so
     * that it never blocks on a full pipe), for at most CHILD_SECONDS;
     * returns its standard output, and requires exit status 0.
     */
    static String run(String example, String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = EXAMPLES.resolve(example).toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Path out = Path.of(example + ".out"), err = Path.of(example + ".err");
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(cmd)
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        System.out.println("running " + pb.command());
        Process p = pb.start();
        boolean done = p.waitFor(CHILD_SECONDS, TimeUnit.SECONDS);
        if (!done)
            p.destroyForcibly().waitFor();
        String stdout = Files.readString(out);
        System.out.println("--- stdout\n" + stdout + "--- stderr\n" + Files.readString(err) + "---");
        assertTrue(done, example + ": not done within " + CHILD_SECONDS + " s");
        assertEquals(0, p.exitValue(), example + ": exit status");
        return stdout;
    }
}
