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

#ifndef RDMANET_H
#define RDMANET_H

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>

struct rdma_event_channel;
struct rdma_cm_event;
struct ibv_qp;
struct ibv_qp_attr;

#include "jni.h"

/*
 * The librdmacm functions librdmasocket calls, taken with dlsym by
 * RdmaNet.init0 (RdmaNet.c) before any other native of RdmaNet runs.
 */
extern int (*p_rsocket)(int, int, int);
extern int (*p_rbind)(int, const struct sockaddr *, socklen_t);
extern int (*p_rlisten)(int, int);
extern int (*p_rconnect)(int, const struct sockaddr *, socklen_t);
extern int (*p_rclose)(int);
extern int (*p_rpoll)(struct pollfd *, nfds_t, int);
extern int (*p_rfcntl)(int, int, ...);
extern int (*p_raccept)(int, struct sockaddr *, socklen_t *);
extern int (*p_rgetsockname)(int, struct sockaddr *, socklen_t *);
extern int (*p_rshutdown)(int, int);
extern int (*p_rdma_get_cm_event)(struct rdma_event_channel *, struct rdma_cm_event **);
extern int (*p_rdma_ack_cm_event)(struct rdma_cm_event *);
extern int (*p_ibv_modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);

/* RdmaNet.c */
int setNonBlocking(int fd);
void toSockaddr(JNIEnv *env, jbyteArray addr, jint scope, jint port,
                struct sockaddr_storage *ss, socklen_t *len);

/* RdmaWorkarounds.c */
void nonBlockingEvents(int fd);
int rpollWithTimeout(struct pollfd *fds, nfds_t nfds, int timeout, int capMillis);

#endif
