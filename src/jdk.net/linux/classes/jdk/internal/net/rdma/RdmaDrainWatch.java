/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package jdk.internal.net.rdma;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import sun.nio.ch.NativeThread;

/**
 * Bounds the waits that rshutdown and rclose make for the transport.
 *
 * <p> rshutdown of a connected rsocket sends a control message and then
 * waits, blocking, in a read of the socket's completion channel until every
 * send has completed (rsocket.c, rs_process_cq); rclose calls it.  Once the
 * socket is SETTLED (RdmaReaper) that takes the transport's round trip.  But
 * a send the peer's device never acknowledges completes only when the
 * transport gives up, after rsockets' retry_count of 7 retries, and Soft-RoCE
 * never gives up at that count (rxe_comp.c lowers a queue pair's count only
 * while it is not 7): against a machine that vanished the call would wait for
 * good.  Nothing in rsockets can end it: rshutdown makes the socket blocking
 * first, and the queue pair it could fail is not reachable from the socket's
 * number.
 *
 * <p> So each such call is watched.  Its thread is sampled every
 * {@link #SAMPLE_MILLIS} ms through /proc: once it has slept in a read of an
 * RDMA completion channel ("anon_inode:[infinibandevent]") with no wakeup
 * in between (its voluntary context switches unchanged) for
 * {@link #STALL_NANOS}, the time within which a transport that follows the
 * specification gives up, the socket is marked stalled and the thread is
 * sent NIO's interrupt signal (NativeThread.signal).  rsockets takes the
 * read's EINTR as the end of that wait (rs_get_cq_event), and rshutdown
 * returns; the rclose that follows is sampled the same way and signalled at
 * its first such read.  The unacknowledged bytes are dropped, as a failed
 * transport drops them.
 *
 * <p> A signal is sent only to a thread seen asleep in that read, under the
 * call's lock, which the call's end takes: it lands as the read returns,
 * never in another of librdmacm's system calls, some of which (its service
 * threads' socket pairs) do not survive EINTR.  Where /proc cannot be read,
 * nothing is signalled and the wait lasts as long as the transport's.
 *
 * <p> The watcher is a daemon platform thread, started on the first watched
 * call; it parks while no call runs.
 */
final class RdmaDrainWatch {
    /**
     * A transport gives up on a send after retry_count + 1 tries, each after
     * the local ACK timeout, which the RDMA CM gives RoCE as at most
     * 4.096 us << 19 (2.15 s): 8 tries, 17.2 s.
     */
    static final long STALL_NANOS = 8 * (4096L << 19);

    static final long SAMPLE_MILLIS = 100;

    private static final String EVENT_CHANNEL = "anon_inode:[infinibandevent]";
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    /** One watched call. */
    static final class Call {
        final RdmaSocket socket;
        // the thread's kernel id and pthread_t, taken as the call begins
        volatile int tid;
        private long pthread;
        // guarded by this
        private boolean done;
        // the watcher's own
        private long switches = -1, since;

        Call(RdmaSocket socket) {
            this.socket = socket;
        }
    }

    private final Set<Call> calls = ConcurrentHashMap.newKeySet();

    // guarded by this
    private volatile Thread thread;

    /**
     * Watches the call into rsockets that the current thread makes next,
     * for socket s: it must make it at once, with no wait in between, so
     * that a virtual thread is still on the same carrier.
     */
    Call begin(RdmaSocket s) {
        Call c = new Call(s);
        calls.add(c);
        Thread t = thread;
        if (t == null) {
            synchronized (this) {
                if ((t = thread) == null) {
                    thread = t = RdmaNet.newThread("RDMA-Drain-Watch", this::run);
                    t.start();
                }
            }
        }
        c.pthread = RdmaNet.pthread0();
        c.tid = currentTid();
        LockSupport.unpark(t);
        return c;
    }

    /*
     * The kernel id of the thread that runs the caller (a virtual thread's
     * carrier), from /proc/thread-self ("PID/task/TID"), or 0 if that cannot
     * be read: then the call is not watched.  Read through /proc rather
     * than gettid, so that librdmasocket imports nothing that could send a
     * signal (RdmaNoSignals).  A file system call does not unmount a
     * virtual thread.
     */
    private static int currentTid() {
        try {
            String link = Files.readSymbolicLink(THREAD_SELF).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The watched call has returned. */
    void end(Call c) {
        synchronized (c) {
            c.done = true;
        }
        calls.remove(c);
    }

    private void run() {
        for (;;) {
            if (calls.isEmpty()) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, SAMPLE_MILLIS * 1_000_000);
            }
            long now = System.nanoTime();
            for (Call c : calls) {
                try {
                    sample(c, now);
                } catch (IOException | RuntimeException e) {
                    // the thread left the call, or /proc cannot be read:
                    // nothing is signalled
                    c.switches = -1;
                }
            }
        }
    }

    private void sample(Call c, long now) throws IOException {
        int tid = c.tid;
        if (tid == 0)
            return;
        Path task = Path.of("/proc/self/task/" + tid);
        long switches = voluntarySwitches(Files.readString(task.resolve("status")));
        boolean asleep = inEventChannelRead(Files.readString(task.resolve("syscall")));
        if (!asleep || switches != c.switches) {
            c.switches = asleep ? switches : -1;
            c.since = now;
            return;
        }
        RdmaSocket s = c.socket;
        if (!s.stalled && now - c.since < STALL_NANOS)
            return;
        s.stalled = true;
        synchronized (c) {
            if (!c.done)
                NativeThread.signal(c.pthread);
        }
    }

    /*
     * Whether a line of /proc/<tid>/syscall shows the thread in a system
     * call whose first argument is an RDMA completion channel: the blocking
     * read of rs_get_cq_event, the only call that takes such a channel and
     * sleeps ("running" or "-1 ..." otherwise).
     */
    private static boolean inEventChannelRead(String line) throws IOException {
        String[] f = line.trim().split(" ");
        if (f.length < 2 || f[0].equals("running") || f[0].startsWith("-"))
            return false;
        long fd = Long.parseLong(f[1].substring(2), 16);
        if (fd < 0 || fd > Integer.MAX_VALUE)
            return false;
        Path link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
        return link.toString().equals(EVENT_CHANNEL);
    }

    private static long voluntarySwitches(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:"))
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
        throw new IllegalStateException("no voluntary_ctxt_switches");
    }
}
