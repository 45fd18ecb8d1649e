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
 * @test id=leak
 * @summary Open/connect/accept/close cycles of RDMA socket
 *          channels leave the process's descriptors, threads, pinned
 *          memory, malloc's memory in use and resident memory flat;
 *          ProcessBuilder.start() (the default launch mechanism) while RDMA
 *          connections are open does not break them.  Runs in the
 *          Soft-RoCE guest: 4,000 cycles after 500 warm-up cycles (about
 *          23 ms a cycle under TCG on a quiet machine, 28 in CI: about
 *          2 minutes in all).  -Drdio.rdma.cycles=N runs N cycles
 *          (the extended run's 10,000 took 5 minutes in CI).  At any
 *          count a descriptor or a thread left a cycle fails it, a page
 *          pinned a cycle from 257 cycles on; malloc's bytes in use may
 *          grow 3 MiB + 64 B a cycle and resident memory 8 MiB + 1 KiB
 *          a cycle (at most 16 MiB), so from 4,000 cycles a leak of
 *          1 KiB of malloc's, or of a page mapped, a cycle fails it.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=1800 --enable-native-access=ALL-UNNAMED -Xms64m -Xmx64m -XX:+AlwaysPreTouch
 *      -Drdio.rdma.caseTimeout=1500 RdmaLeak leak
 */

/*
 * @test id=fork
 * @summary ProcessBuilder.start() with the FORK launch
 *          mechanism (a real fork, which copies the page tables of memory
 *          the RDMA device uses) while RDMA connections are open, and
 *          while data flows on them, does not break them: every byte
 *          echoed during the forks is compared, and libibverbs' fork
 *          support is enabled unless the kernel reports copy-on-fork.  Runs
 *          in the Soft-RoCE guest.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm --enable-native-access=ALL-UNNAMED -Djdk.lang.Process.launchMechanism=FORK RdmaLeak fork
 */

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import jdk.net.Sockets;
import jdk.test.lib.Utils;

import static jdk.test.lib.Asserts.*;

public class RdmaLeak {
    // past the 3,700 cycles from which the bounds below fail a leak of 1 KiB (malloc) or a page (mapped) a cycle
    static final int CYCLES = Integer.getInteger("rdio.rdma.cycles", 4_000);
    static final int WARMUP = 500;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("leak")) {
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("ProcessBuilder while connections are open", RdmaLeak::processBuilder),
                    new RdmaTestLib.Case(CYCLES + " open/connect/close cycles", RdmaLeak::cycles)));
        } else {
            System.out.println("launchMechanism " + System.getProperty("jdk.lang.Process.launchMechanism"));
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("ProcessBuilder (FORK) while connections are open",
                            RdmaLeak::processBuilder)));
        }
    }

    /*
     * On Linux 5.10 a few connects in 100,000 of this loop are refused by
     * the connection manager, for a reason not yet known (doc/testing.md,
     * "Connects refused on Linux 5.10"); none has been on 6.1.  This test
     * is about what the cycles leave behind, so a failed connect is logged
     * and made again with a new channel, and more than one in 1,000 fails
     * it.  Should the listener accept a connection whose connect failed,
     * that socket is logged, closed, and counted too.
     */
    static final List<String> FAILED_CONNECTS = new java.util.ArrayList<>();

    static void cycle(ServerSocketChannel ssc, InetSocketAddress addr, ByteBuffer one) throws Exception {
        try (SocketChannel sc = connect(addr)) {
            SocketAddress local = sc.getLocalAddress();
            try (SocketChannel peer = accept(ssc, local)) {
                sc.write(one.clear());
                assertEquals(1, peer.read(one.clear()), "bytes read of the one sent");
            }
        }
    }

    static SocketChannel accept(ServerSocketChannel ssc, SocketAddress remote) throws Exception {
        SocketChannel peer;
        while (!(peer = ssc.accept()).getRemoteAddress().equals(remote)) {
            FAILED_CONNECTS.add("accepted " + peer.getRemoteAddress() + ", whose connect failed");
            RdmaTestLib.log("  " + FAILED_CONNECTS.getLast());
            peer.close();
        }
        return peer;
    }

    static SocketChannel connect(InetSocketAddress addr) throws Exception {
        while (true) {
            SocketChannel sc = Sockets.openRdmaSocketChannel();
            try {
                sc.connect(addr);
                return sc;
            } catch (ConnectException e) {
                sc.close();
                FAILED_CONNECTS.add(e.toString());
                RdmaTestLib.log("  connect failed, made again: " + e);
                assertLessThanOrEqual(FAILED_CONNECTS.size(), CYCLES / 1000 + 1,
                        "failed connects and accepted sockets of failed connects: " + FAILED_CONNECTS);
            } catch (Throwable e) {
                sc.close();
                throw e;
            }
        }
    }

    static String snapshot(Memory m) throws Throwable {
        return "fds " + RdmaTestLib.fdCount() + ", threads " + RdmaTestLib.status("Threads") + ", " + m
                + ", VmPin " + RdmaTestLib.status("VmPin") + " kB, VmLck " + RdmaTestLib.status("VmLck") + " kB";
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MALLOC_TRIM = LINKER.downcallHandle(
            LINKER.defaultLookup().find("malloc_trim").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    // glibc's struct mallinfo2: ten size_t
    private static final StructLayout MALLINFO2 = MemoryLayout.structLayout(
            Stream.of("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                      "fsmblks", "uordblks", "fordblks", "keepcost")
                  .map(ValueLayout.JAVA_LONG::withName).toArray(MemoryLayout[]::new));
    private static final MethodHandle MALLINFO2_FN = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mallinfo2").orElseThrow(),
            FunctionDescriptor.of(MALLINFO2));

    /*
     * The process's native memory, read so that a transient peak is not
     * taken for a leak.  malloc's bytes in use (mallinfo2, every arena)
     * count what librdmacm, libibverbs and the JDK hold, and nothing they
     * freed.  Resident memory counts mappings too, but memory freed to
     * malloc stays resident until malloc_trim(0) gives it back, and a
     * System.gc() leaves 22 to 24 MB of it, a compilation up to 7 MB: it
     * is read after the trim.
     */
    record Memory(long rssKb, long trimmedRssKb, long mallocKb) {
        static Memory read() throws Throwable {
            long rss = RdmaTestLib.status("VmRSS");
            int unused = (int) MALLOC_TRIM.invokeExact(0L);
            long trimmed = RdmaTestLib.status("VmRSS");
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment mi = (MemorySegment) MALLINFO2_FN.invokeExact((SegmentAllocator) arena);
                long inUse = field(mi, "uordblks") + field(mi, "hblkhd");  // small and mmapped blocks
                return new Memory(rss, trimmed, inUse / 1024);
            }
        }

        private static long field(MemorySegment mi, String name) {
            return mi.get(ValueLayout.JAVA_LONG, MALLINFO2.byteOffset(MemoryLayout.PathElement.groupElement(name)));
        }

        Memory min(Memory m) {
            return new Memory(Math.min(rssKb, m.rssKb), Math.min(trimmedRssKb, m.trimmedRssKb),
                              Math.min(mallocKb, m.mallocKb));
        }

        @Override
        public String toString() {
            return "VmRSS " + rssKb + " kB (" + trimmedRssKb + " after malloc_trim), malloc " + mallocKb + " kB";
        }
    }

    static void cycles() throws Throwable {
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            InetSocketAddress addr = (InetSocketAddress) ssc.getLocalAddress();
            ByteBuffer one = ByteBuffer.allocateDirect(1);
            long t0 = System.nanoTime();
            for (int i = 0; i < WARMUP; i++)
                cycle(ssc, addr, one);
            RdmaTestLib.log(String.format("  %d warm-up cycles in %.1f s", WARMUP, (System.nanoTime() - t0) / 1e9));
            System.gc();
            int fds0 = RdmaTestLib.fdCount();
            long pin0 = RdmaTestLib.status("VmPin") + RdmaTestLib.status("VmLck");
            long threads0 = RdmaTestLib.status("Threads");
            Memory lowest = Memory.read();
            RdmaTestLib.log("  after warm-up: " + snapshot(lowest));
            t0 = System.nanoTime();
            int logEvery = Math.max(1, CYCLES / 10);
            for (int i = 1; i <= CYCLES; i++) {
                cycle(ssc, addr, one);
                if (i % logEvery == 0) {
                    Memory m = Memory.read();
                    lowest = lowest.min(m);
                    RdmaTestLib.log(String.format("  %d cycles, %.1f s: %s", i, (System.nanoTime() - t0) / 1e9, snapshot(m)));
                }
            }
            // malloc's bytes in use may grow by 3 MiB and 64 bytes a cycle
            // over their lowest reading.  They grew 0.5 to 1.4 MB in four
            // runs, at 1,000 cycles as at 10,000 (doc/testing.md, "Native
            // memory over the leak loop"): the noise does not grow with
            // the count.  The lowest reading may be the first tenth's, after
            // a tenth of a leak's growth, so a leak of L kB a cycle fails
            // where 0.9 * CYCLES * L exceeds the bound: 1 KiB a cycle from
            // 4,000 cycles (3.2 MiB allowed, 3.5 MiB leaked), a page a
            // cycle from 1,000 (3.1 MiB allowed, 3.5 MiB leaked).
            long mallocMax = lowest.mallocKb() + 3 * 1024 + CYCLES / 16;
            // Resident memory after malloc_trim, which also grows with the
            // code the JIT adds (1.7 to 5.7 MB at 10,000 cycles, 0.6 to 1.7
            // MB at 1,000), may grow by 8 MiB and 1 KiB a cycle, at most
            // 16 MiB: a leak of a page mapped a cycle (what a mapping
            // leaks at the least) fails from 4,000 cycles, as from 10,000.
            long rssMax = lowest.trimmedRssKb() + Math.min(16 * 1024, 8 * 1024 + CYCLES);
            System.gc();
            // rsockets' service threads exit, and close their descriptors,
            // a moment after the last socket closes; a compilation that is
            // under way ends and frees its arena
            AtomicReference<Memory> last = new AtomicReference<>();
            Utils.waitForCondition(() -> {
                try {
                    Memory m = Memory.read();
                    last.set(m);
                    return RdmaTestLib.fdCount() <= fds0 + 2 && RdmaTestLib.status("Threads") <= threads0 + 2
                            && m.mallocKb() <= mallocMax && m.trimmedRssKb() <= rssMax;
                } catch (Throwable e) {
                    throw new AssertionError(e);
                }
            }, Utils.adjustTimeout(10_000), 50);
            int fds1 = RdmaTestLib.fdCount();
            long pin1 = RdmaTestLib.status("VmPin") + RdmaTestLib.status("VmLck");
            long threads1 = RdmaTestLib.status("Threads");
            Memory mem1 = last.get();
            RdmaTestLib.log("  after " + CYCLES + " cycles: " + snapshot(mem1) + "; lowest: " + lowest);
            RdmaTestLib.log("  failed connects, and accepted sockets of failed connects: " + FAILED_CONNECTS.size()
                    + " " + FAILED_CONNECTS);
            assertLessThanOrEqual(fds1, fds0 + 2, "descriptors after the cycles (" + fds0 + " before)");
            assertLessThanOrEqual(threads1, threads0 + 2, "threads after the cycles (" + threads0 + " before)");
            assertLessThanOrEqual(pin1, pin0 + 1024, "pinned kB after the cycles (" + pin0 + " before)");
            assertLessThanOrEqual(mem1.mallocKb(), mallocMax,
                    "malloc's kB in use after the cycles (" + lowest.mallocKb() + " at the lowest)");
            assertLessThanOrEqual(mem1.trimmedRssKb(), rssMax,
                    "resident kB after malloc_trim after the cycles (" + lowest.trimmedRssKb() + " at the lowest)");
        }
    }

    /*
     * Since Linux 5.13 the kernel says (rdma_nl's copy-on-fork) that a fork
     * copies pinned pages for the child at once, so the parent keeps the
     * pages its device uses.  Where it does not say so, libibverbs treats
     * the kernel as unsafe, and the JDK must have enabled libibverbs' fork
     * support (ibv_fork_init) before the first registration, so that
     * registered memory is left out of a child (MADV_DONTFORK).  The echoes
     * below cannot fail on a kernel that copies pinned pages, which every
     * kernel since 5.9 does; this check fails where the kernel does not say
     * so and the JDK did not enable fork support.  make test-rdio runs this
     * test on such a kernel (test/infra/rdma-guest/rdma-guest.conf, GUEST_OLD_KERNEL) as well.
     * The count of MADV_DONTFORK mappings is logged, not checked: on Linux
     * 5.10 rsockets' buffers showed none although fork support was enabled.
     */
    static void checkForkSafety(long dontFork0) throws Throwable {
        String rdma = java.util.stream.Stream.of("/usr/bin/rdma", "/usr/sbin/rdma", "/sbin/rdma")
                .filter(f -> Files.isExecutable(Path.of(f))).findFirst()
                .orElseThrow(() -> new AssertionError("no rdma(8) of iproute2"));
        Process p = new ProcessBuilder(rdma, "system", "show").redirectErrorStream(true).start();
        String system = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(0, p.waitFor(), "exit status of rdma system show; its output: " + system);
        boolean copyOnFork = system.contains("copy-on-fork on");
        long dontFork = dontForkMappings();
        int status = forkStatus();
        RdmaTestLib.log("  kernel " + System.getProperty("os.version") + ", rdma system: " + system
                + "; ibv_is_fork_initialized: " + status + "; memory mappings marked MADV_DONTFORK: "
                + dontFork0 + " before the connection, " + dontFork + " with it");
        assertEquals(copyOnFork ? IBV_FORK_UNNEEDED : IBV_FORK_ENABLED, status,
                "libibverbs' fork status (0 disabled, 1 enabled, 2 unneeded) where the kernel "
                + (copyOnFork ? "reports" : "does not report") + " copy-on-fork");
    }

    static final int IBV_FORK_ENABLED = 1;
    static final int IBV_FORK_UNNEEDED = 2;

    // ibv_is_fork_initialized() of the libibverbs that librdmacm loaded
    static int forkStatus() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup verbs = SymbolLookup.libraryLookup("libibverbs.so.1", arena);
            MethodHandle h = Linker.nativeLinker().downcallHandle(
                    verbs.find("ibv_is_fork_initialized").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT));
            return (int) h.invokeExact();
        }
    }

    /*
     * The process's memory mappings that a fork leaves out of the child
     * ("dd" in smaps' VmFlags), but for those of device files: the kernel
     * leaves out the device's queues that the verbs library maps whatever
     * the fork support.
     */
    private static final java.util.regex.Pattern MAPPING = java.util.regex.Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    static long dontForkMappings() throws IOException {
        long n = 0;
        boolean device = false;
        for (String l : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (MAPPING.matcher(l).lookingAt()) {
                // address perms offset dev inode [path]
                String[] f = l.trim().split("\\s+", 6);
                device = f.length == 6 && f[5].startsWith("/dev/");
            } else if (l.startsWith("VmFlags:") && !device
                    && List.of(l.substring(8).trim().split(" ")).contains("dd")) {
                n++;
            }
        }
        return n;
    }

    static void processBuilder() throws Throwable {
        long dontFork0 = dontForkMappings();
        try (ServerSocketChannel ssc = Sockets.openRdmaServerSocketChannel()) {
            ssc.bind(RdmaTestLib.anyPort());
            try (SocketChannel sc = Sockets.openRdmaSocketChannel()) {
                sc.connect(ssc.getLocalAddress());
                try (SocketChannel peer = ssc.accept()) {
                    RdmaTestLib.echo(sc, peer, 1 << 20, 0);
                    checkForkSafety(dontFork0);
                    for (int i = 0; i < 5; i++) {
                        Process p = new ProcessBuilder("/bin/sh", "-c", "echo child $$").inheritIO().start();
                        assertEquals(0, p.waitFor(), "child exit status");
                        // the connection still carries data both ways, the sent buffers unchanged
                        RdmaTestLib.echo(sc, peer, 1 << 20, i + 1);
                    }
                    // a child alive while data flows
                    Process sleeper = new ProcessBuilder("/bin/sleep", "2").start();
                    RdmaTestLib.echo(sc, peer, 1 << 20, 100);
                    assertEquals(0, sleeper.waitFor(), "sleeper exit status");
                    RdmaTestLib.echo(sc, peer, 1 << 20, 101);
                    // Processes started while data flows: a fork copies the
                    // page tables of the registered buffers that rsockets is
                    // writing into, and a kernel without fork safety for
                    // pinned pages (before Linux 5.13, or libibverbs without
                    // ibv_fork_init there) then gives the parent's next write
                    // a copy of the page that the device no longer sends from,
                    // and the peer gets stale bytes: echo compares them all.
                    AtomicReference<Throwable> spawnFailure = new AtomicReference<>();
                    AtomicBoolean echoing = new AtomicBoolean(true);
                    int[] spawned = new int[1];
                    Thread spawner = Thread.ofPlatform().start(() -> {
                        try {
                            while (echoing.get()) {
                                Process p = new ProcessBuilder("/bin/true").start();
                                assertEquals(0, p.waitFor(), "child exit status");
                                spawned[0]++;
                            }
                        } catch (Throwable e) {
                            spawnFailure.set(e);
                        }
                    });
                    try {
                        for (int i = 0; i < 20; i++)
                            RdmaTestLib.echo(sc, peer, 1 << 20, 200 + i);
                    } finally {
                        echoing.set(false);
                        spawner.join();
                    }
                    if (spawnFailure.get() != null)
                        throw new AssertionError("starting a process failed", spawnFailure.get());
                    RdmaTestLib.log("  20 MiB echoed while " + spawned[0] + " processes were started");
                    assertGreaterThan(spawned[0], 0, "processes started during the echoes");
                }
            }
        }
    }
}
