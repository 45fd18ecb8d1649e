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

package jdk.internal.net.rdma;

import java.io.IOException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Set;

import jdk.net.RdmaSocketOptions;

/**
 * The socket options of RDMA sockets: which are supported, their checks,
 * and their translation to rsockets' options.  {@code SO_LINGER} is kept
 * by the {@link RdmaSocket}: rsockets has no linger time.
 */
final class RdmaOptions {
    private RdmaOptions() { }

    private static final Set<SocketOption<?>> CLIENT_OPTIONS = Set.of(
            StandardSocketOptions.SO_SNDBUF,
            StandardSocketOptions.SO_RCVBUF,
            StandardSocketOptions.SO_KEEPALIVE,
            StandardSocketOptions.SO_REUSEADDR,
            StandardSocketOptions.SO_LINGER,
            StandardSocketOptions.TCP_NODELAY,
            RdmaSocketOptions.RDMA_SQSIZE,
            RdmaSocketOptions.RDMA_RQSIZE,
            RdmaSocketOptions.RDMA_INLINE);

    private static final Set<SocketOption<?>> SERVER_OPTIONS = Set.of(
            StandardSocketOptions.SO_RCVBUF,
            StandardSocketOptions.SO_REUSEADDR,
            RdmaSocketOptions.RDMA_SQSIZE,
            RdmaSocketOptions.RDMA_RQSIZE,
            RdmaSocketOptions.RDMA_INLINE);

    /** The options of a socket, or of a server socket. */
    static Set<SocketOption<?>> supported(boolean server) {
        return server ? SERVER_OPTIONS : CLIENT_OPTIONS;
    }

    private static int optionCode(SocketOption<?> name) {
        if (name == StandardSocketOptions.SO_SNDBUF) return RdmaNet.OPT_SO_SNDBUF;
        if (name == StandardSocketOptions.SO_RCVBUF) return RdmaNet.OPT_SO_RCVBUF;
        if (name == StandardSocketOptions.SO_KEEPALIVE) return RdmaNet.OPT_SO_KEEPALIVE;
        if (name == StandardSocketOptions.SO_REUSEADDR) return RdmaNet.OPT_SO_REUSEADDR;
        if (name == StandardSocketOptions.TCP_NODELAY) return RdmaNet.OPT_TCP_NODELAY;
        if (name == RdmaSocketOptions.RDMA_SQSIZE) return RdmaNet.OPT_RDMA_SQSIZE;
        if (name == RdmaSocketOptions.RDMA_RQSIZE) return RdmaNet.OPT_RDMA_RQSIZE;
        if (name == RdmaSocketOptions.RDMA_INLINE) return RdmaNet.OPT_RDMA_INLINE;
        throw new UnsupportedOperationException("'" + name + "' not supported");
    }

    /** Sets option name of s to value, which is not null. */
    static void set(RdmaSocket s, SocketOption<?> name, Object value) throws IOException {
        if (name == StandardSocketOptions.SO_LINGER) {
            s.setLinger((Integer) value);
            return;
        }
        int v;
        if (name.type() == Boolean.class) {
            v = ((Boolean) value) ? 1 : 0;
        } else {
            v = (Integer) value;
            if (name == StandardSocketOptions.SO_SNDBUF && v < 0)
                throw new IllegalArgumentException("Invalid send buffer size: " + v);
            if (name == StandardSocketOptions.SO_RCVBUF && v < 0)
                throw new IllegalArgumentException("Invalid receive buffer size: " + v);
            if (name == StandardSocketOptions.SO_SNDBUF || name == StandardSocketOptions.SO_RCVBUF)
                v = Math.clamp(v, MIN_BUFFER, MAX_BUFFER);
            checkRdmaOption(name, v);
        }
        RdmaNet.setIntOption0(s.fd, optionCode(name), v);
    }

    // rsockets allocates and registers twice the requested size, in a
    // 32-bit field: an unbounded request would wrap to a smaller buffer (or
    // one that cannot be pinned), and a receive buffer below the send low
    // watermark (2 KiB) would never hold a message, so the peer could never
    // send. MAX_BUFFER keeps each buffer to 16 MiB of pinned memory.
    private static final int MIN_BUFFER = 2048;
    private static final int MAX_BUFFER = 8 << 20;

    private static void checkRdmaOption(SocketOption<?> name, int v) {
        if (name == RdmaSocketOptions.RDMA_SQSIZE || name == RdmaSocketOptions.RDMA_RQSIZE) {
            if (v < 1 || v > 65534)
                throw new IllegalArgumentException(name + " must be in 1..65534, not " + v);
        } else if (name == RdmaSocketOptions.RDMA_INLINE) {
            if (v < 0 || v > 65534)
                throw new IllegalArgumentException(name + " must be in 0..65534, not " + v);
        }
    }

    /** The value of option name of s. */
    static Object get(RdmaSocket s, SocketOption<?> name) throws IOException {
        if (name == StandardSocketOptions.SO_LINGER)
            return s.linger();
        int v = RdmaNet.getIntOption0(s.fd, optionCode(name));
        if (name.type() == Boolean.class)
            return v != 0;
        return v;
    }
}
