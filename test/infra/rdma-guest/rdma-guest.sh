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
# Runs the fork's RDMA tests for real, on a Soft-RoCE device, in a QEMU guest.
#
#   rdma-guest.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME] [--othervm]
#                 [--tests DIR_OR_FILE...] [--java-opts OPTIONS] [--out DIR]
#                 [--librdmacm RELEASE] [--kernel PACKAGE=VERSION@SUITE]
#   rdma-guest.sh [--jdk JDK_HOME] --bench JAR [--after SCRIPT] [--out DIR] [-- JMH_ARGS...]
#   rdma-guest.sh [--jdk JDK_HOME] --after SCRIPT [--after-env NAME=VALUE...] [--out DIR]
#
# The host kernel has no InfiniBand, so the tests cannot run on it.  The guest
# boots Debian bookworm's 6.1 kernel (which has rdma_rxe) under TCG, with an
# initramfs of busybox plus the modules of rdma-guest.conf, sees the
# host's root read-only over 9p and --out read-write over a second 9p share
# (mounted at the same path, so every path means the same on both sides).
# In one boot it brings up rxe0 on a veth pair with guest-only addresses,
# measures librdmacm's rstream over it (--out/rstream-baseline.txt), runs
# jtreg with the given JDK on the given tests (--out/JTreport), and powers
# off.  With --bench, the last stage runs the JMH jar JAR instead (java -jar
# JAR JMH_ARGS, its results in --out/jmh.csv), and the baseline measures
# rstream at the benchmark's sizes, over rsockets and over TCP.  --after
# SCRIPT runs SCRIPT in the guest after JMH (or alone), as root in the
# chroot, with JDK, SERVER_ADDR, NETTY_DIR and OUT (the results directory,
# --out) in its environment, and each --after-env NAME=VALUE (a value of
# letters, digits and ".,:_=+-", so that it passes the guest's shell as
# one word); its output goes to --out/after.log.  Host
# binaries and libraries (java, rstream, ibv_devices, the librxe verbs
# provider) run chrooted into the shared host root.
#
# The host's librdmacm is Debian 12's 44.0, which has rdma-core's cm_svc_run
# bug, so the JDK runs its workaround.  --librdmacm RELEASE (the release
# rdma-guest.conf pins, 56.1, or its major, 56) runs every process of
# the guest on that rdma-core instead, one with the fix: built once by
# rdma-core.sh into the cache, and put first on PATH and
# LD_LIBRARY_PATH (jtreg passes the latter on to the tests); its
# libibverbs takes its providers, rxe's among them, from its own prefix.
# The rxe stage
# checks that ibv_devices loaded that rxe provider.  Either way the tests
# get RDIO_RDMA_LIBRARY_RELEASE and RDIO_RDMA_LIBRARY_DIR, the release and
# directory of the librdmacm they must load, which RdmaLibraryVersions
# checks; with the fix, the workaround must not run.
#
# The parts, beside this script: kernel.sh fetches the kernel
# and resolves its modules, initramfs.sh builds the initramfs around init
# (the guest's PID 1, which runs the stages), qemu.sh boots it and watches.
#
# Every stage has a timeout, enforced in the guest and again by a watchdog
# here; the whole QEMU run is under timeout(1).  The guest reports each
# stage as "STAGE ok|fail SECONDS [DETAIL]" on its console and in
# --out/status; this script prints the timings and, on failure, one line
# naming the stage and the cause, and exits non-zero.  A test that skips
# fails the run: in the guest there is nothing to skip for.
#
# Defaults: the JDK image and jtreg of build/config.mk, the tests under
# jdk/net/rdma of the assembled test tree (build/src/test/jdk; test paths
# are relative to it, and paths into this repository's test/jdk map to it),
# and --out build/rdma-guest.  A benchmark run needs neither jtreg nor the
# test tree.
#
# For testing the failure paths: RDIO_GUEST_EXTRA_MODULES=mod1,mod2 adds
# modules to load (e.g. one the kernel lacks, or kvm_intel, which TCG's CPU
# cannot run), and RDIO_QEMU names another QEMU binary.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
guest_dir=$RDIO_INFRA/rdma-guest
# shellcheck source=rdma-guest.conf
. "$guest_dir/rdma-guest.conf"
# shellcheck source=kernel.sh
. "$guest_dir/kernel.sh"
# shellcheck source=initramfs.sh
. "$guest_dir/initramfs.sh"
# shellcheck source=qemu.sh
. "$guest_dir/qemu.sh"

qemu=${RDIO_QEMU:-qemu-system-x86_64}
cache=$RDIO_CACHE/rdma-guest
stages=(boot modules rxe baseline tests)
declare -A stage_timeout=(
    [boot]=$GUEST_TIMEOUT_BOOT [modules]=$GUEST_TIMEOUT_MODULES [rxe]=$GUEST_TIMEOUT_RXE
    [baseline]=$GUEST_TIMEOUT_BASELINE [tests]=$GUEST_TIMEOUT_TESTS
)

usage() {
    sed -n 's/^#   //p' "$0" | head -n2 >&2
    exit 2
}

# --- Arguments ---------------------------------------------------------------

jdk='' jtreg_home='' out='' tests=() java_opts='' bench_jar='' bench_args=() netty_dir='' helidon_dir='' after='' after_env=() jtreg_mode=-agentvm
librdmacm=''
while [ $# -gt 0 ]; do
    case $1 in
        --jdk) jdk=${2:?--jdk needs a directory}; shift 2 ;;
        --jtreg) jtreg_home=${2:?--jtreg needs a directory}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        --tests)
            shift
            while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do tests+=("$1"); shift; done
            [ "${#tests[@]}" -gt 0 ] || die "--tests needs at least one test file or directory" ;;
        --java-opts) java_opts=${2?--java-opts needs options}; shift 2 ;;   # jtreg's -javaoptions
        --bench) bench_jar=${2:?--bench needs a JMH jar}; shift 2 ;;
        --after) after=${2:?--after needs a script}; shift 2 ;;
        --after-env)
            [[ ${2:-} =~ ^[A-Z_][A-Z0-9_]*=[A-Za-z0-9.,:_=+-]*$ ]] ||
                die "--after-env ${2:-}: not NAME=VALUE (VALUE of letters, digits and .,:_=+-)"
            after_env+=("$2"); shift 2 ;;
        --othervm) jtreg_mode=-othervm; shift ;;   # a JVM per test, no agent
        --librdmacm) librdmacm=${2:?--librdmacm needs a release, such as ${GUEST_RDMA_CORE_VERSION%-*}}; shift 2 ;;
        --kernel)   # PACKAGE=VERSION@SUITE: another Debian kernel than the conf's
            k=${2:?--kernel needs PACKAGE=VERSION@SUITE}; shift 2
            [[ $k =~ ^([^=@]+)=([^=@]+)@([a-z]+)$ ]] || die "--kernel $k: not PACKAGE=VERSION@SUITE"
            GUEST_KERNEL_PACKAGE=${BASH_REMATCH[1]} GUEST_KERNEL_VERSION=${BASH_REMATCH[2]}
            GUEST_KERNEL_SUITE=${BASH_REMATCH[3]} ;;
        --) shift; bench_args=("$@"); break ;;
        -h|--help) usage ;;
        *) die "unknown argument $1 (usage: rdma-guest.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME] [--othervm] [--tests DIR_OR_FILE...] [--java-opts OPTIONS] [--kernel PACKAGE=VERSION@SUITE] [--librdmacm RELEASE] [--out DIR], or [--bench JAR] [--after SCRIPT] [--after-env NAME=VALUE] [-- JMH_ARGS])" ;;
    esac
done

# The tools first, so that a machine that cannot run the guest says so at once.
command -v "$qemu" >/dev/null || die "$qemu is not on PATH (install qemu-system-x86)"
for tool in busybox dpkg gzip timeout; do
    command -v "$tool" >/dev/null || die "$tool is not on PATH"
done
command -v modprobe >/dev/null && command -v depmod >/dev/null ||
    die "modprobe and depmod are not on PATH (install kmod)"

if [ -z "$jdk" ]; then
    conf_dir=$(config_value RDIO_CONF_DIR)
    [ -n "$conf_dir" ] || die "no --jdk given and no build/config.mk to find the JDK image in: run bash configure, or pass --jdk"
    jdk=$conf_dir/images/jdk
fi
[ -x "$jdk/bin/java" ] || die "no JDK at $jdk (no bin/java): run make images, or pass --jdk"
out=${out:-$RDIO_BUILD/rdma-guest}
mkdir -p "$out" || die "cannot create $out"
jdk=$(readlink -f "$jdk") out=$(readlink -f "$out")
[ "$out" != / ] || die "--out / would share the whole host root read-write with the guest"

# The guest sees the host's root, except where it mounts its own file
# systems.  It has its own /tmp, over which it binds back, from the host's,
# the entry directly under /tmp that holds each path the run needs (a
# checkout in /tmp/NAME, say: /tmp/NAME).  Under /proc, /sys, /dev or /run
# nothing can live.
tmp_paths=()
guest_visible() {   # PATH WHAT
    local top=${1#/} entry p
    top=/${top%%/*}
    case $top in
        /tmp)
            entry=${1#/tmp/}; entry=/tmp/${entry%%/*}
            for p in "${tmp_paths[@]}"; do [ "$p" != "$entry" ] || return 0; done
            tmp_paths+=("$entry") ;;
        /proc|/sys|/dev|/run)
            die "$2 $1 is under $top, which the guest replaces with its own file system; put it elsewhere" ;;
    esac
}
guest_visible "$jdk" "the JDK"
jtreg_tests=() test_root=
bench=$bench_jar$after      # non-empty for a benchmark run
if [ -n "$bench" ]; then
    [ "${#tests[@]}" = 0 ] || die "--bench or --after and --tests exclude each other"
fi
if [ -n "$bench_jar" ]; then
    [ -f "$bench_jar" ] || die "no JMH jar $bench_jar"
    bench_jar=$(readlink -f "$bench_jar")
    guest_visible "$bench_jar" "the JMH jar"
fi
if [ -n "$after" ]; then
    [ -f "$after" ] || die "no script $after"
    after=$(readlink -f "$after")
    guest_visible "$after" "the --after script"
fi
# Netty's jars: for RdmaNetty (RDIO_NETTY_DIR in the tests' environment)
# and the --after script of make bench-rdma
netty_dir=$(config_value RDIO_NETTY_DIR)
[ -n "$netty_dir" ] || netty_dir=$("$RDIO_TOP/make/scripts/maven-jars.sh" netty "$NETTY_ARTIFACTS")
guest_visible "$netty_dir" "the Netty jars"
# Helidon's jars: for RdmaHelidon (RDIO_HELIDON_DIR in the tests' environment)
helidon_dir=$(config_value RDIO_HELIDON_DIR)
[ -n "$helidon_dir" ] || helidon_dir=$("$RDIO_TOP/make/scripts/maven-jars.sh" helidon "$HELIDON_ARTIFACTS")
guest_visible "$helidon_dir" "the Helidon jars"

# The librdmacm of the run: the host's, or with --librdmacm the pinned
# rdma-core's, built into the cache once.  Its release (major.minor) and
# directory go to the tests.
rdma_prefix='' rdma_release='' rdma_dir=''
if [ -n "$librdmacm" ]; then
    pinned=${GUEST_RDMA_CORE_VERSION%-*}
    [ "$librdmacm" = "$pinned" ] || [ "$librdmacm" = "${pinned%%.*}" ] ||
        die "--librdmacm $librdmacm: test/infra/rdma-guest/rdma-guest.conf pins rdma-core $pinned (GUEST_RDMA_CORE_VERSION); pass --librdmacm $pinned, or pin another release there"
    rdma_prefix=$("$guest_dir/rdma-core.sh") || exit 1
    [[ $rdma_prefix != *[[:space:]]* ]] ||
        die "rdma-core's prefix $rdma_prefix has white space, which the guest's shell would split: set RDIO_CACHE elsewhere"
    guest_visible "$rdma_prefix" "rdma-core $pinned"
    rdma_release=$pinned rdma_dir=$rdma_prefix/lib
else
    # awk reads all of ldconfig's output: an early exit would end ldconfig
    # with SIGPIPE, which pipefail and set -e turn into a silent exit here
    lib=$(/sbin/ldconfig -p 2>/dev/null | awk '$1 == "librdmacm.so.1" && /x86-64/ && !found { print $NF; found = 1 }')
    [ -n "$lib" ] || die "the host has no librdmacm.so.1 (install librdmacm1 and rdmacm-utils)"
    lib=$(readlink -f "$lib")
    rdma_dir=$(dirname "$lib")
    if [[ ${lib##*/} =~ ^librdmacm\.so\.1\.[0-9]+\.([0-9]+\.[0-9]+)$ ]]; then
        rdma_release=${BASH_REMATCH[1]}
    fi
fi

# jtreg and the tests, for a test run.
if [ -z "$bench" ]; then
    if [ -z "$jtreg_home" ]; then
        jtreg_home=$(config_value RDIO_JTREG_HOME)
        [ -n "$jtreg_home" ] || jtreg_home=$("$RDIO_TOP/make/scripts/jtreg.sh")
    fi
    [ -f "$jtreg_home/lib/jtreg.jar" ] || die "no jtreg at $jtreg_home (no lib/jtreg.jar)"
    jtreg_home=$(readlink -f "$jtreg_home")
    guest_visible "$jtreg_home" "jtreg"

    test_root=$RDIO_BUILD/src/test/jdk
    [ -f "$test_root/TEST.ROOT" ] || die "no assembled test tree at $test_root: run make assemble (or make images) first"
    test_root=$(readlink -f "$test_root")
    guest_visible "$test_root" "the test tree"
    [ "${#tests[@]}" -gt 0 ] || tests=(jdk/net/rdma)
    for t in "${tests[@]}"; do
        case $t in
            /*) t=$(readlink -f "$t") ;;
            *) t=$test_root/$t ;;
        esac
        # A path into this repository's overlay means its assembled copy.
        case $t/ in
            "$RDIO_TOP/test/jdk/"*) t=$test_root/${t#"$RDIO_TOP/test/jdk/"} ;;
        esac
        t=${t%/}
        [ -e "$t" ] || die "no test $t"
        case $t/ in
            "$test_root/"*) t=${t#"$test_root/"} ;;
            *) die "test $t is not in the assembled test tree $test_root" ;;
        esac
        # The assembled copies must be those of the overlay, or we would test
        # stale files.
        if [ -e "$RDIO_TOP/test/jdk/$t" ]; then
            while read -r f; do
                cmp -s "$RDIO_TOP/test/jdk/$f" "$test_root/$f" ||
                    die "build/src/test/jdk/$f differs from test/jdk/$f: run make assemble first"
            done < <(cd "$RDIO_TOP/test/jdk" && find "$t" -type f)
        fi
        jtreg_tests+=("$t")
    done
fi

# --- The kernel, its modules, the initramfs --------------------------------------

guest_kernel
IFS=, read -ra wanted <<< "$GUEST_MODULES${RDIO_GUEST_EXTRA_MODULES:+,$RDIO_GUEST_EXTRA_MODULES}"
guest_modules "${wanted[@]}"
guest_initramfs "$guest_dir/init"

# The rstream baseline: NAME SIZE COUNT ITERATIONS OVER, where an iteration
# sends COUNT messages of SIZE bytes one way and then back, OVER rdma
# (rsockets) or tcp.  For tests, 64 B ping-pong for the latency and a stream
# of 64 KiB messages for the bandwidth; for benchmarks, the sizes of
# test/micro/.../RdmaChannels.java, both ways.
if [ -z "$bench_jar" ]; then
    baseline_runs="64_lat 64 1 5000 rdma 64k_bw 65536 200 1 rdma"
else
    stage_timeout[baseline]=$GUEST_TIMEOUT_BASELINE_BENCH
    baseline_runs=
    for over in rdma tcp; do
        baseline_runs+=" 64_lat_$over 64 1 2000 $over 1k_lat_$over 1024 1 2000 $over"
        baseline_runs+=" 32k_lat_$over 32768 1 500 $over 1m_lat_$over 1048576 1 50 $over"
        baseline_runs+=" 64k_bw_$over 65536 500 1 $over"
    done
fi

# --- The run -------------------------------------------------------------------

# Clear what an earlier run left in --out (only that: it may be a shared dir),
# and the progress log, which the RDMA tests write to build/rdma-guest
# beside the test tree whatever --out is, so that it shows this run only.
rm -rf "$out"/{status,job.env,tests.list,tmp-paths.list,console.log,qemu.log,jtreg.log,jtreg-crashed.log,crashes,retried,rstream-baseline.txt,baseline,JTreport,JTwork,jmh.log,jmh.csv,after.log,progress.log}
rm -f "$RDIO_BUILD/rdma-guest/progress.log"

# The jtreg work directory of the last run with the same JDK, jtreg and test
# tree: the guest starts from a copy of it.
jtwork_seed=$cache/jtwork/$(printf '%s\n' "$jdk" "$jtreg_home" "$test_root" | sha256sum | cut -c1-16)

# Values for the guest's busybox sh, single-quoted.
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
    echo "SHARE=$(shq "$out")"
    echo "JDK=$(shq "$jdk")"
    echo "JTREG_HOME=$(shq "$jtreg_home")"
    echo "NETTY_DIR=$(shq "$netty_dir")"
    echo "HELIDON_DIR=$(shq "$helidon_dir")"
    echo "TEST_ROOT=$(shq "$test_root")"
    echo "SERVER_ADDR=$GUEST_SERVER_ADDR"
    echo "CLIENT_ADDR=$GUEST_CLIENT_ADDR"
    echo "PREFIX_LEN=$GUEST_PREFIX_LEN"
    echo "BASELINE_RUNS=$(shq "$baseline_runs")"
    echo "TIMEOUT_RXE=$GUEST_TIMEOUT_RXE"
    echo "TIMEOUT_BASELINE=${stage_timeout[baseline]}"
    echo "TIMEOUT_TESTS=$GUEST_TIMEOUT_TESTS"
    echo "JTREG_TIMEOUT_FACTOR=$GUEST_JTREG_TIMEOUT_FACTOR"
    [ ! -d "$jtwork_seed" ] || echo "JTWORK_SEED=$(shq "$jtwork_seed")"
    echo "JAVA_OPTS=$(shq "$java_opts")"
    echo "JTREG_MODE=$jtreg_mode"
    echo "BENCH_JAR=$(shq "$bench_jar")"
    echo "BENCH_AFTER=$(shq "$after")"
    echo "AFTER_ENV=$(shq "${after_env[*]}")"
    echo "BENCH_ARGS=$(shq "${bench_args[*]}")"
    echo "RDMA_PREFIX=$(shq "$rdma_prefix")"
    echo "RDMA_RELEASE=$(shq "$rdma_release")"
    echo "RDMA_DIR=$(shq "$rdma_dir")"
} > "$out/job.env"
printf '%s\n' "${jtreg_tests[@]}" > "$out/tests.list"
printf '%s\n' "${tmp_paths[@]}" > "$out/tmp-paths.list"
: > "$out/status"

total=$GUEST_TIMEOUT_SLACK
for s in "${stages[@]}"; do total=$((total + stage_timeout[$s])); done

note "booting the guest: kernel $kver ($kernel_pkg $kernel_ver), ${GUEST_ACCEL}, ${GUEST_CPUS} CPUs, $GUEST_MEMORY; at most $total s"
if [ -n "$bench" ]; then
    note "JDK $jdk, JMH jar ${bench_jar:-none}, after ${after:-nothing}, results in $out"
else
    note "JDK $jdk, tests ${jtreg_tests[*]}, results in $out"
fi
if [ -n "$rdma_prefix" ]; then
    note "librdmacm $rdma_release of $rdma_prefix (rdma-core $GUEST_RDMA_CORE_VERSION of Debian $GUEST_RDMA_CORE_SUITE)"
else
    note "librdmacm ${rdma_release:-of unknown release} of the host, in $rdma_dir"
fi
run_guest

# --- The report ----------------------------------------------------------------

if [ -d "$out/JTwork/extraPropDefns" ]; then
    rm -rf "$jtwork_seed.tmp"
    mkdir -p "$(dirname "$jtwork_seed")"
    if cp -a "$out/JTwork" "$jtwork_seed.tmp"; then
        rm -rf "$jtwork_seed"
        mv "$jtwork_seed.tmp" "$jtwork_seed"
    fi
fi

# The status file, or the console when the share never came up.
if [ -s "$out/status" ]; then
    status=$(cat "$out/status")
else
    status=$(tr -d '\r' < "$out/console.log" 2>/dev/null | sed -n 's/^.*rdio-guest-status: //p')
fi
cause='' sum=0
while read -r s result secs detail; do
    [ -n "$s" ] || continue
    printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" "$s" "$result" "$secs" "$detail"
    sum=$(awk -v a="$sum" -v b="$secs" 'BEGIN { print a + b }')
    [ "$result" = ok ] || cause="stage $s failed: $detail"
done <<< "$status"
printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" qemu "" \
    "$(awk -v w="$wall" -v s="$sum" 'BEGIN { printf "%.1f", w - s }')" \
    "outside the stages: QEMU start, firmware, power-off (wall time $wall s in all)"

# Per-test times, from the .jtr files ("elapsed=MILLIS ...").
if [ -f "$out/JTreport/text/summary.txt" ]; then
    while read -r test result _; do
        jtr=${test%.java}; jtr=$out/JTwork/${jtr/.java\#/_}.jtr
        ms=$(sed -n 's/^elapsed=\([0-9]*\).*/\1/p' "$jtr" 2>/dev/null | head -n1)
        printf '%s:   %-50s %-8s %7s s\n' "$RDIO_PROG" "$test" "$result" \
            "$(awk -v ms="${ms:-0}" 'BEGIN { printf "%.1f", ms / 1000 }')"
    done < "$out/JTreport/text/summary.txt"
fi
[ ! -s "$out/retried" ] || note "tests: $(cat "$out/retried")"
if [ -s "$out/rstream-baseline.txt" ] && grep -qv '^#' "$out/rstream-baseline.txt"; then
    note "rstream baseline ($out/rstream-baseline.txt):"
    sed "s/^/$RDIO_PROG:   /" "$out/rstream-baseline.txt"
fi

[ -z "$watchdog" ] || die "$watchdog"
[ -z "$cause" ] || die "$cause"
if [ "$(grep -c . <<< "$status")" -lt "${#stages[@]}" ]; then
    case $qrc in
        124|137) die "the guest did not finish within $total s; QEMU killed (see $out/console.log)" ;;
    esac
    s=${stages[$(grep -c . <<< "$status")]}
    last=$(tr -d '\r' < "$out/console.log" 2>/dev/null | grep -v '^\s*$' | tail -n1)
    [ -n "$last" ] || last=$(grep -v '^\s*$' "$out/qemu.log" | tail -n1)
    die "QEMU exited (status $qrc) during stage $s: ${last:-no output} (see $out/console.log)"
fi
[ -n "$bench" ] || "$RDIO_INFRA/jtreg-summary.sh" "$out/JTreport"