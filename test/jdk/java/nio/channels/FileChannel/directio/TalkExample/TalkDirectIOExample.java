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
 * @test id=slide
 * @summary The talk's direct I/O example, exactly as on the slide, does not
 *          compile on any JDK since 10: the slide omits the java.io imports
 *          and assigns FileStore.getBlockSize(), a long, to an int.  The
 *          reference output pins these as the only errors.
 * @compile/fail/ref=testDirectIO.slide.out -XDrawDiagnostics slide/testDirectIO.java
 */

/*
 * @test id=run
 * @summary The talk's direct I/O example (testDirectIO.java, which differs
 *          from the slide only where the slide does not compile) runs, and
 *          its DIRECT read returns all 8192 bytes of the file it wrote.
 * @requires os.family == "linux" & vm.hasJFR
 * @modules jdk.jfr
 * @compile testDirectIO.java
 * @run main/othervm TalkDirectIOExample
 */

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Runs the example unchanged and observes its file I/O through the JDK's
 * own jdk.FileWrite and jdk.FileRead events, since the example keeps its
 * buffer and read count to itself.
 */
public class TalkDirectIOExample {
    static final int FILE_SIZE = 8192;   // the example's fileSize

    public static void main(String[] args) throws Exception {
        List<RecordedEvent> events;
        try (Recording r = new Recording()) {
            r.enable("jdk.FileRead").withoutThreshold().withStackTrace();
            r.enable("jdk.FileWrite").withoutThreshold();
            r.start();
            testDirectIO.main(new String[0]);
            r.stop();
            Path dump = Path.of("talk-example.jfr");
            r.dump(dump);
            events = RecordingFile.readAllEvents(dump);
        }

        // The events on the example's temporary file "myfile*.tmp".
        List<RecordedEvent> mine = events.stream()
                .filter(e -> {
                    String p = e.getString("path");
                    return p != null && Path.of(p).getFileName().toString().matches("myfile.*\\.tmp");
                })
                .collect(Collectors.toList());
        mine.forEach(System.out::println);

        long written = sum(mine, "jdk.FileWrite", "bytesWritten");
        if (written != FILE_SIZE)
            throw new AssertionError("example wrote " + written + " bytes, expected " + FILE_SIZE);

        List<RecordedEvent> reads = mine.stream()
                .filter(e -> e.getEventType().getName().equals("jdk.FileRead"))
                .collect(Collectors.toList());
        if (reads.size() != 1)
            throw new AssertionError("expected exactly one read, got " + reads.size() + ": " + reads);
        RecordedEvent read = reads.get(0);
        long n = read.getLong("bytesRead");
        if (n != FILE_SIZE)
            throw new AssertionError("DIRECT read returned " + n + " bytes, expected " + FILE_SIZE);
        if (read.getBoolean("endOfFile"))
            throw new AssertionError("DIRECT read hit end of file: " + read);
        // The read is the example's own: JFR starts the stack at the caller
        // of the JDK's FileChannel code, that is, testDirectIO.main.
        var top = read.getStackTrace().getFrames().get(0).getMethod();
        if (!top.getType().getName().equals("testDirectIO") || !top.getName().equals("main"))
            throw new AssertionError("read did not come from testDirectIO.main: " + read.getStackTrace());
        System.out.println("OK: wrote " + written + " bytes, DIRECT read " + n + " bytes");
    }

    static long sum(List<RecordedEvent> events, String type, String field) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(type))
                .mapToLong(e -> e.getLong(field))
                .sum();
    }
}
