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
 * The table of librdmacm's entry points (RdmaLib.h), and the helpers the
 * files of librdmasocket share.
 */

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <rdma/rdma_cma.h>
#include <rdma/rsocket.h>

#include "jni.h"
#include "RdmaLib.h"

int (*p_rsocket)(int, int, int);
int (*p_rbind)(int, const struct sockaddr *, socklen_t);
int (*p_rlisten)(int, int);
int (*p_raccept)(int, struct sockaddr *, socklen_t *);
int (*p_rconnect)(int, const struct sockaddr *, socklen_t);
int (*p_rshutdown)(int, int);
int (*p_rclose)(int);
ssize_t (*p_rrecv)(int, void *, size_t, int);
ssize_t (*p_rsend)(int, const void *, size_t, int);
ssize_t (*p_rwritev)(int, const struct iovec *, int);
int (*p_rpoll)(struct pollfd *, nfds_t, int);
int (*p_rgetsockname)(int, struct sockaddr *, socklen_t *);
int (*p_rsetsockopt)(int, int, int, const void *, socklen_t);
int (*p_rgetsockopt)(int, int, int, void *, socklen_t *);
int (*p_rfcntl)(int, int, ...);
struct ibv_context **(*p_rdma_get_devices)(int *);
void (*p_rdma_free_devices)(struct ibv_context **);
int (*p_rdma_get_cm_event)(struct rdma_event_channel *, struct rdma_cm_event **);
int (*p_rdma_ack_cm_event)(struct rdma_cm_event *);
int (*p_ibv_modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);
int (*p_ibv_is_fork_initialized)(void);
int (*p_ibv_fork_init)(void);

#define SYM(var, name)                                                          \
    do {                                                                        \
        *(void **)(&var) = dlsym(h, name);                                      \
        if (var == NULL) {                                                      \
            snprintf(why, len, "librdmacm.so.1 lacks %s", name);                \
            return -1;                                                          \
        }                                                                       \
    } while (0)

int rdmaLibLoad(char *why, size_t len)
{
    void *h = dlopen("librdmacm.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        snprintf(why, len, "librdmacm.so.1 not found, install librdmacm1 (%s)", dlerror());
        return -1;
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
    SYM(p_rdma_get_cm_event, "rdma_get_cm_event");
    SYM(p_rdma_ack_cm_event, "rdma_ack_cm_event");
    SYM(p_ibv_modify_qp, "ibv_modify_qp");
    *(void **)(&p_ibv_is_fork_initialized) = dlsym(h, "ibv_is_fork_initialized");
    *(void **)(&p_ibv_fork_init) = dlsym(h, "ibv_fork_init");
    return 0;
}

/*
 * The release of the librdmacm that was loaded, as major * 1000 + minor
 * (44.0 is 44000), read from the name of the file the library came from:
 * rdma-core installs it as librdmacm.so.1.<abi>.<major>.<minor>, and
 * librdmacm.so.1 is a link to it.  -1 if the name does not say (a library
 * built or installed some other way).
 */
JNIEXPORT jint JNICALL
Java_jdk_internal_net_rdma_RdmaNet_libraryVersion0(JNIEnv *env, jclass cl)
{
    Dl_info info;
    char path[PATH_MAX];
    if (dladdr((void *) p_rsocket, &info) == 0 || info.dli_fname == NULL ||
        realpath(info.dli_fname, path) == NULL)
        return -1;
    const char *name = strrchr(path, '/');
    name = (name != NULL) ? name + 1 : path;
    unsigned abi, abiMinor, major, minor;
    char rest;
    if (sscanf(name, "librdmacm.so.%u.%u.%u.%u%c", &abi, &abiMinor, &major, &minor, &rest) != 4 ||
        major > 100000 || minor > 999)
        return -1;
    return (jint) (major * 1000 + minor);
}

int setNonBlocking(int fd)
{
    int flags = p_rfcntl(fd, F_GETFL, 0);
    if (flags < 0)
        return -1;
    return p_rfcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/*
 * An IPv6 address keeps its scope: rdma_cm, as the kernel, refuses a
 * link-local address without the interface it belongs to.
 */
void toSockaddr(JNIEnv *env, jbyteArray addr, jint scope, jint port,
                struct sockaddr_storage *ss, socklen_t *len)
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
        sin6->sin6_scope_id = (uint32_t) scope;
        (*env)->GetByteArrayRegion(env, addr, 0, 16, (jbyte *) &sin6->sin6_addr);
        *len = sizeof(*sin6);
    }
}
