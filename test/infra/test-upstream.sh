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
# Runs upstream's own jtreg tests of what the fork patches, unchanged and on
# the host, against the built JDK image: the java/nio/channels group (the
# patched sun.nio.ch classes are its implementation), the java/net tests of
# the socket classes and socket options the fork patches or hooks, with the
# virtual-thread tests of blocking socket operations, and jdk/net/Sockets.
# Tests the fork adds to these folders are left to make test-rdio.  Like
# upstream's make test, it runs no manual test (-automatic), excludes the
# tests of upstream's ProblemList.txt, and gives the tests with native
# parts their libraries, built here first.  Prints each test that did not pass, then "N passed, N failed[, N
# skipped]"; a skip (the test's own jtreg.SkippedException, e.g. no IPv6)
# counts as a skip here, not a failure, as upstream counts it.  The
# counts of a run of the whole set are kept in the cache, per upstream
# release, for make update-upstream to compare.
#
# doc/building.md records the counts on the pinned release and on the one
# before it: an update of the pin must not lower them.
#
#   test-upstream.sh CONF_DIR JTREG_HOME [TEST...]
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

conf=${1:?usage: test-upstream.sh CONF_DIR JTREG_HOME [TEST...]}
jtreg_home=${2:?usage: test-upstream.sh CONF_DIR JTREG_HOME [TEST...]}
shift 2
jdk=$conf/images/jdk
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images"

groups=(java/nio/channels java/net/Socket java/net/ServerSocket java/net/SocketImpl
        java/net/SocketOption java/net/vthread jdk/net/Sockets)
tests=("$@")
if [ "${#tests[@]}" = 0 ]; then
    while read -r t; do
        [ -e "$RDIO_TOP/test/jdk/$t" ] || tests+=("$t")
    done < <(cd "$RDIO_BUILD/src/test/jdk" &&
             grep -rl --include='*.java' '@test' "${groups[@]}" | sort)
fi
[ "${#tests[@]}" -gt 0 ] || die "no upstream tests under ${groups[*]}"

# The native libraries of upstream's tests and of its test library (a few
# of these tests load one), in the test image, where upstream's make test
# finds them.  Two steps: the copy into the image lists the files when make
# reads its makefiles.
note "building the native libraries of upstream's jtreg tests"
{ make -s -C "$conf" build-test-jdk-jtreg-native build-test-lib-native &&
  make -s -C "$conf" test-image-jdk-jtreg-native test-image-lib-native; } >/dev/null ||
    die "cannot build the tests' native libraries (make -C $conf test-image-jdk-jtreg-native test-image-lib-native)"

# A run of chosen tests keeps its results apart, so that it never replaces
# those of the last full run.
out=$RDIO_BUILD/test-upstream
[ "$#" = 0 ] || out=$out-selected
mkdir -p "$out"
rm -rf "$out/JTreport"
note "running ${#tests[@]} of upstream's jtreg tests on $jdk"
set +e
run_jtreg "$jdk" "$jtreg_home" "$out" \
    -automatic -exclude:"$RDIO_BUILD/src/test/jdk/ProblemList.txt" \
    -nativepath:"$conf/images/test/jdk/jtreg/native" \
    "${tests[@]}" > "$out/jtreg.log" 2>&1
set -e
status=0
summary=$(RDIO_ALLOW_SKIP=1 "$RDIO_INFRA/jtreg-summary.sh" "$out/JTreport") || status=$?
echo "$summary"
if [ "$#" = 0 ]; then
    mkdir -p "$RDIO_CACHE/test-upstream"
    echo "$summary" > "$RDIO_CACHE/test-upstream/$UPSTREAM_VERSION"
fi
exit "$status"
