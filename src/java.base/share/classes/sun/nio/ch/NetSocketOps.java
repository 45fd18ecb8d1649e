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

import sun.net.NetHooks;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * The operating system's sockets, {@link SocketOps#platform()}: each method
 * is the call upstream's channels make.
 */
final class NetSocketOps extends SocketOps {
    static final NetSocketOps INSTANCE = new NetSocketOps();

    private static final NativeDispatcher ND = new SocketDispatcher();

    private NetSocketOps() { }

    @Override
    public FileDescriptor socket(ProtocolFamily family, boolean stream) throws IOException {
        return Net.socket(family, stream);
    }

    @Override
    public FileDescriptor serverSocket(ProtocolFamily family) throws IOException {
        return Net.serverSocket(family);
    }

    @Override
    public SocketOps beforeTcpBind(FileDescriptor fd, InetAddress addr, int port)
        throws IOException
    {
        NetHooks.beforeTcpBind(fd, addr, port);
        SocketOpsSwitch sw = SocketOpsSwitch.get();
        SocketOps ops = (sw != null) ? sw.beforeBind(fd, addr, port) : null;
        return (ops != null) ? ops : this;
    }

    @Override
    public SocketOps beforeTcpConnect(FileDescriptor fd, InetAddress addr, int port)
        throws IOException
    {
        NetHooks.beforeTcpConnect(fd, addr, port);
        SocketOpsSwitch sw = SocketOpsSwitch.get();
        SocketOps ops = (sw != null) ? sw.beforeConnect(fd, addr, port) : null;
        return (ops != null) ? ops : this;
    }

    @Override
    public InetSocketAddress checkLocalAddress(SocketAddress local, ProtocolFamily family) {
        return Net.checkAddress(local, family);
    }

    @Override
    public void bind(ProtocolFamily family, FileDescriptor fd, InetAddress addr, int port)
        throws IOException
    {
        Net.bind(family, fd, addr, port);
    }

    @Override
    public void listen(FileDescriptor fd, int backlog) throws IOException {
        Net.listen(fd, backlog);
    }

    @Override
    public int connect(ProtocolFamily family, FileDescriptor fd, SocketAddress remote)
        throws IOException
    {
        return Net.connect(family, fd, remote);
    }

    @Override
    public boolean pollConnectNow(FileDescriptor fd) throws IOException {
        return Net.pollConnectNow(fd);
    }

    @Override
    public int accept(FileDescriptor fd, FileDescriptor newfd, InetSocketAddress[] isaa)
        throws IOException
    {
        return Net.accept(fd, newfd, isaa);
    }

    @Override
    public void configureAccepted(FileDescriptor newfd) throws IOException {
        // newly accepted socket is initially in blocking mode
        IOUtil.configureBlocking(newfd, true);
    }

    @Override
    public void shutdown(FileDescriptor fd, int how) throws IOException {
        Net.shutdown(fd, how);
    }

    @Override
    public InetSocketAddress localAddress(FileDescriptor fd) throws IOException {
        return Net.localAddress(fd);
    }

    @Override
    public int available(FileDescriptor fd) throws IOException {
        return Net.available(fd);
    }

    @Override
    public int sendOOB(FileDescriptor fd, byte data) throws IOException {
        return Net.sendOOB(fd, data);
    }

    @Override
    public void setSocketOption(FileDescriptor fd, ProtocolFamily family,
                                SocketOption<?> name, Object value) throws IOException {
        Net.setSocketOption(fd, family, name, value);
    }

    @Override
    public Object getSocketOption(FileDescriptor fd, ProtocolFamily family,
                                  SocketOption<?> name) throws IOException {
        return Net.getSocketOption(fd, family, name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions(boolean server) {
        return null;
    }

    @Override
    public boolean alwaysNonBlocking() {
        return false;
    }

    // SelChImpl's default park, which the channels override to call this
    @Override
    public void park(SelChImpl ch, int event, long nanos) throws IOException {
        if (Thread.currentThread().isVirtual()) {
            Poller.poll(ch.getFDVal(), event, nanos, ch::isOpen);
        } else {
            long millis;
            if (nanos <= 0) {
                millis = -1;
            } else {
                millis = NANOSECONDS.toMillis(nanos);
                if (nanos > MILLISECONDS.toNanos(millis)) {
                    // never park for less than requested
                    millis++;
                }
            }
            Net.poll(ch.getFD(), event, millis);
        }
    }

    @Override
    public void stopPoll(int fdVal, int event, long thread) {
        if (NativeThread.isVirtualThread(thread)) {
            Poller.stopPoll(fdVal, event);
        } else if (NativeThread.isNativeThread(thread)) {
            NativeThread.signal(thread);
        }
    }

    @Override
    public int read(FileDescriptor fd, long address, int len) throws IOException {
        return ND.read(fd, address, len);
    }

    @Override
    public long readv(FileDescriptor fd, long address, int len) throws IOException {
        return ND.readv(fd, address, len);
    }

    @Override
    public int write(FileDescriptor fd, long address, int len) throws IOException {
        return ND.write(fd, address, len);
    }

    @Override
    public long writev(FileDescriptor fd, long address, int len) throws IOException {
        return ND.writev(fd, address, len);
    }

    @Override
    public void preClose(FileDescriptor fd, long reader, long writer) throws IOException {
        ND.preClose(fd, reader, writer);
    }

    @Override
    public void close(FileDescriptor fd) throws IOException {
        ND.close(fd);
    }
}
