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

# Checks that every file of the repository starts with the licence header
# upstream uses for its kind of file, and fails naming each file that does
# not:
#
#   classpath  GPLv2 with the Classpath Exception: the module sources under
#              src/ (Java and C alike) and the top-level Makefile, as
#              upstream's src/ and make/*.gmk
#   gpl        GPLv2 alone: tests, benchmarks, scripts and configure, as
#              upstream's test/, test/micro/, make/scripts/ and configure
#   none       documents, patches (whose headers describe the change) and
#              the talk's slide text, which the tests compare verbatim
#
# A file that no rule names fails too, so that a new kind of file gets a
# decision rather than slipping through.  After the shebang, if any, the
# header must be the first comment, in the file's own comment syntax, with
# one "Copyright (c) YEAR[, YEAR], the rdio JDK authors." line.
#
#   check-headers.sh            every file git tracks (or, outside a git
#                               checkout, every file under the top)
#   check-headers.sh FILE...    only those, as paths from the top
. "$(dirname "$0")/common.sh"

cd "$RDIO_TOP"

# The kind of header a file needs, from its path.
kind_of() {
    case $1 in
        *.md|.gitignore|make/patches/*) echo none ;;
        # The talk's slide and javac's diagnostics on it, line for line.
        test/jdk/java/nio/channels/FileChannel/directio/TalkExample/slide/*) echo none ;;
        test/jdk/*.out) echo none ;;
        src/*.java|src/*.c|src/*.h|Makefile|make/*.gmk) echo classpath ;;
        test/*.java|test/*.c|test/*.sh|test/infra/*|make/scripts/*|configure|.ci/run) echo gpl ;;
        make/*.conf|make/*.exclude) echo gpl ;;
        *) echo unknown ;;
    esac
}

# The comment syntax of a file: c for /* */, hash for #.
style_of() {
    case $1 in
        *.java|*.c|*.h) echo c ;;
        *) echo hash ;;
    esac
}

# The header's text without comment markers, after the copyright line.
notice() {
    cat <<'EOF'
DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.

This code is free software; you can redistribute it and/or modify it
under the terms of the GNU General Public License version 2 only, as
EOF
    if [ "$1" = classpath ]; then
        cat <<'EOF'
published by the Free Software Foundation.  Oracle designates this
particular file as subject to the "Classpath" exception as provided
by Oracle in the LICENSE file that accompanied this code.
EOF
    else
        echo "published by the Free Software Foundation."
    fi
    cat <<'EOF'

This code is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
version 2 for more details (a copy is included in the LICENSE file that
accompanied this code).

You should have received a copy of the GNU General Public License version
2 along with this work; if not, write to the Free Software Foundation,
Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.

Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
or visit www.oracle.com if you need additional information or have any
questions.
EOF
}

# The first comment of a file, markers removed: for c style the lines of
# the leading /* ... */ block, for hash style the leading # lines after an
# optional shebang and the lone "#" that upstream puts before the notice.
header_of() {
    case $2 in
        c) awk 'NR == 1 && $0 != "/*" { exit }
                NR == 1 { next }
                $0 == " */" { exit }
                { sub(/^ \* ?/, ""); sub(/^ \*$/, ""); print }' "$1" ;;
        hash) awk 'NR == 1 && /^#!/ { next }
                   !/^#/ { exit }
                   { sub(/^# ?/, "") }
                   $0 == "" && !n { next }
                   { n++; print }' "$1" ;;
    esac
}

check() {
    local f=$1 kind style head want
    kind=$(kind_of "$f")
    case $kind in
        none) return 0 ;;
        unknown) echo "$f: no licence rule covers this kind of file (add one to make/scripts/check-headers.sh)"; return 1 ;;
    esac
    style=$(style_of "$f")
    head=$(header_of "$f" "$style")
    if ! head -n1 <<< "$head" | grep -Eq '^Copyright \(c\) (20[0-9]{2}, )?20[0-9]{2}, the rdio JDK authors\. All rights reserved\.$'; then
        echo "$f: does not start with a \"Copyright (c) YEAR, the rdio JDK authors. All rights reserved.\" line"
        return 1
    fi
    want=$(notice "$kind")
    # The header may go on after the notice ("#" then the script's own
    # description), so compare only as many lines as the notice has.
    if [ "$(sed -n "2,$(( $(wc -l <<< "$want") + 1 ))p" <<< "$head")" != "$want" ]; then
        if [ "$kind" = classpath ]; then
            echo "$f: the licence header is not upstream's GPLv2 with the Classpath Exception"
        else
            echo "$f: the licence header is not upstream's GPLv2 notice for tests and scripts"
        fi
        return 1
    fi
}

if [ $# -gt 0 ]; then
    files=("$@")
elif git -C "$RDIO_TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    mapfile -t files < <(git -C "$RDIO_TOP" ls-files)
else
    mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||' | sort)
fi

bad=0
for f in "${files[@]}"; do
    check "$f" || bad=$((bad + 1))
done
[ "$bad" = 0 ] || die "$bad of ${#files[@]} files lack the licence header upstream uses for their kind (see make/scripts/check-headers.sh)"
note "licence headers: ${#files[@]} files checked, all as upstream's for their kind"
