/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
        run("mount", "-t", "ramfs", "rdio-test", dir.toString());
        return new ScratchMount(dir, null, true);
    }

    /** A 64 MiB ext4 file system mounted with OPTIONS, e.g. "data=journal". */
    public static ScratchMount ext4(String options) throws IOException {
        Path cwd = Path.of("").toAbsolutePath();
        Path image = Files.createTempFile(cwd, "ext4", ".img");
        Path dir = Files.createTempDirectory(cwd, "ext4");
        run("truncate", "-s", "64M", image.toString());
        run("mkfs.ext4", "-q", "-F", image.toString());
        run("mount", "-o", "loop," + options, image.toString(), dir.toString());
        return new ScratchMount(dir, image, true);
    }

    /** A 16 MiB loop device, with 512-byte logical blocks: path() is the device. */
    public static ScratchMount loopDevice() throws IOException {
        Path image = Files.createTempFile(Path.of("").toAbsolutePath(), "loop", ".img");
        run("truncate", "-s", "16M", image.toString());
        Path dev = Path.of(run("losetup", "--find", "--show", image.toString()));
        return new ScratchMount(dev, image, false);
    }

    public Path path() {
        return dir;
    }

    @Override
    public void close() throws IOException {
        if (mounted) {
            run("umount", dir.toString());
            Files.delete(dir);
        } else {
            run("losetup", "-d", dir.toString());
        }
        if (image != null)
            Files.delete(image);
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
