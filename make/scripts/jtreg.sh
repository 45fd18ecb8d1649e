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
# Sets up jtreg 8 in the cache from Debian's jtreg8 binary package and its
# Java dependencies, and prints the jtreg home (the directory holding
# lib/jtreg.jar, as upstream's --with-jtreg expects).
#
# The packages are downloaded with apt-get against a private package list
# for $DEBIAN_SUITE and unpacked with dpkg -x: nothing is installed.
. "$(dirname "$0")/common.sh"

root=$RDIO_CACHE/jtreg/$JTREG_DEBIAN_VERSION
home=$root/usr/share/jtreg
warn_if_superseded "$JTREG_PACKAGE" "$JTREG_DEBIAN_VERSION" "${JTREG_PACKAGE}_${JTREG_DEBIAN_VERSION}_all.deb"

if [ ! -f "$root/.rdio-complete" ]; then
    rm -rf "$root" "$root.tmp"
    mkdir -p "$root.tmp/debs"
    note "downloading $JTREG_PACKAGE $JTREG_DEBIAN_VERSION from Debian $DEBIAN_SUITE" >&2
    deb=${JTREG_PACKAGE}_${JTREG_DEBIAN_VERSION}_all.deb
    # The suite's index names only its newest version; once a point release
    # supersedes the pinned one, its .deb is still in the pool.
    (cd "$root.tmp/debs" &&
        { suite_apt apt-get -qq download "$JTREG_PACKAGE=$JTREG_DEBIAN_VERSION" ||
          pool_download "$JTREG_PACKAGE" "$deb" .; } >download.log 2>&1) ||
        die "cannot download $JTREG_PACKAGE $JTREG_DEBIAN_VERSION (network down, or the archive moved on: update make/upstream.conf; see $root.tmp/debs/download.log)"
    # Its dependencies are plain jars: the suite's current versions serve.
    deps=$(dpkg-deb -f "$root.tmp/debs/$deb" Depends | tr ',' '\n' |
           sed -e 's/(.*)//' -e 's/|.*//' -e 's/[[:space:]]//g' | sort -u | grep .) ||
        die "cannot read the dependencies of $deb"
    (cd "$root.tmp/debs" &&
        suite_apt apt-get -qq download $deps >>download.log 2>&1) ||
        die "cannot download the dependencies of $JTREG_PACKAGE ($(echo $deps)) (see $root.tmp/debs/download.log)"
    for deb in "$root.tmp"/debs/*.deb; do
        dpkg -x "$deb" "$root.tmp" || die "cannot unpack $deb"
    done
    # Jars that the package links to its dependencies' copies in
    # /usr/share/java must resolve inside our root (its final path), not on
    # the host.
    for jar in "$root.tmp"/usr/share/jtreg/lib/*.jar; do
        if [ -L "$jar" ]; then
            target=$(readlink "$jar")
            case $target in
                /*) ln -sfn "$root${target}" "$jar" ;;
            esac
        fi
    done
    rm -rf "$root.tmp/debs"
    mv "$root.tmp" "$root"
    [ -f "$home/lib/jtreg.jar" ] || die "$JTREG_PACKAGE did not provide lib/jtreg.jar"
    touch "$root/.rdio-complete"
fi
echo "$home"
