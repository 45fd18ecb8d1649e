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

package jdk.internal.misc;

/**
 * I/O that a carrier thread does on behalf of the virtual threads it runs,
 * in a form that the carrier itself must drive: sun.nio.ch's per-carrier
 * io_uring.  A virtual thread queues its I/O there and parks; the carrier
 * reaps the completions and resumes the virtual threads, between virtual
 * threads ({@link #afterContinuation}) and while idle ({@link IdleWaiter}).
 *
 * <p> A carrier has one, set by the carrier itself ({@link
 * CarrierThread#setIo}), and none until it first does such I/O.
 */
public interface CarrierIo extends IdleWaiter {
    /**
     * Called by the carrier after a virtual thread it ran yielded or
     * ended: submits what was queued, and reaps what completed.
     */
    void afterContinuation();

    /**
     * Called by the carrier as it terminates: waits for the I/O in flight,
     * which the kernel would cancel when the thread exits, has the virtual
     * threads that wait for it resumed elsewhere, and releases the ring.
     */
    void retire();
}
