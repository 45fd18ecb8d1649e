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
