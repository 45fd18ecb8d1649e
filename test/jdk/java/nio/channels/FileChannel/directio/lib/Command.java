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
