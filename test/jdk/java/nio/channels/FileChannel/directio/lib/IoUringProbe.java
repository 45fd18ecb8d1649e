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
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.sun.management.HotSpotDiagnosticMXBean;

import static java.lang.foreign.ValueLayout.*;

/**
 * What the io_uring tests observe of the JDK's io_uring engine from
 * outside: the io_uring instances the process holds (entries of
 * /proc/self/fd whose link is {@code anon_inode:[io_uring]}), and whether
 * this process may set one up at all, asked of the kernel directly with
 * io_uring_setup(2) through the FFM API, so that the answer covers every
 * reason there can be for "no": a kernel without io_uring, the sysctl
 * kernel.io_uring_disabled, a seccomp filter (containers often have one).
 * Callers need --enable-native-access=ALL-UNNAMED.
 */
public final class IoUringProbe {
    /** The link target of an io_uring file descriptor in /proc/self/fd. */
    public static final String RING_LINK = "anon_inode:[io_uring]";

    /** The system property that turns the engine off (false); it is on by default. */
    public static final String PROPERTY = "jdk.nio.useIoUring";

    /**
     * How many other positional I/Os of virtual threads the engine wants in
     * progress before one goes to its carrier's ring
     * (sun.nio.ch.IoUringFileDispatcher.VIRTUAL_MIN_OVERLAP).  Below it the
     * I/O blocks its carrier, compensated, as on JDK 25, so at most this
     * many carriers are blocked in it at a time, and the scheduler adds at
     * most this many carriers for it.
     */
    public static final int VIRTUAL_MIN_OVERLAP = 4;

    public static final int EPERM = 1;
    public static final int ENOSYS = 38;

    // the same number on every architecture (io_uring came after the tables were unified)
    public static final long SYS_IO_URING_SETUP = 425;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURED = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURED.varHandle(PathElement.groupElement("errno"));
    // long syscall(long number, ...), with errno captured
    private static final MethodHandle SYSCALL2 = LINKER.downcallHandle(
            LINKER.defaultLookup().find("syscall").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS),
            Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private IoUringProbe() { }

    /**
     * The entries of /proc/self/fd that are io_uring instances, each as
     * "FD -> anon_inode:[io_uring]".
     */
    public static List<String> ringFds() throws IOException {
        List<String> rings = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (NoSuchFileException e) {
                    continue;   // closed since the listing, like the listing's own
                }
                if (target.equals(RING_LINK))
                    rings.add(fd.getFileName() + " -> " + target);
            }
        }
        return rings;
    }

    /** kernel.io_uring_disabled, or "absent" where the kernel has no such sysctl. */
    public static String sysctl() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/io_uring_disabled")).trim();
        } catch (IOException e) {
            return "absent";
        }
    }

    /**
     * io_uring_setup(entries, params) through syscall(2): the file
     * descriptor, or minus the errno.  The caller closes a descriptor.
     */
    public static long setup(int entries) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURED);
            MemorySegment params = arena.allocate(120, 8);   // struct io_uring_params, zeroed
            long r = (long) SYSCALL2.invokeExact(state, SYS_IO_URING_SETUP, (long) entries, params);
            return r >= 0 ? r : -(int) ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw new AssertionError("io_uring_setup through the FFM API", t);
        }
    }

    /**
     * Sets up an io_uring instance and closes it again: 0 if the kernel
     * let this thread set one up, else the errno (ENOSYS: no io_uring in
     * the kernel, or a filter that says so; EPERM: the sysctl or a filter).
     */
    public static int setupErrno() {
        long r = setup(8);
        if (r < 0)
            return (int) -r;
        try {
            if ((int) CLOSE.invokeExact((int) r) != 0)
                throw new AssertionError("close of the probe's io_uring descriptor " + r + " failed");
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        return 0;
    }

    /** Whether the engine is off in this VM: it is with -Djdk.nio.useIoUring=false. */
    public static boolean turnedOff() {
        return "false".equalsIgnoreCase(System.getProperty(PROPERTY));
    }

    /**
     * The virtual thread scheduler's parallelism: the system property
     * jdk.virtualThreadScheduler.parallelism, or the CPUs.
     */
    public static int parallelism() {
        return Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                                  Runtime.getRuntime().availableProcessors());
    }

    /**
     * What the engine should be doing in this VM, for messages, and
     * whether it should hold a ring: not turned off, io_uring_setup works
     * here, and the kernel is 5.6 or later; and whether carriers should
     * hold rings too: the scheduler has no more carriers than there are
     * CPUs.  Call it before the ring is set up or after; the probe's own
     * ring is closed before it returns.
     */
    public static Expectation expectation() {
        int errno = setupErrno();
        boolean off = turnedOff();
        // IORING_OP_READ and IORING_OP_WRITE, which the engine needs, came in 5.6
        boolean ops = DirectIODir.kernelAtLeast(5, 6);
        int parallelism = parallelism();
        int cpus = Runtime.getRuntime().availableProcessors();
        String why = "-D" + PROPERTY + "=" + System.getProperty(PROPERTY, "(unset)")
                + ", kernel.io_uring_disabled " + sysctl()
                + ", io_uring_setup in this process " + (errno == 0 ? "works" : "fails with errno " + errno)
                + ", Linux " + System.getProperty("os.version") + (ops ? "" : " (before 5.6: no IORING_OP_READ)")
                + ", scheduler parallelism " + parallelism + " on " + cpus + " CPUs"
                + (parallelism > cpus ? " (more carriers than CPUs: no carrier rings)" : "");
        boolean ring = !off && errno == 0 && ops;
        return new Expectation(ring, ring && parallelism <= cpus, why);
    }

    /**
     * The carrier threads of virtual threads alive now: each may hold an
     * io_uring of its own, which it closes before it ends.
     */
    public static int carriers() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getClass().getName().equals("jdk.internal.misc.CarrierThread"))
                n++;
        }
        return n;
    }

    /**
     * Whether the engine should hold rings, whether its carriers should
     * hold rings too, and why.
     */
    public record Expectation(boolean ring, boolean carrierRings, String why) {
        /**
         * Fails unless the process holds io_uring descriptors where the
         * engine should be in use, and none otherwise.  In use, it holds
         * one for AsynchronousFileChannels and one per carrier thread whose
         * virtual threads did I/O, so at least one and at most one more
         * than there are carriers; at most one where carriers hold none.
         */
        public void check(String when) throws IOException {
            List<String> rings = ringFds();
            int carriers = carriers();
            System.out.println("io_uring descriptors " + when + ": " + rings.size() + " " + rings
                    + ", carrier threads " + carriers + " (" + why + ")");
            int least = carrierRings ? 1 : 0;
            int most = carrierRings ? carriers + 1 : 1;
            if (ring && (rings.size() < least || rings.size() > most))
                throw new AssertionError("the io_uring engine should be in use " + when
                        + ", so the process should hold from " + least + " to " + most + " "
                        + RING_LINK + " descriptors (one for AsynchronousFileChannels"
                        + (carrierRings ? ", one per carrier thread" : "") + "); it holds "
                        + rings + " (" + why + ")");
            if (!ring && !rings.isEmpty())
                throw new AssertionError("the io_uring engine should not be in use " + when
                        + ", yet the process holds " + rings + " (" + why + ")");
        }
    }

    /** Prints the stack of every thread, virtual threads included. */
    public static void dumpThreads(String why) {
        System.out.println("thread dump (" + why + "):");
        try {
            Path file = Files.createTempFile(Path.of("").toAbsolutePath(), "threads", ".txt");
            Files.delete(file);     // dumpThreads will not overwrite
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            System.out.println(Files.readString(file));
            Files.delete(file);
        } catch (IOException | RuntimeException e) {
            System.out.println("no thread dump: " + e);
        }
    }
}
