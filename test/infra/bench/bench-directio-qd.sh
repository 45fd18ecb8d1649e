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
#   BENCH_QD_IO_URING       -Djdk.nio.useIoUring for the fork's rows (default: unset,
#                           the engine on, as a program gets it)
#   BENCH_BASELINE_JDK      the upstream JDK 25 (default
#                           /usr/lib/jvm/temurin-25-jdk-amd64)
#   BENCH_DIR               where the disk's file goes (default
#                           build/bench-directio/data)
#
# The benchmark jar is built here with javac and JMH's annotation processor
# (JMH from configure's cache), as bench-directio.sh builds its own.
#
# The parts, in directio-qd/: devices.sh makes the devices and their files,
# runs.sh runs one row, table.sh makes the table from the samples.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
qd_parts=$(dirname "$0")/directio-qd
# shellcheck source=directio-qd/devices.sh
. "$qd_parts/devices.sh"
# shellcheck source=directio-qd/runs.sh
. "$qd_parts/runs.sh"
# shellcheck source=directio-qd/table.sh
. "$qd_parts/table.sh"

conf=${1:?usage: bench-directio-qd.sh CONF_DIR JMH_DIR}
jmh=${2:?usage: bench-directio-qd.sh CONF_DIR JMH_DIR}
conf=$(cd "$conf" && pwd) || die "no $1"
jmh=$(cd "$jmh" && pwd) || die "no $2"
fork_jdk=$conf/images/jdk
fork_io_uring=${BENCH_QD_IO_URING:-}
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

# --- the devices ---------------------------------------------------------------
ram=$work/ram
ram_note=
brd_loaded=
declare -A dev_file dev_desc dev_mib
qd_devices

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

qd_table
qd_report
note "table in $out/results-qd.md ($((elapsed / 60)) min $((elapsed % 60)) s, estimated $estimate min)"
