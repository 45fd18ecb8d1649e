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
# off.  A test FILE.java#ID names one @test block of FILE.java, as for
# jtreg.  With --bench, the last stage runs the JMH jar JAR instead (java -jar
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
# The parts, beside this script: inputs.sh checks and passes on what the
# run needs, kernel.sh fetches the kernel and resolves its modules,
# initramfs.sh builds the initramfs around init (the guest's PID 1, which
# runs the stages; stage-tests.sh is the last), qemu.sh boots it and
# watches, report.sh reports.
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
# RDIO_GUEST_EXTRA_MODULES=mod1,mod2 adds modules to load: loop,ext4 gives
# the direct I/O tests an ext4 (stage-tests.sh); for testing the failure
# paths, one the kernel lacks, or kvm_intel, which TCG's CPU cannot run.
# RDIO_QEMU names another QEMU binary, for the failure paths too.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=parts.sh
. "$RDIO_INFRA/rdma-guest/parts.sh"
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
    guest_option "$@"
    if [ "$shift_by" -gt 0 ]; then shift "$shift_by"; continue; fi
    case $1 in
        --bench) bench_jar=${2:?--bench needs a JMH jar}; shift 2 ;;
        --othervm) jtreg_mode=-othervm; shift ;;   # a JVM per test, no agent
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

guest_host_inputs rdma-guest
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
guest_after
guest_jars

guest_librdmacm

[ -n "$bench" ] || guest_tests

# --- The kernel, its modules, the initramfs --------------------------------------

guest_kernel
IFS=, read -ra wanted <<< "$GUEST_MODULES${RDIO_GUEST_EXTRA_MODULES:+,$RDIO_GUEST_EXTRA_MODULES}"
guest_modules "${wanted[@]}"
guest_initramfs "$guest_dir/init" "$guest_dir/stage-tests.sh"

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

# The guest starts from the jtreg work directory of the last run.
guest_jtwork_seed
guest_job

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

guest_report
