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
# Prints "N passed, N failed[, N skipped]" over one or more jtreg report
# directories (their text/summary.txt), and exits non-zero when any test
# failed or none ran.  A missing report (its run broke down before jtreg
# wrote one) counts as one failure.
#
# A test that jtreg reports as passed with "Skipped:" (jtreg.SkippedException)
# counts as skipped.  Unless RDIO_ALLOW_SKIP=1, a skip is a failure: the
# fork's tests are meant to run, not to skip (the RDMA tests run in a guest).
# A test that the report lists as "Not run." (the guest's report lists
# every test it was given) is a failure too.
#
# Each failed or skipped test is listed on stderr with the run it belongs
# to (its report directory under build/, without /JTreport), since the
# direct I/O matrix (directio-fs.sh) runs the same tests once per file
# system.  Under each failed test come a few lines of why, from its .jtr
# in the JTwork directory beside the report: a JVM's fatal-error header
# (signal and problematic frame), or else the exceptions the test threw.
# CI keeps only the end of a run's output, and its clone is gone after.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# REPORT TEST: up to 12 lines of why TEST failed, indented, on stderr.
why_failed() {
    local jtr thrown='^([a-z][a-zA-Z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*(Exception|Error)\b|^Caused by: '
    jtr=$(jtr_file "${1%/JTreport}/JTwork" "$2")
    [ -f "$jtr" ] || return 0
    {
        if grep -q '^# A fatal error has been detected' "$jtr"; then
            grep -E -A1 '^#  (SIG|Internal Error|Out of Memory)|^# Problematic frame:' "$jtr" | grep -v -x -e '--' -e '#'
        elif grep -q -E "$thrown" "$jtr"; then
            grep -E "$thrown" "$jtr"
        else
            # Neither (a process that aborted in libc, say): the output's
            # end, and the stacks of the run's cores (a guest keeps them).
            grep -v -e '^\s*$' -e '^----' "$jtr" | grep -v -E '^(elapsed|end|result|test result):' | tail -n 6
            cat "${1%/JTreport}"/crashes/core.*.bt 2>/dev/null | grep -E '^(Program terminated|#[0-4] )'
        fi
    } | awk '!seen[$0]++' | head -n 12 | cut -c1-300 | sed 's/^/    /' >&2
}

passed=0 failed=0 skipped=0
for report in "$@"; do
    summary=$report/text/summary.txt
    if [ ! -f "$summary" ]; then
        echo "FAILED: no jtreg report in $report" >&2
        failed=$((failed + 1))
        continue
    fi
    run=${report#"$RDIO_BUILD"/}
    run=${run%/JTreport}
    while read -r test status rest; do
        case "$status $rest" in
            Passed.*Skipped:*) skipped=$((skipped + 1)); echo "SKIPPED: $run: $test $rest" >&2 ;;
            Passed.*) passed=$((passed + 1)) ;;
            *) failed=$((failed + 1)); echo "FAILED: $run: $test $status $rest" >&2
               why_failed "$report" "$test" ;;
        esac
    done < "$summary"
done

line="$passed passed, $failed failed"
[ "$skipped" = 0 ] || line="$line, $skipped skipped"
echo "$line"
[ "$failed" = 0 ] && [ $((passed + skipped)) -gt 0 ] || exit 1
[ "$skipped" = 0 ] || [ "${RDIO_ALLOW_SKIP:-0}" = 1 ] || exit 1
