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
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

conf=${1:?usage: bench-rdma.sh CONF_DIR JMH_DIR JTREG_HOME}
jmh=${2:?usage: bench-rdma.sh CONF_DIR JMH_DIR JTREG_HOME}
jtreg=${3:?usage: bench-rdma.sh CONF_DIR JMH_DIR JTREG_HOME}
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
"$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --bench "$jar" --out "$out/guest" \
    --after "$RDIO_INFRA/bench/bench-rdma-netty.sh" -- \
    "^$class\\.(pingPong|stream)\$" ${BENCH_OPTS:-} || die "the benchmark run in the guest failed (see $out/guest)"

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
        # SampleTime gives a row per percentile (pingPong:p0.50) after the mean
        if (b ~ /pingPong.*p0\.(50|90|99)$/) {
            s = unq($col["Param: size"]); p = substr(b, length(b) - 1)
            j["lat" p, s, t] = score; rows++
        } else if (b ~ /stream$/) {
            j["bw", t] = score * 65536 * 8 / 1e9; err["bw", t] = unq($col["Score Error (99.9%)"]) * 65536 * 8 / 1e9
            rows++
        }
    }
    END {
        # a benchmark that failed leaves its rows out (JMH runs with -foe true)
        if (rows != 26) { print "expected 26 JMH results (3 percentiles of 8 ping-pongs, 2 streams), got " rows > "/dev/stderr"; exit 1 }
        printf "| case | Java RDMA p50 | p90 | p99 | C rstream RDMA | Java/C RDMA (p50) | Java TCP p50 | p90 | p99 | C rstream TCP | Java/C TCP (p50) | Java RDMA/TCP (p50) |\n"
        printf "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        n = split("64 1024 32768 1048576", sizes, " ")
        split("64 1k 32k 1m", names, " ")
        for (i = 1; i <= n; i++) {
            s = sizes[i]; jr = j["lat50", s, "rdma"]; jt = j["lat50", s, "tcp"]
            cr = c[names[i] "_lat_rdma"]; ct = c[names[i] "_lat_tcp"]
            printf "| ping-pong %s B, round trip (us) | %.1f | %.1f | %.1f | %.1f | %s | %.1f | %.1f | %.1f | %.1f | %s | %s |\n", s, jr, j["lat90", s, "rdma"], j["lat99", s, "rdma"], cr, ratio(jr, cr), jt, j["lat90", s, "tcp"], j["lat99", s, "tcp"], ct, ratio(jt, ct), ratio(jr, jt)
        }
        jr = j["bw", "rdma"]; jt = j["bw", "tcp"]; cr = c["64k_bw_rdma"]; ct = c["64k_bw_tcp"]
        printf "| stream 64 KiB writes (Gb/s, mean ± 99.9%% error) | %.2f ± %.2f | | | %.2f | %s | %.2f ± %.2f | | | %.2f | %s | %s |\n", jr, err["bw", "rdma"], cr, ratio(jr, cr), jt, err["bw", "tcp"], ct, ratio(jt, ct), ratio(jr, jt)
    }' "$csv" > "$out/results.md" || die "no table from $csv (see above)"

# Netty's echo example over transparent RDMA and over TCP, from the same
# boot (bench-rdma-netty.sh): the median and range of each figure.
netty=$out/guest/netty.txt
[ -s "$netty" ] || die "the guest run left no $netty"
awk "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    function stat(k,    n, v) {   # "median (min to max)" of list k
        n = split(vals[k], v, " ")
        med[k] = median(v, n)
        return sprintf("%.0f (%.0f to %.0f)", med[k], v[1], v[n])
    }
    {
        t = $1; runs[t]++
        for (i = 1; i < NF; i++) {
            if ($(i + 1) == "requests/s,") vals[t, "rps"] = vals[t, "rps"] " " $i
            if ($i == "p50" || $i == "p99") vals[t, $i] = vals[t, $i] " " $(i + 1)
            if ($i == "requests" && $(i + 1) == "of") what = $(i + 2) " B messages on " $(i + 5) " connections"
        }
    }
    END {
        printf "\n| Netty echo, %s, %d runs of each | RDMA median (range) | TCP median (range) | RDMA/TCP (medians) |\n", what, runs["rdma"]
        print "|---|---|---|---|"
        split("rps p50 p99", keys, " ")
        split("requests/s|round trip p50 (us)|round trip p99 (us)", names, "|")
        for (i = 1; i <= 3; i++) {
            r = stat("rdma" SUBSEP keys[i]); c = stat("tcp" SUBSEP keys[i])
            printf "| %s | %s | %s | %.2f |\n", names[i], r, c, med["rdma" SUBSEP keys[i]] / med["tcp" SUBSEP keys[i]]
        }
    }' "$netty" >> "$out/results.md" || die "no Netty table from $netty"

# Scale, in a second boot: the idle cost of blocked readers and the most
# connections one JVM holds, from the tests that check them, at the
# benchmark's sizes (1,000 readers of each kind; SCALE_CONNECTIONS).
connections=${SCALE_CONNECTIONS:-8000}
"$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg" --out "$out/scale" \
    --java-opts "-Drdio.rdma.idleVirtual=1000 -Drdio.rdma.idlePlatform=1000 -Drdio.rdma.connections=$connections" \
    --tests jdk/net/rdma/RdmaIdleCost.java jdk/net/rdma/RdmaManyConnections.java ||
    note "a scale test failed (see $out/scale); its figures show how far it got"
# the tests' output, from jtreg's result files on the guest's share
log=$out/scale/output.txt
cat "$out"/scale/JTwork/jdk/net/rdma/RdmaIdleCost.jtr \
    "$out"/scale/JTwork/jdk/net/rdma/RdmaManyConnections.jtr > "$log" 2>/dev/null
{
    echo
    echo "| scale | figure |"
    echo "|---|---|"
    awk '/ virtual readers blocked for / { printf "| idle CPU, 1,000 virtual threads blocked on 1,000 idle connections, 10 s | %s cores |\n", $(NF - 1) }
         / platform readers blocked for / { printf "| idle CPU, 1,000 platform threads blocked on 1,000 idle connections, 10 s | %s cores |\n", $(NF - 1) }' "$log"
    reached=$(awk '/ connected, / { n = $1 } / connections open, / { n = $1 } END { print n + 0 }' "$log")
    if grep -q -- "--- $connections connections passed" "$log"; then
        echo "| connections open at once in one JVM, each echoing | $reached of $connections (passed) |"
    else
        echo "| connections open at once in one JVM, each echoing | $reached of $connections before a failure ($(grep -m1 -- '--- .* connections FAILED' "$log" | sed 's/^--- //')) |"
    fi
} >> "$out/results.md"
{
    echo "# RDMA sockets benchmark, $(date -u +%Y-%m-%dT%H:%MZ), Soft-RoCE guest under QEMU TCG"
    echo
    echo "Java: JMH $class on $jdk; C: rstream from the same boot ($base)."
    echo "Ping-pong: the round trip's percentiles over 5 forks (JMH SampleTime), lower is better; rstream: the"
    echo "median of 3 runs (a Java/C ratio above 1: Java is slower; Java RDMA/TCP below 1: RDMA is faster)."
    echo "Stream: one-way throughput, higher is better (ratios the other way round).  All of JMH's rows: $csv."
    echo "Netty: its echo example server and a Netty client (bench-rdma-netty.sh), RDMA through a rules"
    echo "file, alternating with TCP in the JMH boot ($netty)."
    echo "Scale: RdmaIdleCost and RdmaManyConnections in a second boot ($out/scale/output.txt)."
    echo
    cat "$out/results.md"
} > "$out/results.md.tmp" && mv "$out/results.md.tmp" "$out/results.md"
cat "$out/results.md"
