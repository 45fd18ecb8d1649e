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
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.SocketException;
import java.nio.channels.Channel;
import java.nio.channels.SelectionKey;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.util.function.Consumer;

/**
 * Rules that switch a platform socket to another socket library at bind or
 * connect, so that a program that opens its sockets the ordinary way
 * ({@code SocketChannel.open()}, {@code ServerSocketChannel.open()},
 * {@code new Socket()}, {@code new ServerSocket()}) uses, say, RDMA
 * without a change to its code.
 *
 * <p> There is a switch when the system property {@value #CONF_PROPERTY}
 * names a rules file. The rules are module jdk.net's (its RDMA sockets, on
 * Linux): loading the class {@value #RULES_CLASS} registers them. The
 * property is read once, when the first socket is created, bound or
 * connected or the first selector is opened.
 *
 * <p> The platform's {@link SocketOps} asks the switch before every bind,
 * and before the connect of an unbound socket. A switch that matches
 * replaces the socket that the channel's file descriptor holds, and
 * returns the ops the channel is to use from then on. The platform's
 * default selector polls a switched channel as it polls a channel of
 * those ops opened explicitly (SocketOpsPollSet on Linux), so both kinds
 * of socket mix in one selector, and a selector that holds no such key
 * waits as the platform's own does, at its cost.
 * The platform's SocketImpl, which has no ops to swap,
 * asks {@link #switches} first and continues as a switched channel's
 * adaptor ({@code java.net.SwitchingSocketImpl}).
 *
 * <p> A channel may be registered with selectors before it is bound or
 * connected (Netty registers every channel first). The number of its
 * descriptor changes with the switch, so the channel then resets its keys
 * ({@link #resetKeys}): a selector drops the old number, which was closed,
 * and polls the new one the next time it selects.
 */
public abstract class SocketOpsSwitch {

    /** The system property that names the rules file. */
    public static final String CONF_PROPERTY = "jdk.net.rdma.conf";

    /** The class whose initialization registers the rules. */
    static final String RULES_CLASS = "jdk.internal.net.rdma.RdmaRules";

    private static volatile SocketOpsSwitch registered;

    private static class Holder {
        static final SocketOpsSwitch SWITCH = load();
    }

    protected SocketOpsSwitch() { }

    private static SocketOpsSwitch load() {
        String file = System.getProperty(CONF_PROPERTY);
        if (file == null)
            return null;
        try {
            Class.forName(RULES_CLASS, true, null);
        } catch (ClassNotFoundException e) {
            return new Unusable("-D" + CONF_PROPERTY + "=" + file + " is set, but this JDK has no"
                    + " RDMA sockets (they need module jdk.net, on Linux; this is "
                    + System.getProperty("os.name") + ")");
        }
        SocketOpsSwitch sw = registered;
        if (sw == null)
            throw new InternalError(RULES_CLASS + " did not register its rules");
        return sw;
    }

    /**
     * Returns the switch, or null if {@value #CONF_PROPERTY} is not set.
     */
    public static SocketOpsSwitch get() {
        return Holder.SWITCH;
    }

    /**
     * Registers the switch; called once, by the initialization of
     * {@value #RULES_CLASS}.
     */
    public static void register(SocketOpsSwitch sw) {
        registered = sw;
    }

    /**
     * Makes a channel that continues a switched {@code java.net.Socket} or
     * {@code ServerSocket} take interrupts as the socket did: on a platform
     * thread an interrupt neither ends a blocking operation nor closes it;
     * on a virtual thread it does both.
     */
    public static void setUninterruptible(Channel ch) {
        if (ch instanceof SocketChannelImpl sc) {
            sc.setUninterruptible();
        } else if (ch instanceof ServerSocketChannelImpl ssc) {
            ssc.setUninterruptible();
        }
    }

    /**
     * Called when the platform's default provider opens a selector: throws
     * as {@link #check} if there is a switch.
     */
    public static void checkSelectorOpen() throws SocketException {
        SocketOpsSwitch sw = get();
        if (sw != null)
            sw.check();
    }

    /**
     * Throws the reason the rules cannot be used at all (a malformed or
     * unreadable file), if there is one. Every bind, connect and selector
     * open throws it then: a program that asked for RDMA never runs on TCP
     * without knowing. Sound rules on a machine that cannot serve them (no
     * RDMA device) do not make this throw: {@link #beforeBind},
     * {@link #beforeConnect} and {@link #switches} throw for the sockets
     * that a rule matches, and the rest stay platform sockets.
     */
    public abstract void check() throws SocketException;

    /**
     * Called before a platform socket is bound.
     *
     * @return null to keep the socket, or the ops of the socket that now
     *         replaces the one that {@code fd} held
     * @throws SocketException as {@link #check}, or if a rule matches and
     *         the socket it asks for cannot be opened here; {@code fd} is
     *         unchanged then
     */
    public abstract SocketOps beforeBind(FileDescriptor fd, InetAddress addr, int port)
        throws IOException;

    /**
     * Called before an unbound platform socket connects; as
     * {@link #beforeBind}.
     */
    public abstract SocketOps beforeConnect(FileDescriptor fd, InetAddress addr, int port)
        throws IOException;

    /**
     * Returns the rule that switches a socket bound ({@code bind} true) or
     * connected to the given address and port, as the file and its line
     * name it, or null if no rule does.
     *
     * @throws SocketException as {@link #beforeBind}
     */
    public abstract String rule(boolean bind, InetAddress addr, int port)
        throws SocketException;

    /**
     * Tells whether a rule switches a socket bound ({@code bind} true) or
     * connected to the given address and port; for the platform's
     * SocketImpl, which must choose before it binds or connects.
     *
     * @throws SocketException as {@link #beforeBind}
     */
    public final boolean switches(boolean bind, InetAddress addr, int port)
        throws SocketException
    {
        return rule(bind, addr, port) != null;
    }

    /**
     * Called before an asynchronous socket channel binds, or connects
     * while unbound. Their groups wait with the platform's own mechanism
     * (epoll on Linux), which cannot wait on a switched socket, so they
     * are never switched: a rule that matches fails the call, so that a
     * program that asked for RDMA never runs on TCP without knowing.
     *
     * @throws SocketException as {@link #beforeBind}, or naming the rule
     *         that matches
     */
    static void checkAsynchronous(boolean bind, InetAddress addr, int port)
        throws SocketException
    {
        SocketOpsSwitch sw = get();
        if (sw == null)
            return;
        String rule = sw.rule(bind, addr, port);
        if (rule != null) {
            throw new SocketException(rule + " matches the " + (bind ? "bind to " : "connect to ")
                    + addr.getHostAddress() + " port " + port + " of an asynchronous socket channel,"
                    + " which cannot be an RDMA channel: use a SocketChannel or ServerSocketChannel,"
                    + " or a rule that does not match");
        }
    }

    // AbstractSelectableChannel.forEach, as DatagramChannelImpl reaches it
    private static class ForEachKey {
        static final Method METHOD;
        static {
            try {
                Method m = AbstractSelectableChannel.class.getDeclaredMethod("forEach", Consumer.class);
                m.setAccessible(true);
                METHOD = m;
            } catch (ReflectiveOperationException e) {
                throw new InternalError(e);
            }
        }
    }

    /**
     * Resets every selection key of a channel whose socket was switched,
     * so that its selectors poll the descriptor's new number.
     */
    static void resetKeys(AbstractSelectableChannel ch) {
        Consumer<SelectionKey> reset = k -> ((SelectionKeyImpl) k).reset();
        try {
            ForEachKey.METHOD.invoke(ch, reset);
        } catch (ReflectiveOperationException e) {
            throw new InternalError(e);
        }
    }

    /** The switch of a JDK that has no rules to load: it always fails. */
    private static final class Unusable extends SocketOpsSwitch {
        private final String reason;

        Unusable(String reason) {
            this.reason = reason;
        }

        @Override
        public void check() throws SocketException {
            throw new SocketException(reason);
        }

        @Override
        public SocketOps beforeBind(FileDescriptor fd, InetAddress addr, int port)
            throws IOException
        {
            throw new SocketException(reason);
        }

        @Override
        public SocketOps beforeConnect(FileDescriptor fd, InetAddress addr, int port)
            throws IOException
        {
            throw new SocketException(reason);
        }

        @Override
        public String rule(boolean bind, InetAddress addr, int port) throws SocketException {
            throw new SocketException(reason);
        }
    }
}
