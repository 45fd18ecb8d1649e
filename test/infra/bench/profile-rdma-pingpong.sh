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
# Where Java's RDMA ping-pong spends its CPU, per wait mode, in the
# Soft-RoCE guest (make profile-rdma):
#
#   profile-rdma-pingpong.sh CONF_DIR JMH_DIR
#
# On the host it builds the JMH jar of RdmaChannels and starts the guest
# with this script as the --after script.  In the guest (SERVER_ADDR set)
# it runs RdmaChannels.pingPong over RDMA at 64 B and 1 MiB, one JMH fork
# each, under perf record (cpu-clock, the only clock TCG offers) from
# PROFILE_DELAY_MS (24,000) after the JVM starts, so that the profile is
# of the last warm-up iteration and the measurement, not of the JIT at
# work (RdmaChannels warms up for 20 s), once
# with the waits through the poller thread (-Djdk.net.rdma.waitMode=poller)
# and once with the default, and writes each profile's flat top (self
# time by thread and library, and by thread, library and symbol; JIT-compiled Java methods are named
# from the map that -XX:+DumpPerfMapAtExit leaves) to
# build/profile-rdma/profile-MODE-SIZE.txt.
set -u

if [ -n "${SERVER_ADDR:-}" ]; then
    command -v perf > /dev/null || { echo "no perf on the host: install linux-perf"; exit 1; }
    for size in 64 1048576; do
        for mode in poller direct; do
            name=$mode-$size
            perf record -e cpu-clock -F 997 -D "${PROFILE_DELAY_MS:-24000}" -o "$OUT/perf-$name.data" -- \
                "$JDK/bin/java" -jar "$OUT/benchmarks.jar" 'RdmaChannels\.pingPong$' -f 1 -foe true \
                -p transport=rdma -p size=$size \
                -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR -Djdk.net.rdma.waitMode=$mode -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
                > "$OUT/jmh-$name.log" 2>&1 ||
                { echo "JMH failed for $name: $(tail -n 3 "$OUT/jmh-$name.log")"; exit 1; }
            {
                grep -E '^RdmaChannels.pingPong +|pingPong:p0.(50|99) ' "$OUT/jmh-$name.log"
                echo "# by thread and library"
                perf report -i "$OUT/perf-$name.data" --stdio --no-children --sort comm,dso \
                    --percent-limit 1 2> /dev/null | grep -v '^#' | grep -v '^$'
                echo "# by thread, library and symbol"
                perf report -i "$OUT/perf-$name.data" --stdio --no-children --sort comm,dso,sym \
                    --percent-limit 0.5 2> /dev/null | grep -v '^#' | grep -v '^$'
            } > "$OUT/profile-$name.txt"
            rm -f "$OUT/perf-$name.data"
            echo "$name done"
        done
    done
    exit 0
fi

# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
[ -n "${1:-}" ] && [ -n "${2:-}" ] || die "usage: profile-rdma-pingpong.sh CONF_DIR JMH_DIR"
out=$RDIO_BUILD/profile-rdma
command -v perf > /dev/null || die "no perf: install linux-perf (apt-get install linux-perf)"
run_rdma_channels_after "$1" "$2" "$RDIO_INFRA/bench/profile-rdma-pingpong.sh" "$out" \
    "PROFILE_DELAY_MS=${PROFILE_DELAY_MS:-24000}"
for f in "$out"/profile-*.txt; do
    echo "== $(basename "$f" .txt)"
    head -n 30 "$f"
done
