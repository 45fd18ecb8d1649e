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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory the direct I/O tests put their files in, and the type of
 * its file system.
 *
 * With the system property {@code test.directio.dir} set (make
 * test-directio-fs sets it to each file system of its matrix, with
 * {@code -javaoption:-Dtest.directio.dir=DIR}), a new directory inside
 * that one, which must exist and be writable.  Otherwise a directory on
 * ext4, the file system with every feature the tests cover
 * (STATX_DIOALIGN, RWF_DONTCACHE): the test's working directory if it is
 * on ext4, else a new directory under /tmp or /var/tmp.  New directories
 * are deleted when the test ends.  No usable directory fails the test: a
 * skip would hide that the behaviour went untested.
 */
public final class DirectIODir {
    /** The system property that names the directory. */
    public static final String PROPERTY = "test.directio.dir";

    private static Path dir;
    private static String type;

    private DirectIODir() { }

    public static synchronized Path get() throws IOException {
        if (dir != null)
            return dir;
        String chosen = System.getProperty(PROPERTY);
        if (chosen != null) {
            Path d = Path.of(chosen).toAbsolutePath();
            String wrong = !Files.exists(d) ? "it does not exist"
                           : !Files.isDirectory(d) ? "it is not a directory"
                           : !Files.isWritable(d) ? "it is not writable" : null;
            if (wrong != null)
                throw new AssertionError(PROPERTY + "=" + chosen + " cannot hold the test's files: " + wrong);
            return use(d, false, ", from " + PROPERTY);
        }
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> candidates = List.of(cwd, Path.of("/tmp"), Path.of("/var/tmp"));
        for (Path c : candidates) {
            if (Files.isDirectory(c) && Files.isWritable(c)
                    && Files.getFileStore(c).type().equals("ext4"))
                return use(c, c.equals(cwd), "");
        }
        throw new AssertionError("the direct I/O tests need a writable directory on ext4"
                                 + " (or one named by -D" + PROPERTY + ");"
                                 + " none of " + candidates + " is one");
    }

    /**
     * The type of the file system of {@link #get()}, as
     * {@code FileStore.type()} names it: "ext4", "xfs", "btrfs", "tmpfs".
     */
    public static synchronized String type() throws IOException {
        get();
        return type;
    }

    /**
     * Whether the file system of {@link #get()} does its direct I/O as
     * buffered I/O, so that the data stays in the page cache: tmpfs keeps
     * every file in memory, and ext4 mounted with data=journal buffers
     * O_DIRECT.  Their DONTCACHE writes stay cached as well.
     */
    public static boolean cachesDirectIO() throws IOException {
        if (type().equals("tmpfs"))
            return true;
        String options = Command.output("findmnt", "-n", "-o", "OPTIONS", "--target", get().toString());
        return List.of(options.split(",")).contains("data=journal");
    }

    /**
     * Whether the kernel honours DONTCACHE on the file system of {@link
     * #get()}: Linux 6.14 and later on ext4 and XFS (measured on 6.18;
     * btrfs and tmpfs refuse the flag).
     */
    public static boolean takesDontCache() throws IOException {
        return (type().equals("ext4") || type().equals("xfs")) && kernelAtLeast(6, 14);
    }

    /**
     * Whether statx reports an exact direct I/O alignment for a regular
     * file there: ext4 and XFS from Linux 6.1, except ext4 with
     * data=journal, which reports zeros.
     */
    public static boolean reportsAlignment() throws IOException {
        return (type().equals("ext4") || type().equals("xfs")) && kernelAtLeast(6, 1)
            && !cachesDirectIO();
    }

    public static boolean kernelAtLeast(int major, int minor) {
        String[] v = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(v[0]), mi = Integer.parseInt(v[1]);
        return ma > major || (ma == major && mi >= minor);
    }

    /** Uses parent itself, or a new directory in it that the JVM's exit deletes. */
    private static Path use(Path parent, boolean itself, String why) throws IOException {
        Path d = parent;
        if (!itself) {
            d = Files.createTempDirectory(parent, "rdio-directio");
            Path created = d;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(created)));
        }
        type = Files.getFileStore(d).type();
        dir = d;
        System.out.println("files in " + dir + " (" + type + why + ")");
        return dir;
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
