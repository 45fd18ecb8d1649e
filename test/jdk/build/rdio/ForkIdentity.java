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
 * @run main ForkIdentity
 */

import java.nio.file.Path;
import java.util.Optional;

public class ForkIdentity {
    // What configure passes to upstream's configure (make/upstream.conf).
    static final String FORK = "rdio";
    static final String VENDOR = "rdio-jdk";

    public static void main(String[] args) throws Exception {
        Runtime.Version v = Runtime.version();
        check("Runtime.version().feature()", v.feature(), 25);
        check("Runtime.version().optional()", v.optional(), Optional.of(FORK));
        check("Runtime.version().pre()", v.pre(), Optional.empty());
        if (v.build().isEmpty())
            throw new AssertionError("no build number in " + v);

        String number = v.feature() + "." + v.interim() + "." + v.update();
        check("java.vendor", System.getProperty("java.vendor"), VENDOR);
        check("java.vm.vendor", System.getProperty("java.vm.vendor"), VENDOR);
        check("java.vendor.version", System.getProperty("java.vendor.version"), FORK + "-" + number);
        check("java.runtime.version", System.getProperty("java.runtime.version"), v.toString());
        if (!v.toString().endsWith("-" + FORK))
            throw new AssertionError("version " + v + " does not end in -" + FORK);

        // The banner a user sees, from the same JDK's launcher.
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
        String banner = new String(p.getInputStream().readAllBytes());
        check("java -version exit status", p.waitFor(), 0);
        System.out.print(banner);
        String runtime = "Runtime Environment " + FORK + "-" + number + " (build " + v + ")";
        if (!banner.contains(runtime))
            throw new AssertionError("java -version does not contain \"" + runtime + "\":\n" + banner);
        if (!banner.contains("Server VM " + FORK + "-" + number))
            throw new AssertionError("java -version does not name the fork's VM:\n" + banner);
    }

    static void check(String what, Object actual, Object expected) {
        if (!expected.equals(actual))
            throw new AssertionError(what + " is " + actual + ", expected " + expected);
        System.out.println(what + " = " + actual);
    }
}
