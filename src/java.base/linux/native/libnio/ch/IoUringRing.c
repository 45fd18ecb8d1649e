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

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/io_uring.h>

#include "jni.h"
#include "jni_util.h"
#include "jlong.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_IoUringRing.h"

/*
 * Sets up, maps, enters and closes io_uring instances for
 * sun.nio.ch.IoUringRing, which fills submission queue entries and reads
 * completions itself, in the mapped memory: an I/O then costs no JNI call
 * of its own, only its share of the io_uring_enter that submits a batch.
 *
 * io_uring is called through syscall(2): glibc has no wrappers, and libnio
 * must not need liburing, which many machines do not have.
 */
#ifndef SYS_io_uring_setup
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define SYS_io_uring_setup    425
#define SYS_io_uring_enter    426
#define SYS_io_uring_register 427
#endif
#endif

/*
 * IORING_REGISTER_RING_FDS, _UNREGISTER_RING_FDS (Linux 5.18) and their argument, under names of
 * our own: in the kernel's header the opcode is an enum constant, which
 * the preprocessor cannot test for on older build machines.
 */
#define REGISTER_RING_FDS 20
#define UNREGISTER_RING_FDS 21
struct ring_fd_update {
    uint32_t offset;
    uint32_t resv;
    uint64_t data;
};

/* Indexes into the long[] that setup0 fills, as IoUringRing names them */
enum {
    I_SQ_ENTRIES, I_CQ_ENTRIES, I_FEATURES,
    I_SQ_MAP, I_SQ_MAP_LEN, I_CQ_MAP, I_CQ_MAP_LEN, I_SQES, I_SQES_LEN,
    I_SQ_HEAD, I_SQ_TAIL, I_SQ_MASK, I_SQ_FLAGS, I_SQ_ARRAY,
    I_CQ_HEAD, I_CQ_TAIL, I_CQ_MASK, I_CQES,
    I_COUNT
};

static void unmap(void *sq, size_t sq_len, void *cq, size_t cq_len, void *sqes, size_t sqes_len) {
    if (sqes != NULL && sqes != MAP_FAILED) munmap(sqes, sqes_len);
    if (cq != NULL && cq != MAP_FAILED && cq != sq) munmap(cq, cq_len);
    if (sq != NULL && sq != MAP_FAILED) munmap(sq, sq_len);
}

/*
 * io_uring_setup with the flags given, and a completion queue of
 * cqEntries if the flags hold IORING_SETUP_CQSIZE; maps the rings.
 * Returns the ring's file descriptor, with info filled in, or -errno: the
 * caller tries fewer flags on EINVAL, which is how a kernel says it does
 * not know one.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUringRing_setup0(JNIEnv *env, jclass clazz, jint entries,
                                   jint cqEntries, jint flags, jlongArray info)
{
#ifdef SYS_io_uring_setup
    struct io_uring_params p;
    jlong out[I_COUNT];
    size_t sq_len, cq_len, sqes_len;
    void *sq, *cq = NULL, *sqes = NULL;
    int fd, e;
    char *sqc, *cqc;

    memset(&p, 0, sizeof(p));
    p.flags = (unsigned)flags;
    p.cq_entries = (unsigned)cqEntries;
    fd = (int)syscall(SYS_io_uring_setup, (unsigned)entries, &p);
    if (fd < 0)
        return -errno;

    sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP) {
        if (cq_len > sq_len)
            sq_len = cq_len;
        cq_len = sq_len;
    }
    sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
    sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
              fd, IORING_OFF_SQ_RING);
    if (sq != MAP_FAILED) {
        cq = (p.features & IORING_FEAT_SINGLE_MMAP) ? sq
            : mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                   fd, IORING_OFF_CQ_RING);
    }
    if (sq != MAP_FAILED && cq != MAP_FAILED) {
        sqes = mmap(NULL, sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                    fd, IORING_OFF_SQES);
    }
    if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
        e = errno;
        unmap(sq, sq_len, cq, cq_len, sqes, sqes_len);
        close(fd);
        return -e;
    }

    sqc = (char *)sq;
    cqc = (char *)cq;
    out[I_SQ_ENTRIES] = p.sq_entries;
    out[I_CQ_ENTRIES] = p.cq_entries;
    out[I_FEATURES] = p.features;
    out[I_SQ_MAP] = ptr_to_jlong(sq);
    out[I_SQ_MAP_LEN] = (jlong)sq_len;
    out[I_CQ_MAP] = ptr_to_jlong(cq);
    out[I_CQ_MAP_LEN] = (jlong)cq_len;
    out[I_SQES] = ptr_to_jlong(sqes);
    out[I_SQES_LEN] = (jlong)sqes_len;
    out[I_SQ_HEAD] = ptr_to_jlong(sqc + p.sq_off.head);
    out[I_SQ_TAIL] = ptr_to_jlong(sqc + p.sq_off.tail);
    out[I_SQ_MASK] = *(unsigned *)(sqc + p.sq_off.ring_mask);
    out[I_SQ_FLAGS] = ptr_to_jlong(sqc + p.sq_off.flags);
    out[I_SQ_ARRAY] = ptr_to_jlong(sqc + p.sq_off.array);
    out[I_CQ_HEAD] = ptr_to_jlong(cqc + p.cq_off.head);
    out[I_CQ_TAIL] = ptr_to_jlong(cqc + p.cq_off.tail);
    out[I_CQ_MASK] = *(unsigned *)(cqc + p.cq_off.ring_mask);
    out[I_CQES] = ptr_to_jlong(cqc + p.cq_off.cqes);
    (*env)->SetLongArrayRegion(env, info, 0, I_COUNT, out);
    return fd;
#else
    return -ENOSYS;
#endif
}

/* Whether the ring knows IORING_OP_READ, _WRITE (Linux 5.6) and _ASYNC_CANCEL. */
JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_IoUringRing_supportsReadWrite0(JNIEnv *env, jclass clazz, jint fd)
{
    size_t len = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *p = malloc(len);     /* not calloc: libnio links to malloc only */
    jboolean ok = JNI_FALSE;
    if (p == NULL)
        return JNI_FALSE;
    memset(p, 0, len);
    if (syscall(SYS_io_uring_register, fd, IORING_REGISTER_PROBE, p, 256) == 0) {
        ok = p->last_op >= IORING_OP_WRITE
            && (p->ops[IORING_OP_READ].flags & IO_URING_OP_SUPPORTED)
            && (p->ops[IORING_OP_WRITE].flags & IO_URING_OP_SUPPORTED)
            && (p->ops[IORING_OP_ASYNC_CANCEL].flags & IO_URING_OP_SUPPORTED);
    }
    free(p);
    return ok;
}

/*
 * Registers the ring's descriptor with the calling thread (Linux 5.18), so
 * that its io_uring_enter calls skip the lookup of the descriptor in the
 * process's table.  Returns the index that only this thread may enter the
 * ring by, or -errno.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUringRing_registerRingFd0(JNIEnv *env, jclass clazz, jint fd)
{
    struct ring_fd_update u;
    long n;
    memset(&u, 0, sizeof(u));
    u.offset = (uint32_t)-1;    /* any free index */
    u.data = (uint64_t)fd;
    n = syscall(SYS_io_uring_register, fd, REGISTER_RING_FDS, &u, 1);
    if (n < 0)
        return -errno;
    return n == 1 ? (jint)u.offset : -EINVAL;
}

/* Gives back the calling thread's registered index of a ring; 0 or -errno. */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUringRing_unregisterRingFd0(JNIEnv *env, jclass clazz, jint fd, jint index)
{
    struct ring_fd_update u;
    long n;
    memset(&u, 0, sizeof(u));
    u.offset = (uint32_t)index;
    n = syscall(SYS_io_uring_register, fd, UNREGISTER_RING_FDS, &u, 1);
    if (n < 0)
        return -errno;
    return n == 1 ? 0 : -EINVAL;
}

/*
 * io_uring_enter: ring is the descriptor, or the registered index when
 * flags hold IORING_ENTER_REGISTERED_RING.  Returns how many entries were
 * submitted, or -errno.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUringRing_enter0(JNIEnv *env, jclass clazz, jint ring, jint toSubmit,
                                   jint minComplete, jint flags)
{
    long n = syscall(SYS_io_uring_enter, (unsigned)ring, (unsigned)toSubmit,
                     (unsigned)minComplete, (unsigned)flags, NULL, 0);
    return (n < 0) ? -errno : (jint)n;
}

/* Unmaps the rings and closes the descriptor. */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUringRing_close0(JNIEnv *env, jclass clazz, jint fd, jlongArray info)
{
    jlong in[I_COUNT];
    (*env)->GetLongArrayRegion(env, info, 0, I_COUNT, in);
    unmap(jlong_to_ptr(in[I_SQ_MAP]), (size_t)in[I_SQ_MAP_LEN],
          jlong_to_ptr(in[I_CQ_MAP]), (size_t)in[I_CQ_MAP_LEN],
          jlong_to_ptr(in[I_SQES]), (size_t)in[I_SQES_LEN]);
    close(fd);
}

/* Fills layout with sizeof and the offsets of struct io_uring_sqe and _cqe. */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUringRing_layout0(JNIEnv *env, jclass clazz, jintArray layout)
{
    jint l[] = {
        (jint)sizeof(struct io_uring_sqe),
        (jint)offsetof(struct io_uring_sqe, opcode),
        (jint)offsetof(struct io_uring_sqe, fd),
        (jint)offsetof(struct io_uring_sqe, off),
        (jint)offsetof(struct io_uring_sqe, addr),
        (jint)offsetof(struct io_uring_sqe, len),
        (jint)offsetof(struct io_uring_sqe, poll32_events),
        (jint)offsetof(struct io_uring_sqe, user_data),
        (jint)sizeof(struct io_uring_cqe),
        (jint)offsetof(struct io_uring_cqe, user_data),
        (jint)offsetof(struct io_uring_cqe, res),
    };
    (*env)->SetIntArrayRegion(env, layout, 0, (jsize)(sizeof(l) / sizeof(l[0])), l);
}

/* Throws the IOException that a read or write failing with errno e throws. */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUringRing_throwIOException0(JNIEnv *env, jclass clazz, jint e,
                                              jboolean write)
{
    errno = e;
    JNU_ThrowIOExceptionWithLastError(env, write ? "Write failed" : "Read failed");
}
