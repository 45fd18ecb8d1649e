/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
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
