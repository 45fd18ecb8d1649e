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
# Assembles the source tree that upstream's build runs on, build/src:
#
#   pristine upstream (hard links into the cache, never written through)
#   + our overlay files (src/ and test/ of this repository, new files only)
#   + the patch series (make/patches/series, applied in order, no fuzz)
#
#   assemble.sh PRISTINE_DIR
#
# It is incremental: the desired content of every file we add or patch is
# built in a staging area first, and only files whose content changed are
# replaced in build/src.  So an edit to one overlay file or one patch touches
# only the files concerned (and make rebuilds only their modules), and a
# patch that fails leaves build/src as it was.
. "$(dirname "$0")/common.sh"

pristine=${1:?usage: assemble.sh PRISTINE_DIR}
[ -f "$pristine/make/conf/version-numbers.conf" ] || die "$pristine is not an OpenJDK source tree"
dst=$RDIO_BUILD/src
state=$RDIO_BUILD/assemble
mkdir -p "$state"

# 1. The base tree: hard links to the pristine tree, made once per upstream.
if [ "$(cat "$dst/.rdio-upstream" 2>/dev/null)" != "$pristine" ]; then
    note "linking upstream tree $pristine into $dst"
    for d in "$dst" "$dst.tmp"; do
        if [ -e "$d" ]; then chmod -R u+w "$d"; rm -rf "$d"; fi
    done
    cp -al "$pristine" "$dst.tmp" 2>/dev/null || {
        rm -rf "$dst.tmp"
        cp -a "$pristine" "$dst.tmp" || die "cannot copy $pristine to $dst.tmp"
    }
    # Directories are our own copies: make them writable so overlay files
    # can be added.  Files stay shared and read-only.
    find "$dst.tmp" -type d -exec chmod u+w {} +
    rm -f "$dst.tmp/.rdio-pristine"
    echo "$pristine" > "$dst.tmp/.rdio-upstream"
    mv "$dst.tmp" "$dst"
    rm -f "$state/files"
fi

# 2. Stage the desired content of every file we add or patch.
stage=$state/stage
rm -rf "$stage"
mkdir -p "$stage"

list=$(series_patches)   # stops here (set -e) when a named patch is missing
patches=()
[ -z "$list" ] || mapfile -t patches <<<"$list"

# Files the patches touch.
for p in "${patches[@]}"; do
    patch_files "$p"
done | sort -u > "$state/patched"
copy_pristine "$pristine" "$stage" < "$state/patched"

for p in "${patches[@]}"; do
    rej=$state/$p.rej
    rm -f "$rej"
    # --force: never ask, never guess that a patch is reversed.
    if ! out=$(patch -p1 -d "$stage" --force --fuzz=0 --no-backup-if-mismatch -r "$rej" \
                   -i "$RDIO_TOP/make/patches/$p" 2>&1 </dev/null); then
        echo "$out" | grep -v '^patching file' >&2
        if [ -s "$rej" ]; then
            echo "first failing hunk of $p (all of them: $rej):" >&2
            awk '/^@@/ { n++ } n == 2 { exit } n == 1 || /^(---|\+\+\+) / { print }' "$rej" >&2
        fi
        die "patch make/patches/$p does not apply to upstream $UPSTREAM_VERSION"
    fi
done

# Overlay files: new files at their upstream paths.  Replacing an upstream
# file wholesale is not allowed; change it with a patch instead.
(cd "$RDIO_TOP" && for d in src test; do [ ! -d $d ] || find $d -type f; done | sort) > "$state/overlay"
while read -r f; do
    if [ -e "$pristine/$f" ]; then
        die "overlay file $f replaces an upstream file; change upstream files with a patch in make/patches/"
    fi
    if grep -qxF "$f" "$state/patched"; then
        die "overlay file $f is also touched by a patch; keep overlays and patches apart"
    fi
    mkdir -p "$stage/$(dirname "$f")"
    cp "$RDIO_TOP/$f" "$stage/$f"
done < "$state/overlay"

# 3. Sync: replace what changed, restore what we no longer touch.
(cd "$stage" && find . -type f | sed 's|^\./||' | sort) > "$state/files.new"
changed=0
while read -r f; do
    if ! cmp -s "$stage/$f" "$dst/$f"; then
        mkdir -p "$dst/$(dirname "$f")"
        rm -f "$dst/$f"
        cp "$stage/$f" "$dst/$f"
        changed=$((changed + 1))
    fi
done < "$state/files.new"
if [ -f "$state/files" ]; then
    comm -23 "$state/files" "$state/files.new" | while read -r f; do
        rm -f "$dst/$f"
        if [ -f "$pristine/$f" ]; then
            # A copy, not a link: the new mtime makes make rebuild it.
            cp "$pristine/$f" "$dst/$f"
            note "restored $f to upstream"
        else
            note "removed $f"
        fi
    done
fi
mv "$state/files.new" "$state/files"
note "build/src: ${#patches[@]} patches, $(wc -l < "$state/overlay") overlay files, $changed files updated"
