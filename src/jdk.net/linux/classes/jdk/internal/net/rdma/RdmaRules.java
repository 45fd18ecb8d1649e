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
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
import sun.nio.ch.IOUtil;
import sun.nio.ch.SocketOps;
import sun.nio.ch.SocketOpsSwitch;

/**
 * The rules file of transparent RDMA, {@code -Djdk.net.rdma.conf=FILE}: which
 * sockets that a program opens the ordinary way become RDMA sockets when they
 * are bound or connected. java.base loads this class by name
 * ({@link SocketOpsSwitch}); its initialization reads the file and registers
 * the rules.
 *
 * <p> The grammar is that of the JDK's former SDP support
 * ({@code com.sun.sdp.conf}). A line holds one rule, or nothing; {@code #}
 * starts a comment:
 * <pre>
 *   bind    ADDRESS PORTS     a socket bound to a local address and port
 *   connect ADDRESS PORTS     an unbound socket connecting to a remote one
 *
 *   ADDRESS  *  |  IP-address[/prefix-length]  |  host-name
 *   PORTS    *  |  port  |  port-port  |  port-*
 * </pre>
 * A host name stands for all its addresses, looked up when the file is
 * read. {@code *} as the address of a bind rule matches every local
 * address, the wildcard among them; a bind to the wildcard address
 * matches no other rule. The first rule that matches decides.
 *
 * <p> The file is checked when it is read: a line that is not a rule, an
 * unknown keyword, a bad address, prefix or port range, a file that cannot
 * be read, or, on a machine with RDMA, a bind rule naming an address that
 * no RDMA device has (for a subnet: holding no local address that an
 * RDMA device has), makes every bind, connect and selector open of the
 * program throw a {@code SocketException} that names the file, the line
 * and the fault.
 *
 * <p> On a machine without RDMA (no device, no librdmacm, or a JDK built
 * without RDMA sockets) a sound file fails only the sockets it asks RDMA
 * for: a bind or connect that a rule matches throws a
 * {@code SocketException} that names the file, the rule's line and why
 * RDMA is unavailable (never a silent TCP fallback), while a socket that
 * no rule matches is an ordinary TCP socket and {@code Selector.open()}
 * gives the platform's own selector. A file that names rules then prints
 * one warning on standard error, when it is read.
 *
 * <p> {@code -Djdk.net.rdma.debug} (empty for standard error, or a file
 * to append to) lists the rules read and every socket a rule switched,
 * with the rule's line.
 */
public final class RdmaRules extends SocketOpsSwitch {
    private static final JavaIOFileDescriptorAccess FDA = SharedSecrets.getJavaIOFileDescriptorAccess();

    /** The system property naming the file to list the switches in. */
    static final String DEBUG_PROPERTY = "jdk.net.rdma.debug";

    // Options a program may have set on the platform socket before the
    // switch; values other than these defaults carry over to the rsocket.
    // (Buffer sizes do not: the kernel's and rsockets' mean different things.)
    private static final Map<SocketOption<?>, Object> CARRIED = Map.of(
            StandardSocketOptions.SO_REUSEADDR, false,
            StandardSocketOptions.SO_KEEPALIVE, false,
            StandardSocketOptions.TCP_NODELAY, false,
            StandardSocketOptions.SO_LINGER, -1);

    static {
        SocketOpsSwitch.register(new RdmaRules(System.getProperty(CONF_PROPERTY),
                                               System.getProperty(DEBUG_PROPERTY)));
    }

    /** A rule of the file; an address of null matches every address. */
    record Rule(int line, String text, boolean bind, byte[] address, int prefix,
                int lowPort, int highPort) {
        boolean matches(InetAddress addr, int port) {
            if (port < lowPort || port > highPort)
                return false;
            if (address == null)
                return true;
            byte[] a = addr.getAddress();
            if (a.length != address.length)
                return false;
            int whole = prefix / 8;
            for (int i = 0; i < whole; i++) {
                if (a[i] != address[i])
                    return false;
            }
            int rest = prefix % 8;
            if (rest == 0)
                return true;
            int mask = (0xff << (8 - rest)) & 0xff;
            return (a[whole] & mask) == (address[whole] & mask);
        }
    }

    private final String file;
    private final List<Rule> rules;
    private final String error;         // why the file cannot be used, or null
    private final String unavailable;   // why RDMA sockets cannot be opened, or null
    private final PrintStream log;      // the debug listing, or null

    RdmaRules(String file, String debug) {
        this.file = file;
        this.unavailable = RdmaNet.UNAVAILABLE_REASON;
        this.log = openLog(debug);
        List<Rule> read = List.of();
        String failure = null;
        try {
            List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
            // without RDMA no device can check a bind rule's address
            read = parse(file, lines, unavailable == null);
        } catch (IOException e) {
            failure = "-D" + CONF_PROPERTY + "=" + file + ": cannot read the rules file: " + e;
        } catch (IllegalArgumentException e) {
            failure = e.getMessage();
        }
        this.rules = List.copyOf(read);
        this.error = failure;
        if (failure != null) {
            log("rdma: " + failure);
        } else {
            log("rdma: " + rules.size() + " rules from " + file);
            for (Rule r : rules)
                log("rdma:   line " + r.line() + ": " + r.text());
            if (unavailable != null && !rules.isEmpty()) {
                // once per JVM: this class registers one instance, when
                // the first socket or selector asks for the switch
                String warning = "WARNING: -D" + CONF_PROPERTY + "=" + file + " names "
                        + rules.size() + (rules.size() == 1 ? " rule" : " rules") + ", but "
                        + unavailable + ". A bind or connect that a rule matches will throw"
                        + " SocketException; sockets that no rule matches are TCP sockets.";
                System.err.println(warning);
                if (log != System.err)
                    log("rdma: " + warning);
            }
        }
    }

    private static PrintStream openLog(String debug) {
        if (debug == null)
            return null;
        if (debug.isEmpty() || debug.equals("stderr"))
            return System.err;
        try {
            return new PrintStream(new FileOutputStream(debug, true), true, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("rdma: -D" + DEBUG_PROPERTY + "=" + debug + ": cannot open: " + e
                    + "; listing on standard error");
            return System.err;
        }
    }

    private void log(String line) {
        PrintStream out = log;
        if (out != null)
            out.println(line);
    }

    // -- the grammar

    private static IllegalArgumentException fault(String file, int line, String what) {
        return new IllegalArgumentException("-D" + CONF_PROPERTY + "=" + file + ", line " + line
                + ": " + what);
    }

    // checkDevices: whether each bind rule's address must be an RDMA device's
    static List<Rule> parse(String file, List<String> lines, boolean checkDevices) {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int line = i + 1;
            String text = lines.get(i);
            int hash = text.indexOf('#');
            if (hash >= 0)
                text = text.substring(0, hash);
            text = text.strip();
            if (text.isEmpty())
                continue;
            String[] f = text.split("\\s+");
            text = String.join(" ", f);
            boolean bind;
            if (f[0].equals("bind")) {
                bind = true;
            } else if (f[0].equals("connect")) {
                bind = false;
            } else {
                throw fault(file, line, "unknown keyword '" + f[0] + "' (a rule starts with bind or connect)");
            }
            if (f.length != 3)
                throw fault(file, line, "'" + text + "' is not a rule: " + f[0] + " ADDRESS PORTS");
            int[] ports = parsePorts(f[2]);
            if (ports == null)
                throw fault(file, line, "bad port range '" + f[2]
                        + "' (*, PORT, PORT-PORT or PORT-*, ports 0 to 65535, low to high)");
            if (f[1].equals("*")) {
                rules.add(new Rule(line, text, bind, null, 0, ports[0], ports[1]));
                continue;
            }
            String host = f[1];
            int prefix = -1;
            int slash = host.indexOf('/');
            if (slash >= 0) {
                prefix = parseNumber(host.substring(slash + 1), 128);
                host = host.substring(0, slash);
                if (prefix < 0)
                    throw fault(file, line, "bad prefix length in '" + f[1] + "'");
            }
            InetAddress[] addrs;
            try {
                addrs = InetAddress.getAllByName(host);
            } catch (UnknownHostException e) {
                throw fault(file, line, "unknown host or malformed address '" + host + "'");
            }
            for (InetAddress a : addrs) {
                int bits = a.getAddress().length * 8;
                if (prefix > bits)
                    throw fault(file, line, "prefix length " + prefix + " is longer than the "
                            + bits + " bits of " + a.getHostAddress());
                Rule rule = new Rule(line, text, bind, a.getAddress(), prefix < 0 ? bits : prefix,
                        ports[0], ports[1]);
                if (bind && checkDevices && !a.isAnyLocalAddress())
                    checkDevice(file, rule, a, f[1]);
                rules.add(rule);
            }
        }
        return rules;
    }

    // a decimal number from 0 to max, or -1
    private static int parseNumber(String s, int max) {
        if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(c -> c >= '0' && c <= '9'))
            return -1;
        int n = Integer.parseInt(s);
        return (n <= max) ? n : -1;
    }

    // {low, high}, or null
    private static int[] parsePorts(String s) {
        if (s.equals("*"))
            return new int[] { 0, 65535 };
        int dash = s.indexOf('-');
        String low = (dash < 0) ? s : s.substring(0, dash);
        String high = (dash < 0) ? s : s.substring(dash + 1);
        int l = parseNumber(low, 65535);
        int h = high.equals("*") ? 65535 : parseNumber(high, 65535);
        return (l < 0 || h < l) ? null : new int[] { l, h };
    }

    // A bind rule's address must be one an RDMA device can bind; a subnet
    // must hold a local address that one can bind.
    private static void checkDevice(String file, Rule rule, InetAddress a, String written) {
        int line = rule.line();
        if (rule.prefix() == a.getAddress().length * 8) {
            String failure = bindFailure(file, line, a);
            if (failure != null)
                throw fault(file, line, a.getHostAddress() + " is not an address of an RDMA device"
                        + " (binding an RDMA socket to it failed: " + failure + ")");
            return;
        }
        List<String> tried = new ArrayList<>();
        try {
            for (NetworkInterface ni : NetworkInterface.networkInterfaces().toList()) {
                for (InetAddress local : ni.inetAddresses().toList()) {
                    if (!rule.matches(local, rule.lowPort()))
                        continue;
                    if (bindFailure(file, line, local) == null)
                        return;
                    tried.add(local.getHostAddress() + " (" + ni.getName() + ")");
                }
            }
        } catch (SocketException e) {
            throw fault(file, line, "cannot list the local addresses to check " + written + ": "
                    + e.getMessage());
        }
        throw fault(file, line, "no local address in " + written + " is an RDMA device's"
                + (tried.isEmpty() ? " (no local address is in it)"
                                   : " (RDMA sockets could not bind " + String.join(", ", tried) + ")"));
    }

    // Why an RDMA socket cannot bind address a, or null if it can
    private static String bindFailure(String file, int line, InetAddress a) {
        int fd;
        try {
            fd = RdmaNet.socket0(a instanceof Inet6Address);
        } catch (IOException e) {
            throw fault(file, line, "cannot open an RDMA socket to check " + a.getHostAddress() + ": "
                    + e.getMessage());
        }
        try {
            RdmaNet.bind0(fd, a.getAddress(), RdmaNet.scopeId(a), 0);
            return null;
        } catch (IOException e) {
            return e.getMessage();
        } finally {
            RdmaNet.close0(fd);
        }
    }

    // -- the switch

    @Override
    public void check() throws SocketException {
        if (error != null)
            throw new SocketException(error);
    }

    // The rule that matches, or null; throws if RDMA cannot serve it.
    private Rule match(boolean bind, InetAddress addr, int port) throws SocketException {
        check();
        for (Rule r : rules) {
            if (r.bind() == bind && r.matches(addr, port)) {
                if (unavailable != null) {
                    String m = name(r) + " asks for an RDMA socket for the "
                            + (bind ? "bind to " : "connect to ") + addr.getHostAddress()
                            + " port " + port + ": " + unavailable;
                    log("rdma: " + m);
                    throw new SocketException(m);
                }
                return r;
            }
        }
        return null;
    }

    private SocketOps switchTo(FileDescriptor fd, boolean bind, InetAddress addr, int port)
        throws IOException
    {
        Rule rule = match(bind, addr, port);
        if (rule == null)
            return null;
        String what = (bind ? "bind to " : "connect to ") + addr.getHostAddress() + " port " + port
                + " (line " + rule.line() + ": " + rule.text() + ")";
        SocketOps platform = SocketOps.platform();
        Map<SocketOption<?>, Object> options = new LinkedHashMap<>();
        for (Map.Entry<SocketOption<?>, Object> e : CARRIED.entrySet()) {
            Object value = platform.getSocketOption(fd, e.getKey());
            if (!value.equals(e.getValue()))
                options.put(e.getKey(), value);
        }
        RdmaSocketOps ops = RdmaProvider.ops();
        replace(ops, fd, addr instanceof Inet6Address, options);
        log("rdma: " + what + ": RDMA socket " + IOUtil.fdVal(fd)
                + (options.isEmpty() ? "" : ", carrying " + options));
        return ops;
    }

    @Override
    public SocketOps beforeBind(FileDescriptor fd, InetAddress addr, int port) throws IOException {
        return switchTo(fd, true, addr, port);
    }

    @Override
    public SocketOps beforeConnect(FileDescriptor fd, InetAddress addr, int port) throws IOException {
        return switchTo(fd, false, addr, port);
    }

    @Override
    public String rule(boolean bind, InetAddress addr, int port) throws SocketException {
        Rule r = match(bind, addr, port);
        return (r == null) ? null : name(r);
    }

    // a rule as messages name it: the file, the line and the rule
    private String name(Rule r) {
        return "-D" + CONF_PROPERTY + "=" + file + ", line " + r.line() + " (" + r.text() + ")";
    }

    /**
     * Replaces the platform socket that {@code fd} holds with a new
     * rsocket, for a rule that matched: the rsocket gets the
     * options, the platform socket is closed, and {@code fd} takes the
     * rsocket's number. The caller holds the channel's state lock, so
     * nothing else uses {@code fd} meanwhile.
     *
     * @param ipv6 whether the rsocket is an IPv6 one; an IPv4 one may
     *        serve an INET6 channel, as a dual-stack kernel socket would
     */
    private static void replace(RdmaSocketOps ops, FileDescriptor fd, boolean ipv6,
                                Map<SocketOption<?>, Object> options)
        throws IOException
    {
        RdmaSocket s = ops.open(ipv6);
        try {
            for (Map.Entry<SocketOption<?>, Object> e : options.entrySet())
                RdmaOptions.set(s, e.getKey(), e.getValue());
        } catch (IOException | RuntimeException e) {
            s.closeOnce();
            throw e;
        }
        try {
            SocketOps.platform().close(fd);
        } catch (IOException ignore) {
            // close(2) releases the descriptor even when it reports an error
        }
        FDA.set(fd, s.fd);
        s.track(fd);
    }
}
