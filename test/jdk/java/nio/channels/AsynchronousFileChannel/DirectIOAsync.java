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
 * @summary AsynchronousFileChannel with ExtendedOpenOption.DIRECT behaves as
 *          FileChannel does: aligned reads and writes with heap and direct
 *          buffers move the right bytes (JDK 25 fails the heap ones with
 *          "Invalid argument"), and a misaligned position, length or buffer
 *          address fails the operation with an IOException naming it.
 *          The io_uring engine, on by default, checks the arguments in the
 *          caller: a refused operation still reaches its CompletionHandler
 *          on a pool thread, not in the caller.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library ../FileChannel/directio/lib /test/lib
 * @build DirectIODir
 * @run main/othervm DirectIOAsync
 */

/*
 * @test id=off
 * @summary The same with the engine off (-Djdk.nio.useIoUring=false), on
 *          JDK 25's path of a pool thread per operation.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library ../FileChannel/directio/lib /test/lib
 * @build DirectIODir
 * @run main/othervm -Djdk.nio.useIoUring=false DirectIOAsync
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOAsync {

    // The operation f stands for fails with an IOException whose message contains text.
    static void assertFails(Future<Integer> f, String text, String what) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS), what);
        Throwable cause = e.getCause();
        assertTrue(cause instanceof IOException && cause.getMessage().contains(text),
                   what + " fails with an IOException containing \"" + text + "\", not " + cause);
        System.out.println(what + ": " + cause);
    }

    public static void main(String[] args) throws Exception {
        Path file = DirectIODir.get().resolve("async.bin");
        byte[] content = new byte[64 * 1024];
        for (int i = 0; i < content.length; i++)
            content[i] = (byte) (i * 17 + 5);
        Files.write(file, content);
        DirectIO.Alignment a = DirectIO.alignment(file);
        int off = a.offset(), mem = a.memory();

        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT)) {
            // Heap buffer read, aligned position and length.
            ByteBuffer heap = ByteBuffer.allocate(2 * off);
            assertEquals(2 * off, ch.read(heap, off).get(), "heap read of " + 2 * off + " at " + off);
            assertEquals(-1, Arrays.mismatch(Arrays.copyOfRange(content, off, 3 * off), heap.array()),
                         "heap read: the first byte that differs");

            // Direct buffer read through a CompletionHandler.
            ByteBuffer direct = ByteBuffer.allocateDirect(4 * off + mem).alignedSlice(mem).limit(4 * off);
            CompletableFuture<Integer> done = new CompletableFuture<>();
            ch.read(direct, 2L * off, null, new CompletionHandler<Integer, Void>() {
                public void completed(Integer n, Void v) { done.complete(n); }
                public void failed(Throwable t, Void v) { done.completeExceptionally(t); }
            });
            assertEquals(4 * off, done.get(60, TimeUnit.SECONDS), "direct read with a handler");
            byte[] got = new byte[4 * off];
            direct.flip().get(got);
            assertEquals(-1, Arrays.mismatch(Arrays.copyOfRange(content, 2 * off, 6 * off), got),
                         "direct read: the first byte that differs");

            // Writes, heap and direct, read back.
            byte[] w = new byte[off];
            Arrays.fill(w, (byte) 0x5a);
            assertEquals(off, ch.write(ByteBuffer.wrap(w), 8L * off).get(), "heap write");
            ByteBuffer dw = ByteBuffer.allocateDirect(off + mem).alignedSlice(mem).limit(off);
            while (dw.hasRemaining()) dw.put((byte) 0x3c);
            assertEquals(off, ch.write(dw.flip(), 9L * off).get(), "direct write");
            byte[] now = Files.readAllBytes(file);
            assertEquals((byte) 0x5a, now[8 * off], "first byte of the heap write");
            assertEquals((byte) 0x3c, now[10 * off - 1], "last byte of the direct write");
            assertEquals(content[10 * off], now[10 * off], "the byte after the writes");

            // Misaligned: position, length, address; reads and writes.
            assertFails(ch.read(ByteBuffer.allocate(off), off + 1),
                        "file position " + (off + 1) + " is not a multiple of the offset alignment " + off,
                        "read at a misaligned position");
            assertFails(ch.write(ByteBuffer.allocate(off), 3),
                        "file position 3 is not a multiple of the offset alignment " + off,
                        "write at a misaligned position");
            assertFails(ch.read(ByteBuffer.allocate(off + 1), 0),
                        "length " + (off + 1) + " (the bytes remaining in the buffer)",
                        "read of a misaligned length");
            ByteBuffer skewed = ByteBuffer.allocateDirect(2 * off + mem).alignedSlice(mem)
                                          .position(1).limit(1 + off).slice();
            assertFails(ch.read(skewed, 0), "is not a multiple of the memory alignment " + mem,
                        "read into a misaligned address");
            assertFails(ch.write(skewed, 0), "is not a multiple of the memory alignment " + mem,
                        "write from a misaligned address");
            assertEquals(-1, Arrays.mismatch(now, Files.readAllBytes(file)),
                         "after the refused writes, the first byte of the file that changed");

            // A refused operation's handler runs on a pool thread, as a
            // failed I/O's does, never in the thread that called read
            CompletableFuture<Thread> failedIn = new CompletableFuture<>();
            ch.read(ByteBuffer.allocate(off), off + 1, null, new CompletionHandler<Integer, Void>() {
                public void completed(Integer n, Void v) {
                    failedIn.completeExceptionally(new AssertionError("misaligned read completed: " + n));
                }
                public void failed(Throwable t, Void v) { failedIn.complete(Thread.currentThread()); }
            });
            Thread t = failedIn.get(60, TimeUnit.SECONDS);
            assertTrue(t != Thread.currentThread(),
                       "the handler of a refused read runs on a pool thread, not in the caller (" + t + ")");
        }
    }
}
