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
 * @summary transferTo and transferFrom on a channel opened with DIRECT,
 *          at aligned and unaligned positions and counts.  Aligned, they
 *          move exactly the bytes asked for, to and from a file and to a
 *          socket.  Misaligned, they move exactly those bytes or fail with
 *          an IOException that names the misaligned value.  transferFrom a
 *          socket into DIRECT fails before it reads anything, so no byte is
 *          lost.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir
 * @run main/othervm DirectIOTransfer
 */

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import jdk.nio.DirectIO;

import static com.sun.nio.file.ExtendedOpenOption.DIRECT;
import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOTransfer {
    static final int SIZE = 4 << 20;
    static byte[] data;

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        Path src = dir.resolve("transfer-src.bin");
        data = new byte[SIZE];
        for (int i = 0; i < SIZE; i++)
            data[i] = (byte) (i * 37 + (i >>> 12));
        Files.write(src, data);
        int o;
        try (FileChannel ch = FileChannel.open(src, READ, DIRECT)) {
            o = DirectIO.alignment(ch).orElseThrow().readOffset();
        }
        long[][] cases = {               // position, count
            { 0, SIZE }, { o, 64L * o }, { 3L * o, SIZE - 3L * o },
            { 1, 10_000 }, { o, 100 }, { 7, SIZE - 7 },
        };
        for (long[] c : cases) {
            fromDirect(src, dir, c[0], (int) c[1]);
            intoDirect(src, dir, c[0], (int) c[1]);
        }
        socketIntoDirect(dir);
        Files.delete(src);
    }

    // transferTo from a DIRECT channel to a file and to a socket: aligned,
    // it moves the bytes; misaligned, it moves them (through a mapping) or
    // fails as a misaligned read does
    static void fromDirect(Path src, Path dir, long pos, int count) throws Exception {
        String what = "transferTo from DIRECT at " + pos + ", " + count + " bytes";
        int o = DirectIO.alignment(src).readOffset();
        boolean aligned = pos % o == 0 && count % o == 0;
        Path dst = dir.resolve("transfer-dst.bin");
        Files.deleteIfExists(dst);
        try {
            try (FileChannel in = FileChannel.open(src, READ, DIRECT);
                 FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE)) {
                long n = 0;
                while (n < count)
                    n += in.transferTo(pos + n, count - n, out);
            }
            assertEquals(-1, Arrays.mismatch(slice(pos, count), Files.readAllBytes(dst)),
                         what + " to a file: the first byte that differs");

            byte[] got = viaSocket(sender -> {
                try (FileChannel in = FileChannel.open(src, READ, DIRECT)) {
                    long n = 0;
                    while (n < count)
                        n += in.transferTo(pos + n, count - n, sender);
                }
            });
            assertEquals(-1, Arrays.mismatch(slice(pos, count), got), what + " to a socket: the first byte that differs");
            System.out.println("ok: " + what);
        } catch (IOException | RuntimeException e) {
            Throwable t = (e instanceof RuntimeException && e.getCause() != null) ? e.getCause() : e;
            if (aligned || !(t instanceof IOException) || !t.getMessage().startsWith("Direct I/O: "))
                throw e;
            System.out.println("ok: " + what + ": " + t.getMessage());
        } finally {
            Files.deleteIfExists(dst);
        }
    }

    // transferFrom a file into a DIRECT channel: aligned, it moves the
    // bytes; misaligned, it fails as a misaligned write does, or moves them
    // where the kernel takes them (a file system that buffers O_DIRECT)
    static void intoDirect(Path src, Path dir, long pos, int count) throws Exception {
        String what = "transferFrom a file into DIRECT at " + pos + ", " + count + " bytes";
        Path dst = dir.resolve("transfer-dst.bin");
        int o = DirectIO.alignment(src).offset();
        boolean aligned = pos % o == 0 && count % o == 0;
        Files.deleteIfExists(dst);
        try (FileChannel in = FileChannel.open(src, READ);
             FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE, DIRECT)) {
            long n = 0, m;
            while (n < count && (m = out.transferFrom(in.position(n), pos + n, count - n)) > 0)
                n += m;
            assertEquals((long) count, n, what);
        } catch (IOException e) {
            assertFalse(aligned, what + ": " + e);
            assertTrue(e.getMessage().startsWith("Direct I/O: "), what + ": " + e);
            System.out.println("ok: " + what + ": " + e.getMessage());
            Files.delete(dst);
            return;
        }
        byte[] all = Files.readAllBytes(dst);
        assertEquals((int) pos + count, all.length, what + ": file size");
        assertEquals(-1, Arrays.mismatch(slice(0, count), Arrays.copyOfRange(all, (int) pos, all.length)),
                     what + ": the first byte that differs");
        Files.delete(dst);
        System.out.println("ok: " + what);
    }

    // transferFrom a socket into a DIRECT channel is refused before it
    // reads anything: the bytes are all still there to read
    static void socketIntoDirect(Path dir) throws Exception {
        Path dst = dir.resolve("transfer-dst.bin");
        Files.deleteIfExists(dst);
        try (ServerSocketChannel ssc = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel sender = SocketChannel.open(ssc.getLocalAddress());
             SocketChannel receiver = ssc.accept();
             FileChannel out = FileChannel.open(dst, CREATE_NEW, WRITE, DIRECT)) {
            sender.write(ByteBuffer.wrap(data, 0, 4096));
            IOException e = assertThrows(IOException.class, () -> out.transferFrom(receiver, 0, 4096));
            assertEquals("Direct I/O: transferFrom into a channel opened with DIRECT"
                         + " takes only a FileChannel as its source", e.getMessage());
            ByteBuffer got = ByteBuffer.allocate(4096);
            while (got.hasRemaining() && receiver.read(got) > 0) { }
            assertEquals(-1, Arrays.mismatch(slice(0, 4096), got.array()),
                         "the socket's bytes, still to read: the first that differs");
            assertEquals(0L, out.size(), "nothing written");
            System.out.println("ok: transferFrom a socket into DIRECT: " + e.getMessage());
        }
        Files.delete(dst);
    }

    interface Sender {
        void send(SocketChannel sender) throws IOException;
    }

    static byte[] viaSocket(Sender s) throws Exception {
        try (ServerSocketChannel ssc = ServerSocketChannel.open()
                 .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel sender = SocketChannel.open(ssc.getLocalAddress());
             SocketChannel receiver = ssc.accept()) {
            CompletableFuture<Void> send = CompletableFuture.runAsync(() -> {
                try {
                    s.send(sender);
                    sender.shutdownOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            ByteBuffer got = ByteBuffer.allocate(SIZE + 1);
            while (receiver.read(got) >= 0) { }
            send.join();
            return Arrays.copyOf(got.array(), got.position());
        }
    }

    static byte[] slice(long pos, int count) {
        return Arrays.copyOfRange(data, (int) pos, (int) pos + count);
    }
}
