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
#   test-rdio.sh JDK_IMAGE JTREG_HOME
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

jdk=${1:?usage: test-rdio.sh JDK_IMAGE JTREG_HOME}
jtreg_home=${2:?usage: test-rdio.sh JDK_IMAGE JTREG_HOME}
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

# Runs a stage, COMMAND..., and prints how long it took: CI's limit is on
# the whole run, and these say where the time goes.  A stage's failure is
# its report's to tell.
#   stage NAME COMMAND...
stage() {
    local name=$1 t0=$SECONDS
    shift
    "$@" || true
    note "stage $name took $(( (SECONDS - t0) / 60 )) min $(( (SECONDS - t0) % 60 )) s"
}

rm -rf "$out/JTreport"
note "running ${#tests[@]} jtreg tests on $jdk"
host_tests() {
    run_jtreg "$jdk" "$jtreg_home" "$out" "${tests[@]}" 2>&1 | tee "$out/jtreg.log"
}
stage host host_tests

# The direct I/O matrix.  Its failures are already reported; the summary
# counts a file system without a report (not root, no loop devices, a file
# system that could not be made) as a failure.
mapfile -t directio_reports < <("$RDIO_INFRA/directio-fs.sh" --reports)
stage directio-fs "$RDIO_INFRA/directio-fs.sh" "$jdk" "$jtreg_home"

# The RDMA group in the guest.  Its failure (a stage or a test) is already
# reported; the summary counts a guest that produced no report as a failure.
rm -rf "$RDIO_BUILD/rdma-guest/JTreport"
stage rdma-guest "$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
    --out "$RDIO_BUILD/rdma-guest" --tests jdk/net/rdma

# The two-guest group: guest A runs jdk/net/rdmapair against peers in guest
# B, with faults (loss, partitions, a killed peer, a powered-off B).  It
# runs beside the next two stages, its output held until it ends: its
# tests mostly wait out the link's timeouts, so its guests kept the host's
# 2 CPUs 30 % busy on average, and the three stages took 25.0 min side by
# side against 37.6 one after the other (doc/testing.md).  The stage above
# runs first, so the guests' kernel is in the cache before two scripts
# look for it.
rm -rf "$RDIO_BUILD/rdma-pair/a/JTreport"
mkdir -p "$RDIO_BUILD/rdma-pair"
stage rdma-pair "$RDIO_INFRA/rdma-guest/rdma-pair.sh" --jdk "$jdk" --jtreg "$jtreg_home" \
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
    --kernel "$GUEST_OLD_KERNEL" --java-opts -Drdio.rdma.cycles=1000 \
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
    --librdmacm "${GUEST_RDMA_CORE_VERSION%-*}" \
    --out "$RDIO_BUILD/rdma-guest-librdmacm" --tests "${librdmacm_tests[@]}"

wait "$pair"
cat "$RDIO_BUILD/rdma-pair/stage.log"

"$RDIO_INFRA/jtreg-summary.sh" "$out/JTreport" "${directio_reports[@]}" \
    "$RDIO_BUILD/rdma-guest/JTreport" "$RDIO_BUILD/rdma-guest-old-kernel/JTreport" \
    "$RDIO_BUILD/rdma-guest-librdmacm/JTreport" "$RDIO_BUILD/rdma-pair/a/JTreport"
