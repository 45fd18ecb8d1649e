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

/*
 * The native side of jdk.internal.net.rdma.RdmaPoller: the wakeup eventfds,
 * rpoll of the poller's sockets and of a direct waiter's socket, and the
 * short spin a waiter makes before it waits.  rpoll is never given a positive
 * timeout (RdmaWorkarounds.c, bug 2).
 */

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "RdmaLib.h"

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_eventfd0(JNIEnv *env, jclass cl)
{
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0)
        JNU_ThrowIOExceptionWithLastError(env, "eventfd failed");
    return fd;
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_close0(JNIEnv *env, jclass cl, jint fd)
{
    close(fd);
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_signal0(JNIEnv *env, jclass cl, jint fd)
{
    uint64_t one = 1;
    ssize_t n;
    do {
        n = write(fd, &one, sizeof(one));
    } while (n < 0 && errno == EINTR);
    /* EAGAIN: the counter is saturated, so the poller is woken anyway */
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_drain0(JNIEnv *env, jclass cl, jint fd)
{
    uint64_t count;
    ssize_t n;
    do {
        n = read(fd, &count, sizeof(count));
    } while (n < 0 && errno == EINTR);
}

/*
 * rpoll of nfds sockets: fds[i] polled for events[i], whose revents are
 * stored back in events[i].  timeout is 0 or -1.  Returns the number of
 * ready sockets, or IOS_INTERRUPTED.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_poll0(JNIEnv *env, jclass cl, jintArray fds, jintArray events,
                                            jint nfds, jint timeout)
{
    struct pollfd small[32];
    struct pollfd *pfd = small;
    jint ints[64];
    if (nfds > 32) {
        pfd = malloc(sizeof(struct pollfd) * nfds);
        if (pfd == NULL) {
            JNU_ThrowOutOfMemoryError(env, "rpoll array");
            return IOS_THROWN;
        }
    }
    /* Copy in through a small buffer: no array is pinned while rpoll waits. */
    for (jint i = 0; i < nfds; i += 32) {
        jint m = (nfds - i < 32) ? nfds - i : 32;
        (*env)->GetIntArrayRegion(env, fds, i, m, ints);
        (*env)->GetIntArrayRegion(env, events, i, m, ints + 32);
        for (jint j = 0; j < m; j++) {
            pfd[i + j].fd = ints[j];
            pfd[i + j].events = (short) ints[32 + j];
            pfd[i + j].revents = 0;
        }
    }
    int n = p_rpoll(pfd, (nfds_t) nfds, timeout < 0 ? -1 : 0);
    int err = errno;
    if (n > 0) {
        for (jint i = 0; i < nfds; i += 32) {
            jint m = (nfds - i < 32) ? nfds - i : 32;
            for (jint j = 0; j < m; j++)
                ints[j] = (unsigned short) pfd[i + j].revents;
            (*env)->SetIntArrayRegion(env, events, i, m, ints);
        }
    }
    if (pfd != small)
        free(pfd);
    if (n < 0) {
        if (err == EINTR)
            return IOS_INTERRUPTED;
        errno = err;
        JNU_ThrowIOExceptionWithLastError(env, "rpoll failed");
        return IOS_THROWN;
    }
    return n;
}

/*
 * rpoll of one socket, for events, and the waiting thread's eventfd,
 * without a timeout.  Returns the socket's revents, 0 if the eventfd woke
 * the thread (it is drained) or a signal interrupted the wait.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_wait0(JNIEnv *env, jclass cl, jint fd, jint events, jint wakeFd)
{
    struct pollfd pfd[2] = { { fd, (short) events, 0 }, { wakeFd, POLLIN, 0 } };
    int n = p_rpoll(pfd, 2, -1);
    if (n < 0) {
        if (errno == EINTR)
            return 0;
        JNU_ThrowIOExceptionWithLastError(env, "rpoll failed");
        return IOS_THROWN;
    }
    if (pfd[1].revents != 0)
        Java_jdk_internal_net_rdma_RdmaPoller_drain0(env, cl, wakeFd);
    return (unsigned short) pfd[0].revents;
}

#define SPIN_CLOCK_POLLS 64

static jlong nowNanos(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (jlong) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Checks the socket with rpoll (timeout 0, which never enters rpoll's
 * shared wait) until it is ready for events or nanos have passed.
 * Returns its revents, 0 if it did not become ready.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaPoller_spin0(JNIEnv *env, jclass cl, jint fd, jint events, jlong nanos)
{
    struct pollfd pfd = { fd, (short) events, 0 };
    jlong deadline = nowNanos() + nanos;
    for (unsigned int i = 1; ; i++) {
        pfd.revents = 0;
        int n = p_rpoll(&pfd, 1, 0);
        if (n != 0)
            return (n < 0) ? ((errno == EINTR) ? 0 : POLLERR) : (unsigned short) pfd.revents;
        /*
         * The clock is read every SPIN_CLOCK_POLLS polls only: where it is
         * the HPET (Soft-RoCE guests under emulation), a read costs more
         * than a poll, and two threads that spin and read it often slowed
         * each other's round trips (doc/results/rdma.md, "the spin's clock
         * reads").  64 polls
         * overrun a budget by a few microseconds on hardware.
         */
        if (i % SPIN_CLOCK_POLLS == 0 && nowNanos() >= deadline)
            return 0;
    }
}
