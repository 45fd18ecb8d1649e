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
#
# Usage: maven-jars.sh NAME GROUP:ARTIFACT:VERSION[,...]
#
# Puts the jars named (each alone: no transitive dependencies, so the list
# names them all) in one directory of the cache, from Maven Central
# through the machine's Maven, and prints that directory.  The directory
# is keyed by the list, so a new pin gets a new directory.
. "$(dirname "$0")/common.sh"

name=${1:?usage: maven-jars.sh NAME ARTIFACTS}
artifacts=${2:?usage: maven-jars.sh NAME ARTIFACTS}
dir=$RDIO_CACHE/$name/$(echo "$artifacts" | sha256sum | cut -c1-12)
if [ ! -f "$dir/.rdio-complete" ]; then
    command -v mvn >/dev/null || die "mvn not found: Maven is needed to fetch $name ($artifacts)"
    rm -rf "$dir"
    mkdir -p "$dir"
    note "downloading $name from Maven Central" >&2
    for gav in ${artifacts//,/ }; do
        mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
            -Dartifact="$gav" -DoutputDirectory="$dir" >"$dir/mvn.log" 2>&1 ||
            die "cannot download $gav from Maven Central (network down?; see $dir/mvn.log)"
    done
    rm -f "$dir/mvn.log"
    touch "$dir/.rdio-complete"
fi
echo "$dir"
