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
# Java's ping-pong against C's, alternating in one boot of the Soft-RoCE
# guest (make bench-rdma-pingpong):
#
#   bench-rdma-pingpong.sh CONF_DIR JMH_DIR
#
# On the host it builds the JMH jar of RdmaChannels, starts the guest with
# this script as the --after script, and prints the table (also in
# build/bench-rdma-pingpong/results.md).  In the guest (SERVER_ADDR set)
# it runs PINGPONG_REPS (5) repetitions, each one JMH fork of every
# pingPong case (4 sizes, RDMA and TCP; SampleTime, so every round trip
# is sampled) and one run of the C client of bench-rdma-c.sh at the same
# sizes (blocking, rpoll and spinning over rsockets, and TCP); odd
# repetitions run Java first, even ones C first.  The table
# gives, per size and percentile, the median over the repetitions and
# their range, and the ratio of the medians.  PINGPONG_SIZES (64,1024,
# 32768,1048576) narrows the sizes of both sides, and PINGPONG_JAVA_OPTS
# adds one JVM option to the Java side, e.g.
#
#   PINGPONG_SIZES=1048576 PINGPONG_JAVA_OPTS=-Djdk.net.rdma.spinMicros=5000 make bench-rdma-pingpong
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    reps=${PINGPONG_REPS:-5}
    java_side() {
        "$JDK/bin/java" -jar "$OUT/benchmarks.jar" 'RdmaChannels\.pingPong$' -f 1 -foe true \
            -p size="${PINGPONG_SIZES:-64,1024,32768,1048576}" \
            -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR${PINGPONG_JAVA_OPTS:+ $PINGPONG_JAVA_OPTS}" \
            -rf csv -rff "$OUT/jmh-$1.csv" > "$OUT/jmh-$1.log" 2>&1 ||
            { echo "JMH failed in repetition $1: $(tail -n 3 "$OUT/jmh-$1.log")"; exit 1; }
        echo "repetition $1: Java done"
    }
    c_side() {
        PINGPONG_REPS=1 PINGPONG_FIRST=$1 bash "$here/bench-rdma-c.sh" > "$OUT/c-$1.log" 2>&1 ||
            { echo "the C client failed in repetition $1: $(tail -n 3 "$OUT/c-$1.log")"; exit 1; }
        echo "repetition $1: C done"
    }
    rm -f "$OUT"/jmh-*.csv "$OUT"/jmh-*.log "$OUT"/c-*.log
    for rep in $(seq "$reps"); do
        if [ $((rep % 2)) = 1 ]; then java_side "$rep"; c_side "$rep"; else c_side "$rep"; java_side "$rep"; fi
    done
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -n "${1:-}" ] && [ -n "${2:-}" ] || die "usage: bench-rdma-pingpong.sh CONF_DIR JMH_DIR"
out=$RDIO_BUILD/bench-rdma-pingpong
env=("PINGPONG_REPS=${PINGPONG_REPS:-5}" "PINGPONG_SIZES=${PINGPONG_SIZES:-64,1024,32768,1048576}")
[ -z "${PINGPONG_JAVA_OPTS:-}" ] || env+=("PINGPONG_JAVA_OPTS=$PINGPONG_JAVA_OPTS")
run_rdma_channels_after "$1" "$2" "$RDIO_INFRA/bench/bench-rdma-pingpong.sh" "$out/guest" "${env[@]}"

# JMH's CSV has a row per percentile (pingPong:p0.50) with the size and
# transport in its last columns; the C client's lines are "pingpong
# TRANSPORT MODE size SIZE rounds N p50 X p90 Y p99 Z mean M us ARGS".
awk -F, "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    FILENAME ~ /\.csv$/ {
        b = unq($col["Benchmark"])
        if (b ~ /pingPong:p0\.(50|90|99)$/)
            add("java " unq($col["Param: transport"]) " " unq($col["Param: size"]) " p" substr(b, length(b) - 1), unq($col["Score"]))
        next
    }
    {
        m = split($0, f, " ")
        if (f[1] == "pingpong" && f[m] != "524288")
            for (i = 9; i <= 13; i += 2) add("c " f[2] " " f[3] " " f[5] " " f[i - 1], f[i])
    }
    END {
        print "| size | percentile | Java RDMA (us) | C RDMA, blocking | C RDMA, rpoll | C RDMA, spinning (as rstream) | Java/C blocking | Java/C rpoll | Java/C spinning | Java TCP | C TCP | Java/C TCP |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|"
        split("64 1024 32768 1048576", sizes, " ")
        for (s = 1; s <= 4; s++) {
            for (q = 1; q <= 3; q++) {
                pct = (q == 1) ? "p50" : (q == 2) ? "p90" : "p99"; z = sizes[s]
                jr = "java rdma " z " " pct; cb = "c rdma block " z " " pct; cs = "c rdma spin " z " " pct
                cp = "c rdma poll " z " " pct; jt = "java tcp " z " " pct; ct = "c tcp block " z " " pct
                printf "| %s B | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", z, pct, cell(jr), cell(cb), cell(cp), cell(cs), ratio(jr, cb), ratio(jr, cp), ratio(jr, cs), cell(jt), cell(ct), ratio(jt, ct)
            }
        }
        # Resolution: the range of the p50 of each side over the repetitions, as
        # a share of its median.  Two sides whose ranges do not overlap
        # differ in every one of the alternating repetitions.
        for (s = 1; s <= 4; s++) if (n["java rdma " sizes[s] " p50"] > reps) reps = n["java rdma " sizes[s] " p50"]
        printf "\nThe range of p50 over the %d repetitions, as a share of its median:\n\n", reps
        print "| size | Java RDMA | C RDMA, blocking | C RDMA, rpoll | C RDMA, spinning | Java TCP | C TCP |"
        print "|---|---|---|---|---|---|---|"
        for (s = 1; s <= 4; s++) {
            z = sizes[s]; line = "| " z " B"
            split("java rdma|c rdma block|c rdma poll|c rdma spin|java tcp|c tcp block", sides, "|")
            for (k = 1; k <= 6; k++) {
                key = sides[k] " " z " p50"
                line = line " | " spread(key)
            }
            print line " |"
        }
    }' "$out"/guest/jmh-*.csv "$out/guest/pingpong.txt" > "$out/results.md" || die "no table (see above)"
cat "$out/results.md"
