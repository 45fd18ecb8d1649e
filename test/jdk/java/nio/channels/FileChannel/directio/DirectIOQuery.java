/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

/*
 * @test
 * @summary jdk.nio.DirectIO reports direct I/O support and alignment
 *          without opening the file with DIRECT: exact values on ext4, the
 *          block size on tmpfs (no STATX_DIOALIGN), nothing for a directory
 *          or a procfs file; and its answer agrees with what FileChannel
 *          does: DIRECT on a file system without O_DIRECT is an
 *          UnsupportedOperationException that says so, and no descriptor
 *          leaks.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported jdk.zipfs
 * @library lib
 * @build Ext4Dir
 * @run main/othervm DirectIOQuery
 */

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.util.Map;
import java.util.Optional;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;

public class DirectIOQuery {

    static void check(boolean ok, String what) {
        if (!ok)
            throw new AssertionError(what);
        System.out.println("ok: " + what);
    }

    static long openFds() throws Exception {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    public static void main(String[] args) throws Exception {
        // ext4 (the work directory): the kernel's values, exact.
        Path ext4File = Files.write(Ext4Dir.get().resolve("query.bin"), new byte[65536]);
        String fs = Files.getFileStore(ext4File).type();
        check(fs.equals("ext4"), "the work directory is on ext4 (it is on " + fs + ")");
        DirectIO.Alignment a = DirectIO.alignment(ext4File).orElseThrow();
        check(a.exact(), "ext4: exact alignment " + a);
        check(a.offset() <= Files.getFileStore(ext4File).getBlockSize(),
              "ext4: offset alignment " + a.offset() + " is at most the block size");
        check(DirectIO.isSupported(ext4File), "ext4: isSupported");
        // What it says works: one offset-aligned unit, from memory-aligned memory.
        try (FileChannel ch = FileChannel.open(ext4File, READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = ByteBuffer.allocateDirect(2 * a.memory() + a.offset())
                                     .alignedSlice(a.memory()).limit(a.offset());
            check(ch.read(b, a.offset()) == a.offset(), "ext4: a read of " + a.offset() + " bytes at " + a.offset());
        }

        // tmpfs: takes O_DIRECT, reports no STATX_DIOALIGN: the block size, inexact.
        Path shm = Files.createTempFile(Path.of("/dev/shm"), "rdio-query", ".bin");
        try {
            Files.write(shm, new byte[8192]);
            Optional<DirectIO.Alignment> t = DirectIO.alignment(shm);
            long bs = Files.getFileStore(shm).getBlockSize();
            check(t.isPresent() && !t.get().exact() && t.get().offset() == bs && t.get().memory() == bs,
                  "tmpfs: block size " + bs + ", inexact: " + t);
        } finally {
            Files.delete(shm);
        }

        // A directory and a procfs file: no direct I/O.
        check(DirectIO.alignment(Ext4Dir.get()).isEmpty(), "a directory: empty");
        Path proc = Path.of("/proc/self/status");
        check(!DirectIO.isSupported(proc), "procfs: not supported");

        // FileChannel agrees: DIRECT on procfs is refused as unsupported,
        // with a message that names the file, and the descriptor is closed.
        long before = openFds();
        for (int i = 0; i < 100; i++) {
            try (FileChannel ch = FileChannel.open(proc, READ, ExtendedOpenOption.DIRECT)) {
                throw new AssertionError("DIRECT open of " + proc + " succeeded");
            } catch (UnsupportedOperationException e) {
                if (i == 0) {
                    check(e.getMessage().equals("Direct I/O is not supported by the file system of " + proc),
                          "procfs DIRECT open: " + e.getMessage());
                }
            }
        }
        long after = openFds();
        check(after <= before, "no descriptor leaked over 100 refused opens (" + before + " -> " + after + ")");

        // Bad input.
        try {
            DirectIO.alignment(null);
            throw new AssertionError("null accepted");
        } catch (NullPointerException e) {
            check(true, "null: NullPointerException");
        }
        try {
            DirectIO.alignment(Ext4Dir.get().resolve("does-not-exist.bin"));
            throw new AssertionError("a missing file gave an answer");
        } catch (NoSuchFileException e) {
            check(true, "missing file: " + e);
        }
        Path zip = Ext4Dir.get().resolve("query.zip");
        try (FileSystem zfs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
            Path inZip = Files.write(zfs.getPath("/x"), new byte[1]);
            DirectIO.alignment(inZip);
            throw new AssertionError("a zip file system path was accepted");
        } catch (ProviderMismatchException e) {
            check(true, "zip path: " + e);
        }
        try {
            new DirectIO.Alignment(512, 3, true);
            throw new AssertionError("alignment 3 accepted");
        } catch (IllegalArgumentException e) {
            check(true, "Alignment(512, 3): " + e.getMessage());
        }
    }
}
