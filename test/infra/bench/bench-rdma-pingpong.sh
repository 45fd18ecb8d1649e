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
# guest (make bench-rdma-pingpong), or across the link of two guests
# (make bench-rdma-pingpong-pair):
#
#   bench-rdma-pingpong.sh [--pair] CONF_DIR JMH_DIR
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
#
# --pair runs the same repetitions with the clients in guest A of
# rdma-pair.sh and the servers in guest B, across the link: Java's
# against RdmaChannels' echo server (its main, a JVM started in B for
# each repetition, -Drdio.rdma.remote on the client), C's against the C
# server.  Its table (build/bench-rdma-pingpong-pair/results.md) puts the
# two-guest row of each size and percentile (p50, p99) beside the
# one-kernel row of the last make bench-rdma-pingpong, whose results it
# reads from build/bench-rdma-pingpong/guest; with none there, it runs
# that first, in the same invocation.
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    # shellcheck source=pair-agent.sh
    . "$here/pair-agent.sh"
    reps=${PINGPONG_REPS:-5}
    jar=$OUT/benchmarks.jar
    in_pair && jar=$(dirname "$OUT")/benchmarks.jar
    # In a pair, the echo server of RdmaChannels.main runs in guest B, in a
    # JVM of its own per repetition (C2 only, as here); sets where, the
    # client's option naming it, and remote, its process id.
    remote_server() {   # REPETITION
        local port=$((7000 + 10 * $1)) log=/results/java-echo-$1.log
        where=-Drdio.rdma.remote=$SERVER_ADDR:$port
        remote=$(agent spawn "$log" "$JDK/bin/java" -XX:-TieredCompilation -cp "$jar" \
                     org.openjdk.bench.jdk.net.RdmaChannels "$SERVER_ADDR" "$port") &&
            agent_wait 120 grep -q "'^serving TCP'" "$log" ||
            { echo "no Java echo server in guest B in repetition $1: $(agent cat "$log" | tail -n 3)"; exit 1; }
    }
    java_side() {
        local where=-Drdio.rdma.server=$SERVER_ADDR remote=
        ! in_pair || remote_server "$1"
        "$JDK/bin/java" -jar "$jar" 'RdmaChannels\.pingPong$' -f 1 -foe true \
            -p size="${PINGPONG_SIZES:-64,1024,32768,1048576}" \
            -jvmArgsAppend "$where${PINGPONG_JAVA_OPTS:+ $PINGPONG_JAVA_OPTS}" \
            -rf csv -rff "$OUT/jmh-$1.csv" > "$OUT/jmh-$1.log" 2>&1 ||
            { echo "JMH failed in repetition $1: $(tail -n 3 "$OUT/jmh-$1.log")"; exit 1; }
        [ -z "$remote" ] || agent kill "$remote" > /dev/null
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
pair=
[ "${1:-}" != --pair ] || { pair=1; shift; }
[ -n "${1:-}" ] && [ -n "${2:-}" ] || die "usage: bench-rdma-pingpong.sh [--pair] CONF_DIR JMH_DIR"
one=$RDIO_BUILD/bench-rdma-pingpong
env=("PINGPONG_REPS=${PINGPONG_REPS:-5}" "PINGPONG_SIZES=${PINGPONG_SIZES:-64,1024,32768,1048576}")
[ -z "${PINGPONG_JAVA_OPTS:-}" ] || env+=("PINGPONG_JAVA_OPTS=$PINGPONG_JAVA_OPTS")
if [ -z "$pair" ] || [ ! -s "$one/guest/pingpong.txt" ]; then
    [ -z "$pair" ] || note "no one-kernel results in $one/guest: running make bench-rdma-pingpong's boot first"
    run_rdma_channels_after "$1" "$2" "$RDIO_INFRA/bench/bench-rdma-pingpong.sh" "$one/guest" "${env[@]}"
fi
files=(where=one "$one"/guest/jmh-*.csv "$one/guest/pingpong.txt")
out=$one
if [ -n "$pair" ]; then
    note "the one-kernel rows: $one/guest, of $(date -r "$one/guest/pingpong.txt" '+%F %R')"
    out=$RDIO_BUILD/bench-rdma-pingpong-pair
    run_rdma_channels_after --pair "$1" "$2" "$RDIO_INFRA/bench/bench-rdma-pingpong.sh" "$out/pair" "${env[@]}"
    files+=(where=two "$out"/pair/a/jmh-*.csv "$out/pair/a/pingpong.txt")
fi

# JMH's CSV has a row per percentile (pingPong:p0.50) with the size and
# transport in its last columns; the C client's lines are "pingpong
# TRANSPORT MODE size SIZE rounds N p50 X p90 Y p99 Z mean M us ARGS".
# Keys start with where (one: one kernel, two: two guests).  With
# --pair, a row per size, percentile (p50, p99) and where; else a row per
# size and percentile (p50, p90, p99) of the one kernel.
awk -F, -v pair="$pair" "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    FILENAME ~ /\.csv$/ {
        b = unq($col["Benchmark"])
        if (b ~ /pingPong:p0\.(50|90|99)$/)
            add(where " java " unq($col["Param: transport"]) " " unq($col["Param: size"]) " p" substr(b, length(b) - 1), unq($col["Score"]))
        next
    }
    {
        m = split($0, f, " ")
        if (f[1] == "pingpong" && f[m] != "524288")
            for (i = 9; i <= 13; i += 2) add(where " c " f[2] " " f[3] " " f[5] " " f[i - 1], f[i])
    }
    END {
        split("64 1024 32768 1048576", sizes, " ")
        np = split(pair ? "p50 p99" : "p50 p90 p99", pcts, " ")
        nw = split(pair ? "one two" : "one", wheres, " ")
        label["one"] = "one kernel"; label["two"] = "two guests"
        print "| size | percentile | " (pair ? "where | " : "") "Java RDMA (us) | C RDMA, blocking | C RDMA, rpoll | C RDMA, spinning (as rstream) | Java/C blocking | Java/C rpoll | Java/C spinning | Java TCP | C TCP | Java/C TCP |"
        print "|---|---|" (pair ? "---|" : "") "---|---|---|---|---|---|---|---|---|---|"
        for (s = 1; s <= 4; s++) {
            for (q = 1; q <= np; q++) {
                for (w = 1; w <= nw; w++) {
                    pct = pcts[q]; z = sizes[s]; k = wheres[w] " "
                    jr = k "java rdma " z " " pct; cb = k "c rdma block " z " " pct; cs = k "c rdma spin " z " " pct
                    cp = k "c rdma poll " z " " pct; jt = k "java tcp " z " " pct; ct = k "c tcp block " z " " pct
                    printf "| %s B | %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", z, pct, (pair ? label[wheres[w]] " | " : ""), cell(jr), cell(cb), cell(cp), cell(cs), ratio(jr, cb), ratio(jr, cp), ratio(jr, cs), cell(jt), cell(ct), ratio(jt, ct)
                }
            }
        }
        if (pair) {
            print "\nTwo guests against one kernel: the ratio of the medians of p50 and of p99:\n"
            print "| size | percentile | Java RDMA | C RDMA, blocking | C RDMA, rpoll | C RDMA, spinning | Java TCP | C TCP |"
            print "|---|---|---|---|---|---|---|---|"
            split("java rdma|c rdma block|c rdma poll|c rdma spin|java tcp|c tcp block", sides, "|")
            for (s = 1; s <= 4; s++)
                for (q = 1; q <= np; q++) {
                    line = "| " sizes[s] " B | " pcts[q]
                    for (k = 1; k <= 6; k++)
                        line = line " | " ratio("two " sides[k] " " sizes[s] " " pcts[q], "one " sides[k] " " sizes[s] " " pcts[q])
                    print line " |"
                }
        }
        # Resolution: the range of the p50 of each side over the repetitions, as
        # a share of its median.  Two sides whose ranges do not overlap
        # differ in every one of the alternating repetitions.
        for (w = 1; w <= nw; w++) {
            reps = 0
            for (s = 1; s <= 4; s++) if (n[wheres[w] " java rdma " sizes[s] " p50"] > reps) reps = n[wheres[w] " java rdma " sizes[s] " p50"]
            printf "\nThe range of p50 over the %d repetitions%s, as a share of its median:\n\n", reps, (pair ? " (" label[wheres[w]] ")" : "")
            print "| size | Java RDMA | C RDMA, blocking | C RDMA, rpoll | C RDMA, spinning | Java TCP | C TCP |"
            print "|---|---|---|---|---|---|---|"
            for (s = 1; s <= 4; s++) {
                z = sizes[s]; line = "| " z " B"
                split("java rdma|c rdma block|c rdma poll|c rdma spin|java tcp|c tcp block", sides, "|")
                for (k = 1; k <= 6; k++) {
                    key = wheres[w] " " sides[k] " " z " p50"
                    line = line " | " spread(key)
                }
                print line " |"
            }
        }
    }' "${files[@]}" > "$out/results.md" || die "no table (see above)"
cat "$out/results.md"
