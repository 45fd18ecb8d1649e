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
# The direct I/O benchmark (make bench-directio): the JMH benchmark
# test/micro/.../DirectIOReads.java on the fork's JDK and on JDK 25 as
# shipped, with fio on the same file in the same run as the native limit,
# and the file's page-cache residency after every case.  Prints one table
# (also in build/bench-directio/results.md).
#
#   bench-directio.sh CONF_DIR JMH_DIR
#
# Environment:
#   BENCH_OPTS            extra JMH options, e.g. "-wi 1 -i 2 -w 1s -r 1s" for
#                         a smoke run (default: the class's 2 x 2 s warm-up,
#                         5 x 2 s measurement, 1 fork)
#   BENCH_FIO_RUNTIME     seconds fio measures per workload (default 10, after
#                         a 2 s ramp)
#   BENCH_FILE_MIB        size of the test file in MiB (default 1024)
#   BENCH_BASELINE_JDK    the upstream JDK 25 to compare with (default
#                         /usr/lib/jvm/temurin-25-jdk-amd64)
#   BENCH_DIR             where the file goes (default build/bench-directio/data);
#                         must not be tmpfs: its "direct" reads come from memory,
#                         and it has no RWF_DONTCACHE
#   BENCH_QD_ONLY=1       run only the queue-depth table (bench-directio-qd.sh)
#   BENCH_QD_SKIP=1       leave the queue-depth table out
#
# After its table it runs bench-directio-qd.sh, the queue-depth table (see its
# header for its own settings, BENCH_QD_*).
#
# The benchmark jar is built here with javac and JMH's annotation processor
# (JMH from configure's cache), not by upstream's microbenchmark build.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

conf=${1:?usage: bench-directio.sh CONF_DIR JMH_DIR}
jmh=${2:?usage: bench-directio.sh CONF_DIR JMH_DIR}
conf=$(cd "$conf" && pwd) || die "no $1"
jmh=$(cd "$jmh" && pwd) || die "no $2"
if [ "${BENCH_QD_ONLY:-}" = 1 ]; then
    exec "$(dirname "$0")/bench-directio-qd.sh" "$conf" "$jmh"
fi
fork_jdk=$conf/images/jdk
base_jdk=${BENCH_BASELINE_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=$RDIO_BUILD/bench-directio
data_dir=${BENCH_DIR:-$out/data}
file_mib=${BENCH_FILE_MIB:-1024}
fio_runtime=${BENCH_FIO_RUNTIME:-10}
fio_ramp=2
src=$RDIO_TOP/test/micro/org/openjdk/bench/java/nio/channels/DirectIOReads.java
class=org.openjdk.bench.java.nio.channels.DirectIOReads

[ -x "$fork_jdk/bin/java" ] || die "no JDK image at $fork_jdk: run make images first"
[ -x "$base_jdk/bin/java" ] || die "no baseline JDK at $base_jdk (set BENCH_BASELINE_JDK)"
command -v fio >/dev/null || die "fio is not installed: re-run bash configure (as root it installs it) or apt-get install fio"
command -v fincore >/dev/null || die "fincore is not installed: re-run bash configure or apt-get install util-linux-extra"
mkdir -p "$out" "$data_dir"

# --- the benchmark jar -------------------------------------------------------
jar=$out/benchmarks.jar
build_bench_jar "$fork_jdk" "$jmh" "$jar" "$src"

# --- the test file -------------------------------------------------------------
fstype=$(findmnt -n -o FSTYPE --target "$data_dir" 2>/dev/null || stat -f -c %T "$data_dir")
[ "$fstype" != tmpfs ] || die "$data_dir is on tmpfs, which reads from memory even with O_DIRECT and has no RWF_DONTCACHE: set BENCH_DIR"
file=$data_dir/directio-${file_mib}m.dat
if [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" != $((file_mib << 20)) ]; then
    note "writing $file ($file_mib MiB of random bytes)"
    dd if=/dev/urandom of="$file.tmp" bs=1M count="$file_mib" conv=fsync status=none || die "cannot write $file"
    mv "$file.tmp" "$file"
fi

# What each JDK says about the file's direct I/O alignment.
cat > "$out/Alignment.java" <<'EOF'
import java.nio.file.*;
public class Alignment {
    public static void main(String[] args) throws Exception {
        Path p = Path.of(args[0]);
        String s = "FileStore.getBlockSize() " + Files.getFileStore(p).getBlockSize();
        try {
            Object a = Class.forName("jdk.nio.DirectIO").getMethod("alignment", Path.class).invoke(null, p);
            s += ", jdk.nio.DirectIO.alignment() " + a;
        } catch (ClassNotFoundException e) {
            // JDK 25 as shipped
        }
        System.out.println(s);
    }
}
EOF
align_rdio=$("$fork_jdk/bin/java" "$out/Alignment.java" "$file" 2>&1 | tail -n1)
align_base=$("$base_jdk/bin/java" "$out/Alignment.java" "$file" 2>&1 | tail -n1)

drop_pages() {   # the whole file, as GNU dd documents for iflag=nocache count=0
    dd if="$file" iflag=nocache count=0 status=none
}
resident() {     # "N.N% (X MiB)" of the file in the page cache
    fincore -b -n -o RES,SIZE "$file" |
        awk '{ printf "%.1f%% (%.1f MiB)", $2 ? 100 * $1 / $2 : 0, $1 / 1048576 }'
}

# --- the run ---------------------------------------------------------------------
workloads=(RAND_4K RAND_512 SEQ_1M)
modes=(DIRECT BUFFERED_COLD DONTCACHE)
declare -A bs=([RAND_4K]=4k [RAND_512]=512 [SEQ_1M]=1m)
declare -A rw=([RAND_4K]=randread [RAND_512]=randread [SEQ_1M]=read)
declare -A bytes=([RAND_4K]=4096 [RAND_512]=512 [SEQ_1M]=1048576)
declare -A res   # res[jdk,workload,mode] = "median min max iterations" | n/a | refused | failed
declare -A cache # cache[jdk,workload,mode] = residency after the case
declare -A fio_res fio_cache # fio_res[workload] = "median min max windows"

log=$out/run.log
: > "$log"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$SECONDS
note "file $file ($fstype); fio ${fio_ramp}+${fio_runtime} s per workload; JMH options: ${BENCH_OPTS:-the defaults of the class}; log in $log"

# fio: psync, O_DIRECT, queue depth 1, one job, same file and pattern; its
# random map reads every block once per pass, as the benchmark does.  It
# logs its IOPS averaged over 2 s windows, the length of a JMH iteration;
# each window's mean time per read in µs goes to $out/fio-WORKLOAD.us.
run_fio() {   # WORKLOAD RUN
    local terse
    drop_pages
    rm -f "$out/fio-$1-$2"_iops.*.log
    terse=$(fio --name="$1" --filename="$file" --readonly --ioengine=psync --direct=1 \
        --rw="${rw[$1]}" --bs="${bs[$1]}" --iodepth=1 --numjobs=1 --size="${file_mib}m" \
        --randrepeat=0 --time_based --ramp_time="$fio_ramp" --runtime="$fio_runtime" \
        --write_iops_log="$out/fio-$1-$2" --log_avg_msec=2000 \
        --output-format=terse --terse-version=3 2>>"$log") ||
        die "fio failed for $1 (see $log)"
    echo "fio $1 $2: $terse" >> "$log"
    local windows
    windows=$(awk -F', *' '$2 > 0 { printf "%.3f\n", 1e6 / $2 }' "$out/fio-$1-$2"_iops.*.log 2>/dev/null || true)
    if [ -z "$windows" ]; then
        # A run shorter than one window: its overall IOPS (terse v3 field 8).
        windows=$(awk -F';' '$8 > 0 { printf "%.3f\n", 1e6 / $8 }' <<<"$terse")
    fi
    [ -n "$windows" ] || die "no fio result for $1 (see $log)"
    echo "$windows" >> "$out/fio-$1.us"
}

# The median, the smallest and the largest of the numbers on stdin.
summary() {
    sort -g | awk "$(cat "$RDIO_INFRA/bench/stats.awk")"'{ v[NR] = $1 } END {
        if (NR == 0) exit 1
        m = median(v, NR)
        printf "%.3f %.3f %.3f %d\n", m, v[1], v[NR], NR }'
}

for w in "${workloads[@]}"; do
    # fio runs before and after the Java cases of a workload, and the table
    # uses the mean of the two, so that a change in the machine's load
    # during the Java runs shows as a gap between them.
    rm -f "$out/fio-$w.us"
    run_fio "$w" before
    fio_cache[$w]=$(resident)

    # Each mode on both JDKs one after the other, so that a change in the
    # machine's load hits both alike.
    for m in "${modes[@]}"; do
        for jdk in rdio temurin; do
            home=$fork_jdk; [ $jdk = rdio ] || home=$base_jdk
            drop_pages
            csv=$out/jmh-$jdk-$w-$m.csv
            rm -f "$csv"
            echo "=== $jdk $w $m" >> "$log"
            # shellcheck disable=SC2086
            "$home/bin/java" -jar "$jar" "$class" -p workload="$w" -p mode="$m" \
                -jvmArgsAppend "--enable-native-access=ALL-UNNAMED -Drdio.bench.file=$file" -rf csv -rff "$csv" ${BENCH_OPTS:-} \
                >> "$log" 2>&1 || true
            section=$(awk -v h="=== $jdk $w $m" '$0 == h { on = 1; next } /^=== / { on = 0 } on' "$log")
            # The measurement iterations' scores, as JMH prints them.
            score=$(awk '/^Iteration +[0-9]+: +[0-9.]+ / { print $3 }' <<<"$section" | summary || true)
            if [ -n "$score" ] && [ "$(awk -F, 'NR == 2' "$csv" 2>/dev/null)" ]; then
                res[$jdk,$w,$m]=$score
            elif grep -q 'REFUSED: ' <<<"$section"; then
                res[$jdk,$w,$m]=refused
            elif grep -q 'N/A: ' <<<"$section"; then
                res[$jdk,$w,$m]=n/a
            else
                res[$jdk,$w,$m]=failed
            fi
            cache[$jdk,$w,$m]=$(resident)
            note "$w $m on $jdk: ${res[$jdk,$w,$m]} (cached after: ${cache[$jdk,$w,$m]})"
        done
    done
    run_fio "$w" after
    fio_res[$w]=$(summary < "$out/fio-$w.us")
    note "$w fio: ${fio_res[$w]} (median, min, max us/read, windows)"
done
elapsed=$((SECONDS - t0))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the table ---------------------------------------------------------------------
rate() {   # WORKLOAD US -> IOPS or MiB/s
    awk -v us="$2" -v b="${bytes[$1]}" 'BEGIN {
        if (b >= 1048576) printf "%.0f MiB/s", 1e6 / us * b / 1048576
        else printf "%.1fk IOPS", 1e3 / us }'
}
us_cell() {   # "median min max n" -> "median (min–max)"
    local med min max n
    read -r med min max n <<<"$1"
    printf '%.1f (%.1f–%.1f)' "$med" "$min" "$max"
}
cell() {   # JDK WORKLOAD MODE -> "µs | rate | ratio | cached"
    local r=${res[$1,$2,$3]}
    case $r in
        n/a|refused) printf '%s | | | ' "$r" ;;
        failed) printf 'failed | | | %s' "${cache[$1,$2,$3]}" ;;
        *) local us=${r%% *} fio=${fio_res[$2]%% *}
           printf '%s | %s | %s | %s' "$(us_cell "$r")" "$(rate "$2" "$us")" \
               "$(awk -v f="$fio" -v j="$us" 'BEGIN { printf "%.2f", f / j }')" "${cache[$1,$2,$3]}" ;;
    esac
}
jmh_settings=${BENCH_OPTS:-"-wi 2 -w 2s -i 5 -r 2s -f 1 (the class's defaults)"}
{
    echo "Direct I/O benchmark, $started, ${elapsed} s"
    echo
    echo "- machine: $(nproc) cores, $(uname -m), kernel $(uname -r), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM;" \
        "load average $load_start at the start, $load_end at the end (a shared machine: other jobs ran beside it)"
    echo "- file: $file, $file_mib MiB of random bytes, $fstype on $(df --output=source "$file" | tail -n1);" \
        "rdio: $align_rdio; JDK 25: $align_base"
    echo "- fio $(fio --version | sed 's/^fio-//'): ioengine=psync direct=1 iodepth=1 numjobs=1 randrepeat=0 (random map on)," \
        "ramp ${fio_ramp} s, runtime ${fio_runtime} s, rw=randread bs=4k/512 or rw=read bs=1m;" \
        "run before and after the Java cases of each workload, IOPS logged per 2 s window"
    echo "- JMH $(basename "$(echo "$jmh"/jmh-core-*.jar)" .jar | sed 's/jmh-core-//'): $class, AverageTime," \
        "1 thread, $jmh_settings; the file's pages are dropped before every iteration and every pass"
    echo "- rdio: $("$fork_jdk/bin/java" -version 2>&1 | sed -n 2p); JDK 25: $("$base_jdk/bin/java" -version 2>&1 | sed -n 2p)"
    echo "- µs = mean time per read in a window: a JMH measurement iteration (2 s unless BENCH_OPTS says otherwise) or 2 s of fio's IOPS log;" \
        "median over the windows with the fastest and slowest in brackets; rate = from the median;" \
        "x/fio = fio's median over Java's (fio: psync O_DIRECT, both its runs); cached = the file's pages in the" \
        "page cache after the case (fincore); JMH's own scores (means, with error) are in $out/jmh-*.csv"
    echo
    echo "| workload | mode | rdio µs | rdio rate | rdio/fio | rdio cached | JDK 25 µs | JDK 25 rate | JDK 25/fio | JDK 25 cached |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for w in "${workloads[@]}"; do
        echo "| $w | fio (psync, O_DIRECT) | $(us_cell "${fio_res[$w]}") | $(rate "$w" "${fio_res[$w]%% *}") | 1.00 | ${fio_cache[$w]} | | | | |"
        for m in "${modes[@]}"; do
            echo "| $w | $m | $(cell rdio "$w" "$m") | $(cell temurin "$w" "$m") |"
        done
    done
} | tee "$out/results.md"
note "table in $out/results.md, JMH output in $log"

if [ "${BENCH_QD_SKIP:-}" != 1 ]; then
    "$(dirname "$0")/bench-directio-qd.sh" "$conf" "$jmh"
fi
