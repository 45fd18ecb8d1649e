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
# Runs every jtreg test this fork adds (the files under test/jdk of this
# repository that hold an @test tag) against the built JDK image, from the
# assembled tree build/src/test/jdk.  The RDMA group, test/jdk/jdk/net/rdma,
# needs an RDMA device: it runs inside the Soft-RoCE guest (rdma-guest.sh,
# also make test-rdma).  The direct I/O tests run again once per file
# system of directio-fs.sh's matrix (ext4, ext4 data=journal, ext4 on a
# 4096-byte-sector device, XFS, btrfs, tmpfs; also make test-directio-fs),
# which needs root.  RdmaLeak runs a second time in a guest with an older
# kernel (GUEST_OLD_KERNEL of test/infra/rdma-guest/rdma-guest.conf), where the JDK must
# enable libibverbs' fork support, and the group's tests whose path depends
# on the library run a third time against a librdmacm that has the fix of
# its service-thread bug (rdma-core.sh), where the JDK's workaround stays
# off (the whole group there: make test-rdma LIBRDMACM=56.1), and the
# two-guest group (rdma-pair.sh, also make test-rdma-pair) runs across a
# link, beside those last two runs.  Prints each stage's time, and one
# summary line over all runs.
#
# With --extended (make test-rdio-extended) the tests run with the large
# sizes of extended_opts below, which their defaults, sized for CI's
# budget, leave out; each test's @summary names its property.
#
#   test-rdio.sh [--extended] JDK_IMAGE JTREG_HOME
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

extended_opts=()
if [ "${1:-}" = --extended ]; then
    shift
    extended_opts=(-Drdio.rdma.cycles=10000 -Drdio.rdma.connections=4096 -Drdio.rdma.closes=2000
                   -Drdio.rdma.idleVirtual=1000 -Drdio.rdma.backlogFillRoom=512
                   -Drdio.rdma.loss1Bytes=16777216 -Drdio.rdma.pairEchoBytes=67108864
                   -Drdio.rdma.partitionBytes=33554432 -Drdio.rdma.pairConnections=1024)
fi
jdk=${1:?usage: test-rdio.sh [--extended] JDK_IMAGE JTREG_HOME}
jtreg_home=${2:?usage: test-rdio.sh [--extended] JDK_IMAGE JTREG_HOME}
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images"

out=$RDIO_BUILD/test-rdio
mkdir -p "$out"
# The tests that need an RDMA device require it in each @test ("@requires
# rdio.rdma.device != null", which the guest meets and a host does not), and
# they are those under jdk/net/rdma, which the guest runs: a test that
# required it elsewhere would run nowhere.
# The two-guest tests (jdk/net/rdmapair, make test-rdma-pair) require the
# second guest in the same way ("@requires rdio.rdma.peer != null").
rdma_requires='@requires rdio.rdma.device != null'
pair_requires='@requires rdio.rdma.peer != null'
tests=()
while read -r t; do
    n=$(grep -cE '^ *\* *@test( |$)' "$RDIO_TOP/test/jdk/$t" || true)
    r=$(grep -cF "$rdma_requires" "$RDIO_TOP/test/jdk/$t" || true)
    case $t in
        jdk/net/rdma/*) [ "$r" = "$n" ] || die "test/jdk/$t: each @test under jdk/net/rdma needs \"$rdma_requires\"" ;;
        jdk/net/rdmapair/*)
            [ "$(grep -cF "$pair_requires" "$RDIO_TOP/test/jdk/$t" || true)" = "$n" ] ||
                die "test/jdk/$t: each @test under jdk/net/rdmapair needs \"$pair_requires\"" ;;
        *) [ "$r" = 0 ] || die "test/jdk/$t needs an RDMA device, but only the tests under jdk/net/rdma run in the guest"
           tests+=("$t") ;;
    esac
done < <(cd "$RDIO_TOP/test/jdk" && grep -rl --include='*.java' '@test' . | sed 's|^\./||' | sort)
[ "${#tests[@]}" -gt 0 ] || die "no jtreg tests under test/jdk"

# Runs a stage, COMMAND..., and prints how long it took and how busy the
# host's CPUs were meanwhile: CI's limit is on the whole run, and these say
# where the time goes and whether a stage leaves CPU time for another
# beside it.  Each stage adds a line to stages.tsv, from which the run's
# table is printed at the end (stage_table).  A stage's failure is its
# report's to tell.
#   stage NAME COMMAND...
stage() {
    local name=$1 t0=$SECONDS c0 t cpu
    shift
    c0=$(cpu_ticks)
    "$@" || true
    t=$((SECONDS - t0)) cpu=$(cpu_share $c0 $(cpu_ticks))
    printf '%s\t%s\t%s\n' "$name" "$t" "$cpu" >> "$out/stages.tsv"
    note "stage $name took $((t / 60)) min $((t % 60)) s ($cpu)"
}

# The host's CPU ticks since boot: busy (user, nice, system, irq, softirq),
# idle (idle, iowait) and steal (taken by the hypervisor for other VMs).
cpu_ticks() {
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $5 + $6, $9; exit }' /proc/stat
}

# "CPU busy N %, steal N %" between two cpu_ticks readings (6 numbers).
cpu_share() {
    local all=$(( $4 + $5 + $6 - $1 - $2 - $3 ))
    [ "$all" -gt 0 ] || all=1
    echo "CPU busy $(( 100 * ($4 - $1) / all )) %, steal $(( 100 * ($6 - $3) / all )) %"
}

# Prints the run's profile: each stage's time, tests and CPU (stages.tsv),
# then the ten slowest tests of all runs, from the elapsed times in their
# .jtr files.  A stage's tests are those of its reports (stage_reports),
# listed by their summary.txt, since a guest's seeded work directory also
# holds the .jtr files of tests that earlier runs ran.
stage_table() {
    local name t cpu r n test status
    echo
    echo "| stage | tests | time | host CPU |"
    echo "|---|---|---|---|"
    while IFS=$'\t' read -r name t cpu; do
        n=0
        for r in ${stage_reports[$name]:-}; do
            [ -f "$r/text/summary.txt" ] && n=$((n + $(grep -c . "$r/text/summary.txt")))
        done
        printf '| %s | %s | %d min %d s | %s |\n' "$name" "$n" $((t / 60)) $((t % 60)) "$cpu"
    done < "$out/stages.tsv"
    echo
    echo "The ten slowest tests:"
    for name in "${!stage_reports[@]}"; do
        for r in ${stage_reports[$name]}; do
            [ -f "$r/text/summary.txt" ] || continue
            while read -r test status; do
                awk -F'[= ]' -v s="$name" -v t="$test" \
                    '$1 == "elapsed" { printf "%.1f\t%s\t%s\n", $2 / 1000, s, t; exit }' \
                    "$(jtr_file "${r%/JTreport}/JTwork" "$test")" 2>/dev/null
            done < "$r/text/summary.txt"
        done
    done | sort -t$'\t' -k1,1 -rn | head -n 10 | awk -F'\t' '{ printf "  %7.1f s  %s: %s\n", $1, $2, $3 }'
    echo
}

rm -rf "$out/JTreport" "$out/stages.tsv"
note "running ${#tests[@]} jtreg tests on $jdk"
host_tests() {
    run_jtreg "$jdk" "$jtreg_home" "$out" ${extended_opts[0]:+"-javaoptions:${extended_opts[*]}"} "${tests[@]}" 2>&1 |
        tee "$out/jtreg.log"
}
stage host host_tests

# The direct I/O matrix.  Its failures are already reported; the summary
# counts a file system without a report (not root, no loop devices, a file
# system that could not be made) as a failure.
mapfile -t directio_reports < <("$RDIO_INFRA/directio-fs.sh" --reports)
declare -A stage_reports=(
    [host]=$out/JTreport [directio-fs]="${directio_reports[*]}"
    [rdma-guest]=$RDIO_BUILD/rdma-guest/JTreport [rdma-pair]=$RDIO_BUILD/rdma-pair/a/JTreport
    [rdma-guest-old-kernel]=$RDIO_BUILD/rdma-guest-old-kernel/JTreport
    [rdma-guest-librdmacm]=$RDIO_BUILD/rdma-guest-librdmacm/JTreport)
stage directio-fs "$RDIO_INFRA/directio-fs.sh" "$jdk" "$jtreg_home"

# The RDMA group in the guest.  Its failure (a stage or a test) is already
# reported; the summary counts a guest that produced no report as a failure.
rm -rf "$RDIO_BUILD/rdma-guest/JTreport"
stage rdma-guest "$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
    ${extended_opts[0]:+--java-opts "${extended_opts[*]}"} --out "$RDIO_BUILD/rdma-guest" --tests jdk/net/rdma

# The two-guest group: guest A runs jdk/net/rdmapair against peers in guest
# B, with faults (loss, partitions, a killed peer, a powered-off B).  It
# runs beside the next two stages, its output held until it ends: its
# tests mostly wait out the link's timeouts, so its guests kept the host's
# 2 CPUs 30 % busy on average, and the three stages took 25.0 min side by
# side against 37.6 one after the other (doc/testing.md).  Not beside the
# direct I/O matrix: while the guests boot and jtreg compiles their tests
# they take the CPUs (98 % busy in a run with other tests on the host), and
# the matrix then took 17 min against 6 while the pair overran 30 min.
# The stage above runs first, so the guests' kernel is in the cache
# before two scripts look for it.
rm -rf "$RDIO_BUILD/rdma-pair/a/JTreport"
mkdir -p "$RDIO_BUILD/rdma-pair"
stage rdma-pair "$RDIO_INFRA/rdma-guest/rdma-pair.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
    ${extended_opts[0]:+--java-opts "${extended_opts[*]}"} \
    --out "$RDIO_BUILD/rdma-pair" --tests jdk/net/rdmapair > "$RDIO_BUILD/rdma-pair/stage.log" 2>&1 &
pair=$!
# RdmaLeak again on a kernel that does not report copy-on-fork, with fewer
# open/close cycles: its ProcessBuilder cases check that the JDK enabled
# libibverbs' fork support there.  On the same kernel, which predates the
# io_uring set-up flags the engine asks for first (COOP_TASKRUN and
# SINGLE_ISSUER, registered ring descriptors), the engine's tests, on an
# ext4 that the guest makes on a loop device (stage-tests.sh).
# shellcheck source=rdma-guest/rdma-guest.conf
. "$RDIO_INFRA/rdma-guest/rdma-guest.conf"
rm -rf "$RDIO_BUILD/rdma-guest-old-kernel/JTreport"
old_kernel_directio=()
for t in FileChannel/directio/IoUringRingBasics FileChannel/directio/IoUringStress \
         FileChannel/directio/IoUringCloseInterrupt FileChannel/directio/IoUringForkExec \
         FileChannel/directio/IoUringFallback AsynchronousFileChannel/DirectIOAsync; do
    old_kernel_directio+=("java/nio/channels/$t.java")
done
stage rdma-guest-old-kernel env RDIO_GUEST_EXTRA_MODULES=loop,ext4 \
    "$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
    --kernel "$GUEST_OLD_KERNEL" --java-opts "${extended_opts[*]:+${extended_opts[*]} }-Drdio.rdma.cycles=1000" \
    --out "$RDIO_BUILD/rdma-guest-old-kernel" --tests jdk/net/rdma/RdmaLeak.java "${old_kernel_directio[@]}"

# Against a librdmacm that has the fix of the service-thread bug (Debian
# 13's rdma-core, built once into the cache), where the JDK's workaround
# must stay off: the tests whose path depends on the library.  They check
# which library the JVM loaded and that the workarounds are off
# (RdmaLibraryVersions), what a fixed library does instead of the
# workaround's refusals and rounds (RdmaServiceThreads, RdmaBacklog,
# RdmaNettyBacklog, RdmaManyConnections, RdmaCloseUnreadPeers,
# RdmaIdleCost), the connect workaround, which stays on (RdmaConnect,
# RdmaDeadPeerInCallConnect), the older library's own tools against it
# (RdmaInterop, RdmaErrors), and the basic echo.  The rest of the group
# exercises the JDK's own code the same way on either library; the
# whole group there is make test-rdma LIBRDMACM=56.1.
# A name that is gone fails the stage (rdma-guest.sh: "no test"), and the
# summary counts its missing report.
librdmacm_tests=()
for t in RdmaLibraryVersions RdmaServiceThreads RdmaBacklog RdmaNettyBacklog RdmaManyConnections \
         RdmaCloseUnreadPeers RdmaIdleCost RdmaConnect RdmaDeadPeerInCallConnect RdmaInterop \
         RdmaErrors RdmaEcho; do
    librdmacm_tests+=("jdk/net/rdma/$t.java")
done
rm -rf "$RDIO_BUILD/rdma-guest-librdmacm/JTreport"
stage rdma-guest-librdmacm "$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
    --librdmacm "${GUEST_RDMA_CORE_VERSION%-*}" ${extended_opts[0]:+--java-opts "${extended_opts[*]}"} \
    --out "$RDIO_BUILD/rdma-guest-librdmacm" --tests "${librdmacm_tests[@]}"

wait "$pair"
cat "$RDIO_BUILD/rdma-pair/stage.log"
stage_table

"$RDIO_INFRA/jtreg-summary.sh" "$out/JTreport" "${directio_reports[@]}" \
    "$RDIO_BUILD/rdma-guest/JTreport" "$RDIO_BUILD/rdma-guest-old-kernel/JTreport" \
    "$RDIO_BUILD/rdma-guest-librdmacm/JTreport" "$RDIO_BUILD/rdma-pair/a/JTreport"
