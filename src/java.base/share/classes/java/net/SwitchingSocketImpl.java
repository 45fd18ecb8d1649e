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

package java.net;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

import sun.net.PlatformSocketImpl;
import sun.nio.ch.DefaultSelectorProvider;
import sun.nio.ch.NioSocketImpl;
import sun.nio.ch.SelChImpl;
import sun.nio.ch.SocketOpsSwitch;

/**
 * The platform SocketImpl while a socket switch ({@link SocketOpsSwitch})
 * is on, so that {@code new Socket()} and {@code new ServerSocket()} follow
 * the same rules as the channels.
 *
 * <p> It starts as a {@link NioSocketImpl} and stays one unless a rule
 * matches at bind, or at the connect of an unbound socket. Then the
 * platform socket is closed and the socket continues as the adaptor of a
 * channel from the default provider, which the same rule switches when it
 * binds or connects. A switched socket so behaves as the sockets of
 * {@code jdk.net.Sockets.openRdmaSocket()} do, except that it takes
 * interrupts as a Socket does, not as a channel: a platform thread's
 * interrupt leaves it open ({@link SocketOpsSwitch#setUninterruptible}).
 * A socket that no rule matches keeps NioSocketImpl's behaviour exactly.
 *
 * <p> A server socket binds and listens in one step on a channel, so the
 * switch of a server socket happens at {@link #listen}: {@code
 * ServerSocket.bind} calls both, and a failure of either reaches the
 * caller of {@code bind}.
 */
final class SwitchingSocketImpl extends SocketImpl implements PlatformSocketImpl {

    // the options that go over to the channel at the switch; the channel's
    // switch then carries those that differ from the defaults to the new
    // socket (buffer sizes are the new socket's own)
    private static final List<SocketOption<?>> CARRIED = List.of(
        StandardSocketOptions.SO_REUSEADDR,
        StandardSocketOptions.SO_KEEPALIVE,
        StandardSocketOptions.TCP_NODELAY,
        StandardSocketOptions.SO_LINGER);

    private final boolean server;
    private final SocketImpl platform;

    // guards the switch against a close
    private final ReentrantLock switchLock = new ReentrantLock();
    private boolean closed;

    // the switched socket: set once, under switchLock
    private volatile Socket switched;
    private volatile ServerSocket switchedServer;
    private InputStream switchedIn;

    // a server bind that a rule matched, done at listen
    private InetAddress pendingHost;
    private int pendingPort;

    private SwitchingSocketImpl(boolean server) {
        this.server = server;
        this.platform = new NioSocketImpl(server);
    }

    /**
     * Returns a new platform SocketImpl if a socket switch is on, else null.
     */
    static SocketImpl createIfSwitching(boolean server) {
        return SocketOpsSwitch.get() != null ? new SwitchingSocketImpl(server) : null;
    }

    private static boolean ruleMatches(boolean bind, InetAddress addr, int port)
        throws SocketException
    {
        return SocketOpsSwitch.get().switches(bind, addr, port);
    }

    private boolean isSwitched() {
        return switched != null || switchedServer != null || pendingHost != null;
    }

    /**
     * Closes the platform socket and opens the channel that replaces it,
     * with the options set so far.
     */
    private Socket switchSocket() throws IOException {
        switchLock.lock();
        try {
            if (closed)
                throw new SocketException("Socket closed");
            Socket s = DefaultSelectorProvider.get().openSocketChannel().socket();
            SocketOpsSwitch.setUninterruptible(s.getChannel());
            try {
                for (SocketOption<?> name : CARRIED)
                    carry(name, s);
                s.setSoTimeout((Integer) platform.getOption(SO_TIMEOUT));
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
            platform.close();
            fd = ((SelChImpl) s.getChannel()).getFD();   // the channel's socket now
            switched = s;
            return s;
        } finally {
            switchLock.unlock();
        }
    }

    private ServerSocket switchServerSocket() throws IOException {
        switchLock.lock();
        try {
            if (closed)
                throw new SocketException("Socket closed");
            ServerSocket ss = DefaultSelectorProvider.get().openServerSocketChannel().socket();
            SocketOpsSwitch.setUninterruptible(ss.getChannel());
            try {
                ss.setReuseAddress(platform.getOption(StandardSocketOptions.SO_REUSEADDR));
                ss.setSoTimeout((Integer) platform.getOption(SO_TIMEOUT));
            } catch (IOException | RuntimeException e) {
                ss.close();
                throw e;
            }
            platform.close();
            fd = ((SelChImpl) ss.getChannel()).getFD();
            switchedServer = ss;
            return ss;
        } finally {
            switchLock.unlock();
        }
    }

    private <T> void carry(SocketOption<T> name, Socket to) throws IOException {
        to.setOption(name, platform.getOption(name));
    }

    /** Makes this (new) SocketImpl the one of a connection a switched server accepted. */
    private void accepted(Socket s) throws IOException {
        switchLock.lock();
        try {
            if (closed) {
                s.close();
                throw new SocketException("Socket closed");
            }
            SocketOpsSwitch.setUninterruptible(s.getChannel());
            switched = s;
        } finally {
            switchLock.unlock();
        }
    }

    // -- SocketImpl

    @Override
    protected void create(boolean stream) throws IOException {
        platform.create(stream);
        // as NioSocketImpl: code that looks at SocketImpl.fd finds a socket
        fd = platform.getFileDescriptor();
    }

    @Override
    protected void connect(String host, int port) throws IOException {
        connect(new InetSocketAddress(host, port), 0);
    }

    @Override
    protected void connect(InetAddress address, int port) throws IOException {
        connect(new InetSocketAddress(address, port), 0);
    }

    @Override
    protected void connect(SocketAddress remote, int millis) throws IOException {
        // the platform impl connects a wildcard address to the local host,
        // so the rules, and a socket switched before or at this connect,
        // see that address too
        if (remote instanceof InetSocketAddress isa
                && !isa.isUnresolved()
                && isa.getAddress().isAnyLocalAddress())
            remote = new InetSocketAddress(InetAddress.getLocalHost(), isa.getPort());
        Socket s = switched;
        if (s == null
                && !server
                && platform.getLocalPort() == 0
                && remote instanceof InetSocketAddress isa
                && !isa.isUnresolved()
                && ruleMatches(false, isa.getAddress(), isa.getPort())) {
            s = switchSocket();
        }
        if (s != null) {
            try {
                s.connect(remote, millis);
            } catch (IOException e) {
                throw toSocketException(e);
            }
        } else {
            platform.connect(remote, millis);
        }
    }

    @Override
    protected void bind(InetAddress host, int port) throws IOException {
        if (isSwitched())
            throw new SocketException("Already bound");
        if (!ruleMatches(true, host, port)) {
            platform.bind(host, port);
        } else if (server) {
            pendingHost = host;
            pendingPort = port;
        } else {
            switchSocket().bind(new InetSocketAddress(host, port));
        }
    }

    @Override
    protected void listen(int backlog) throws IOException {
        InetAddress host = pendingHost;
        if (host == null) {
            platform.listen(backlog);
        } else {
            switchServerSocket().bind(new InetSocketAddress(host, pendingPort), backlog);
        }
    }

    @Override
    protected void accept(SocketImpl si) throws IOException {
        ServerSocket ss = switchedServer;
        if (ss != null) {
            Socket s;
            try {
                s = ss.accept();
            } catch (IOException e) {
                throw toSocketException(e);
            }
            if (si instanceof SwitchingSocketImpl target) {
                target.accepted(s);
            } else {
                s.close();
                throw new SocketException("Cannot accept a switched connection into " + si.getClass());
            }
        } else {
            if (si instanceof SwitchingSocketImpl target) {
                platform.accept(target.platform);
                target.fd = target.platform.getFileDescriptor();
            } else {
                platform.accept(si);
            }
        }
    }

    // Socket specifies a SocketException for I/O on a closed socket, also
    // in a thread that was blocked when another closed it; a channel's
    // streams throw ClosedChannelException or AsynchronousCloseException
    private static IOException toSocketException(IOException e) {
        if (e instanceof ClosedByInterruptException)
            return new SocketException("Closed by interrupt");
        if (e instanceof ClosedChannelException)
            return new SocketException("Socket closed");
        return e;
    }

    private static final class SwitchedInputStream extends InputStream {
        private final InputStream in;

        SwitchedInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] a = new byte[1];
            int n = read(a, 0, 1);
            return (n > 0) ? (a[0] & 0xff) : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                throw toSocketException(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException e) {
                throw toSocketException(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static final class SwitchedOutputStream extends OutputStream {
        private final OutputStream out;

        SwitchedOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] { (byte) b }, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw toSocketException(e);
            }
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    @Override
    protected InputStream getInputStream() throws IOException {
        Socket s = switched;
        return (s != null) ? new SwitchedInputStream(s.getInputStream()) : platform.getInputStream();
    }

    @Override
    protected OutputStream getOutputStream() throws IOException {
        Socket s = switched;
        return (s != null) ? new SwitchedOutputStream(s.getOutputStream()) : platform.getOutputStream();
    }

    @Override
    protected int available() throws IOException {
        Socket s = switched;
        if (s == null)
            return platform.available();
        if (s.isInputShutdown())
            return 0;
        InputStream in;
        switchLock.lock();
        try {
            in = switchedIn;
            if (in == null)
                switchedIn = in = new SwitchedInputStream(s.getInputStream());
        } finally {
            switchLock.unlock();
        }
        return in.available();
    }

    @Override
    protected void close() throws IOException {
        Socket s;
        ServerSocket ss;
        switchLock.lock();
        try {
            closed = true;
            s = switched;
            ss = switchedServer;
        } finally {
            switchLock.unlock();
        }
        try {
            if (s != null)
                s.close();
            if (ss != null)
                ss.close();
        } finally {
            platform.close();
        }
    }

    @Override
    protected boolean supportsUrgentData() {
        // the switched sockets (rsockets) have no out-of-band data
        return switched == null && platform.supportsUrgentData();
    }

    @Override
    protected void sendUrgentData(int data) throws IOException {
        platform.sendUrgentData(data);
    }

    @Override
    protected void shutdownInput() throws IOException {
        Socket s = switched;
        if (s != null) {
            s.shutdownInput();
        } else {
            platform.shutdownInput();
        }
    }

    @Override
    protected void shutdownOutput() throws IOException {
        Socket s = switched;
        if (s != null) {
            s.shutdownOutput();
        } else {
            platform.shutdownOutput();
        }
    }

    @Override
    protected FileDescriptor getFileDescriptor() {
        return isSwitched() ? null : platform.getFileDescriptor();
    }

    @Override
    protected InetAddress getInetAddress() {
        Socket s = switched;
        if (s != null)
            return s.getInetAddress();
        if (server && isSwitched())
            return pendingHost;     // the address bound, as NioSocketImpl keeps it
        return platform.getInetAddress();
    }

    @Override
    protected int getPort() {
        Socket s = switched;
        return (s != null) ? s.getPort() : platform.getPort();
    }

    @Override
    protected int getLocalPort() {
        Socket s = switched;
        if (s != null)
            return s.getLocalPort();
        ServerSocket ss = switchedServer;
        if (ss != null)
            return ss.getLocalPort();
        return platform.getLocalPort();
    }

    @Override
    protected Set<SocketOption<?>> supportedOptions() {
        Socket s = switched;
        if (s != null)
            return s.supportedOptions();
        ServerSocket ss = switchedServer;
        return (ss != null) ? ss.supportedOptions() : platform.supportedOptions();
    }

    @Override
    protected <T> void setOption(SocketOption<T> name, T value) throws IOException {
        Socket s = switched;
        ServerSocket ss = switchedServer;
        if (s != null) {
            s.setOption(name, value);
        } else if (ss != null) {
            ss.setOption(name, value);
        } else {
            platform.setOption(name, value);
        }
    }

    @Override
    protected <T> T getOption(SocketOption<T> name) throws IOException {
        Socket s = switched;
        ServerSocket ss = switchedServer;
        if (s != null)
            return s.getOption(name);
        if (ss != null)
            return ss.getOption(name);
        return platform.getOption(name);
    }

    @Override
    public void setOption(int opt, Object value) throws SocketException {
        Socket s = switched;
        ServerSocket ss = switchedServer;
        if (s == null && ss == null) {
            platform.setOption(opt, value);
        } else if (opt == SO_TIMEOUT) {
            int millis = (Integer) value;
            if (s != null) {
                s.setSoTimeout(millis);
            } else {
                ss.setSoTimeout(millis);
            }
        } else if (s != null) {
            switch (opt) {
                case TCP_NODELAY -> s.setTcpNoDelay((Boolean) value);
                case SO_LINGER -> {
                    if (value instanceof Integer linger) {
                        s.setSoLinger(true, linger);
                    } else {
                        s.setSoLinger(false, 0);
                    }
                }
                case SO_SNDBUF -> s.setSendBufferSize((Integer) value);
                case SO_RCVBUF -> s.setReceiveBufferSize((Integer) value);
                case SO_KEEPALIVE -> s.setKeepAlive((Boolean) value);
                case SO_OOBINLINE -> s.setOOBInline((Boolean) value);
                case SO_REUSEADDR -> s.setReuseAddress((Boolean) value);
                case IP_TOS -> s.setTrafficClass((Integer) value);
                default -> throw new SocketException("Unknown option " + opt);
            }
        } else {
            switch (opt) {
                case SO_RCVBUF -> ss.setReceiveBufferSize((Integer) value);
                case SO_REUSEADDR -> ss.setReuseAddress((Boolean) value);
                default -> throw new SocketException("Unknown option " + opt);
            }
        }
    }

    @Override
    public Object getOption(int opt) throws SocketException {
        Socket s = switched;
        ServerSocket ss = switchedServer;
        if (s == null && ss == null)
            return platform.getOption(opt);
        if (opt == SO_TIMEOUT) {
            if (s != null)
                return s.getSoTimeout();
            try {
                return ss.getSoTimeout();
            } catch (SocketException e) {
                throw e;
            } catch (IOException e) {
                throw new SocketException(e.getMessage(), e);
            }
        }
        if (s != null) {
            return switch (opt) {
                case TCP_NODELAY -> s.getTcpNoDelay();
                case SO_LINGER -> {
                    int linger = s.getSoLinger();
                    yield (linger < 0) ? Boolean.FALSE : (Object) linger;
                }
                case SO_SNDBUF -> s.getSendBufferSize();
                case SO_RCVBUF -> s.getReceiveBufferSize();
                case SO_KEEPALIVE -> s.getKeepAlive();
                case SO_OOBINLINE -> s.getOOBInline();
                case SO_REUSEADDR -> s.getReuseAddress();
                case IP_TOS -> s.getTrafficClass();
                case SO_BINDADDR -> s.getLocalAddress();
                default -> throw new SocketException("Unknown option " + opt);
            };
        }
        return switch (opt) {
            case SO_RCVBUF -> ss.getReceiveBufferSize();
            case SO_REUSEADDR -> ss.getReuseAddress();
            case SO_BINDADDR -> ss.getInetAddress();
            default -> throw new SocketException("Unknown option " + opt);
        };
    }

    @Override
    public String toString() {
        return "SwitchingSocketImpl[" + (switched != null ? switched
                : switchedServer != null ? switchedServer : platform) + "]";
    }
}
