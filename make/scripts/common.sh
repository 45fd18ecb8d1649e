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
# Shared helpers for the fork's build scripts.  Source it; do not run it.
#
# Every failure goes through die(), which prints one line naming the cause
# and exits non-zero, so a broken step never leaves a tree that looks fine.

set -euo pipefail

RDIO_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../upstream.conf
. "$RDIO_TOP/make/upstream.conf"

# Caches live outside the work tree so that a fresh clone reuses them.
RDIO_CACHE=${RDIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdio-jdk}
RDIO_BUILD=${RDIO_BUILD:-$RDIO_TOP/build}

RDIO_PROG=${RDIO_PROG:-$(basename "$0" .sh)}

die() {
    echo "$RDIO_PROG: error: $*" >&2
    exit 1
}

note() {
    echo "$RDIO_PROG: $*"
}

# Runs apt-get against a private package list for $DEBIAN_SUITE, so that
# packages of another Debian release can be downloaded (never installed)
# without touching the machine's own apt state.  The archive is the one the
# machine already uses: we only swap the suite name.
#   suite_apt apt-get ARGS...   or   suite_apt apt-cache ARGS...
suite_apt() {
    local tool=$1; shift
    local state=$RDIO_CACHE/apt-$DEBIAN_SUITE
    if [ ! -s "$state/sources.list" ] || [ ! -d "$state/lists" ] ||
       [ -z "$(ls "$state/lists" 2>/dev/null | grep -v -e '^partial$' -e '^lock$' -e '^auxfiles$')" ]; then
        local uri
        uri=$(debian_archive_uri) || die "cannot find a Debian archive in the machine's apt sources (/etc/apt/sources.list*)"
        mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
        printf 'deb [arch=amd64] %s %s main\ndeb-src %s %s main\n' \
            "$uri" "$DEBIAN_SUITE" "$uri" "$DEBIAN_SUITE" > "$state/sources.list"
        apt-get "${_suite_apt_opts[@]/@STATE@/$state}" -qq update >"$state/update.log" 2>&1 ||
            die "cannot read the $DEBIAN_SUITE package lists (network down or archive unreachable; see $state/update.log)"
    fi
    "$tool" "${_suite_apt_opts[@]/@STATE@/$state}" "$@"
}
_suite_apt_opts=(
    -o Dir::State::Lists=@STATE@/lists
    -o Dir::Etc::sourcelist=@STATE@/sources.list
    -o Dir::Etc::sourceparts=/nonexistent
    -o Dir::Cache=@STATE@/cache
    -o Debug::NoLocking=1
    -o APT::Sandbox::User=root
)

# Prints the first Debian archive URI (not the security one) that the
# machine's apt sources name, in either the deb822 or the one-line format.
debian_archive_uri() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$f"
    done | grep -v -e security -e '^$' | grep -i debian | head -n1 | grep . && return 0
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' |
        grep -v security | grep -i debian | head -n1 | grep .
}

# Downloads FILE of Debian source package SRC straight from the archive's
# pool into DIR.  A point release drops superseded versions from the suite's
# index, while the pool keeps serving their files for a while longer: the
# pinned version then still arrives, checked by its sha256 as always.
#   pool_download SRC FILE DIR
pool_download() {
    local src=$1 file=$2 dir=$3 url
    url=$(pool_url "$src" "$file") || return 1
    curl -fsSL --retry 3 -o "$dir/$file.part" "$url" &&
        mv "$dir/$file.part" "$dir/$file" || { rm -f "$dir/$file.part"; return 1; }
}

# The URL of FILE of source package PACKAGE in the archive's pool.
pool_url() {   # PACKAGE FILE
    local uri prefix
    uri=$(debian_archive_uri) || return 1
    case $1 in lib?*) prefix=${1:0:4} ;; *) prefix=${1:0:1} ;; esac
    echo "${uri%/}/pool/main/$prefix/$1/$2"
}

# Warns, on stderr, when the suite's index names a newer version of PACKAGE
# than the pinned one, which then lives on only in the archive's pool (the
# pinned one is still used: it was checked against its pinned checksum).
# The private package list is refreshed at most once a day for this.  Any
# failure (no network, no list) skips the check: it never stops a build.
#   warn_if_superseded PACKAGE PINNED_DEBIAN_VERSION POOL_FILE
warn_if_superseded() {
    local pkg=$1 pinned=$2 file=$3 lists=$RDIO_CACHE/apt-$DEBIAN_SUITE/lists newest pool
    if [ -z "$(find "$lists" -maxdepth 1 -name '*Sources*' -mtime -1 2>/dev/null)" ]; then
        (suite_apt apt-get -qq update) >/dev/null 2>&1 || return 0
    fi
    newest=$( (suite_apt apt-cache showsrc "$pkg") 2>/dev/null |
              sed -n 's/^Version: //p' | sort -V | tail -n 1) || return 0
    [ -n "$newest" ] && [ "$newest" != "$pinned" ] || return 0
    dpkg --compare-versions "$newest" gt "$pinned" 2>/dev/null || return 0
    case $(pool_status "$pkg" "$file") in
        200) pool="the archive's pool still serves $file" ;;
        404) pool="the archive's pool no longer serves $file, so a machine without it in its cache cannot configure" ;;
        *) pool="the archive's pool could not be asked for $file" ;;
    esac
    echo "$RDIO_PROG: warning: Debian $DEBIAN_SUITE now has $pkg $newest; this fork is pinned to $pinned" \
         "(make/upstream.conf), and $pool. Move to the newer release: doc/building.md," \
         "\"Moving to the next jdk25u update release\"." >&2
}

# Prints the HTTP status of FILE of source package PACKAGE in the archive's
# pool (200, 404), or 000 if the pool cannot be reached.
pool_status() {   # PACKAGE FILE
    local url
    url=$(pool_url "$1" "$2") || { echo 000; return 0; }
    curl -sIL --retry 2 -o /dev/null -w '%{http_code}' "$url" || true
}

# Prints the patches that make/patches/series names, in order, one a line;
# fails on a name without its file.
series_patches() {
    local series=$RDIO_TOP/make/patches/series p
    [ -f "$series" ] || return 0
    while read -r p _; do
        case $p in ''|'#'*) continue ;; esac
        [ -f "$RDIO_TOP/make/patches/$p" ] || die "make/patches/series names $p, which does not exist"
        echo "$p"
    done < "$series"
}

# Prints the files that PATCH (a name in make/patches) touches, from its
# ---/+++ lines (a/ and b/ prefixes), in the patch's order.
patch_files() {   # PATCH
    sed -n -e 's|^--- a/\([^\t ]*\).*|\1|p' -e 's|^+++ b/\([^\t ]*\).*|\1|p' \
        "$RDIO_TOP/make/patches/$1" | uniq
}

# Copies the files listed on stdin (paths relative to PRISTINE) that exist
# upstream into DEST, writable, so that patches can be applied to them.
copy_pristine() {   # PRISTINE DEST < LIST
    local f
    while read -r f; do
        if [ -f "$1/$f" ]; then
            mkdir -p "$2/$(dirname "$f")"
            cp "$1/$f" "$2/$f"
            chmod u+w "$2/$f"
        fi
    done
}

# Fails, saying to re-run configure, when build/config.mk was written for a
# checkout at another path: its paths (and those of upstream's spec.gmk in
# the output directory) point there.  A config.mk without
# RDIO_CONFIGURED_TOP is judged by its RDIO_CONF_DIR.
rdio_config_check() {
    local f=$RDIO_BUILD/config.mk top
    [ -f "$f" ] || return 0
    top=$(sed -n 's/^RDIO_CONFIGURED_TOP := //p' "$f" | head -n1)
    [ -n "$top" ] || top=$(sed -n 's|^RDIO_CONF_DIR := \(.*\)/build/src/build/[^/]*$|\1|p' "$f" | head -n1)
    [ -z "$top" ] || [ "$(readlink -m "$top")" = "$(readlink -m "$RDIO_TOP")" ] ||
        die "build/config.mk was written by bash configure for the checkout at $top, not for this one at $RDIO_TOP: re-run bash configure"
}

# A value from build/config.mk, if configure wrote one; fails like
# rdio_config_check for a config.mk of another checkout.
#   config_value NAME
config_value() {
    [ -f "$RDIO_BUILD/config.mk" ] || return 0
    rdio_config_check
    sed -n "s/^$1 := //p" "$RDIO_BUILD/config.mk" | head -n1
}

sha256_of() {
    sha256sum "$1" | cut -d' ' -f1
}
