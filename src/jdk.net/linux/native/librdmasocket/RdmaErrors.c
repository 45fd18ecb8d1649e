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
 * The exceptions of rsockets' errors: each errno as the exception that
 * java.net specifies for the operation (RdmaErrors.h).
 */

#include <errno.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "RdmaErrors.h"

#define BIND_EXCEPTION    JNU_JAVANETPKG "BindException"
#define CONNECT_EXCEPTION JNU_JAVANETPKG "ConnectException"
#define NO_ROUTE_EXCEPTION JNU_JAVANETPKG "NoRouteToHostException"

/*
 * Throws the exception for errno err of an rsockets call and returns
 * IOS_THROWN.  A reset is a SocketException "Connection reset", whatever
 * the call: rsockets reports a write to a peer that has closed or shut
 * down its end as ECONNRESET, and EPIPE and EIO mean the same for a
 * stream socket.  Any other errno is an exception of class cls, which the
 * caller chooses for its operation, with the message of err.
 */
static jint throwError(JNIEnv *env, int err, const char *cls)
{
    switch (err) {
    case ECONNRESET:
    case EPIPE:
    case EIO:
        JNU_ThrowByName(env, SOCKET_EXCEPTION, "Connection reset");
        break;
    case ENODEV:
        errno = err;
        JNU_ThrowByNameWithMessageAndLastError(env, cls, "no RDMA device for this address");
        break;
    case ENOMEM:
        errno = err;
        JNU_ThrowByNameWithMessageAndLastError(env, cls,
            "out of RDMA resources: check RLIMIT_MEMLOCK; rsockets allows 65535 descriptors");
        break;
    default:
        errno = err;
        JNU_ThrowByNameWithLastError(env, cls, "RDMA socket error");
        break;
    }
    return IOS_THROWN;
}

/* Throws SocketException (or "Connection reset") for errno err. */
jint throwSocketError(JNIEnv *env, int err)
{
    return throwError(env, err, SOCKET_EXCEPTION);
}

/*
 * The failure of a connect that rsockets reports (POLLERR) without an error
 * code: the socket went to its error state as the handshake ended, for
 * instance when its completion channel failed.  The connection may have
 * been made, so it is not called refused.
 */
jint throwConnectFailed(JNIEnv *env)
{
    JNU_ThrowByName(env, CONNECT_EXCEPTION,
                    "Connection failed: the RDMA socket reported an error without a cause");
    return IOS_THROWN;
}

/* The failure of a connect: the remote address refused or is unreachable. */
jint throwConnectError(JNIEnv *env, int err)
{
    switch (err) {
    case ECONNREFUSED:
    case ETIMEDOUT:
    case ENETUNREACH:
    case EADDRNOTAVAIL:
    case ENODEV:
        return throwError(env, err, CONNECT_EXCEPTION);
    case EHOSTUNREACH:
        return throwError(env, err, NO_ROUTE_EXCEPTION);
    case EINVAL:
        /* the address was checked in Java: the device refused the queue
           pair or completion queue rsockets asked for (rsockets caps each
           queue at the device's limit, but not their sum, the size of the
           completion queue, nor the inline size) */
        errno = err;
        JNU_ThrowByNameWithMessageAndLastError(env, SOCKET_EXCEPTION,
            "the RDMA device refused the connection's queues: are RDMA_SQSIZE plus RDMA_RQSIZE,"
            " or RDMA_INLINE, above its limits?");
        return IOS_THROWN;
    default:
        return throwSocketError(env, err);
    }
}

/*
 * The failure of a bind, or of the listen that completes the bind of a
 * server socket: the local address is in use or not on an RDMA device.
 */
jint throwBindError(JNIEnv *env, int err)
{
    switch (err) {
    case EADDRINUSE:
    case EADDRNOTAVAIL:
    case ENODEV:
        return throwError(env, err, BIND_EXCEPTION);
    default:
        return throwSocketError(env, err);
    }
}

/*
 * The I/O status for errno err of a failed read, write or accept: "would
 * block" and "interrupted" are statuses, anything else is thrown.  A reset
 * while reading is sun.net.ConnectionResetException, as upstream's
 * SocketDispatcher throws it: SocketChannelImpl remembers it and throws
 * SocketException "Connection reset" for this and every later read.
 */
jint ioStatus(JNIEnv *env, int err, jboolean reading)
{
    if (err == EAGAIN || err == EWOULDBLOCK)
        return IOS_UNAVAILABLE;
    if (err == EINTR)
        return IOS_INTERRUPTED;
    if (reading && (err == ECONNRESET || err == EPIPE || err == EIO)) {
        JNU_ThrowByName(env, "sun/net/ConnectionResetException", "Connection reset");
        return IOS_THROWN;
    }
    return throwSocketError(env, err);
}
