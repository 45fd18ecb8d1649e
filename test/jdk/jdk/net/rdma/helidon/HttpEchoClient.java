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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client of HelidonEchoServer written with the JDK's java.net.http
 * HttpClient, as built, with nothing in it about RDMA. It is run as a
 * source file:
 *
 *   java HttpEchoClient.java HOST PORT SEED SIZE...
 *
 * For each SIZE it POSTs SIZE random bytes (from a Random seeded with SEED
 * and the request's index) to /echo and GETs /bytes/SIZE, all at once, so
 * that the client's pool opens several connections and the server serves
 * them side by side; every byte of every answer is checked. Prints
 *
 *   verified N requests: B bytes sent, R bytes received
 *
 * and exits 0; exits 1 at a wrong status or byte, an error, or when the
 * run takes longer than -Dtimeout seconds (default 300).
 */
public class HttpEchoClient {
    public static void main(String[] args) throws Exception {
        String base = "http://" + args[0] + ":" + args[1];
        long seed = Long.parseLong(args[2]);
        int[] sizes = Arrays.stream(args, 3, args.length).mapToInt(Integer::parseInt).toArray();
        long timeout = Long.getLong("timeout", 300);

        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<Long>> answers = new ArrayList<>();
        long sent = 0;
        for (int i = 0; i < sizes.length; i++) {
            int size = sizes[i];
            byte[] body = new byte[size];
            new Random(seed + i).nextBytes(body);
            sent += size;
            HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/echo"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            answers.add(client.sendAsync(post, HttpResponse.BodyHandlers.ofByteArray())
                    .thenApply(r -> check(r, body)));
            HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/bytes/" + size)).build();
            answers.add(client.sendAsync(get, HttpResponse.BodyHandlers.ofByteArray())
                    .thenApply(r -> check(r, pattern(size))));
        }
        long received = 0;
        try {
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(timeout, TimeUnit.SECONDS);
            for (CompletableFuture<Long> a : answers)
                received += a.join();
        } catch (Exception e) {
            System.out.println("FAILED: " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        }
        System.out.println("verified " + answers.size() + " requests: " + sent + " bytes sent, "
                + received + " bytes received");
        System.exit(0);
    }

    // The length of the answer, which must be expected, byte for byte, with status 200.
    static long check(HttpResponse<byte[]> r, byte[] expected) {
        if (r.statusCode() != 200)
            throw new IllegalStateException(r.request() + ": status " + r.statusCode());
        byte[] got = r.body();
        int at = Arrays.mismatch(got, expected);
        if (at >= 0)
            throw new IllegalStateException(r.request() + ": " + got.length + " bytes for "
                    + expected.length + ", the first that differs at " + at);
        return got.length;
    }

    // What the server's GET /bytes/N answers: byte i is (byte) (i * 31 + (i >>> 8)).
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
            b[i] = (byte) (i * 31 + (i >>> 8));
        return b;
    }
}
