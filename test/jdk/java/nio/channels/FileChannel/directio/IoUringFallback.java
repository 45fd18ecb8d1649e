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
 * @summary With the engine on (the default), where a seccomp filter denies
 *          io_uring_setup, with EPERM (as kernel.io_uring_disabled and
 *          container runtimes do) or ENOSYS (as a kernel without io_uring
 *          does), the JDK falls back to pread, pwrite and pool threads without
 *          a word: AsynchronousFileChannel with 256 operations outstanding and
 *          virtual threads on a FileChannel, both DIRECT, move the right
 *          bytes, and the process holds no io_uring instance.  The same child
 *          without the filter holds one where the kernel allows it, which
 *          shows the check can see a ring, and with -Djdk.nio.useIoUring=false
 *          holds none.  Linux x86_64 (the filter's syscall numbers).
 * @requires os.family == "linux" & os.arch == "amd64"
 * @modules jdk.net jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks jdk.test.lib.process.ProcessTools
 * @run main/othervm --enable-native-access=ALL-UNNAMED IoUringFallback
 */

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.nio.file.ExtendedOpenOption;
import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.process.ProcessTools;

import static java.lang.foreign.ValueLayout.*;
import static java.nio.file.StandardOpenOption.*;

/**
 * Proves that the io_uring engine's fallback works where io_uring is
 * blocked: each case is a child JVM that, before any file I/O of its own,
 * installs a seccomp filter through the FFM API (prctl(PR_SET_NO_NEW_PRIVS),
 * then seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC), so that
 * every thread of the VM has it, those already running included) whose BPF
 * program fails io_uring_setup (425) with the case's errno and allows every
 * other system call.  The child checks that io_uring_setup now fails with
 * that errno on its main thread, on a platform thread started before the
 * filter and on a virtual thread; then writes and reads back with DIRECT,
 * through an AsynchronousFileChannel with 256 operations outstanding
 * (Futures and CompletionHandlers, each counted once) and from 16 virtual
 * threads and a platform thread on one FileChannel; compares every block
 * read, and the whole files read with buffered I/O, with what was written;
 * and finds no io_uring descriptor in /proc/self/fd.  The third case runs
 * the same child without a filter: there the engine must hold rings
 * where this machine allows io_uring, so a child that could not see rings
 * would fail it.  The fourth runs it without a filter and with
 * -Djdk.nio.useIoUring=false, which must leave the engine out.  The
 * parent requires exit status 0 from each child within 120 s.
 *
 * <p> Not covered: kernel.io_uring_disabled itself.  Setting it here (as
 * root) would change the whole machine for as long as the test runs: other
 * tests running at the same time (make test runs upstream's framework with
 * several jtreg processes) and any other program starting io_uring would be
 * denied, and a test killed by its timeout would leave it set, as no
 * finally block runs then.  The JDK cannot tell the sysctl from the EPERM
 * filter: both make io_uring_setup return -1 with errno EPERM.
 */
public class IoUringFallback {
    static final long WAIT = 30;              // seconds, a bounded wait in the child
    static final long CHILD_WAIT = 120;       // seconds, for a child
    static final int SIZE = Blocks.SIZE;

    public static void main(String[] args) throws Throwable {
        if (args.length == 2 && args[0].equals("child")) {
            child(args[1]);
            return;
        }
        for (String mode : List.of("EPERM", "ENOSYS", "unfiltered", "off"))
            runChild(mode);
    }

    static void runChild(String mode) throws Throwable {
        List<String> command = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
        if (mode.equals("off"))
            command.add("-D" + IoUringProbe.PROPERTY + "=false");
        command.addAll(List.of("IoUringFallback", "child", mode));
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(command);
        Path log = Path.of("child-" + mode + ".log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        long start = System.nanoTime();
        Process p = pb.start();
        boolean ended = p.waitFor(CHILD_WAIT, TimeUnit.SECONDS);
        if (!ended) {
            System.out.println(jcmd(p.pid(), "Thread.print"));
            p.destroyForcibly();
            p.waitFor(WAIT, TimeUnit.SECONDS);
        }
        System.out.println(Files.readString(log).indent(4).stripTrailing());
        if (!ended)
            throw new AssertionError("child " + mode + " did not end within " + CHILD_WAIT
                                     + " s (its threads are above)");
        System.out.printf("child %s: exit status %d after %.1f s%n", mode, p.exitValue(),
                          (System.nanoTime() - start) / 1e9);
        if (p.exitValue() != 0)
            throw new AssertionError("child " + mode + " failed with exit status " + p.exitValue()
                                     + "; its output is above");
    }

    static String jcmd(long pid, String command) {
        try {
            Process p = new ProcessBuilder(JDKToolFinder.getJDKTool("jcmd"), Long.toString(pid), command)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(WAIT, TimeUnit.SECONDS);
            return out;
        } catch (Exception e) {
            return "jcmd failed: " + e;
        }
    }

    // -- The child -------------------------------------------------------------------

    static void child(String mode) throws Throwable {
        int errno = switch (mode) {
            case "EPERM" -> IoUringProbe.EPERM;
            case "ENOSYS" -> IoUringProbe.ENOSYS;
            case "unfiltered", "off" -> 0;
            default -> throw new IllegalArgumentException(mode);
        };
        List<String> rings = IoUringProbe.ringFds();
        if (!rings.isEmpty())
            throw new AssertionError("io_uring descriptors before any I/O: " + rings);

        // A platform thread that exists before the filter: TSYNC must reach it
        CountDownLatch filtered = new CountDownLatch(1);
        AtomicInteger early = new AtomicInteger(-1);
        Thread before = Thread.ofPlatform().daemon().start(() -> {
            try {
                filtered.await();
                early.set(IoUringProbe.setupErrno());
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
        if (errno != 0) {
            installFilter(errno);
            System.out.println("seccomp filter installed: io_uring_setup fails with errno " + errno);
        }
        filtered.countDown();
        if (!before.join(Duration.ofSeconds(WAIT)))
            throw new AssertionError("the probe on the earlier platform thread did not end");
        AtomicInteger onVirtual = new AtomicInteger(-1);
        Thread v = Thread.ofVirtual().start(() -> onVirtual.set(IoUringProbe.setupErrno()));
        if (!v.join(Duration.ofSeconds(WAIT)))
            throw new AssertionError("the probe on a virtual thread did not end");
        int here = IoUringProbe.setupErrno();
        System.out.println("io_uring_setup: errno " + here + " on the main thread, " + early + " on a platform"
                           + " thread started before the filter, " + onVirtual + " on a virtual thread (0: it works)");
        if (errno != 0) {
            if (here != errno || early.get() != errno || onVirtual.get() != errno)
                throw new AssertionError("the filter should make io_uring_setup fail with errno " + errno
                                         + " on every thread; got " + here + " on the main thread, " + early
                                         + " on an earlier platform thread, " + onVirtual + " on a virtual thread");
        }
        IoUringProbe.Expectation expect = IoUringProbe.expectation();
        System.out.println("engine expected " + (expect.ring() ? "on" : "off") + ": " + expect.why());

        Path dir = DirectIODir.get();
        asyncIO(dir.resolve("fallback-async.bin"));
        virtualThreadIO(dir.resolve("fallback-fc.bin"));
        expect.check("after the I/O");
        if (errno != 0 && expect.ring())
            throw new AssertionError("cannot happen: the engine expected on behind the filter");
        if (mode.equals("off") && expect.ring())
            throw new AssertionError("cannot happen: the engine expected on with " + expect.why());
        System.out.println("child " + mode + ": passed");
    }

    /**
     * seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC) with a
     * program that fails io_uring_setup with errno, after
     * prctl(PR_SET_NO_NEW_PRIVS, 1), which an unprivileged process needs.
     */
    static void installFilter(int errno) throws Throwable {
        final int PR_SET_NO_NEW_PRIVS = 38;
        final long SYS_SECCOMP = 317;
        final long SECCOMP_SET_MODE_FILTER = 1, SECCOMP_FILTER_FLAG_TSYNC = 1;
        final int AUDIT_ARCH_X86_64 = 0xC000003E;
        final int SECCOMP_RET_ERRNO = 0x00050000, SECCOMP_RET_ALLOW = 0x7fff0000;
        final int LD_W_ABS = 0x20, JEQ_K = 0x15, RET_K = 0x06;     // BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K
        final int NR = 0, ARCH = 4;                                // offsets in struct seccomp_data
        // { code, jt, jf, k }; a jump skips jt or jf instructions
        int[][] program = {
            { LD_W_ABS, 0, 0, ARCH },
            { JEQ_K,    0, 3, AUDIT_ARCH_X86_64 },      // another ABI: allow
            { LD_W_ABS, 0, 0, NR },
            { JEQ_K,    0, 1, (int) IoUringProbe.SYS_IO_URING_SETUP },
            { RET_K,    0, 0, SECCOMP_RET_ERRNO | errno },
            { RET_K,    0, 0, SECCOMP_RET_ALLOW },
        };

        Linker linker = Linker.nativeLinker();
        StructLayout captured = Linker.Option.captureStateLayout();
        var errnoOf = captured.varHandle(PathElement.groupElement("errno"));
        // int prctl(int option, ...)
        MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
        // long syscall(long number, ...)
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS),
                Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(captured);
            int r = (int) prctl.invokeExact(state, PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L);
            if (r != 0)
                throw new AssertionError("prctl(PR_SET_NO_NEW_PRIVS, 1) failed: errno " + (int) errnoOf.get(state, 0L));

            // struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }
            MemorySegment filter = arena.allocate(8L * program.length, 8);
            for (int i = 0; i < program.length; i++) {
                filter.set(JAVA_SHORT, 8L * i, (short) program[i][0]);
                filter.set(JAVA_BYTE, 8L * i + 2, (byte) program[i][1]);
                filter.set(JAVA_BYTE, 8L * i + 3, (byte) program[i][2]);
                filter.set(JAVA_INT, 8L * i + 4, program[i][3]);
            }
            // struct sock_fprog { unsigned short len; struct sock_filter *filter; }
            MemorySegment fprog = arena.allocate(16, 8);
            fprog.set(JAVA_SHORT, 0, (short) program.length);
            fprog.set(ADDRESS, 8, filter);
            long rc = (long) syscall.invokeExact(state, SYS_SECCOMP, SECCOMP_SET_MODE_FILTER,
                                                 SECCOMP_FILTER_FLAG_TSYNC, fprog);
            if (rc != 0)
                throw new AssertionError("seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC) failed: "
                        + (rc > 0 ? "thread " + rc + " could not take the filter"
                                  : "errno " + (int) errnoOf.get(state, 0L)));
        }
    }

    static final int OPS = 256;

    // 256 writes outstanding, then 256 reads, each counted once, every block compared
    static void asyncIO(Path f) throws Exception {
        final int ID = 1;
        Files.deleteIfExists(f);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(f, CREATE_NEW, READ, WRITE,
                                                                       ExtendedOpenOption.DIRECT)) {
            List<Future<Integer>> writes = new ArrayList<>();
            for (int b = 0; b < OPS; b++) {
                ByteBuffer buf = (b % 2 == 0) ? Blocks.aligned(SIZE) : ByteBuffer.allocate(SIZE);
                writes.add(ch.write(buf.put(Blocks.of(ID, b, 1)).flip(), (long) b * SIZE));
            }
            for (int b = 0; b < OPS; b++) {
                int n = writes.get(b).get(WAIT, TimeUnit.SECONDS);
                if (n != SIZE)
                    throw new AssertionError("asynchronous write of block " + b + " returned " + n);
            }

            AtomicIntegerArray calls = new AtomicIntegerArray(OPS);
            AtomicReference<String> failure = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(OPS);
            ByteBuffer[] bufs = new ByteBuffer[OPS];
            CompletionHandler<Integer, Integer> handler = new CompletionHandler<>() {
                public void completed(Integer n, Integer b) {
                    if (calls.incrementAndGet(b) == 1) {
                        if (n != SIZE)
                            failure.compareAndSet(null, "asynchronous read of block " + b + " returned " + n);
                        done.countDown();
                    }
                }
                public void failed(Throwable t, Integer b) {
                    if (calls.incrementAndGet(b) == 1) {
                        failure.compareAndSet(null, "asynchronous read of block " + b + " failed: " + t);
                        done.countDown();
                    }
                }
            };
            for (int b = 0; b < OPS; b++) {
                bufs[b] = (b % 2 == 1) ? Blocks.aligned(SIZE) : ByteBuffer.allocate(SIZE);
                ch.read(bufs[b], (long) b * SIZE, b, handler);
            }
            if (!done.await(WAIT, TimeUnit.SECONDS)) {
                IoUringProbe.dumpThreads("asynchronous reads");
                throw new AssertionError("lost completions: " + done.getCount() + " of " + OPS
                                         + " asynchronous reads did not complete within " + WAIT + " s");
            }
            if (failure.get() != null)
                throw new AssertionError(failure.get());
            for (int b = 0; b < OPS; b++) {
                if (calls.get(b) != 1)
                    throw new AssertionError("asynchronous read of block " + b + " completed " + calls.get(b) + " times");
                if (!Blocks.matches(bufs[b], 0, ID, b, 1))
                    throw new AssertionError("asynchronous read of block " + b + " got " + Blocks.describe(bufs[b], 0));
            }
        }
        checkFile(f, ID, OPS, 1);
        System.out.println("AsynchronousFileChannel: " + OPS + " writes, then " + OPS
                           + " reads outstanding, every block read back");
    }

    static final int THREADS = 16, REGION = 16;

    // 16 virtual threads and a platform thread, each on its own blocks: write, read back, overwrite, read back
    static void virtualThreadIO(Path f) throws Exception {
        final int ID = 2;
        Files.deleteIfExists(f);
        try (FileChannel ch = FileChannel.open(f, CREATE_NEW, READ, WRITE, ExtendedOpenOption.DIRECT)) {
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t <= THREADS; t++) {
                int index = t;
                Runnable task = () -> {
                    try {
                        long first = (long) index * REGION;
                        ByteBuffer buf = (index % 2 == 0) ? Blocks.aligned(REGION * SIZE) : ByteBuffer.allocate(REGION * SIZE);
                        for (int gen = 1; gen <= 2; gen++) {
                            buf.clear();
                            Blocks.put(buf, ID, first, REGION, gen);
                            buf.flip();
                            while (buf.hasRemaining())
                                ch.write(buf, first * SIZE + buf.position());
                            buf.clear();
                            while (buf.hasRemaining())
                                if (ch.read(buf, first * SIZE + buf.position()) < 0)
                                    throw new AssertionError("end of file at block " + first);
                            for (int i = 0; i < REGION; i++)
                                if (!Blocks.matches(buf, i * SIZE, ID, first + i, gen))
                                    throw new AssertionError("block " + (first + i) + " read back as "
                                                             + Blocks.describe(buf, i * SIZE) + ", not generation " + gen);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                };
                // the last one is a platform thread
                threads.add(index < THREADS ? Thread.ofVirtual().start(task) : Thread.ofPlatform().daemon().start(task));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
            for (Thread t : threads) {
                if (!t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) {
                    IoUringProbe.dumpThreads("FileChannel threads");
                    throw new AssertionError(t + " did not finish its reads and writes within " + WAIT + " s");
                }
            }
            if (failure.get() != null)
                throw new AssertionError("a thread's DIRECT I/O failed", failure.get());
        }
        checkFile(f, ID, (THREADS + 1) * REGION, 2);
        System.out.println("FileChannel: " + THREADS + " virtual threads and a platform thread wrote and read back"
                           + " their blocks twice");
    }

    // Every block of the file, read with buffered I/O, is generation gen
    static void checkFile(Path f, int id, int blocks, long gen) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(f));
        if (all.capacity() != blocks * SIZE)
            throw new AssertionError(f + " is " + all.capacity() + " bytes, not " + blocks * SIZE);
        for (int b = 0; b < blocks; b++)
            if (!Blocks.matches(all, b * SIZE, id, b, gen))
                throw new AssertionError(f + ": block " + b + " holds " + Blocks.describe(all, b * SIZE)
                                         + ", not generation " + gen);
        Files.delete(f);
    }
}
