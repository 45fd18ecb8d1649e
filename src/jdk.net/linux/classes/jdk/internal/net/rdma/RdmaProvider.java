/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

package jdk.internal.net.rdma;

import java.nio.channels.spi.SelectorProvider;

import sun.nio.ch.SocketOpsSelectorProvider;

/**
 * The SelectorProvider of RDMA channels and selectors: upstream's channel
 * and poll selector classes with the OS calls of {@link RdmaSocketOps}.
 */
public final class RdmaProvider {
    private RdmaProvider() { }

    private static class Holder {
        static final SelectorProvider PROVIDER =
                new SocketOpsSelectorProvider(new RdmaSocketOps());
    }

    /**
     * Returns the provider.
     *
     * @return the provider of RDMA channels and selectors
     *
     * @throws UnsupportedOperationException if this JDK or this machine
     *         cannot open RDMA sockets; the message says why
     */
    public static SelectorProvider provider() {
        String reason = RdmaNet.UNAVAILABLE_REASON;
        if (reason != null)
            throw new UnsupportedOperationException(reason);
        return Holder.PROVIDER;
    }
}
