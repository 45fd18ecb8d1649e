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
 * The natives of jdk.internal.net.rdma.RdmaDisconnectWatcher, the
 * workaround of librdmacm's bug 3 (RdmaWorkarounds.c): the sockets whose
 * handshake ended within rconnect, which librdmacm's connection service
 * does not watch.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "jni.h"
#include "jni_util.h"
#include "RdmaLib.h"

/*
 * Bug 3: a duplicate of the event channel of a connected rsocket (its
 * number is the channel's descriptor), which poll(2) can watch: rpoll
 * would take the number for the rsocket itself.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaDisconnectWatcher_dupChannel0(JNIEnv *env, jclass cl, jint fd)
{
    int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (dup < 0)
        JNU_ThrowIOExceptionWithLastError(env, "duplicating an RDMA event channel failed");
    return dup;
}

/*
 * Bug 3: poll(2) of the first n descriptors of fds for input, without a
 * timeout; their revents are stored in revents.  Returns the number ready,
 * 0 if a signal ended the wait.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaDisconnectWatcher_await0(JNIEnv *env, jclass cl, jintArray fds,
                                                       jintArray revents, jint n)
{
    struct pollfd *pfd = calloc((size_t) n, sizeof(struct pollfd));
    jint *buf = malloc(sizeof(jint) * (size_t) n);
    if (pfd == NULL || buf == NULL) {
        free(pfd);
        free(buf);
        JNU_ThrowOutOfMemoryError(env, "poll array");
        return 0;
    }
    (*env)->GetIntArrayRegion(env, fds, 0, n, buf);
    for (jint i = 0; i < n; i++) {
        pfd[i].fd = buf[i];
        pfd[i].events = POLLIN;
    }
    int ready = poll(pfd, (nfds_t) n, -1);
    int err = errno;
    for (jint i = 0; i < n; i++)
        buf[i] = (ready > 0) ? pfd[i].revents : 0;
    (*env)->SetIntArrayRegion(env, revents, 0, n, buf);
    free(pfd);
    free(buf);
    if (ready < 0 && err != EINTR) {
        errno = err;
        JNU_ThrowIOExceptionWithLastError(env, "poll failed");
    }
    return (ready < 0) ? 0 : ready;
}

/*
 * Bug 3: reads one event of rsocket fd's event channel through channel, its
 * duplicate, as the connection service thread would.  On the peer's
 * disconnect (or the device's removal) the socket is made to end as one
 * that thread serves does: the queue pair is put in the error state, so
 * that no send waits for the dead peer and every rpoll of the socket wakes
 * (its posted receives complete, flushed), and rshutdown of both
 * directions makes reads return the bytes already received and then 0,
 * and writes fail with ECONNRESET.  id->event, which the service thread
 * owns on a release that serves the socket after all, is left alone.
 * Returns 1 after a disconnect, 0 after another event or none, -1 if the
 * channel cannot be read.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaDisconnectWatcher_disconnected0(JNIEnv *env, jclass cl, jint fd, jint channel)
{
    struct rdma_event_channel ch = { .fd = channel };
    struct rdma_cm_event *event;
    if (p_rdma_get_cm_event(&ch, &event) != 0)
        return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    enum rdma_cm_event_type type = event->event;
    struct ibv_qp *qp = (event->id != NULL) ? event->id->qp : NULL;
    p_rdma_ack_cm_event(event);
    if (type != RDMA_CM_EVENT_DISCONNECTED && type != RDMA_CM_EVENT_DEVICE_REMOVAL)
        return 0;
    if (qp != NULL) {
        struct ibv_qp_attr attr;
        memset(&attr, 0, sizeof(attr));
        attr.qp_state = IBV_QPS_ERR;
        (void) p_ibv_modify_qp(qp, &attr, IBV_QP_STATE);
    }
    (void) p_rshutdown(fd, SHUT_RDWR);
    return 1;
}
