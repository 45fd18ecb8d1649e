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

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.util.Set;

/**
 * The operating-system calls that a stream-socket channel
 * ({@code SocketChannelImpl}, {@code ServerSocketChannelImpl}) makes on its
 * socket.
 *
 * <p> The channels take an instance in their constructor and make every
 * call on their file descriptor through it, without asking which
 * implementation it is. {@link #platform()} is the operating system's
 * sockets: each of its methods is the call the channels make in upstream
 * OpenJDK ({@code Net}, {@code NetHooks}, the socket dispatcher, the
 * poller). Another implementation, for a socket library other than the
 * kernel's (such as rsockets in module jdk.net), reuses the channels' state
 * machines, locking, close protocol and adaptors unchanged. A selector for
 * such channels is the business of {@link SocketOpsSelectorProvider}.
 *
 * <p> The methods take and return the same values as their {@code Net}
 * and {@code NativeDispatcher} counterparts: {@code IOStatus} codes,
 * {@code Net.POLLIN} and so on.
 */
public abstract class SocketOps {

    protected SocketOps() { }

    /** The operating system's sockets: upstream's behaviour. */
    public static SocketOps platform() {
        return NetSocketOps.INSTANCE;
    }

    // -- Creation, naming, connection

    public abstract FileDescriptor socket(ProtocolFamily family, boolean stream) throws IOException;

    public abstract FileDescriptor serverSocket(ProtocolFamily family) throws IOException;

    /**
     * Called before bind. The platform runs its {@code NetHooks} and then
     * asks the {@link SocketOpsSwitch}, if there is one, whether the socket
     * is to be switched to another socket library.
     *
     * @return the ops of the socket from now on: this, or the ops of the
     *         socket that has replaced the one {@code fd} held (the channel
     *         then resets its selection keys: see {@link SocketOpsSwitch})
     */
    public abstract SocketOps beforeTcpBind(FileDescriptor fd, InetAddress addr, int port)
        throws IOException;

    /**
     * Called before an unbound socket connects; as {@link #beforeTcpBind}.
     */
    public abstract SocketOps beforeTcpConnect(FileDescriptor fd, InetAddress addr, int port)
        throws IOException;

    /**
     * The address that a bind to local (not null) binds to. Throws
     * UnsupportedAddressTypeException if a socket of the family cannot
     * bind to it.
     */
    public abstract InetSocketAddress checkLocalAddress(SocketAddress local, ProtocolFamily family);

    public abstract void bind(ProtocolFamily family, FileDescriptor fd, InetAddress addr, int port)
        throws IOException;

    public abstract void listen(FileDescriptor fd, int backlog) throws IOException;

    /** Returns 1 when connected, or IOStatus.UNAVAILABLE when in progress. */
    public abstract int connect(ProtocolFamily family, FileDescriptor fd, SocketAddress remote)
        throws IOException;

    /** Whether a connect in progress has completed; throws if it failed. */
    public abstract boolean pollConnectNow(FileDescriptor fd) throws IOException;

    /**
     * Accepts a connection: sets newfd, stores the remote address in
     * isaa[0] and returns 1, or returns IOStatus.UNAVAILABLE.
     */
    public abstract int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa)
        throws IOException;

    /** Prepares an accepted socket before its channel is created. */
    public abstract void configureAccepted(FileDescriptor newfd) throws IOException;

    public abstract void shutdown(FileDescriptor fd, int how) throws IOException;

    public abstract InetSocketAddress localAddress(FileDescriptor fd) throws IOException;

    public abstract int available(FileDescriptor fd) throws IOException;

    public abstract int sendOOB(FileDescriptor fd, byte data) throws IOException;

    // -- Options

    /**
     * The options the channels support, or null for the channel's own
     * set, which the platform uses. A channel throws
     * UnsupportedOperationException for any option not in the set.
     */
    public abstract Set<SocketOption<?>> supportedOptions(boolean server);

    public abstract void setSocketOption(FileDescriptor fd, ProtocolFamily family,
                                         SocketOption<?> name, Object value) throws IOException;

    public abstract Object getSocketOption(FileDescriptor fd, ProtocolFamily family,
                                           SocketOption<?> name) throws IOException;

    public final void setSocketOption(FileDescriptor fd, SocketOption<?> name, Object value)
        throws IOException
    {
        setSocketOption(fd, Net.UNSPEC, name, value);
    }

    public final Object getSocketOption(FileDescriptor fd, SocketOption<?> name)
        throws IOException
    {
        return getSocketOption(fd, Net.UNSPEC, name);
    }

    // -- Blocking

    /**
     * Whether the socket is always in non-blocking mode, so that blocking
     * operations wait in {@link #park}.
     */
    public abstract boolean alwaysNonBlocking();

    /**
     * {@link SelChImpl#park(int, long)} for the channel ch: waits until its
     * socket is ready for event (Net.POLLIN or Net.POLLOUT), the timeout
     * (if nanos > 0) expires, the channel is closed, {@link #stopPoll} or
     * {@link #preClose} is called, or the thread is interrupted. It may
     * also return spuriously: the caller retries its operation.
     */
    public abstract void park(SelChImpl ch, int event, long nanos) throws IOException;

    /**
     * Wakes the thread blocked for event on the socket after a shutdown;
     * thread is the NativeThread id the channel recorded for it.
     */
    public abstract void stopPoll(int fdVal, int event, long thread);

    /**
     * poll(2) on an array of struct pollfd that may hold both sockets of
     * these ops and kernel descriptors, for the selectors that their
     * channels register with. The platform's ops have none: epoll sees
     * their sockets.
     *
     * @throws UnsupportedOperationException for the platform's ops
     */
    public int poll(long pollAddress, int numfds, int timeout) throws IOException {
        throw new UnsupportedOperationException("the platform's sockets are polled by the selector");
    }

    // -- Data and close, through the channel's NativeDispatcher

    public abstract int read(FileDescriptor fd, long address, int len) throws IOException;

    public abstract long readv(FileDescriptor fd, long address, int len) throws IOException;

    public abstract int write(FileDescriptor fd, long address, int len) throws IOException;

    public abstract long writev(FileDescriptor fd, long address, int len) throws IOException;

    /**
     * Wakes the threads, platform or virtual, blocked on the socket before
     * it is closed (reader and writer are the NativeThread ids that the
     * channel recorded for them, 0 for none).
     */
    public abstract void preClose(FileDescriptor fd, long reader, long writer) throws IOException;

    /**
     * Whether closing a connected socket waits until its sends are
     * delivered, as rsockets' rclose does. The channel then calls
     * {@link #drain} before it closes, holding none of its locks.
     */
    public boolean closeDrains() {
        return false;
    }

    /**
     * Waits until the sends of the connected socket are delivered, or its
     * connection has failed, so that the {@link #close} that follows has
     * nothing to wait for. The channel is closed, no thread is in an
     * operation on the socket, and the caller holds no lock of the channel.
     */
    public void drain(FileDescriptor fd) throws IOException { }

    /** Closes the socket; no thread is using it any more. */
    public abstract void close(FileDescriptor fd) throws IOException;

    /** A dispatcher for a channel to read, write and close through. */
    final NativeDispatcher dispatcher() {
        return new SocketOpsDispatcher(this);
    }
}
