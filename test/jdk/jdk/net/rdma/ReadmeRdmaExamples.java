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
 * @summary The README's two RDMA examples, which make/scripts/check-readme.sh
 *          keeps equal to the files in readme/, run as a reader would run
 *          them: EchoOverRdma.java with the source launcher echoes a
 *          message over RDMA sockets from jdk.net.Sockets, and rules.sh
 *          writes the README's rules file and runs the unchanged TCP
 *          program PlainEcho.java with it.  Each prints exactly the bytes
 *          it sent, rxe0's packet counters show the traffic went over the
 *          RDMA device, and for the rules file the listing of
 *          -Djdk.net.rdma.debug shows that its two rules switched the
 *          server's bind and the client's connect.
 * @requires os.family == "linux"
 * @requires rdio.rdma.device != null
 * @library /test/lib
 * @run main/othervm/timeout=900 ReadmeRdmaExamples
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import jdk.test.lib.process.ProcessTools;

import static jdk.test.lib.Asserts.*;

public class ReadmeRdmaExamples {
    static final Path EXAMPLES = Path.of(System.getProperty("test.src"), "readme");
    static final Path COUNTERS = Path.of("/sys/class/infiniband/rxe0/ports/1/hw_counters");
    // a child JVM under the guest's emulation compiles and runs its source
    // in well under a minute
    static final long CHILD_SECONDS = 300;

    public static void main(String[] args) throws Exception {
        RdmaTestLib.runCases(List.of(
                new RdmaTestLib.Case("README: EchoOverRdma.java", ReadmeRdmaExamples::echo),
                new RdmaTestLib.Case("README: rules.sh with PlainEcho.java", ReadmeRdmaExamples::rules)));
    }

    /** java EchoOverRdma.java ADDRESS MESSAGE, with a message of its own. */
    static void echo() throws Exception {
        String message = "hello over RDMA " + Long.toHexString(ThreadLocalRandom.current().nextLong());
        long sent = counter("sent_pkts"), rcvd = counter("rcvd_pkts");
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(
                EXAMPLES.resolve("EchoOverRdma.java").toString(),
                RdmaTestLib.SERVER.getHostAddress(), message);
        Result r = run(pb, "echo");
        assertEquals(message + "\n", r.out(), "EchoOverRdma's output: the message echoed");
        checkPackets(sent, rcvd);
    }

    /**
     * bash rules.sh in a directory that holds PlainEcho.java, with the
     * test JDK's java first on the PATH.  The script names the guest's
     * RDMA address, 10.77.0.1, as the README does.
     */
    static void rules() throws Exception {
        assertEquals("10.77.0.1", RdmaTestLib.SERVER.getHostAddress(),
                "the RDMA device's address that the README's rules file and command name");
        Path dir = Files.createTempDirectory(Path.of("."), "rules");
        Files.copy(EXAMPLES.resolve("PlainEcho.java"), dir.resolve("PlainEcho.java"),
                StandardCopyOption.COPY_ATTRIBUTES);
        long sent = counter("sent_pkts"), rcvd = counter("rcvd_pkts");
        ProcessBuilder pb = new ProcessBuilder("bash", EXAMPLES.resolve("rules.sh").toString())
                .directory(dir.toFile());
        String jdkBin = Path.of(System.getProperty("test.jdk"), "bin").toString();
        pb.environment().merge("PATH", jdkBin, (old, bin) -> bin + File.pathSeparator + old);
        Result r = run(pb, "rules");
        assertEquals("hello over RDMA\n", r.out(), "PlainEcho's output: the message echoed");
        assertTrue(r.err().contains("rdma: 2 rules from "), "the listing names the rules file's 2 rules");
        assertTrue(r.err().contains("rdma: bind to 10.77.0.1 port ")
                   && r.err().contains("(line 2: bind 10.77.0.0/24 *)"),
                   "the listing shows the server's bind switched by line 2");
        assertTrue(r.err().contains("rdma: connect to 10.77.0.1 port ")
                   && r.err().contains("(line 3: connect 10.77.0.0/24 *)"),
                   "the listing shows the client's connect switched by line 3");
        checkPackets(sent, rcvd);
    }

    record Result(String out, String err) { }

    /**
     * Runs a child with its output in files (so that it never blocks on a
     * full pipe), waits at most CHILD_SECONDS, and requires exit status 0.
     */
    static Result run(ProcessBuilder pb, String name) throws Exception {
        Path out = Path.of(name + ".out"), err = Path.of(name + ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        System.out.println("running " + pb.command() + " in " + pb.directory());
        Process p = pb.start();
        boolean done = p.waitFor(CHILD_SECONDS, TimeUnit.SECONDS);
        if (!done)
            p.destroyForcibly().waitFor();
        Result r = new Result(Files.readString(out), Files.readString(err));
        System.out.println("--- stdout\n" + r.out() + "--- stderr\n" + r.err() + "---");
        assertTrue(done, name + ": not done within " + CHILD_SECONDS + " s");
        assertEquals(0, p.exitValue(), name + ": exit status");
        assertFalse(r.err().contains("Exception"), name + ": an exception on standard error");
        return r;
    }

    /** rxe0 sent and received packets since the counts given. */
    static void checkPackets(long sentBefore, long rcvdBefore) throws Exception {
        long sent = counter("sent_pkts") - sentBefore, rcvd = counter("rcvd_pkts") - rcvdBefore;
        System.out.println("rxe0: " + sent + " packets sent, " + rcvd + " received");
        // a connection and one message each way are several packets each
        assertGreaterThanOrEqual(sent, 2L, "packets rxe0 sent");
        assertGreaterThanOrEqual(rcvd, 2L, "packets rxe0 received");
    }

    static long counter(String name) throws Exception {
        return Long.parseLong(Files.readString(COUNTERS.resolve(name)).strip());
    }
}
