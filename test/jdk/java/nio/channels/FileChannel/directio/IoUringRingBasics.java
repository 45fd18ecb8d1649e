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
 * @summary sun.nio.ch.IoUringRing, the io_uring instance that the engine
 *          fills and reaps in Java on the mapped rings: a no-op, a read and
 *          a write round trip with their user data and results, the bytes
 *          compared; an error comes back as -errno; a full submission queue
 *          refuses an entry, and every entry of a full queue completes; a
 *          cancel ends a poll that would never fire; entering through a
 *          registered ring index works where the kernel has them (5.18),
 *          and the index given back is free again;
 *          each setup rung the engine may use works where the kernel knows
 *          its flags, a flag the kernel does not know moves setup down a
 *          rung, and close gives the descriptor back.  Where this process
 *          may not set up io_uring at all, opening a ring must fail with an
 *          IOException that names the errno.  Under a second.
 * @requires os.family == "linux"
 * @modules java.base/sun.nio.ch:+open
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringRingBasics
 */

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

public class IoUringRingBasics {
    static final Class<?> RING;
    static final int OP_NOP, OP_POLL_ADD, OP_ASYNC_CANCEL, OP_READ, OP_WRITE;
    static final int ENTER_GETEVENTS, SETUP_CLAMP;
    static final int[] SETUP_RUNGS;
    static final int EBADF = 9, ECANCELED = 125, POLLIN = 1;

    static {
        try {
            RING = Class.forName("sun.nio.ch.IoUringRing");
            OP_NOP = constant("OP_NOP");
            OP_POLL_ADD = constant("OP_POLL_ADD");
            OP_ASYNC_CANCEL = constant("OP_ASYNC_CANCEL");
            OP_READ = constant("OP_READ");
            OP_WRITE = constant("OP_WRITE");
            ENTER_GETEVENTS = constant("ENTER_GETEVENTS");
            SETUP_CLAMP = constant("SETUP_CLAMP");
            Field f = RING.getDeclaredField("SETUP_RUNGS");
            f.setAccessible(true);
            SETUP_RUNGS = ((int[]) f.get(null)).clone();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static int constant(String name) throws ReflectiveOperationException {
        Field f = RING.getDeclaredField(name);
        f.setAccessible(true);
        return f.getInt(null);
    }

    static MethodHandle method(String name, Class<?>... types) {
        try {
            Method m = RING.getDeclaredMethod(name, types);
            m.setAccessible(true);
            return MethodHandles.lookup().unreflect(m);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static final MethodHandle OPEN = method("open", int.class, int.class, int[].class);
    static final MethodHandle FLAGS = method("flags");
    static final MethodHandle SQ_ENTRIES = method("sqEntries");
    static final MethodHandle CQ_ENTRIES = method("cqEntries");
    static final MethodHandle PREPARE = method("prepare", int.class, int.class, long.class,
            int.class, long.class, long.class);
    static final MethodHandle REGISTER = method("registerRingFd");
    static final MethodHandle UNREGISTER = method("unregisterRingFd", int.class);
    static final MethodHandle ENTER = method("enter", int.class, int.class, int.class, int.class);
    static final MethodHandle REAP = method("reap", long[].class, int[].class);
    static final MethodHandle CLOSE = method("close");

    /** A ring, and the index the calling thread enters it by (-1: its descriptor). */
    record Ring(Object ring, int registered) {
        static Ring open(int entries, int cqEntries, int... rungs) throws Throwable {
            Object r = OPEN.invoke(entries, cqEntries, rungs);
            return new Ring(r, -1);
        }
        Ring withRegistered() throws Throwable {
            return new Ring(ring, (int) REGISTER.invoke(ring));
        }
        void unregister() throws Throwable { UNREGISTER.invoke(ring, registered); }
        int flags() throws Throwable { return (int) FLAGS.invoke(ring); }
        int sqEntries() throws Throwable { return (int) SQ_ENTRIES.invoke(ring); }
        int cqEntries() throws Throwable { return (int) CQ_ENTRIES.invoke(ring); }
        boolean prepare(int op, int fd, long address, int len, long offset, long userData)
                throws Throwable {
            return (boolean) PREPARE.invoke(ring, op, fd, address, len, offset, userData);
        }
        /** Submits n entries and waits for n completions, in as many calls as it takes. */
        void submitAndWait(int n) throws Throwable {
            int submitted = 0;
            while (submitted < n) {
                int r = (int) ENTER.invoke(ring, n - submitted, 0, 0, registered);
                if (r < 0)
                    throw new AssertionError("io_uring_enter to submit failed: errno " + -r);
                submitted += r;
            }
        }
        /** Reaps exactly n completions, waiting for each; returns {userData, results}. */
        Object[] reap(int n) throws Throwable {
            long[] ud = new long[n];
            int[] res = new int[n];
            int got = 0;
            while (got < n) {
                int r = (int) ENTER.invoke(ring, 0, 1, ENTER_GETEVENTS, registered);
                if (r < 0)
                    throw new AssertionError("io_uring_enter to wait failed: errno " + -r);
                long[] u = new long[n - got];
                int[] s = new int[n - got];
                int k = (int) REAP.invoke(ring, u, s);
                System.arraycopy(u, 0, ud, got, k);
                System.arraycopy(s, 0, res, got, k);
                got += k;
            }
            long[] extra = new long[1];
            if ((int) REAP.invoke(ring, extra, new int[1]) != 0)
                throw new AssertionError("a completion more than the " + n + " expected: user data "
                        + extra[0]);
            return new Object[] { ud, res };
        }
        void close() throws Throwable { CLOSE.invoke(ring); }
    }

    public static void main(String[] args) throws Throwable {
        int errno = IoUringProbe.setupErrno();
        if (errno != 0) {
            // io_uring missing or denied here: the ring must say so, as an IOException
            try {
                Ring.open(8, 16, SETUP_RUNGS).close();
                throw new AssertionError("io_uring_setup fails here with errno " + errno
                        + ", yet IoUringRing.open succeeded");
            } catch (IOException e) {
                System.out.println("io_uring unavailable, as expected: " + e);
                if (!e.getMessage().contains("errno " + errno))
                    throw new AssertionError("message does not name errno " + errno + ": " + e);
            }
            return;
        }
        List<String> before = IoUringProbe.ringFds();

        // each rung the engine may set up with, newest first: a kernel that
        // lacks a rung's flags must refuse it with EINVAL, reported as an
        // IOException, and the next rung must then work
        boolean taken = false;
        for (int rung : SETUP_RUNGS) {
            Ring ring;
            try {
                ring = Ring.open(8, 32, rung);
            } catch (IOException e) {
                System.out.println("rung 0x" + Integer.toHexString(rung) + " refused: " + e);
                if (taken || !e.getMessage().contains("errno 22"))
                    throw new AssertionError("rung 0x" + Integer.toHexString(rung)
                            + " refused, though an older rung was taken or not with EINVAL", e);
                continue;
            }
            taken = true;
            try {
                check(ring, rung);
                Ring reg = ring.withRegistered();
                System.out.println("rung 0x" + Integer.toHexString(rung) + ": registered index "
                        + reg.registered());
                if (reg.registered() < 0 && DirectIODir.kernelAtLeast(5, 18))
                    throw new AssertionError("Linux 5.18 and later register ring descriptors");
                if (reg.registered() >= 0) {
                    roundTrips(reg);
                    // the index is free again once given back: the
                    // registration does not outlive the ring's close
                    reg.unregister();
                    Ring again = ring.withRegistered();
                    if (again.registered() != reg.registered())
                        throw new AssertionError("registered index " + reg.registered()
                                + " given back, yet the next registration got " + again.registered());
                    again.unregister();
                }
            } finally {
                ring.close();
            }
        }
        if (!taken)
            throw new AssertionError("no rung of " + Arrays.toString(SETUP_RUNGS) + " was taken");

        // a flag the kernel does not know moves setup down a rung
        int unknown = 1 << 30;
        Ring ring = Ring.open(8, 32, unknown | SETUP_CLAMP, SETUP_CLAMP);
        try {
            if (ring.flags() != SETUP_CLAMP)
                throw new AssertionError("setup with an unknown flag should have fallen to the rung"
                        + " SETUP_CLAMP, not 0x" + Integer.toHexString(ring.flags()));
            roundTrips(ring);
        } finally {
            ring.close();
        }

        List<String> after = IoUringProbe.ringFds();
        if (!after.equals(before))
            throw new AssertionError("io_uring descriptors before " + before + ", after close " + after);
        System.out.println("io_uring descriptors before and after: " + after);
    }

    static void check(Ring ring, int rung) throws Throwable {
        if (ring.flags() != rung)
            throw new AssertionError("flags 0x" + Integer.toHexString(ring.flags())
                    + ", asked for 0x" + Integer.toHexString(rung));
        if (ring.sqEntries() != 8 || ring.cqEntries() != 32)
            throw new AssertionError("rung 0x" + Integer.toHexString(rung) + ": " + ring.sqEntries()
                    + " submission and " + ring.cqEntries() + " completion entries, asked for 8 and 32");
        roundTrips(ring);
    }

    static void roundTrips(Ring ring) throws Throwable {
        nop(ring);
        readWrite(ring);
        fullQueue(ring);
        cancel(ring);
    }

    static void expect(Object[] got, long[] userData, int[] results, String what) {
        long[] ud = (long[]) got[0];
        int[] res = (int[]) got[1];
        for (int i = 0; i < userData.length; i++) {
            int j = indexOf(ud, userData[i]);
            if (j < 0)
                throw new AssertionError(what + ": no completion with user data " + userData[i]
                        + " in " + Arrays.toString(ud));
            if (res[j] != results[i])
                throw new AssertionError(what + ": user data " + userData[i] + " completed with "
                        + res[j] + ", expected " + results[i]);
        }
    }

    static int indexOf(long[] a, long v) {
        for (int i = 0; i < a.length; i++)
            if (a[i] == v)
                return i;
        return -1;
    }

    static void nop(Ring ring) throws Throwable {
        long ud = 0x1234_5678_9abc_def0L;
        if (!ring.prepare(OP_NOP, -1, 0, 0, 0, ud))
            throw new AssertionError("an empty submission queue refused a no-op");
        ring.submitAndWait(1);
        expect(ring.reap(1), new long[] { ud }, new int[] { 0 }, "no-op");
    }

    // Writes 3000 bytes at offset 1000 of a file and reads 4000 from 0, and
    // reads at a bad descriptor, which completes with -EBADF
    static void readWrite(Ring ring) throws Throwable {
        Path file = Files.createTempFile(Path.of(""), "ring", ".bin");
        try (Arena arena = Arena.ofConfined();
             var ch = java.nio.channels.FileChannel.open(file,
                     java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            byte[] first = new byte[1000];
            new java.util.Random(7).nextBytes(first);
            Files.write(file, first);
            int fd = fdOf(ch);
            MemorySegment out = arena.allocate(3000);
            byte[] second = new byte[3000];
            new java.util.Random(8).nextBytes(second);
            MemorySegment.copy(second, 0, out, JAVA_BYTE, 0, second.length);
            ring.prepare(OP_WRITE, fd, out.address(), 3000, 1000, 1);
            ring.submitAndWait(1);
            expect(ring.reap(1), new long[] { 1 }, new int[] { 3000 }, "write");

            MemorySegment in = arena.allocate(4000);
            ring.prepare(OP_READ, fd, in.address(), 4000, 0, 2);
            ring.prepare(OP_READ, 1 << 20, in.address(), 4000, 0, 3);   // no such descriptor
            ring.submitAndWait(2);
            expect(ring.reap(2), new long[] { 2, 3 }, new int[] { 4000, -EBADF }, "read");
            byte[] expected = new byte[4000];
            System.arraycopy(first, 0, expected, 0, 1000);
            System.arraycopy(second, 0, expected, 1000, 3000);
            byte[] read = in.toArray(JAVA_BYTE);
            if (!Arrays.equals(read, expected))
                throw new AssertionError("read bytes differ from written ones at index "
                        + Arrays.mismatch(read, expected));
            if (!Arrays.equals(Files.readAllBytes(file), expected))
                throw new AssertionError("the file does not hold the bytes written through the ring");
        } finally {
            Files.delete(file);
        }
    }

    // A full submission queue refuses an entry; all of it then completes
    static void fullQueue(Ring ring) throws Throwable {
        int n = ring.sqEntries();
        long[] ud = new long[n];
        for (int i = 0; i < n; i++) {
            ud[i] = 100 + i;
            if (!ring.prepare(OP_NOP, -1, 0, 0, 0, ud[i]))
                throw new AssertionError("entry " + i + " of " + n + " refused");
        }
        if (ring.prepare(OP_NOP, -1, 0, 0, 0, 99))
            throw new AssertionError("a full submission queue of " + n + " took one more entry");
        ring.submitAndWait(n);
        expect(ring.reap(n), ud, new int[n], "full queue");
    }

    // A poll for input on an eventfd that is never written, cancelled by its
    // user data: the poll completes with -ECANCELED, the cancel with 0
    static void cancel(Ring ring) throws Throwable {
        Class<?> c = Class.forName("sun.nio.ch.EventFD");
        Constructor<?> ctor = c.getDeclaredConstructor();
        ctor.setAccessible(true);
        Object efd = ctor.newInstance();
        Method efdOf = c.getDeclaredMethod("efd");
        efdOf.setAccessible(true);
        Method close = c.getDeclaredMethod("close");
        close.setAccessible(true);
        try {
            ring.prepare(OP_POLL_ADD, (int) efdOf.invoke(efd), 0, POLLIN, 0, 10);
            ring.submitAndWait(1);
            ring.prepare(OP_ASYNC_CANCEL, -1, 10, 0, 0, 11);
            ring.submitAndWait(1);
            expect(ring.reap(2), new long[] { 10, 11 }, new int[] { -ECANCELED, 0 }, "cancel");
        } finally {
            close.invoke(efd);
        }
    }

    static int fdOf(java.nio.channels.FileChannel ch) throws ReflectiveOperationException {
        Field fdField = ch.getClass().getDeclaredField("fd");
        fdField.setAccessible(true);
        Method fdVal = Class.forName("sun.nio.ch.IOUtil")
                .getDeclaredMethod("fdVal", java.io.FileDescriptor.class);
        fdVal.setAccessible(true);
        return (int) fdVal.invoke(null, fdField.get(ch));
    }
}
