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
# The C ping-pong baseline with percentiles, for issue 14's measurement:
# run in the RDMA guest by
#
#   test/infra/rdma-guest/rdma-guest.sh --jdk JDK --after test/infra/bench/bench-rdma-c.sh --out DIR
#
# as root in the chroot, with SERVER_ADDR and OUT in the environment.  It
# builds test/micro/.../jdk/net/rsocket_pingpong.c with the host's gcc and
# librdmacm, then runs it at RdmaChannels' sizes over rsockets (blocking;
# spinning, as rstream does; and non-blocking calls with rpoll, the way
# Java's channels wait) and over TCP, 5 times (the guest passes
# the caller's environment no further than JDK, SERVER_ADDR and OUT),
# alternating the order of the transports, and at 1 MiB once more with
# rstream's 512 KiB socket buffers.  Every run's line goes to
# $OUT/pingpong.txt; $OUT/pingpong-summary.txt has, per case, the median
# and range over the runs of each percentile.  bench-rdma-pingpong.sh runs
# it one repetition at a time, between the Java runs: PINGPONG_REPS (5)
# repetitions from number PINGPONG_FIRST (1; the results file is emptied
# at 1, and the order of the transports alternates with the number).
# PINGPONG_MODES (block,spin,poll,tcp) and PINGPONG_SIZES (64,1024,32768,
# 1048576) choose the cases, comma-separated; iowrite is the mode that
# places messages with riowrite (see rsocket_pingpong.c), run by
#
#   rdma-guest.sh --jdk JDK --after test/infra/bench/bench-rdma-c.sh \
#       --after-env PINGPONG_MODES=block,iowrite --after-env PINGPONG_SIZES=1048576,4194304 --out DIR
#
# In guest A of a pair (rdma-pair.sh --after; bench-rdma-pingpong.sh
# --pair), the servers run in guest B, started through its agent, and
# the client in A connects to them across the link.
set -u
reps=${PINGPONG_REPS:-5}
first=${PINGPONG_FIRST:-1}
IFS=, read -r -a modes <<< "${PINGPONG_MODES:-block,spin,poll,tcp}"
IFS=, read -r -a sizes <<< "${PINGPONG_SIZES:-64,1024,32768,1048576}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pair-agent.sh
. "$here/pair-agent.sh"
src=$(cd "$here/../../micro/org/openjdk/bench/jdk/net" && pwd)/rsocket_pingpong.c
bin=/tmp/rsocket_pingpong
build="gcc -O2 -o $bin $src -lrdmacm"
[ -x "$bin" ] && [ "$bin" -nt "$src" ] || $build || exit 1
if in_pair; then
    out=$(agent "host test -x $bin || host $build") || { echo "cannot build $bin in guest B: $out"; exit 1; }
fi
res=$OUT/pingpong.txt
[ "$first" != 1 ] || : > "$res"
port=$((19000 + 100 * first))

# The server, here or in guest B: serve ARGS... starts it (its process
# id in server), server_signal SIGNAL signals it (0: is it alive?; in B,
# an orphan that ended may linger as a zombie until init reaps it).
serve() {
    if in_pair; then
        server=$(agent spawn /results/pingpong-server.log "$bin" -s "$SERVER_ADDR" "$@") ||
            { echo "cannot start the server in guest B: $server"; exit 1; }
    else
        "$bin" -s "$SERVER_ADDR" "$@" > /tmp/pingpong.server 2>&1 &
        server=$!
    fi
}
server_signal() {
    if ! in_pair; then
        kill "-$1" "$server" 2>/dev/null
    elif [ "$1" = 0 ]; then
        agent "grep -q '^State:.*[^Z] (' /proc/$server/status" > /dev/null 2>&1
    else
        agent kill "-$1" "$server" > /dev/null 2>&1
    fi
}

pair() {   # ROUNDS SIZE ARGS...
    local rounds=$1 size=$2 server tries=0 line
    shift 2
    port=$((port + 1))
    serve -p "$port" -S "$size" "$@"
    # the server listens a moment after it starts: retry the connect
    until line=$(timeout 120 "$bin" -c "$SERVER_ADDR" -p "$port" -S "$size" -n "$rounds" \
                     -w $((rounds / 10)) "$@" 2> /tmp/pingpong.err); do
        tries=$((tries + 1))
        if [ "$tries" -ge 30 ] || ! server_signal 0; then
            echo "the client failed ($* size $size): $(cat /tmp/pingpong.err)"
            server_signal 9
            exit 1
        fi
        sleep 0.2
    done
    # the server ends with the client's connection
    if in_pair; then
        tries=0
        while server_signal 0; do
            tries=$((tries + 1))
            [ "$tries" -lt 300 ] || { echo "the server in guest B did not end ($* size $size)"; exit 1; }
            sleep 0.2
        done
    else
        wait "$server"
    fi
    echo "$line $*" | tee -a "$res"
}

for rep in $(seq "$first" $((first + reps - 1))); do
    order=("${modes[@]}")
    [ $((rep % 2)) = 1 ] || for i in "${!modes[@]}"; do order[i]=${modes[${#modes[@]} - 1 - i]}; done
    for mode in "${order[@]}"; do
        case $mode in
            block|spin|poll|iowrite) args=(-m "$mode") ;;
            tcp) args=(-T -m block) ;;
            *) echo "unknown mode $mode in PINGPONG_MODES"; exit 1 ;;
        esac
        for size in "${sizes[@]}"; do
            if [ "$size" -le 1024 ]; then rounds=3000; elif [ "$size" -le 32768 ]; then rounds=500; else rounds=50; fi
            pair "$rounds" "$size" "${args[@]}"
            # rstream's socket buffers, at 1 MiB
            [ "$mode" = tcp ] || [ "$size" != 1048576 ] || pair 50 1048576 "${args[@]}" -B 524288
        done
    done
done

# per case (transport, mode, size, buffer option): median (min to max) of
# p50, p90 and p99 over the runs
awk "$(cat "$here/stats.awk")"'
    $1 == "pingpong" {
        key = $2 " " $3 " " $5 " B" ($NF == "524288" ? ", 512 KiB buffers" : "")
        if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
        add(key " p50", $9); add(key " p90", $11); add(key " p99", $13); runs[key]++
    }
    END {
        print "| case (us per round trip) | runs | p50 | p90 | p99 |"
        print "|---|---|---|---|---|"
        for (k = 1; k <= nk; k++)
            printf "| %s | %d | %s | %s | %s |\n", keys[k], runs[keys[k]], cell(keys[k] " p50"), cell(keys[k] " p90"), cell(keys[k] " p99")
    }' "$res" > "$OUT/pingpong-summary.txt"
cat "$OUT/pingpong-summary.txt"
