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
 * @summary FileChannel with ExtendedOpenOption.DIRECT, for heap and direct
 *          buffers, read, write, scatter and gather, positional and
 *          relative: well-aligned transfers move the right bytes, and a
 *          misaligned buffer address, file position or length is refused
 *          with an IOException that names it, its value and the alignment,
 *          and changes nothing.  On a file system that reports
 *          STATX_DIOALIGN (ext4 here) the alignment is the kernel's, finer
 *          than the block size upstream requires.
 * @requires os.family == "linux"
 * @modules jdk.net jdk.unsupported
 * @library lib /test/lib
 * @build DirectIODir
 * @run main/othervm DirectIOAlignmentMatrix
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;
import jdk.test.lib.Utils;

import static java.nio.file.StandardOpenOption.*;
import static jdk.test.lib.Asserts.*;

public class DirectIOAlignmentMatrix {

    enum Buf { HEAP, DIRECT }
    enum Op { READ, WRITE, SCATTER, GATHER }
    enum Mode { POSITIONAL, RELATIVE }
    enum Fault { NONE, ADDRESS, POSITION, LENGTH }

    static final int FILE_SIZE = 64 * 1024;

    static int mem, off;
    static Path file;
    static final List<String> failures = new ArrayList<>();
    static int passed;

    // The byte the file holds at a position (writes store its complement).
    static byte pattern(long pos) {
        return (byte) (pos * 31 + 7);
    }

    public static void main(String[] args) throws Exception {
        file = DirectIODir.get().resolve("matrix.bin");
        byte[] content = new byte[FILE_SIZE];
        for (int i = 0; i < FILE_SIZE; i++)
            content[i] = pattern(i);
        Files.write(file, content);

        DirectIO.Alignment a = DirectIO.alignment(file);
        mem = a.memory();
        off = a.offset();
        long blockSize = Files.getFileStore(file).getBlockSize();
        String fsType = Files.getFileStore(file).type();
        System.out.println(file + " on " + fsType + ": " + a + ", block size " + blockSize);

        // ext4 on Linux 6.1+ reports the kernel's alignment, and it is
        // the logical block size of the device, below the 4096 upstream uses.
        run("alignment", () -> {
            assertEquals(DirectIODir.reportsAlignment(), a.isExact(), "exact alignment on " + fsType + ": " + a);
            if (fsType.equals("ext4") && System.getProperty(DirectIODir.PROPERTY) == null)
                assertLessThan((long) off, blockSize, "ext4's offset alignment, below the block size");
        });

        for (Op op : Op.values()) {
            for (Mode mode : Mode.values()) {
                if ((op == Op.SCATTER || op == Op.GATHER) && mode == Mode.POSITIONAL)
                    continue;   // FileChannel has no positional scatter/gather
                for (Buf buf : Buf.values()) {
                    for (Fault fault : Fault.values()) {
                        if (fault == Fault.ADDRESS && buf == Buf.HEAP) {
                            // A heap buffer is copied into aligned memory:
                            // any array offset must work.
                            run(op + "/" + mode + "/" + buf + "/NONE(array offset 3)",
                                () -> transferCase(op, mode, buf, Fault.NONE, 3));
                        } else {
                            run(op + "/" + mode + "/" + buf + "/" + fault,
                                () -> transferCase(op, mode, buf, fault, 0));
                        }
                    }
                }
            }
        }
        run("granularity", DirectIOAlignmentMatrix::granularity);
        System.out.println(passed + " cases passed, " + failures.size() + " failed");
        if (!failures.isEmpty())
            fail(failures.size() + " cases failed:\n  " + String.join("\n  ", failures));
    }

    // Runs one case: a failed assertion ends the case, and every case runs.
    static void run(String name, Utils.ThrowingRunnable body) {
        try {
            body.run();
            passed++;
            System.out.println(name + ": ok");
        } catch (Throwable e) {
            failures.add(name + ": " + e);
            System.out.println(name + ": FAILED: " + e);
        }
    }

    /**
     * A buffer of len bytes whose first byte is at an address aligned to
     * mem, plus skew bytes; for heap buffers skew is an array offset.
     */
    static ByteBuffer buffer(Buf kind, int len, int skew) {
        if (kind == Buf.HEAP) {
            return ByteBuffer.allocate(len + skew).position(skew).slice();
        }
        ByteBuffer raw = ByteBuffer.allocateDirect(len + skew + 2 * mem);
        return raw.alignedSlice(mem).position(skew).limit(skew + len).slice();
    }

    static long transfer(FileChannel ch, Op op, Mode mode, ByteBuffer[] bufs, long position) throws IOException {
        return switch (op) {
            case READ -> mode == Mode.POSITIONAL ? ch.read(bufs[0], position) : ch.read(bufs[0]);
            case WRITE -> mode == Mode.POSITIONAL ? ch.write(bufs[0], position) : ch.write(bufs[0]);
            case SCATTER -> ch.read(bufs);
            case GATHER -> ch.write(bufs);
        };
    }

    static void transferCase(Op op, Mode mode, Buf kind, Fault fault, int heapSkew) throws IOException {
        long position = 4L * off + (fault == Fault.POSITION ? off / 2 + 1 : 0);
        int len = 2 * off + (fault == Fault.LENGTH ? 1 : 0);
        int skew = (fault == Fault.ADDRESS) ? 1 : heapSkew;
        boolean vector = (op == Op.SCATTER || op == Op.GATHER);
        boolean writing = (op == Op.WRITE || op == Op.GATHER);

        // Vectored: two buffers; the fault is in the second.
        ByteBuffer[] bufs = vector
            ? new ByteBuffer[] { buffer(kind, off, 0), buffer(kind, len - off, skew) }
            : new ByteBuffer[] { buffer(kind, len, skew) };
        if (writing) {
            long p = position;
            for (ByteBuffer b : bufs)
                for (int i = 0; i < b.limit(); i++)
                    b.put(i, (byte) ~pattern(p++));
        }
        byte[] before = Files.readAllBytes(file);
        try (FileChannel ch = FileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT)) {
            long chPosBefore = (mode == Mode.RELATIVE) ? position : 0;
            ch.position(chPosBefore);
            if (fault != Fault.NONE) {
                IOException e = assertThrows(IOException.class, () -> transfer(ch, op, mode, bufs, position),
                                             "a transfer with a misaligned " + fault.name().toLowerCase());
                String expected = switch (fault) {
                    case ADDRESS -> "is not a multiple of the memory alignment " + mem;
                    case POSITION -> "Direct I/O: file position " + position
                                     + " is not a multiple of the offset alignment " + off;
                    case LENGTH -> "Direct I/O: length " + (vector ? len - off : len)
                                   + " (the bytes remaining in the buffer) is not a multiple"
                                   + " of the offset alignment " + off;
                    default -> throw new IllegalStateException();
                };
                String msg = String.valueOf(e.getMessage());
                assertTrue(msg.contains(expected), "message \"" + msg + "\" contains \"" + expected + "\"");
                if (fault == Fault.ADDRESS)
                    assertTrue(msg.startsWith("Direct I/O: buffer address 0x"),
                               "message \"" + msg + "\" starts with \"Direct I/O: buffer address 0x\"");
                // Nothing moved: buffers, channel position, file.
                for (ByteBuffer b : bufs)
                    assertEquals(0, b.position(), "buffer position after the refusal");
                assertEquals(chPosBefore, ch.position(), "channel position after the refusal");
                assertEquals(-1, Arrays.mismatch(before, Files.readAllBytes(file)),
                             "after the refusal, the first byte of the file that changed");
                System.out.println("  refused: " + msg);
                return;
            }
            long n = transfer(ch, op, mode, bufs, position);
            assertEquals((long) len, n, "bytes transferred");
            if (mode == Mode.RELATIVE)
                assertEquals(position + len, ch.position(), "channel position after the transfer");
        }
        // The bytes: in the buffers after a read, in the file after a write.
        byte[] want = new byte[len];
        for (int i = 0; i < len; i++)
            want[i] = writing ? (byte) ~pattern(position + i) : pattern(position + i);
        byte[] got;
        if (writing) {
            got = Arrays.copyOfRange(Files.readAllBytes(file), (int) position, (int) position + len);
            restore(position, len);   // before the check, so that a failure leaves the next cases a good file
        } else {
            ByteBuffer all = ByteBuffer.allocate(len);
            for (ByteBuffer b : bufs)
                all.put(b.duplicate().clear());
            got = all.array();
        }
        assertEquals(-1, Arrays.mismatch(want, got),
                     "the first wrong byte " + (writing ? "in the file" : "in the buffers"));
    }

    static void restore(long position, int len) throws IOException {
        byte[] orig = new byte[len];
        for (int i = 0; i < len; i++)
            orig[i] = pattern(position + i);
        try (FileChannel ch = FileChannel.open(file, WRITE)) {
            ch.write(ByteBuffer.wrap(orig), position);
        }
    }

    /**
     * Transfers of exactly one offset-alignment unit at every such
     * position of the first 8 KiB: the granularity the kernel allows.
     */
    static void granularity() throws IOException {
        try (FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = buffer(Buf.DIRECT, off, 0);
            byte[] want = new byte[off], got = new byte[off];
            for (long pos = 0; pos < 8192; pos += off) {
                b.clear();
                assertEquals(off, ch.read(b, pos), "bytes read at " + pos);
                b.flip().get(got);
                for (int i = 0; i < off; i++)
                    want[i] = pattern(pos + i);
                assertEquals(-1, Arrays.mismatch(want, got), "the first wrong byte read at " + pos);
            }
        }
        System.out.println("granularity: reads of " + off + " bytes each, every " + off + " bytes of 8 KiB");
    }
}
