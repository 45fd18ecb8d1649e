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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Delivers the peer's disconnect to the connected rsockets that librdmacm
 * does not watch.  librdmacm's connection service thread reads the event
 * channel of each socket it holds and marks the socket disconnected when
 * the peer's kernel says so, which it does when the peer closes or its
 * process dies.  A librdmacm without rdma-core's fix 6de134096
 * (RdmaWorkarounds.c, bug 3) gives that thread only the sockets whose
 * rconnect returned EINPROGRESS, and a handshake can end within the call.
 * For such a socket a dead peer would go unnoticed, and a read of it
 * would wait for good.
 *
 * <p> One daemon thread polls a duplicate of the event channel of each
 * such socket, with poll(2), and its eventfd in slot 0 to be woken for
 * changes.  When a socket's peer disconnects, the native call ends the
 * socket as the service thread would have ({@code disconnected0}), and
 * the owner is told, to wake the socket's waiters.  The thread ends when
 * no socket is left to watch, and the next watch starts another: a
 * process that once had such a socket keeps no thread for it, and a
 * thread's start costs little beside the handshake that needs it.
 *
 * <p> The thread handles a socket holding the socket's call lock
 * ({@link RdmaSocket#beginCall}), under which rclose calls {@link #forget},
 * so the two never meet, and forget never waits: the thread closes the
 * forgotten duplicates itself, outside its poll, so that a number is not
 * reused while a poll may include it.  Sockets are kept by their
 * {@link RdmaSocket}, never by their number, which rsockets hands out
 * again after rclose.
 */
final class RdmaDisconnectWatcher {
    private final String name;
    private final Consumer<RdmaSocket> onDisconnect;
    private final int wakeFd;

    // guarded by this
    private final Map<RdmaSocket, Integer> channels = new HashMap<>();  // socket -> duplicate
    private final List<Integer> unused = new ArrayList<>();  // duplicates to close
    private Thread thread;      // null when no socket is watched; dead if it failed

    // the thread's poll arrays: slot 0 is wakeFd
    private int[] fds = new int[16];
    private RdmaSocket[] sockets = new RdmaSocket[16];
    private int[] revents = new int[16];

    /**
     * A watcher whose thread, named name, calls onDisconnect with each
     * socket whose peer disconnected.  Its eventfd is made
     * here, its thread when a socket is watched and none runs.
     */
    RdmaDisconnectWatcher(String name, Consumer<RdmaSocket> onDisconnect) throws IOException {
        this.name = name;
        this.onDisconnect = onDisconnect;
        this.wakeFd = RdmaPoller.eventfd0();
    }

    /**
     * Watches the connected rsocket s until its disconnect or
     * {@link #forget}; starts the thread if none runs.
     */
    void watch(RdmaSocket s) throws IOException {
        int dup = dupChannel0(s.fd);
        synchronized (this) {
            channels.put(s, dup);
            if (!threadRuns()) {
                Thread t = RdmaNet.newThread(name, this::run);
                t.start();      // should it fail, the next watch tries again
                thread = t;
            }
        }
        RdmaPoller.signal0(wakeFd);
    }

    /**
     * Stops watching s, if it is watched.  The caller holds s's call lock
     * (rclose), so the thread is not handling s; it closes the duplicate
     * once out of its poll.
     */
    void forget(RdmaSocket s) {
        synchronized (this) {
            Integer dup = channels.remove(s);
            if (dup == null)
                return;
            if (!threadRuns()) {
                RdmaPoller.close0(dup);     // no poll can include it
                return;
            }
            unused.add(dup);
        }
        RdmaPoller.signal0(wakeFd);
    }

    // whether a thread watches; guarded by this
    private boolean threadRuns() {
        return thread != null && thread.isAlive();
    }

    private void run() {
        for (;;) {
            int n = collect();
            if (n == 0)
                return;     // nothing to watch
            try {
                await0(fds, revents, n);
            } catch (IOException e) {
                // poll failed (ENOMEM): try again shortly
                Arrays.fill(revents, 0);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ignore) { }
            }
            if (revents[0] != 0)
                RdmaPoller.drain0(wakeFd);
            for (int i = 1; i < n; i++) {
                if (revents[i] != 0)
                    handle(sockets[i], fds[i], revents[i]);
            }
        }
    }

    /*
     * Closes the duplicates of forgotten sockets and fills the poll arrays;
     * returns their length, or 0, having given up the thread, if no socket
     * is left to watch.
     */
    private synchronized int collect() {
        if (!unused.isEmpty()) {
            for (int dup : unused)
                RdmaPoller.close0(dup);
            unused.clear();
        }
        if (channels.isEmpty()) {
            thread = null;
            return 0;
        }
        int n = channels.size() + 1;
        if (n > fds.length) {
            int size = Math.max(n, fds.length * 2);
            fds = new int[size];
            sockets = new RdmaSocket[size];
            revents = new int[size];
        }
        fds[0] = wakeFd;
        int i = 1;
        Arrays.fill(sockets, null);
        for (Map.Entry<RdmaSocket, Integer> e : channels.entrySet()) {
            sockets[i] = e.getKey();
            fds[i++] = e.getValue();
        }
        return n;
    }

    // poll(2) events that say the descriptor itself has failed
    private static final int POLLERR = 0x0008;
    private static final int POLLHUP = 0x0010;
    private static final int POLLNVAL = 0x0020;

    /*
     * Reads the event that made dup, s's duplicate, ready.  The native call
     * shuts s down after a disconnect, so it is made holding s's call lock,
     * as rshutdown and rclose are, and not this object's lock, so that
     * forget does not wait for it.
     */
    private void handle(RdmaSocket s, int dup, int events) {
        if (!s.beginCall())
            return;     // rclosed since the poll
        int r;
        try {
            if (!watches(s, dup))
                return;     // forgotten since the poll
            r = disconnected0(s.fd, dup);
            if (r == 0 && (events & (POLLERR | POLLHUP | POLLNVAL)) == 0)
                return;     // another event, or another reader took it
            // disconnected, or the channel failed and would be ready for ever
            synchronized (this) {
                channels.remove(s);
                unused.add(dup);
            }
        } finally {
            s.endCall();
        }
        if (r > 0)
            onDisconnect.accept(s);
    }

    private synchronized boolean watches(RdmaSocket s, int dup) {
        Integer watched = channels.get(s);
        return watched != null && watched == dup;
    }

    private static native int dupChannel0(int fd) throws IOException;
    private static native int await0(int[] fds, int[] revents, int n) throws IOException;
    private static native int disconnected0(int fd, int channel);
}
