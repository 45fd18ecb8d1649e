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
# Usage: rdma-conformance.sh [--tcp] JDK_IMAGE JTREG_HOME [TEST...]
#
# Upstream's own socket and channel tests, unchanged, over transparent RDMA:
# jtreg runs them in the RDMA guest (test/infra/rdma-guest/rdma-guest.sh, a JVM per
# test) with a rules file that makes every bound socket, and every connect
# to the rxe0 subnet, an RDMA socket, and lists each switch on the test's
# standard error.  rdma_cm cannot connect to a loopback address over a RoCE
# device (nor over a Soft-RoCE device on lo: tried), so the tests' names
# for the local host lead to rxe0's address:
# InetAddress.getLoopbackAddress() through the Java agent of
# test/jdk/jdk/net/rdma/conformance/LoopbackToRdma.java, and "localhost"
# and the guest's host name through jdk.net.hosts.file.  --tcp runs the
# same without the rules file, for the tests that fail in this setting
# whatever the transport.  Prints each test's outcome and how many of its
# sockets became RDMA sockets, then the pass rate; the per-test lines are
# in build/rdma-conformance[-tcp]/results.txt.  The default tests are those
# of doc/jep-rdma-sockets.md's conformance section: upstream's channel
# tests and its java/net/Socket and java/net/ServerSocket tests.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=rdma-guest/rdma-guest.conf
. "$RDIO_INFRA/rdma-guest/rdma-guest.conf"

transport=rdma
if [ "${1:-}" = --tcp ]; then transport=tcp; shift; fi
jdk=${1:?usage: rdma-conformance.sh [--tcp] JDK_IMAGE JTREG_HOME [TEST...]}
jtreg=${2:?usage: rdma-conformance.sh [--tcp] JDK_IMAGE JTREG_HOME [TEST...]}
shift 2
tests=("$@")
# Left out of the default run: AcceptInheritHandle connects to the literal
# 127.0.0.1, and when that is refused it leaves its server child waiting in
# accept with jtreg's output open, which stalls the whole run
# (doc/jep-rdma-sockets.md, conformance).
left_out=(java/net/ServerSocket/AcceptInheritHandle.java)
if [ "${#tests[@]}" = 0 ]; then
    # upstream's tests only: those the fork adds to these folders are left
    # to make test-rdio
    while read -r t; do
        [[ " ${left_out[*]} " == *" $t "* ]] || [ -e "$RDIO_TOP/test/jdk/$t" ] || tests+=("$t")
    done < <(cd "$RDIO_BUILD/src/test/jdk" &&
             grep -rl --include='*.java' '@test' java/nio/channels/SocketChannel \
                 java/nio/channels/ServerSocketChannel java/nio/channels/Selector \
                 java/nio/channels/etc java/net/Socket java/net/ServerSocket | sort)
fi
out=$RDIO_BUILD/rdma-conformance
[ "$transport" = rdma ] || out=$out-tcp
mkdir -p "$out"

# the agent that gives getLoopbackAddress() rxe0's address
rm -rf "$out/agent"
mkdir -p "$out/agent/classes"
"$jdk/bin/javac" -d "$out/agent/classes" "$RDIO_TOP/test/jdk/jdk/net/rdma/conformance/LoopbackToRdma.java" ||
    die "cannot compile the loopback agent"
printf 'Premain-Class: LoopbackToRdma\nCan-Retransform-Classes: true\n' > "$out/agent/manifest.txt"
"$jdk/bin/jar" cfm "$out/loopback-to-rdma.jar" "$out/agent/manifest.txt" -C "$out/agent/classes" . ||
    die "cannot make the loopback agent's jar"
# rdio-guest is the guest's host name (test/infra/rdma-guest/init)
echo "$GUEST_SERVER_ADDR localhost rdio-guest" > "$out/hosts"
opts="-javaagent:$out/loopback-to-rdma.jar=$GUEST_SERVER_ADDR -Djdk.net.hosts.file=$out/hosts"
if [ "$transport" = rdma ]; then
    cat > "$out/rdma.conf" <<CONF
# every bound socket (listeners, and clients that bind first)
bind * *
# every connect of an unbound socket to the rxe0 subnet
connect $GUEST_SERVER_ADDR/$GUEST_PREFIX_LEN *
CONF
    opts+=" -Djdk.net.rdma.conf=$out/rdma.conf -Djdk.net.rdma.debug="
fi

start=$SECONDS
# About 150 tests, a JVM or more each, under TCG: the run's time limit
# (RDMA_CONFORMANCE_TIMEOUT seconds) and jtreg's timeout factor
# (RDMA_CONFORMANCE_TIMEOUT_FACTOR: 1 gives a test its own limit, 2 minutes
# by default, so that one that hangs over RDMA costs no more); rdma-guest.conf
# takes both from the environment.  Tests not reached are listed as such.
GUEST_TIMEOUT_TESTS=${RDMA_CONFORMANCE_TIMEOUT:-10800} \
GUEST_JTREG_TIMEOUT_FACTOR=${RDMA_CONFORMANCE_TIMEOUT_FACTOR:-1} \
"$RDIO_INFRA/rdma-guest/rdma-guest.sh" --jdk "$jdk" --jtreg "$jtreg" --othervm --out "$out/guest" \
    --java-opts "$opts" --tests "${tests[@]}" ||
    note "some tests did not pass (expected: see the table)"
minutes=$(( (SECONDS - start + 59) / 60 ))

# TEST RESULT RDMA-SOCKETS, from each test's .jtr
find "$out/guest/JTwork" -name '*.jtr' | sort | while read -r jtr; do
    name=${jtr#"$out/guest/JTwork/"}
    result=$(sed -n 's/^execStatus=\([A-Za-z]*\).*/\1/p' "$jtr" | head -n1)
    switched=$(grep -c ": RDMA socket" "$jtr" || true)
    reason=$(sed -n 's/^execStatus=[A-Za-z]*\. *//p' "$jtr" | head -n1 | cut -c1-150)
    printf '%s\t%s\t%s\t%s\n' "${name%.jtr}.java" "$result" "$switched" "$reason"
done > "$out/results.txt"
# the tests that jtreg did not run: excluded by @requires (Windows and
# macOS only), or past the time limit
for t in "${tests[@]}"; do
    (cd "$RDIO_BUILD/src/test/jdk" && grep -rl --include='*.java' '@test' "$t")
done | sort -u | while read -r test; do
    grep -q "^${test%.java}[._]" "$out/results.txt" || printf '%s\tNotRun\t0\t\n' "$test"
done >> "$out/results.txt"
if [ "$#" = 0 ]; then
    for t in "${left_out[@]}"; do printf '%s\tNotRun\t0\tleft out of the run\n' "$t"; done >> "$out/results.txt"
fi
awk -F'\t' -v m="$minutes" '
    $2 == "NotRun" { skipped++; next }
    { n++; if ($2 == "Passed") p++; if ($3 > 0) r++; if ($3 > 0 && $2 == "Passed") rp++ }
    END { printf "%d tests run, %d passed (%.0f%%); %d used RDMA sockets, %d of them passed; %d not run (@requires, the time limit, or left out); %d min\n", n, p, n ? 100 * p / n : 0, r, rp, skipped, m }' \
    "$out/results.txt"
