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
import java.util.concurrent.atomic.AtomicInteger;
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

    // the waits of accepts and connects, and of every other operation
    // (created on first use)
    private volatile RdmaPoller tickingPoller;
    private volatile RdmaPoller poller;

    /*
     * The open rsockets, by number: the one table from a number to its
     * socket's state.  A socket leaves it first when it closes
     * (RdmaSocket.close), before rclose lets rsockets hand the number out
     * again.
     */
    private final ConcurrentHashMap<Integer, RdmaSocket> sockets = new ConcurrentHashMap<>();

    // the room librdmacm's service threads have (RdmaServiceRoom)
    private final RdmaServiceRoom room = new RdmaServiceRoom();

    // sockets whose connect is in progress; rsockets may not signal the
    // end of a handshake to a waiting rpoll, so a blocking select re-checks
    // while there are any (poll)
    private final AtomicInteger connectingCount = new AtomicInteger();

    // finishes the closes and shutdowns that could wait for the peer
    // (created on first use)
    private volatile RdmaReaper reaper;

    // watches the connected sockets that librdmacm does not, where it does
    // not (RdmaNet.CONNECT_UNSERVED).  Made with the ops, so that its
    // eventfd is there before any socket is, or if that failed, on first use.
    private volatile RdmaDisconnectWatcher disconnectWatcher;

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
        reaper();
        if (RdmaNet.CONNECT_UNSERVED) {
            try {
                disconnectWatcher();
            } catch (IOException e) {
                // no eventfd now: the first connect that needs it tries again
            }
        }
    }

    /** The state of the open rsocket fdVal, or null if it is not open. */
    private RdmaSocket socket(int fdVal) {
        return sockets.get(fdVal);
    }

    private RdmaSocket socket(FileDescriptor fd) throws SocketException {
        RdmaSocket s = sockets.get(FDA.get(fd));
        if (s == null)
            throw new SocketException("Socket closed");
        return s;
    }

    // a new rsocket, entered in the table
    private RdmaSocket open(boolean ipv6) throws IOException {
        int n = RdmaNet.socket0(ipv6);
        RdmaSocket s = new RdmaSocket(this, n, !ipv6);
        sockets.put(n, s);
        return s;
    }

    RdmaServiceRoom room() {
        return room;
    }

    /*
     * Forgets socket s, the first step of its close: after this no thread
     * finds it by its number, and no poller polls it.  The disconnect
     * watcher watches it until its rclose (unwatch): the reaper may hold
     * it until the peer disconnects.
     */
    void forget(RdmaSocket s) {
        int fdVal = s.fd;
        sockets.remove(fdVal, s);
        setConnecting(s, false);
        room.unlisten(s);
        RdmaPoller p = tickingPoller;
        if (p != null)
            p.retire(fdVal);
        p = poller;
        if (p != null)
            p.retire(fdVal);
    }

    // the last step before rclose
    void unwatch(RdmaSocket s) {
        RdmaDisconnectWatcher w = disconnectWatcher;
        if (w != null)
            w.forget(s.fd);
    }

    /*
     * The reaper, or null if its eventfd cannot be made (the process is out
     * of descriptors): RdmaSocket then makes the calls itself.  Made with
     * the ops, so that its eventfd is there before any socket is.
     */
    RdmaReaper reaper() {
        RdmaReaper r = reaper;
        if (r == null) {
            synchronized (this) {
                if ((r = reaper) == null) {
                    try {
                        reaper = r = new RdmaReaper("RDMA-Reaper");
                    } catch (IOException e) {
                        return null;
                    }
                }
            }
        }
        return r;
    }

    // fd's revents for POLLOUT now, without waiting
    int readiness(int fdVal) throws IOException {
        int[] fds = { fdVal };
        int[] events = { POLLOUT };
        return (RdmaPoller.poll0(fds, events, 1, 0) > 0) ? events[0] : 0;
    }

    private void setConnecting(RdmaSocket s, boolean connecting) {
        if (s.connecting != connecting) {
            synchronized (s) {
                if (s.connecting == connecting)
                    return;
                s.connecting = connecting;
            }
            connectingCount.addAndGet(connecting ? 1 : -1);
        }
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
        RdmaSocket s = open(family == StandardProtocolFamily.INET6);
        FileDescriptor fd = IOUtil.newFD(s.fd);
        s.track(fd);
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
        RdmaSocket s = open(ipv6);
        FileDescriptor rfd = IOUtil.newFD(s.fd);
        try {
            for (Map.Entry<SocketOption<?>, Object> e : options.entrySet())
                setSocketOption(rfd, e.getKey(), e.getValue());
        } catch (IOException | RuntimeException e) {
            s.closeOnce();
            throw e;
        }
        try {
            SocketOps.platform().close(fd);
        } catch (IOException ignore) {
            // close(2) releases the descriptor even when it reports an error
        }
        FDA.set(fd, s.fd);
        s.track(fd);
    }

    private static void checkFamily(ProtocolFamily family, InetAddress addr) {
        if (family == StandardProtocolFamily.INET && !(addr instanceof Inet4Address))
            throw new UnsupportedAddressTypeException();
        if (family == StandardProtocolFamily.INET6 && !(addr instanceof Inet6Address))
            throw new UnsupportedAddressTypeException();
    }

    private byte[] checkAddress(int fdVal, ProtocolFamily family, InetAddress addr) {
        // an IPv4 rsocket that replaced the platform socket of an INET6 channel
        RdmaSocket s = socket(fdVal);
        if (family == StandardProtocolFamily.INET6 && s != null && s.inet4)
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
     * The backlog is a hint: the listener listens with what
     * RdmaServiceRoom.listen holds for it, at least 1 (rdma_listen takes 0
     * for the largest).
     */
    @Override
    public void listen(FileDescriptor fd, int backlog) throws IOException {
        RdmaSocket s = socket(fd);
        room.listen(s, backlog);
        try {
            RdmaNet.listen0(s.fd, Math.max(s.listenRoom.reserved, 1));
        } catch (IOException | RuntimeException e) {
            room.unlisten(s);
            throw e;
        }
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
        RdmaSocket s = socket(fd);
        int fdVal = s.fd;
        byte[] addr = checkAddress(fdVal, family, isa.getAddress());
        room.connect(s);
        int n;
        try {
            n = RdmaNet.connect0(fdVal, addr, RdmaNet.scopeId(isa.getAddress()), isa.getPort());
        } catch (IOException | RuntimeException e) {
            // rconnect failed before it registered the socket
            room.released(s);
            throw e;
        }
        if (n <= 0) {
            setConnecting(s, true);
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
        RdmaSocket s = socket(fdVal);
        if (s != null)
            s.peerDisconnected();
        wake(fdVal, POLLIN);
        wake(fdVal, POLLOUT);
    }

    @Override
    public boolean pollConnectNow(FileDescriptor fd) throws IOException {
        RdmaSocket s = socket(fd);
        boolean done;
        try {
            done = RdmaNet.pollConnect0(s.fd);
        } catch (IOException e) {
            setConnecting(s, false);
            throw e;
        }
        if (done)
            setConnecting(s, false);
        return done;
    }

    @Override
    public int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa)
        throws IOException
    {
        RdmaSocket listener = socket(fd);
        byte[] addr = new byte[16];
        int[] info = new int[2];
        int n = RdmaNet.accept0(listener.fd, addr, info);
        if (n < 0)
            return n;
        RdmaSocket s = new RdmaSocket(this, n, false);
        sockets.put(n, s);
        FDA.set(newfd, n);
        s.track(newfd);
        try {
            // librdmacm has registered the socket: it uses the room its
            // listener holds, if the listener has any left
            room.accepted(s, listener);
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

    // the drain and its bounds: RdmaSocket.shutdown
    @Override
    public void shutdown(FileDescriptor fd, int how) throws IOException {
        socket(fd).shutdown(how);
    }

    @Override
    public boolean closeDrains() {
        return true;
    }

    @Override
    public void drain(FileDescriptor fd) throws IOException {
        RdmaSocket s = socket(FDA.get(fd));
        if (s != null)
            s.drain();
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
        RdmaSocket s = socket(fd);
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

    @Override
    public Object getSocketOption(FileDescriptor fd, ProtocolFamily family,
                                  SocketOption<?> name) throws IOException {
        RdmaSocket s = socket(fd);
        if (name == StandardSocketOptions.SO_LINGER)
            return s.linger();
        int v = RdmaNet.getIntOption0(s.fd, optionCode(name));
        if (name.type() == Boolean.class)
            return v != 0;
        return v;
    }

    // -- blocking

    @Override
    public boolean alwaysNonBlocking() {
        return true;
    }

    RdmaPoller poller(boolean ticking) throws IOException {
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
        RdmaSocket s = socket(fdVal);
        // closed (the caller sees it), or the direction is shut down
        if (s == null || s.waitsStopped(event))
            return;
        int spin = s.spinMicros();
        if (spin > 0) {
            if (RdmaPoller.spin0(fdVal, event, spin * 1000L) != 0) {
                s.setSpinMicros(spin * 2);
                return;
            }
            s.setSpinMicros(spin / 2);
        }
        boolean ticking = s.listenRoom != null || s.connecting;
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
                if (!ch.isOpen() || s.waitsStopped(event))
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
                if (!ch.isOpen() || s.waitsStopped(event)
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
        if (ready && ch.isOpen() && System.nanoTime() - start < RdmaSocket.MAX_SPIN_MICROS * 1000L)
            s.setSpinMicros(Math.max(spin * 2, RdmaSocket.MIN_SPIN_MICROS));
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
        RdmaSocket s = socket(fdVal);
        if (s != null)
            s.stopWaits(event);
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


    @Override
    public void close(FileDescriptor fd) {
        int fdVal = FDA.get(fd);
        if (fdVal < 0)
            return;
        // Never close a number twice: rsockets may have handed it out again.
        FDA.set(fd, -1);
        RdmaSocket s = socket(fdVal);
        if (s != null)
            s.closeOnce();
        Reference.reachabilityFence(fd);
    }

    // -- the selectors' poll: RdmaProvider's, and the default selectors'
    // (SocketOpsPollSet) for explicit and switched channels

    @Override
    public int poll(long pollAddress, int numfds, int timeout) throws IOException {
        boolean recheck = room.anyListening() || connectingCount.get() > 0;
        return RdmaNet.pollArray0(pollAddress, numfds, timeout, recheck ? RECHECK_MILLIS : -1);
    }
}
