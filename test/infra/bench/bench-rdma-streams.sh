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
# A classic Socket's streams against the socket channels, alternating in
# one boot of the Soft-RoCE guest (make bench-rdma-streams):
#
#   bench-rdma-streams.sh CONF_DIR JMH_DIR
#
# On the host it builds the JMH jar of RdmaChannels, starts the guest with
# this script as the --after script, and prints the table (also in
# build/bench-rdma-streams/results.md).  In the guest (SERVER_ADDR set) it
# runs STREAMS_REPS (5) repetitions, each one JMH fork of every case of
# RdmaChannels.pingPong (channels, direct buffers) and of
# RdmaChannels.socketPingPong (Socket streams, byte arrays) at 64 B and
# 1 KiB, over RDMA and TCP; odd repetitions run the channels first, even
# ones the streams.  The table gives, per case and percentile, the median
# over the repetitions with their range, and the ratio of the medians.
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    reps=${STREAMS_REPS:-5}
    run() { # REPETITION BENCHMARK
        "$JDK/bin/java" -jar "$OUT/benchmarks.jar" "RdmaChannels\\.$2\$" -f 1 -foe true -p size=64,1024 \
            -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR" \
            -rf csv -rff "$OUT/$2-$1.csv" > "$OUT/$2-$1.log" 2>&1 ||
            { echo "JMH failed in repetition $1: $(tail -n 3 "$OUT/$2-$1.log")"; exit 1; }
        echo "repetition $1: $2 done"
    }
    rm -f "$OUT"/*ingPong-*.csv "$OUT"/*ingPong-*.log
    for rep in $(seq "$reps"); do
        if [ $((rep % 2)) = 1 ]; then run "$rep" pingPong; run "$rep" socketPingPong
        else run "$rep" socketPingPong; run "$rep" pingPong; fi
    done
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -n "${1:-}" ] && [ -n "${2:-}" ] || die "usage: bench-rdma-streams.sh CONF_DIR JMH_DIR"
out=$RDIO_BUILD/bench-rdma-streams
run_rdma_channels_after "$1" "$2" "$RDIO_INFRA/bench/bench-rdma-streams.sh" "$out/guest" \
    "STREAMS_REPS=${STREAMS_REPS:-5}"

# JMH's CSV has a row per percentile (pingPong:p0.50) with the size and
# transport in its last columns.
awk -F, "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    {
        b = unq($col["Benchmark"])
        if (b ~ /[pP]ingPong:p0\.(50|90|99)$/)
            add((b ~ /socket/ ? "streams " : "channels ") unq($col["Param: transport"]) " " \
                unq($col["Param: size"]) " p" substr(b, length(b) - 1), unq($col["Score"]))
    }
    END {
        print "| transport | size | percentile | channels (us) | streams (us) | streams/channels |"
        print "|---|---|---|---|---|---|"
        split("rdma tcp", ts, " "); split("64 1024", sizes, " "); split("p50 p90 p99", ps, " ")
        for (t = 1; t <= 2; t++)
            for (s = 1; s <= 2; s++)
                for (q = 1; q <= 3; q++) {
                    k = ts[t] " " sizes[s] " " ps[q]
                    printf "| %s | %s B | %s | %s | %s | %s |\n", toupper(ts[t]), sizes[s], ps[q], \
                        cell("channels " k), cell("streams " k), ratio("streams " k, "channels " k)
                }
        printf "\nThe range of p50 over the %d repetitions, as a share of its median:\n\n", n["channels rdma 64 p50"]
        print "| transport | size | channels | streams |"
        print "|---|---|---|---|"
        for (t = 1; t <= 2; t++)
            for (s = 1; s <= 2; s++) {
                k = ts[t] " " sizes[s] " p50"
                printf "| %s | %s B | %s | %s |\n", toupper(ts[t]), sizes[s], spread("channels " k), spread("streams " k)
            }
    }' "$out"/guest/*ingPong-*.csv > "$out/results.md" || die "no table (see above)"
cat "$out/results.md"
