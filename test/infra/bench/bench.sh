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
# Runs the fork's JMH benchmarks (the classes under test/micro of this
# repository) from upstream's microbenchmark jar, on the built JDK.
#
#   bench.sh CONF_DIR
# Extra JMH options (e.g. -f 3 -i 10) can be given in BENCH_OPTS.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

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
