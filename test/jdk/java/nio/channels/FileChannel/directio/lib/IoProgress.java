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
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A wait for something that depends on this process's I/O, bounded by
 * progress rather than by time alone, so that it holds on a disk that
 * other processes keep busy, and fails soon when a completion is lost or
 * the threads awaited do not run.
 *
 * <p> Progress is a change in the caller's count of what it waits for
 * (operations ended, threads that did their first I/O), or, without one,
 * only the event itself.  A wait without progress for {@link #STALL}
 * seconds looks at where this process's I/O is, as the kernel shows it
 * ({@code /proc/self/fdinfo} of each io_uring descriptor, Linux 5.19 and
 * later, and {@code /proc/self/task}):
 * <ul>
 * <li> completions the kernel posted that the engine has not reaped in all
 *      that time: the engine lost them, and the wait fails;
 * <li> I/O in the kernel (submitted to a ring and not completed, or a
 *      thread of the process in uninterruptible sleep, such as a pread or
 *      an io_uring worker waiting for a journal commit), while the disks of
 *      the machine complete I/O: a slow, shared disk, not a stall, so the
 *      wait goes on, for at most {@link #LIMIT} seconds in all;
 * <li> the same, with no disk completing anything: the device is stuck,
 *      and the wait fails;
 * <li> no I/O in the kernel and nothing to reap: the JDK lost a completion
 *      or a wake-up, or does not schedule the threads awaited, and the wait
 *      fails.
 * </ul>
 * The failure says which, with the rings' counts, the threads waiting in
 * the kernel, the caller's details (such as the states of the threads
 * awaited) and a thread dump.
 */
public final class IoProgress {
    /** Seconds without progress after which a wait fails, unless its I/O is in the kernel of a busy machine. */
    public static final long STALL = 10;

    /** Seconds a wait may last in all while its I/O is in the kernel of a busy machine. */
    public static final long LIMIT = 120;

    // How long the wait looks for the event itself between looks at the
    // I/O; the event ends the wait as soon as it comes
    private static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private IoProgress() { }

    /** A wait for an event, for at most nanos; returns whether it came. */
    public interface Wait {
        boolean await(long nanos) throws Exception;
    }

    /**
     * Waits for the event; throws AssertionError, naming what, with where
     * this process's I/O is, the caller's details and a thread dump, once
     * the wait cannot be put down to a slow disk (see above).  progress is
     * a count that changes as what is awaited goes on, or null.
     */
    public static void await(String what, Wait event, LongSupplier progress, Supplier<String> details)
            throws Exception {
        long start = System.nanoTime();
        if (event.await(LOOK_NANOS))
            return;
        long stall = TimeUnit.SECONDS.toNanos(STALL);
        long lastProgress = start, lastDisk = start;
        Map<Integer, Long> lastReap = new HashMap<>();     // by ring descriptor
        long count = (progress != null) ? progress.getAsLong() : 0;
        State state = State.now();
        boolean told = false;
        while (!event.await(LOOK_NANOS)) {
            long now = System.nanoTime();
            State s = State.now();
            long c = (progress != null) ? progress.getAsLong() : 0;
            if (c != count)
                lastProgress = now;
            if (s.diskIos != state.diskIos)
                lastDisk = now;
            for (Ring r : s.rings) {
                Ring b = state.ring(r.fd);
                if (r.unreaped() == 0 || b == null || b.cqHead != r.cqHead)
                    lastReap.put(r.fd, now);
            }
            lastReap.keySet().retainAll(s.rings.stream().map(Ring::fd).toList());
            long oldestReap = lastReap.values().stream().mapToLong(Long::longValue).min().orElse(now);
            count = c;
            state = s;
            String verdict = null;
            boolean over = now - start > TimeUnit.SECONDS.toNanos(LIMIT);
            if (over && now - lastProgress <= stall) {
                verdict = "still going on after " + LIMIT + " s, with progress: a slow disk or machine";
            } else if (now - lastProgress > stall || over) {
                if (now - oldestReap > stall) {
                    verdict = "completions of I/O posted in an io_uring instance of this process, and the"
                            + " ring reaped none for " + STALL + " s: the engine lost them";
                } else if (!s.inKernel()) {
                    verdict = "no I/O of this process in the kernel and no completion to reap"
                            + (s.ringsKnown ? "" : " (as far as this kernel shows: its fdinfo has no ring heads)")
                            + ": the JDK lost a completion or a wake-up, or does not schedule the threads"
                            + " awaited";
                } else if (now - lastDisk > stall) {
                    verdict = "I/O of this process still in the kernel, and no disk of the machine"
                            + " completed any I/O for " + STALL + " s: the device is stuck, not the JDK";
                } else if (over) {
                    verdict = "I/O of this process still in the kernel after " + LIMIT + " s, while the"
                            + " machine's disks completed other I/O: a slow disk (or the awaited I/O was"
                            + " lost while other I/O of this process is in the kernel)";
                }
            }
            if (verdict == null && !told && now - lastProgress > stall) {
                // the wait goes on: where the I/O is, for the log
                System.out.printf("%s: no progress for %d s, I/O of this process in the kernel while the"
                        + " disks work; waiting on, up to %d s in all: %s%n", what, STALL, LIMIT, s.describe());
                told = true;
            }
            if (verdict != null) {
                IoUringProbe.dumpThreads(what);
                String d = (details != null) ? details.get() : "";
                throw new AssertionError(String.format("%s: not done after %.1f s, %.1f s since the last"
                        + " progress: %s%n  %s%s", what, (now - start) / 1e9, (now - lastProgress) / 1e9,
                        verdict, s.describe(), d.isEmpty() ? "" : "\n  " + d));
            }
        }
        long took = System.nanoTime() - start;
        if (took > stall)
            System.out.printf("%s took %.1f s, with progress at least every %d s or its I/O in the kernel"
                              + " of a busy machine%n", what, took / 1e9, STALL);
    }

    /**
     * One io_uring instance of this process as the kernel shows it; wakeUps
     * of its completions not reaped are the engine's wake-ups, not I/O.
     */
    record Ring(int fd, int sqHead, int sqTail, int cqHead, int cqTail, int wakeUps, int overflow) {
        // entries taken by the kernel and not completed, a ring's standing
        // wait for its wake-up among them
        int inFlight() {
            return sqHead - cqTail - overflow;
        }

        // completions of I/O posted and not reaped
        int unreaped() {
            return cqTail - cqHead + overflow - wakeUps;
        }

        @Override
        public String toString() {
            return "ring " + fd + ": " + inFlight() + " taken and not completed (a wait for a wake-up"
                    + " counts as one), " + unreaped() + " I/O completed and not reaped, "
                    + (sqTail - sqHead) + " not yet taken";
        }
    }

    /** This process's I/O as the kernel shows it, and the disks' count of completed I/O. */
    record State(boolean ringsKnown, List<Ring> rings, List<String> waiting, long diskIos) {
        static State now() throws IOException {
            List<Ring> rings = new ArrayList<>();
            boolean known = true;
            for (String entry : IoUringProbe.ringFds()) {
                int fd = Integer.parseInt(entry.substring(0, entry.indexOf(' ')));
                List<String> info;
                try {
                    info = Files.readAllLines(Path.of("/proc/self/fdinfo", Integer.toString(fd)));
                } catch (IOException e) {
                    continue;   // closed since the listing: a carrier's ring, as its carrier ended
                }
                Ring r = IoProgress.ring(fd, info);
                if (r == null) {
                    known = false;
                } else {
                    rings.add(r);
                }
            }
            return new State(known, rings, uninterruptible(), completedDiskIos());
        }

        Ring ring(int fd) {
            for (Ring r : rings) {
                if (r.fd == fd)
                    return r;
            }
            return null;
        }

        // More in flight in a ring than its wait for a wake-up, or a thread
        // of the process in uninterruptible sleep
        boolean inKernel() {
            return rings.stream().anyMatch(r -> r.inFlight() > 1) || !waiting.isEmpty();
        }

        String describe() {
            return (rings.isEmpty() ? (ringsKnown ? "no io_uring instance" : "rings not shown by this kernel")
                                    : String.join("; ", rings.stream().map(Ring::toString).toList()))
                    + "; threads in uninterruptible sleep: " + (waiting.isEmpty() ? "none" : waiting);
        }
    }

    // The kernel's view of ring fd from its fdinfo, or null where that lacks
    // the heads and tails (before 5.19)
    private static Ring ring(int fd, List<String> lines) {
        long sqHead = -1, sqTail = -1, cqHead = -1, cqTail = -1;
        int wakeUps = 0, overflow = 0;
        String section = "";
        for (String line : lines) {
            if (!line.startsWith(" ") && !line.startsWith("\t")) {
                int colon = line.indexOf(':');
                String key = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1).trim();
                section = key;
                switch (key) {
                    case "SqHead" -> sqHead = Long.parseLong(value);
                    case "SqTail" -> sqTail = Long.parseLong(value);
                    case "CqHead" -> cqHead = Long.parseLong(value);
                    case "CqTail" -> cqTail = Long.parseLong(value);
                    default -> { }
                }
            } else if (section.equals("CQEs") && WAKE_UP.matcher(line).find()) {
                wakeUps++;
            } else if (section.equals("CqOverflowList")) {
                overflow++;
            }
        }
        if (sqHead < 0 || sqTail < 0 || cqHead < 0 || cqTail < 0)
            return null;
        // the kernel's counters are 32 bits, and wrap: differences are taken as int
        return new Ring(fd, (int) sqHead, (int) sqTail, (int) cqHead, (int) cqTail, wakeUps, overflow);
    }

    // A completion in fdinfo of the engine's wake-ups, whose user data is
    // -1 (a carrier's ring) or -2 (the VM's ring), printed unsigned
    private static final Pattern WAKE_UP = Pattern.compile("user_data:1844674407370955161[45]\\b");

    // This process's threads in uninterruptible sleep (state D), each as
    // "name (tid) in kernel-function"
    private static List<String> uninterruptible() throws IOException {
        List<String> waiting = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    if (close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'D')
                        continue;
                    String name = stat.substring(stat.indexOf('(') + 1, close);
                    String wchan;
                    try {
                        wchan = Files.readString(task.resolve("wchan")).trim();
                    } catch (IOException e) {
                        wchan = "?";
                    }
                    waiting.add(name + " (" + task.getFileName() + ") in " + (wchan.isEmpty() ? "?" : wchan));
                } catch (IOException e) {
                    // the thread ended since the listing
                }
            }
        }
        return waiting;
    }

    // The I/Os that every block device has completed: reads, writes,
    // discards and flushes in /proc/diskstats
    private static long completedDiskIos() throws IOException {
        long n = 0;
        for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
            String[] f = line.trim().split("\\s+");
            for (int i : new int[] {3, 7, 14, 18}) {
                if (i < f.length)
                    n += Long.parseLong(f[i]);
            }
        }
        return n;
    }
}
