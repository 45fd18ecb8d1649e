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
 * @test id=licence
 * @summary Every file of the fork's repository carries the licence header
 *          upstream uses for its kind: GPLv2 with the Classpath Exception
 *          for module sources, GPLv2 for tests and scripts
 *          (make/scripts/check-headers.sh).
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/timeout=120 ForkChecks check-headers.sh
 */

/*
 * @test id=portable
 * @summary The fork's Java code under share/ and unix/ compiles with the
 *          Linux-only directories left out, names only classes that exist
 *          on the platforms it is built for, and no public API lives in a
 *          platform directory (make/scripts/check-portable.sh).
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/timeout=300 ForkChecks check-portable.sh
 */

/*
 * @test id=readme
 * @summary README.md shows, byte for byte, the example files that
 *          jdk/net/rdma/ReadmeRdmaExamples and
 *          java/nio/channels/FileChannel/directio/ReadmeDirectIOExamples
 *          run, every one of them, and no table cell of over 300
 *          characters (make/scripts/check-readme.sh).
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/timeout=120 ForkChecks check-readme.sh
 */

import java.nio.file.Files;
import java.nio.file.Path;

import static jdk.test.lib.Asserts.*;

/**
 * Runs one of the repository's check scripts on the checkout this test
 * tree was assembled from: make test-rdio runs jtreg on build/src/test/jdk,
 * four levels below the top of the checkout.
 */
public class ForkChecks {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("test.root")).toAbsolutePath().normalize();
        Path top = root.getParent().getParent().getParent().getParent();
        Path script = top.resolve("make/scripts").resolve(args[0]);
        assertTrue(Files.isRegularFile(script), "no " + script + ": this test runs on the"
            + " test tree that make/scripts/assemble.sh builds in build/src/test/jdk of a checkout");
        Process p = new ProcessBuilder("bash", script.toString())
            .redirectErrorStream(true)
            .start();
        String out = new String(p.getInputStream().readAllBytes());
        System.out.print(out);
        assertEquals(p.waitFor(), 0, args[0] + " failed:\n" + out);
    }
}
