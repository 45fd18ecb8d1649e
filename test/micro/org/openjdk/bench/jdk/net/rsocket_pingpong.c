/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
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
 * The C baseline of RdmaChannels.pingPong: one connection, round trips of
 * SIZE bytes each way, every round trip timed on its own, printed as
 * percentiles, so that the Java and C sides report the same statistics.
 * librdmacm's rstream prints only a mean per run.
 *
 *   rsocket_pingpong -s ADDR [-p PORT] [-T] [-B BYTES] [-k CONNECTIONS] [-S SIZE]
 *                    [-m spin|block|poll|iowrite]
 *   rsocket_pingpong -c ADDR [-p PORT] [-T] [-B BYTES] [-S SIZE] [-n ROUNDS]
 *                    [-w WARMUP] [-m spin|block|poll|iowrite]
 *
 * -s runs the server: on each connection it receives SIZE bytes whole and
 * sends them back, until end-of-stream, one connection after another, and
 * exits after -k of them (default 1).  Echoing a message only once it has
 * all of it keeps both sides from blocking in send when a message is larger
 * than the socket buffers, as rstream's server does.
 * -c runs the client, which prints one line:
 *
 *   pingpong rdma spin size 64 rounds 20000 p50 24.1 p90 30.2 p99 61.0 mean 26.3 us
 *
 * -T uses the kernel's TCP instead of rsockets.  -B sets SO_SNDBUF and
 * SO_RCVBUF before the connect or listen (rsockets ignores them after).
 * -m spin makes both sides call send and recv with MSG_DONTWAIT in a
 * loop, as rstream does by default; -m block (the default) makes blocking
 * calls, which in rsockets poll the completion queue for a moment and then
 * sleep on its channel: the C counterpart of a Java thread that parks.
 * -m poll makes non-blocking calls and, when one would block, waits in
 * poll (rpoll) for the socket to be ready, as Java's channels do, but in
 * the same thread: the Java side without its poller thread.
 * -m iowrite (rsockets only) places each message straight into the peer's
 * receive buffer: both sides set RDMA_IOMAPSIZE before the connect or
 * listen and riomap their receive buffer at offset 0, and a message is a
 * blocking riowrite to that offset followed by a one-byte rsend, which
 * rsockets delivers only after the written data.  The receiver's only
 * call is the rrecv of that byte, so its copy out of rsockets' buffer is
 * saved: the case for a zero-copy API (issue 14).
 */

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <rdma/rsocket.h>

/* The calls of one transport: rsockets or the kernel's sockets. */
struct ops {
    const char *name;
    int (*socket)(int, int, int);
    int (*bind)(int, const struct sockaddr *, socklen_t);
    int (*listen)(int, int);
    int (*accept)(int, struct sockaddr *, socklen_t *);
    int (*connect)(int, const struct sockaddr *, socklen_t);
    ssize_t (*send)(int, const void *, size_t, int);
    ssize_t (*recv)(int, void *, size_t, int);
    int (*setsockopt)(int, int, int, const void *, socklen_t);
    int (*close)(int);
    int (*poll)(struct pollfd *, nfds_t, int);
};

static const struct ops rdma_ops = {
    "rdma", rsocket, rbind, rlisten, raccept, rconnect, rsend, rrecv, rsetsockopt, rclose, rpoll
};

static const struct ops tcp_ops = {
    "tcp", socket, bind, listen, accept, connect, send, recv, setsockopt, close, poll
};

static const struct ops *ops = &rdma_ops;
static int dontwait;            /* -m spin or poll */
static int pollwait;            /* -m poll */
static int iowrite;             /* -m iowrite */

static void die(const char *what) {
    fprintf(stderr, "rsocket_pingpong: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void usage(void) {
    fprintf(stderr, "usage: rsocket_pingpong -s ADDR [-p PORT] [-T] [-B BYTES] [-k CONNECTIONS] [-S SIZE]"
                    " [-m spin|block|poll|iowrite]\n"
                    "       rsocket_pingpong -c ADDR [-p PORT] [-T] [-B BYTES] [-S SIZE] [-n ROUNDS]"
                    " [-w WARMUP] [-m spin|block|poll|iowrite]\n");
    exit(2);
}

/* Sends or receives exactly len bytes; returns 0, or -1 at end-of-stream. */
static int transfer(int fd, char *buf, size_t len, int sending) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = sending ? ops->send(fd, buf + done, len - done, dontwait)
                            : ops->recv(fd, buf + done, len - done, dontwait);
        if (n > 0) {
            done += n;
        } else if (n == 0 && !sending) {
            return -1;
        } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            die(sending ? "send" : "recv");
        } else if (n < 0 && pollwait) {
            struct pollfd pfd = { .fd = fd, .events = sending ? POLLOUT : POLLIN };
            if (ops->poll(&pfd, 1, -1) < 0 && errno != EINTR)
                die("poll");
        }
    }
    return 0;
}

static void set_buffers(int fd, int bytes) {
    if (bytes <= 0)
        return;
    if (ops->setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) < 0 ||
        ops->setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) < 0)
        die("setsockopt SO_SNDBUF/SO_RCVBUF");
}

static int open_socket(const struct addrinfo *ai, int bufsize) {
    int fd = ops->socket(ai->ai_family, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    if (ops->setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0)
        die("setsockopt TCP_NODELAY");
    set_buffers(fd, bufsize);
    int maps = 1;
    if (iowrite && rsetsockopt(fd, SOL_RDMA, RDMA_IOMAPSIZE, &maps, sizeof maps) < 0)
        die("rsetsockopt RDMA_IOMAPSIZE");
    return fd;
}

/*
 * -m iowrite: maps buf, the receive buffer, for the peer's riowrite, and
 * exchanges a byte each way, since a mapping reaches the peer only with
 * a transfer that follows it.  Without -m iowrite it does nothing.
 */
static void map_inbox(int fd, char *buf, long size, int accepted) {
    char note = 0;
    if (!iowrite)
        return;
    if (riomap(fd, buf, size, PROT_WRITE, 0, 0) != 0)
        die("riomap");
    if (transfer(fd, &note, 1, !accepted) < 0 || transfer(fd, &note, 1, accepted) < 0) {
        fprintf(stderr, "rsocket_pingpong: end-of-stream while exchanging mappings\n");
        exit(1);
    }
}

/*
 * Removes map_inbox's mapping, which must go before rclose: librdmacm's
 * rclose (44.0 to 64.0) spins for ever on a socket that still has one, since
 * it unmaps through the socket's index after dropping it.
 */
static void unmap_inbox(int fd, char *buf, long size) {
    if (iowrite && riounmap(fd, buf, size) != 0)
        die("riounmap");
}

/* Sends one message: in the peer's mapped buffer (-m iowrite) or in the stream. */
static void send_message(int fd, char *buf, long size) {
    char note = 1;
    if (!iowrite) {
        transfer(fd, buf, size, 1);
    } else if (riowrite(fd, buf, size, 0, 0) != (size_t) size) {
        die("riowrite");
    } else {
        transfer(fd, &note, 1, 1);
    }
}

/* Receives one message into buf, or with -m iowrite the notice that it is there. */
static int receive_message(int fd, char *buf, long size) {
    char note;
    return iowrite ? transfer(fd, &note, 1, 0) : transfer(fd, buf, size, 0);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* The value below which a fraction q of the sorted samples lie (nearest rank). */
static double percentile(const double *sorted, long n, double q) {
    long i = (long) (q * n + 0.999999) - 1;
    return sorted[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void serve(const struct addrinfo *ai, int bufsize, int connections, long size) {
    int lfd = open_socket(ai, bufsize);
    int one = 1;
    ops->setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ops->bind(lfd, ai->ai_addr, ai->ai_addrlen) < 0)
        die("bind");
    if (ops->listen(lfd, 16) < 0)
        die("listen");
    char *buf = malloc(size);
    if (buf == NULL)
        die("malloc");
    for (int c = 0; c < connections; c++) {
        int fd = ops->accept(lfd, NULL, NULL);
        if (fd < 0)
            die("accept");
        map_inbox(fd, buf, size, 1);
        while (receive_message(fd, buf, size) == 0)
            send_message(fd, buf, size);
        unmap_inbox(fd, buf, size);
        ops->close(fd);
    }
    free(buf);
    ops->close(lfd);
}

static void client(const struct addrinfo *ai, int bufsize, long size, long rounds, long warmup) {
    int fd = open_socket(ai, bufsize);
    if (ops->connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
        die("connect");
    char *out = malloc(size), *in = malloc(size);
    double *us = malloc(sizeof(double) * rounds);
    if (out == NULL || in == NULL || us == NULL)
        die("malloc");
    map_inbox(fd, in, size, 0);
    for (long i = 0; i < size; i++)
        out[i] = (char) (i * 31 + (i >> 8));
    for (long r = -warmup; r < rounds; r++) {
        double t0 = now_us();
        send_message(fd, out, size);
        if (receive_message(fd, in, size) < 0) {
            fprintf(stderr, "rsocket_pingpong: end-of-stream after %ld rounds\n", r + warmup);
            exit(1);
        }
        if (r >= 0)
            us[r] = now_us() - t0;
    }
    if (memcmp(out, in, size) != 0) {
        fprintf(stderr, "rsocket_pingpong: the echo differs from what was sent\n");
        exit(1);
    }
    unmap_inbox(fd, in, size);
    ops->close(fd);
    double sum = 0;
    for (long r = 0; r < rounds; r++)
        sum += us[r];
    qsort(us, rounds, sizeof(double), cmp_double);
    printf("pingpong %s %s size %ld rounds %ld p50 %.1f p90 %.1f p99 %.1f mean %.1f us\n",
           ops->name, iowrite ? "iowrite" : pollwait ? "poll" : dontwait ? "spin" : "block", size, rounds,
           percentile(us, rounds, 0.50), percentile(us, rounds, 0.90),
           percentile(us, rounds, 0.99), sum / rounds);
}

int main(int argc, char **argv) {
    const char *server = NULL, *peer = NULL, *port = "7471";
    long size = 64, rounds = 10000, warmup = 1000;
    int bufsize = 0, connections = 1, opt;
    while ((opt = getopt(argc, argv, "s:c:p:TB:k:S:n:w:m:")) != -1) {
        switch (opt) {
        case 's': server = optarg; break;
        case 'c': peer = optarg; break;
        case 'p': port = optarg; break;
        case 'T': ops = &tcp_ops; break;
        case 'B': bufsize = atoi(optarg); break;
        case 'k': connections = atoi(optarg); break;
        case 'S': size = atol(optarg); break;
        case 'n': rounds = atol(optarg); break;
        case 'w': warmup = atol(optarg); break;
        case 'm':
            if (strcmp(optarg, "spin") == 0 || strcmp(optarg, "poll") == 0)
                dontwait = MSG_DONTWAIT;
            else if (strcmp(optarg, "iowrite") == 0)
                iowrite = 1;
            else if (strcmp(optarg, "block") != 0)
                usage();
            pollwait = strcmp(optarg, "poll") == 0;
            break;
        default: usage();
        }
    }
    if ((server == NULL) == (peer == NULL) || size <= 0 || rounds <= 0 || warmup < 0 || connections <= 0 ||
        (iowrite && ops != &rdma_ops))
        usage();
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
    int err = getaddrinfo(server != NULL ? server : peer, port, &hints, &ai);
    if (err != 0) {
        fprintf(stderr, "rsocket_pingpong: %s: %s\n", server != NULL ? server : peer, gai_strerror(err));
        return 1;
    }
    if (server != NULL)
        serve(ai, bufsize, connections, size);
    else
        client(ai, bufsize, size, rounds, warmup);
    freeaddrinfo(ai);
    return 0;
}
