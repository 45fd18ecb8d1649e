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
# Java's RDMA ping-pong under two JVM options, alternating in one boot of
# the Soft-RoCE guest (make bench-rdma-ab):
#
#   AB_A=OPTION AB_B=OPTION [AB_JDK_B=JDK_HOME] [AB_SIZES=64,1024] [AB_REPS=5] \
#       bench-rdma-ab.sh CONF_DIR JMH_DIR
#
# AB_A and AB_B are one JVM option each (either may be empty, for the
# defaults), such as -Djdk.net.rdma.waitMode=poller or
# -Drdio.rdma.inline=0.  AB_JDK_B, another JDK image (say, one built from
# the commit before a change), runs side B in place of the image of
# CONF_DIR; it is copied to the guest's share.  In the guest (SERVER_ADDR set) it runs AB_REPS
# repetitions, each one JMH fork of RdmaChannels.pingPong over RDMA per
# size and side; odd repetitions run A first, even ones B.  The table
# (also in build/bench-rdma-ab/results.md) gives, per size and
# percentile, the median over the repetitions with their range, and B/A.
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    run() { # REPETITION SIDE OPTION
        java=$JDK/bin/java
        [ "$2" = A ] || [ ! -x "$OUT/jdk-b/bin/java" ] || java=$OUT/jdk-b/bin/java
        "$java" -jar "$OUT/benchmarks.jar" 'RdmaChannels\.pingPong$' -f 1 -foe true \
            -p transport=rdma -p size="$AB_SIZES" -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR $3" \
            -rf csv -rff "$OUT/ab-$2-$1.csv" > "$OUT/ab-$2-$1.log" 2>&1 ||
            { echo "JMH failed in repetition $1, side $2: $(tail -n 3 "$OUT/ab-$2-$1.log")"; exit 1; }
        echo "repetition $1: $2 ($3) done"
    }
    rm -f "$OUT"/ab-*.csv "$OUT"/ab-*.log
    for rep in $(seq "$AB_REPS"); do
        if [ $((rep % 2)) = 1 ]; then run "$rep" A "$AB_A"; run "$rep" B "$AB_B"
        else run "$rep" B "$AB_B"; run "$rep" A "$AB_A"; fi
    done
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -n "${1:-}" ] && [ -n "${2:-}" ] || die "usage: AB_A=OPTION AB_B=OPTION bench-rdma-ab.sh CONF_DIR JMH_DIR"
[ -n "${AB_B:-}${AB_JDK_B:-}" ] ||
    die "neither AB_B (a JVM option, such as -Djdk.net.rdma.waitMode=poller) nor AB_JDK_B is set"
out=$RDIO_BUILD/bench-rdma-ab
rm -rf "$out/guest/jdk-b"
if [ -n "${AB_JDK_B:-}" ]; then
    [ -x "$AB_JDK_B/bin/java" ] || die "AB_JDK_B: no JDK image at $AB_JDK_B"
    mkdir -p "$out/guest" && cp -a "$AB_JDK_B" "$out/guest/jdk-b" || die "cannot copy $AB_JDK_B"
fi
run_rdma_channels_after "$1" "$2" "$RDIO_INFRA/bench/bench-rdma-ab.sh" "$out/guest" \
    "AB_A=${AB_A:-}" "AB_B=${AB_B:-}" "AB_SIZES=${AB_SIZES:-64,1024}" "AB_REPS=${AB_REPS:-5}"

awk -F, -v a="${AB_A:-(defaults)}" -v b="${AB_B:-(defaults)}${AB_JDK_B:+ on $AB_JDK_B}" "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    {
        bm = unq($col["Benchmark"]); z = unq($col["Param: size"])
        if (bm ~ /pingPong:p0\.(50|90|99)$/) {
            side = FILENAME; sub(/.*ab-/, "", side); side = substr(side, 1, 1)
            add(side " " z " p" substr(bm, length(bm) - 1), unq($col["Score"]))
            if (!(z in seen)) { seen[z] = 1; sizes[++ns] = z }
        }
    }
    END {
        printf "A: %s; B: %s\n\n", a, b
        print "| size | percentile | A (us) | B (us) | B/A |"
        print "|---|---|---|---|---|"
        split("p50 p90 p99", ps, " ")
        for (s = 1; s <= ns; s++)
            for (q = 1; q <= 3; q++) {
                k = sizes[s] " " ps[q]
                printf "| %s B | %s | %s | %s | %s |\n", sizes[s], ps[q], cell("A " k), cell("B " k), ratio("B " k, "A " k)
            }
        printf "\nThe range of p50 over the repetitions, as a share of its median:\n\n"
        print "| size | A | B |"
        print "|---|---|---|"
        for (s = 1; s <= ns; s++)
            printf "| %s B | %s | %s |\n", sizes[s], spread("A " sizes[s] " p50"), spread("B " sizes[s] " p50")
    }' "$out"/guest/ab-*.csv > "$out/results.md" || die "no table (see above)"
cat "$out/results.md"
