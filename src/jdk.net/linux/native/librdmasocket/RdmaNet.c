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
 * The native side of jdk.internal.net.rdma.RdmaNet: thin wrappers over the
 * rsockets calls of librdmacm, reached through the table of RdmaLib.h.
 * Every socket
 * is non-blocking; waiting is done in Java, with RdmaPoller (RdmaPoller.c).
 * The natives return sun.nio.ch.IOStatus codes: "would block" is
 * IOS_UNAVAILABLE, and an error is thrown, as the exception that
 * java.net specifies for the operation, and returns IOS_THROWN.  The
 * workarounds for librdmacm bugs are in RdmaWorkarounds.c.
 */

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>
#include <rdma/rsocket.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "RdmaErrors.h"
#include "RdmaLib.h"
#include "RdmaWorkarounds.h"

/* Option codes of RdmaNet.java. */
#define OPT_SO_SNDBUF     0
#define OPT_SO_RCVBUF     1
#define OPT_SO_KEEPALIVE  2
#define OPT_SO_REUSEADDR  3
#define OPT_TCP_NODELAY   4
#define OPT_RDMA_SQSIZE   5
#define OPT_RDMA_RQSIZE   6
#define OPT_RDMA_INLINE   7


static jstring message(JNIEnv *env, const char *prefix, const char *detail, const char *suffix) {
    char buf[512];
    snprintf(buf, sizeof(buf), "%s%s%s", prefix, detail, suffix);
    return (*env)->NewStringUTF(env, buf);
}

/*
 * Loads librdmacm and checks for an RDMA device.  Returns NULL when RDMA
 * sockets can be used, otherwise the reason they cannot.
 */
JNIEXPORT jstring JNICALL
Java_jdk_internal_net_rdma_RdmaNet_init0(JNIEnv *env, jclass cl)
{
    char why[256];
    if (rdmaLibLoad(why, sizeof(why)) != 0)
        return message(env, "RDMA sockets are not available: ", why, "");

    int n = 0;
    errno = 0;
    struct ibv_context **list = p_rdma_get_devices(&n);
    if (list == NULL) {
        char err[128] = "";
        (void) getErrorString(errno != 0 ? errno : ENODEV, err, sizeof(err));
        return message(env, "RDMA sockets are not available: no RDMA device (rdma_cm: ",
                       err, "; is the rdma_ucm module loaded?)");
    }
    p_rdma_free_devices(list);
    if (n == 0) {
        return message(env, "RDMA sockets are not available: no RDMA device found", "", "");
    }

    /*
     * Fork safety: a JDK started with launchMechanism=FORK really forks; on
     * a kernel that does not copy pinned pages, libibverbs must mark them
     * MADV_DONTFORK.  Ask for that before any resource exists.
     */
    if (p_ibv_is_fork_initialized != NULL && p_ibv_fork_init != NULL
            && p_ibv_is_fork_initialized() == 0 /* IBV_FORK_DISABLED */) {
        (void) p_ibv_fork_init();
    }
    return NULL;
}

/*
 * Stores the address in out (16 bytes), and in info its length and port,
 * (length << 16) | port, and its IPv6 scope (0 for none).
 */
static void fromSockaddr(JNIEnv *env, struct sockaddr_storage *ss, jbyteArray out, jintArray info)
{
    jint v[2];
    if (ss->ss_family == AF_INET) {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        (*env)->SetByteArrayRegion(env, out, 0, 4, (jbyte *) &sin->sin_addr);
        v[0] = (4 << 16) | ntohs(sin->sin_port);
        v[1] = 0;
    } else {
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
        (*env)->SetByteArrayRegion(env, out, 0, 16, (jbyte *) &sin6->sin6_addr);
        v[0] = (16 << 16) | ntohs(sin6->sin6_port);
        v[1] = (jint) sin6->sin6_scope_id;
    }
    (*env)->SetIntArrayRegion(env, info, 0, 2, v);
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_socket0(JNIEnv *env, jclass cl, jboolean inet6)
{
    int fd = p_rsocket(inet6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return throwSocketError(env, errno);
    if (setNonBlocking(fd) < 0) {
        int err = errno;
        p_rclose(fd);
        return throwSocketError(env, err);
    }
    return fd;
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_bind0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jint scope,
                                         jint port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, scope, port, &ss, &len);
    if (p_rbind(fd, (struct sockaddr *) &ss, len) < 0)
        throwBindError(env, errno);
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_listen0(JNIEnv *env, jclass cl, jint fd, jint backlog)
{
    if (p_rlisten(fd, backlog) < 0)
        throwBindError(env, errno);
}

/*
 * Starts a non-blocking connect: returns 1 if connected, IOS_UNAVAILABLE if
 * the handshake goes on (librdmacm's connection service thread and rpoll
 * drive it; pollConnect0 tells when it is done).  rconnect must not be
 * called again on the socket: each call that returns EINPROGRESS registers
 * it with that thread once more, and rclose removes one registration only.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_connect0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jint scope,
                                            jint port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, scope, port, &ss, &len);
    if (p_rconnect(fd, (struct sockaddr *) &ss, len) == 0) {
        nonBlockingEvents(fd);
        return 1;
    }
    if (errno == EINPROGRESS)
        return IOS_UNAVAILABLE;
    return throwConnectError(env, errno);
}

/* Whether a connect in progress completed; throws if it failed. */
JNIEXPORT jboolean JNICALL
Java_jdk_internal_net_rdma_RdmaNet_pollConnect0(JNIEnv *env, jclass cl, jint fd)
{
    struct pollfd pfd = { fd, POLLOUT, 0 };
    int n = p_rpoll(&pfd, 1, 0);
    if (n < 0) {
        if (errno != EINTR)
            throwSocketError(env, errno);
        return JNI_FALSE;
    }
    if (n == 0)
        return JNI_FALSE;
    int err = 0;
    socklen_t len = sizeof(err);
    if (p_rgetsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        err = errno;
    /*
     * POLLHUP alone is a connection that was made and that the peer has
     * since closed: it may still hold the peer's data, and the reads that
     * follow return it and then end-of-stream, as TCP's would.
     */
    if (err == 0 && (pfd.revents & (POLLERR | POLLNVAL)) != 0) {
        throwConnectFailed(env);
        return JNI_FALSE;
    }
    if (err != 0) {
        throwConnectError(env, err);
        return JNI_FALSE;
    }
    nonBlockingEvents(fd);
    return JNI_TRUE;
}

/* Returns the new socket, non-blocking, or an IOStatus code. */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_accept0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jintArray info)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    int nfd = p_raccept(fd, (struct sockaddr *) &ss, &len);
    if (nfd < 0) {
        if (errno == ECONNABORTED)
            return IOS_INTERRUPTED;     /* the peer gave up: accept again */
        return ioStatus(env, errno, JNI_FALSE);
    }
    nonBlockingEvents(nfd);
    if (setNonBlocking(nfd) < 0) {
        int err = errno;
        p_rclose(nfd);
        return throwSocketError(env, err);
    }
    fromSockaddr(env, &ss, addr, info);
    return nfd;
}

/* Stores the local address in addr and info, as fromSockaddr does. */
JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_localAddress0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr,
                                                 jintArray info)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    if (p_rgetsockname(fd, (struct sockaddr *) &ss, &len) < 0)
        throwSocketError(env, errno);
    else
        fromSockaddr(env, &ss, addr, info);
}

/*
 * rshutdown of a connected socket waits until its sends are delivered, or
 * its connection has failed: RdmaSocket calls it only when that cannot
 * wait for the peer (RdmaReaper).  Of both directions (how 2), it is the
 * drain before the close, and a selector's rpoll leaves the socket out
 * from then on (RdmaWaits.select).
 */
JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_shutdown0(JNIEnv *env, jclass cl, jint fd, jint how)
{
    int h = (how == 0) ? SHUT_RD : (how == 1) ? SHUT_WR : SHUT_RDWR;
    /* EINTR: another signal of the process ended a wait; rclose shuts down again */
    if (p_rshutdown(fd, h) < 0 && errno != ENOTCONN && errno != EINTR)
        throwSocketError(env, errno);
}

static int optionOf(jint opt, int *level, int *name)
{
    switch (opt) {
    case OPT_SO_SNDBUF:    *level = SOL_SOCKET;  *name = SO_SNDBUF;    return 0;
    case OPT_SO_RCVBUF:    *level = SOL_SOCKET;  *name = SO_RCVBUF;    return 0;
    case OPT_SO_KEEPALIVE: *level = SOL_SOCKET;  *name = SO_KEEPALIVE; return 0;
    case OPT_SO_REUSEADDR: *level = SOL_SOCKET;  *name = SO_REUSEADDR; return 0;
    case OPT_TCP_NODELAY:  *level = IPPROTO_TCP; *name = TCP_NODELAY;  return 0;
    case OPT_RDMA_SQSIZE:  *level = SOL_RDMA;    *name = RDMA_SQSIZE;  return 0;
    case OPT_RDMA_RQSIZE:  *level = SOL_RDMA;    *name = RDMA_RQSIZE;  return 0;
    case OPT_RDMA_INLINE:  *level = SOL_RDMA;    *name = RDMA_INLINE;  return 0;
    default: return -1;
    }
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_setIntOption0(JNIEnv *env, jclass cl, jint fd, jint opt, jint value)
{
    int level, name;
    if (optionOf(opt, &level, &name) < 0) {
        JNU_ThrowInternalError(env, "bad option");
        return;
    }
    int rv;
    if (level == SOL_RDMA) {
        uint32_t v = (uint32_t) value;
        rv = p_rsetsockopt(fd, level, name, &v, sizeof(v));
    } else {
        int v = value;
        rv = p_rsetsockopt(fd, level, name, &v, sizeof(v));
    }
    if (rv < 0) {
        if (errno == EINVAL && level == SOL_RDMA) {
            JNU_ThrowByName(env, SOCKET_EXCEPTION,
                            "RDMA queue and inline sizes can only be set before the socket is connected");
        } else {
            throwSocketError(env, errno);
        }
    }
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_getIntOption0(JNIEnv *env, jclass cl, jint fd, jint opt)
{
    int level, name;
    if (optionOf(opt, &level, &name) < 0) {
        JNU_ThrowInternalError(env, "bad option");
        return IOS_THROWN;
    }
    if (level == SOL_RDMA) {
        uint32_t v = 0;
        socklen_t len = sizeof(v);
        if (p_rgetsockopt(fd, level, name, &v, &len) < 0)
            return throwSocketError(env, errno);
        return (jint) v;
    } else {
        int v = 0;
        socklen_t len = sizeof(v);
        if (p_rgetsockopt(fd, level, name, &v, &len) < 0)
            return throwSocketError(env, errno);
        return v;
    }
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_read0(JNIEnv *env, jclass cl, jint fd, jlong address, jint len)
{
    ssize_t n = p_rrecv(fd, (void *)(intptr_t) address, (size_t) len, 0);
    if (n > 0)
        return (jint) n;
    if (n == 0)
        return (len == 0) ? 0 : IOS_EOF;
    return ioStatus(env, errno, JNI_TRUE);
}

/*
 * rsockets has no FIONREAD, so count what has arrived by peeking at it.
 * The count stops at AVAILABLE_MAX: InputStream.available is an estimate,
 * and a larger peek would only copy more.
 */
#define AVAILABLE_MAX 65536

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_available0(JNIEnv *env, jclass cl, jint fd)
{
    void *buf = malloc(AVAILABLE_MAX);
    if (buf == NULL) {
        JNU_ThrowOutOfMemoryError(env, NULL);
        return IOS_THROWN;
    }
    ssize_t n = p_rrecv(fd, buf, AVAILABLE_MAX, MSG_PEEK | MSG_DONTWAIT);
    int err = errno;
    free(buf);
    if (n >= 0)
        return (jint) n;
    if (err == EAGAIN || err == EWOULDBLOCK)
        return 0;
    return throwSocketError(env, err);
}

/*
 * rreadv fills only the first buffer, so receive into each in turn until
 * one is not filled.
 */
JNIEXPORT jlong JNICALL
Java_jdk_internal_net_rdma_RdmaNet_readv0(JNIEnv *env, jclass cl, jint fd, jlong address, jint cnt)
{
    struct iovec *iov = (struct iovec *)(intptr_t) address;
    jlong total = 0;
    for (int i = 0; i < cnt; i++) {
        if (iov[i].iov_len == 0)
            continue;
        ssize_t n = p_rrecv(fd, iov[i].iov_base, iov[i].iov_len, 0);
        if (n < 0) {
            if (total > 0)
                return total;   /* the next call reports the error */
            return ioStatus(env, errno, JNI_TRUE);
        }
        if (n == 0)
            return (total > 0) ? total : IOS_EOF;
        total += n;
        if ((size_t) n < iov[i].iov_len)
            break;
    }
    return total;
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_write0(JNIEnv *env, jclass cl, jint fd, jlong address, jint len)
{
    ssize_t n = p_rsend(fd, (const void *)(intptr_t) address, (size_t) len, 0);
    if (n >= 0)
        return (jint) n;
    return ioStatus(env, errno, JNI_FALSE);
}

JNIEXPORT jlong JNICALL
Java_jdk_internal_net_rdma_RdmaNet_writev0(JNIEnv *env, jclass cl, jint fd, jlong address, jint cnt)
{
    ssize_t n = p_rwritev(fd, (const struct iovec *)(intptr_t) address, cnt);
    if (n >= 0)
        return (jlong) n;
    return ioStatus(env, errno, JNI_FALSE);
}

/*
 * rclose shuts the socket down and frees it; it fails only for a number
 * that is not an rsocket, and returns EBADF then, not -1.  The number is
 * gone either way, so there is nothing to report.  RdmaSocket calls it only
 * when it cannot wait for the peer: on a socket that is not connected, or
 * that is drained.
 */
JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_close0(JNIEnv *env, jclass cl, jint fd)
{
    (void) p_rclose(fd);
}

/* The calling thread, for NativeThread.signal (RdmaDrainWatch). */
JNIEXPORT jlong JNICALL
Java_jdk_internal_net_rdma_RdmaNet_pthread0(JNIEnv *env, jclass cl)
{
    return (jlong) pthread_self();
}

