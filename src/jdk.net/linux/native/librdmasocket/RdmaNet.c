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
 * rsockets calls of librdmacm, which is loaded at run time with dlopen, so
 * that the JDK starts and runs on machines without rdma-core.  Every socket
 * is non-blocking but for the connect handshake (connect0); waiting is
 * done in Java.  Errors become Java exceptions
 * here (errno mapping); "would block" becomes IOS_UNAVAILABLE.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>
#include <rdma/rsocket.h>

#include "jni.h"
#include "jni_util.h"

/* The IOStatus codes of sun.nio.ch.IOStatus (nio.h). */
#define IOS_EOF           (-1)
#define IOS_UNAVAILABLE   (-2)
#define IOS_INTERRUPTED   (-3)

/* Option codes of RdmaNet.java. */
#define OPT_SO_SNDBUF     0
#define OPT_SO_RCVBUF     1
#define OPT_SO_KEEPALIVE  2
#define OPT_SO_REUSEADDR  3
#define OPT_TCP_NODELAY   4
#define OPT_RDMA_SQSIZE   5
#define OPT_RDMA_RQSIZE   6
#define OPT_RDMA_INLINE   7

/* The functions taken from librdmacm (and libibverbs, its dependency). */
static int (*p_rsocket)(int, int, int);
static int (*p_rbind)(int, const struct sockaddr *, socklen_t);
static int (*p_rlisten)(int, int);
static int (*p_raccept)(int, struct sockaddr *, socklen_t *);
static int (*p_rconnect)(int, const struct sockaddr *, socklen_t);
static int (*p_rshutdown)(int, int);
static int (*p_rclose)(int);
static ssize_t (*p_rrecv)(int, void *, size_t, int);
static ssize_t (*p_rsend)(int, const void *, size_t, int);
static ssize_t (*p_rwritev)(int, const struct iovec *, int);
static int (*p_rpoll)(struct pollfd *, nfds_t, int);
static int (*p_rgetsockname)(int, struct sockaddr *, socklen_t *);
static int (*p_rsetsockopt)(int, int, int, const void *, socklen_t);
static int (*p_rgetsockopt)(int, int, int, void *, socklen_t *);
static int (*p_rfcntl)(int, int, ...);
static struct ibv_context **(*p_rdma_get_devices)(int *);
static void (*p_rdma_free_devices)(struct ibv_context **);

static jstring message(JNIEnv *env, const char *prefix, const char *detail, const char *suffix) {
    char buf[512];
    snprintf(buf, sizeof(buf), "%s%s%s", prefix, detail, suffix);
    return (*env)->NewStringUTF(env, buf);
}

#define SYM(var, name)                                          \
    do {                                                        \
        *(void **)(&var) = dlsym(h, name);                      \
        if (var == NULL)                                        \
            return message(env, "RDMA sockets are not available: librdmacm.so.1 lacks ", name, ""); \
    } while (0)

static int setNonBlocking(int fd)
{
    int flags = p_rfcntl(fd, F_GETFL, 0);
    if (flags < 0)
        return -1;
    return p_rfcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/*
 * Loads librdmacm and checks for an RDMA device.  Returns NULL when RDMA
 * sockets can be used, otherwise the reason they cannot.
 */
JNIEXPORT jstring JNICALL
Java_jdk_internal_net_rdma_RdmaNet_init0(JNIEnv *env, jclass cl)
{
    void *h = dlopen("librdmacm.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        return message(env, "RDMA sockets are not available: librdmacm.so.1 not found, install librdmacm1 (",
                       dlerror(), ")");
    }
    SYM(p_rsocket, "rsocket");
    SYM(p_rbind, "rbind");
    SYM(p_rlisten, "rlisten");
    SYM(p_raccept, "raccept");
    SYM(p_rconnect, "rconnect");
    SYM(p_rshutdown, "rshutdown");
    SYM(p_rclose, "rclose");
    SYM(p_rrecv, "rrecv");
    SYM(p_rsend, "rsend");
    SYM(p_rwritev, "rwritev");
    SYM(p_rpoll, "rpoll");
    SYM(p_rgetsockname, "rgetsockname");
    SYM(p_rsetsockopt, "rsetsockopt");
    SYM(p_rgetsockopt, "rgetsockopt");
    SYM(p_rfcntl, "rfcntl");
    SYM(p_rdma_get_devices, "rdma_get_devices");
    SYM(p_rdma_free_devices, "rdma_free_devices");

    int n = 0;
    errno = 0;
    struct ibv_context **list = p_rdma_get_devices(&n);
    if (list == NULL) {
        return message(env, "RDMA sockets are not available: no RDMA device (rdma_cm: ",
                       strerror(errno != 0 ? errno : ENODEV), "; is the rdma_ucm module loaded?)");
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
    int (*is_fork_init)(void);
    int (*fork_init)(void);
    *(void **)(&is_fork_init) = dlsym(h, "ibv_is_fork_initialized");
    *(void **)(&fork_init) = dlsym(h, "ibv_fork_init");
    if (is_fork_init != NULL && fork_init != NULL && is_fork_init() == 0 /* IBV_FORK_DISABLED */) {
        (void) fork_init();
    }
    return NULL;
}

/* Throws the exception that stands for errno err in operation what. */
static void throwErrno(JNIEnv *env, int err, const char *what)
{
    const char *cls = "java/net/SocketException";
    char buf[256];
    const char *msg = strerror(err);
    switch (err) {
    case ECONNREFUSED:
        cls = "java/net/ConnectException"; msg = "Connection refused"; break;
    case ETIMEDOUT:
        cls = "java/net/ConnectException"; msg = "Connection timed out"; break;
    case ENETUNREACH: case EHOSTUNREACH:
        cls = "java/net/NoRouteToHostException"; break;
    case EADDRINUSE:
        cls = "java/net/BindException"; msg = "Address already in use"; break;
    case ENODEV: case EADDRNOTAVAIL:
        cls = (strcmp(what, "connect") == 0) ? "java/net/ConnectException" : "java/net/BindException";
        msg = "address not reachable through an RDMA device";
        break;
    case ECONNRESET:
    case EPIPE:
        cls = (strcmp(what, "read") == 0) ? "sun/net/ConnectionResetException" : "java/net/SocketException";
        msg = "Connection reset";
        break;
    case ENOMEM:
        msg = "out of RDMA resources (check RLIMIT_MEMLOCK; rsockets also limits descriptors to 65535)";
        break;
    case EIO:
        cls = "java/io/IOException"; msg = "RDMA transport error"; break;
    case EBADF:
        msg = "Socket closed"; break;
    default:
        break;
    }
    snprintf(buf, sizeof(buf), "%s (%s)", msg, what);
    JNU_ThrowByName(env, cls, buf);
}

/*
 * The I/O status for a failed r* call, from errno: "would block" and
 * "interrupted" are statuses; anything else is thrown, and the status
 * returned then is ignored by the caller, which sees the exception.
 */
static jint ioStatus(JNIEnv *env, const char *what)
{
    int err = errno;
    if (err == EAGAIN || err == EWOULDBLOCK)
        return IOS_UNAVAILABLE;
    if (err == EINTR)
        return IOS_INTERRUPTED;
    throwErrno(env, err, what);
    return IOS_UNAVAILABLE;
}

static int toSockaddr(JNIEnv *env, jbyteArray addr, jint port, struct sockaddr_storage *ss, socklen_t *len)
{
    jsize n = (*env)->GetArrayLength(env, addr);
    memset(ss, 0, sizeof(*ss));
    if (n == 4) {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        sin->sin_family = AF_INET;
        sin->sin_port = htons((uint16_t) port);
        (*env)->GetByteArrayRegion(env, addr, 0, 4, (jbyte *) &sin->sin_addr);
        *len = sizeof(*sin);
    } else {
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons((uint16_t) port);
        (*env)->GetByteArrayRegion(env, addr, 0, 16, (jbyte *) &sin6->sin6_addr);
        *len = sizeof(*sin6);
    }
    return 0;
}

/* Stores the address in out (16 bytes) and returns (length << 16) | port. */
static jint fromSockaddr(JNIEnv *env, struct sockaddr_storage *ss, jbyteArray out)
{
    if (ss->ss_family == AF_INET) {
        struct sockaddr_in *sin = (struct sockaddr_in *) ss;
        (*env)->SetByteArrayRegion(env, out, 0, 4, (jbyte *) &sin->sin_addr);
        return (4 << 16) | ntohs(sin->sin_port);
    } else {
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) ss;
        (*env)->SetByteArrayRegion(env, out, 0, 16, (jbyte *) &sin6->sin6_addr);
        return (16 << 16) | ntohs(sin6->sin6_port);
    }
}

/*
 * Works around a bug of librdmacm releases without rdma-core commit
 * 24061f015 (fixed in 53.0, backported to 44.7 and to later stable
 * releases; Debian 12 ships 44.0).  Its service threads, one that watches
 * every accepted socket and every connect in progress and one that watches
 * every listening socket, keep polling the descriptor array they started
 * with after that array grows past its first size: they write to
 * freed memory (glibc then aborts with "free(): invalid next size"), spin,
 * and read the event channels of other sockets; one without a pending event
 * blocks it for good, and with it every later raccept and rclose of the
 * process (they wait for it under librdmacm's global lock); a listener
 * added after the growth is never watched, so its connections are lost.
 *
 * The arrays never shrink, and each start of a thread makes its array four
 * entries larger.  So start and stop each thread rounds times, before any
 * socket exists.  The connection service: a non-blocking rconnect to addr,
 * still resolving, registers the socket (the thread starts), and rclose
 * unregisters it (the thread ends).  The listen service: rlisten on addr,
 * port 0, then rclose.  addr is a local address, so nothing goes on the
 * wire.  Returns false if a round could not register a socket (e.g. addr
 * is loopback, which has no RDMA device: rconnect fails with ENODEV).
 */
JNIEXPORT jboolean JNICALL
Java_jdk_internal_net_rdma_RdmaNet_growServiceSets0(JNIEnv *env, jclass cl, jbyteArray addr, jint rounds)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, 9, &ss, &len);
    for (int i = 0; i < rounds; i++) {
        int fd = p_rsocket(ss.ss_family, SOCK_STREAM, 0);
        if (fd < 0)
            return JNI_FALSE;
        int rv = -1;
        if (setNonBlocking(fd) == 0)
            rv = p_rconnect(fd, (struct sockaddr *) &ss, len);
        int err = errno;
        p_rclose(fd);
        if (rv == 0 || err != EINPROGRESS)
            return JNI_FALSE;   /* never registered with the service */
    }
    struct sockaddr_storage any;     /* addr, port 0 */
    toSockaddr(env, addr, 0, &any, &len);
    for (int i = 0; i < rounds; i++) {
        int fd = p_rsocket(ss.ss_family, SOCK_STREAM, 0);
        if (fd < 0)
            return JNI_FALSE;
        int rv = -1;
        if (setNonBlocking(fd) == 0 && p_rbind(fd, (struct sockaddr *) &any, len) == 0)
            rv = p_rlisten(fd, 1);
        p_rclose(fd);
        if (rv != 0)
            return JNI_FALSE;
    }
    return JNI_TRUE;
}

/*
 * Makes the rsocket's connection-manager event channel non-blocking.  The
 * number of a stream rsocket is the descriptor of that channel, so this is
 * fcntl(2), not rfcntl, which leaves the channel of a connected socket alone.
 *
 * Why: the connection service thread of an unfixed librdmacm may
 * read the events of any socket registered with it without one pending
 * (see growServiceSets0).  On a blocking channel that read never returns;
 * non-blocking, it fails with EAGAIN and nothing is lost, since that thread
 * is the only reader of a connected socket's channel.
 */
static void nonBlockingEvents(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK) == 0)
        (void) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_socket0(JNIEnv *env, jclass cl, jboolean inet6)
{
    int fd = p_rsocket(inet6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        throwErrno(env, errno, "socket");
        return -1;
    }
    if (setNonBlocking(fd) < 0) {
        int err = errno;
        p_rclose(fd);
        throwErrno(env, err, "socket");
        return -1;
    }
    return fd;
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_bind0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jint port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, port, &ss, &len);
    if (p_rbind(fd, (struct sockaddr *) &ss, len) < 0)
        throwErrno(env, errno, "bind");
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_listen0(JNIEnv *env, jclass cl, jint fd, jint backlog)
{
    if (p_rlisten(fd, backlog) < 0)
        throwErrno(env, errno, "listen");
}

/*
 * Connects in blocking mode, then makes the socket non-blocking again: the
 * whole handshake runs in this thread, on the socket's own event channel,
 * and the socket is never registered with librdmacm's connection service
 * thread (see growServiceSets0), whose bug would otherwise stall every
 * connect in progress.  A non-blocking connect is future work.
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_connect0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jint port)
{
    struct sockaddr_storage ss;
    socklen_t len;
    toSockaddr(env, addr, port, &ss, &len);
    int flags = p_rfcntl(fd, F_GETFL, 0);
    if (flags < 0 || p_rfcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        throwErrno(env, errno, "connect");
        return IOS_UNAVAILABLE;
    }
    int rv;
    do {
        rv = p_rconnect(fd, (struct sockaddr *) &ss, len);
    } while (rv < 0 && errno == EINTR);
    int err = errno;
    (void) p_rfcntl(fd, F_SETFL, flags | O_NONBLOCK);
    if (rv < 0) {
        throwErrno(env, err, "connect");
        return IOS_UNAVAILABLE;
    }
    nonBlockingEvents(fd);
    return 1;
}

/* Whether a connect in progress completed; throws if it failed. */
JNIEXPORT jboolean JNICALL
Java_jdk_internal_net_rdma_RdmaNet_pollConnect0(JNIEnv *env, jclass cl, jint fd)
{
    struct pollfd pfd = { fd, POLLOUT, 0 };
    int n = p_rpoll(&pfd, 1, 0);
    if (n < 0) {
        if (errno == EINTR)
            return JNI_FALSE;
        throwErrno(env, errno, "connect");
        return JNI_FALSE;
    }
    if (n == 0)
        return JNI_FALSE;
    int err = 0;
    socklen_t len = sizeof(err);
    if (p_rgetsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        err = errno;
    if (err != 0) {
        throwErrno(env, err, "connect");
        return JNI_FALSE;
    }
    if ((pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
        throwErrno(env, ECONNREFUSED, "connect");
        return JNI_FALSE;
    }
    return JNI_TRUE;
}

/* Returns the new socket, non-blocking, or IOS_UNAVAILABLE. */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_accept0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr, jintArray info)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    int nfd = p_raccept(fd, (struct sockaddr *) &ss, &len);
    if (nfd < 0) {
        if (errno == ECONNABORTED)
            return IOS_INTERRUPTED;     /* the peer gave up: accept again */
        return ioStatus(env, "accept");
    }
    nonBlockingEvents(nfd);
    if (setNonBlocking(nfd) < 0) {
        int err = errno;
        p_rclose(nfd);
        throwErrno(env, err, "accept");
        return IOS_UNAVAILABLE;
    }
    jint v = fromSockaddr(env, &ss, addr);
    (*env)->SetIntArrayRegion(env, info, 0, 1, &v);
    return nfd;
}

/* Stores the local address in addr; returns (length << 16) | port. */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_localAddress0(JNIEnv *env, jclass cl, jint fd, jbyteArray addr)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    if (p_rgetsockname(fd, (struct sockaddr *) &ss, &len) < 0) {
        throwErrno(env, errno, "getsockname");
        return -1;
    }
    return fromSockaddr(env, &ss, addr);
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_shutdown0(JNIEnv *env, jclass cl, jint fd, jint how)
{
    int h = (how == 0) ? SHUT_RD : (how == 1) ? SHUT_WR : SHUT_RDWR;
    if (p_rshutdown(fd, h) < 0 && errno != ENOTCONN)
        throwErrno(env, errno, "shutdown");
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
        JNU_ThrowByName(env, "java/lang/InternalError", "bad option");
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
            JNU_ThrowByName(env, "java/net/SocketException",
                            "RDMA queue and inline sizes can only be set before the socket is connected");
        } else {
            throwErrno(env, errno, "setsockopt");
        }
    }
}

JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_getIntOption0(JNIEnv *env, jclass cl, jint fd, jint opt)
{
    int level, name;
    if (optionOf(opt, &level, &name) < 0) {
        JNU_ThrowByName(env, "java/lang/InternalError", "bad option");
        return -1;
    }
    if (level == SOL_RDMA) {
        uint32_t v = 0;
        socklen_t len = sizeof(v);
        if (p_rgetsockopt(fd, level, name, &v, &len) < 0) {
            throwErrno(env, errno, "getsockopt");
            return -1;
        }
        return (jint) v;
    } else {
        int v = 0;
        socklen_t len = sizeof(v);
        if (p_rgetsockopt(fd, level, name, &v, &len) < 0) {
            throwErrno(env, errno, "getsockopt");
            return -1;
        }
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
    return ioStatus(env, "read");
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
            return ioStatus(env, "read");
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
    return ioStatus(env, "write");
}

JNIEXPORT jlong JNICALL
Java_jdk_internal_net_rdma_RdmaNet_writev0(JNIEnv *env, jclass cl, jint fd, jlong address, jint cnt)
{
    ssize_t n = p_rwritev(fd, (const struct iovec *)(intptr_t) address, cnt);
    if (n >= 0)
        return (jlong) n;
    return ioStatus(env, "write");
}

JNIEXPORT void JNICALL
Java_jdk_internal_net_rdma_RdmaNet_close0(JNIEnv *env, jclass cl, jint fd)
{
    int rv = p_rclose(fd);
    if (rv != 0 && rv != EBADF && errno != EBADF && errno != ENOTCONN && errno != EINTR)
        throwErrno(env, rv > 0 ? rv : errno, "close");
}

/* rpoll of one socket without waiting: its revents, 0 if none. */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_poll0(JNIEnv *env, jclass cl, jint fd, jint events)
{
    struct pollfd pfd = { fd, (short) events, 0 };
    int n = p_rpoll(&pfd, 1, 0);
    if (n < 0)
        return (errno == EINTR) ? 0 : POLLERR;
    return (n == 0) ? 0 : pfd.revents;
}

static long long nowMillis(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * rpoll of the selector's struct pollfd array.  rpoll is never given a
 * positive timeout (librdmacm up to v62 leaks its poll gate when one
 * expires, after which every rpoll of the process spins): a deadline, and
 * the cap that makes listeners be re-checked (rsockets may signal accept
 * readiness late), are a timerfd in an extra slot, with rpoll(-1).
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_pollArray0(JNIEnv *env, jclass cl, jlong address, jint nfds,
                                              jint timeout, jint capMillis)
{
    struct pollfd *fds = (struct pollfd *)(intptr_t) address;
    if (timeout == 0 || (timeout < 0 && capMillis <= 0)) {
        int n = p_rpoll(fds, (nfds_t) nfds, timeout == 0 ? 0 : -1);
        if (n < 0) {
            if (errno == EINTR)
                return IOS_INTERRUPTED;
            throwErrno(env, errno, "poll");
        }
        return n;
    }

    struct pollfd *tmp = malloc(sizeof(struct pollfd) * (nfds + 1));
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (tmp == NULL || tfd < 0) {
        free(tmp);
        if (tfd >= 0)
            close(tfd);
        throwErrno(env, tmp == NULL ? ENOMEM : errno, "poll");
        return -1;
    }
    long long deadline = (timeout > 0) ? nowMillis() + timeout : 0;
    int result;
    for (;;) {
        long long wait = capMillis;
        if (timeout > 0) {
            long long remaining = deadline - nowMillis();
            if (remaining <= 0) {
                remaining = 0;
            }
            if (capMillis <= 0 || remaining < wait)
                wait = remaining;
        }
        if (wait <= 0) {
            result = p_rpoll(fds, (nfds_t) nfds, 0);
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
        int n = p_rpoll(tmp, (nfds_t) nfds + 1, -1);
        if (n < 0) {
            result = n;
            break;
        }
        for (int i = 0; i < nfds; i++)
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
    if (result < 0) {
        if (err == EINTR)
            return IOS_INTERRUPTED;
        throwErrno(env, err, "poll");
    }
    return result;
}
