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
 * @summary The fork's libnio makes the Linux calls it adds (statx, preadv2,
 *          pwritev2) through syscall(2), so it needs no glibc symbol for
 *          them, whose versions upstream's libnio does not require: its
 *          dynamic symbol table (objdump -T) names none of them.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main LibnioSymbols
 */

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static jdk.test.lib.Asserts.*;

public class LibnioSymbols {
    static final Set<String> THROUGH_SYSCALL = Set.of("statx", "preadv2", "pwritev2",
                                                         "preadv64v2", "pwritev64v2");

    public static void main(String[] args) throws Exception {
        Path lib = Path.of(System.getProperty("java.home"), "lib", "libnio.so");
        assertTrue(Files.isRegularFile(lib), lib + " exists");
        Process p = new ProcessBuilder("objdump", "-T", lib.toString()).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        assertEquals(p.waitFor(), 0, "objdump -T " + lib + ": " + lines);
        // "0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.28) statx"
        List<String> undefined = lines.stream().filter(l -> l.contains("*UND*")).toList();
        assertGreaterThan(undefined.size(), 10, "objdump lists libnio's undefined symbols");
        List<String> bad = undefined.stream()
            .filter(l -> THROUGH_SYSCALL.contains(l.substring(l.lastIndexOf(' ') + 1)))
            .toList();
        assertTrue(bad.isEmpty(), "libnio links to what it must call through syscall(2): " + bad);
        System.out.println(undefined.size() + " undefined symbols, none of " + THROUGH_SYSCALL);
    }
}
