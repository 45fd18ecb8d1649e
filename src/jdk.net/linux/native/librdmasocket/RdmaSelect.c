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
 * The selectors' rpoll (RdmaNet.pollArray0), which leaves out the sockets
 * being drained.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "RdmaLib.h"
#include "RdmaWorkarounds.h"

/*
 * The selectors' rpoll leaves out the sockets shut down in both directions
 * (RdmaWaits.select names them, from the drain before the close until
 * rclose).  rshutdown makes the socket blocking and waits on its
 * completion channel, so an rpoll of the same socket meanwhile could wait
 * there too; and it makes the socket non-blocking again only if it is
 * still connected, so after a failed connection's drain an rpoll could
 * wait there for good.  pollArray0 therefore polls neverReady, a pipe that
 * nothing writes to, in their place.  An rpoll that began before the drain
 * still polls the socket itself.
 */
static int neverReady = -1;
static pthread_once_t neverReadyOnce = PTHREAD_ONCE_INIT;

static void openNeverReady(void)
{
    int p[2];
    if (pipe(p) == 0) {
        (void) fcntl(p[0], F_SETFD, FD_CLOEXEC);
        (void) fcntl(p[1], F_SETFD, FD_CLOEXEC);
        neverReady = p[0];      /* the write end stays open: no POLLHUP */
    }
}

/*
 * Puts neverReady in the place of each socket of fds that is among the
 * nleft numbers of left, saving (index, fd) pairs in *saved (malloc'd,
 * NULL if none); returns how many.
 */
static int maskLeftOut(struct pollfd *fds, nfds_t nfds, const jint *left, jsize nleft, int **saved)
{
    int n = 0;
    *saved = NULL;
    pthread_once(&neverReadyOnce, openNeverReady);
    if (neverReady < 0)
        return 0;
    for (nfds_t i = 0; i < nfds; i++) {
        int fd = fds[i].fd;
        jsize k = 0;
        while (k < nleft && left[k] != fd)
            k++;
        if (fd < 0 || k == nleft)
            continue;
        int *grown = realloc(*saved, (size_t)(n + 1) * 2 * sizeof(int));
        if (grown == NULL)
            break;              /* poll that one as it is */
        *saved = grown;
        grown[2 * n] = (int) i;
        grown[2 * n + 1] = fd;
        fds[i].fd = neverReady;
        n++;
    }
    return n;
}

static void unmask(struct pollfd *fds, int *saved, int n)
{
    for (int k = 0; k < n; k++) {
        fds[saved[2 * k]].fd = saved[2 * k + 1];
        fds[saved[2 * k]].revents = 0;
    }
    free(saved);
}

/*
 * rpoll of the selector's struct pollfd array, for timeout milliseconds
 * (negative: no timeout), the listeners among them re-checked every
 * capMillis if that is positive (rpollWithTimeout in RdmaWorkarounds.c).
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_pollArray0(JNIEnv *env, jclass cl, jlong address, jint nfds,
                                              jint timeout, jint capMillis, jintArray left)
{
    struct pollfd *fds = (struct pollfd *)(intptr_t) address;
    int *saved = NULL;
    int masked = 0;
    if (left != NULL) {
        jsize nleft = (*env)->GetArrayLength(env, left);
        jint *l = (*env)->GetIntArrayElements(env, left, NULL);
        if (l == NULL)
            return IOS_THROWN;
        masked = maskLeftOut(fds, (nfds_t) nfds, l, nleft, &saved);
        (*env)->ReleaseIntArrayElements(env, left, l, JNI_ABORT);
    }
    int n;
    if (timeout == 0 || (timeout < 0 && capMillis <= 0)) {
        n = p_rpoll(fds, (nfds_t) nfds, timeout == 0 ? 0 : -1);
    } else {
        n = rpollWithTimeout(fds, (nfds_t) nfds, timeout, capMillis);
    }
    if (masked > 0)
        unmask(fds, saved, masked);
    if (n < 0) {
        if (errno == EINTR)
            return IOS_INTERRUPTED;
        JNU_ThrowIOExceptionWithLastError(env, "rpoll failed");
        return IOS_THROWN;
    }
    return n;
}
