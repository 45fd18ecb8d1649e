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
#
# Runs the fork's two-guest RDMA tests: two QEMU guests, A and B, each with
# Soft-RoCE on its own NIC, joined by one virtual link.
#
#   rdma-pair.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME] [--tests DIR_OR_FILE...]
#                [--java-opts OPTIONS] [--librdmacm RELEASE] [--out DIR]
#   rdma-pair.sh [--jdk JDK_HOME] --after SCRIPT [--after-env NAME=VALUE...] [--out DIR]
#
# The guests are those of rdma-guest.sh (its kernel, initramfs, init and
# parts, and its rdma-guest.conf), with 1 vCPU each (PAIR_CPUS), so that
# both fit a 2-core machine.  QEMU's dgram backend joins their virtio NICs:
# UDP datagrams between the two QEMU processes on the host's loopback,
# which needs no privilege and no host address.  In each guest rxe0 sits on
# eth0, with a guest-only address (PAIR_A_ADDR, PAIR_B_ADDR).  B starts a
# control agent (agent, over TCP on the same link) and serves until it is
# powered off; A waits for it, measures rstream across the link (server in
# B) into --out/a/rstream-baseline.txt, and runs jtreg on the tests
# (default: jdk/net/rdmapair), which require -Drdio.rdma.peer (B's address)
# and drive B through the agent: peer programs, netem loss, the link down,
# a power-off.  doc/testing.md, "Two guests", describes them.  With
# --after, A runs SCRIPT instead of jtreg, as rdma-guest.sh --after does
# (its output in --out/a/after.log), with PAIR_PEER (B's address, also
# SERVER_ADDR) and AGENT_PORT in its environment besides, so that it can
# start servers in B through the agent (test/infra/bench/pair-agent.sh);
# its stage may take PAIR_TIMEOUT_BENCH.
#
# --out (default build/rdma-pair) holds a/ and b/, each guest's results
# share (status, console.log, and A's JTreport).  The stages are reported
# as by rdma-guest.sh: A's boot, modules, rxe, peer, baseline and tests;
# B's boot, modules, rxe and agent.  Every QEMU run should be under
# flock /tmp/rdio-guest.lock, as make test-rdma-pair runs it.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=parts.sh
. "$RDIO_INFRA/rdma-guest/parts.sh"
initramfs_name=initramfs-pair
stages=(boot modules rxe peer baseline tests)
declare -A stage_timeout=(
    [boot]=$GUEST_TIMEOUT_BOOT [modules]=$GUEST_TIMEOUT_MODULES [rxe]=$GUEST_TIMEOUT_RXE
    [peer]=$PAIR_TIMEOUT_PEER [baseline]=$GUEST_TIMEOUT_BASELINE [tests]=$PAIR_TIMEOUT_TESTS
)

jdk='' jtreg_home='' out='' tests=() java_opts='' librdmacm='' jtreg_mode=-agentvm
# guest_job's benchmark fields: no JMH jar in a pair run, perhaps --after;
# guest_report's bench is set below
bench_jar='' after='' after_env=() bench_args=()
while [ $# -gt 0 ]; do
    guest_option "$@"
    [ "$shift_by" -gt 0 ] || die "unknown argument $1 (usage: rdma-pair.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME] [--tests DIR_OR_FILE...] [--java-opts OPTIONS] [--librdmacm RELEASE] [--out DIR], or [--after SCRIPT] [--after-env NAME=VALUE...])"
    shift "$shift_by"
done

guest_host_inputs rdma-pair
guest_after
guest_jars
guest_librdmacm
jtreg_tests=() test_root=
bench=$after      # non-empty for a benchmark run
if [ -n "$bench" ]; then
    [ "${#tests[@]}" = 0 ] || die "--after and --tests exclude each other"
    stage_timeout[tests]=$PAIR_TIMEOUT_BENCH
else
    [ "${#tests[@]}" -gt 0 ] || tests=(jdk/net/rdmapair)
    guest_tests
fi

guest_kernel
IFS=, read -ra wanted <<< "$GUEST_MODULES,$PAIR_MODULES"
guest_modules "${wanted[@]}"
guest_initramfs "$guest_dir/init" "$guest_dir/stage-tests.sh" "$guest_dir/pair.sh" "$guest_dir/agent"

# --- The two jobs ---------------------------------------------------------------

# The baseline of a test run (rdma-guest.sh's), across the link: the
# server in B, the client in A.
baseline_runs="64_lat 64 1 5000 rdma 64k_bw 65536 200 1 rdma"
top_out=$out
rm -rf "$top_out/a" "$top_out/b"
rm -f "$RDIO_BUILD/rdma-guest/progress.log"
mkdir -p "$top_out/a" "$top_out/b"
# Guest A starts from the jtreg work directory of the last pair run.
guest_jtwork_seed pair
# Servers listen in B (SERVER_ADDR), clients connect from A (CLIENT_ADDR).
GUEST_SERVER_ADDR=$PAIR_B_ADDR GUEST_CLIENT_ADDR=$PAIR_A_ADDR
for role in a b; do
    out=$top_out/$role
    guest_job
    if [ $role = a ]; then addr=$PAIR_A_ADDR peer=$PAIR_B_ADDR; else addr=$PAIR_B_ADDR peer=$PAIR_A_ADDR; fi
    {
        echo "PAIR_ROLE=$role"
        echo "PAIR_ADDR=$addr"
        echo "PAIR_PEER=$peer"
        echo "AGENT_PORT=$PAIR_AGENT_PORT"
        echo "TIMEOUT_PEER=$PAIR_TIMEOUT_PEER"
        echo "TIMEOUT_TESTS=${stage_timeout[tests]}"
    } >> "$out/job.env"
done

# --- The run -------------------------------------------------------------------

total=$GUEST_TIMEOUT_SLACK
for s in "${stages[@]}"; do total=$((total + stage_timeout[$s])); done

# The link: each QEMU sends its NIC's frames as UDP datagrams to the other's
# port on 127.0.0.1.  Two free ports, as the kernel hands them out.
read -r port_a port_b < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])') || die "cannot find two free UDP ports on 127.0.0.1"
link() {   # LOCAL_PORT REMOTE_PORT MAC
    echo "-netdev dgram,id=link,local.type=inet,local.host=127.0.0.1,local.port=$1,remote.type=inet,remote.host=127.0.0.1,remote.port=$2"
    echo "-device virtio-net-pci,netdev=link,mac=$3"
}
mapfile -t link_a < <(link "$port_a" "$port_b" 52:54:00:77:01:01)
mapfile -t link_b < <(link "$port_b" "$port_a" 52:54:00:77:01:02)

note "booting guests A ($PAIR_A_ADDR) and B ($PAIR_B_ADDR): kernel $kver, $GUEST_ACCEL, $PAIR_CPUS CPU each, link on UDP 127.0.0.1:$port_a-$port_b; at most $total s"
note "JDK $jdk, ${after:+after $after}${jtreg_tests[*]:+tests ${jtreg_tests[*]}}, results in $top_out"
GUEST_CPUS=$PAIR_CPUS GUEST_MEMORY=$PAIR_MEMORY_A
# shellcheck disable=SC2086 # link_b holds whole words
guest_qemu "$top_out/b" "$PAIR_CPUS" "$PAIR_MEMORY_B" ${link_b[*]} &
other_qpids=($!)
out=$top_out/a
# shellcheck disable=SC2086
run_guest ${link_a[*]}
stop_qemu "${other_qpids[0]}"

# --- The report ----------------------------------------------------------------

while read -r s result secs detail; do
    [ -n "$s" ] || continue
    printf '%s: B %-7s %-4s %7s s  %s\n' "$RDIO_PROG" "$s" "$result" "$secs" "$detail"
    [ "$result" = ok ] || note "guest B failed: stage $s: $detail (see $top_out/b/console.log)"
done < "$top_out/b/status"
guest_report
