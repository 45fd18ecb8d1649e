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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Takes a channel's read or accept lock for a socket adaptor's timed read
 * or accept, so that the wait for the lock counts against the timeout.
 * A timeout bounds the whole call in {@code java.net.Socket} and {@code
 * ServerSocket}; NioSocketImpl counts the wait the same way, and the
 * adaptors follow it so that concurrent readers of one socket each time
 * out after the timeout rather than one after another.
 */
final class TimedLock {
    private TimedLock() { }

    /**
     * Tries to take the lock within the given time. An interrupt does not
     * end the wait; the interrupt status is set again on return, so the
     * I/O operation that follows sees it as it would after {@code lock()}.
     *
     * @return the nanoseconds left; if zero or less the lock is not held
     */
    static long tryLock(ReentrantLock lock, long nanos) {
        assert nanos > 0;
        long start = System.nanoTime();
        long remaining = nanos;
        boolean acquired = false;
        boolean interrupted = false;
        while (!acquired && remaining > 0) {
            try {
                acquired = lock.tryLock(remaining, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            remaining = nanos - (System.nanoTime() - start);
        }
        if (acquired && remaining <= 0)
            lock.unlock();
        if (interrupted)
            Thread.currentThread().interrupt();
        return remaining;
    }
}
