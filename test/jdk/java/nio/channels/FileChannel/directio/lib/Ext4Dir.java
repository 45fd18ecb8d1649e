/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory the direct I/O tests put their files in.  They test what
 * ext4 does (STATX_DIOALIGN, RWF_DONTCACHE), so it must be on ext4: the
 * test's working directory if it is, else a new directory under /tmp or
 * /var/tmp that is deleted when the test ends.  None on ext4 fails the
 * test: a skip would hide that the behaviour went untested.
 */
public final class Ext4Dir {
    private static Path dir;

    private Ext4Dir() { }

    public static synchronized Path get() throws IOException {
        if (dir != null)
            return dir;
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> candidates = List.of(cwd, Path.of("/tmp"), Path.of("/var/tmp"));
        for (Path c : candidates) {
            if (!Files.isDirectory(c) || !Files.isWritable(c)
                    || !Files.getFileStore(c).type().equals("ext4"))
                continue;
            if (c.equals(cwd)) {
                dir = c;
            } else {
                Path d = Files.createTempDirectory(c, "rdio-directio");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(d)));
                dir = d;
            }
            System.out.println("files in " + dir + " (ext4)");
            return dir;
        }
        throw new AssertionError("the direct I/O tests need a writable directory on ext4;"
                                 + " none of " + candidates + " is one");
    }

    private static void deleteTree(Path d) {
        try (Stream<Path> s = Files.walk(d)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("cannot delete " + d + ": " + e);
        }
    }
}
