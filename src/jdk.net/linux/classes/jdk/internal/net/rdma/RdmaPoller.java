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
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import sun.nio.ch.IOStatus;

/**
 * Waits for rsockets on behalf of the threads blocked on them, so that a
 * blocked thread, platform or virtual, is parked and costs nothing until
 * its socket is ready: the model is sun.nio.ch.Poller, with rpoll as the
 * readiness call.
 *
 * <p> A waiter registers its socket and event, wakes the poller and parks;
 * the poller thread polls every registered socket in one rpoll and unparks
 * the waiters of the ready ones.  At most one thread waits per socket and
 * event (the channels' read, write and accept locks).  rsockets readiness
 * is a level (rpoll inspects the socket's state each time), so a socket
 * that became ready before the poller saw its registration is found by the
 * next rpoll.  Waiters are kept by their {@link RdmaSocket}, never by its
 * number, which rsockets hands out again after rclose.
 *
 * <p> A blocking poller rpolls with no timeout, its eventfd in slot 0 to
 * be woken for registrations.  A ticking poller rpolls without waiting
 * every tick while it has waiters, and parks while it has none: rsockets
 * marks a listening socket ready without waking an rpoll that waits on it
 * (the accept-readiness gap, doc/rdma-sockets-design.md), so accepts are
 * waited for that way, at a cost that grows with the number of blocked
 * accepts only.
 *
 * <p> A platform thread whose wait has no timeout can instead wait in an
 * rpoll of its own ({@link #registerDirect}, {@link #awaitDirect}): its
 * socket, and the eventfd of a slot of the blocking poller's, through
 * which it is woken.  That saves the hop through the poller thread, one
 * wakeup of two, which costs most when the threads outnumber the CPUs.
 * rsockets wakes every thread in rpoll on every event
 * (doc/rdma-sockets-design.md, 3.5), so there are few slots
 * ({@link #DIRECT_WAITERS_MAX}); the threads that find none wait through
 * the poller.  A thread that finds none also asks the thread that has held
 * a slot longest, if that is {@link #DIRECT_IDLE_MILLIS} or more, to give
 * it up and wait on through the poller, so that idle connections do not
 * keep the slots from busy ones for good.  A virtual thread
 * must park to leave its carrier, so it always waits through the poller.
 *
 * <p> Every rpoll here takes its sockets through their
 * {@link RdmaPollGate}, and gives them back after, so that a socket is
 * never shut down or closed while an rpoll includes it; nothing here waits
 * for that: the last rpoll to leave wakes the reaper, which finishes what
 * was held back ({@link #kick} makes the rpolls leave soon).
 */
final class RdmaPoller {
    // poll(2) events
    static final int POLLIN = 0x0001;
    static final int POLLOUT = 0x0004;
    private static final int POLLERR = 0x0008;
    private static final int POLLHUP = 0x0010;
    private static final int POLLNVAL = 0x0020;

    static {
        // the natives are in librdmasocket, which RdmaNet loads
        if (RdmaNet.UNAVAILABLE_REASON != null)
            throw new InternalError(RdmaNet.UNAVAILABLE_REASON);
    }

    private final String name;
    private final long tickNanos;     // 0 for a blocking poller
    private final int wakeFd;         // -1 for a ticking poller

    private final ConcurrentHashMap<RdmaSocket, Thread> readers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RdmaSocket, Thread> writers = new ConcurrentHashMap<>();

    // the slot eventfds of the threads waiting in their own rpoll, by socket
    private final ConcurrentHashMap<RdmaSocket, Integer> directReaders = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RdmaSocket, Integer> directWriters = new ConcurrentHashMap<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();

    // guarded by this
    private Thread thread;
    private final int[] freeSlots;    // the eventfds of the slots not in use
    private int freeCount;
    private final int[] slots;        // the eventfds of all the slots
    private final long[] heldSince;   // when each held slot's wait began, by index in slots
    private final boolean[] evicted;  // whether a slot's holder is asked to give it up

    /**
     * The number of slots, so of the threads that may wait in rpolls of
     * their own at a time: one per CPU, 2 to 4, since more waiters than
     * CPUs would only take turns.
     */
    static final int DIRECT_WAITERS_MAX = Math.clamp(Runtime.getRuntime().availableProcessors(), 2, 4);

    /**
     * How long a thread must have waited in its own rpoll before a thread
     * that finds no slot free asks it to give its slot up.  Far longer than
     * a busy connection's waits (a 1 MiB round trip takes milliseconds even
     * in an emulated guest), so that only idle ones are moved.
     * -Djdk.net.rdma.directIdleMillis=N sets it (documented in RdmaSockets).
     */
    static final long DIRECT_IDLE_MILLIS =
            RdmaNet.longProperty("jdk.net.rdma.directIdleMillis", 1_000, 1, Long.MAX_VALUE / 1_000_000L);

    private RdmaPoller(String name, long tickNanos, int wakeFd, int[] slots) {
        this.name = name;
        this.tickNanos = tickNanos;
        this.wakeFd = wakeFd;
        this.freeSlots = slots;
        this.freeCount = slots.length;
        this.slots = slots.clone();
        this.heldSince = new long[slots.length];
        this.evicted = new boolean[slots.length];
    }

    // the index of a slot's eventfd in slots; holds this
    private int slotIndex(int slot) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == slot)
                return i;
        }
        throw new InternalError("no slot " + slot);
    }

    /**
     * A poller that blocks in rpoll until a socket is ready, with the
     * slots for direct waits.  Its eventfds live as long as the process.
     */
    static RdmaPoller blocking(String name) throws IOException {
        int[] fds = new int[DIRECT_WAITERS_MAX + 1];
        int made = 0;
        try {
            for (; made < fds.length; made++)
                fds[made] = eventfd0();
        } catch (IOException e) {
            for (int i = 0; i < made; i++)
                close0(fds[i]);
            throw e;
        }
        return new RdmaPoller(name, 0, fds[0], Arrays.copyOfRange(fds, 1, fds.length));
    }

    /** A poller that checks its sockets every tickNanos; it has no slots. */
    static RdmaPoller ticking(String name, long tickNanos) {
        return new RdmaPoller(name, tickNanos, -1, new int[0]);
    }

    private ConcurrentHashMap<RdmaSocket, Thread> waiters(int event) {
        return ((event & POLLIN) != 0) ? readers : writers;
    }

    /** Registers the current thread as the waiter for event on s. */
    void register(RdmaSocket s, int event) {
        waiters(event).put(s, Thread.currentThread());
        wakeup();
    }

    /**
     * Removes the current thread's registration; returns false if the
     * poller (or a close or shutdown) had removed it already.
     */
    boolean deregister(RdmaSocket s, int event) {
        return waiters(event).remove(s, Thread.currentThread());
    }

    private ConcurrentHashMap<RdmaSocket, Integer> directWaiters(int event) {
        return ((event & POLLIN) != 0) ? directReaders : directWriters;
    }

    /**
     * Registers the current platform thread to wait for event on s in its
     * own rpoll ({@link #awaitDirect}), and returns the eventfd of the slot
     * it takes.  Returns -1, registering nothing, if no slot is free, or
     * if s may not be polled now ({@link RdmaPollGate#enter}): the
     * thread then waits through the poller.  If no slot is free, the
     * holder of the slot held longest gives it up, if it has waited
     * {@link #DIRECT_IDLE_MILLIS}, for a thread that comes later.
     */
    int registerDirect(RdmaSocket s, int event) {
        if (!s.polls.enter())
            return -1;
        synchronized (this) {
            if (freeCount == 0) {
                evictIdle();
            } else {
                int slot = freeSlots[--freeCount];
                directWaiters(event).put(s, slot);
                heldSince[slotIndex(slot)] = System.nanoTime();
                return slot;
            }
        }
        s.polls.leave();
        return -1;
    }

    // With every slot held: signals the holder of the slot held longest,
    // if it has waited DIRECT_IDLE_MILLIS, to leave its rpoll (awaitDirect
    // then returns IOStatus.UNAVAILABLE); holds this.
    private void evictIdle() {
        long now = System.nanoTime();
        int oldest = -1;
        for (int i = 0; i < slots.length; i++) {
            if (!evicted[i] && (oldest < 0 || heldSince[i] - heldSince[oldest] < 0))
                oldest = i;
        }
        if (oldest >= 0 && now - heldSince[oldest] >= DIRECT_IDLE_MILLIS * 1_000_000L) {
            evicted[oldest] = true;
            signal0(slots[oldest]);
        }
    }

    /**
     * Waits in an rpoll of s and the slot's eventfd, after
     * {@link #registerDirect}, until s is ready for event or a
     * {@link #wake} (close, shutdown, {@link #kick}).  Returns s's revents, 0
     * if woken or interrupted by a signal, IOStatus.UNAVAILABLE if asked
     * to give the slot up: the caller frees it and waits on through the
     * poller.  A wake meant for the slot's previous holder may also end
     * the wait: the caller retries.
     */
    int awaitDirect(RdmaSocket s, int event, int slot) throws IOException {
        int revents = wait0(s.fd, event, slot);
        if (revents == 0) {
            synchronized (this) {
                int i = slotIndex(slot);
                if (evicted[i]) {
                    evicted[i] = false;
                    return IOStatus.UNAVAILABLE;
                }
            }
        }
        return revents;
    }

    /** Ends the registration of {@link #registerDirect} and frees its slot. */
    void deregisterDirect(RdmaSocket s, int event, int slot) {
        synchronized (this) {
            directWaiters(event).remove(s, slot);
            evicted[slotIndex(slot)] = false;
            freeSlots[freeCount++] = slot;
        }
        s.polls.leave();
    }

    /** Wakes the waiter for event on s, if any. */
    void wake(RdmaSocket s, int event) {
        Thread t = waiters(event).remove(s);
        if (t != null)
            LockSupport.unpark(t);
        Integer slot = directWaiters(event).remove(s);
        if (slot != null)
            signal0(slot);
    }

    private void wakeAll() {
        for (RdmaSocket s : readers.keySet())
            wake(s, POLLIN);
        for (RdmaSocket s : writers.keySet())
            wake(s, POLLOUT);
    }

    /**
     * Makes every rpoll of this poller's that includes s end soon, without
     * waiting for it: a direct waiter goes back to its operation (and then
     * waits through the poller), and the poller thread polls again, leaving
     * s out if it may not be polled now.
     */
    void kick(RdmaSocket s) {
        wake(s, POLLIN);
        wake(s, POLLOUT);
        if (wakeFd >= 0)
            signal();
    }

    /** Wakes the poller if s has waiters, after s may be polled again. */
    void resume(RdmaSocket s) {
        if (readers.containsKey(s) || writers.containsKey(s))
            wakeup();
    }

    private void wakeup() {
        Thread t;
        synchronized (this) {
            t = thread;
            if (t == null) {
                thread = t = RdmaNet.newThread(name, this::run);
                t.start();
                return;
            }
        }
        if (wakeFd < 0) {
            LockSupport.unpark(t);
        } else {
            signal();
        }
    }

    // writes the eventfd unless a write is already pending (the poller drains it)
    private void signal() {
        if (wakeupPending.compareAndSet(false, true))
            signal0(wakeFd);
    }

    // the poller thread

    private int[] fds = new int[16];
    private int[] events = new int[16];
    private RdmaSocket[] polled = new RdmaSocket[16];  // the sockets of fds, taken through their gates

    /** Fills fds, events and polled with the sockets to poll; returns their number. */
    private int collect() {
        int n = 0;
        if (wakeFd >= 0) {
            fds[0] = wakeFd;
            events[0] = POLLIN;
            polled[0] = null;
            n = 1;
        }
        for (RdmaSocket s : readers.keySet())
            n = add(n, s, POLLIN | (writers.containsKey(s) ? POLLOUT : 0));
        for (RdmaSocket s : writers.keySet()) {
            if (!readers.containsKey(s))
                n = add(n, s, POLLOUT);
        }
        return n;
    }

    private int add(int n, RdmaSocket s, int event) {
        if (!s.polls.enter())
            return n;
        if (n == fds.length) {
            fds = Arrays.copyOf(fds, n * 2);
            events = Arrays.copyOf(events, n * 2);
            polled = Arrays.copyOf(polled, n * 2);
        }
        fds[n] = s.fd;
        events[n] = event;
        polled[n] = s;
        return n + 1;
    }

    private void run() {
        int first = (wakeFd >= 0) ? 1 : 0;
        for (;;) {
            int n = collect();
            if (n == 0) {
                // a ticking poller with nothing to wait for
                LockSupport.park();
                continue;
            }
            int ready;
            try {
                ready = poll0(fds, events, n, (wakeFd >= 0) ? -1 : 0);
            } catch (IOException e) {
                // rpoll failed (ENOMEM): every waiter retries its operation
                // and registers again
                ready = 0;
                wakeAll();
                LockSupport.parkNanos(1_000_000L);
            }
            if (ready > 0 && first == 1 && events[0] != 0) {
                // drain before clearing: a signal after the clear then
                // leaves the eventfd readable, and one before it is for a
                // registration the next collect sees
                drain0(wakeFd);
                wakeupPending.set(false);
            }
            for (int i = first; i < n; i++) {
                RdmaSocket s = polled[i];
                polled[i] = null;
                int revents = (ready > 0) ? events[i] : 0;
                if ((revents & (POLLIN | POLLERR | POLLHUP | POLLNVAL)) != 0)
                    wake(s, POLLIN);
                if ((revents & (POLLOUT | POLLERR | POLLHUP | POLLNVAL)) != 0)
                    wake(s, POLLOUT);
                s.polls.leave();
            }
            if (tickNanos > 0)
                LockSupport.parkNanos(tickNanos);
        }
    }

    /** fd's revents for events now, without waiting. */
    static int readiness(int fd, int events) throws IOException {
        int[] ev = { events };
        return (poll0(new int[] { fd }, ev, 1, 0) > 0) ? ev[0] : 0;
    }

    static native int eventfd0() throws IOException;
    static native void close0(int fd);
    static native void signal0(int fd);
    static native void drain0(int fd);
    private static native int wait0(int fd, int event, int wakeFd) throws IOException;
    static native int poll0(int[] fds, int[] events, int nfds, int timeout) throws IOException;

    /**
     * Checks the socket without waiting, again and again, for up to nanos:
     * returns its revents for event, 0 if it did not become ready.
     */
    static native int spin0(int fd, int event, long nanos);
}
