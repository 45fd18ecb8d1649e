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
# The runs of bench-directio-qd.sh's rows (which sources this file), one
# line each in $samples.
#
#   run_fio DEVICE OP QD ROW REP    fio, rows fio_uring and fio_psync
#   run_java DEVICE OP QD ROW REP   DirectIOQueueDepth in a JVM of its own
#   kiops DEVICE OP QD REP          a group's IOPS in one line

# One sample line: DEVICE OP QD ROW REP IOPS P50_US P99_US CPU_US_PER_IO
# CSW_PER_IO HANDOFFS_PER_IO, or the word failed in place of the numbers;
# nan for a count the row cannot give (hand-offs: the fork's rows only).
sample() {
    echo "$*" >> "$samples"
}

run_fio() {   # DEVICE OP QD ROW REP
    local dev=$1 op=$2 qd=$3 row=$4 rep=$5 json=$work/fio.json engine dir res
    if [ "$row" = fio_uring ]; then
        engine=(--ioengine=io_uring --iodepth="$qd" --numjobs=1)
    else
        engine=(--ioengine=psync --iodepth=1 --numjobs="$qd" --group_reporting)
    fi
    dir="read"; [ "$op" = randread ] || dir="write"
    echo "=== $dev $op QD$qd $row rep $rep: fio" >> "$log"
    if fio --name="qd$qd" --filename="${dev_file[$dev]}" --direct=1 --rw="$op" --bs=4k \
           --size="${dev_mib[$dev]}m" --norandommap --randrepeat=0 "${engine[@]}" \
           --time_based --ramp_time="${ramp_ms}ms" --runtime="${measure_ms}ms" \
           --lat_percentiles=1 --output-format=json --output="$json" >> "$log" 2>&1 &&
       res=$(jq -r --arg d "$dir" '.jobs[0] as $j | $j[$d] as $r
               | if ($r.total_ios // 0) > 0 then
                   [$r.iops, $r.lat_ns.percentile["50.000000"] / 1000, $r.lat_ns.percentile["99.000000"] / 1000,
                    ($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000 * 1e6 / $r.total_ios,
                    $j.ctx / $r.total_ios, "nan"]
                   | map(tostring) | join(" ")
                 else empty end' "$json" 2>>"$log") && [ -n "$res" ]; then
        sample "$dev $op $qd $row $rep $res"
        echo "$res" >> "$log"
    else
        sample "$dev $op $qd $row $rep failed"
    fi
}

run_java() {   # DEVICE OP QD ROW REP
    local dev=$1 op=$2 qd=$3 row=$4 rep=$5 home path csv=$work/jmh.csv side=$work/side.txt res
    local props=()
    home=$fork_jdk; [ "${row%%_*}" = rdio ] || home=$base_jdk
    # the fork's rows export the package whose counter of hand-offs the
    # benchmark reads, and set the engine's property only if asked to
    if [ "$home" = "$fork_jdk" ]; then
        props=(--add-exports=java.base/sun.nio.ch=ALL-UNNAMED)
        [ -z "$fork_io_uring" ] || props+=(-Djdk.nio.useIoUring="$fork_io_uring")
    fi
    path=${row#*_}
    rm -f "$csv" "$side"
    echo "=== $dev $op QD$qd $row rep $rep: $home ${props[*]}" >> "$log"
    if "$home/bin/java" --enable-native-access=ALL-UNNAMED "${props[@]}" -Drdio.bench.file="${dev_file[$dev]}" -Drdio.bench.qd.out="$side" \
           -jar "$jar" "$class" -p qd="$qd" -p path="$path" -p op="$op" \
           -f 0 -foe true -wi 1 -w "${warmup_ms}ms" -i 1 -r "${measure_ms}ms" \
           -rf csv -rff "$csv" >> "$log" 2>&1; then
        # JMH's score (IOPS) from its CSV, the rest from the benchmark's line.
        res=$(awk -F, 'NR == 2 { gsub(/"/, "", $5); print $5 }' "$csv" 2>/dev/null)
        res="$res $(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                        print v["p50_us"], v["p99_us"], v["cpu_us_per_io"], tolower(v["csw_per_io"]),
                              tolower(v["handoffs_per_io"]) }' "$side" 2>/dev/null)"
        if [[ $res =~ ^[0-9.]+\ [0-9.]+\ [0-9.]+\ [0-9.]+\ ([0-9.]+|nan)\ ([0-9.]+|nan)$ ]]; then
            sample "$dev $op $qd $row $rep $res"
            return
        fi
    fi
    sample "$dev $op $qd $row $rep failed"
}

# A group's IOPS in one line for the progress notes.
kiops() {   # DEVICE OP QD REP
    local r line=
    for r in "${rows[@]}"; do
        line+=" ${short[$r]} $(awk -v k="$1 $2 $3 $r $4" 'index($0, k " ") == 1 {
            if ($6 == "failed") print "failed"; else printf "%.1fk", $6 / 1000 }' "$samples")"
    done
    echo "${line# }"
}
