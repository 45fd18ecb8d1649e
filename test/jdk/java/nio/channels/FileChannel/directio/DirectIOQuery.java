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
 * @summary jdk.nio.DirectIO.alignment(Path) answers from statx without
 *          opening the file: the kernel's values on the test directory's
 *          file system, which a DIRECT channel then enforces and which
 *          DirectIO.alignment(FileChannel) returns; the block size, not
 *          exact, on tmpfs; a block device's logical block; a clear error
 *          naming the path, at once, for a FIFO, a directory, a socket and
 *          a character device; the usual errors for bad input.  DIRECT on
 *          procfs is the FileSystemException JDK 25 throws, naming the
 *          file and DIRECT, and no descriptor leaks.  Needs root, for a loop device.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.zipfs
 * @library lib /test/lib
 * @build DirectIODir ScratchMount
 * @run main/othervm DirectIOQuery
 */

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOQuery {

    public static void main(String[] args) throws Exception {
        Path dir = DirectIODir.get();
        Path file = Files.write(dir.resolve("query.bin"), new byte[65536]);
        DirectIO.Alignment a = DirectIO.alignment(file);
        long block = Files.getFileStore(file).getBlockSize();
        System.out.println(DirectIODir.type() + ": " + a + ", block size " + block);
        assertEquals(DirectIODir.reportsAlignment(), a.isExact(), "exact alignment " + a);
        assertLessThanOrEqual((long) a.offset(), block, "offset alignment at most the block size");
        assertLessThanOrEqual(a.readOffset(), a.offset(), "read alignment at most the write one");
        assertEquals(a, DirectIO.alignment(file.getParent().resolve(".").resolve(file.getFileName())),
                     "the same answer through another path");

        // What it says is what a DIRECT channel enforces, and works.
        try (FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            assertEquals(Optional.of(a), DirectIO.alignment(ch), "alignment(FileChannel)");
            ByteBuffer b = ByteBuffer.allocateDirect(2 * a.memory() + a.readOffset())
                                     .alignedSlice(a.memory()).limit(a.readOffset());
            assertEquals(a.readOffset(), ch.read(b, a.readOffset()), "a read at the read alignment");
        }
        FileChannel closed;
        try (FileChannel ch = FileChannel.open(file, READ)) {
            assertEquals(Optional.empty(), DirectIO.alignment(ch), "a channel without DIRECT");
            closed = ch;
        }
        assertThrows(ClosedChannelException.class, () -> DirectIO.alignment(closed));
        assertThrows(ClosedChannelException.class, () -> DirectIO.isUncached(closed));

        // tmpfs reports no STATX_DIOALIGN: the block size, not exact.
        Path shm = Files.createTempFile(Path.of("/dev/shm"), "rdio-query", ".bin");
        try {
            DirectIO.Alignment t = DirectIO.alignment(shm);
            long bs = Files.getFileStore(shm).getBlockSize();
            assertEquals("Alignment[memory=" + bs + ", offset=" + bs
                         + ", readOffset=" + bs + ", exact=false]", t.toString(), "tmpfs");
        } finally {
            Files.delete(shm);
        }

        // A block device: its logical block size (statx reports it for
        // block devices from Linux 6.11).
        try (ScratchMount loop = ScratchMount.loopDevice()) {
            DirectIO.Alignment d = DirectIO.alignment(loop.path());
            System.out.println(loop.path() + ": " + d);
            assertEquals(512, d.offset(), "loop device: offset alignment");
            assertEquals(DirectIODir.kernelAtLeast(6, 11), d.isExact(), "loop device: exact");
        }

        // Files where direct I/O means nothing: an error that names the
        // path, at once (a FIFO must not be opened: that would block).
        Path fifo = dir.resolve("query.fifo");
        Files.deleteIfExists(fifo);
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        Path sock = dir.resolve("query.sock");
        Files.deleteIfExists(sock);
        try (ServerSocketChannel ssc = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ssc.bind(UnixDomainSocketAddress.of(sock));
            notApplicable(fifo, "a FIFO");
            notApplicable(dir, "a directory");
            notApplicable(sock, "a socket");
            notApplicable(Path.of("/dev/null"), "a character device");
        } finally {
            Files.delete(fifo);
            Files.deleteIfExists(sock);
        }

        // DIRECT on procfs fails the open as in JDK 25, with an IOException
        // naming the file, and the descriptor is closed.
        Path proc = Path.of("/proc/self/status");
        long before = openFds();
        for (int i = 0; i < 100; i++) {
            FileSystemException e = assertThrows(FileSystemException.class,
                () -> FileChannel.open(proc, READ, ExtendedOpenOption.DIRECT).close());
            assertEquals(FileSystemException.class, e.getClass());
            assertEquals(proc.toString(), e.getFile());
            assertEquals("Invalid argument (DIRECT: the file system may not support direct I/O)",
                         e.getReason());
        }
        assertEquals(before, openFds(), "descriptors after 100 refused opens");

        // Bad input.
        assertThrows(NullPointerException.class, () -> DirectIO.alignment((Path) null));
        assertThrows(NullPointerException.class, () -> DirectIO.alignment((FileChannel) null));
        assertThrows(NullPointerException.class, () -> DirectIO.isUncached(null));
        assertThrows(NoSuchFileException.class, () -> DirectIO.alignment(dir.resolve("does-not-exist.bin")));
        Path zip = dir.resolve("query.zip");
        try (FileSystem zfs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
            Path inZip = Files.write(zfs.getPath("/x"), new byte[1]);
            assertThrows(ProviderMismatchException.class, () -> DirectIO.alignment(inZip));
            try (FileChannel zc = FileChannel.open(inZip, READ)) {
                assertEquals(Optional.empty(), DirectIO.alignment(zc), "a zip file system's channel");
                assertFalse(DirectIO.isUncached(zc), "a zip file system's channel");
            }
        }
    }

    static void notApplicable(Path p, String kind) throws Exception {
        CompletableFuture<DirectIO.Alignment> q = CompletableFuture.supplyAsync(() -> {
            try {
                return DirectIO.alignment(p);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try {
            q.get(5, TimeUnit.SECONDS);
            fail(kind + " " + p + " gave an alignment");
        } catch (java.util.concurrent.TimeoutException e) {
            fail("DirectIO.alignment(" + p + ") has not returned after 5 s");
        } catch (java.util.concurrent.ExecutionException e) {
            FileSystemException fse = (FileSystemException) e.getCause().getCause();
            assertEquals(p.toString(), fse.getFile(), kind + ": the exception names the path");
            assertEquals("Direct I/O does not apply to " + kind
                         + ": only regular files and block devices have it", fse.getReason());
            System.out.println(kind + ": " + fse.getMessage());
        }
    }

    static long openFds() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }
}
