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
#include <poll.h>
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
#include "sun_nio_ch_IoUring.h"

/*
 * The rings of one io_uring instance, mapped into the process.  The Java
 * class does the bookkeeping (which slot an operation has, who waits for
 * it, when to submit); this layer only fills submission queue entries,
 * enters the kernel and copies completion queue entries out.
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

typedef struct {
    int fd;
    unsigned sq_entries;
    unsigned *sq_head, *sq_tail, sq_mask;
    unsigned *sq_array;
    struct io_uring_sqe *sqes;
    unsigned *cq_head, *cq_tail, cq_mask;
    struct io_uring_cqe *cqes;
    void *sq_map; size_t sq_map_len;
    void *cq_map; size_t cq_map_len;
    size_t sqes_len;
} ring_t;

/* Operations, as sun.nio.ch.IoUring names them */
#define OP_READ   0
#define OP_WRITE  1
#define OP_CANCEL 2
#define OP_POLLIN 3

static void unmap(ring_t *r) {
    if (r->sqes != NULL && r->sqes != MAP_FAILED) munmap(r->sqes, r->sqes_len);
    if (r->cq_map != NULL && r->cq_map != MAP_FAILED && r->cq_map != r->sq_map)
        munmap(r->cq_map, r->cq_map_len);
    if (r->sq_map != NULL && r->sq_map != MAP_FAILED) munmap(r->sq_map, r->sq_map_len);
}

/* Whether the kernel knows IORING_OP_READ and IORING_OP_WRITE (Linux 5.6). */
static int supports_read_write(int fd) {
    size_t len = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *p = malloc(len);
    int ok = 0;
    if (p == NULL)
        return 0;
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

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif

/*
 * Sets up a ring.  More than one thread enters it over its life, one at a
 * time (a new one takes over from a thread held by a completion handler),
 * so it is not set up for a single issuer.  Since Linux 5.19 the kernel is
 * told that the thread that submitted an I/O need not be interrupted to
 * finish it (COOP_TASKRUN): that work runs when the thread next enters the
 * kernel, which the ring's thread does once per turn.
 */
JNIEXPORT jlong JNICALL
Java_sun_nio_ch_IoUring_create0(JNIEnv *env, jclass clazz, jint entries)
{
#ifdef SYS_io_uring_setup
    struct io_uring_params p;
    ring_t *r = malloc(sizeof(ring_t));     /* not calloc: libnio links to malloc only */
    if (r == NULL) {
        JNU_ThrowOutOfMemoryError(env, NULL);
        return 0;
    }
    memset(r, 0, sizeof(ring_t));
    memset(&p, 0, sizeof(p));
    p.flags = IORING_SETUP_CLAMP | IORING_SETUP_COOP_TASKRUN;
    r->fd = (int)syscall(SYS_io_uring_setup, (unsigned)entries, &p);
    if (r->fd < 0 && errno == EINVAL) {
        memset(&p, 0, sizeof(p));
        p.flags = IORING_SETUP_CLAMP;
        r->fd = (int)syscall(SYS_io_uring_setup, (unsigned)entries, &p);
    }
    if (r->fd < 0) {
        /* ENOSYS: no io_uring; EPERM: kernel.io_uring_disabled or seccomp */
        JNU_ThrowIOExceptionWithLastError(env, "io_uring_setup");
        free(r);
        return 0;
    }
    if (!supports_read_write(r->fd)) {
        JNU_ThrowIOException(env, "io_uring without IORING_OP_READ, IORING_OP_WRITE or IORING_OP_ASYNC_CANCEL");
        close(r->fd);
        free(r);
        return 0;
    }

    r->sq_map_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    r->cq_map_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP) {
        if (r->cq_map_len > r->sq_map_len)
            r->sq_map_len = r->cq_map_len;
        r->cq_map_len = r->sq_map_len;
    }
    r->sq_map = mmap(NULL, r->sq_map_len, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
    if (r->sq_map != MAP_FAILED) {
        r->cq_map = (p.features & IORING_FEAT_SINGLE_MMAP) ? r->sq_map
            : mmap(NULL, r->cq_map_len, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
    }
    if (r->sq_map != MAP_FAILED && r->cq_map != MAP_FAILED) {
        r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
        r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
    }
    if (r->sq_map == MAP_FAILED || r->cq_map == MAP_FAILED || r->sqes == MAP_FAILED) {
        JNU_ThrowIOExceptionWithLastError(env, "mmap of io_uring");
        unmap(r);
        close(r->fd);
        free(r);
        return 0;
    }

    r->sq_entries = p.sq_entries;
    r->sq_head = (unsigned *)((char *)r->sq_map + p.sq_off.head);
    r->sq_tail = (unsigned *)((char *)r->sq_map + p.sq_off.tail);
    r->sq_mask = *(unsigned *)((char *)r->sq_map + p.sq_off.ring_mask);
    r->sq_array = (unsigned *)((char *)r->sq_map + p.sq_off.array);
    r->cq_head = (unsigned *)((char *)r->cq_map + p.cq_off.head);
    r->cq_tail = (unsigned *)((char *)r->cq_map + p.cq_off.tail);
    r->cq_mask = *(unsigned *)((char *)r->cq_map + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)((char *)r->cq_map + p.cq_off.cqes);
    return ptr_to_jlong(r);
#else
    JNU_ThrowIOException(env, "io_uring is not known on this architecture");
    return 0;
#endif
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_entries0(JNIEnv *env, jclass clazz, jlong ring)
{
    return (jint)((ring_t *)jlong_to_ptr(ring))->sq_entries;
}

/*
 * Fills the entry at the tail of the submission queue and publishes it.
 * The caller serializes this, and never has more entries unconsumed than
 * the queue holds.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_prepare0(JNIEnv *env, jclass clazz, jlong ring, jint op,
                                 jint fd, jlong address, jint len, jlong position,
                                 jlong userData)
{
    ring_t *r = jlong_to_ptr(ring);
    unsigned tail = *r->sq_tail;
    unsigned index = tail & r->sq_mask;
    struct io_uring_sqe *sqe = &r->sqes[index];

    memset(sqe, 0, sizeof(*sqe));
    switch (op) {
    case OP_READ:   sqe->opcode = IORING_OP_READ; break;
    case OP_WRITE:  sqe->opcode = IORING_OP_WRITE; break;
    case OP_POLLIN: sqe->opcode = IORING_OP_POLL_ADD; break;
    default:        sqe->opcode = IORING_OP_ASYNC_CANCEL; break;
    }
    sqe->fd = fd;
    sqe->user_data = (uint64_t)userData;
    if (op == OP_READ || op == OP_WRITE) {
        sqe->addr = (uint64_t)address;
        sqe->len = (unsigned)len;
        sqe->off = (uint64_t)position;
    } else if (op == OP_POLLIN) {
        sqe->poll32_events = POLLIN;
    } else {
        sqe->addr = (uint64_t)address;      /* the user data to cancel */
    }
    r->sq_array[index] = index;
    __atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

/*
 * Submits up to toSubmit entries and, if minComplete is 1, waits until
 * there is a completion to reap.  Returns how many entries were submitted,
 * or -errno.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_enter0(JNIEnv *env, jclass clazz, jlong ring, jint toSubmit,
                               jint minComplete)
{
    ring_t *r = jlong_to_ptr(ring);
    long n = syscall(SYS_io_uring_enter, r->fd, (unsigned)toSubmit, (unsigned)minComplete,
                     IORING_ENTER_GETEVENTS, NULL, 0);
    return (n < 0) ? -errno : (jint)n;
}

/* Copies the completions there are into the arrays; returns how many. */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_reap0(JNIEnv *env, jclass clazz, jlong ring,
                              jlongArray userData, jintArray results)
{
    ring_t *r = jlong_to_ptr(ring);
    jint max = (*env)->GetArrayLength(env, results);
    unsigned head = *r->cq_head;
    unsigned tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
    jint n = 0;
    jlong *ud;
    jint *res;

    if (head == tail)
        return 0;
    ud = (*env)->GetPrimitiveArrayCritical(env, userData, NULL);
    if (ud == NULL)
        return 0;
    res = (*env)->GetPrimitiveArrayCritical(env, results, NULL);
    if (res == NULL) {
        (*env)->ReleasePrimitiveArrayCritical(env, userData, ud, JNI_ABORT);
        return 0;
    }
    while (head != tail && n < max) {
        struct io_uring_cqe *cqe = &r->cqes[head & r->cq_mask];
        ud[n] = (jlong)cqe->user_data;
        res[n] = cqe->res;
        n++;
        head++;
    }
    (*env)->ReleasePrimitiveArrayCritical(env, results, res, 0);
    (*env)->ReleasePrimitiveArrayCritical(env, userData, ud, 0);
    __atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
    return n;
}

/* Throws the IOException that a read or write failing with errno e throws. */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_throwIOException0(JNIEnv *env, jclass clazz, jint e,
                                          jboolean write)
{
    errno = e;
    JNU_ThrowIOExceptionWithLastError(env, write ? "Write failed" : "Read failed");
}
