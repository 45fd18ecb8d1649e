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

#ifndef RDMALIB_H
#define RDMALIB_H

/*
 * librdmasocket's one way into librdmacm (and libibverbs, its
 * dependency): a table of the entry points it calls, which RdmaLib.c
 * fills with dlsym, and the few helpers every file of the library shares.
 * librdmacm is loaded at run time, so that the JDK starts and runs on
 * machines without rdma-core; rdmaLibLoad runs, from RdmaNet.init0,
 * before any other native of librdmasocket.
 */

#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "jni.h"

struct rdma_event_channel;
struct rdma_cm_event;
struct ibv_context;
struct ibv_qp;
struct ibv_qp_attr;
struct iovec;

extern int (*p_rsocket)(int, int, int);
extern int (*p_rbind)(int, const struct sockaddr *, socklen_t);
extern int (*p_rlisten)(int, int);
extern int (*p_raccept)(int, struct sockaddr *, socklen_t *);
extern int (*p_rconnect)(int, const struct sockaddr *, socklen_t);
extern int (*p_rshutdown)(int, int);
extern int (*p_rclose)(int);
extern ssize_t (*p_rrecv)(int, void *, size_t, int);
extern ssize_t (*p_rsend)(int, const void *, size_t, int);
extern ssize_t (*p_rwritev)(int, const struct iovec *, int);
extern int (*p_rpoll)(struct pollfd *, nfds_t, int);
extern int (*p_rgetsockname)(int, struct sockaddr *, socklen_t *);
extern int (*p_rsetsockopt)(int, int, int, const void *, socklen_t);
extern int (*p_rgetsockopt)(int, int, int, void *, socklen_t *);
extern int (*p_rfcntl)(int, int, ...);
extern struct ibv_context **(*p_rdma_get_devices)(int *);
extern void (*p_rdma_free_devices)(struct ibv_context **);
extern int (*p_rdma_get_cm_event)(struct rdma_event_channel *, struct rdma_cm_event **);
extern int (*p_rdma_ack_cm_event)(struct rdma_cm_event *);
extern int (*p_ibv_modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);

/* Optional (NULL where libibverbs lacks them): fork safety, RdmaNet.init0. */
extern int (*p_ibv_is_fork_initialized)(void);
extern int (*p_ibv_fork_init)(void);

/*
 * Loads librdmacm and fills the table.  Returns 0, or -1 with why it
 * could not in why (len bytes).
 */
int rdmaLibLoad(char *why, size_t len);

/* rfcntl(fd, F_SETFL, flags | O_NONBLOCK); -1 with errno on failure. */
int setNonBlocking(int fd);

/* The socket address of addr (4 or 16 bytes), scope and port. */
void toSockaddr(JNIEnv *env, jbyteArray addr, jint scope, jint port,
                struct sockaddr_storage *ss, socklen_t *len);

#endif
