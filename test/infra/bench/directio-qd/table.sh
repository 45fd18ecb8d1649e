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
# The table of bench-directio-qd.sh (which sources this file), from its
# samples.
#
#   qd_table    writes the table to $table, and how far each row's
#               repetitions spread to $spread_file
#   qd_report   prints the table under what was measured and how, and what
#               it can resolve, to $out/results-qd.md too

# "median min max n" of the numbers on stdin.
summary() {
    sort -g | awk "$(cat "$RDIO_INFRA/bench/stats.awk")"'{ v[NR] = $1 } END {
        if (NR == 0) exit 1
        m = median(v, NR)
        printf "%s %s %s %d\n", m, v[1], v[NR], NR }'
}
# Column COL (6 IOPS, 7 p50, 8 p99, 9 CPU, 10 context switches, 11
# hand-offs) of a row's good samples that have it.
column_of() {   # DEVICE OP QD ROW COL
    awk -v k="$1 $2 $3 $4" -v c="$5" 'index($0, k " ") == 1 && $6 != "failed" && $c != "" && $c != "nan" { print $c }' "$samples"
}
# The row's IOPS over fio io_uring's in the same repetition.
ratios_of() {   # DEVICE OP QD ROW
    awk -v a="$1 $2 $3 $4" -v b="$1 $2 $3 fio_uring" '
        $6 == "failed" { next }
        index($0, a " ") == 1 { x[$5] = $6 }
        index($0, b " ") == 1 { f[$5] = $6 }
        END { for (r in x) if (r in f && f[r] > 0) print x[r] / f[r] }' "$samples"
}
# "median (min–max)" with FORMAT for each number, or the median alone if
# there is one sample; nothing if there is none.
cell() {   # FORMAT "median min max n"
    local med min max n
    [ -n "$2" ] || return 0     # no sample has the column: a blank cell
    read -r med min max n <<<"$2"
    if [ "$n" = 1 ]; then
        awk -v f="$1" -v m="$med" 'BEGIN { printf f, m }'
    else
        awk -v f="$1" -v m="$med" -v a="$min" -v b="$max" 'BEGIN { printf f " (" f "–" f ")", m, a, b }'
    fi
}
iops_fmt() {  # "median min max n" -> "77.4k (70.0k–80.1k)"
    local med min max n
    read -r med min max n <<<"$1"
    awk -v m="$med" -v a="$min" -v b="$max" -v n="$n" 'function k(x) { return sprintf(x >= 1e5 ? "%.0fk" : "%.1fk", x / 1000) }
        BEGIN { if (n == 1) print k(m); else printf "%s (%s–%s)\n", k(m), k(a), k(b) }'
}
dev_name() {
    case $1 in ram) echo RAM ;; disk) echo disk ;; esac
}

qd_table() {
    spread_file=$work/spread.txt
    : > "$spread_file"
    table=$work/table.md
    {
        echo "| device | op | QD | engine | IOPS | p50 µs | p99 µs | CPU µs/I/O | ctx sw/I/O | hand-offs/I/O | IOPS / fio io_uring |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|"
        for dev in "${devices[@]}"; do
            for op in "${ops[@]}"; do
                for qd in "${depths[@]}"; do
                    for row in "${rows[@]}"; do
                        lbl=${label[$row]//QD/$qd}
                        [ "$qd" != 1 ] || { lbl=${lbl/threads/thread}; lbl=${lbl/1 jobs/1 job}; }
                        fails=$(awk -v k="$dev $op $qd $row" 'index($0, k " ") == 1 && $6 == "failed"' "$samples" | wc -l)
                        iops=$(column_of "$dev" "$op" "$qd" "$row" 6 | summary || true)
                        if [ -z "$iops" ]; then
                            echo "| $(dev_name "$dev") | $op | $qd | $lbl | failed ($fails of $reps) | | | | | | |"
                            continue
                        fi
                        [ "$fails" = 0 ] || lbl="$lbl; $fails of $reps runs failed"
                        awk -v s="$iops" 'BEGIN { split(s, v, " "); if (v[4] > 1 && v[1] > 0) print "iops", (v[3] - v[2]) / v[1] }' >> "$spread_file"
                        if [ "$row" = fio_uring ]; then
                            ratio=1
                        elif r=$(ratios_of "$dev" "$op" "$qd" "$row" | summary); then
                            ratio=$(cell "%.2f" "$r")
                            case $row in fio_*) ;; *)
                                awk -v s="$r" 'BEGIN { split(s, v, " "); if (v[4] > 1 && v[1] > 0) print "ratio", (v[3] - v[2]) / v[1] }' >> "$spread_file" ;;
                            esac
                        else
                            ratio=n/a
                        fi
                        echo "| $(dev_name "$dev") | $op | $qd | $lbl | $(iops_fmt "$iops")" \
                             "| $(cell "%.0f" "$(column_of "$dev" "$op" "$qd" "$row" 7 | summary)")" \
                             "| $(cell "%.0f" "$(column_of "$dev" "$op" "$qd" "$row" 8 | summary)")" \
                             "| $(cell "%.1f" "$(column_of "$dev" "$op" "$qd" "$row" 9 | summary)")" \
                             "| $(cell "%.2f" "$(column_of "$dev" "$op" "$qd" "$row" 10 | summary || true)")" \
                             "| $(cell "%.2f" "$(column_of "$dev" "$op" "$qd" "$row" 11 | summary || true)")" \
                             "| $ratio |"
                    done
                done
            done
        done
    } > "$table"
}

# What the table can resolve: how far the repetitions of one row spread.
resolution() {   # KIND -> "median p90 n" of (max - min) / median, in %
    awk -v k="$1" '$1 == k { print 100 * $2 }' "$spread_file" | sort -g |
        awk "$(cat "$RDIO_INFRA/bench/stats.awk")"'{ v[NR] = $1 } END { if (NR == 0) exit 1
            m = median(v, NR)
            p = v[int(0.9 * (NR - 1)) + 1]
            printf "%.0f %.0f %d\n", m, p, NR }'
}

qd_report() {
    if res_iops=$(resolution iops) && res_ratio=$(resolution ratio); then
        read -r ri_med ri_p90 ri_n <<<"$res_iops"
        read -r rr_med rr_p90 rr_n <<<"$res_ratio"
        resolves="Resolution: the $reps repetitions of one row spread (max − min over median) by $ri_med% in IOPS for the median row (90th percentile $ri_p90%, $ri_n rows);"
        resolves+=" the Java rows' ratios to fio io_uring, paired within a repetition, by $rr_med% (90th percentile $rr_p90%, $rr_n rows)."
        resolves+=" Two rows whose ranges overlap are not told apart; as a rule, differences in a ratio smaller than about $rr_med% are not resolved by this run."
    else
        resolves="Resolution: not computed (one repetition: no spread to judge it by); run with BENCH_QD_REPS of 5 or more."
    fi

    jdk_line() { "$1/bin/java" -version 2>&1 | sed -n 2p; }
    cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
    commit=$(git -C "$RDIO_TOP" rev-parse --short HEAD 2>/dev/null || echo '?')
    [ -z "$(git -C "$RDIO_TOP" status --porcelain 2>/dev/null)" ] || commit="$commit (with uncommitted changes)"
    {
        echo "Direct I/O queue depth, $started, $((elapsed / 60)) min $((elapsed % 60)) s"
        echo
        echo "- machine: $(nproc) cores ($cpu_model), $(uname -m), kernel $(uname -r)," \
             "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM;" \
             "load average $load_start at the start, $load_end at the end"
        echo "- devices (the table's device column):"
        for dev in "${devices[@]}"; do
            echo "  - $(dev_name "$dev") = ${dev_desc[$dev]}"
        done
        [ -z "$ram_note" ] || echo "  - $ram_note"
        echo "- every row reads or writes that device's one file: 4 KiB at uniformly random 4 KiB-aligned offsets, O_DIRECT;" \
             "writes overwrite it with random data (fio: its random buffers; Java: random bytes with a unique sequence number per write)"
        echo "- rdio: $(jdk_line "$fork_jdk") (work tree $commit), ${fork_io_uring:+run with -Djdk.nio.useIoUring=$fork_io_uring}${fork_io_uring:-the io_uring engine on, by default}; JDK 25: $(jdk_line "$base_jdk")"
        echo "- Java: $class (JMH $(basename "$(echo "$jmh"/jmh-core-*.jar)" .jar | sed 's/jmh-core-//'))," \
             "one JVM per row and repetition (-f 0), $warmup s warm-up, $seconds s measured; IOPS = JMH's score;" \
             "latency = nanoTime from the call that starts an I/O to its completion, p50/p99 of a 64-buckets-per-octave histogram;" \
             "CPU = the JVM's process CPU time (all threads) over the I/Os;" \
             "ctx sw = the JVM's voluntary and involuntary context switches (getrusage, all threads) over the I/Os;" \
             "hand-offs = the fork's count of I/Os or completions taken up by another thread (sun.nio.ch.IoHandoffs), blank for JDK 25; AFC = CompletionHandler chains, each re-issuing from completed()," \
             "on the default thread pool; FileChannel = read/write(buffer, position) on one shared channel"
        echo "- fio $(fio --version | sed 's/^fio-//'): --direct=1 --bs=4k --norandommap --randrepeat=0," \
             "--ioengine=io_uring --iodepth=QD --numjobs=1, or --ioengine=psync --numjobs=QD --group_reporting;" \
             "$fio_ramp s ramp, $seconds s measured; latency = fio's total latency (lat_ns, --lat_percentiles=1);" \
             "CPU = (usr_cpu + sys_cpu) of its jobs over the I/Os; ctx sw = its jobs' ctx over the I/Os"
        echo "- CPU time of kernel threads (the loop device's worker, interrupts) is in neither fio's nor Java's CPU column"
        echo "- $reps repetitions; in each, every row once, fio and Java interleaved per device, op and QD (order rotated each repetition);" \
             "cells: median over the repetitions (smallest–largest); IOPS / fio io_uring: the median of the ratios to fio io_uring" \
             "in the same repetition (smallest–largest); samples in $samples, output in $log"
        echo "- $resolves"
        echo
        cat "$table"
    } | tee "$out/results-qd.md"
}
