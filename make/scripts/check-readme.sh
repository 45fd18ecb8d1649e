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
# Checks that README.md stays what issue 39 asks of it, and fails naming
# each place where it does not:
#
#   - Each code example is a file of the test tree, which a jtreg test
#     compiles and runs: a "<!-- example: PATH -->" line right before a
#     fenced block names the file, and the block must equal the file after
#     its licence header (everything after the file's first empty line),
#     byte for byte.  So the README cannot show code that does not run.
#   - Every file in a readme/ directory of the test tree is shown, so an
#     example cannot be tested but left out of the README, or dropped from
#     it while its test goes on passing.
#   - No table cell is longer than 300 characters: a cell that needs more
#     belongs in a document the table links to.
#
#   check-readme.sh [README]      README.md of the checkout by default
. "$(dirname "$0")/common.sh"

readme=${1:-$RDIO_TOP/README.md}
[ -f "$readme" ] || die "no $readme"
max_cell=300
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# Each example block to $work/N.block, its file's path to $work/N.path.
awk -v work="$work" '
    function fail(msg) { print FILENAME ":" FNR ": " msg > "/dev/stderr"; failed = 1 }
    want_fence && /^```/ { inside = 1; want_fence = 0; next }
    want_fence { fail("\"<!-- example: " path " -->\" is not followed by a fenced block"); want_fence = 0 }
    inside && /^```$/ { inside = 0; next }
    inside { print > (work "/" n ".block"); next }
    /^<!-- example: [^ ]+ -->$/ {
        path = $3; n++; want_fence = 1
        print path > (work "/" n ".path")
    }
    END { if (inside || want_fence) fail("the file ends inside an example"); exit failed }
' "$readme" || bad=$((bad + 1))

shown=()
for p in "$work"/*.path; do
    [ -e "$p" ] || break
    n=${p##*/}; n=${n%.path}
    f=$(cat "$p")
    shown+=("$f")
    if [ ! -f "$RDIO_TOP/$f" ]; then
        echo "README example $n names $f, which does not exist" >&2
        bad=$((bad + 1))
        continue
    fi
    touch "$work/$n.block"
    # The file after its licence header: everything after its first empty line.
    if ! diff -u --label "$f (after its licence header)" --label "README.md, example $n" \
            <(sed '1,/^$/d' "$RDIO_TOP/$f") "$work/$n.block" >&2; then
        echo "README example $n differs from $f (above); the README must show the tested file" >&2
        bad=$((bad + 1))
    fi
done

while read -r f; do
    found=0
    for s in "${shown[@]}"; do [ "$s" != "$f" ] || found=1; done
    if [ "$found" = 0 ]; then
        echo "$f is a README example (it is in a readme/ directory) that README.md does not show" >&2
        bad=$((bad + 1))
    fi
done < <(cd "$RDIO_TOP" && find test -path '*/readme/*' -type f | sort)

# Table rows: "| a | b |" lines outside fenced blocks; a cell is the text
# between two unescaped pipes.
# mawk counts bytes, so a cell with non-ASCII characters counts a little
# long: the check errs on the safe side.
longest=$(awk -v max="$max_cell" '
    /^```/ { fence = !fence; next }
    fence || !/^\|/ { next }
    {
        line = $0; gsub(/\\\|/, "\001", line)
        n = split(line, cells, "|")
        for (i = 2; i < n; i++) {
            c = cells[i]; sub(/^ +/, "", c); sub(/ +$/, "", c)
            if (length(c) > longest) longest = length(c)
            if (length(c) > max) {
                printf "README.md:%d: a table cell of %d characters (at most %d): %.60s...\n", FNR, length(c), max, c > "/dev/stderr"
                over++
            }
        }
    }
    END { print longest + 0; exit over > 0 }
' "$readme") || bad=$((bad + 1))

[ "$bad" = 0 ] || die "README.md: $bad problem(s), above"
note "README.md: ${#shown[@]} examples equal their tested files; longest table cell $longest characters (at most $max_cell)"
