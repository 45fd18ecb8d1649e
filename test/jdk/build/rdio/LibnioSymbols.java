/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

/*
 * @test
 * @summary The fork's libnio binds the Linux calls it adds (statx, preadv2,
 *          pwritev2) at run time, as upstream binds optional calls, so it
 *          needs no glibc symbol that upstream's libnio does not: its
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
    static final Set<String> BOUND_AT_RUN_TIME = Set.of("statx", "preadv2", "pwritev2",
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
            .filter(l -> BOUND_AT_RUN_TIME.contains(l.substring(l.lastIndexOf(' ') + 1)))
            .toList();
        assertTrue(bad.isEmpty(), "libnio links to what it must bind at run time: " + bad);
        System.out.println(undefined.size() + " undefined symbols, none of " + BOUND_AT_RUN_TIME);
    }
}
