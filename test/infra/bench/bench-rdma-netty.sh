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
# The Netty rows of make bench-rdma: run in the RDMA guest by
# test/infra/rdma-guest/rdma-guest.sh --after (bench-rdma.sh passes it), as root in
# the chroot, with JDK, SERVER_ADDR, NETTY_DIR and OUT in the environment.
#
# Netty's echo example server (io.netty.example.echo.EchoServer, from the
# netty-example jar) and the Netty client of
# test/jdk/jdk/net/rdma/netty/NettyEchoClient.java run as two JVMs, once
# over transparent RDMA (a rules file, -Djdk.net.rdma.conf) and once over
# TCP (no rules), NETTY_REPS times each, alternating which goes first.
# Each client run opens NETTY_CONNECTIONS connections, sends NETTY_WARMUP
# messages of NETTY_SIZE bytes on each that are not counted, then
# NETTY_REQUESTS that are, each checked byte for byte.  Every run's line
# goes to $OUT/netty.txt as "TRANSPORT REP <the client's line>".
set -u
: "${NETTY_REPS:=5}" "${NETTY_CONNECTIONS:=4}" "${NETTY_WARMUP:=1000}" "${NETTY_REQUESTS:=2000}"
: "${NETTY_SIZE:=1024}"
here=$(cd "$(dirname "$0")" && pwd)
client_src=$here/../../jdk/jdk/net/rdma/netty/NettyEchoClient.java
cp=$(find "$NETTY_DIR" -name '*.jar' | sort | tr '\n' ':')
work=/tmp/bench-netty
rm -rf "$work"
mkdir -p "$work/classes"
"$JDK/bin/javac" -nowarn -cp "$cp" -d "$work/classes" "$client_src" || exit 1
: > "$OUT/netty.txt"

run() {   # TRANSPORT REP PORT
    local transport=$1 rep=$2 port=$3 opts=() server deadline line
    if [ "$transport" = rdma ]; then
        printf 'bind * %s\nconnect %s %s\n' "$port" "$SERVER_ADDR" "$port" > "$work/rdma.conf"
        opts=("-Djdk.net.rdma.conf=$work/rdma.conf" "-Djdk.net.rdma.debug=$work/$transport.$rep.log")
    fi
    "$JDK/bin/java" -cp "$cp" "${opts[@]}" -Dport="$port" io.netty.example.echo.EchoServer \
        > "$work/server.$transport.$rep.out" 2>&1 &
    server=$!
    deadline=$((SECONDS + 180))
    until grep -q '] ACTIVE' "$work/server.$transport.$rep.out"; do
        if ! kill -0 "$server" 2>/dev/null || [ $SECONDS -gt $deadline ]; then
            echo "EchoServer ($transport) did not start: $(tail -n3 "$work/server.$transport.$rep.out")"
            kill -9 "$server" 2>/dev/null
            exit 1
        fi
        sleep 0.2
    done
    line=$("$JDK/bin/java" -cp "$cp:$work/classes" "${opts[@]}" NettyEchoClient "$SERVER_ADDR" "$port" \
               "$NETTY_CONNECTIONS" "$NETTY_REQUESTS" "$NETTY_SIZE" "$NETTY_WARMUP" 2>/dev/null | grep -e '^verified' -e '^FAILED')
    kill "$server"
    wait "$server" 2>/dev/null
    case $line in
        verified*) echo "$transport $rep $line" | tee -a "$OUT/netty.txt" ;;
        *) echo "the $transport client failed: ${line:-no output}"; exit 1 ;;
    esac
    # the switches of the RDMA run, to show that it was RDMA
    if [ "$transport" = rdma ]; then
        [ "$(grep -c ': RDMA socket' "$work/$transport.$rep.log")" -ge $((NETTY_CONNECTIONS + 1)) ] ||
            { echo "the RDMA run's listing shows too few RDMA sockets"; cat "$work/$transport.$rep.log"; exit 1; }
    fi
}

port=18100
for rep in $(seq "$NETTY_REPS"); do
    if [ $((rep % 2)) = 1 ]; then order="rdma tcp"; else order="tcp rdma"; fi
    for transport in $order; do
        run "$transport" "$rep" "$port"
        port=$((port + 1))
    done
done
