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

/*
 * @test
 * @summary librdmasocket, the native side of RDMA sockets, imports no
 *          function that sends a signal.  rshutdown and rclose of rsockets
 *          can wait for a peer that does not read, and a signal is the only
 *          way to end that wait from outside; but a signal that lands in
 *          librdmacm anywhere else (its locks' sem_wait, its service
 *          threads' socket pairs) breaks the library's state.  So the close
 *          never enters those calls when they could wait for the peer's
 *          program, and the library has no means to signal at all: the one
 *          signal RDMA sockets send is NIO's interrupt signal, through
 *          NativeThread, from RdmaDrainWatch to a thread it has seen asleep
 *          in the read of a completion channel.
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main RdmaNoSignals
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jtreg.SkippedException;

public class RdmaNoSignals {
    // the libc functions that send a signal, or can (syscall: tgkill)
    static final List<String> SENDERS = List.of("kill", "killpg", "tgkill", "tkill", "raise",
            "pthread_kill", "sigqueue", "pthread_sigqueue", "syscall");

    public static void main(String[] args) throws Exception {
        Path lib = Path.of(System.getProperty("java.home"), "lib", "librdmasocket.so");
        if (!Files.exists(lib))
            throw new SkippedException("this JDK was built without RDMA sockets (" + lib + " is absent)");
        Set<String> imports = undefinedSymbols(lib);
        System.out.println(lib + " imports " + imports);
        // the reading works: the library loads librdmacm at run time
        if (!imports.contains("dlopen"))
            throw new AssertionError("dlopen not among the imports read: " + imports);
        for (String f : SENDERS) {
            if (imports.contains(f))
                throw new AssertionError(lib + " imports " + f + ", which sends signals");
        }
    }

    /** The names of the undefined symbols of an ELF64 little-endian shared library's .dynsym. */
    static Set<String> undefinedSymbols(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0x464c457f || b.get(4) != 2 || b.get(5) != 1)
            throw new AssertionError(file + " is not a 64-bit little-endian ELF file");
        long shoff = b.getLong(0x28);
        int shentsize = Short.toUnsignedInt(b.getShort(0x3A));
        int shnum = Short.toUnsignedInt(b.getShort(0x3C));
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (b.getInt(sh + 4) != 11)         // SHT_DYNSYM
                continue;
            int symOff = (int) b.getLong(sh + 0x18);
            int symSize = (int) b.getLong(sh + 0x20);
            int symEnt = (int) b.getLong(sh + 0x38);
            int strSh = (int) (shoff + (long) b.getInt(sh + 0x28) * shentsize);
            int strOff = (int) b.getLong(strSh + 0x18);
            Set<String> names = new TreeSet<>();
            for (int s = symOff + symEnt; s < symOff + symSize; s += symEnt) {     // entry 0 is null
                if (b.getShort(s + 6) != 0)     // st_shndx: defined here
                    continue;
                int start = strOff + b.getInt(s);
                int end = start;
                while (b.get(end) != 0)
                    end++;
                names.add(new String(b.array(), start, end - start, java.nio.charset.StandardCharsets.US_ASCII));
            }
            return names;
        }
        throw new AssertionError(file + " has no .dynsym section");
    }
}
