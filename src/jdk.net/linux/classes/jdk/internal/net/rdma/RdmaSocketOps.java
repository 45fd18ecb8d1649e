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
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardProtocolFamily;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
import sun.nio.ch.IOUtil;
import sun.nio.ch.SelChImpl;
import sun.nio.ch.SocketOps;

/**
 * The OS calls of RDMA channels: rsockets, through {@link RdmaNet}.  Each
 * open rsocket has an {@link RdmaSocket}, found by its number; blocking
 * operations wait through {@link RdmaWaits}.
 */
final class RdmaSocketOps extends SocketOps {
    private static final JavaIOFileDescriptorAccess FDA = SharedSecrets.getJavaIOFileDescriptorAccess();

    // poll(2) events, as in sun.nio.ch.Net
    private static final int POLLIN = RdmaPoller.POLLIN;
    private static final int POLLOUT = RdmaPoller.POLLOUT;

    // re-check listeners and connecting sockets this often in a blocking
    // select (rsockets may signal their readiness late)
    private static final int RECHECK_MILLIS = 10;

    /*
     * The open rsockets, by number: the one table from a number to its
     * socket's state.  A socket leaves it first when it closes
     * (RdmaSocket.close), before rclose lets rsockets hand the number out
     * again.
     */
    private final ConcurrentHashMap<Integer, RdmaSocket> sockets = new ConcurrentHashMap<>();

    // the waits of blocking operations (RdmaWaits)
    private final RdmaWaits waits = new RdmaWaits();

    // the room librdmacm's service threads have (RdmaServiceRoom)
    private final RdmaServiceRoom room = new RdmaServiceRoom();

    // sockets whose connect is in progress; rsockets may not signal the
    // end of a handshake to a waiting rpoll, so a blocking select re-checks
    // while there are any (poll)
    private final AtomicInteger connectingCount = new AtomicInteger();

    // finishes the closes and shutdowns that could wait for the peer
    private volatile RdmaReaper reaper;

    // bounds the waits of rshutdown and rclose for a transport that never
    // acknowledges
    private final RdmaDrainWatch drainWatch = new RdmaDrainWatch();

    // watches the connected sockets that librdmacm does not, where it does
    // not (RdmaNet.CONNECT_UNSERVED).  Made with the ops, so that its
    // eventfd is there before any socket is, or if that failed, on first use.
    private volatile RdmaDisconnectWatcher disconnectWatcher;

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
    RdmaSocket open(boolean ipv6) throws IOException {
        int n = RdmaNet.socket0(ipv6);
        RdmaSocket s = new RdmaSocket(this, n, !ipv6);
        sockets.put(n, s);
        return s;
    }

    RdmaServiceRoom room() {
        return room;
    }

    RdmaDrainWatch drainWatch() {
        return drainWatch;
    }

    /*
     * Forgets socket s, the first step of its close: after this no thread
     * finds it by its number.  The pollers leave it out of their next
     * rpolls (RdmaPollGate), and the disconnect watcher watches it
     * until its rclose (unwatch): the reaper may hold it until the peer
     * disconnects.
     */
    void forget(RdmaSocket s) {
        sockets.remove(s.fd, s);
        setConnecting(s, false);
        room.unlisten(s);
    }

    // the last step before rclose
    void unwatch(RdmaSocket s) {
        RdmaDisconnectWatcher w = disconnectWatcher;
        if (w != null)
            w.forget(s);
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


    private byte[] checkAddress(int fdVal, ProtocolFamily family, InetAddress addr) {
        // an IPv4 rsocket that replaced the platform socket of an INET6 channel
        RdmaSocket s = socket(fdVal);
        if (family == StandardProtocolFamily.INET6 && s != null && s.inet4)
            family = StandardProtocolFamily.INET;
        RdmaAddresses.checkFamily(family, addr);
        return addr.getAddress();
    }

    @Override
    public InetSocketAddress checkLocalAddress(SocketAddress local, ProtocolFamily family) {
        return RdmaAddresses.checkLocal(local, family);
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
            disconnectWatcher().watch(s);
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
    private void peerDisconnected(RdmaSocket s) {
        s.peerDisconnected();
        waits.wake(s, POLLIN);
        waits.wake(s, POLLOUT);
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
            InetSocketAddress remote = RdmaAddresses.toAddress(addr, info);
            if (RdmaAddresses.unscoped(remote)
                    && localAddress(newfd).getAddress() instanceof Inet6Address local
                    && local.getScopedInterface() != null)
                remote = RdmaAddresses.scoped(remote, local.getScopedInterface());
            isaa[0] = remote;
        } catch (IOException e) {
            close(newfd);
            throw e;
        }
        return 1;
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
        return RdmaAddresses.local(RdmaAddresses.toAddress(addr, info));
    }

    @Override
    public int available(FileDescriptor fd) throws IOException {
        return RdmaNet.available0(IOUtil.fdVal(fd));
    }

    @Override
    public int sendOOB(FileDescriptor fd, byte data) throws IOException {
        throw new SocketException("urgent data not supported by RDMA sockets");
    }

    // -- options: RdmaOptions

    @Override
    public Set<SocketOption<?>> supportedOptions(boolean server) {
        return RdmaOptions.supported(server);
    }

    @Override
    public void setSocketOption(FileDescriptor fd, ProtocolFamily family,
                                SocketOption<?> name, Object value) throws IOException {
        if (value == null)
            throw new IllegalArgumentException("Invalid option value");
        RdmaOptions.set(socket(fd), name, value);
    }

    @Override
    public Object getSocketOption(FileDescriptor fd, ProtocolFamily family,
                                  SocketOption<?> name) throws IOException {
        return RdmaOptions.get(socket(fd), name);
    }

    // -- blocking

    @Override
    public boolean alwaysNonBlocking() {
        return true;
    }


    RdmaWaits waits() {
        return waits;
    }

    @Override
    public void park(SelChImpl ch, int event, long nanos) throws IOException {
        RdmaSocket s = socket(ch.getFDVal());
        // closed (the caller sees it), or the direction is shut down
        if (s != null && !s.waitsStopped(event))
            waits.park(s, ch, event, nanos);
    }

    @Override
    public void stopPoll(int fdVal, int event, long thread) {
        RdmaSocket s = socket(fdVal);
        if (s != null) {
            s.stopWaits(event);
            waits.wake(s, event);
        }
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
        RdmaSocket s = socket(FDA.get(fd));
        if (s != null) {
            waits.wake(s, POLLIN);
            waits.wake(s, POLLOUT);
        }
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
        return waits.select(pollAddress, numfds, timeout, recheck ? RECHECK_MILLIS : -1);
    }
}
