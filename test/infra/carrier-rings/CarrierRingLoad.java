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
import java.io.UncheckedIOException;
import java.lang.instrument.Instrumentation;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

/**
 * A Java agent that keeps the virtual thread scheduler's carriers doing
 * DIRECT reads, so that upstream's own tests of the scheduler run with the
 * carriers' io_uring hooks active (with the engine on, as by default)
 * rather than inert.  Its virtual threads read 4 KiB blocks of a file of
 * their own and check each block's first word; there are several, as the
 * engine sends a read that overlaps no other to pread.  Between bursts of
 * reads they sleep, so that the load leaves the tests most of the CPUs.  A
 * failed check or I/O error is printed and ends the process with status
 * 97: the tests would not see it.
 *
 * <p> Agent options: the number of virtual threads (default 4).  The file
 * is made in java.io.tmpdir, which must be on a file system with O_DIRECT,
 * and deleted on exit.
 */
public class CarrierRingLoad {
    private static final int BLOCK = 4096;
    private static final int BLOCKS = 64;
    private static final int BURST = 8;             // reads between sleeps

    public static void premain(String args, Instrumentation inst) throws IOException {
        int threads = (args == null || args.isEmpty()) ? 4 : Integer.parseInt(args);
        Path file = Files.createTempFile("carrier-ring-load", ".data");
        file.toFile().deleteOnExit();
        ByteBuffer content = ByteBuffer.allocate(BLOCK * BLOCKS);
        for (int b = 0; b < BLOCKS; b++)
            content.putLong(b * BLOCK, 0x5EED_0000L + b);
        Files.write(file, content.array());
        FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
        for (int i = 0; i < threads; i++) {
            long seed = i;
            Thread.ofVirtual().name("CarrierRingLoad-" + i).start(() -> load(fc, seed));
        }
    }

    private static void load(FileChannel fc, long seed) {
        var random = new SplittableRandom(seed);
        ByteBuffer buf = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK);
        try {
            for (;;) {
                for (int i = 0; i < BURST; i++) {
                    int b = random.nextInt(BLOCKS);
                    // one block: the aligned slice may hold two
                    buf.clear().limit(BLOCK).putLong(0, -1L);
                    int n = fc.read(buf, (long) b * BLOCK);
                    if (n != BLOCK || buf.getLong(0) != 0x5EED_0000L + b)
                        fail("block " + b + ": the read returned " + n + ", the block starts with "
                                + Long.toHexString(buf.getLong(0)), null);
                }
                Thread.sleep(1);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            fail("the load's read failed", e);
        }
    }

    private static void fail(String why, Throwable e) {
        System.err.println("CarrierRingLoad: " + why);
        if (e != null)
            e.printStackTrace();
        Runtime.getRuntime().halt(97);
    }
}
