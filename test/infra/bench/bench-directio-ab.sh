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
# One direct I/O case of DirectIOReads (default: random 4 KiB DIRECT reads
# at queue depth 1) on the fork and on JDK 25 as shipped, in alternating
# rounds (the fork first in odd rounds, JDK 25 first in even ones), each
# JVM after a drop of the page cache.  Prints each run's median and, per
# JDK, the median of the run medians with their range, the median of the
# paired differences, and the difference the runs can resolve: twice the
# standard error of the difference of the two medians (1.25 sd / sqrt(n)
# for a median).  This is how doc/benchmarks-directio.md tells a real gap
# between the two JDKs from the noise of one make bench-directio run.
#
#   bench-directio-ab.sh CONF_DIR JMH_DIR
#
# Environment: BENCH_ROUNDS (default 8), BENCH_WORKLOAD (RAND_4K),
# BENCH_MODE (DIRECT), BENCH_OPTS (JMH options; default -f 1 -wi 2 -w 2s
# -i 5 -r 2s), BENCH_BASELINE_JDK and BENCH_DIR as for bench-directio.sh.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

conf=${1:?usage: bench-directio-ab.sh CONF_DIR JMH_DIR}
jmh=${2:?usage: bench-directio-ab.sh CONF_DIR JMH_DIR}
fork_jdk=$(cd "$conf" && pwd)/images/jdk
base_jdk=${BENCH_BASELINE_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=$RDIO_BUILD/bench-directio
data_dir=${BENCH_DIR:-$out/data}
rounds=${BENCH_ROUNDS:-8}
workload=${BENCH_WORKLOAD:-RAND_4K}
mode=${BENCH_MODE:-DIRECT}
opts=${BENCH_OPTS:--f 1 -wi 2 -w 2s -i 5 -r 2s}
class=org.openjdk.bench.java.nio.channels.DirectIOReads
[ -x "$fork_jdk/bin/java" ] || die "no JDK image at $fork_jdk: run make images first"
[ -x "$base_jdk/bin/java" ] || die "no baseline JDK at $base_jdk (set BENCH_BASELINE_JDK)"
[ "$(id -u)" = 0 ] || die "must run as root, to drop the page cache before each run"
mkdir -p "$out" "$data_dir"

jar=$out/benchmarks.jar
build_bench_jar "$fork_jdk" "$jmh" "$jar" "$RDIO_TOP/test/micro/org/openjdk/bench/java/nio/channels/DirectIOReads.java"
file=$data_dir/directio-1024m.dat
if [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" != $((1024 << 20)) ]; then
    note "writing $file (1 GiB of random bytes)"
    dd if=/dev/urandom of="$file.tmp" bs=1M count=1024 conv=fsync status=none || die "cannot write $file"
    mv "$file.tmp" "$file"
fi

runs=$out/ab-$workload-$mode.txt
: > "$runs"
note "$workload $mode, $rounds alternating rounds; runs in $runs"
for r in $(seq 1 "$rounds"); do
    order="rdio jdk25"
    [ $((r % 2)) = 1 ] || order="jdk25 rdio"
    for jdk in $order; do
        home=$fork_jdk; [ $jdk = rdio ] || home=$base_jdk
        sync
        echo 3 > /proc/sys/vm/drop_caches
        # shellcheck disable=SC2086
        scores=$("$home/bin/java" -jar "$jar" "$class" -p workload="$workload" -p mode="$mode" $opts \
                     -jvmArgsAppend "--enable-native-access=ALL-UNNAMED -Drdio.bench.file=$file" 2>&1 |
                 awk '/^Iteration +[0-9]+: +[0-9.]+ / { printf "%s ", $3 }')
        [ -n "$scores" ] || die "$jdk: JMH printed no iterations (run it by hand to see why)"
        echo "$r $jdk $scores" | tee -a "$runs"
    done
done

awk "$(cat "$RDIO_INFRA/bench/stats.awk")"'
{
    delete v; c = 0
    for (i = 3; i <= NF; i++) v[++c] = $i
    m = median(v, c); run[$2, ++cnt[$2]] = m; by[$1, $2] = m
    sum[$2] += m; sq[$2] += m * m
}
END {
    for (k = 1; k <= 2; k++) {
        jdk = (k == 1) ? "rdio" : "jdk25"; c = cnt[jdk]
        delete v; least = 1e18; most = 0
        for (i = 1; i <= c; i++) { v[i] = run[jdk, i]; if (v[i] < least) least = v[i]; if (v[i] > most) most = v[i] }
        med[jdk] = median(v, c)
        sd[jdk] = sqrt((sq[jdk] - sum[jdk] * sum[jdk] / c) / (c - 1))
        printf "%-6s median of %d run medians %.2f us/op (runs %.2f to %.2f, sd %.2f)\n", jdk, c, med[jdk], least, most, sd[jdk]
    }
    delete v; c = 0
    for (key in by) { split(key, p, SUBSEP); r[p[1]] = 1 }
    for (x in r) if (((x, "rdio") in by) && ((x, "jdk25") in by)) v[++c] = by[x, "rdio"] - by[x, "jdk25"]
    printf "paired difference rdio - jdk25: median %.2f us/op over %d rounds\n", median(v, c), c
    se = sqrt((1.25 * sd["rdio"]) ^ 2 / cnt["rdio"] + (1.25 * sd["jdk25"]) ^ 2 / cnt["jdk25"])
    printf "resolvable difference (2 standard errors): %.2f us/op, %.1f %% of the JDK 25 median\n", 2 * se, 200 * se / med["jdk25"]
}' "$runs" | tee "$out/ab-$workload-$mode.summary"
