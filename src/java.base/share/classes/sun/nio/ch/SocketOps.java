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
import java.util.function.BooleanSupplier;

/**
 * The operating-system calls that a stream-socket channel
 * ({@code SocketChannelImpl}, {@code ServerSocketChannelImpl}) and the
 * poll-based selector ({@code PollSelectorImpl}) make on a socket.
 *
 * <p> The channels take an instance of this class in their constructor and
 * route every call on their file descriptor through it. The default,
 * {@link #platform()}, delegates to {@code Net}, {@code NetHooks} and the
 * socket dispatcher, so the channels behave exactly as upstream. Another
 * implementation, for a socket library other than the kernel's (such as
 * rsockets in module jdk.net), reuses the channels' state machines, locking,
 * close protocol and adaptors unchanged.
 *
 * <p> The methods take and return the same values as their {@code Net}
 * counterparts: {@code IOStatus} codes, {@code Net.POLLIN} and so on.
 * The data, close and poll methods take the descriptor's {@code int}
 * value; an implementation other than the platform's must override them.
 */
public abstract class SocketOps {

    protected SocketOps() { }

    /** The operating system's sockets: the upstream behaviour. */
    public static SocketOps platform() {
        return NetSocketOps.INSTANCE;
    }

    // -- Creation, naming, connection

    public abstract FileDescriptor socket(ProtocolFamily family, boolean stream) throws IOException;

    public abstract FileDescriptor serverSocket(ProtocolFamily family) throws IOException;

    /** Called before bind; the platform runs its {@code NetHooks}. */
    public void beforeTcpBind(FileDescriptor fd, InetAddress addr, int port) throws IOException { }

    /** Called before connect; the platform runs its {@code NetHooks}. */
    public void beforeTcpConnect(FileDescriptor fd, InetAddress addr, int port) throws IOException { }

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
     * The options the channels support, or null for upstream's sets.
     * A channel throws UnsupportedOperationException for any other option.
     */
    public Set<SocketOption<?>> supportedOptions(boolean server) {
        return null;
    }

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
     * operations poll it with {@link #park}.
     */
    public boolean alwaysNonBlocking() {
        return false;
    }

    /**
     * Waits until the socket is ready for event (Net.POLLIN or Net.POLLOUT),
     * the timeout (if nanos > 0) expires, the channel is closed (isOpen
     * false), {@link #stopPoll} or {@link #preClose} is called, or the
     * thread is interrupted. It may also return spuriously.
     */
    public void park(int fdVal, int event, long nanos, BooleanSupplier isOpen) throws IOException {
        throw new InternalError();
    }

    /**
     * Wakes the thread blocked for event on the socket after a shutdown;
     * thread is the NativeThread id the channel recorded for it.
     */
    public void stopPoll(int fdVal, int event, long thread) {
        if (NativeThread.isVirtualThread(thread)) {
            Poller.stopPoll(fdVal, event);
        } else if (NativeThread.isNativeThread(thread)) {
            NativeThread.signal(thread);
        }
    }

    // -- Data, close and poll; used only by implementations other than the platform's

    public int read(int fdVal, long address, int len) throws IOException {
        throw new InternalError();
    }

    public long readv(int fdVal, long address, int len) throws IOException {
        throw new InternalError();
    }

    public int write(int fdVal, long address, int len) throws IOException {
        throw new InternalError();
    }

    public long writev(int fdVal, long address, int len) throws IOException {
        throw new InternalError();
    }

    /** Wakes every thread blocked on the socket: it is being closed. */
    public void preClose(int fdVal) throws IOException {
        throw new InternalError();
    }

    /** Closes the socket; no thread is using it any more. */
    public void close(int fdVal) throws IOException {
        throw new InternalError();
    }

    /** poll(2) on an array of struct pollfd, for the selector. */
    public int poll(long pollAddress, int numfds, int timeout) throws IOException {
        throw new InternalError();
    }

    /** The dispatcher the channels use for data and close. */
    NativeDispatcher dispatcher() {
        return new SocketOpsDispatcher(this);
    }
}
