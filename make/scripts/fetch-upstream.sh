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
# Makes a pristine upstream source tree available and prints its path.
#
#   fetch-upstream.sh            Debian's orig tarball, downloaded once into the cache
#   fetch-upstream.sh TARBALL    a local copy of that tarball
#   fetch-upstream.sh DIRECTORY  an existing source tree (e.g. a jdk25u checkout
#                                at tag jdk-$UPSTREAM_VERSION), used in place
#
# A tarball is accepted only if its sha256 is the pinned one.  The extracted
# tree is kept in the cache, keyed by that checksum, and never modified: the
# assembled tree in build/ links to it.
. "$(dirname "$0")/common.sh"

src=${1:-}

if [ -n "$src" ] && [ -d "$src" ]; then
    src=$(cd "$src" && pwd)
    conf=$src/make/conf/version-numbers.conf
    [ -f "$conf" ] || die "$src is not an OpenJDK source tree (no make/conf/version-numbers.conf)"
    want_feature=${UPSTREAM_VERSION_NUMBER%%.*}
    want_update=${UPSTREAM_VERSION_NUMBER##*.}
    grep -qx "DEFAULT_VERSION_FEATURE=$want_feature" "$conf" &&
    grep -qx "DEFAULT_VERSION_UPDATE=$want_update" "$conf" ||
        die "$src is not OpenJDK $UPSTREAM_VERSION_NUMBER (see $conf); the patch series is pinned to $UPSTREAM_VERSION"
    echo "$src"
    exit 0
fi

tarball=${src:-$RDIO_CACHE/downloads/$UPSTREAM_TARBALL}
if [ -z "$src" ] && [ ! -f "$tarball" ]; then
    mkdir -p "$RDIO_CACHE/downloads/tmp"
    note "downloading $DEBIAN_SOURCE_PACKAGE $DEBIAN_SOURCE_VERSION source from Debian $DEBIAN_SUITE" >&2
    # apt-get may fail for the .dsc or secondary tarballs (404) while the orig
    # tarball arrives fine: the checksum below is what decides.
    (cd "$RDIO_CACHE/downloads/tmp" &&
        suite_apt apt-get -qq source --download-only \
            "$DEBIAN_SOURCE_PACKAGE=$DEBIAN_SOURCE_VERSION" >download.log 2>&1) || true
    [ -f "$RDIO_CACHE/downloads/tmp/$UPSTREAM_TARBALL" ] ||
        pool_download "$DEBIAN_SOURCE_PACKAGE" "$UPSTREAM_TARBALL" "$RDIO_CACHE/downloads/tmp" \
            >>"$RDIO_CACHE/downloads/tmp/download.log" 2>&1 || true
    [ -f "$RDIO_CACHE/downloads/tmp/$UPSTREAM_TARBALL" ] ||
        die "cannot download $UPSTREAM_TARBALL (network down or not in Debian $DEBIAN_SUITE; see $RDIO_CACHE/downloads/tmp/download.log); pass --with-upstream=PATH to use a local copy"
    mv "$RDIO_CACHE/downloads/tmp/$UPSTREAM_TARBALL" "$tarball"
    rm -rf "$RDIO_CACHE/downloads/tmp"
fi
[ -f "$tarball" ] || die "upstream source $tarball does not exist"
[ -n "$src" ] || warn_if_superseded "$DEBIAN_SOURCE_PACKAGE" "$DEBIAN_SOURCE_VERSION" "$UPSTREAM_TARBALL"

sum=$(sha256_of "$tarball")
[ "$sum" = "$UPSTREAM_SHA256" ] ||
    die "checksum mismatch for $tarball: sha256 $sum, expected $UPSTREAM_SHA256 (make/upstream.conf)"

tree=$RDIO_CACHE/upstream/$UPSTREAM_VERSION-${UPSTREAM_SHA256:0:12}
if [ ! -f "$tree/.rdio-pristine" ]; then
    note "extracting $UPSTREAM_TARBALL into $tree" >&2
    for d in "$tree" "$tree.tmp"; do
        if [ -e "$d" ]; then chmod -R u+w "$d"; rm -rf "$d"; fi
    done
    mkdir -p "$tree.tmp"
    tar -xJf "$tarball" -C "$tree.tmp" || die "cannot extract $tarball"
    top=$tree.tmp/$UPSTREAM_TARBALL_TOPDIR
    [ -d "$top" ] || die "$tarball has no top directory $UPSTREAM_TARBALL_TOPDIR"
    echo "$UPSTREAM_SHA256" > "$top/.rdio-pristine"
    mv "$top" "$tree"
    rmdir "$tree.tmp"
    # Read-only, so that nothing writes through the hard links in build/.
    chmod -R a-w "$tree"
fi
echo "$tree"
