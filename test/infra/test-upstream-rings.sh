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
# Runs upstream's tests of the virtual thread scheduler with the carriers'
# io_uring hooks (patches 0025 and 0026) active: every test JVM has the
# agent carrier-rings/CarrierRingLoad, whose virtual threads keep doing
# DIRECT reads, and the engine on (MODE on) or off (MODE off, the same load
# through pread, for a baseline: a test that fails both ways fails for the
# load, not the hooks).  Results go to build/test-upstream-rings-MODE; it
# prints "N passed, N failed[, N skipped]" as test-upstream.sh does.
#
#   test-upstream-rings.sh CONF_DIR JTREG_HOME MODE [TEST...]
#   (default tests: java/lang/Thread/virtual java/util/concurrent/forkjoin)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: test-upstream-rings.sh CONF_DIR JTREG_HOME on|off [TEST...]"
conf=${1:?$usage}
jtreg_home=${2:?$usage}
mode=${3:?$usage}
shift 3
case $mode in on) engine=true ;; off) engine=false ;; *) die "$usage" ;; esac
jdk=$conf/images/jdk
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images"
tests=("$@")
[ "${#tests[@]}" -gt 0 ] || tests=(java/lang/Thread/virtual java/util/concurrent/forkjoin)

agent=$RDIO_BUILD/carrier-rings
src=$RDIO_INFRA/carrier-rings/CarrierRingLoad.java
if [ ! -f "$agent/CarrierRingLoad.jar" ] || [ "$src" -nt "$agent/CarrierRingLoad.jar" ]; then
    rm -rf "$agent" && mkdir -p "$agent/classes"
    "$jdk/bin/javac" -d "$agent/classes" "$src" || die "cannot compile $src"
    printf 'Premain-Class: CarrierRingLoad\n' > "$agent/manifest"
    "$jdk/bin/jar" --create --file "$agent/CarrierRingLoad.jar" --manifest "$agent/manifest" \
        -C "$agent/classes" . || die "cannot make the agent's jar"
fi

status=0
"$RDIO_INFRA/test-upstream.sh" "$conf" "$jtreg_home" \
    -javaoptions:"-javaagent:$agent/CarrierRingLoad.jar -Djdk.nio.useIoUring=$engine" \
    "${tests[@]}" || status=$?
rm -rf "$RDIO_BUILD/test-upstream-rings-$mode"
mv "$RDIO_BUILD/test-upstream-selected" "$RDIO_BUILD/test-upstream-rings-$mode"
exit "$status"
