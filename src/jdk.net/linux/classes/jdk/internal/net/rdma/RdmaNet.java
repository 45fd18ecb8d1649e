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
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The native rsockets calls (library rdmasocket, which loads librdmacm.so.1
 * at run time). Sockets are non-blocking; results are IOStatus codes. A
 * failure throws the exception java.net specifies for the operation:
 * ConnectException (NoRouteToHostException for an unreachable host) from
 * connect, BindException from bind and listen (the address is in use or
 * not on an RDMA device), SocketException "Connection reset" for a reset
 * (sun.net.ConnectionResetException from a read, which SocketChannelImpl
 * turns into that), SocketException otherwise.
 */
final class RdmaNet {
    private RdmaNet() { }

    // option codes, as in RdmaNet.c
    static final int OPT_SO_SNDBUF = 0;
    static final int OPT_SO_RCVBUF = 1;
    static final int OPT_SO_KEEPALIVE = 2;
    static final int OPT_SO_REUSEADDR = 3;
    static final int OPT_TCP_NODELAY = 4;
    static final int OPT_RDMA_SQSIZE = 5;
    static final int OPT_RDMA_RQSIZE = 6;
    static final int OPT_RDMA_INLINE = 7;

    /** Why RDMA sockets cannot be used, or null when they can. */
    static final String UNAVAILABLE_REASON;

    /*
     * Rounds of growServiceSets0: the connection service thread of a
     * librdmacm without the fix then has room for 4 * SERVICE_ROUNDS sockets
     * (accepted, connected or connecting) open at once, and the listen
     * service thread for 4 * LISTEN_ROUNDS listening sockets.  A process
     * with more connections raises the first with jdk.net.rdma.serviceRounds;
     * a round takes a few milliseconds, once, when RDMA sockets are first
     * used.  Past those counts RdmaSocketOps refuses connects, closes
     * accepted sockets and refuses listens with a SocketException that says
     * so; a listen's backlog only holds the room that is left.  (Declared
     * before the static initializer that reads them.)
     */
    private static final int SERVICE_ROUNDS =
            (int) longProperty("jdk.net.rdma.serviceRounds", 128, 1, 100_000);
    private static final int LISTEN_ROUNDS = 128;

    /*
     * Refused connects growServiceSets0 takes before it makes up the rounds
     * still to do with connections to itself, which cost more but cannot be
     * refused early (RdmaWorkarounds.c).  A few dozen is usual.
     */
    private static final int CONNECT_FAILURES = 4 * SERVICE_ROUNDS + 64;

    /**
     * The release of the librdmacm loaded, as major * 1000 + minor (44.0 is
     * 44000), or -1 if its file name does not say.
     */
    static final int LIBRARY_VERSION;

    /**
     * Whether librdmacm's service threads were readied for many sockets
     * (growServiceSets); read by the tests.  False where the library does
     * not need it.
     */
    static final boolean SERVICE_SETS_GROWN;

    /**
     * How many sockets librdmacm's connection service thread can hold
     * (accepted ones, and connected or connecting ones), and its listen
     * service thread (listening ones), without corrupting memory: unlimited
     * on a release without the cm_svc_run bug (RdmaWorkarounds.c).
     */
    static final int SERVICE_CAPACITY;
    static final int LISTEN_CAPACITY;

    /**
     * Whether librdmacm leaves a socket whose handshake ended within
     * rconnect unwatched, so that RdmaDisconnectWatcher must watch it.
     */
    static final boolean CONNECT_UNSERVED;

    // the first minor release of each stable line, 40 to 62, with bug 3
    // fixed (declared before the static initializer that reads it)
    private static final int[] CONNECT_FIXED_MINOR = {
        13, 13, 13, 12, 12, 11, 10, 9, 8, 8, 7, 7, 6, 6, 5, 4, 4, 3, 2, 2, 2, 1, 1
    };

    static {
        String reason = load();
        UNAVAILABLE_REASON = reason;
        LIBRARY_VERSION = (reason == null) ? libraryVersion0() : -1;
        CONNECT_UNSERVED = reason == null && hasConnectBug(LIBRARY_VERSION);
        if (reason != null || !hasServiceBug(LIBRARY_VERSION)) {
            SERVICE_SETS_GROWN = false;
            SERVICE_CAPACITY = LISTEN_CAPACITY = Integer.MAX_VALUE;
        } else {
            SERVICE_SETS_GROWN = growServiceSets();
            // a grown set of 4 * rounds entries holds that many sockets and
            // more; one that could not be grown holds the 3 of a first start
            SERVICE_CAPACITY = SERVICE_SETS_GROWN ? 4 * SERVICE_ROUNDS : 3;
            LISTEN_CAPACITY = SERVICE_SETS_GROWN ? 4 * LISTEN_ROUNDS : 3;
        }
    }

    /**
     * Whether a librdmacm release has the cm_svc_run bug: every release
     * before rdma-core's fix (24061f015, in v53.0 and, of the 44 line that
     * Debian 12 ships, in v44.7).  Its backports to the other stable lines
     * are not told apart, nor is a library whose version is unknown: they
     * get the workaround, which is safe on any release.
     */
    static boolean hasServiceBug(int version) {
        int major = version / 1000, minor = version % 1000;
        return version < 0 || (major < 53 && !(major == 44 && minor >= 7));
    }

    /**
     * Whether a librdmacm release leaves the sockets whose handshake ended
     * within rconnect out of its connection service (RdmaWorkarounds.c,
     * bug 3): every release before rdma-core's fix (6de134096, in v63.0)
     * and before its backport to the release's stable line (v40.13, v41.13,
     * v42.13, v43.12, v44.12, v45.11, v46.10, v47.9, v48.8, v49.8, v50.7,
     * v51.7, v52.6, v53.6, v54.5, v55.4, v56.4, v57.3, v58.2, v59.2, v60.2,
     * v61.1, v62.1).  A library whose version is unknown gets the
     * workaround, which is safe on any release.
     */
    static boolean hasConnectBug(int version) {
        int major = version / 1000, minor = version % 1000;
        if (version < 0 || major < 40)
            return true;
        if (major >= 63)
            return false;
        return minor < CONNECT_FIXED_MINOR[major - 40];
    }

    @SuppressWarnings("restricted")
    private static String load() {
        try {
            System.loadLibrary("rdmasocket");
        } catch (UnsatisfiedLinkError e) {
            return "RDMA sockets are not part of this JDK build (it was configured with --with-rdma=no)";
        }
        return init0();
    }

    /**
     * Readies librdmacm's service threads for many sockets, through the
     * first local address where that works: librdmacm releases without
     * rdma-core's fix of cm_svc_run (v53.0, v44.7) corrupt memory when
     * those grow (RdmaWorkarounds.c).  Loopback and link-local addresses
     * are passed over, since they have no RDMA device or need a scope.
     */
    private static boolean growServiceSets() {
        return growServiceSetsAnywhere0(SERVICE_ROUNDS, LISTEN_ROUNDS, CONNECT_FAILURES);
    }

    /**
     * An unstarted daemon platform thread for the RDMA sockets' own work,
     * named name, that runs task: as the JDK's system threads, it inherits
     * no thread locals and has no context class loader.
     */
    static Thread newThread(String name, Runnable task) {
        Thread t = Thread.ofPlatform()
                .name(name)
                .daemon()
                .inheritInheritableThreadLocals(false)
                .unstarted(task);
        t.setContextClassLoader(null);
        return t;
    }

    /**
     * The value of system property name, a decimal integer in min..max, or
     * def if the property is not set or not such a number: as the JDK's
     * tuning properties, a bad value is ignored rather than failing the
     * first use of a socket.
     */
    static long longProperty(String name, long def, long min, long max) {
        String value = System.getProperty(name);
        if (value == null)
            return def;
        try {
            long v = Long.parseLong(value.trim());
            return (v >= min && v <= max) ? v : def;
        } catch (NumberFormatException e) {
            return def;
        }
    }

    /** The scope of a link-local IPv6 address, which rdma_cm needs; 0 for none. */
    static int scopeId(InetAddress addr) {
        return (addr instanceof Inet6Address a) ? a.getScopeId() : 0;
    }

    private static native String init0();
    private static native int libraryVersion0();
    private static native boolean growServiceSets0(byte[] addr, int rounds, int listenRounds,
                                                   int connectFailures);
    private static native boolean growServiceSetsAnywhere0(int rounds, int listenRounds, int connectFailures);

    static native int socket0(boolean inet6) throws IOException;
    static native void bind0(int fd, byte[] addr, int scope, int port) throws IOException;
    static native void listen0(int fd, int backlog) throws IOException;
    static native int connect0(int fd, byte[] addr, int scope, int port) throws IOException;
    static native boolean pollConnect0(int fd) throws IOException;
    static native int accept0(int fd, byte[] addr, int[] info) throws IOException;
    static native void localAddress0(int fd, byte[] addr, int[] info) throws IOException;
    static native void shutdown0(int fd, int how) throws IOException;
    static native void setIntOption0(int fd, int opt, int value) throws IOException;
    static native int getIntOption0(int fd, int opt) throws IOException;
    static native int read0(int fd, long address, int len) throws IOException;
    static native int available0(int fd) throws IOException;
    static native long readv0(int fd, long address, int cnt) throws IOException;
    static native int write0(int fd, long address, int len) throws IOException;
    static native long writev0(int fd, long address, int cnt) throws IOException;
    static native void close0(int fd);
    static native long pthread0();
    // left: the rsockets the rpoll leaves out (RdmaWaits.select), or null
    static native int pollArray0(long address, int nfds, int timeout, int capMillis, int[] left)
        throws IOException;
}
