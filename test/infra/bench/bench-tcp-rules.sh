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
# What TCP pays for the fork and for a rules file (make bench-tcp-rules):
# the JMH benchmark test/micro/.../java/nio/channels/SocketChannelLoopback
# over loopback in the Soft-RoCE guest, where RDMA is present and a rules
# file loads in full, on three sides in one boot:
#
#   jdk25  JDK 25 (BENCH_BASELINE_JDK, Temurin's by default)
#   fork   this JDK, no rules file
#   rules  this JDK with -Djdk.net.rdma.conf naming a file whose rules
#          (the RDMA device's address, and a TEST-NET peer) match none of
#          the benchmark's sockets
#
# and, as the C baseline, rsocket_pingpong's TCP mode (bench-rdma-c.sh)
# at the same sizes.  TCP_REPS (5) repetitions, each one JMH fork per benchmark
# and side; odd repetitions run jdk25, fork, rules, even ones the reverse.
#
#   bench-tcp-rules.sh CONF_DIR JMH_DIR
#
# The table (also in build/bench-tcp-rules/results.md) gives, per case,
# the median over the repetitions with their range, and each side's median
# over JDK 25's.
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    # in the guest: JDK, SERVER_ADDR, OUT and TCP_REPS; the baseline JDK's
    # path is in a file, since the guest passes no "/" in a value
    here=$(cd "$(dirname "$0")" && pwd)
    BASE_JDK=$(cat "$OUT/base-jdk")
    ulimit -n 65536     # 2,000 idle connections are 4,000 descriptors
    conf=/tmp/tcp-rules.conf
    printf '# matches none of the benchmark'"'"'s loopback sockets\nbind %s *\nconnect 192.0.2.1 *\n' \
        "$SERVER_ADDR" > "$conf"
    rm -f "$OUT"/tcp-*.csv "$OUT"/tcp-*.log
    run() {   # REPETITION SIDE
        local java=$JDK/bin/java opts=()
        case $2 in
            jdk25) java=$BASE_JDK/bin/java ;;
            rules) opts=(-jvmArgsAppend "-Djdk.net.rdma.conf=$conf") ;;
        esac
        "$java" -jar "$OUT/benchmarks.jar" 'SocketChannelLoopback' -f 1 -foe true "${opts[@]}" \
            -rf csv -rff "$OUT/tcp-$2-$1.csv" > "$OUT/tcp-$2-$1.log" 2>&1 ||
            { echo "JMH failed in repetition $1, side $2: $(tail -n 3 "$OUT/tcp-$2-$1.log")"; exit 1; }
        echo "repetition $1: $2 done"
    }
    for rep in $(seq "$TCP_REPS"); do
        # the C baseline: TCP to the guest's own address, which the kernel
        # routes over loopback as it does 127.0.0.1
        PINGPONG_MODES=tcp PINGPONG_SIZES=64,1024 PINGPONG_REPS=1 PINGPONG_FIRST=$rep \
            bash "$here/bench-rdma-c.sh" > "$OUT/c-pingpong.log" 2>&1 ||
            { echo "the C baseline failed: $(tail -n 3 "$OUT/c-pingpong.log")"; exit 1; }
        if [ $((rep % 2)) = 1 ]; then order="jdk25 fork rules"; else order="rules fork jdk25"; fi
        for side in $order; do run "$rep" "$side"; done
    done
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
conf=$(cd "${1:?usage: bench-tcp-rules.sh CONF_DIR JMH_DIR}" && pwd) || die "no $1"
jmh=$(cd "${2:?usage: bench-tcp-rules.sh CONF_DIR JMH_DIR}" && pwd) || die "no $2"
jdk=$conf/images/jdk
base_jdk=${BENCH_BASELINE_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images first"
[ -x "$base_jdk/bin/java" ] || die "no baseline JDK at $base_jdk (set BENCH_BASELINE_JDK)"
out=$RDIO_BUILD/bench-tcp-rules
mkdir -p "$out/guest"
jar=$out/benchmarks.jar
build_bench_jar "$jdk" "$jmh" "$jar" "$RDIO_TOP/test/micro/org/openjdk/bench/java/nio/channels/SocketChannelLoopback.java"
cp "$jar" "$out/guest/benchmarks.jar"
echo "$base_jdk" > "$out/guest/base-jdk"
"$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --after "$RDIO_INFRA/bench/bench-tcp-rules.sh" \
    --after-env "TCP_REPS=${TCP_REPS:-5}" --out "$out/guest" ||
    die "the run in the guest failed (see $out/guest/after.log)"

# rsocket_pingpong's line: "pingpong tcp block size SIZE rounds N p50 X p90 Y p99 Z ..."
awk -F, "$(cat "$RDIO_INFRA/bench/stats.awk")"'
    FILENAME ~ /pingpong\.txt$/ {
        split($0, f, " "); z = f[5]
        add("C pingPong " z " p50", f[9]); add("C pingPong " z " p90", f[11]); add("C pingPong " z " p99", f[13]); next
    }
    {
        bm = unq($col["Benchmark"]); sub(/.*SocketChannelLoopback\./, "", bm)
        z = unq($col["Param: size"]); if (z == "") z = unq($col["Param: idle"])
        side = FILENAME; sub(/.*tcp-/, "", side); sub(/-.*/, "", side)
        if (bm ~ /:p0\.(50|90|99)$/) {
            q = "p" substr(bm, length(bm) - 1); sub(/:.*/, "", bm)
            add(side " " bm " " z " " q, unq($col["Score"]))
        } else if (bm == "stream") {
            add(side " stream " z " MB/s", unq($col["Score"]) * 65536 / 1e6)
        }
    }
    END {
        print "| case | JDK 25 | fork | fork, rules file | fork / JDK 25 | rules / JDK 25 | C |"
        print "|---|---|---|---|---|---|---|"
        split("pingPong 64 p50,pingPong 64 p90,pingPong 64 p99,pingPong 1024 p50,pingPong 1024 p90,pingPong 1024 p99,stream  MB/s,selectOne 2000 p50,selectOne 2000 p90,selectOne 2000 p99", cs, ",")
        for (i = 1; i in cs; i++) {
            c = cs[i]; label = c; sub(/  /, " ", label)
            unit = (c ~ /MB\/s/) ? "" : " (us)"
            printf "| %s%s | %s | %s | %s | %s | %s | %s |\n", label, unit, cell("jdk25 " c), cell("fork " c),
                cell("rules " c), ratio("fork " c, "jdk25 " c), ratio("rules " c, "jdk25 " c), cell("C " c)
        }
        printf "\nThe range of each median over the repetitions, as a share of it (JDK 25, fork, rules):\n\n"
        for (i = 1; i in cs; i++) {
            c = cs[i]; label = c; sub(/  /, " ", label)
            printf "- %s: %s, %s, %s\n", label, spread("jdk25 " c), spread("fork " c), spread("rules " c)
        }
    }' "$out"/guest/pingpong.txt "$out"/guest/tcp-*.csv > "$out/results.md" || die "no table (see above)"
cat "$out/results.md"
