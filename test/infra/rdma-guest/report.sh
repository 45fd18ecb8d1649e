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
# The report of a guest run, for rdma-guest.sh (which sources this file).
#
#   guest_report   keeps the run's jtreg work directory as the seed of the
#                  next, prints the stages' and the tests' times and the
#                  rstream baseline, and fails naming the stage and the
#                  cause of a failed run; a test run ends with
#                  jtreg-summary.sh's verdict

guest_report() {
    if [ -d "$out/JTwork/extraPropDefns" ]; then
        rm -rf "$jtwork_seed.tmp"
        mkdir -p "$(dirname "$jtwork_seed")"
        if cp -a "$out/JTwork" "$jtwork_seed.tmp"; then
            rm -rf "$jtwork_seed"
            mv "$jtwork_seed.tmp" "$jtwork_seed"
        fi
    fi

    # The status file, or the console when the share never came up.
    if [ -s "$out/status" ]; then
        status=$(cat "$out/status")
    else
        status=$(tr -d '\r' < "$out/console.log" 2>/dev/null | sed -n 's/^.*rdio-guest-status: //p')
    fi
    cause='' sum=0
    while read -r s result secs detail; do
        [ -n "$s" ] || continue
        printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" "$s" "$result" "$secs" "$detail"
        sum=$(awk -v a="$sum" -v b="$secs" 'BEGIN { print a + b }')
        [ "$result" = ok ] || cause="stage $s failed: $detail"
    done <<< "$status"
    printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" qemu "" \
        "$(awk -v w="$wall" -v s="$sum" 'BEGIN { printf "%.1f", w - s }')" \
        "outside the stages: QEMU start, firmware, power-off (wall time $wall s in all)"

    # Per-test times, from the .jtr files ("elapsed=MILLIS ...").
    if [ -f "$out/JTreport/text/summary.txt" ]; then
        while read -r test result _; do
            jtr=$(jtr_file "$out/JTwork" "$test")
            ms=$(sed -n 's/^elapsed=\([0-9]*\).*/\1/p' "$jtr" 2>/dev/null | head -n1)
            printf '%s:   %-50s %-8s %7s s\n' "$RDIO_PROG" "$test" "$result" \
                "$(awk -v ms="${ms:-0}" 'BEGIN { printf "%.1f", ms / 1000 }')"
        done < "$out/JTreport/text/summary.txt"
    fi
    local core
    for core in "$out"/crashes/core.*; do
        [ -f "$core" ] && [ "${core%.bt}" = "$core" ] || continue
        note "a process dumped core: $core, its stack in $core.bt:"
        core_stack "$core" | sed "s/^/$RDIO_PROG:   /"
    done
    [ ! -s "$out/retried" ] || note "tests: $(cat "$out/retried")"
    if [ -s "$out/rstream-baseline.txt" ] && grep -qv '^#' "$out/rstream-baseline.txt"; then
        note "rstream baseline ($out/rstream-baseline.txt):"
        sed "s/^/$RDIO_PROG:   /" "$out/rstream-baseline.txt"
    fi

    [ -z "$watchdog" ] || die "$watchdog"
    [ -z "$cause" ] || die "$cause"
    if [ "$(grep -c . <<< "$status")" -lt "${#stages[@]}" ]; then
        case $qrc in
            124|137) die "the guest did not finish within $total s; QEMU killed (see $out/console.log)" ;;
        esac
        s=${stages[$(grep -c . <<< "$status")]}
        last=$(tr -d '\r' < "$out/console.log" 2>/dev/null | grep -v '^\s*$' | tail -n1)
        [ -n "$last" ] || last=$(grep -v '^\s*$' "$out/qemu.log" | tail -n1)
        die "QEMU exited (status $qrc) during stage $s: ${last:-no output} (see $out/console.log)"
    fi
    [ -n "$bench" ] || "$RDIO_INFRA/jtreg-summary.sh" "$out/JTreport"
}
