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

package jdk.net;

import java.net.SocketOption;

/**
 * Socket options specific to RDMA sockets, the sockets that
 * {@link RdmaSockets} and the {@code openRdma} methods of {@link Sockets}
 * open. Set them with {@code setOption} on an RDMA
 * {@link java.nio.channels.SocketChannel SocketChannel},
 * {@link java.nio.channels.ServerSocketChannel ServerSocketChannel},
 * {@link java.net.Socket Socket} or {@link java.net.ServerSocket
 * ServerSocket}; other sockets throw {@code UnsupportedOperationException}
 * for them.
 *
 * <p> The three options size the RDMA queue pair of a connection, so they
 * take effect only when set <em>before</em> the socket connects (or, on a
 * server socket, before the connection is accepted: accepted sockets inherit
 * the server socket's values). Setting one on a connected socket throws
 * {@link java.net.SocketException}. A value outside the option's range
 * throws {@link IllegalArgumentException}. The RDMA library raises queue
 * sizes below 16 to 16, and the device may lower any value to its own
 * maximum: {@code getOption} returns the value requested, or the library's
 * default (from {@code /etc/rdma/rsocket/}, otherwise 384 for the queues and
 * 64 for the inline size) when none was set.
 *
 * @since rdio 1
 */
public final class RdmaSocketOptions {
    private RdmaSocketOptions() { }

    /**
     * The size of the send queue of an RDMA socket, in work requests: how
     * many sends may be outstanding. An {@code Integer} in 1..65534.
     */
    public static final SocketOption<Integer> RDMA_SQSIZE = new RdmaSocketOption("RDMA_SQSIZE");

    /**
     * The size of the receive queue of an RDMA socket, in work requests. An
     * {@code Integer} in 1..65534.
     */
    public static final SocketOption<Integer> RDMA_RQSIZE = new RdmaSocketOption("RDMA_RQSIZE");

    /**
     * The largest message, in bytes, that an RDMA socket sends inline in its
     * work request rather than from its registered send buffer. An
     * {@code Integer} in 0..65534.
     */
    public static final SocketOption<Integer> RDMA_INLINE = new RdmaSocketOption("RDMA_INLINE");

    private static final class RdmaSocketOption implements SocketOption<Integer> {
        private final String name;

        RdmaSocketOption(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Class<Integer> type() {
            return Integer.class;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
