/*
 * Copyright (c) 2026, the rdio JDK authors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
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

/*
 * @test
 * @summary RDMA sockets over IPv6: the test puts a unique local IPv6
 *          address on the RDMA device's interface, waits until the device
 *          lists it among its GIDs, and then an INET6 server bound to it,
 *          and one bound to ::, each echo 1 MiB to an INET6 client, byte
 *          for byte, with the addresses reported in IPv6 form.  So does a
 *          server bound to the interface's link-local address, which
 *          rdma_cm accepts only with its scope (the interface), and which
 *          it reports with that scope.  Runs in the Soft-RoCE guest
 *          (test/infra/rdma-guest/rdma-guest.sh).
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=300 RdmaIPv6
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import jdk.net.RdmaSockets;
import jdk.test.lib.Utils;

import static java.net.StandardProtocolFamily.INET6;
import static jdk.test.lib.Asserts.*;

public class RdmaIPv6 {
    // a unique local address (RFC 4193), on the guest's own link only
    static final String ADDR6 = "fd77::1";
    // the same, as the GID tables in sysfs print it
    static final String GID6 = "fd77:0000:0000:0000:0000:0000:0000:0001";

    public static void main(String[] args) throws Exception {
        NetworkInterface nif = NetworkInterface.getByInetAddress(RdmaTestLib.SERVER);
        assertNotNull(nif, "the interface with " + RdmaTestLib.SERVER
                + " (none: run in the RDMA test guest, test/infra/rdma-guest/rdma-guest.sh)");
        InetAddress addr = InetAddress.getByName(ADDR6);
        boolean added = false;
        if (NetworkInterface.getByInetAddress(addr) == null) {
            RdmaTestLib.ip("-6", "addr", "add", ADDR6 + "/64", "dev", nif.getName(), "nodad");
            added = true;
        }
        try {
            // the RDMA core adds the GID from a work queue, after the address
            Utils.waitForCondition(RdmaIPv6::gidListed, Utils.adjustTimeout(10_000), 20);
            assertTrue(gidListed(), ADDR6 + " among the RDMA device's GIDs");
            // the kernel gives every IPv6 interface one; RoCE lists it as GID 0
            Inet6Address linkLocal = nif.inetAddresses()
                    .filter(a -> a instanceof Inet6Address && a.isLinkLocalAddress())
                    .map(a -> (Inet6Address) a)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no link-local address on " + nif.getName()));
            RdmaTestLib.runCases(List.of(
                    new RdmaTestLib.Case("INET6 server on " + ADDR6, () -> echo(new InetSocketAddress(addr, 0), addr)),
                    new RdmaTestLib.Case("INET6 server on ::", () -> echo(new InetSocketAddress(0), addr)),
                    new RdmaTestLib.Case("INET6 server on the link-local " + linkLocal,
                            () -> echo(new InetSocketAddress(linkLocal, 0), linkLocal))));
        } finally {
            if (added)
                RdmaTestLib.ip("-6", "addr", "del", ADDR6 + "/64", "dev", nif.getName());
        }
    }

    /** Whether a port of an RDMA device lists ADDR6 among its GIDs (each a symlinked directory). */
    static boolean gidListed() {
        try (Stream<Path> devices = Files.list(Path.of("/sys/class/infiniband"))) {
            return devices.flatMap(d -> list(d.resolve("ports")))
                          .flatMap(port -> list(port.resolve("gids")))
                          .anyMatch(gid -> {
                              try {
                                  return Files.readString(gid).strip().equals(GID6);
                              } catch (IOException e) {
                                  return false;   // an empty slot reads as EINVAL
                              }
                          });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<Path> list(Path dir) {
        try {
            return Files.list(dir).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void echo(InetSocketAddress local, InetAddress connectTo) throws Exception {
        try (ServerSocketChannel ssc = RdmaSockets.openServerSocketChannel(INET6)) {
            ssc.bind(local);
            InetSocketAddress bound = (InetSocketAddress) ssc.getLocalAddress();
            System.out.println("  server bound to " + local + ": " + bound);
            assertTrue(bound.getAddress() instanceof Inet6Address, "the server's address is IPv6: " + bound);
            // Inet6Address.equals ignores the scope, so it is compared apart
            int scope = (connectTo instanceof Inet6Address a) ? a.getScopeId() : 0;
            if (!local.getAddress().isAnyLocalAddress())
                assertEquals(scope, ((Inet6Address) bound.getAddress()).getScopeId(), "the bound address's scope");
            try (SocketChannel sc = RdmaSockets.openSocketChannel(INET6)) {
                sc.connect(new InetSocketAddress(connectTo, bound.getPort()));
                try (SocketChannel peer = ssc.accept()) {
                    System.out.println("  client " + sc.getLocalAddress() + " -> " + sc.getRemoteAddress()
                            + ", accepted " + peer.getRemoteAddress());
                    assertEquals(connectTo, ((InetSocketAddress) sc.getRemoteAddress()).getAddress(), "remote address");
                    assertEquals(connectTo, ((InetSocketAddress) peer.getLocalAddress()).getAddress(),
                            "accepted socket's local address");
                    assertEquals(scope, ((Inet6Address) ((InetSocketAddress) peer.getLocalAddress()).getAddress())
                            .getScopeId(), "the accepted socket's local scope");
                    assertEquals(scope, ((Inet6Address) ((InetSocketAddress) sc.getLocalAddress()).getAddress())
                            .getScopeId(), "the client's local scope");
                    assertTrue(((InetSocketAddress) peer.getRemoteAddress()).getAddress() instanceof Inet6Address,
                            "the accepted socket's peer is IPv6");
                    RdmaTestLib.echo(sc, peer, 1 << 20, 6);
                }
            }
        }
    }
}
