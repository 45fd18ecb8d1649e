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
 * @summary ExtendedOpenOption.DONTCACHE is a hint.  On a file system
 *          without RWF_DONTCACHE (tmpfs) every open succeeds and the
 *          channel does buffered I/O, so a write-only open with
 *          TRUNCATE_EXISTING or CREATE_NEW loses no data; a write the
 *          kernel refuses the flag for (/dev/null) goes through without it.
 *          DirectIO.isUncached says whether the hint is in effect, for a
 *          write-only channel from its first write.  Where the kernel
 *          honours it, transferTo/transferFrom between a DONTCACHE file
 *          and a file, a socket or a DIRECT channel leave the DONTCACHE
 *          file out of the page cache.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir PageCache
 * @run main/othervm DontCacheHint
 */

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import jdk.nio.DirectIO;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static com.sun.nio.file.ExtendedOpenOption.DONTCACHE;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DontCacheHint {

    static final int SIZE = 32 << 20;

    public static void main(String[] args) throws Exception {
        refusedHintLosesNothing(Files.createTempDirectory(Path.of("/dev/shm"), "rdio-dontcache"));

        // /dev/null refuses the flag at the first write, which then goes
        // through without it
        try (FileChannel ch = FileChannel.open(Path.of("/dev/null"), WRITE, DONTCACHE)) {
            assertTrue(DirectIO.isUncached(ch), "/dev/null: not asked before the first write");
            assertEquals(1000, ch.write(ByteBuffer.wrap(bytes(1000, 5))), "/dev/null: write");
            assertFalse(DirectIO.isUncached(ch), "/dev/null: refused at the first write");
        }

        Path dir = DirectIODir.get();
        boolean honoured = DirectIODir.takesDontCache();
        System.out.println(dir + " is " + DirectIODir.type() + ": DONTCACHE expected "
                           + (honoured ? "in effect" : "refused"));
        Path f = dir.resolve("hint.bin");
        Files.write(f, bytes(4096, 7));
        for (Set<OpenOption> opts : Set.of(Set.<OpenOption>of(READ, DONTCACHE),
                                           Set.<OpenOption>of(READ, WRITE, DONTCACHE),
                                           Set.<OpenOption>of(WRITE, DONTCACHE))) {
            try (FileChannel ch = FileChannel.open(f, opts)) {
                // a write-only channel cannot ask before its first write
                boolean readable = opts.contains(READ);
                assertEquals(honoured || !readable, DirectIO.isUncached(ch), "isUncached with " + opts);
                if (opts.contains(WRITE))
                    ch.write(ByteBuffer.wrap(bytes(100, 1)), 4000);
                else
                    ch.read(ByteBuffer.allocate(100), 4000);
                assertEquals(honoured, DirectIO.isUncached(ch), "isUncached after I/O, with " + opts);
            }
        }
        try (FileChannel ch = FileChannel.open(f, READ)) {
            assertFalse(DirectIO.isUncached(ch), "isUncached without DONTCACHE");
        }
        // ext4 with data=journal takes the flag, but its pages stay cached
        if (honoured && !DirectIODir.cachesDirectIO())
            transfers(dir);
    }

    /**
     * tmpfs refuses RWF_DONTCACHE: whatever the open options, the channel
     * works as without DONTCACHE, and says so.
     */
    static void refusedHintLosesNothing(Path shm) throws Exception {
        try {
            byte[] old = bytes(8192, 1), data = bytes(10_001, 2);
            Path f = shm.resolve("truncate.bin");
            Files.write(f, old);
            try (FileChannel ch = FileChannel.open(f, WRITE, TRUNCATE_EXISTING, DONTCACHE)) {
                assertEquals(data.length, ch.write(ByteBuffer.wrap(data)));
                assertFalse(DirectIO.isUncached(ch), "tmpfs: uncached after a write");
            }
            assertEquals(-1, Arrays.mismatch(data, Files.readAllBytes(f)),
                         "tmpfs: the first byte of the file that differs from those written after TRUNCATE_EXISTING");

            Path g = shm.resolve("create-new.bin");
            try (FileChannel ch = FileChannel.open(g, CREATE_NEW, WRITE, DONTCACHE)) {
                ch.write(ByteBuffer.wrap(data), 0);
                ch.write(ByteBuffer.wrap(old, 0, 100), data.length);
            }
            byte[] want = Arrays.copyOf(data, data.length + 100);
            System.arraycopy(old, 0, want, data.length, 100);
            assertEquals(-1, Arrays.mismatch(want, Files.readAllBytes(g)),
                         "tmpfs: the first byte of the CREATE_NEW file that differs from those written");

            try (FileChannel ch = FileChannel.open(g, READ, WRITE, DONTCACHE)) {
                assertFalse(DirectIO.isUncached(ch), "tmpfs: read-write channel uncached");
                ByteBuffer bb = ByteBuffer.allocate(want.length + 1);
                assertEquals(want.length, ch.read(bb, 0));
                assertEquals(-1, Arrays.mismatch(want, Arrays.copyOf(bb.array(), want.length)),
                             "tmpfs: the first byte read that differs");
                ch.position(5);
                ByteBuffer x = ByteBuffer.allocate(3), y = ByteBuffer.allocateDirect(2);
                assertEquals(5L, ch.read(new ByteBuffer[] { x, y }));
                byte[] scattered = new byte[5];
                x.flip().get(scattered, 0, 3);
                y.flip().get(scattered, 3, 2);
                assertEqualsByteArray(Arrays.copyOfRange(want, 5, 10), scattered, "tmpfs: scattered bytes");
            }
            System.out.println("tmpfs: DONTCACHE refused, every open and transfer as without it");
        } finally {
            try (var s = Files.list(shm)) {
                for (Path p : s.toList())
                    Files.delete(p);
            }
            Files.delete(shm);
        }
    }

    static void transfers(Path dir) throws Exception {
        byte[] data = bytes(SIZE, 3);
        Path src = dir.resolve("transfer-src.bin");
        Path dst = dir.resolve("transfer-dst.bin");
        write(src, data);
        assertLessThan(PageCache.residentPercentAfterWriteback(src), 1.0, "source cached before the transfers");

        // file to file, each way, DONTCACHE on both sides
        fileToFile(src, dst, (in, out, n) -> in.transferTo(n, SIZE - n, out));
        checkUncached("transferTo a file", src, dst, data);
        fileToFile(src, dst, (in, out, n) -> out.transferFrom(in, n, SIZE - n));
        checkUncached("transferFrom a file", src, dst, data);

        // file to socket and socket to file
        Files.delete(dst);
        try (ServerSocketChannel ssc = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel sender = SocketChannel.open(ssc.getLocalAddress());
             SocketChannel receiver = ssc.accept();
             FileChannel in = FileChannel.open(src, READ, DONTCACHE);
             FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE, DONTCACHE)) {
            CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
                try {
                    long n = 0;
                    while (n < SIZE)
                        n += in.transferTo(n, SIZE - n, sender);
                    sender.shutdownOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            long n = 0, m;
            while ((m = out.transferFrom(receiver, n, SIZE)) > 0)
                n += m;
            send.join();
            assertEquals((long) SIZE, n, "bytes received from the socket");
            out.force(true);
        }
        checkUncached("transferTo and transferFrom a socket", src, dst, data);

        // from a DIRECT channel, at a position and count it cannot read
        // directly: through a mapping of the source, which caches the
        // source, so this case comes last
        Files.delete(dst);
        try (FileChannel in = FileChannel.open(src, READ, DIRECT);
             FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE, DONTCACHE)) {
            long n = 0;
            while (n < SIZE - 7)
                n += in.transferTo(7 + n, SIZE - 7 - n, out);
            out.write(ByteBuffer.wrap(data, 0, 7), SIZE - 7);
            out.force(true);
        }
        byte[] shifted = Arrays.copyOf(Arrays.copyOfRange(data, 7, SIZE), SIZE);
        System.arraycopy(data, 0, shifted, SIZE - 7, 7);
        checkDestination("transferTo from DIRECT at 7", dst, shifted);

        Files.delete(dst);
        Files.delete(src);
    }

    interface Step {
        // transfers from in to out, done bytes already transferred
        long transfer(FileChannel in, FileChannel out, long done) throws IOException;
    }

    // SIZE bytes from src to a new dst, both DONTCACHE, by repeated steps
    static void fileToFile(Path src, Path dst, Step step) throws IOException {
        Files.deleteIfExists(dst);
        try (FileChannel in = FileChannel.open(src, READ, DONTCACHE);
             FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE, DONTCACHE)) {
            for (long n = 0; n < SIZE; )
                n += step.transfer(in, out, n);
            out.force(true);
        }
    }

    static void checkUncached(String what, Path src, Path dst, byte[] data) throws Exception {
        double s = PageCache.residentPercent(src);
        System.out.printf("%s: source %.2f%% cached%n", what, s);
        assertLessThan(s, 1.0, what + ": source cached");
        checkDestination(what, dst, data);
    }

    static void checkDestination(String what, Path dst, byte[] data) throws Exception {
        double d = PageCache.residentPercentAfterWriteback(dst);
        System.out.printf("%s: destination %.2f%% cached%n", what, d);
        assertLessThan(d, 1.0, what + ": destination cached");
        // Compared through a DONTCACHE read, so that the next case starts uncached
        byte[] got = new byte[data.length];
        try (FileChannel ch = FileChannel.open(dst, READ, DONTCACHE)) {
            ByteBuffer bb = ByteBuffer.wrap(got);
            while (bb.hasRemaining() && ch.read(bb) > 0) { }
        }
        assertEquals(-1, Arrays.mismatch(data, got), what + ": the first byte transferred that differs");
    }

    static void write(Path file, byte[] data) throws IOException {
        Files.deleteIfExists(file);
        try (FileChannel ch = FileChannel.open(file, CREATE_NEW, WRITE, DONTCACHE)) {
            ByteBuffer bb = ByteBuffer.wrap(data);
            while (bb.hasRemaining())
                ch.write(bb);
            ch.force(true);
        }
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (i * 31 + (i >>> 13) + seed);
        return b;
    }

}
