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
import jdk.internal.misc.Unsafe;

/**
 * One io_uring instance, mapped into the process: its submission queue
 * entries are filled and its completions read here, in Java, on the mapped
 * memory, and the native layer only sets the ring up, enters the kernel
 * and tears the ring down.  So an I/O costs no JNI call of its own.
 *
 * <p> This class does no locking.  One thread at a time may queue entries
 * ({@link #prepare}), and one at a time may reap completions ({@link
 * #reap}); the caller serializes each side.
 *
 * <p> {@link #open} sets the ring up with the newest flags the kernel
 * knows: a kernel answers EINVAL to a flag it does not know, and the ring
 * is then set up again with fewer ({@link #SETUP_RUNGS}).
 */
final class IoUringRing {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();

    // io_uring_setup flags (include/uapi/linux/io_uring.h)
    static final int SETUP_CQSIZE = 1 << 3;          // 5.5
    static final int SETUP_CLAMP = 1 << 4;           // 5.6
    static final int SETUP_SUBMIT_ALL = 1 << 7;      // 5.18
    static final int SETUP_COOP_TASKRUN = 1 << 8;    // 5.19
    static final int SETUP_TASKRUN_FLAG = 1 << 9;    // 5.19
    static final int SETUP_SINGLE_ISSUER = 1 << 12;  // 6.0

    // io_uring_enter flags
    static final int ENTER_GETEVENTS = 1;
    private static final int ENTER_REGISTERED_RING = 1 << 4;

    // Flags of the submission queue ring
    private static final int SQ_TASKRUN = 1 << 2;

    // Opcodes
    static final int OP_NOP = 0;
    static final int OP_POLL_ADD = 6;
    static final int OP_ASYNC_CANCEL = 14;
    static final int OP_READ = 22;
    static final int OP_WRITE = 23;

    /**
     * The flags tried in turn, newest first.  None has SINGLE_ISSUER: a
     * ring shared by the VM is entered by more than one thread over its
     * life.
     * <ul>
     * <li> A completion queue of the size asked for, a submission that goes
     *      on past an entry that fails, and no interrupt of the thread that
     *      submitted an I/O to finish it: that work waits until the thread
     *      next enters the kernel, which a thread that waits for
     *      completions does anyway (5.19).
     * <li> Only the size of the completion queue (5.6).
     * </ul>
     */
    static final int[] SETUP_RUNGS = {
        SETUP_CLAMP | SETUP_CQSIZE | SETUP_SUBMIT_ALL | SETUP_COOP_TASKRUN | SETUP_TASKRUN_FLAG,
        SETUP_CLAMP | SETUP_CQSIZE,
    };

    private static final int EINVAL = 22;

    // What layout0 reports: the size and offsets of struct io_uring_sqe and
    // struct io_uring_cqe
    private static final int SQE_SIZE, SQE_OPCODE, SQE_FD, SQE_OFF, SQE_ADDR, SQE_LEN,
            SQE_POLL32_EVENTS, SQE_USER_DATA, CQE_SIZE, CQE_USER_DATA, CQE_RES;

    // Indexes into the information that setup0 returns
    private static final int I_SQ_ENTRIES = 0, I_CQ_ENTRIES = 1, I_FEATURES = 2,
            I_SQES = 7, I_SQ_HEAD = 9, I_SQ_TAIL = 10, I_SQ_MASK = 11, I_SQ_FLAGS = 12,
            I_SQ_ARRAY = 13, I_CQ_HEAD = 14, I_CQ_TAIL = 15, I_CQ_MASK = 16, I_CQES = 17,
            I_COUNT = 18;

    private final int fd;
    private final int flags;
    private final long[] info;
    private final int sqEntries, cqEntries, features;
    private final long sqHead, sqTail, sqFlags, sqes, cqHead, cqTail, cqes;
    private final int sqMask, cqMask;

    // The submission queue's tail as this side has written it, ahead of
    // the kernel's copy until publish
    private int tail;

    private boolean closed;

    private IoUringRing(int fd, int flags, long[] info) {
        this.fd = fd;
        this.flags = flags;
        this.info = info;
        this.sqEntries = (int) info[I_SQ_ENTRIES];
        this.cqEntries = (int) info[I_CQ_ENTRIES];
        this.features = (int) info[I_FEATURES];
        this.sqHead = info[I_SQ_HEAD];
        this.sqTail = info[I_SQ_TAIL];
        this.sqMask = (int) info[I_SQ_MASK];
        this.sqFlags = info[I_SQ_FLAGS];
        this.sqes = info[I_SQES];
        this.cqHead = info[I_CQ_HEAD];
        this.cqTail = info[I_CQ_TAIL];
        this.cqMask = (int) info[I_CQ_MASK];
        this.cqes = info[I_CQES];
        this.tail = UNSAFE.getInt(sqTail);
        // Entry i of the submission queue is always sqes[i]: the array that
        // maps one to the other is filled once
        long array = info[I_SQ_ARRAY];
        for (int i = 0; i < sqEntries; i++)
            UNSAFE.putInt(array + 4L * i, i);
    }

    /**
     * Sets up a ring of {@code entries} submission queue entries and
     * {@code cqEntries} completion queue entries, with the first of the
     * rungs that the kernel takes.
     *
     * @throws IOException if io_uring is missing (ENOSYS), disabled or
     *         denied (EPERM), knows none of the rungs, or lacks the read,
     *         write or cancel operations (before Linux 5.6)
     */
    static IoUringRing open(int entries, int cqEntries, int... rungs) throws IOException {
        long[] info = new long[I_COUNT];
        int r = -EINVAL;
        int flags = 0;
        for (int i = 0; i < rungs.length && r == -EINVAL; i++) {
            flags = rungs[i];
            r = setup0(entries, cqEntries, flags, info);
        }
        if (r < 0)
            throw new IOException("io_uring_setup failed: errno " + -r);
        var ring = new IoUringRing(r, flags, info);
        if (!supportsReadWrite0(r)) {
            ring.close();
            throw new IOException("io_uring without IORING_OP_READ, IORING_OP_WRITE"
                    + " or IORING_OP_ASYNC_CANCEL");
        }
        return ring;
    }

    /** The flags the ring was set up with. */
    int flags() {
        return flags;
    }

    /** The size of the submission queue. */
    int sqEntries() {
        return sqEntries;
    }

    /** The size of the completion queue. */
    int cqEntries() {
        return cqEntries;
    }

    /** The features the kernel reported at setup (IORING_FEAT_*). */
    int features() {
        return features;
    }

    /**
     * Queues an entry; it is not submitted until {@link #enter}.  For a
     * read or write, {@code address}, {@code len} and {@code offset} are
     * the buffer, its length and the file position; for OP_POLL_ADD,
     * {@code len} holds the poll events; for OP_ASYNC_CANCEL, {@code
     * address} holds the user data of the entry to cancel.  Returns false,
     * having queued nothing, if the submission queue is full.
     */
    boolean prepare(int opcode, int fd, long address, int len, long offset, long userData) {
        int head = UNSAFE.getIntAcquire(null, sqHead);
        if (tail - head >= sqEntries)
            return false;
        long sqe = sqes + (long) SQE_SIZE * (tail & sqMask);
        UNSAFE.setMemory(sqe, SQE_SIZE, (byte) 0);
        UNSAFE.putByte(sqe + SQE_OPCODE, (byte) opcode);
        UNSAFE.putInt(sqe + SQE_FD, fd);
        UNSAFE.putLong(sqe + SQE_USER_DATA, userData);
        switch (opcode) {
            case OP_READ, OP_WRITE -> {
                UNSAFE.putLong(sqe + SQE_ADDR, address);
                UNSAFE.putInt(sqe + SQE_LEN, len);
                UNSAFE.putLong(sqe + SQE_OFF, offset);
            }
            case OP_POLL_ADD -> UNSAFE.putInt(sqe + SQE_POLL32_EVENTS, len);
            case OP_ASYNC_CANCEL -> UNSAFE.putLong(sqe + SQE_ADDR, address);
            default -> { }
        }
        // the kernel reads the entry only once it sees the new tail
        UNSAFE.putIntRelease(null, sqTail, ++tail);
        return true;
    }

    /**
     * Registers the ring's descriptor with the calling thread (Linux 5.18)
     * and returns the index by which only that thread may enter it, or -1
     * where the kernel cannot.
     */
    int registerRingFd() {
        int index = registerRingFd0(fd);
        return index >= 0 ? index : -1;
    }

    /**
     * Gives back the calling thread's index from {@link #registerRingFd}.
     * A thread's registration holds the ring open after {@link #close}
     * until the thread unregisters it or exits.
     */
    void unregisterRingFd(int index) {
        int r = unregisterRingFd0(fd, index);
        if (r < 0)
            throw new InternalError("io_uring unregister of ring index " + index + ": errno " + -r);
    }

    /**
     * Submits up to {@code toSubmit} entries and, if {@code minComplete} is
     * more than 0 and the flags hold ENTER_GETEVENTS, waits until there are
     * that many completions to reap.  {@code registered} is the calling
     * thread's index from {@link #registerRingFd}, or -1.  Returns how many
     * entries were submitted, or -errno.
     */
    int enter(int toSubmit, int minComplete, int flags, int registered) {
        if (registered >= 0)
            return enter0(registered, toSubmit, minComplete, flags | ENTER_REGISTERED_RING);
        return enter0(fd, toSubmit, minComplete, flags);
    }

    /**
     * Whether the kernel has work to finish for this ring that waits until
     * the submitting thread enters it (with COOP_TASKRUN and TASKRUN_FLAG).
     */
    boolean taskRunPending() {
        return (UNSAFE.getIntVolatile(null, sqFlags) & SQ_TASKRUN) != 0;
    }

    /** Whether the completion queue holds completions not yet reaped. */
    boolean hasCompletions() {
        return UNSAFE.getInt(cqHead) != UNSAFE.getIntAcquire(null, cqTail);
    }

    /**
     * Copies the completions there are, up to the arrays' length, and
     * frees their entries in the completion queue.  Returns how many.
     */
    int reap(long[] userData, int[] results) {
        int head = UNSAFE.getInt(cqHead);
        int tail = UNSAFE.getIntAcquire(null, cqTail);
        int n = 0;
        while (head != tail && n < results.length) {
            long cqe = cqes + (long) CQE_SIZE * (head & cqMask);
            userData[n] = UNSAFE.getLong(cqe + CQE_USER_DATA);
            results[n] = UNSAFE.getInt(cqe + CQE_RES);
            n++;
            head++;
        }
        if (n > 0) {
            // the kernel may reuse the entries once it sees the new head
            UNSAFE.putIntRelease(null, cqHead, head);
        }
        return n;
    }

    /**
     * Unmaps the ring and closes its descriptor.  The kernel cancels what
     * is still in flight, so the caller first waits for its I/O, and the
     * threads that registered the ring first unregister it.
     */
    void close() {
        if (!closed) {
            closed = true;
            close0(fd, info);
        }
    }

    /** Throws the IOException that pread or pwrite failing with the errno would. */
    static void throwIOException(int errno, boolean write) throws IOException {
        throwIOException0(errno, write);
        throw new InternalError();
    }

    // -- Native methods --

    private static native int setup0(int entries, int cqEntries, int flags, long[] info);

    private static native boolean supportsReadWrite0(int fd);

    private static native int registerRingFd0(int fd);

    private static native int unregisterRingFd0(int fd, int index);

    private static native int enter0(int ring, int toSubmit, int minComplete, int flags);

    private static native void close0(int fd, long[] info);

    private static native void layout0(int[] layout);

    private static native void throwIOException0(int errno, boolean write) throws IOException;

    static {
        IOUtil.load();
        int[] l = new int[11];
        layout0(l);
        SQE_SIZE = l[0];
        SQE_OPCODE = l[1];
        SQE_FD = l[2];
        SQE_OFF = l[3];
        SQE_ADDR = l[4];
        SQE_LEN = l[5];
        SQE_POLL32_EVENTS = l[6];
        SQE_USER_DATA = l[7];
        CQE_SIZE = l[8];
        CQE_USER_DATA = l[9];
        CQE_RES = l[10];
    }
}
