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
 * @test id=posix_spawn
 * @summary Processes launched while the io_uring engine has DIRECT reads in
 *          flight into the parent's buffers: 32 virtual threads reading one
 *          FileChannel and 64 AsynchronousFileChannel reads outstanding on
 *          the default pool, while 40 children are started one after
 *          another with the JDK's default launch mechanism.  Each child
 *          lists its own /proc/self/fd and holds no io_uring instance and no
 *          other anonymous descriptor of the parent; the ring's descriptor
 *          is close-on-exec in the parent; every block the parent reads
 *          (each into a buffer filled with other bytes first) is the block
 *          on disk, byte for byte; each child is started only once reads
 *          of both kinds are outstanding (started and not returned), so
 *          that every launch overlaps reads; and the parent holds rings
 *          during and after the launches, one for AsynchronousFileChannels
 *          and at most one per carrier.  About 2 s.
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks ReadChain
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.lang.Process.launchMechanism=POSIX_SPAWN IoUringForkExec
 */

/*
 * @test id=fork
 * @summary The same with the FORK launch mechanism, where the child starts
 *          as a copy of the parent's whole address space, the buffers the
 *          kernel is reading into among it: the reads must land in the
 *          parent's pages, not in the child's copies.
 * @requires os.family == "linux"
 * @modules jdk.unsupported jdk.management
 * @library lib /test/lib
 * @build DirectIODir IoUringProbe Blocks ReadChain
 * @run main/othervm --enable-native-access=ALL-UNNAMED
 *      -Djdk.lang.Process.launchMechanism=FORK IoUringForkExec
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.nio.file.ExtendedOpenOption;

import static java.nio.file.StandardOpenOption.*;

public class IoUringForkExec {
    static final int SIZE = Blocks.SIZE;
    static final int BLOCKS = 1024;
    static final int FILE = 3;          // Blocks' file number
    static final int THREADS = 32;
    static final int CHAINS = 64;
    static final int LAUNCHES = 40;
    static final long WAIT = 10;        // seconds, for a child and for the readers to stop
    static final int O_CLOEXEC = 02000000;

    // the threads' reads started, and returned and compared
    static final AtomicLong issued = new AtomicLong();
    static final AtomicLong reads = new AtomicLong();
    static final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        IoUringProbe.Expectation ring = IoUringProbe.expectation();
        System.out.println("engine: " + ring.why() + "; launch mechanism "
                + System.getProperty("jdk.lang.Process.launchMechanism"));
        Path file = Blocks.create(DirectIODir.get().resolve("forkexec"), FILE, BLOCKS);

        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
             AsynchronousFileChannel afc = AsynchronousFileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int seed = t;
                threads.add(Thread.ofVirtual().start(() -> readLoop(fc, seed)));
            }
            List<ReadChain> chains = new ArrayList<>();
            List<CompletableFuture<Long>> ends = new ArrayList<>();
            for (int c = 0; c < CHAINS; c++) {
                ReadChain chain = new ReadChain(afc, FILE, BLOCKS, 1000 + c, Long.MAX_VALUE, true);
                chains.add(chain);
                ends.add(chain.start());
            }
            awaitReads(chains, THREADS + CHAINS);
            ring.check("with the reads under way");
            checkCloseOnExec();

            // Each launch waits until reads are outstanding, so that the
            // overlap is certain rather than likely.  Those reads either
            // return while the child is started and runs, or are still
            // outstanding once it has started (printed below: which one
            // depends on the disk's speed, not on the JDK).
            int landed = 0, spanned = 0;
            int launches = 0;
            for (; launches < LAUNCHES; launches++) {
                Outstanding before = awaitOutstanding(chains, ends, launches);
                if (before == null)
                    break;      // a reader failed: reported below
                Process p = new ProcessBuilder("ls", "-l", "/proc/self/fd").redirectErrorStream(true).start();
                // fewer returned than were started before: one of those is still outstanding
                boolean across = reads.get() < before.issuedByThreads()
                        || readsOf(chains) < before.issuedByChains();
                checkChild(p, launches);
                if (across)
                    spanned++;
                if (reads(chains) > before.returned())
                    landed++;
            }

            stop = true;
            chains.forEach(ReadChain::stop);
            for (Thread t : threads)
                check(t.join(Duration.ofSeconds(WAIT)), t + " still reading " + WAIT + " s after the stop");
            try {
                CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).get(WAIT, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failures.add(e.getCause());
            } catch (TimeoutException e) {
                failures.add(new AssertionError("AFC chains still reading " + WAIT + " s after the stop"));
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " failures; the first is the cause",
                                                      failures.peek());
                failures.stream().skip(1).limit(5).forEach(e::addSuppressed);
                throw e;
            }
            System.out.printf("%d launches, each started with reads of both kinds outstanding; reads returned"
                    + " during %d of them, and were still outstanding once the child had started in %d;"
                    + " %d blocks read and compared%n", launches, landed, spanned, reads(chains));
            ring.check("after the launches");
        }
        Files.delete(file);
    }

    // Checks what child i, which lists its descriptors, holds
    static void checkChild(Process p, int i) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor(WAIT, TimeUnit.SECONDS), "child " + i + " did not exit within " + WAIT + " s");
        check(p.exitValue() == 0, "child " + i + " exited with " + p.exitValue() + ":\n" + out);
        check(out.contains(" 1 -> "), "child " + i + " listed no descriptor 1:\n" + out);
        if (i == 0)
            System.out.println("the first child's descriptors:\n" + out);
        check(!out.contains("anon_inode"), "child " + i + " holds an anonymous descriptor of the parent"
                + " (io_uring, eventfd or epoll):\n" + out);
    }

    // The ring's descriptor must not outlive an exec that skips the JDK's
    // closing of descriptors (a library's own fork and exec)
    static void checkCloseOnExec() throws Exception {
        for (String entry : IoUringProbe.ringFds()) {
            String fd = entry.substring(0, entry.indexOf(' '));
            String info = Files.readString(Path.of("/proc/self/fdinfo", fd));
            String flags = info.lines().filter(l -> l.startsWith("flags:")).findFirst()
                    .orElseThrow(() -> new AssertionError("no flags in /proc/self/fdinfo/" + fd + ":\n" + info));
            int value = Integer.parseInt(flags.substring("flags:".length()).trim(), 8);
            System.out.println("io_uring descriptor " + fd + ": " + flags);
            check((value & O_CLOEXEC) != 0, "io_uring descriptor " + fd + " is not close-on-exec: " + flags);
        }
    }

    // the blocks read and compared so far, by the threads and the chains
    static long reads(List<ReadChain> chains) {
        return reads.get() + readsOf(chains);
    }

    static long readsOf(List<ReadChain> chains) {
        long n = 0;
        for (ReadChain c : chains)
            n += c.reads();
        return n;
    }

    static long issuedOf(List<ReadChain> chains) {
        long n = 0;
        for (ReadChain c : chains)
            n += c.issued();
        return n;
    }

    /**
     * Reads started by the threads and by the chains, and returned by both,
     * at a moment when some of each kind were started and had not
     * returned.
     */
    record Outstanding(long issuedByThreads, long issuedByChains, long returned) { }

    // Waits until a read of a virtual thread (through a carrier's ring) and
    // one of a chain (through the VM's ring) are outstanding; null once a
    // reader has failed, as its last read never returns.  The counts of
    // reads started are taken before those of reads returned, so a
    // difference is a read outstanding from the one to the other.
    static Outstanding awaitOutstanding(List<ReadChain> chains, List<CompletableFuture<Long>> ends, int i)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        for (;;) {
            if (!failures.isEmpty() || ends.stream().anyMatch(CompletableFuture::isDone))
                return null;
            long threads = issued.get(), byChains = issuedOf(chains);
            long threadsDone = reads.get(), chainsDone = readsOf(chains);
            if (threads > threadsDone && byChains > chainsDone)
                return new Outstanding(threads, byChains, threadsDone + chainsDone);
            check(System.nanoTime() < deadline, "launch " + i + ": no read of "
                  + (threads > threadsDone ? "an AsynchronousFileChannel" : "a virtual thread")
                  + " outstanding within " + WAIT + " s");
            Thread.sleep(1);    // polls: a reader starts its next read as soon as it has compared a block
        }
    }

    static void awaitReads(List<ReadChain> chains, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        while (reads(chains) < n && failures.isEmpty() && System.nanoTime() < deadline)
            Thread.sleep(10);   // polling the readers' counts
        check(failures.isEmpty() && reads(chains) >= n, reads(chains) + " reads within " + WAIT
                + " s, fewer than " + n + (failures.isEmpty() ? "" : "; failed: " + failures.peek()));
    }

    static void check(boolean ok, String message) {
        if (!ok)
            throw new AssertionError(message);
    }

    // DIRECT reads of random blocks, each into a spoiled buffer, until stop
    static void readLoop(FileChannel fc, int seed) {
        ByteBuffer buf = Blocks.aligned(SIZE);
        SplittableRandom random = new SplittableRandom(seed);
        try {
            while (!stop && failures.isEmpty()) {
                int b = random.nextInt(BLOCKS);
                Blocks.spoil(buf);
                issued.incrementAndGet();
                Blocks.check(buf, fc.read(buf, (long) b * SIZE), FILE, b, 1);
                reads.incrementAndGet();
            }
        } catch (Throwable e) {
            failures.add(e);
        }
    }
}
