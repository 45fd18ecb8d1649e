#!/usr/bin/env bash
#
# Copyright (c) 2026, the rdio JDK authors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
# Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
# or visit www.oracle.com if you need additional information or have any
# questions.
#
# The RDMA sockets benchmark (make bench-rdma): the JMH benchmark
# test/micro/.../jdk/net/RdmaChannels.java on the fork's JDK in the
# Soft-RoCE guest, with librdmacm's rstream measured in the same boot at the
# same sizes, over rsockets and over TCP, as the native baseline.  Prints one
# table (also in build/bench-rdma/results.md).
#
#   bench-rdma.sh CONF_DIR JMH_DIR
#
# Environment:
#   BENCH_OPTS   extra JMH options, e.g. "-wi 1 -i 1 -w 1s -r 1s" for a smoke
#                run (default: the class's 2 x 2 s warm-up, 3 x 2 s
#                measurement, 1 fork)
. "$(dirname "$0")/common.sh"

conf=${1:?usage: bench-rdma.sh CONF_DIR JMH_DIR}
jmh=${2:?usage: bench-rdma.sh CONF_DIR JMH_DIR}
conf=$(cd "$conf" && pwd) || die "no $1"
jmh=$(cd "$jmh" && pwd) || die "no $2"
jdk=$conf/images/jdk
out=$RDIO_BUILD/bench-rdma
src=$RDIO_TOP/test/micro/org/openjdk/bench/jdk/net/RdmaChannels.java
class=org.openjdk.bench.jdk.net.RdmaChannels
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images first"
mkdir -p "$out"

jar=$out/benchmarks.jar
build_bench_jar "$jdk" "$jmh" "$jar" "$src"

# shellcheck disable=SC2086
"$RDIO_TOP/make/scripts/rdma-guest.sh" --jdk "$jdk" --bench "$jar" --out "$out/guest" -- \
    "^$class\\." ${BENCH_OPTS:-} || die "the benchmark run in the guest failed (see $out/guest)"

# --- the table -------------------------------------------------------------------
# JMH's CSV: "Benchmark","Mode","Threads","Samples","Score","Score Error
# (99.9%)","Unit", then one column per parameter, in name order (size,
# transport).  rstream's lines: NAME BYTES XFERS ITERS TOTAL TIME GB/SEC
# USEC/XFER, where a ping-pong iteration is two transfers.
csv=$out/guest/jmh.csv base=$out/guest/rstream-baseline.txt
[ -s "$csv" ] && [ -s "$base" ] || die "the guest run left no $csv or $base"
awk -F, -v base="$base" '
    function unq(s) { gsub(/"/, "", s); return s }
    function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f", a / b) : "n/a" }
    BEGIN {
        while ((getline line < base) > 0) {
            if (line ~ /^#/) continue
            split(line, f, " ")
            c[f[1]] = (f[1] ~ /_bw_/) ? f[7] : 2 * f[8]   # Gb/s, or round trip in us
        }
    }
    { sub(/\r$/, "") }   # JMH ends its CSV lines with CR LF
    NR == 1 { for (i = 1; i <= NF; i++) col[unq($i)] = i; next }
    {
        b = unq($col["Benchmark"]); t = unq($col["Param: transport"]); score = unq($col["Score"])
        rows++
        if (b ~ /pingPong$/) { s = unq($col["Param: size"]); j["lat", s, t] = score }
        else j["bw", t] = score * 65536 * 8 / 1e9
    }
    END {
        # a benchmark that failed leaves its row out (JMH runs with -foe true)
        if (rows != 10) { print "expected 10 JMH results, got " rows > "/dev/stderr"; exit 1 }
        printf "| case | Java RDMA | C rstream RDMA | Java/C RDMA | Java TCP | C rstream TCP | Java/C TCP | Java RDMA/TCP |\n"
        printf "|---|---|---|---|---|---|---|---|\n"
        n = split("64 1024 32768 1048576", sizes, " ")
        split("64 1k 32k 1m", names, " ")
        for (i = 1; i <= n; i++) {
            s = sizes[i]; jr = j["lat", s, "rdma"]; jt = j["lat", s, "tcp"]
            cr = c[names[i] "_lat_rdma"]; ct = c[names[i] "_lat_tcp"]
            printf "| ping-pong %s B, round trip (us) | %.1f | %.1f | %s | %.1f | %.1f | %s | %s |\n", s, jr, cr, ratio(jr, cr), jt, ct, ratio(jt, ct), ratio(jr, jt)
        }
        jr = j["bw", "rdma"]; jt = j["bw", "tcp"]; cr = c["64k_bw_rdma"]; ct = c["64k_bw_tcp"]
        printf "| stream 64 KiB writes (Gb/s) | %.2f | %.2f | %s | %.2f | %.2f | %s | %s |\n", jr, cr, ratio(jr, cr), jt, ct, ratio(jt, ct), ratio(jr, jt)
    }' "$csv" > "$out/results.md" || die "no table from $csv (see above)"
{
    echo "# RDMA sockets benchmark, $(date -u +%Y-%m-%dT%H:%MZ), Soft-RoCE guest under QEMU TCG"
    echo
    echo "Java: JMH $class on $jdk; C: rstream from the same boot ($base)."
    echo "Ping-pong: the round trip, lower is better (a Java/C ratio above 1: Java is slower; Java RDMA/TCP"
    echo "below 1: RDMA is faster).  Stream: one-way throughput, higher is better (ratios the other way round)."
    echo "JMH's error bars are in $csv."
    echo
    cat "$out/results.md"
} > "$out/results.md.tmp" && mv "$out/results.md.tmp" "$out/results.md"
cat "$out/results.md"
