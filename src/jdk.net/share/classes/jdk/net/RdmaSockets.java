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

package jdk.net;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.ProtocolFamily;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Objects;

/**
 * Factory methods for RDMA-based TCP sockets, socket channels and selectors.
 *
 * <p> RDMA sockets carry a TCP-like byte stream over Remote Direct Memory
 * Access (InfiniBand, RoCE or iWARP), through the rsockets API of the
 * {@code librdmacm} library of rdma-core, on Linux. They have the API of
 * ordinary sockets: a {@link Socket} and {@link ServerSocket} with streams
 * and timeouts, and {@link SocketChannel} and {@link ServerSocketChannel}
 * in blocking and non-blocking mode, with scatter/gather I/O, half-close,
 * asynchronous close and interruption as the channel specifications
 * describe.
 * Both ends of a connection must use RDMA sockets (or rsockets in
 * native code); an RDMA socket cannot talk to an ordinary TCP socket.
 *
 * <h2>Availability</h2>
 * The library {@code librdmacm.so.1} is loaded when an RDMA socket is first
 * opened, so the JDK runs on machines without it. Every method of this class
 * throws {@link UnsupportedOperationException} when RDMA sockets cannot be
 * used, with a message saying why: this JDK was built without them
 * ({@code configure --with-rdma=no}), {@code librdmacm.so.1} is not
 * installed, or the machine has no RDMA device (or the {@code rdma_ucm}
 * kernel module is not loaded).
 *
 * <p> A program can also get RDMA sockets without this class: the system
 * property {@code jdk.net.rdma.conf} names a rules file whose {@code bind}
 * and {@code connect} rules (address or subnet, port range) turn sockets,
 * server sockets and channels that the program opens the ordinary way into
 * RDMA sockets when they are bound or connected. A malformed file makes
 * every bind, connect and {@code Selector.open()} throw
 * {@code SocketException}. Where RDMA sockets cannot be used, only a bind
 * or connect that a rule matches throws {@code SocketException}, naming
 * the file, the rule's line and why; it never goes on over TCP, and
 * sockets that no rule matches are ordinary TCP sockets.
 *
 * <h2>What is not supported</h2>
 * <ul>
 * <li> Datagrams, pipes and Unix domain sockets: the RDMA channels' provider
 *      throws {@code UnsupportedOperationException} for them.
 * <li> TCP channels in an RDMA selector: a selector from
 *      {@link #openSelector()} accepts only RDMA channels; registering any
 *      other channel with it throws
 *      {@link java.nio.channels.IllegalSelectorException}.
 * <li> Addresses of the other family: a socket opened for
 *      {@link StandardProtocolFamily#INET INET} binds and connects to IPv4
 *      addresses only, one opened for {@link StandardProtocolFamily#INET6
 *      INET6} to IPv6 addresses only; others throw
 *      {@link java.nio.channels.UnsupportedAddressTypeException}. The
 *      wildcard address is the exception: a bind to the wildcard of either
 *      family, as {@code bind(null)} and {@code new InetSocketAddress(port)}
 *      give, binds to the wildcard of the socket's own family, which means
 *      every address of every RDMA device.
 * <li> Urgent data: {@code sendUrgentData} throws {@code SocketException}.
 * <li> {@code IP_TOS} and {@code SO_OOBINLINE}: on a {@link Socket},
 *      {@code setTrafficClass} and {@code setOOBInline} throw
 *      {@code UnsupportedOperationException}.
 * </ul>
 *
 * <p> {@code available()} on the input stream of a {@link Socket} from
 * this class counts the bytes that have arrived and have not been read
 * yet, up to 65536: the RDMA library has no {@code FIONREAD}, so the count
 * comes from a look at the received data that neither waits nor consumes
 * it. It returns 0 when nothing has arrived, at end-of-stream, and after
 * {@code shutdownInput}.
 *
 * <h2>Socket options</h2>
 * Sockets and socket channels support {@code SO_SNDBUF}, {@code SO_RCVBUF},
 * {@code SO_KEEPALIVE}, {@code SO_REUSEADDR}, {@code SO_LINGER},
 * {@code TCP_NODELAY} and the options of {@link RdmaSocketOptions}; server
 * sockets support {@code SO_RCVBUF}, {@code SO_REUSEADDR} and the options of
 * {@link RdmaSocketOptions}. Any other option throws
 * {@code UnsupportedOperationException}. The buffer sizes take effect when
 * set before the socket connects. The RDMA library registers (pins) buffers
 * of twice the requested size, as Linux reserves for TCP, and reports that
 * doubled size; a request below 2048 bytes is raised to 2048, one above
 * 8 MiB is lowered to 8 MiB, so a larger request never gives a smaller
 * buffer. {@code SO_LINGER} is kept and reported,
 * but rsockets has no linger time and no abortive close: whatever its value,
 * close never discards unsent data and never resets the connection.
 * {@code TCP_NODELAY} is accepted; rsockets sends every write at once.
 *
 * <h2>Close and shutdown</h2>
 * The RDMA library's shutdown and close of a connected socket wait until
 * every byte sent has been delivered, and against a peer that has stopped
 * reading they would wait until it reads again. So {@code close},
 * {@code shutdownInput} and {@code shutdownOutput} never wait for the
 * peer's program. A close waits only for the transport's acknowledgement
 * of what was sent (microseconds on a live link, the transport's retries
 * against a machine that has gone), and only when that is all it waits
 * for. Otherwise the socket is handed to one daemon thread,
 * {@code RDMA-Reaper}, which finishes the shutdown or close once the peer
 * has taken what was sent, has disconnected, or the connection has
 * failed. Until then the socket keeps its memory; no data is discarded.
 * A shutdown returns at once, and the peer sees end-of-stream once the
 * reaper has sent it, after every byte written before.
 *
 * <h2>Blocking and threads</h2>
 * RDMA sockets are non-blocking underneath, and no thread waits inside the
 * library. A blocking read, write or accept, in a platform or a virtual
 * thread, checks its socket for a short time that adapts to how soon the
 * socket has become ready before (up to 200 microseconds), then
 * parks until a poller thread, which waits in the library's {@code rpoll}
 * for every socket a thread waits for, finds it ready. A blocked thread
 * therefore uses no CPU, a virtual thread does not pin its carrier, and
 * close, shutdown, interrupt and timeouts wake it at once. A blocked
 * accept or connect is re-checked every 10 ms, since the library may not
 * signal a waiting {@code rpoll} when a connection arrives or a handshake
 * ends. A
 * {@link java.net.Socket} from {@link #openSocket} is an adaptor of a
 * socket channel: interrupting a thread blocked on it closes it, even a
 * platform thread. A selector's {@code select} waits inside {@code rpoll}.
 *
 * <p> Connection establishment is non-blocking as for TCP: on a channel
 * in non-blocking mode {@code connect} returns {@code false} and
 * {@code finishConnect}, or {@code OP_CONNECT} on a selector, completes
 * it; a blocking connect waits as a read does, so close, interrupt and the
 * timeout of {@link Socket#connect(java.net.SocketAddress, int)} end it.
 * Connects run concurrently. An address that resolves but never answers
 * fails with {@code ConnectException} after the RDMA connection manager's
 * own retries (about two minutes), unless a timeout ends it first.
 *
 * <p> Each connection pins memory for its buffers (about 260 KiB with the
 * defaults), which counts against {@code RLIMIT_MEMLOCK} unless the process
 * has {@code CAP_IPC_LOCK}, and rsockets supports descriptors up to 65535.
 *
 * <p> {@code librdmacm} releases before 44.7 of the 44 series and before
 * 53.0 (Debian 12 ships 44.0) corrupt memory when a process has more
 * sockets than their service threads were readied for. On those releases
 * the RDMA sockets ready them when first used, for 4 &times; {@code
 * jdk.net.rdma.serviceRounds} (by default 128, so 512) accepted, connected
 * and connecting sockets, and 512 listening ones, and keep a count. A
 * listen backlog is a hint, as the kernel caps it at {@code somaxconn}: a
 * server socket holds room for the smaller of its backlog and half the
 * room left when it starts listening (so that a server with a large
 * backlog leaves room for the connects of its process), which the
 * connections it accepts use first, and a bind never fails because of its
 * backlog. A connect that
 * finds no room left throws {@code SocketException} with a message that
 * names what it asked for, what is in use and the value of {@code
 * jdk.net.rdma.serviceRounds} that would fit; a connection that arrives
 * when neither its server socket's room nor the room left has a place for
 * it is closed, and {@code accept} throws {@code SocketException} saying
 * so.
 *
 * <h2>Selectors</h2>
 * An RDMA channel can be registered with a selector from
 * {@link #openSelector()} and, on Linux, with a selector of the platform's
 * default provider ({@link Selector#open()}, unless the system property
 * {@code java.nio.channels.spi.SelectorProvider} names another), so a
 * framework's event loop that opens its selectors the ordinary way can
 * serve RDMA channels that a program hands it, beside TCP channels. The
 * kernel's {@code epoll} cannot see an RDMA socket; a default selector
 * waits in {@code epoll} as on any JDK, except while it has an RDMA channel
 * registered with a non-empty interest set: then it waits in {@code rpoll},
 * on its RDMA channels and on the {@code epoll} instance that holds its
 * other channels. So a selector that never holds an RDMA channel costs what
 * it does on any JDK. One that holds RDMA channels adds to every selection
 * the cost of {@code rpoll} (its short check for ready RDMA sockets before
 * it sleeps) and, while the process has an RDMA server socket or a connect
 * under way, a wake-up every 10 ms to look for new connections. Closing a
 * connected RDMA channel waits for the transport's acknowledgement of what
 * was sent, as above, in the thread that closes it, which in a framework
 * is often the thread that selects for its other channels too. The channels that a
 * rules file ({@code jdk.net.rdma.conf}) turns into RDMA channels are
 * RDMA channels here too: a selector waits in {@code rpoll} while it holds
 * one, and in {@code epoll} otherwise, whatever the file says.
 *
 * <h2>System properties</h2>
 * Read once, when RDMA sockets are first used; a value that is not a
 * number in the range given is ignored.
 * <ul>
 * <li>{@code jdk.net.rdma.conf}: the rules file of transparent RDMA
 *     (above). Not set by default.
 * <li>{@code jdk.net.rdma.debug}: lists the rules read and every socket a
 *     rule switched, on standard error (empty value) or appended to the
 *     file named. Not set by default.
 * <li>{@code jdk.net.rdma.serviceRounds} (1 to 100000; default 128): on the
 *     librdmacm releases above, readies the service threads for 4 &times;
 *     this many sockets. Each round costs a few milliseconds once, at
 *     first use.
 * <li>{@code jdk.net.rdma.spinMicros} (0 to 65535; default 200): the
 *     longest a blocked operation checks its socket before it parks. A
 *     longer spin answers a slow peer sooner, and costs a CPU for that
 *     long per blocked thread; 0 never spins.
 * <li>{@code jdk.net.rdma.waitMode} ({@code poller}, or not set): where a
 *     platform thread blocked without a timeout waits. By default up to
 *     one such thread per CPU (2 to 4) waits in an {@code rpoll} of its
 *     own, which saves the hop through the poller thread on its wake-up;
 *     {@code poller} sends every wait through the poller thread.
 * <li>{@code jdk.net.rdma.directIdleMillis} (1 or more; default 1000): how
 *     long a thread must have waited in its own {@code rpoll} before a
 *     thread that finds every such place taken moves it to the poller
 *     thread. Shorter moves idle connections' threads sooner, and costs
 *     busy ones the hop through the poller more often.
 * </ul>
 *
 * @since rdio 1
 */
public final class RdmaSockets {
    private RdmaSockets() { }

    /*
     * The RDMA channels' provider is platform code: on Linux
     * jdk.internal.net.rdma.RdmaProvider, which this class finds by name so
     * that it compiles on every platform.  Elsewhere it is absent and every
     * factory throws UnsupportedOperationException.
     */
    private static final class Platform {
        static final MethodHandle PROVIDER = find();

        private static MethodHandle find() {
            Class<?> c;
            try {
                c = Class.forName("jdk.internal.net.rdma.RdmaProvider");
            } catch (ClassNotFoundException e) {
                return null;
            }
            try {
                return MethodHandles.lookup().findStatic(c, "provider",
                        MethodType.methodType(SelectorProvider.class));
            } catch (ReflectiveOperationException e) {
                throw new InternalError(e);
            }
        }
    }

    private static SelectorProvider provider() {
        MethodHandle mh = Platform.PROVIDER;
        if (mh == null) {
            throw new UnsupportedOperationException("RDMA sockets are not supported on "
                    + System.getProperty("os.name"));
        }
        try {
            return (SelectorProvider) mh.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new InternalError(t);
        }
    }

    private static void checkFamily(ProtocolFamily family) {
        Objects.requireNonNull(family, "family");
        if (family != StandardProtocolFamily.INET && family != StandardProtocolFamily.INET6)
            throw new UnsupportedOperationException("Protocol family not supported by RDMA sockets: " + family);
    }

    /**
     * Opens an unconnected RDMA socket.
     *
     * @param family the protocol family, {@link StandardProtocolFamily#INET}
     *        or {@link StandardProtocolFamily#INET6}
     * @return a new unconnected socket, in fact the adaptor of an RDMA
     *         socket channel
     * @throws NullPointerException if family is null
     * @throws UnsupportedOperationException if family is neither INET nor
     *         INET6, or RDMA sockets are not available (the message says why)
     * @throws IOException if an I/O error occurs, such as the RDMA library
     *         running out of resources
     */
    public static Socket openSocket(ProtocolFamily family) throws IOException {
        return openSocketChannel(family).socket();
    }

    /**
     * Opens an unbound RDMA server socket.
     *
     * @param family the protocol family, {@link StandardProtocolFamily#INET}
     *        or {@link StandardProtocolFamily#INET6}
     * @return a new unbound server socket, the adaptor of an RDMA server
     *         socket channel
     * @throws NullPointerException if family is null
     * @throws UnsupportedOperationException if family is neither INET nor
     *         INET6, or RDMA sockets are not available (the message says why)
     * @throws IOException if an I/O error occurs
     */
    public static ServerSocket openServerSocket(ProtocolFamily family) throws IOException {
        return openServerSocketChannel(family).socket();
    }

    /**
     * Opens an RDMA socket channel, in blocking mode and unconnected.
     *
     * @param family the protocol family, {@link StandardProtocolFamily#INET}
     *        or {@link StandardProtocolFamily#INET6}
     * @return a new socket channel
     * @throws NullPointerException if family is null
     * @throws UnsupportedOperationException if family is neither INET nor
     *         INET6, or RDMA sockets are not available (the message says why)
     * @throws IOException if an I/O error occurs
     */
    public static SocketChannel openSocketChannel(ProtocolFamily family) throws IOException {
        checkFamily(family);
        return provider().openSocketChannel(family);
    }

    /**
     * Opens an RDMA server socket channel, in blocking mode and unbound.
     *
     * @param family the protocol family, {@link StandardProtocolFamily#INET}
     *        or {@link StandardProtocolFamily#INET6}
     * @return a new server socket channel
     * @throws NullPointerException if family is null
     * @throws UnsupportedOperationException if family is neither INET nor
     *         INET6, or RDMA sockets are not available (the message says why)
     * @throws IOException if an I/O error occurs
     */
    public static ServerSocketChannel openServerSocketChannel(ProtocolFamily family) throws IOException {
        checkFamily(family);
        return provider().openServerSocketChannel(family);
    }

    /**
     * Opens a selector for RDMA channels. Only channels opened by this class
     * or the {@code openRdma} methods of {@link Sockets} can be registered
     * with it; others throw {@link java.nio.channels.IllegalSelectorException}.
     * Its {@code wakeup} method works as specified by {@link Selector}.
     * RDMA channels can also be registered with a selector from
     * {@link Selector#open()}, beside other channels (see "Selectors" above).
     *
     * @return a new selector
     * @throws UnsupportedOperationException if RDMA sockets are not
     *         available (the message says why)
     * @throws IOException if an I/O error occurs
     */
    public static Selector openSelector() throws IOException {
        return provider().openSelector();
    }
}
