/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
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
 * A SelectorProvider whose stream-socket channels and poll selector make
 * their OS calls through a given {@link SocketOps}. Its channels and
 * selectors cannot be mixed with those of another provider: registering
 * one with the other's selector throws IllegalSelectorException. Datagram
 * channels and pipes are not supported.
 */
public class SocketOpsSelectorProvider extends SelectorProviderImpl {
    private final SocketOps ops;

    public SocketOpsSelectorProvider(SocketOps ops) {
        this.ops = ops;
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
        return new PollSelectorImpl(this, ops);
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
