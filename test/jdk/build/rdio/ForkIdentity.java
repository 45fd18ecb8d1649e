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
 * @summary The JDK under test identifies itself as the rdio fork of
 *          OpenJDK 25: in its version, its vendor properties, and the
 *          banner of java -version.
 * @library /test/lib
 * @run main ForkIdentity
 */

import java.nio.file.Path;
import java.util.Optional;

import static jdk.test.lib.Asserts.*;

public class ForkIdentity {
    // What configure passes to upstream's configure (make/upstream.conf).
    static final String FORK = "rdio";
    static final String VENDOR = "rdio-jdk";

    public static void main(String[] args) throws Exception {
        Runtime.Version v = Runtime.version();
        System.out.println("Runtime.version() = " + v);
        assertEquals(25, v.feature(), "Runtime.version().feature()");
        assertEquals(Optional.of(FORK), v.optional(), "Runtime.version().optional()");
        assertEquals(Optional.empty(), v.pre(), "Runtime.version().pre()");
        assertTrue(v.build().isPresent(), "Runtime.version().build() present");
        assertTrue(v.toString().endsWith("-" + FORK), "version " + v + " ends in -" + FORK);

        String number = v.feature() + "." + v.interim() + "." + v.update();
        assertEquals(VENDOR, System.getProperty("java.vendor"), "java.vendor");
        assertEquals(VENDOR, System.getProperty("java.vm.vendor"), "java.vm.vendor");
        assertEquals(FORK + "-" + number, System.getProperty("java.vendor.version"), "java.vendor.version");
        assertEquals(v.toString(), System.getProperty("java.runtime.version"), "java.runtime.version");

        // The banner a user sees, from the same JDK's launcher.
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
        String banner = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), "java -version exit status");
        System.out.print(banner);
        String runtime = "Runtime Environment " + FORK + "-" + number + " (build " + v + ")";
        assertTrue(banner.contains(runtime), "java -version shows \"" + runtime + "\"");
        assertTrue(banner.contains("Server VM " + FORK + "-" + number), "java -version names the fork's VM");
    }
}
