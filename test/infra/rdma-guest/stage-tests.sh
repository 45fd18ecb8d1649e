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
# The last stage of the guest's init (busybox sh), which sources this file
# from the initramfs: jtreg with the JDK under test, the report on the
# share; or, for a benchmark run, JMH and the --after script.  It uses
# init's helpers (report, fail, off, since, oneline, $in_host) and job.env,
# and ends with init's power-off.
#
# $in_host and $BENCH_ARGS are word lists, expanded unquoted on purpose.
# shellcheck shell=sh disable=SC2086

t=$(now)
# Each connected rsocket holds two descriptors (its rdma_cm event channel
# and its completion channel), so thousands of connections in one JVM need
# more than the kernel's default hard limit of 4096.
ulimit -n 65536
if [ -n "$BENCH_JAR" ] || [ -n "$BENCH_AFTER" ]; then
    # C2 only (see run_jtreg below: tiered JVMs crash under TCG), so that
    # scores are those of optimized code.
    if [ -n "$BENCH_JAR" ]; then
        timeout -s KILL "$TIMEOUT_TESTS" $in_host JAVA_TOOL_OPTIONS=-XX:-TieredCompilation \
            sh -c 'cd /tmp && exec "$@"' sh \
            "$JDK/bin/java" -jar "$BENCH_JAR" -foe true $BENCH_ARGS -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR" \
            -rf csv -rff "$SHARE/jmh.csv" > /results/jmh.log 2>&1
        rc=$?
        [ "$rc" != 137 ] || fail tests "$t" "JMH did not finish within $TIMEOUT_TESTS s (last output: $(tail -n1 /results/jmh.log | oneline))"
        [ "$rc" = 0 ] && [ -s /results/jmh.csv ] ||
            fail tests "$t" "JMH failed (exit status $rc): $(grep -m1 -e 'Exception' -e 'ERROR' /results/jmh.log | oneline)"
    fi
    if [ -n "$BENCH_AFTER" ]; then
        timeout -s KILL "$TIMEOUT_TESTS" $in_host JAVA_TOOL_OPTIONS=-XX:-TieredCompilation \
            JDK="$JDK" SERVER_ADDR="$SERVER_ADDR" NETTY_DIR="$NETTY_DIR" OUT="$SHARE" $AFTER_ENV \
            ${PAIR_ROLE:+PAIR_PEER=$PAIR_PEER AGENT_PORT=$AGENT_PORT} \
            sh -c 'cd /tmp && exec bash "$@"' sh "$BENCH_AFTER" > /results/after.log 2>&1
        rc=$?
        [ "$rc" = 0 ] || fail tests "$t" "$BENCH_AFTER failed (exit status $rc): $(tail -n1 /results/after.log | oneline)"
    fi
    report "tests ok $(since "$t") ${BENCH_JAR:+JMH }${BENCH_AFTER:+after}"
    off
fi
# A work directory of an earlier run spares jtreg compiling its property
# definitions and the tests again (it recompiles what is out of date).
# jtreg runs in the chroot, whose /tmp is /host/tmp here.
[ -z "$JTWORK_SEED" ] || cp -a "/host$JTWORK_SEED" /host/tmp/JTwork 2>/dev/null || rm -rf /host/tmp/JTwork
# Direct I/O tests need a file system with O_DIRECT, which neither the
# 9p shares nor tmpfs before Linux 6.6 have.  Where the run loaded loop and
# ext4 (RDIO_GUEST_EXTRA_MODULES=loop,ext4), an ext4 on a loop device over
# a file in the guest's /tmp is mounted on /var/tmp, where DirectIODir
# finds it.
if grep -qx loop /modules.list && grep -qx ext4 /modules.list; then
    $in_host truncate -s 384M /tmp/rdio-directio.img &&
        dev=$(losetup -f) && losetup "$dev" /host/tmp/rdio-directio.img &&
        $in_host mkfs.ext4 -q -F "$dev" && mount -t ext4 "$dev" /host/var/tmp &&
        chmod 1777 /host/var/tmp ||
        fail tests "$t" "cannot set up the ext4 for the direct I/O tests"
fi
# A process that dies of a signal HotSpot does not handle (an abort in
# libc, say) leaves no hs_err file, only its exit status; its core does
# tell.  The tests run in the chroot, where the kernel resolves the
# pattern, so /tmp/cores there is /host/tmp/cores here; crashes() keeps
# the cores with the crash logs, and report.sh prints their stacks.
mkdir -p /host/tmp/cores && echo /tmp/cores/core.%e.%p > /proc/sys/kernel/core_pattern &&
    ulimit -c unlimited
set --
while read -r test; do set -- "$@" "$test"; done < /results/tests.list
# Every JVM of the run (jtreg, the javac it starts, the tests and what they
# start) compiles with C1 only, through JAVA_TOOL_OPTIONS: under QEMU's
# multi-threaded TCG, JVMs with tiered compilation crash at the entry of
# C1-compiled methods, with C1 only or C2 only they do not, and C2 costs
# emulated CPU time here (doc/testing.md has the measurements).  -report:files keeps the report
# to the tests named: jtreg's default report walks the whole test tree,
# which takes minutes under TCG.  jtreg runs in a writable directory, so
# that a JVM that crashes leaves its hs_err file where the crash logs are
# collected from.  -Drdio.rdma.device names the RDMA device, which the
# tests that need one require ("@requires rdio.rdma.device != null";
# test/jdk/TEST.ROOT lists the property): elsewhere jtreg leaves them out.
# In guest A of a pair, -Drdio.rdma.peer names guest B's address, which
# the two-guest tests require in the same way, and RDIO_RDMA_AGENT_PORT
# the port of B's control agent.
run_jtreg() {
    timeout -s KILL "$TIMEOUT_TESTS" $in_host JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1 \
        sh -c 'mkdir -p /tmp/jtreg-cwd && cd /tmp/jtreg-cwd && exec "$@"' sh \
        "$JDK/bin/java" -jar "$JTREG_HOME/lib/jtreg.jar" \
        -jdk:"$JDK" -dir:"$TEST_ROOT" -w:/tmp/JTwork -r:"$SHARE/JTreport" -report:files \
        "${JTREG_MODE:--agentvm}" -conc:1 -verbose:summary -e:JAVA_TOOL_OPTIONS \
        -timeoutFactor:"$JTREG_TIMEOUT_FACTOR" -e:RDIO_RDMA_SERVER_ADDR="$SERVER_ADDR" \
        -e:RDIO_RDMA_LIBRARY_RELEASE="$RDMA_RELEASE" -e:RDIO_RDMA_LIBRARY_DIR="$RDMA_DIR" \
        ${RDMA_PREFIX:+-e:LD_LIBRARY_PATH} -e:RDIO_NETTY_DIR="$NETTY_DIR" -e:RDIO_HELIDON_DIR="$HELIDON_DIR" \
        -javaoption:-Drdio.rdma.device=rxe0 \
        ${PAIR_ROLE:+-javaoption:-Drdio.rdma.peer=$SERVER_ADDR -e:RDIO_RDMA_AGENT_PORT=$AGENT_PORT} \
        ${JAVA_OPTS:+"-javaoptions:$JAVA_OPTS"} "$@" > /results/jtreg.log 2>&1
}
# The crash logs of JVMs that died in this run, and the first one's frame.
# A JVM writes it to its working directory, or to /tmp when it cannot.
crash_logs() {
    { find /host/tmp -maxdepth 1 -name 'hs_err_pid*.log'
      find /host/tmp/jtreg-cwd /host/tmp/JTwork -name 'hs_err_pid*.log'
      find /host/tmp/cores -name 'core.*'; } 2>/dev/null
}
crashes() {
    crash_logs | while read -r f; do
        mkdir -p /results/crashes && cp "$f" /results/crashes/ && echo "/results/crashes/${f##*/}"
    done
}
crash_frame() {   # FILE: its "Problematic frame" line and the one after
    grep -A1 '^# Problematic frame:' "$1" 2>/dev/null | tail -n1 | oneline
}
run_jtreg "$@"
rc=$?
# A JVM that crashes before jtreg runs a test (such as the javac that
# compiles the harness's property definitions) is the emulator's fault, not
# a test's: jtreg runs once more, and says so.  A crash in a test is a
# failure.
if [ "$rc" != 0 ] && [ ! -s /results/JTreport/text/summary.txt ] &&
   grep -q 'A fatal error has been detected' /results/jtreg.log; then
    first=$(crashes | head -n1)
    mv /results/jtreg.log /results/jtreg-crashed.log
    echo "a JVM crashed before any test ran, after $(since "$t") s: $(crash_frame "$first") ($first); jtreg ran again" > /results/retried
    crash_logs | xargs rm -f
    run_jtreg "$@"
    rc=$?
fi
# The .jtr files, for the per-test times and for post-mortems.
cp -r /host/tmp/JTwork /results/JTwork 2>/dev/null
summary=/results/JTreport/text/summary.txt
if [ "$rc" = 137 ]; then
    fail tests "$t" "jtreg did not finish within $TIMEOUT_TESTS s (last output: $(grep -v '^Killed$' /results/jtreg.log | tail -n1 | oneline))"
elif [ ! -s "$summary" ]; then
    first=$(crashes | head -n1)
    fail tests "$t" "jtreg ran no test (exit status $rc): $(tail -n3 /results/jtreg.log | oneline)${first:+ (JVM crash: $(crash_frame "$first"), $first)}"
fi
crashes > /dev/null
# Inside the guest there is no reason to skip: a skip is a failure.  So is
# a test named that jtreg did not run (-report:files lists it as "Not
# run.", e.g. one whose @requires the guest does not meet).
bad=$(grep -v -e '^$' "$summary" | grep -v 'Passed\.' ; grep 'Passed\..*Skipped:' "$summary")
if [ -n "$bad" ]; then
    fail tests "$t" "$(echo "$bad" | wc -l) of $(grep -c . "$summary") tests did not pass, first: $(echo "$bad" | head -n1 | oneline)"
fi
[ "$rc" = 0 ] || fail tests "$t" "jtreg exit status $rc: $(tail -n3 /results/jtreg.log | oneline)"
report "tests ok $(since "$t") $(grep -c . "$summary") passed"
off
