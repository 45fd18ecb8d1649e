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

import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.Channel;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;

/**
 * A SelectorProvider for a socket library other than the kernel's: its
 * stream-socket channels make their OS calls through a given
 * {@link SocketOps}, and its selector is the poll selector with the
 * library's own {@link SocketOps#poll poll}. Its selectors take no other
 * provider's channels (IllegalSelectorException), and its channels can be
 * registered only with its own selectors and with the default selector of
 * Linux, the epoll selector, which polls them with SocketOpsPollSet.
 * Datagram channels and pipes are not supported.
 */
public abstract class SocketOpsSelectorProvider extends SelectorProviderImpl {
    private final SocketOps ops;

    protected SocketOpsSelectorProvider(SocketOps ops) {
        this.ops = ops;
    }

    @Override
    final boolean isExclusive() {
        return true;
    }

    private static void checkFamily(ProtocolFamily family) {
        if (family != StandardProtocolFamily.INET && family != StandardProtocolFamily.INET6)
            throw new UnsupportedOperationException("Protocol family not supported: " + family);
    }

    @Override
    public SocketChannel openSocketChannel() throws IOException {
        return openSocketChannel(StandardProtocolFamily.INET);
    }

    @Override
    public SocketChannel openSocketChannel(ProtocolFamily family) throws IOException {
        java.util.Objects.requireNonNull(family, "'family' is null");
        checkFamily(family);
        return new SocketChannelImpl(this, family, ops);
    }

    @Override
    public ServerSocketChannel openServerSocketChannel() throws IOException {
        return openServerSocketChannel(StandardProtocolFamily.INET);
    }

    @Override
    public ServerSocketChannel openServerSocketChannel(ProtocolFamily family) throws IOException {
        java.util.Objects.requireNonNull(family, "'family' is null");
        checkFamily(family);
        return new ServerSocketChannelImpl(this, family, ops);
    }

    @Override
    public AbstractSelector openSelector() throws IOException {
        return new PollSelectorImpl(this) {
            @Override
            int implPoll(long pollAddress, int numfds, int timeout) throws IOException {
                return ops.poll(pollAddress, numfds, timeout);
            }
        };
    }

    @Override
    public DatagramChannel openDatagramChannel() {
        throw new UnsupportedOperationException("datagram channels are not supported by this provider");
    }

    @Override
    public DatagramChannel openDatagramChannel(ProtocolFamily family) {
        throw new UnsupportedOperationException("datagram channels are not supported by this provider");
    }

    @Override
    public DatagramChannel openUninterruptibleDatagramChannel() {
        throw new UnsupportedOperationException("datagram channels are not supported by this provider");
    }

    @Override
    public Pipe openPipe() {
        throw new UnsupportedOperationException("pipes are not supported by this provider");
    }

    @Override
    public Channel inheritedChannel() {
        return null;
    }
}
