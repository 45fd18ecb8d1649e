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

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the hand-offs between threads that direct file I/O makes in this
 * package: each time one thread's I/O, or the completion of it, has to be
 * taken up by another thread that must be woken or scheduled for it (a
 * queued I/O's wake-up of the ring's thread, a parked thread unparked by
 * it, a task or completion handler given to a pool, a take-over of the
 * ring from a thread that a completion handler holds).  A hand-off costs a
 * wake-up and a cache transfer, so the count per I/O is what the engine's
 * design is judged by: benchmarks and tests read {@link #total()} through
 * reflection.
 */
public final class IoHandoffs {
    private static final LongAdder COUNT = new LongAdder();

    private IoHandoffs() { }

    /** One hand-off was made. */
    static void count() {
        COUNT.increment();
    }

    /** One hand-off counted before it was made did not happen. */
    static void uncount() {
        COUNT.decrement();
    }

    /** The hand-offs made since the VM started. */
    public static long total() {
        return COUNT.sum();
    }
}
