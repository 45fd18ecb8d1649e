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
 * @library lib
 * @build DirectIODir
 * @run main/othervm DirectIOAlignmentMatrix
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.nio.DirectIO;

import static java.nio.file.StandardOpenOption.*;

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
        check(a.isExact() == DirectIODir.reportsAlignment(), "exact alignment on " + fsType + ": " + a);
        if (fsType.equals("ext4") && System.getProperty(DirectIODir.PROPERTY) == null) {
            check(off < blockSize, "ext4's offset alignment " + off
                  + " is not finer than the block size " + blockSize);
        }

        for (Op op : Op.values()) {
            for (Mode mode : Mode.values()) {
                if ((op == Op.SCATTER || op == Op.GATHER) && mode == Mode.POSITIONAL)
                    continue;   // FileChannel has no positional scatter/gather
                for (Buf buf : Buf.values()) {
                    for (Fault fault : Fault.values()) {
                        if (fault == Fault.ADDRESS && buf == Buf.HEAP) {
                            // A heap buffer is copied into aligned memory:
                            // any array offset must work.
                            runCase(op, mode, buf, Fault.NONE, 3);
                        } else {
                            runCase(op, mode, buf, fault, 0);
                        }
                    }
                }
            }
        }
        granularity();
        System.out.println(passed + " cases passed, " + failures.size() + " failed");
        if (!failures.isEmpty())
            throw new AssertionError(failures.size() + " cases failed:\n  "
                                     + String.join("\n  ", failures));
    }

    static void check(boolean ok, String what) {
        if (!ok)
            failures.add(what);
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

    static void runCase(Op op, Mode mode, Buf kind, Fault fault, int heapSkew) {
        String name = op + "/" + mode + "/" + kind + "/" + fault
                      + (heapSkew != 0 ? "(array offset " + heapSkew + ")" : "");
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
        try {
            byte[] before = Files.readAllBytes(file);
            try (FileChannel ch = FileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT)) {
                long chPosBefore = (mode == Mode.RELATIVE) ? position : 0;
                ch.position(chPosBefore);
                long n;
                try {
                    n = switch (op) {
                        case READ -> mode == Mode.POSITIONAL ? ch.read(bufs[0], position) : ch.read(bufs[0]);
                        case WRITE -> mode == Mode.POSITIONAL ? ch.write(bufs[0], position) : ch.write(bufs[0]);
                        case SCATTER -> ch.read(bufs);
                        case GATHER -> ch.write(bufs);
                    };
                } catch (IOException e) {
                    if (fault == Fault.NONE) {
                        failures.add(name + ": threw " + e);
                        return;
                    }
                    String expected = switch (fault) {
                        case ADDRESS -> "is not a multiple of the memory alignment " + mem;
                        case POSITION -> "Direct I/O: file position " + position
                                         + " is not a multiple of the offset alignment " + off;
                        case LENGTH -> "Direct I/O: length " + (vector ? len - off : len)
                                       + " (the bytes remaining in the buffer) is not a multiple"
                                       + " of the offset alignment " + off;
                        default -> throw new AssertionError();
                    };
                    String msg = String.valueOf(e.getMessage());
                    boolean ok = msg.contains(expected)
                                 && (fault != Fault.ADDRESS || msg.startsWith("Direct I/O: buffer address 0x"));
                    check(ok, name + ": message \"" + msg + "\" lacks \"" + expected + "\"");
                    // Nothing moved: buffers, channel position, file.
                    for (ByteBuffer b : bufs)
                        check(b.position() == 0, name + ": buffer position moved to " + b.position());
                    check(ch.position() == chPosBefore, name + ": channel position moved to " + ch.position());
                    check(java.util.Arrays.equals(before, Files.readAllBytes(file)),
                          name + ": the file changed");
                    if (ok)
                        passed++;
                    System.out.println(name + ": refused: " + msg);
                    return;
                }
                if (fault != Fault.NONE) {
                    failures.add(name + ": transferred " + n + " bytes instead of failing");
                    return;
                }
                check(n == len, name + ": transferred " + n + " of " + len);
                if (mode == Mode.RELATIVE)
                    check(ch.position() == position + len,
                          name + ": channel position " + ch.position() + ", expected " + (position + len));
            }
            // The bytes: in the buffers after a read, in the file after a write.
            byte[] now = Files.readAllBytes(file);
            long p = position;
            int bad = 0;
            for (ByteBuffer b : bufs) {
                for (int i = 0; i < b.limit(); i++, p++) {
                    byte want = writing ? (byte) ~pattern(p) : pattern(p);
                    byte got = writing ? now[(int) p] : b.get(i);
                    if (got != want)
                        bad++;
                }
            }
            check(bad == 0, name + ": " + bad + " wrong bytes");
            if (writing)
                restore(position, len);
            if (bad == 0)
                passed++;
            System.out.println(name + ": " + len + " bytes ok");
        } catch (Exception e) {
            failures.add(name + ": " + e);
        }
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
        int bad = 0, count = 0;
        try (FileChannel ch = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = buffer(Buf.DIRECT, off, 0);
            for (long pos = 0; pos < 8192; pos += off, count++) {
                b.clear();
                int n = ch.read(b, pos);
                for (int i = 0; i < off; i++)
                    if (b.get(i) != pattern(pos + i))
                        bad++;
                if (n != off)
                    bad++;
            }
        }
        check(bad == 0, "granularity: " + bad + " errors in " + count + " reads of " + off + " bytes");
        if (bad == 0)
            passed++;
        System.out.println("granularity: " + count + " reads of " + off + " bytes each: ok");
    }
}
