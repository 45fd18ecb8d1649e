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
# The queue-depth table of make bench-directio: 4 KiB random direct reads
# and writes at queue depths 1, 4, 16 and 64 through the JMH benchmark
# test/micro/.../DirectIOQueueDepth.java (AsynchronousFileChannel,
# FileChannel from virtual threads, FileChannel from platform threads), on
# the fork's JDK and on JDK 25 as shipped, against fio with io_uring
# (--iodepth=QD, one job) and with psync (QD jobs), on two devices: a
# RAM-backed block device and the machine's disk.  Prints one table (also in
# build/bench-directio/results-qd.md).
#
#   bench-directio-qd.sh CONF_DIR JMH_DIR
#
# Every cell is measured BENCH_QD_REPS times.  A repetition runs every row
# once: for each device, op and queue depth, the eight rows one after the
# other (fio and Java interleaved, the order rotated by one row in each
# repetition), so a change in the machine's load hits all rows alike.  One
# JVM runs one row (JMH -f 0: the JVM started here is the one measured,
# with one warm-up and one measurement iteration), one fio process the
# other rows.  The table gives the median of the repetitions with the
# smallest and largest in brackets, and for the Java rows and fio psync the
# ratio of their IOPS to fio io_uring's in the same repetition.
#
# Devices (BENCH_QD_DEVICES, default "ram disk"):
#   ram   ext4 on a RAM-backed block device made here: brd (/dev/ram0) if
#         modprobe brd works and brd was not loaded before, otherwise a
#         loop device over a file on a tmpfs mounted under
#         build/bench-directio/qd/ram; released on every exit, and what a
#         killed run left is released at the start.  Needs root; without
#         it the device is left out with a note in the table.
#   disk  a file in build/bench-directio/data (BENCH_DIR), on the file
#         system of the work tree (not tmpfs), written once and reused.
# The file of each device is read and written by every row: random writes
# overwrite it with random bytes, so it stays a file of random bytes.
#
# Environment:
#   BENCH_QD_REPS           repetitions of every cell (default 5)
#   BENCH_QD_SECONDS        seconds measured per row and repetition (default
#                           1.5; decimals allowed)
#   BENCH_QD_WARMUP         seconds of JMH warm-up per Java row (default 1)
#   BENCH_QD_FIO_RAMP       seconds of fio ramp before it measures (default 0.5)
#   BENCH_QD_DEPTHS         queue depths (default "1 4 16 64")
#   BENCH_QD_OPS            operations (default "randread randwrite")
#   BENCH_QD_DEVICES        devices (default "ram disk")
#   BENCH_QD_FILE_MIB       size of the disk's file in MiB (default 1024)
#   BENCH_QD_RAM_FILE_MIB   size of the RAM device's file in MiB (default 1024)
#   BENCH_QD_RAM            auto (brd if possible, else loop over tmpfs) or loop
#   BENCH_QD_IO_URING       -Djdk.nio.useIoUring for the fork's rows (default true: the
#                           engine is off by default, and these rows measure it)
#   BENCH_BASELINE_JDK      the upstream JDK 25 (default
#                           /usr/lib/jvm/temurin-25-jdk-amd64)
#   BENCH_DIR               where the disk's file goes (default
#                           build/bench-directio/data)
#
# The benchmark jar is built here with javac and JMH's annotation processor
# (JMH from configure's cache), as bench-directio.sh builds its own.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

conf=${1:?usage: bench-directio-qd.sh CONF_DIR JMH_DIR}
jmh=${2:?usage: bench-directio-qd.sh CONF_DIR JMH_DIR}
conf=$(cd "$conf" && pwd) || die "no $1"
jmh=$(cd "$jmh" && pwd) || die "no $2"
fork_jdk=$conf/images/jdk
fork_io_uring=${BENCH_QD_IO_URING:-true}
base_jdk=${BENCH_BASELINE_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=$RDIO_BUILD/bench-directio
work=$out/qd
data_dir=${BENCH_DIR:-$out/data}
reps=${BENCH_QD_REPS:-5}
seconds=${BENCH_QD_SECONDS:-1.5}
warmup=${BENCH_QD_WARMUP:-1}
fio_ramp=${BENCH_QD_FIO_RAMP:-0.5}
read -r -a depths <<<"${BENCH_QD_DEPTHS:-1 4 16 64}"
read -r -a ops <<<"${BENCH_QD_OPS:-randread randwrite}"
read -r -a devices <<<"${BENCH_QD_DEVICES:-ram disk}"
disk_mib=${BENCH_QD_FILE_MIB:-1024}
ram_mib=${BENCH_QD_RAM_FILE_MIB:-1024}
ram_kind=${BENCH_QD_RAM:-auto}
src=$RDIO_TOP/test/micro/org/openjdk/bench/java/nio/channels/DirectIOQueueDepth.java
class=org.openjdk.bench.java.nio.channels.DirectIOQueueDepth

# --- settings and what the host must provide -------------------------------------
is_number() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "BENCH_QD_REPS must be a positive integer, not '$reps'"
for v in "$seconds" "$warmup" "$fio_ramp"; do
    is_number "$v" || die "BENCH_QD_SECONDS, BENCH_QD_WARMUP and BENCH_QD_FIO_RAMP must be numbers of seconds, not '$v'"
done
millis() { awk -v s="$1" 'BEGIN { printf "%d", s * 1000 + 0.5 }'; }
measure_ms=$(millis "$seconds")
warmup_ms=$(millis "$warmup")
ramp_ms=$(millis "$fio_ramp")
[ "$measure_ms" -ge 100 ] || die "BENCH_QD_SECONDS must be at least 0.1"
if [ "${#depths[@]}" = 0 ] || [ "${#ops[@]}" = 0 ] || [ "${#devices[@]}" = 0 ]; then
    die "BENCH_QD_DEPTHS, BENCH_QD_OPS and BENCH_QD_DEVICES must not be empty"
fi
for q in "${depths[@]}"; do [[ $q =~ ^[1-9][0-9]*$ ]] || die "queue depth '$q' is not a positive integer"; done
for o in "${ops[@]}"; do
    case $o in randread|randwrite) ;; *) die "op '$o' is neither randread nor randwrite" ;; esac
done
for d in "${devices[@]}"; do
    case $d in ram|disk) ;; *) die "device '$d' is neither ram nor disk" ;; esac
done
for m in "$disk_mib" "$ram_mib"; do [[ $m =~ ^[1-9][0-9]*$ ]] || die "file sizes must be positive MiB, not '$m'"; done
case $ram_kind in auto|loop) ;; *) die "BENCH_QD_RAM must be auto or loop, not '$ram_kind'" ;; esac

[ -x "$fork_jdk/bin/java" ] || die "no JDK image at $fork_jdk: run make images first"
[ -x "$base_jdk/bin/java" ] || die "no baseline JDK at $base_jdk (set BENCH_BASELINE_JDK)"
command -v fio >/dev/null || die "fio is not installed: re-run bash configure (as root it installs it) or apt-get install fio"
command -v jq >/dev/null || die "jq is not installed (it reads fio's JSON output): apt-get install jq"
fio --enghelp=io_uring >/dev/null 2>&1 || die "this fio has no io_uring engine (fio --enghelp=io_uring)"
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 2 ]; then
    die "io_uring is disabled on this machine (/proc/sys/kernel/io_uring_disabled = 2)"
fi
mkdir -p "$out" "$work" "$data_dir"

# --- the benchmark jar -------------------------------------------------------
jar=$out/benchmarks-qd.jar
build_bench_jar "$fork_jdk" "$jmh" "$jar" "$src"

log=$work/run.log
samples=$work/samples.txt
: > "$log"
: > "$samples"

# Writes FILE (MIB MiB of random bytes), unless it has that size already.
make_file() {   # FILE MIB
    if [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" != $(($2 << 20)) ]; then
        note "writing $1 ($2 MiB of random bytes)"
        dd if=/dev/urandom of="$1.tmp" bs=1M count="$2" conv=fsync status=none || die "cannot write $1"
        mv "$1.tmp" "$1"
    fi
}

# --- the RAM device ------------------------------------------------------------
ram=$work/ram
ram_note=
brd_loaded=
# Unmounts and detaches whatever this script made under $ram (also what a
# killed run left): the ext4, then the loop device, then the tmpfs under
# it; unloads brd if this run loaded it, and removes the directories.
release() {
    local dev file
    if mountpoint -q "$ram/mnt"; then
        umount "$ram/mnt" 2>/dev/null || umount --lazy "$ram/mnt" || echo "$RDIO_PROG: cannot unmount $ram/mnt" >&2
    fi
    if command -v losetup >/dev/null; then
        while read -r dev file; do
            case $file in
                "$ram"/*) losetup -d "$dev" || echo "$RDIO_PROG: cannot detach $dev ($file)" >&2 ;;
            esac
        done < <(losetup --noheadings --list --output NAME,BACK-FILE 2>/dev/null)
    fi
    if mountpoint -q "$ram/tmpfs"; then
        umount "$ram/tmpfs" 2>/dev/null || umount --lazy "$ram/tmpfs" || echo "$RDIO_PROG: cannot unmount $ram/tmpfs" >&2
    fi
    if [ -n "$brd_loaded" ]; then
        rmmod brd 2>/dev/null || echo "$RDIO_PROG: cannot unload brd" >&2
        brd_loaded=
    fi
    if ! findmnt -rn -o TARGET | awk -v p="$ram/" 'index($0, p) == 1 { found = 1 } END { exit !found }'; then
        rm -rf "$ram"
    fi
}

want_ram=
for d in "${devices[@]}"; do [ "$d" != ram ] || want_ram=1; done
if [ -n "$want_ram" ] && [ "$(id -u)" != 0 ]; then
    ram_note="RAM device left out: not root (it mounts a tmpfs and makes a loop device; run as root for it)"
    note "$ram_note"
    devices=("${devices[@]/ram/}")
    read -r -a devices <<<"${devices[*]}"
    want_ram=
fi
[ "${#devices[@]}" -gt 0 ] || die "no device left to measure"

declare -A dev_file dev_desc dev_mib
if [ -n "$want_ram" ]; then
    trap release EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    release
    for tool in mkfs.ext4 losetup findmnt; do
        command -v "$tool" >/dev/null || die "$tool is not installed (needed for the RAM device)"
    done
    # Room for the file and ext4's metadata and journal.
    img_mib=$((ram_mib + ram_mib / 8 + 128))
    mkdir -p "$ram/mnt"
    rdev=
    if [ "$ram_kind" = auto ] && [ ! -e /sys/module/brd ] &&
       modprobe brd rd_nr=1 rd_size=$((img_mib * 1024)) max_part=0 2>/dev/null; then
        brd_loaded=1
        for _ in 1 2 3 4 5; do [ -b /dev/ram0 ] && break; sleep 0.2; done
        if [ -b /dev/ram0 ]; then
            rdev=/dev/ram0
            ram_what="brd (/dev/ram0, $img_mib MiB)"
        else
            rmmod brd 2>/dev/null || true
            brd_loaded=
        fi
    fi
    if [ -z "$rdev" ]; then
        mkdir -p "$ram/tmpfs"
        o=$(mount -t tmpfs -o size=$((img_mib + 16))m rdio-bench-qd "$ram/tmpfs" 2>&1) ||
            die "cannot mount a tmpfs at $ram/tmpfs: ${o//$'\n'/ }"
        truncate -s "${img_mib}M" "$ram/tmpfs/ram.img"
        rdev=$(losetup --find --show "$ram/tmpfs/ram.img" 2>&1) ||
            die "cannot attach $ram/tmpfs/ram.img to a loop device: ${rdev//$'\n'/ }"
        ram_what="$rdev over a $img_mib MiB file on tmpfs"
    fi
    o=$(mkfs.ext4 -q -F -m 0 -E lazy_itable_init=0,lazy_journal_init=0 "$rdev" 2>&1) ||
        die "mkfs.ext4 $rdev failed: ${o//$'\n'/ }"
    o=$(mount "$rdev" "$ram/mnt" 2>&1) || die "cannot mount $rdev at $ram/mnt: ${o//$'\n'/ }"
    dev_file[ram]=$ram/mnt/qd-${ram_mib}m.dat
    dev_mib[ram]=$ram_mib
    make_file "${dev_file[ram]}" "$ram_mib"
    dev_desc[ram]="ext4 (mkfs.ext4 defaults, -m 0) on $ram_what, file ${dev_file[ram]}, $ram_mib MiB"
fi
for d in "${devices[@]}"; do
    [ "$d" = disk ] || continue
    fstype=$(findmnt -n -o FSTYPE --target "$data_dir" 2>/dev/null || stat -f -c %T "$data_dir")
    [ "$fstype" != tmpfs ] || die "$data_dir is on tmpfs, which is no disk: set BENCH_DIR"
    dev_file[disk]=$data_dir/qd-${disk_mib}m.dat
    dev_mib[disk]=$disk_mib
    make_file "${dev_file[disk]}" "$disk_mib"
    src_dev=$(findmnt -n -o SOURCE --target "$data_dir" 2>/dev/null || echo '?')
    blk=$(basename "$(readlink -f "$src_dev")")
    sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$blk/queue/scheduler" 2>/dev/null || true)
    rot=$(cat "/sys/block/$blk/queue/rotational" 2>/dev/null || echo '?')
    dev_desc[disk]="$fstype on $src_dev (scheduler ${sched:-?}, rotational $rot), file ${dev_file[disk]}, $disk_mib MiB"
done

# --- the rows --------------------------------------------------------------------
rows=(fio_uring rdio_AFC rdio_FC_VIRTUAL rdio_FC_PLATFORM base_AFC base_FC_VIRTUAL base_FC_PLATFORM fio_psync)
declare -A label=(
    [fio_uring]="fio io_uring (iodepth=QD, 1 job)"
    [rdio_AFC]="rdio AFC (CompletionHandler)"
    [rdio_FC_VIRTUAL]="rdio FileChannel, QD virtual threads"
    [rdio_FC_PLATFORM]="rdio FileChannel, QD platform threads"
    [base_AFC]="JDK 25 AFC (CompletionHandler)"
    [base_FC_VIRTUAL]="JDK 25 FileChannel, QD virtual threads"
    [base_FC_PLATFORM]="JDK 25 FileChannel, QD platform threads"
    [fio_psync]="fio psync (QD jobs)"
)
declare -A short=([fio_uring]=fio-uring [rdio_AFC]=rdio-AFC [rdio_FC_VIRTUAL]=rdio-VT [rdio_FC_PLATFORM]=rdio-PT
                  [base_AFC]=jdk25-AFC [base_FC_VIRTUAL]=jdk25-VT [base_FC_PLATFORM]=jdk25-PT [fio_psync]=fio-psync)
n_rows=${#rows[@]}
groups=$(( ${#devices[@]} * ${#ops[@]} * ${#depths[@]} ))
java_runs=$((groups * 6 * reps))
fio_runs=$((groups * 2 * reps))
# Per run on top of the measured time, as seen on a 2-core VM: 0.4 s for a
# JVM with JMH starting and stopping, 0.3 s for fio starting its jobs.
estimate=$(awk -v j="$java_runs" -v f="$fio_runs" -v s="$seconds" -v w="$warmup" -v r="$fio_ramp" \
    'BEGIN { printf "%.0f", (j * (w + s + 0.4) + f * (r + s + 0.3)) / 60 + 0.5 }')

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$SECONDS
note "queue depth: ${devices[*]} x ${ops[*]} x QD ${depths[*]} x $n_rows rows x $reps repetitions:" \
     "$java_runs JVM runs ($warmup s warm-up + $seconds s) and $fio_runs fio runs ($fio_ramp s ramp + $seconds s);" \
     "estimated duration about $estimate min; log in $log"

# One sample line: DEVICE OP QD ROW REP IOPS P50_US P99_US CPU_US_PER_IO, or
# the word failed in place of the numbers.
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
                    ($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000 * 1e6 / $r.total_ios]
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
    # the fork's engine is off by default; its rows measure it on
    [ "$home" != "$fork_jdk" ] || props=(-Djdk.nio.useIoUring="$fork_io_uring")
    path=${row#*_}
    rm -f "$csv" "$side"
    echo "=== $dev $op QD$qd $row rep $rep: $home ${props[*]}" >> "$log"
    if "$home/bin/java" "${props[@]}" -Drdio.bench.file="${dev_file[$dev]}" -Drdio.bench.qd.out="$side" \
           -jar "$jar" "$class" -p qd="$qd" -p path="$path" -p op="$op" \
           -f 0 -foe true -wi 1 -w "${warmup_ms}ms" -i 1 -r "${measure_ms}ms" \
           -rf csv -rff "$csv" >> "$log" 2>&1; then
        # JMH's score (IOPS) from its CSV, the rest from the benchmark's line.
        res=$(awk -F, 'NR == 2 { gsub(/"/, "", $5); print $5 }' "$csv" 2>/dev/null)
        res="$res $(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                        print v["p50_us"], v["p99_us"], v["cpu_us_per_io"] }' "$side" 2>/dev/null)"
        if [[ $res =~ ^[0-9.]+\ [0-9.]+\ [0-9.]+\ [0-9.]+$ ]]; then
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

for ((rep = 1; rep <= reps; rep++)); do
    for dev in "${devices[@]}"; do
        for op in "${ops[@]}"; do
            for qd in "${depths[@]}"; do
                for ((i = 0; i < n_rows; i++)); do
                    row=${rows[$(( (i + rep - 1) % n_rows ))]}
                    t_run=$EPOCHREALTIME
                    case $row in
                        fio_*) run_fio "$dev" "$op" "$qd" "$row" "$rep" ;;
                        *) run_java "$dev" "$op" "$qd" "$row" "$rep" ;;
                    esac
                    awk -v a="$t_run" -v b="$EPOCHREALTIME" 'BEGIN { printf "took %.2f s\n", b - a }' >> "$log"
                done
                note "rep $rep/$reps $dev $op QD$qd: $(kiops "$dev" "$op" "$qd" "$rep")"
            done
        done
    done
done
elapsed=$((SECONDS - t0))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the table -------------------------------------------------------------------
# "median min max n" of the numbers on stdin.
summary() {
    sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) exit 1
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%s %s %s %d\n", m, v[1], v[NR], NR }'
}
# Column COL (6 IOPS, 7 p50, 8 p99, 9 CPU) of a row's good samples.
column_of() {   # DEVICE OP QD ROW COL
    awk -v k="$1 $2 $3 $4" -v c="$5" 'index($0, k " ") == 1 && $6 != "failed" { print $c }' "$samples"
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
# there is one sample.
cell() {   # FORMAT "median min max n"
    local med min max n
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

spread_file=$work/spread.txt
: > "$spread_file"
table=$work/table.md
{
    echo "| device | op | QD | engine | IOPS | p50 µs | p99 µs | CPU µs/I/O | IOPS / fio io_uring |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for dev in "${devices[@]}"; do
        for op in "${ops[@]}"; do
            for qd in "${depths[@]}"; do
                for row in "${rows[@]}"; do
                    lbl=${label[$row]//QD/$qd}
                    [ "$qd" != 1 ] || { lbl=${lbl/threads/thread}; lbl=${lbl/1 jobs/1 job}; }
                    fails=$(awk -v k="$dev $op $qd $row" 'index($0, k " ") == 1 && $6 == "failed"' "$samples" | wc -l)
                    iops=$(column_of "$dev" "$op" "$qd" "$row" 6 | summary || true)
                    if [ -z "$iops" ]; then
                        echo "| $(dev_name "$dev") | $op | $qd | $lbl | failed ($fails of $reps) | | | | |"
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
                         "| $ratio |"
                done
            done
        done
    done
} > "$table"

# What the table can resolve: how far the repetitions of one row spread.
resolution() {   # KIND -> "median p90 n" of (max - min) / median, in %
    awk -v k="$1" '$1 == k { print 100 * $2 }' "$spread_file" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) exit 1
            m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            p = v[int(0.9 * (NR - 1)) + 1]
            printf "%.0f %.0f %d\n", m, p, NR }'
}
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
    echo "- rdio: $(jdk_line "$fork_jdk") (work tree $commit), run with -Djdk.nio.useIoUring=$fork_io_uring; JDK 25: $(jdk_line "$base_jdk")"
    echo "- Java: $class (JMH $(basename "$(echo "$jmh"/jmh-core-*.jar)" .jar | sed 's/jmh-core-//'))," \
         "one JVM per row and repetition (-f 0), $warmup s warm-up, $seconds s measured; IOPS = JMH's score;" \
         "latency = nanoTime from the call that starts an I/O to its completion, p50/p99 of a 64-buckets-per-octave histogram;" \
         "CPU = the JVM's process CPU time (all threads) over the I/Os; AFC = CompletionHandler chains, each re-issuing from completed()," \
         "on the default thread pool; FileChannel = read/write(buffer, position) on one shared channel"
    echo "- fio $(fio --version | sed 's/^fio-//'): --direct=1 --bs=4k --norandommap --randrepeat=0," \
         "--ioengine=io_uring --iodepth=QD --numjobs=1, or --ioengine=psync --numjobs=QD --group_reporting;" \
         "$fio_ramp s ramp, $seconds s measured; latency = fio's total latency (lat_ns, --lat_percentiles=1);" \
         "CPU = (usr_cpu + sys_cpu) of its jobs over the I/Os"
    echo "- CPU time of kernel threads (the loop device's worker, interrupts) is in neither fio's nor Java's CPU column"
    echo "- $reps repetitions; in each, every row once, fio and Java interleaved per device, op and QD (order rotated each repetition);" \
         "cells: median over the repetitions (smallest–largest); IOPS / fio io_uring: the median of the ratios to fio io_uring" \
         "in the same repetition (smallest–largest); samples in $samples, output in $log"
    echo "- $resolves"
    echo
    cat "$table"
} | tee "$out/results-qd.md"
note "table in $out/results-qd.md ($((elapsed / 60)) min $((elapsed % 60)) s, estimated $estimate min)"
