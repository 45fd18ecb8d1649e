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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file system mounted for one test, on a new directory under the test's
 * working directory: a ramfs, which has no direct I/O at all, or an ext4
 * image on a loop device with the mount options a test needs; or a bare
 * loop device.  Mounting needs root; without it the test fails, saying so,
 * rather than skip.
 */
public final class ScratchMount implements AutoCloseable {
    private final Path dir;      // the mount point, or the loop device
    private final Path image;
    private final boolean mounted;

    private ScratchMount(Path dir, Path image, boolean mounted) {
        this.dir = dir;
        this.image = image;
        this.mounted = mounted;
    }

    /** A ramfs: open(O_DIRECT) fails there with EINVAL. */
    public static ScratchMount ramfs() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("").toAbsolutePath(), "ramfs");
        return set(new ScratchMount(dir, null, false), "mount", "-t", "ramfs", "rdio-test", dir.toString());
    }

    /** A 64 MiB ext4 file system mounted with OPTIONS, e.g. "data=journal". */
    public static ScratchMount ext4(String options) throws IOException {
        Path cwd = Path.of("").toAbsolutePath();
        Path image = Files.createTempFile(cwd, "ext4", ".img");
        Path dir = Files.createTempDirectory(cwd, "ext4");
        ScratchMount m = new ScratchMount(dir, image, false);
        set(m, "truncate", "-s", "64M", image.toString());
        set(m, "mkfs.ext4", "-q", "-F", image.toString());
        return set(m, "mount", "-o", "loop," + options, image.toString(), dir.toString());
    }

    /** A 16 MiB loop device, with 512-byte logical blocks: path() is the device. */
    public static ScratchMount loopDevice() throws IOException {
        Path image = Files.createTempFile(Path.of("").toAbsolutePath(), "loop", ".img");
        ScratchMount m = new ScratchMount(null, image, false);
        set(m, "truncate", "-s", "16M", image.toString());
        String dev;
        try {
            dev = run("losetup", "--find", "--show", image.toString());
        } catch (Throwable t) {
            m.close();
            throw t;
        }
        return new ScratchMount(Path.of(dev), image, false);
    }

    // Runs a step of setting m up, and releases what m holds if it fails;
    // a mount makes m a mounted one
    private static ScratchMount set(ScratchMount m, String... cmd) throws IOException {
        try {
            run(cmd);
        } catch (Throwable t) {
            m.close();
            throw t;
        }
        return cmd[0].equals("mount") ? new ScratchMount(m.dir, m.image, true) : m;
    }

    public Path path() {
        return dir;
    }

    /** Unmounts or detaches, then deletes what was made, trying every step. */
    @Override
    public void close() throws IOException {
        List<Step> steps = new ArrayList<>();
        AssertionError failed = new AssertionError("cannot release " + (dir != null ? dir : image));
        if (mounted) {
            steps.add(() -> run("umount", dir.toString()));
        } else if (dir != null && dir.startsWith("/dev")) {
            steps.add(() -> run("losetup", "-d", dir.toString()));
        }
        if (dir != null && !dir.startsWith("/dev"))
            steps.add(() -> Files.deleteIfExists(dir));
        if (image != null)
            steps.add(() -> Files.deleteIfExists(image));
        for (Step step : steps) {
            try {
                step.run();
            } catch (Throwable t) {
                failed.addSuppressed(t);
            }
        }
        if (failed.getSuppressed().length > 0)
            throw failed;
    }

    private interface Step {
        void run() throws IOException;
    }

    // Runs a command and returns its output
    private static String run(String... cmd) throws IOException {
        try {
            return Command.output(cmd);
        } catch (IOException e) {
            throw new AssertionError(e.getMessage() + "; this test mounts a scratch file system"
                + " or sets up a loop device, and must run as root", e);
        }
    }
}
