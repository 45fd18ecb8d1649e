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
# librdmacm's own rstream across the link of two guests (rdma-pair.sh) under
# netem loss on guest B's link: the C side of PairLoss's cases, so that
# Java's times under loss (PairLoss prints them) have a C program's beside
# them on the same transport.  Each run sends COUNT messages of 64 KiB one
# way and then back (rstream -S 65536 -C COUNT -I 1: the server in B, the
# client in A), and prints its time, netem's drops and rxe's retries in B
# over the run (B's packets are the ones dropped, so B retransmits).
#
#   bench-rdma-loss.sh CONF_DIR    (make bench-rdma-loss)
#
# LOSS_RUNS lists the runs as PERCENT:COUNT, comma-separated (default
# 1:256,10:4,10:4,10:4: PairLoss's 16 MiB case at 1 % loss once and its
# 256 KiB case at 10 % three times).  Results:
# build/bench-rdma-loss/a/after.log.  In guest A this same script is the
# --after script (SERVER_ADDR set).
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    here=$(cd "$(dirname "$0")" && pwd)
    # shellcheck source=pair-agent.sh
    . "$here/pair-agent.sh"
    counter() { sed -n "s/.* $1 \([0-9]*\).*/\1/p" <<< "$2"; }
    dropped() { agent host tc -s qdisc show dev eth0 | sed -n 's/.*dropped \([0-9]*\).*/\1/p'; }
    IFS=, read -r -a runs <<< "${LOSS_RUNS:-1:256,10:4,10:4,10:4}"
    n=0
    for run in "${runs[@]}"; do
        loss=${run%%:*}% count=${run#*:} n=$((n + 1)) port=$((7400 + n))
        [[ $run =~ ^[0-9]+(\.[0-9]+)?:[1-9][0-9]*$ ]] || { echo "LOSS_RUNS: '$run' is not PERCENT:COUNT"; exit 1; }
        args=(-p "$port" -S 65536 -C "$count" -I 1)
        agent host tc qdisc replace dev eth0 root netem loss "$loss" > /dev/null || exit 1
        before=$(agent host rdma stat show link rxe0/1) drops=$(dropped)
        agent spawn "/results/rstream-$n.log" rstream -b "$SERVER_ADDR" "${args[@]}" > /dev/null || exit 1
        # the server listens a moment after it starts: retry the connect
        tries=0 t0=$EPOCHREALTIME
        until rstream -s "$SERVER_ADDR" "${args[@]}" > "$OUT/rstream-$n.client" 2>&1; do
            tries=$((tries + 1))
            [ "$tries" -lt 20 ] || { echo "rstream $loss $count failed: $(cat "$OUT/rstream-$n.client")"; exit 1; }
            sleep 0.5
            t0=$EPOCHREALTIME
        done
        t1=$EPOCHREALTIME
        after=$(agent host rdma stat show link rxe0/1)
        printf 'rstream under %s loss, %d KiB each way: %.1f s; netem dropped %d; B retried %d times (%d after a sequence-error NAK) and sent %d packets\n' \
            "$loss" $((count * 64)) "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" $(($(dropped) - drops)) \
            $(($(counter completer_retry_err "$after") - $(counter completer_retry_err "$before"))) \
            $(($(counter rcvd_seq_err "$after") - $(counter rcvd_seq_err "$before"))) \
            $(($(counter sent_pkts "$after") - $(counter sent_pkts "$before")))
    done
    agent host tc qdisc del dev eth0 root > /dev/null
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -n "${1:-}" ] || die "usage: bench-rdma-loss.sh CONF_DIR"
conf=$(cd "$1" && pwd) || die "no $1"
out=$RDIO_BUILD/bench-rdma-loss
env=()
[ -z "${LOSS_RUNS:-}" ] || env=(--after-env "LOSS_RUNS=$LOSS_RUNS")
"$RDIO_INFRA/rdma-guest/rdma-pair.sh" --jdk "$conf/images/jdk" --after "$RDIO_INFRA/bench/bench-rdma-loss.sh" \
    "${env[@]}" --out "$out" || die "the run in the guests failed (see $out/a/after.log)"
cat "$out/a/after.log"
