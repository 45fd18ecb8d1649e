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
 * Workarounds for librdmacm bugs of the releases librdmasocket runs on
 * (Debian 12 ships librdmacm 44.0).  rdma-core commits and releases:
 *
 * 1. "rsockets: Fix for cm_svc_run thread" (24061f015, first released in
 *    v53.0; backported to v44.7 and the other stable lines, v30.14 to
 *    v52.1).  librdmacm registers every accepted socket, and every socket
 *    whose non-blocking connect returned EINPROGRESS, with one service
 *    thread until its rclose, and every listening socket with another;
 *    both run cm_svc_run, which polls an array of the sockets' event
 *    channels.  The thread keeps the array pointer it started with
 *    when the array is reallocated to grow: it then polls freed memory,
 *    writes revents into it, and handles the events of whichever socket
 *    sits at an index that looks ready, reading that socket's event
 *    channel although no event is pending.  A listener added after the
 *    growth is never watched.  Worked around by growServiceSets0, with
 *    RdmaSocketOps keeping the count of registered sockets within the room
 *    it made, and nonBlockingEvents.
 *
 * 2. "librdmacm: Fix rpoll in case of timeout" (a1747742e, first released
 *    in v63.0; backported to v44.12 and the other stable lines, v40.13 to
 *    v62.1).  When the timeout of rpoll expires, rpoll returns without
 *    leaving its poll gate (rs_poll_exit), after which every rpoll of the
 *    process spins.  Worked around by rpollWithTimeout.
 *
 * 3. "librdmacm: Add rsocket to connect service on success too" (6de134096,
 *    first released in v63.0; backported to v44.12 and the other stable
 *    lines, v40.13 to v62.1).  rconnect registers a socket with the
 *    connection service thread only when it returns EINPROGRESS.  A
 *    handshake can end within the call (1 to 9 % of non-blocking connects
 *    to another process in the Soft-RoCE guest), and then nothing reads
 *    the socket's event channel: when the peer's process dies, the
 *    disconnect its kernel sends is never seen, and a reader of the socket
 *    waits for good.  Worked around by RdmaDisconnectWatcher, which polls
 *    a duplicate of the channel of each such socket, and its natives
 *    (RdmaDisconnectWatcher.c).
 *
 * RdmaNet.libraryVersion0 (RdmaLib.c) tells which release was loaded, so
 * that the workarounds of bugs 1 and 3 run only on releases that have the
 * bug.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "jni.h"
#include "jni_util.h"
#include "RdmaLib.h"
#include "RdmaWorkarounds.h"

/*
 * One start and stop of the connection service: a non-blocking rconnect to
 * ss, still in progress, registers the socket (the thread starts), and
 * rclose unregisters it (the thread ends).  Returns 1 if the socket was
 * registered, 0 if rconnect failed before that (the refusal of a local
 * address can come back within the call, and rdma_cm can fail a step for
 * a moment; the socket then never reached the service), -1 if no rsocket
 * could be made or no RDMA device has the address (ENODEV: no round
 * through it will work).
 */
static int connectServiceRound(struct sockaddr_storage *ss, socklen_t len)
{
    int fd = p_rsocket(ss->ss_family, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int rv = -1;
    if (setNonBlocking(fd) == 0)
        rv = p_rconnect(fd, (struct sockaddr *) ss, len);
    int err = errno;
    p_rclose(fd);
    if (rv < 0 && err == ENODEV)
        return -1;
    return (rv < 0 && err == EINPROGRESS) ? 1 : 0;
}

/*
 * One start and stop of the listen service: rlisten on ss, then rclose.
 * Returns 1 if the socket listened, 0 if rbind or rlisten failed, -1 if no
 * rsocket could be made.
 */
static int listenServiceRound(struct sockaddr_storage *ss, socklen_t len)
{
    int fd = p_rsocket(ss->ss_family, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int rv = -1;
    if (setNonBlocking(fd) == 0 && p_rbind(fd, (struct sockaddr *) ss, len) == 0)
        rv = p_rlisten(fd, 1);
    p_rclose(fd);
    return (rv == 0) ? 1 : 0;
}

/*
 * One start and stop of the connection service that does not depend on
 * timing: a blocking rconnect to the listener lfd, bound at ss, then
 * raccept, which registers the accepted socket whatever the connect did,
 * and rclose of both.  Costs a connection (a queue pair each side), so it
 * is the fallback of connectServiceRound.  Returns 1 if the accepted socket
 * was registered, 0 if the connect failed, -1 if no rsocket could be made.
 */
static int acceptServiceRound(int lfd, struct sockaddr_storage *ss, socklen_t len)
{
    int fd = p_rsocket(ss->ss_family, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int afd = -1;
    if (p_rconnect(fd, (struct sockaddr *) ss, len) == 0)
        afd = p_raccept(lfd, NULL, NULL);
    if (afd >= 0)
        p_rclose(afd);
    p_rclose(fd);
    return (afd >= 0) ? 1 : 0;
}

/*
 * Makes up the rounds still to do with acceptServiceRound, through a
 * listener on addr, port 0.  Returns the rounds done.
 */
static int acceptServiceRounds(struct sockaddr_storage *ss, socklen_t len, int rounds)
{
    int lfd = p_rsocket(ss->ss_family, SOCK_STREAM, 0);
    if (lfd < 0)
        return 0;
    int done = 0;
    struct sockaddr_storage bound;
    socklen_t blen = sizeof(bound);
    if (p_rbind(lfd, (struct sockaddr *) ss, len) == 0 && p_rlisten(lfd, 1) == 0 &&
        p_rgetsockname(lfd, (struct sockaddr *) &bound, &blen) == 0) {
        int failed = 0;
        while (done < rounds) {
            int r = acceptServiceRound(lfd, &bound, blen);
            if (r < 0 || (r == 0 && ++failed > 8))
                break;
            done += r;
        }
    }
    p_rclose(lfd);
    return done;
}

/*
 * Bug 1: the arrays never shrink, and each start of a service thread makes
 * its array four entries larger.  So start and stop the connection service
 * thread rounds times, and the listen service thread listenRounds times,
 * before any socket exists: connects to port 9 of the local address any,
 * and listens on any, port 0 (its port).  Nothing goes on the wire.
 * A connect that fails before rconnect returns, or a listen that fails, is
 * not a round, and is tried again.  Whether a refusal comes back within
 * rconnect is a race with the kernel's connection manager, which can go
 * the same way for a thousand connects in a row; after connectFailures
 * such failures the rest are done by acceptServiceRound, which costs more
 * but does not race.  Returns false if any cannot register a socket (e.g.
 * it is loopback, which has no RDMA device: every rconnect fails with
 * ENODEV).
 */
static jboolean growServiceSets(const struct sockaddr_storage *any, socklen_t len, jint rounds,
                                jint listenRounds, jint connectFailures)
{
    struct sockaddr_storage ss = *any;
    if (ss.ss_family == AF_INET)
        ((struct sockaddr_in *) &ss)->sin_port = htons(9);
    else
        ((struct sockaddr_in6 *) &ss)->sin6_port = htons(9);
    int done = 0, failed = 0;
    while (done < rounds && failed < connectFailures) {
        int r = connectServiceRound(&ss, len);
        if (r < 0)
            return JNI_FALSE;
        done += r;
        failed += 1 - r;
    }
    ss = *any;
    if (done < rounds && done + acceptServiceRounds(&ss, len, rounds - done) < rounds)
        return JNI_FALSE;
    failed = 0;
    for (int listened = 0; listened < listenRounds; ) {
        int r = listenServiceRound(&ss, len);
        if (r < 0 || (r == 0 && ++failed > 8 * listenRounds + 64))
            return JNI_FALSE;
        listened += r;
    }
    return JNI_TRUE;
}

/* Bug 1: growServiceSets through the local address addr (4 or 16 bytes). */
JNIEXPORT jboolean JNICALL
Java_jdk_internal_net_rdma_RdmaNet_growServiceSets0(JNIEnv *env, jclass cl, jbyteArray addr, jint rounds,
                                                    jint listenRounds, jint connectFailures)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, 0, 0, &ss, &len);
    return growServiceSets(&ss, len, rounds, listenRounds, connectFailures);
}

/* Whether an rsocket can bind ss: whether an RDMA device has the address. */
static int rdmaBindable(const struct sockaddr_storage *ss, socklen_t len)
{
    int fd = p_rsocket(ss->ss_family, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    int ok = p_rbind(fd, (const struct sockaddr *) ss, len) == 0;
    p_rclose(fd);
    return ok;
}

/*
 * Bug 1: growServiceSets through the first local address where it works:
 * one of an interface that is up, neither loopback nor link-local (the
 * rounds pass no scope, and rdma_cm refuses a link-local address without
 * one: EINVAL), that an RDMA device has.  The last is checked with an
 * rbind first: an rconnect from an address without a device can still
 * register the socket and fail later, so the connection rounds would all
 * be made, and then every listen round would fail (in the Soft-RoCE guest
 * getifaddrs lists veth1, which has no device, before veth0, which has
 * rxe0).  The addresses come from getifaddrs(3), as the kernel lists them,
 * not from java.net.NetworkInterface, whose first use in a JVM is slow.
 * Returns false if no address worked.
 */
JNIEXPORT jboolean JNICALL
Java_jdk_internal_net_rdma_RdmaNet_growServiceSetsAnywhere0(JNIEnv *env, jclass cl, jint rounds,
                                                            jint listenRounds, jint connectFailures)
{
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) != 0)
        return JNI_FALSE;
    jboolean grown = JNI_FALSE;
    for (struct ifaddrs *i = ifs; i != NULL && !grown; i = i->ifa_next) {
        if (i->ifa_addr == NULL || (i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0)
            continue;
        struct sockaddr_storage ss;
        socklen_t len;
        memset(&ss, 0, sizeof(ss));
        if (i->ifa_addr->sa_family == AF_INET) {
            struct sockaddr_in *sin = (struct sockaddr_in *) i->ifa_addr;
            if ((ntohl(sin->sin_addr.s_addr) & 0xffff0000) == 0xa9fe0000)     /* 169.254/16 */
                continue;
            len = sizeof(struct sockaddr_in);
        } else if (i->ifa_addr->sa_family == AF_INET6) {
            struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) i->ifa_addr;
            if (IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) || IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
                continue;
            len = sizeof(struct sockaddr_in6);
        } else {
            continue;
        }
        memcpy(&ss, i->ifa_addr, len);
        if (ss.ss_family == AF_INET) {
            ((struct sockaddr_in *) &ss)->sin_port = 0;
        } else {
            ((struct sockaddr_in6 *) &ss)->sin6_port = 0;
            ((struct sockaddr_in6 *) &ss)->sin6_scope_id = 0;
            ((struct sockaddr_in6 *) &ss)->sin6_flowinfo = 0;
        }
        if (rdmaBindable(&ss, len))
            grown = growServiceSets(&ss, len, rounds, listenRounds, connectFailures);
    }
    freeifaddrs(ifs);
    return grown;
}

/*
 * Bug 1: makes the event channel of an accepted or connected rsocket
 * non-blocking, so that a read of it by the connection service thread with
 * no event pending fails with EAGAIN instead of blocking that thread, and
 * with it every later raccept and rclose of the process, for good.  Nothing
 * is lost: that thread is the only reader of a connected socket's channel.
 * The number of a stream rsocket is the descriptor of its channel, so this
 * is fcntl(2); rfcntl leaves the channel of a connected socket alone.
 */
void nonBlockingEvents(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK) == 0)
        (void) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static long long nowMillis(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Bug 2: rpoll of fds, waiting up to timeout milliseconds (positive) or
 * for good (negative), without ever giving rpoll a positive timeout: the
 * deadline is a timerfd in an extra slot, with rpoll(-1).  A positive
 * capMillis bounds each wait, and rpoll runs again after it, which
 * re-checks entries whose readiness rpoll may signal late (listening
 * rsockets).  Returns what rpoll returns: the number of ready entries, 0
 * when the timeout expired, or -1 with errno set.
 */
int rpollWithTimeout(struct pollfd *fds, nfds_t nfds, int timeout, int capMillis)
{
    struct pollfd *tmp = malloc(sizeof(struct pollfd) * (nfds + 1));
    if (tmp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (tfd < 0) {
        int err = errno;
        free(tmp);
        errno = err;
        return -1;
    }
    long long deadline = (timeout > 0) ? nowMillis() + timeout : 0;
    int result;
    for (;;) {
        long long wait = capMillis;
        if (timeout > 0) {
            long long remaining = deadline - nowMillis();
            if (remaining < 0)
                remaining = 0;
            if (capMillis <= 0 || remaining < wait)
                wait = remaining;
        }
        if (wait <= 0) {
            result = p_rpoll(fds, nfds, 0);
            break;
        }
        struct itimerspec its;
        memset(&its, 0, sizeof(its));
        its.it_value.tv_sec = wait / 1000;
        its.it_value.tv_nsec = (wait % 1000) * 1000000;
        timerfd_settime(tfd, 0, &its, NULL);
        memcpy(tmp, fds, sizeof(struct pollfd) * nfds);
        tmp[nfds].fd = tfd;
        tmp[nfds].events = POLLIN;
        tmp[nfds].revents = 0;
        int n = p_rpoll(tmp, nfds + 1, -1);
        if (n < 0) {
            result = n;
            break;
        }
        for (nfds_t i = 0; i < nfds; i++)
            fds[i].revents = tmp[i].revents;
        if (tmp[nfds].revents != 0)
            n--;
        if (n > 0) {
            result = n;
            break;
        }
        if (timeout > 0 && nowMillis() >= deadline) {
            result = 0;
            break;
        }
    }
    int err = errno;
    close(tfd);
    free(tmp);
    errno = err;
    return result;
}
