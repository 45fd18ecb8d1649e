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
# Builds the librdmacm with the fix of rdma-core's cm_svc_run bug that the
# Soft-RoCE guest tests against beside the host's own (Debian 12's 44.0,
# which has the bug), and prints its prefix:
#
#   rdma-core.sh      PREFIX/lib holds librdmacm.so.1 and libibverbs.so.1,
#                     PREFIX/lib/libibverbs the verbs providers (librxe among
#                     them), PREFIX/etc/libibverbs.d their driver files,
#                     PREFIX/bin the tools (rstream, ibv_devices, ...)
#
# The source is Debian's rdma-core package of the release that
# rdma-guest.conf pins (GUEST_RDMA_CORE_*): Debian 13's, whose binary
# packages need glibc 2.38 (__isoc23_strtoul and friends) and so do not load
# on Debian 12's 2.36.  Its orig and debian tarballs are downloaded from the
# archive the machine uses, checked against the pinned sha256 (those of the
# suite's signed Sources index, which the .dsc repeats), Debian's patches
# applied, and built with cmake and ninja into the cache, once, keyed by
# version and checksum; nothing is installed on the machine.
#
# libibverbs looks for its providers and their driver files where it was
# configured to (VERBS_PROVIDER_DIR, IBV_CONFIG_DIR), which are PREFIX's
# own, so a process that loads these libraries (LD_LIBRARY_PATH=PREFIX/lib)
# gets the providers of the same release: never the host's, whose private
# ABI with libibverbs is another release's.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=rdma-guest.conf
. "$RDIO_INFRA/rdma-guest/rdma-guest.conf"

version=$GUEST_RDMA_CORE_VERSION                # Debian's, 56.1-1
upstream=${version%-*}                          # rdma-core's, 56.1
orig=rdma-core_$upstream.orig.tar.gz
debian=rdma-core_$version.debian.tar.xz
prefix=$RDIO_CACHE/rdma-core/$version-${GUEST_RDMA_CORE_ORIG_SHA256:0:12}

if [ ! -f "$prefix/.rdio-complete" ]; then
    for tool in cmake ninja pkg-config cc patch; do
        command -v "$tool" >/dev/null || die "$tool is not on PATH (needed to build rdma-core $version)"
    done
    pkg-config --exists libnl-3.0 libnl-route-3.0 ||
        die "libnl-3 and libnl-route-3 are missing (apt-get install libnl-3-dev libnl-route-3-dev)"
    downloads=$RDIO_CACHE/downloads
    mkdir -p "$downloads/tmp"
    if [ ! -f "$downloads/$orig" ] || [ ! -f "$downloads/$debian" ]; then
        note "downloading rdma-core $version source from Debian $GUEST_RDMA_CORE_SUITE" >&2
        # apt-get may fail for the .dsc (404) while the tarballs arrive: the
        # checksums below are what decide.  A version the suite has moved on
        # from is still in the pool for a while.
        (cd "$downloads/tmp" &&
            DEBIAN_SUITE=$GUEST_RDMA_CORE_SUITE suite_apt apt-get -qq source --download-only \
                "rdma-core=$version" >download.log 2>&1) || true
        for f in "$orig" "$debian"; do
            [ -f "$downloads/tmp/$f" ] ||
                pool_download rdma-core "$f" "$downloads/tmp" >>"$downloads/tmp/download.log" 2>&1 ||
                die "cannot download $f (network down, or not in Debian $GUEST_RDMA_CORE_SUITE: update test/infra/rdma-guest/rdma-guest.conf; see $downloads/tmp/download.log)"
            mv "$downloads/tmp/$f" "$downloads/$f"
        done
        rm -rf "$downloads/tmp"
    fi
    for f in "$orig:$GUEST_RDMA_CORE_ORIG_SHA256" "$debian:$GUEST_RDMA_CORE_DEBIAN_SHA256"; do
        sum=$(sha256_of "$downloads/${f%%:*}")
        [ "$sum" = "${f#*:}" ] ||
            die "checksum mismatch for $downloads/${f%%:*}: sha256 $sum, expected ${f#*:} (test/infra/rdma-guest/rdma-guest.conf)"
    done

    work=$prefix.build
    rm -rf "$prefix" "$work"
    mkdir -p "$work"
    note "building rdma-core $version into $prefix (about 2 minutes)" >&2
    tar -xzf "$downloads/$orig" -C "$work" || die "cannot extract $orig"
    tar -xJf "$downloads/$debian" -C "$work" || die "cannot extract $debian"
    src=$work/rdma-core-$upstream
    [ -d "$src" ] || die "$orig has no top directory rdma-core-$upstream"
    if [ -f "$work/debian/patches/series" ]; then
        while read -r p; do
            case $p in ''|'#'*) continue ;; esac
            patch -d "$src" -p1 -s < "$work/debian/patches/$p" || die "Debian's patch $p does not apply to rdma-core $upstream"
        done < "$work/debian/patches/series"
    fi
    # Configured for PREFIX, whose paths libibverbs keeps (its providers and
    # driver files), and installed into a staging root, then moved there.
    (cd "$work" && mkdir -p build && cd build &&
        cmake -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
            -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_INSTALL_SYSCONFDIR=etc \
            -DNO_MAN_PAGES=1 -DNO_PYVERBS=1 -DENABLE_STATIC=0 -DENABLE_VALGRIND=0 \
            "$src" > "$work/cmake.log" 2>&1 &&
        ninja > "$work/ninja.log" 2>&1 &&
        DESTDIR=$work/stage ninja install > "$work/install.log" 2>&1) ||
        die "building rdma-core $version failed (see the logs in $work)"
    for f in lib/librdmacm.so.1 lib/libibverbs.so.1 lib/libibverbs/librxe-rdmav34.so \
             etc/libibverbs.d/rxe.driver bin/rstream bin/ibv_devices; do
        [ -e "$work/stage$prefix/$f" ] || die "rdma-core $version did not install $f"
    done
    case $(readlink -f "$work/stage$prefix/lib/librdmacm.so.1") in
        */librdmacm.so.1.*."$upstream") ;;
        *) die "rdma-core $version installed $(readlink "$work/stage$prefix/lib/librdmacm.so.1"), not a librdmacm.so.1.*.$upstream" ;;
    esac
    mv "$work/stage$prefix" "$prefix"
    rm -rf "$work"
    touch "$prefix/.rdio-complete"
fi
echo "$prefix"
