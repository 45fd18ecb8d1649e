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

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
import jdk.net.RdmaSocketOptions;
import sun.nio.ch.IOStatus;
import sun.nio.ch.IOUtil;
import sun.nio.ch.Net;
import sun.nio.ch.SelChImpl;
import sun.nio.ch.SocketOps;

/**
 * The OS calls of RDMA channels: rsockets, through {@link RdmaNet}.
 *
 * <p> Every rsocket is non-blocking. A blocking operation, connect
 * included, is a non-blocking call plus
 * {@link #park}: a short spin in one native call, adaptive per socket,
 * then the thread registers with an {@link RdmaPoller} and parks until the
 * poller finds the socket ready, the timeout expires, or close, shutdown
 * or interrupt unparks it. A virtual thread unmounts while parked, so it
 * never pins its carrier, and a blocked thread costs no CPU. A few
 * platform threads whose wait has no timeout wait in an rpoll of their
 * own instead, which saves the hop through the poller thread
 * (RdmaPoller.registerDirect).
 */
final class RdmaSocketOps extends SocketOps {
    private static final JavaIOFileDescriptorAccess FDA = SharedSecrets.getJavaIOFileDescriptorAccess();

    // poll(2) events, as in sun.nio.ch.Net
    private static final int POLLIN = RdmaPoller.POLLIN;
    private static final int POLLOUT = RdmaPoller.POLLOUT;

    /*
     * The spin before a wait: a reply on a fast network comes sooner than
     * a parked thread is woken.  Each socket spins for up to its budget,
     * which doubles (up to MAX_SPIN_MICROS) when the spin caught the event or
     * the event came within MAX_SPIN_MICROS of parking, and halves when the
     * spin missed it: a socket that waits long, such as an idle
     * connection, soon stops spinning.  -Djdk.net.rdma.spinMicros=N sets
     * the most (0 to 65535; 0 never spins), for hosts with cores to spare
     * for spinning through the longer waits of large transfers, as rsockets'
     * own polling_time does for its blocking calls; other values are
     * ignored.
     */
    private static final int MAX_SPIN_MICROS = spinMicrosProperty();
    private static final int MIN_SPIN_MICROS = 10;

    /*
     * Whether a platform thread whose wait has no timeout waits in its own
     * rpoll (RdmaPoller.registerDirect), rather than through the poller
     * thread.  -Djdk.net.rdma.waitMode=poller sends every wait through the
     * poller, as jdk.pollerMode chooses the NIO poller's mode.
     */
    private static final boolean DIRECT_WAITS =
            !"poller".equals(System.getProperty("jdk.net.rdma.waitMode"));

    // how often the ticking poller re-checks the sockets waited on in
    // accept and connect
    private static final long TICK_NANOS = 10_000_000L;

    // re-check listeners and connecting sockets this often in a blocking
    // select (rsockets may signal their readiness late)
    private static final int RECHECK_MILLIS = 10;

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

    // spin budgets in microseconds, by socket number (rsockets numbers are below 65536)
    private final char[] spinMicros = new char[65536];

    // the waits of accepts and connects, and of every other operation
    // (created on first use)
    private volatile RdmaPoller tickingPoller;
    private volatile RdmaPoller poller;

    // (fd << 1 | 0 for POLLIN, 1 for POLLOUT) after shutdown of that direction:
    // a wait for it returns at once
    private final Set<Long> shutdowns = ConcurrentHashMap.newKeySet();

    // IPv4 rsockets that replaced a platform socket of an INET6 channel
    private final Set<Integer> inet4 = ConcurrentHashMap.newKeySet();

    // connected sockets shut down in both directions (drained), and those
    // where a shutdown had its wait for the peer ended (boundedShutdown)
    private final Set<Integer> drained = ConcurrentHashMap.newKeySet();
    private final Set<Integer> undelivered = ConcurrentHashMap.newKeySet();

    // SO_LINGER values, emulated (rsockets keeps no linger time)
    private final ConcurrentHashMap<Integer, Integer> lingers = new ConcurrentHashMap<>();

    // java.base exports its common cleaner (CleanerFactory) to a few modules
    // only, not to jdk.net, so RDMA sockets have their own: one daemon thread
    private static final Cleaner CLEANER = Cleaner.create();

    // the Cleaner registrations of open rsockets, by number
    private final ConcurrentHashMap<Integer, Cleaner.Cleanable> cleanables = new ConcurrentHashMap<>();

    /*
     * Sockets that librdmacm's connection service thread holds (accepted,
     * connected and connecting ones), and the room held for the listening
     * sockets, whose connections it takes before they are accepted: on a
     * librdmacm with the cm_svc_run bug they must stay within
     * RdmaNet.SERVICE_CAPACITY (see listen and checkServiceRoom).  Changes
     * of the count are made under roomLock.
     */
    private final Set<Integer> serviced = ConcurrentHashMap.newKeySet();
    private final Object roomLock = new Object();

    /*
     * The room a listener holds: its backlog, capped at half the room left
     * when it listened.  The sockets it accepts use it first, so it holds
     * reserved - accepted more (at least 0) for the connections that
     * librdmacm has taken and accept has not yet returned.
     */
    private static final class Backlog {
        final int reserved;
        int accepted;       // its accepted sockets not yet closed; under roomLock

        Backlog(int reserved) {
            this.reserved = reserved;
        }
    }

    // the listening sockets, with the room each holds
    private final ConcurrentHashMap<Integer, Backlog> backlogs = new ConcurrentHashMap<>();

    // accepted sockets, with the room of the listener that accepted each
    private final ConcurrentHashMap<Integer, Backlog> acceptedFrom = new ConcurrentHashMap<>();

    // watches the connected sockets that librdmacm does not, where it does
    // not (RdmaNet.CONNECT_UNSERVED).  Made with the ops, so that its
    // eventfd is there before any socket is, or if that failed, on first use.
    private volatile RdmaDisconnectWatcher disconnectWatcher;

    // sockets whose connect is in progress; rsockets may not signal the
    // end of a handshake to a waiting rpoll, so they are waited for by the
    // ticking poller, as listeners are
    private final Set<Integer> connecting = ConcurrentHashMap.newKeySet();

    private static final InetAddress ANY4 = wildcard(4);
    private static final InetAddress ANY6 = wildcard(16);

    private static InetAddress wildcard(int length) {
        try {
            return InetAddress.getByAddress(new byte[length]);
        } catch (UnknownHostException e) {
            throw new InternalError(e);
        }
    }

    RdmaSocketOps() {
        Arrays.fill(spinMicros, (char) MAX_SPIN_MICROS);
        if (RdmaNet.CONNECT_UNSERVED) {
            try {
                disconnectWatcher();
            } catch (IOException e) {
                // no eventfd now: the first connect that needs it tries again
            }
        }
    }

    private static long key(int fdVal, int event) {
        return ((long) fdVal << 1) | ((event & POLLIN) != 0 ? 0 : 1);
    }

    // -- creation, naming, connection

    @Override
    public SocketOps beforeTcpBind(FileDescriptor fd, InetAddress addr, int port) {
        return this;
    }

    @Override
    public SocketOps beforeTcpConnect(FileDescriptor fd, InetAddress addr, int port) {
        return this;
    }

    @Override
    public FileDescriptor socket(ProtocolFamily family, boolean stream) throws IOException {
        if (!stream)
            throw new UnsupportedOperationException("RDMA sockets are stream sockets only");
        FileDescriptor fd = IOUtil.newFD(RdmaNet.socket0(family == StandardProtocolFamily.INET6));
        track(fd);
        return fd;
    }

    @Override
    public FileDescriptor serverSocket(ProtocolFamily family) throws IOException {
        return socket(family, true);
    }

    /**
     * Replaces the platform socket that {@code fd} holds with a new
     * rsocket, for the rules file (RdmaRules): the rsocket gets the
     * options, the platform socket is closed, and {@code fd} takes the
     * rsocket's number. The caller holds the channel's state lock, so
     * nothing else uses {@code fd} meanwhile.
     *
     * @param ipv6 whether the rsocket is an IPv6 one; an IPv4 one may
     *        serve an INET6 channel, as a dual-stack kernel socket would
     */
    void replace(FileDescriptor fd, boolean ipv6, Map<SocketOption<?>, Object> options)
        throws IOException
    {
        FileDescriptor rfd = IOUtil.newFD(RdmaNet.socket0(ipv6));
        int n = FDA.get(rfd);
        try {
            for (Map.Entry<SocketOption<?>, Object> e : options.entrySet())
                setSocketOption(rfd, e.getKey(), e.getValue());
        } catch (IOException | RuntimeException e) {
            lingers.remove(n);
            RdmaNet.close0(n, 0);
            throw e;
        }
        try {
            SocketOps.platform().close(fd);
        } catch (IOException ignore) {
            // close(2) releases the descriptor even when it reports an error
        }
        FDA.set(fd, n);
        if (!ipv6)
            inet4.add(n);
        track(fd);
    }

    private static void checkFamily(ProtocolFamily family, InetAddress addr) {
        if (family == StandardProtocolFamily.INET && !(addr instanceof Inet4Address))
            throw new UnsupportedAddressTypeException();
        if (family == StandardProtocolFamily.INET6 && !(addr instanceof Inet6Address))
            throw new UnsupportedAddressTypeException();
    }

    private byte[] checkAddress(int fdVal, ProtocolFamily family, InetAddress addr) {
        // an IPv4 rsocket that replaced the platform socket of an INET6 channel
        if (family == StandardProtocolFamily.INET6 && inet4.contains(fdVal))
            family = StandardProtocolFamily.INET;
        checkFamily(family, addr);
        return addr.getAddress();
    }

    /*
     * A wildcard address binds to every RDMA-capable address (rdma_cm
     * listens on every RDMA device).  A JVM that prefers IPv6 addresses
     * gives the IPv6 wildcard for new InetSocketAddress(port) and for the
     * adaptors' bind(null), and RDMA sockets default to INET, so the
     * wildcard of either family means that of the socket's own.
     */
    @Override
    public InetSocketAddress checkLocalAddress(SocketAddress local, ProtocolFamily family) {
        InetSocketAddress isa = Net.checkAddress(local);
        InetAddress addr = isa.getAddress();
        if (addr.isAnyLocalAddress())
            return new InetSocketAddress(family == StandardProtocolFamily.INET6 ? ANY6 : ANY4, isa.getPort());
        checkFamily(family, addr);
        return isa;
    }

    @Override
    public void bind(ProtocolFamily family, FileDescriptor fd, InetAddress addr, int port)
        throws IOException
    {
        int fdVal = IOUtil.fdVal(fd);
        RdmaNet.bind0(fdVal, checkAddress(fdVal, family, addr), RdmaNet.scopeId(addr), port);
    }

    /*
     * The backlog is a hint, as the kernel caps it at somaxconn: the
     * listener holds the smaller of the backlog and half the room left (see
     * checkServiceRoom) for its connections, and listens with that backlog,
     * at least 1 (rdma_listen takes 0 for the largest).  Half, so that a
     * server with a large default backlog (Netty's is somaxconn) leaves
     * room for the connects of the same process.  Where no room is
     * left it still listens, holding none: accept then gives the
     * connections that fit the room left at that time, and closes the rest
     * (accept).  Only more listeners than librdmacm's listen service
     * thread has room for are refused.
     */
    @Override
    public void listen(FileDescriptor fd, int backlog) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        Backlog room;
        synchronized (roomLock) {
            int listening = backlogs.size();
            if (listening >= RdmaNet.LISTEN_CAPACITY)
                throw new SocketException("RDMA listen: " + listening + " listening RDMA sockets are open, and"
                        + " librdmacm " + versionString() + " holds at most " + RdmaNet.LISTEN_CAPACITY
                        + " in one process (its cm_svc_run bug, fixed in rdma-core v44.7 and v53.0):"
                        + " close one, or install a fixed librdmacm");
            long left = RdmaNet.SERVICE_CAPACITY - roomInUse();
            room = new Backlog((int) Math.max(0, Math.min(Math.max(backlog, 1), (left + 1) / 2)));
            backlogs.put(fdVal, room);
        }
        try {
            RdmaNet.listen0(fdVal, Math.max(room.reserved, 1));
        } catch (IOException | RuntimeException e) {
            backlogs.remove(fdVal, room);
            throw e;
        }
    }

    /*
     * The room in use: the sockets registered with the connection service,
     * and what the listeners hold beyond their accepted sockets.  Called
     * with roomLock held.
     */
    private long roomInUse() {
        long used = serviced.size();
        for (Backlog b : backlogs.values())
            used += Math.max(0, b.reserved - b.accepted);
        return used;
    }

    /*
     * On a librdmacm with the cm_svc_run bug (RdmaWorkarounds.c), a socket
     * more than its connection service thread has room for corrupts memory.
     * So a connect that would take the room in use past
     * RdmaNet.SERVICE_CAPACITY is refused, and so is an accepted socket
     * that does not fit (accept).  A peer that connects beyond what its
     * listener holds before accept returns is not stopped by this; the docs
     * say so.  Called with roomLock held.
     */
    private void checkServiceRoom(String op, int more) throws SocketException {
        int capacity = RdmaNet.SERVICE_CAPACITY;
        if (capacity == Integer.MAX_VALUE)
            return;
        long used = roomInUse();
        if (used + more > capacity)
            throw new SocketException(noRoom(op, more, used, serviced.size(), capacity));
    }

    /*
     * Why op, which needs room for more sockets, is refused: what it asked,
     * what is in use (used, of which registered are sockets registered with
     * the service), and the jdk.net.rdma.serviceRounds that would fit them.
     */
    private static String noRoom(String op, int more, long used, int registered, int capacity) {
        String remedy = RdmaNet.SERVICE_SETS_GROWN
                ? "-Djdk.net.rdma.serviceRounds=" + (used + more + 3) / 4 + " (now " + capacity / 4
                  + ") would fit them"
                : "this JVM could not make room for more (no local address of an RDMA device took"
                  + " the workaround's connects)";
        return "RDMA " + op + " needs room for " + more + " more socket" + (more == 1 ? "" : "s")
                + ", and " + used + " of " + capacity + " are in use (" + registered
                + " connected, connecting or accepted RDMA sockets, " + (used - registered)
                + " held for listen backlogs):"
                + " librdmacm " + versionString() + " holds at most " + capacity + " in one process (its"
                + " cm_svc_run bug, fixed in rdma-core v44.7 and v53.0); " + remedy
                + ", or install a fixed librdmacm";
    }

    private static String versionString() {
        int v = RdmaNet.LIBRARY_VERSION;
        return (v < 0) ? "(version unknown)" : (v / 1000) + "." + (v % 1000);
    }

    /*
     * The connect is non-blocking: rsockets' connection service thread
     * drives the handshake, and pollConnectNow (with park) sees its end,
     * so a connect holds no lock and can be closed, interrupted or timed
     * out like any other wait.
     */
    @Override
    public int connect(ProtocolFamily family, FileDescriptor fd, SocketAddress remote)
        throws IOException
    {
        InetSocketAddress isa = (InetSocketAddress) remote;
        int fdVal = IOUtil.fdVal(fd);
        byte[] addr = checkAddress(fdVal, family, isa.getAddress());
        synchronized (roomLock) {
            checkServiceRoom("connect", 1);
            serviced.add(fdVal);
        }
        int n;
        try {
            n = RdmaNet.connect0(fdVal, addr, RdmaNet.scopeId(isa.getAddress()), isa.getPort());
        } catch (IOException | RuntimeException e) {
            // rconnect failed before it registered the socket
            serviced.remove(fdVal);
            throw e;
        }
        if (n <= 0) {
            connecting.add(fdVal);
        } else if (RdmaNet.CONNECT_UNSERVED) {
            // the handshake ended within rconnect: librdmacm will not see
            // the peer's disconnect
            disconnectWatcher().watch(fdVal);
        }
        return n;
    }

    private RdmaDisconnectWatcher disconnectWatcher() throws IOException {
        RdmaDisconnectWatcher w = disconnectWatcher;
        if (w == null) {
            synchronized (this) {
                if ((w = disconnectWatcher) == null)
                    disconnectWatcher = w = new RdmaDisconnectWatcher("RDMA-Disconnect-Watcher",
                                                                      this::peerDisconnected);
            }
        }
        return w;
    }

    /*
     * The peer of a socket that RdmaDisconnectWatcher watches disconnected,
     * and the socket was shut down in both directions: its waiters retry,
     * reads get what was received and then EOF, and writes fail.
     */
    private void peerDisconnected(int fdVal) {
        drained.add(fdVal);
        wake(fdVal, POLLIN);
        wake(fdVal, POLLOUT);
    }

    @Override
    public boolean pollConnectNow(FileDescriptor fd) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        boolean done;
        try {
            done = RdmaNet.pollConnect0(fdVal);
        } catch (IOException e) {
            connecting.remove(fdVal);
            throw e;
        }
        if (done)
            connecting.remove(fdVal);
        return done;
    }

    @Override
    public int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa)
        throws IOException
    {
        byte[] addr = new byte[16];
        int[] info = new int[2];
        int n = RdmaNet.accept0(IOUtil.fdVal(fd), addr, info);
        if (n < 0)
            return n;
        FDA.set(newfd, n);
        track(newfd);
        try {
            synchronized (roomLock) {
                // librdmacm has registered the socket: it uses the room its
                // listener holds, if the listener has any left
                long used = roomInUse();
                int registered = serviced.size();
                serviced.add(n);
                Backlog from = backlogs.get(IOUtil.fdVal(fd));
                if (from != null) {
                    from.accepted++;
                    acceptedFrom.put(n, from);
                }
                if (roomInUse() > RdmaNet.SERVICE_CAPACITY)
                    throw new SocketException(noRoom("accept", 1, used, registered, RdmaNet.SERVICE_CAPACITY)
                            + "; the connection was closed");
            }
            InetSocketAddress remote = toAddress(addr, info);
            if (unscoped(remote)
                    && localAddress(newfd).getAddress() instanceof Inet6Address local
                    && local.getScopedInterface() != null)
                remote = scoped(remote, local.getScopedInterface());
            isaa[0] = remote;
        } catch (IOException e) {
            close(newfd);
            throw e;
        }
        return 1;
    }

    /*
     * rdma_cm reports the addresses of an accepted connection without their
     * scope.  A link-local one takes the interface that has the local
     * address as its scope, as a TCP socket's would.
     */
    private static boolean unscoped(InetSocketAddress isa) {
        return isa.getAddress() instanceof Inet6Address a && a.isLinkLocalAddress() && a.getScopeId() == 0;
    }

    private static InetSocketAddress scoped(InetSocketAddress isa, NetworkInterface nif) throws IOException {
        byte[] bytes = isa.getAddress().getAddress();
        return new InetSocketAddress(Inet6Address.getByAddress(null, bytes, nif), isa.getPort());
    }

    // info is {(length << 16) | port, IPv6 scope id or 0}, as the native side fills it
    private static InetSocketAddress toAddress(byte[] addr, int[] info) throws IOException {
        int len = info[0] >>> 16;
        int port = info[0] & 0xffff;
        byte[] bytes = Arrays.copyOf(addr, len);
        InetAddress ia = (len == 16 && info[1] != 0)
                ? Inet6Address.getByAddress(null, bytes, info[1])
                : InetAddress.getByAddress(bytes);
        return new InetSocketAddress(ia, port);
    }

    @Override
    public void configureAccepted(FileDescriptor newfd) {
        // accept0 made it non-blocking already
    }

    /*
     * rshutdown and rclose of a connected socket wait until the transport
     * has delivered everything sent (rsockets' drain): at once for a live
     * peer, after the transport's retries (seconds) for one whose machine
     * has gone without a disconnect.  So the channel drains a connected
     * socket before it closes it, in the closing thread and holding none of
     * its locks (closeDrains, drain), and the rclose that follows, under
     * its state lock or in a selector, finds the sends delivered or the
     * connection failed.  Both run in application threads, never on a
     * thread of their own: librdmacm then frees in the thread that
     * allocated, and resident memory stays flat over open/close cycles
     * (RdmaLeak).  A peer that does not read could make either wait for
     * good: RdmaCloseWatchdog bounds them, and only a socket whose sends
     * that peer has not all taken is closed in a thread of its own.  A
     * shutdownInput or shutdownOutput still drains under the channel's
     * state lock.  The poller leaves the socket out while it drains, so
     * that it never waits behind the drain in rpoll.
     */
    @Override
    public void shutdown(FileDescriptor fd, int how) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        // both directions are shut down already, and another rshutdown
        // would wait for the peer again
        if (drained.contains(fdVal))
            return;
        // created if need be, so that no thread starts to wait on the
        // socket through a poller that did not exist when this looked
        RdmaPoller p = poller(false);
        p.exclude(fdVal);
        try {
            boundedShutdown(fdVal, how);
        } finally {
            p.include(fdVal);
        }
    }

    /*
     * rshutdown, its wait for the peer bounded (RdmaCloseWatchdog).  When
     * the wait was ended, sends may still be queued for a peer that does
     * not read: the socket is then closed in the background (close).
     */
    private void boundedShutdown(int fdVal, int how) throws IOException {
        if (how == SHUT_RDWR)
            drained.add(fdVal);
        if (RdmaCloseWatchdog.run(fdVal, RdmaCloseWatchdog.BOUND_MILLIS,
                                  call -> RdmaNet.shutdown0(fdVal, how, call)))
            undelivered.add(fdVal);
    }

    @Override
    public boolean closeDrains() {
        return true;
    }

    // a shutdown of both directions is the drain (RdmaNet.shutdown0)
    private static final int SHUT_RDWR = 2;

    @Override
    public void drain(FileDescriptor fd) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        if (fdVal < 0 || !serviced.contains(fdVal))
            return;
        delayDrainForTest(fdVal);
        shutdown(fd, SHUT_RDWR);
    }

    /*
     * A test hook: a peer whose machine has gone cannot be made in one
     * kernel, where rxe delivers a device's traffic to itself, so
     * jdk.internal.net.rdma.testDrainMillis makes the first drain of each
     * connected socket (in drain, or in close if it was not drained) last
     * that long, as the transport's retries would.
     */
    private static final long TEST_DRAIN_MILLIS = Long.getLong("jdk.internal.net.rdma.testDrainMillis", 0);
    private final Set<Integer> testDrained = ConcurrentHashMap.newKeySet();

    private void delayDrainForTest(int fdVal) {
        if (TEST_DRAIN_MILLIS <= 0 || !serviced.contains(fdVal) || !testDrained.add(fdVal))
            return;
        long deadline = System.nanoTime() + TEST_DRAIN_MILLIS * 1_000_000L;
        boolean interrupted = false;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            } catch (InterruptedException e) {
                interrupted = true;     // a native drain is not interruptible either
            }
        }
        if (interrupted)
            Thread.currentThread().interrupt();
    }

    @Override
    public InetSocketAddress localAddress(FileDescriptor fd) throws IOException {
        byte[] addr = new byte[16];
        int[] info = new int[2];
        RdmaNet.localAddress0(IOUtil.fdVal(fd), addr, info);
        InetSocketAddress isa = toAddress(addr, info);
        if (unscoped(isa)) {
            NetworkInterface nif = NetworkInterface.getByInetAddress(isa.getAddress());
            if (nif != null)
                isa = scoped(isa, nif);
        }
        return isa;
    }

    @Override
    public int available(FileDescriptor fd) throws IOException {
        return RdmaNet.available0(IOUtil.fdVal(fd));
    }

    @Override
    public int sendOOB(FileDescriptor fd, byte data) throws IOException {
        throw new SocketException("urgent data not supported by RDMA sockets");
    }

    // -- options

    @Override
    public Set<SocketOption<?>> supportedOptions(boolean server) {
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

    @Override
    public void setSocketOption(FileDescriptor fd, ProtocolFamily family,
                                SocketOption<?> name, Object value) throws IOException {
        if (value == null)
            throw new IllegalArgumentException("Invalid option value");
        int fdVal = IOUtil.fdVal(fd);
        if (name == StandardSocketOptions.SO_LINGER) {
            int linger = (Integer) value;
            lingers.put(fdVal, linger < 0 ? -1 : Math.min(linger, 65535));
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
        RdmaNet.setIntOption0(fdVal, optionCode(name), v);
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

    @Override
    public Object getSocketOption(FileDescriptor fd, ProtocolFamily family,
                                  SocketOption<?> name) throws IOException {
        int fdVal = IOUtil.fdVal(fd);
        if (name == StandardSocketOptions.SO_LINGER)
            return lingers.getOrDefault(fdVal, -1);
        int v = RdmaNet.getIntOption0(fdVal, optionCode(name));
        if (name.type() == Boolean.class)
            return v != 0;
        return v;
    }

    // -- blocking

    @Override
    public boolean alwaysNonBlocking() {
        return true;
    }

    private RdmaPoller poller(boolean ticking) throws IOException {
        RdmaPoller p = ticking ? tickingPoller : poller;
        if (p == null) {
            synchronized (this) {
                if (ticking) {
                    if ((p = tickingPoller) == null)
                        tickingPoller = p = RdmaPoller.ticking("RDMA-Ticking-Poller", TICK_NANOS);
                } else {
                    if ((p = poller) == null)
                        poller = p = RdmaPoller.blocking("RDMA-Poller");
                }
            }
        }
        return p;
    }

    @Override
    public void park(SelChImpl ch, int event, long nanos) throws IOException {
        int fdVal = ch.getFDVal();
        if (shutdowns.contains(key(fdVal, event)))
            return;
        int spin = (fdVal >= 0 && fdVal < spinMicros.length) ? spinMicros[fdVal] : 0;
        if (spin > 0) {
            if (RdmaPoller.spin0(fdVal, event, spin * 1000L) != 0) {
                setSpin(fdVal, spin * 2);
                return;
            }
            setSpin(fdVal, spin / 2);
        }
        boolean ticking = backlogs.containsKey(fdVal) || connecting.contains(fdVal);
        RdmaPoller p = poller(ticking);
        boolean virtual = Thread.currentThread().isVirtual();
        long start = System.nanoTime();
        int revents = IOStatus.UNAVAILABLE;
        int slot;
        if (!ticking && !virtual && nanos <= 0 && DIRECT_WAITS
                && (slot = p.registerDirect(fdVal, event)) >= 0) {
            // the thread waits in its own rpoll (RdmaPoller), or, asked to
            // give its slot up after a long wait, waits on below
            try {
                if (!ch.isOpen() || shutdowns.contains(key(fdVal, event)))
                    return;
                revents = p.awaitDirect(fdVal, event, slot);
            } finally {
                p.deregisterDirect(fdVal, event, slot);
            }
        }
        boolean ready;
        if (revents != IOStatus.UNAVAILABLE) {
            ready = revents != 0;
        } else {
            // A platform thread waits whatever its interrupt status, as in
            // poll(2): the interrupt of an interruptible channel closes it,
            // which wakes the thread, and that of a classic socket's channel
            // must not end the wait (SocketOpsSwitch.setUninterruptible),
            // nor make every park return at once.  A virtual thread's
            // interrupt ends the wait.
            boolean interrupted = !virtual && Thread.interrupted();
            p.register(fdVal, event);
            try {
                // a close, shutdown or interrupt before the registration did
                // not see it
                if (!ch.isOpen() || shutdowns.contains(key(fdVal, event))
                        || (virtual && Thread.currentThread().isInterrupted()))
                    return;
                if (nanos > 0) {
                    LockSupport.parkNanos(nanos);
                } else {
                    LockSupport.park();
                }
            } finally {
                ready = !p.deregister(fdVal, event);
                if (interrupted)
                    Thread.currentThread().interrupt();
            }
        }
        if (ready && ch.isOpen() && System.nanoTime() - start < MAX_SPIN_MICROS * 1000L)
            setSpin(fdVal, Math.max(spin * 2, MIN_SPIN_MICROS));
    }

    private static int spinMicrosProperty() {
        int defaultMicros = 200;
        String value = System.getProperty("jdk.net.rdma.spinMicros");
        if (value == null)
            return defaultMicros;
        try {
            int micros = Integer.parseInt(value.trim());
            return (micros >= 0 && micros <= Character.MAX_VALUE) ? micros : defaultMicros;
        } catch (NumberFormatException e) {
            return defaultMicros;
        }
    }

    private void setSpin(int fdVal, int micros) {
        if (fdVal >= 0 && fdVal < spinMicros.length)
            spinMicros[fdVal] = (char) Math.min(micros, MAX_SPIN_MICROS);
    }

    private void wake(int fdVal, int event) {
        RdmaPoller p = tickingPoller;
        if (p != null)
            p.wake(fdVal, event);
        p = poller;
        if (p != null)
            p.wake(fdVal, event);
    }

    @Override
    public void stopPoll(int fdVal, int event, long thread) {
        shutdowns.add(key(fdVal, event));
        wake(fdVal, event);
    }

    // -- data and close

    @Override
    public int read(FileDescriptor fd, long address, int len) throws IOException {
        int fdVal = FDA.get(fd);
        return RdmaNet.read0(fdVal, address, len);
    }

    @Override
    public long readv(FileDescriptor fd, long address, int len) throws IOException {
        int fdVal = FDA.get(fd);
        return RdmaNet.readv0(fdVal, address, len);
    }

    @Override
    public int write(FileDescriptor fd, long address, int len) throws IOException {
        int fdVal = FDA.get(fd);
        return RdmaNet.write0(fdVal, address, len);
    }

    @Override
    public long writev(FileDescriptor fd, long address, int len) throws IOException {
        int fdVal = FDA.get(fd);
        return RdmaNet.writev0(fdVal, address, len);
    }

    @Override
    public void preClose(FileDescriptor fd, long reader, long writer) {
        int fdVal = FDA.get(fd);
        wake(fdVal, POLLIN);
        wake(fdVal, POLLOUT);
    }

    /*
     * An rsocket pins memory and holds a queue pair until rclose, so one
     * whose channel (or classic Socket) becomes unreachable unclosed is
     * closed by the Cleaner, as NioSocketImpl closes a leaked socket.  The
     * action holds the number, not the FileDescriptor, and close runs the
     * same action, so a number is closed once.
     */
    private void track(FileDescriptor fd) {
        int fdVal = FDA.get(fd);
        Runnable closer = () -> {
            // Forget the number's state before rclose lets rsockets reuse it,
            // and let no poller touch the socket once rclose frees it.
            RdmaDisconnectWatcher w = disconnectWatcher;
            if (w != null)
                w.forget(fdVal);
            cleanables.remove(fdVal);
            lingers.remove(fdVal);
            inet4.remove(fdVal);
            shutdowns.remove(key(fdVal, POLLIN));
            shutdowns.remove(key(fdVal, POLLOUT));
            setSpin(fdVal, MAX_SPIN_MICROS);
            connecting.remove(fdVal);
            backlogs.remove(fdVal);
            Backlog from = acceptedFrom.remove(fdVal);
            RdmaPoller p = tickingPoller;
            if (p != null)
                p.retire(fdVal);
            p = poller;
            if (p != null)
                p.retire(fdVal);
            delayDrainForTest(fdVal);
            Runnable closed = () -> {
                // counted against the service's room until rclose removed it
                synchronized (roomLock) {
                    serviced.remove(fdVal);
                    if (from != null)
                        from.accepted--;
                }
                testDrained.remove(fdVal);
            };
            if (!serviced.contains(fdVal)) {
                drained.remove(fdVal);
                undelivered.remove(fdVal);
                RdmaNet.close0(fdVal, 0);
                closed.run();
                return;
            }
            // A connected socket is drained first, here if its channel did
            // not (a Cleaner's close); rclose shuts it down again, which
            // waits as the drain does.  Once every send is delivered, ending
            // that wait loses nothing; otherwise the rclose waits for the
            // peer in the background, as a TCP close leaves the kernel to
            // deliver what the peer has not taken.
            if (!drained.contains(fdVal)) {
                try {
                    boundedShutdown(fdVal, SHUT_RDWR);
                } catch (IOException e) {
                    // a failed connection: nothing waits to be delivered
                }
            }
            drained.remove(fdVal);
            if (undelivered.remove(fdVal)) {
                RdmaCloseWatchdog.closeInBackground(fdVal, closed);
            } else {
                RdmaCloseWatchdog.run(fdVal, RdmaCloseWatchdog.BOUND_MILLIS,
                                      call -> RdmaNet.close0(fdVal, call));
                closed.run();
            }
        };
        cleanables.put(fdVal, CLEANER.register(fd, closer));
    }

    @Override
    public void close(FileDescriptor fd) {
        int fdVal = FDA.get(fd);
        if (fdVal < 0)
            return;
        // Never close a number twice: rsockets may have handed it out again.
        FDA.set(fd, -1);
        Cleaner.Cleanable c = cleanables.get(fdVal);
        if (c != null)
            c.clean();
        Reference.reachabilityFence(fd);
    }

    // -- the selectors' poll: RdmaProvider's, and the default selectors'
    // (SocketOpsPollSet) for explicit and switched channels

    @Override
    public int poll(long pollAddress, int numfds, int timeout) throws IOException {
        boolean recheck = !backlogs.isEmpty() || !connecting.isEmpty();
        return RdmaNet.pollArray0(pollAddress, numfds, timeout, recheck ? RECHECK_MILLIS : -1);
    }
}
