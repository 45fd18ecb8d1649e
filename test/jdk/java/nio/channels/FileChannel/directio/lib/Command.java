/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

import java.io.IOException;
import java.util.List;

/**
 * Runs a command of the host (fincore, findmnt, mount, losetup) for a test.
 */
public final class Command {
    private Command() { }

    /**
     * Runs the command and returns its output, stdout and stderr together,
     * trimmed; throws an IOException that quotes it if the command fails.
     */
    public static String output(String... cmd) throws IOException {
        Process p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        int rc;
        try {
            rc = p.waitFor();
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        if (rc != 0)
            throw new IOException(String.join(" ", cmd) + " failed (exit " + rc + "): " + out);
        return out;
    }
}
