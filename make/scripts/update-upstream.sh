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
# Moves the fork to another jdk25u update release, e.g. 25.0.4+7:
#
#   update-upstream.sh [--check] VERSION [DEBIAN_VERSION]
#   (make update-upstream VERSION=... [DEBIAN_VERSION=...] [CHECK=1])
#
# 1. Finds the release's Debian source package: the newest revision that
#    the suite's index lists for VERSION, else (a release that the index
#    never listed, or no longer does) the newest that the archive's pool
#    serves.  DEBIAN_VERSION names one instead.
# 2. Downloads its orig tarball and checks it against the sha256 of the
#    package's .dsc, then records the release in make/upstream.conf.
# 3. Applies the patch series to the new source, patch by patch, without
#    fuzz.  At the first patch that does not apply it stops, names each hunk
#    that failed, and prints upstream's change to the lines around it
#    between the pinned release and the new one.
# 4. Regenerates each patch against the new source, so that its line
#    numbers are current, and lists the patches whose hunks changed.
# 5. Unless --check: re-runs bash configure (with its defaults), builds the
#    images, checks java -version, runs make test-rdio and make
#    test-upstream, and compares the latter's counts with those of the
#    release before, if this machine ran it (test-upstream.sh keeps them).
#
# Review and commit make/upstream.conf and make/patches afterwards; to go
# back, git checkout both.  doc/building.md, "Moving to the next jdk25u
# update release", says what else to update.
. "$(dirname "$0")/common.sh"

check_only=0
if [ "${1:-}" = --check ]; then check_only=1; shift; fi
version=${1:?usage: update-upstream.sh [--check] VERSION [DEBIAN_VERSION], e.g. 25.0.4+7}
debian_version=${2:-}
[[ $version =~ ^25\.0\.[0-9]+\+[0-9]+$ ]] ||
    die "VERSION must be a jdk25u update release such as 25.0.4+7, not '$version'"
number=${version%+*}
build=${version#*+}
pkg=$DEBIAN_SOURCE_PACKAGE
tarball=${pkg}_$version.orig.tar.xz
old_version=$UPSTREAM_VERSION
work=$RDIO_BUILD/update-upstream
rm -rf "$work"
mkdir -p "$work"

# The pinned release's tree, to show what upstream changed under a patch
# that no longer applies (none if the pool has dropped its tarball too).
# Run again after a patch was fixed, make/upstream.conf already names the
# new release: the release before is then the one the last commit names.
if [ "$old_version" = "$version" ] &&
   committed=$(git -C "$RDIO_TOP" show HEAD:make/upstream.conf 2>/dev/null) &&
   [ "$(sed -n 's/^UPSTREAM_VERSION=//p' <<<"$committed")" != "$version" ]; then
    old_version=$(sed -n 's/^UPSTREAM_VERSION=//p' <<<"$committed")
    old_tree=$RDIO_CACHE/upstream/$old_version-$(sed -n 's/^UPSTREAM_SHA256=\(.\{12\}\).*/\1/p' <<<"$committed")
    [ -f "$old_tree/.rdio-pristine" ] || old_tree=
else
    old_tree=$("$RDIO_TOP/make/scripts/fetch-upstream.sh" 2>"$work/old-tree.log") || old_tree=
fi
[ -n "$old_tree" ] ||
    note "the tree of $old_version is not at hand (see $work/old-tree.log): a failing hunk is shown without upstream's change"

# The sha256 that the source package description FILE (a .dsc, or a
# stanza of the index) gives the orig tarball.
tarball_sha256() {   # FILE
    awk -v f="$tarball" '/^Checksums-Sha256:/ { s = 1; next } /^[^ ]/ { s = 0 }
                         s && $3 == f { print $1; exit }' "$1"
}

# 1. The Debian source package.
(suite_apt apt-cache showsrc "$pkg") >"$work/showsrc-all" 2>/dev/null || true
if [ -z "$debian_version" ]; then
    debian_version=$(sed -n "s/^Version: \($version-.*\)/\1/p" "$work/showsrc-all" | sort -V | tail -n 1)
fi
signed=0
if [ -n "$debian_version" ] &&
   awk -v v="$debian_version" 'BEGIN { RS = "" } index($0, "\nVersion: " v "\n") { print; exit }' \
       "$work/showsrc-all" >"$work/showsrc" && [ -s "$work/showsrc" ]; then
    # In the suite's index: apt checked the index against the archive's
    # signed Release file, so this checksum is authenticated.
    signed=1
    sha=$(tarball_sha256 "$work/showsrc")
else
    if [ -z "$debian_version" ]; then
        # The revisions Debian gives an update: unstable's (-1, -2, ...)
        # and the stable suite's backports of them (-1~deb13u1, ...).
        deb=$(sed -n 's/.*~\(deb[0-9]*\)u[0-9]*$/\1/p' <<<"$DEBIAN_SOURCE_VERSION")
        for r in 1 2 3 4; do
            for v in "$version-$r" ${deb:+"$version-$r~${deb}u1" "$version-$r~${deb}u2"}; do
                [ "$(pool_status "$pkg" "${pkg}_$v.dsc")" = 200 ] && debian_version=$v
            done
        done
        [ -n "$debian_version" ] ||
            die "neither Debian $DEBIAN_SUITE's index nor the archive's pool has $pkg $version; name its Debian revision: make update-upstream VERSION=$version DEBIAN_VERSION=..."
    fi
    pool_download "$pkg" "${pkg}_$debian_version.dsc" "$work" >"$work/download.log" 2>&1 ||
        die "cannot download ${pkg}_$debian_version.dsc from the archive's pool (see $work/download.log)"
    sha=$(tarball_sha256 "$work/${pkg}_$debian_version.dsc")
fi
[ -n "${sha:-}" ] || die "$pkg $debian_version lists no $tarball: not an update of this package's usual form"
if [ "$signed" = 1 ]; then
    note "$pkg $debian_version is in Debian $DEBIAN_SUITE's index: $tarball sha256 $sha"
else
    note "$pkg $debian_version is not in Debian $DEBIAN_SUITE's index, only in the archive's pool:" \
         "$tarball sha256 $sha is from its .dsc, which apt did not authenticate; compare it with the release's announcement before you commit"
fi

# 2. The tarball, checked, then recorded.
dest=$RDIO_CACHE/downloads/$tarball
if [ ! -f "$dest" ] || [ "$(sha256_of "$dest")" != "$sha" ]; then
    note "downloading $tarball"
    rm -f "$dest"
    pool_download "$pkg" "$tarball" "$work" >>"$work/download.log" 2>&1 ||
        die "cannot download $tarball from the archive's pool (HTTP $(pool_status "$pkg" "$tarball"); see $work/download.log)"
    [ "$(sha256_of "$work/$tarball")" = "$sha" ] ||
        die "$tarball from the pool has sha256 $(sha256_of "$work/$tarball"), but its .dsc says $sha"
    mv "$work/$tarball" "$dest"
fi
conf=$RDIO_TOP/make/upstream.conf
sed -e "s/^\(# The OpenJDK release we track (tag jdk-\)[^ ]*\( in jdk25u)\.\)$/\1$version\2/" \
    -e "s/^UPSTREAM_VERSION=.*/UPSTREAM_VERSION=$version/" \
    -e "s/^UPSTREAM_VERSION_NUMBER=.*/UPSTREAM_VERSION_NUMBER=$number/" \
    -e "s/^UPSTREAM_VERSION_BUILD=.*/UPSTREAM_VERSION_BUILD=$build/" \
    -e "s/^DEBIAN_SOURCE_VERSION=.*/DEBIAN_SOURCE_VERSION=$debian_version/" \
    -e "s/^UPSTREAM_TARBALL=.*/UPSTREAM_TARBALL=$tarball/" \
    -e "s/^UPSTREAM_TARBALL_TOPDIR=.*/UPSTREAM_TARBALL_TOPDIR=$pkg-$version/" \
    -e "s/^UPSTREAM_SHA256=.*/UPSTREAM_SHA256=$sha/" "$conf" > "$work/upstream.conf"
cmp -s "$work/upstream.conf" "$conf" || cp "$work/upstream.conf" "$conf"
note "recorded $version in make/upstream.conf (was $old_version)"
new_tree=$("$RDIO_TOP/make/scripts/fetch-upstream.sh" "$dest") || exit 1

# 3. The series, patch by patch, on a copy of the files it touches.  Each
#    patch's files are kept as they were before and after it, for step 4.
stage=$work/stage
mkdir -p "$stage"
list=$(series_patches)   # stops here (set -e) when a named patch is missing
patches=()
[ -z "$list" ] || mapfile -t patches <<<"$list"
for p in "${patches[@]}"; do
    patch_files "$p"
done | sort -u | copy_pristine "$new_tree" "$stage"

# Prints upstream's change to FILE between the two releases near old line
# LINE (COUNT lines), or says that upstream did not change the file.
upstream_change() {   # FILE LINE COUNT
    local f=$1 from=$(($2 - 15)) to=$(($2 + $3 + 15))
    if [ -z "$old_tree" ]; then return 0; fi
    if [ ! -f "$new_tree/$f" ]; then echo "    upstream removed $f in $version"; return 0; fi
    if cmp -s "$old_tree/$f" "$new_tree/$f"; then
        echo "    upstream did not change $f between $old_version and $version: the hunk's context comes from an earlier patch of the series"
        return 0
    fi
    echo "    upstream's change to $f near there, $old_version -> $version:"
    diff -U3 --label "$old_version/$f" --label "$version/$f" "$old_tree/$f" "$new_tree/$f" |
        awk -v from="$from" -v to="$to" '
            /^@@/ { split($2, a, ","); s = -a[1]; n = (a[2] == "" ? 1 : a[2])
                    show = (s <= to && s + n >= from); shown += show }
            /^(---|\+\+\+) / { next }
            show { print "      " $0 }
            END { if (!shown) print "      (none within 15 lines: upstream changed other parts of the file)" }' ||
        true   # diff's status 1 means only that the files differ
}

for p in "${patches[@]}"; do
    while read -r f; do
        mkdir -p "$work/before/$p/$(dirname "$f")"
        cp "$stage/$f" "$work/before/$p/$f"
    done < <(patch_files "$p")
    rej=$work/$p.rej
    if ! patch -p1 -d "$stage" --force --fuzz=0 --no-backup-if-mismatch -r "$rej" \
             -i "$RDIO_TOP/make/patches/$p" >"$work/$p.log" 2>&1 </dev/null; then
        echo "$RDIO_PROG: make/patches/$p does not apply to $version:" >&2
        awk '/^--- / { next } /^\+\+\+ / { sub(/^b\//, "", $2); f = $2; next }
             /^@@/ { split($2, a, ","); print f, -a[1], (a[2] == "" ? 1 : a[2]), $0 }' "$rej" |
        while read -r f line count header; do
            echo "  hunk $header of $f failed" >&2
            upstream_change "$f" "$line" "$count" >&2
        done
        die "stopped at make/patches/$p (its rejected hunks: $rej). Fix the patch against $new_tree and run this again; to go back: git checkout make/upstream.conf make/patches"
    fi
    while read -r f; do
        mkdir -p "$work/after/$p/$(dirname "$f")"
        cp "$stage/$f" "$work/after/$p/$f"
    done < <(patch_files "$p")
done
note "all ${#patches[@]} patches apply to $version without fuzz"

# 4. Each patch again, from the new base: its header, then diff -u of each
#    of its files, in the order the patch lists them.
refreshed=() recut=()
for p in "${patches[@]}"; do
    old=$RDIO_TOP/make/patches/$p
    new=$work/$p.new
    sed -n '/^--- a\//q; p' "$old" > "$new"
    while read -r f; do
        diff -u --label "a/$f" --label "b/$f" "$work/before/$p/$f" "$work/after/$p/$f" >> "$new" &&
            die "make/patches/$p changes nothing in $f"
        [ $? = 1 ] || die "cannot diff $f for make/patches/$p"
    done < <(patch_files "$p")
    cmp -s "$new" "$old" && continue
    if cmp -s <(grep -v '^@@' "$new") <(grep -v '^@@' "$old"); then
        refreshed+=("$p")
    else
        recut+=("$p")
    fi
    cp "$new" "$old"
done
[ "${#refreshed[@]}" = 0 ] || note "line numbers refreshed in: ${refreshed[*]}"
[ "${#recut[@]}" = 0 ] || note "hunks changed (read these diffs before you commit): ${recut[*]}"
[ "${#refreshed[@]}${#recut[@]}" != 00 ] || note "no patch needed a change"

[ "$check_only" = 0 ] || { note "--check: stopping before the build"; exit 0; }

# 5. Build and test.
(cd "$RDIO_TOP" && bash configure) || die "bash configure failed for $version"
make -C "$RDIO_TOP" images || die "the build of $version failed"
conf_dir=$(config_value RDIO_CONF_DIR)
vendor=$("$conf_dir/images/jdk/bin/java" -version 2>&1 | sed -n 's/.*Runtime Environment \([^ ]*\) .*/\1/p')
[ "$vendor" = "$FORK_NAME-$number" ] ||
    die "java -version names '$vendor', not $FORK_NAME-$number"
note "java -version: $vendor"
make -C "$RDIO_TOP" test-rdio || die "make test-rdio failed on $version"
# Some of upstream's tests may fail on a machine whatever the release (its
# network, its kernel): what must not happen is that fewer pass.
make -C "$RDIO_TOP" test-upstream || true
counts=$RDIO_CACHE/test-upstream
[ -f "$counts/$version" ] || die "make test-upstream left no counts for $version"
if [ -f "$counts/$old_version" ]; then
    before=$(cat "$counts/$old_version") after=$(cat "$counts/$version")
    note "upstream's tests: $before on $old_version; $after on $version"
    [ "${after%% *}" -ge "${before%% *}" ] ||
        die "fewer of upstream's tests pass on $version than on $old_version"
else
    note "this machine has no count of upstream's tests on $old_version to compare with: see doc/building.md"
fi
note "$version is built and tested: update doc/building.md's counts, then commit make/upstream.conf and make/patches"
