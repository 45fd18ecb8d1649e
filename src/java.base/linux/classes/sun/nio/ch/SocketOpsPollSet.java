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

package sun.nio.ch;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import jdk.internal.misc.Blocker;
import jdk.internal.misc.Unsafe;

/**
 * The keys of an epoll selector whose channels are the sockets of another
 * library (RDMA's rsockets, in channels of a {@link
 * SocketOpsSelectorProvider} or switched by a {@link SocketOpsSwitch}
 * rule), which epoll cannot see. Their library's poll takes a mix of its own sockets and
 * kernel descriptors, so while the selector polls such a key for some
 * interest it waits in that poll, on these keys and on the epoll
 * descriptor itself, which is readable when a kernel socket of the
 * selector (or its wakeup) is ready; only then does it ask epoll which. A
 * selector that polls no such key has no set, and waits in epoll as
 * upstream's does.
 *
 * <p> The set is an array of {@code struct pollfd}: entry 0 is the epoll
 * descriptor, and entry i (i &gt; 0) the key whose {@linkplain
 * SelectionKeyImpl#getIndex index} is i. All methods are called with the
 * selector's lock held.
 */
final class SocketOpsPollSet {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    private static final int SIZE_POLLFD = 8;   // int fd; short events; short revents
    private static final int GROWTH = 16;

    private final SocketOps ops;
    private final List<SelectionKeyImpl> keys = new ArrayList<>();
    private AllocatedNativeObject array;
    private int capacity;
    // whether the last poll's revents are to be processed
    private boolean polled;

    private SocketOpsPollSet(SocketOps ops, int epfd) {
        this.ops = ops;
        this.capacity = GROWTH;
        this.array = new AllocatedNativeObject(capacity * SIZE_POLLFD, false);
        keys.add(null);
        put(0, epfd, Net.POLLIN);
    }

    /**
     * Tells whether a key's channel is a socket of another library (opened
     * with a {@link SocketOpsSelectorProvider}, or switched to it by a
     * {@link SocketOpsSwitch} rule), and so belongs to a set of this kind
     * rather than to epoll.
     */
    static boolean isForeign(SelectionKeyImpl ski) {
        return ops(ski) != SocketOps.platform();
    }

    // the ops of the key's channel
    private static SocketOps ops(SelectionKeyImpl ski) {
        if (ski.channel() instanceof SocketChannelImpl sc)
            return sc.socketOps();
        if (ski.channel() instanceof ServerSocketChannelImpl ssc)
            return ssc.socketOps();
        return SocketOps.platform();
    }

    /**
     * Polls a key for its interest ops, or stops polling it when they are
     * none, as the poll selector does, since poll reports a hang-up even
     * for no events.
     *
     * @param set the selector's set, or null if it has none
     * @param epfd the selector's epoll descriptor
     * @return the set, created for the first key it polls, or null once it
     *         polls no key, so that the selector waits in epoll alone
     */
    static SocketOpsPollSet update(SocketOpsPollSet set, SelectionKeyImpl ski, int epfd) {
        int events = ski.translateInterestOps();
        if (events == 0)
            return remove(set, ski);
        if (set == null)
            set = new SocketOpsPollSet(ops(ski), epfd);
        // the JDK has one library of this kind (RDMA's rsockets)
        assert ops(ski) == set.ops;
        int i = ski.getIndex();
        if (i == 0) {
            if (set.keys.size() == set.capacity)
                set.grow();
            i = set.keys.size();
            set.keys.add(ski);
            ski.setIndex(i);
            set.put(i, ski.getFDVal(), events);
        } else {
            UNSAFE.putShort(set.address(i) + 4, (short) events);
        }
        ski.registeredEvents(events);
        return set;
    }

    /**
     * Stops polling a key, moving the last one into its entry with its
     * revents, so that a deregistration between a poll and the processing
     * of its events loses none of them.
     *
     * @param set the selector's set, or null if it has none
     * @return the set, or null (its memory freed) once it polls no key
     */
    static SocketOpsPollSet remove(SocketOpsPollSet set, SelectionKeyImpl ski) {
        int i = ski.getIndex();
        if (set == null || i == 0)
            return set;
        int last = set.keys.size() - 1;
        if (i != last) {
            SelectionKeyImpl moved = set.keys.get(last);
            UNSAFE.copyMemory(set.address(last), set.address(i), SIZE_POLLFD);
            set.keys.set(i, moved);
            moved.setIndex(i);
        }
        set.keys.remove(last);
        ski.setIndex(0);
        ski.registeredEvents(0);
        if (set.keys.size() > 1)
            return set;
        set.free();
        return null;
    }

    /**
     * Waits, for up to {@code timeout} ms (forever if negative), until a key
     * of the set or the epoll descriptor is ready, in the library's poll;
     * then takes the ready kernel descriptors from epoll without waiting.
     * A virtual thread that may block releases its carrier meanwhile.
     *
     * @return the number of epoll events in the epoll array, which may be
     *         0 when only keys of the set are ready, or IOStatus.INTERRUPTED
     */
    int poll(int timeout, int epfd, long epollArray, int epollEvents) throws IOException {
        polled = false;
        int n;
        boolean attempted = Blocker.begin(timeout != 0);
        try {
            n = ops.poll(array.address(), keys.size(), timeout);
        } finally {
            Blocker.end(attempted);
        }
        if (n <= 0)
            return n;
        polled = true;
        if (UNSAFE.getShort(address(0) + 6) == 0)
            return 0;
        return EPoll.wait(epfd, epollArray, epollEvents, 0);
    }

    /**
     * Processes the ready keys of the last poll, if it returned any.
     *
     * @return the number of keys updated
     */
    int processEvents(SelectorImpl selector, Consumer<SelectionKey> action) {
        if (!polled)
            return 0;
        polled = false;
        int updated = 0;
        for (int i = 1; i < keys.size(); i++) {
            int revents = UNSAFE.getShort(address(i) + 6);
            SelectionKeyImpl ski = keys.get(i);
            if (revents != 0 && ski.isValid())
                updated += selector.processReadyEvents(revents, ski, action);
        }
        return updated;
    }

    /** Frees the array; the keys left are the selector's to deregister. */
    void free() {
        array.free();
    }

    private long address(int i) {
        return array.address() + (long) i * SIZE_POLLFD;
    }

    private void put(int i, int fd, int events) {
        long a = address(i);
        UNSAFE.putInt(a, fd);
        UNSAFE.putShort(a + 4, (short) events);
        UNSAFE.putShort(a + 6, (short) 0);
    }

    private void grow() {
        AllocatedNativeObject bigger =
            new AllocatedNativeObject((capacity + GROWTH) * SIZE_POLLFD, false);
        UNSAFE.copyMemory(array.address(), bigger.address(), (long) capacity * SIZE_POLLFD);
        array.free();
        array = bigger;
        capacity += GROWTH;
    }
}
