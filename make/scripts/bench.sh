#!/usr/bin/env bash
# Runs the fork's JMH benchmarks (the classes under test/micro of this
# repository) from upstream's microbenchmark jar, on the built JDK.
#
#   bench.sh CONF_DIR
# Extra JMH options (e.g. -f 3 -i 10) can be given in BENCH_OPTS.
. "$(dirname "$0")/common.sh"

conf=${1:?usage: bench.sh CONF_DIR}
jdk=$conf/images/jdk
jar=$conf/images/test/micro/benchmarks.jar
[ -f "$jar" ] || die "no $jar: build it with make bench (needs configure's JMH)"

mapfile -t classes < <(cd "$RDIO_TOP/test/micro" && find . -name '*.java' | sed 's|^\./||; s|\.java$||; s|/|.|g' | sort)
[ "${#classes[@]}" -gt 0 ] || die "no benchmarks under test/micro"
regex="^($(IFS='|'; echo "${classes[*]//./\\.}"))\\."

out=$RDIO_BUILD/bench
mkdir -p "$out"
note "running ${#classes[@]} benchmark classes on $jdk; results in $out/results.txt"
# shellcheck disable=SC2086
"$jdk/bin/java" -jar "$jar" "$regex" -rf text -rff "$out/results.txt" ${BENCH_OPTS:-}
