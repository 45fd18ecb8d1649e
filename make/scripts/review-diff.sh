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
# Prints the whole fork as one unified diff against pristine upstream (new
# overlay files and patched files alike), the way a webrev shows a change,
# and proves that it applies (after checking every file's licence header): the diff is applied to a scratch copy of the
# pristine files it touches and the result compared with build/src.
#
#   review-diff.sh PRISTINE_DIR > fork.diff
. "$(dirname "$0")/common.sh"

pristine=${1:?usage: review-diff.sh PRISTINE_DIR}
src=$RDIO_BUILD/src
files=$RDIO_BUILD/assemble/files
[ -f "$files" ] || die "build/src is not assembled: run make assemble"

# A new file without upstream's licence header is not reviewable.
"$RDIO_TOP/make/scripts/check-headers.sh" >&2

diff=$RDIO_BUILD/review.diff
: > "$diff"
while read -r f; do
    old=$pristine/$f label=a/$f
    [ -f "$old" ] || old=/dev/null label=/dev/null
    # diff exits 1 when the files differ, which is the point.
    diff -u --label "$label" --label "b/$f" "$old" "$src/$f" >> "$diff" || [ $? = 1 ] ||
        die "diff failed on $f"
done < "$files"

# The check: apply to pristine copies, compare with the assembled tree.
scratch=$RDIO_BUILD/review-check
rm -rf "$scratch"
mkdir -p "$scratch"
copy_pristine "$pristine" "$scratch" < "$files"
if [ -s "$diff" ]; then
    patch -p1 -d "$scratch" --fuzz=0 --no-backup-if-mismatch -s < "$diff" >&2 ||
        die "the review diff does not apply to pristine upstream $UPSTREAM_VERSION"
fi
while read -r f; do
    cmp -s "$scratch/$f" "$src/$f" || die "the review diff does not reproduce $f"
done < "$files"
rm -rf "$scratch"

cat "$diff"
note "$(wc -l < "$files") files, $(grep -v '^+++ ' "$diff" | grep -c '^+' || true) added lines; applies to pristine $UPSTREAM_VERSION (checked); also in $diff" >&2
