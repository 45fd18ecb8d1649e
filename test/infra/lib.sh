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
# Shared helpers of the test infrastructure (test/infra): the build's
# helpers of make/scripts/common.sh, which it sources, and what only the
# test and benchmark drivers use.  Source it; do not run it.

# shellcheck source=../../make/scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../make/scripts/common.sh"

RDIO_INFRA=$RDIO_TOP/test/infra

# Prints the path of TEST's .jtr in the jtreg work directory JTWORK; TEST
# as a report names it (dir/Name.java, or dir/Name.java#id for one @test).
#   jtr_file JTWORK TEST
jtr_file() {
    local name=${2%.java}
    echo "$1/${name/.java\#/_}.jtr"
}

# Runs jtreg on TEST... of the assembled test tree (build/src/test/jdk) with
# the options of the fork's test runs, its work and report directories in
# OUT/JTwork and OUT/JTreport; jtreg options may precede the tests.  The
# status is jtreg's; callers judge a run by its report (jtreg-summary.sh).
#   run_jtreg JDK JTREG_HOME OUT [OPTION...] TEST...
run_jtreg() {
    local jdk=$1 jtreg_home=$2 out=$3
    shift 3
    "$jdk/bin/java" -jar "$jtreg_home/lib/jtreg.jar" \
        -jdk:"$jdk" \
        -dir:"$RDIO_BUILD/src/test/jdk" \
        -w:"$out/JTwork" -r:"$out/JTreport" \
        -agentvm -conc:1 -timeoutFactor:4 \
        -retain:fail,error -ignore:quiet -report:executed \
        -verbose:summary \
        "$@"
}

# Builds the JMH jar JAR from the benchmark sources SRC... with JDK's javac
# and JMH's annotation processor (the JMH of configure's cache, in JMH_DIR),
# unless JAR is newer than every source and than the calling script.  The
# jar is self-contained: java -jar JAR runs org.openjdk.jmh.Main.
#   build_bench_jar JDK JMH_DIR JAR SRC...
build_bench_jar() {
    local jdk=$1 jmh=$2 jar=$3
    shift 3
    local jars=("$jmh"/jmh-core-*.jar "$jmh"/jopt-simple-*.jar "$jmh"/commons-math3-*.jar) j s stale=
    for j in "${jars[@]}" "$jmh"/jmh-generator-annprocess-*.jar; do
        [ -f "$j" ] || die "no JMH jar $j: re-run bash configure"
    done
    [ -f "$jar" ] && [ "$jar" -nt "$0" ] || stale=1
    for s in "$@"; do [ "$s" -nt "$jar" ] && stale=1; done
    [ -n "$stale" ] || return 0
    note "building $jar with $jdk/bin/javac and JMH"
    local classes=$jar.classes cp
    rm -rf "$classes" && mkdir -p "$classes"
    cp=$(IFS=:; echo "${jars[*]}")
    "$jdk/bin/javac" -proc:full -Xlint:-options \
        -cp "$cp" -processorpath "$cp:$(echo "$jmh"/jmh-generator-annprocess-*.jar)" \
        -d "$classes" "$@" > "$jar.javac.log" 2>&1 || { cat "$jar.javac.log" >&2; die "javac failed"; }
    for j in "${jars[@]}"; do
        (cd "$classes" && "$jdk/bin/jar" xf "$j")
    done
    rm -rf "$classes/META-INF/MANIFEST.MF" "$classes/META-INF/maven"
    "$jdk/bin/jar" cfe "$jar.tmp" org.openjdk.jmh.Main -C "$classes" . || die "jar failed"
    mv "$jar.tmp" "$jar"
}

# Builds the JMH jar of RdmaChannels with the image of CONF_DIR, copies it
# to GUEST_OUT/benchmarks.jar and boots the Soft-RoCE guest with SCRIPT as
# its --after script, results in GUEST_OUT; each NAME=VALUE is put in
# SCRIPT's environment (rdma-guest.sh --after-env).  With --pair, it boots
# the two guests of rdma-pair.sh instead, SCRIPT in guest A, results in
# GUEST_OUT/a (A's) and GUEST_OUT/b (B's):
#   run_rdma_channels_after [--pair] CONF_DIR JMH_DIR SCRIPT GUEST_OUT [NAME=VALUE...]
run_rdma_channels_after() {
    local runner=rdma-guest.sh log=after.log
    if [ "$1" = --pair ]; then runner=rdma-pair.sh log=a/after.log; shift; fi
    local conf jmh jdk script=$3 gout=$4 jar=$RDIO_BUILD/bench-rdma/benchmarks.jar env=() e
    conf=$(cd "$1" && pwd) || die "no $1"
    jmh=$(cd "$2" && pwd) || die "no $2"
    jdk=$conf/images/jdk
    [ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images first"
    mkdir -p "$gout" "$(dirname "$jar")"
    build_bench_jar "$jdk" "$jmh" "$jar" "$RDIO_TOP/test/micro/org/openjdk/bench/jdk/net/RdmaChannels.java"
    cp "$jar" "$gout/benchmarks.jar"
    for e in "${@:5}"; do env+=(--after-env "$e"); done
    "$RDIO_INFRA/rdma-guest/$runner" --jdk "$jdk" --after "$script" "${env[@]}" --out "$gout" ||
        die "the run in the guest failed (see $gout/$log)"
}
