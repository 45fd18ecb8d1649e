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
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnknownHostException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Arrays;

import sun.nio.ch.Net;

/** The addresses of RDMA sockets: checks, wildcards, and rdma_cm's missing scopes. */
final class RdmaAddresses {
    private RdmaAddresses() { }

    private static final InetAddress ANY4 = wildcard(4);
    private static final InetAddress ANY6 = wildcard(16);

    private static InetAddress wildcard(int length) {
        try {
            return InetAddress.getByAddress(new byte[length]);
        } catch (UnknownHostException e) {
            throw new InternalError(e);
        }
    }

    static void checkFamily(ProtocolFamily family, InetAddress addr) {
        if (family == StandardProtocolFamily.INET && !(addr instanceof Inet4Address))
            throw new UnsupportedAddressTypeException();
        if (family == StandardProtocolFamily.INET6 && !(addr instanceof Inet6Address))
            throw new UnsupportedAddressTypeException();
    }

    /*
     * A wildcard address binds to every RDMA-capable address (rdma_cm
     * listens on every RDMA device).  A JVM that prefers IPv6 addresses
     * gives the IPv6 wildcard for new InetSocketAddress(port) and for the
     * adaptors' bind(null), and RDMA sockets default to INET, so the
     * wildcard of either family means that of the socket's own.
     */
    static InetSocketAddress checkLocal(SocketAddress local, ProtocolFamily family) {
        InetSocketAddress isa = Net.checkAddress(local);
        InetAddress addr = isa.getAddress();
        if (addr.isAnyLocalAddress())
            return new InetSocketAddress(family == StandardProtocolFamily.INET6 ? ANY6 : ANY4, isa.getPort());
        checkFamily(family, addr);
        return isa;
    }

    /*
     * rdma_cm reports the addresses of an accepted connection without their
     * scope.  A link-local one takes the interface that has the local
     * address as its scope, as a TCP socket's would.
     */
    static boolean unscoped(InetSocketAddress isa) {
        return isa.getAddress() instanceof Inet6Address a && a.isLinkLocalAddress() && a.getScopeId() == 0;
    }

    /** A local address, with the interface that has it as its scope if it is link-local. */
    static InetSocketAddress local(InetSocketAddress isa) throws IOException {
        if (unscoped(isa)) {
            NetworkInterface nif = NetworkInterface.getByInetAddress(isa.getAddress());
            if (nif != null)
                return scoped(isa, nif);
        }
        return isa;
    }

    static InetSocketAddress scoped(InetSocketAddress isa, NetworkInterface nif) throws IOException {
        byte[] bytes = isa.getAddress().getAddress();
        return new InetSocketAddress(Inet6Address.getByAddress(null, bytes, nif), isa.getPort());
    }

    // info is {(length << 16) | port, IPv6 scope id or 0}, as the native side fills it
    static InetSocketAddress toAddress(byte[] addr, int[] info) throws IOException {
        int len = info[0] >>> 16;
        int port = info[0] & 0xffff;
        byte[] bytes = Arrays.copyOf(addr, len);
        InetAddress ia = (len == 16 && info[1] != 0)
                ? Inet6Address.getByAddress(null, bytes, info[1])
                : InetAddress.getByAddress(bytes);
        return new InetSocketAddress(ia, port);
    }
}
