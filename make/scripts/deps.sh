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
# Checks the Debian packages the build needs.  As root it installs the
# missing ones; otherwise it prints the exact apt-get line and fails.
#
#   deps.sh [--with-rdma=yes|no]
. "$(dirname "$0")/common.sh"

rdma=yes
for arg in "$@"; do
    case $arg in
        --with-rdma=*) rdma=${arg#*=} ;;
        *) die "unknown argument $arg" ;;
    esac
done

# What upstream's configure needs on Debian, with Debian's copies of the
# libraries its source package strips, plus ccache for rebuilds.
packages="autoconf make zip unzip file gcc g++ ccache xz-utils patch
    libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev
    libxrender-dev libxrandr-dev libxtst-dev libxt-dev libfreetype-dev
    zlib1g-dev libgif-dev libjpeg-dev libpng-dev libpcsclite-dev"
# The Soft-RoCE test guest (make test-rdma, part of make test-rdio) boots
# QEMU with a busybox initramfs and runs the host's rdma tools, verbs
# providers and rstream inside it; kmod's depmod and modprobe index the
# guest kernel's modules and resolve their dependencies.
packages="$packages qemu-system-x86 busybox-static kmod iproute2 rdma-core ibverbs-providers
    ibverbs-utils rdmacm-utils"
# The direct I/O tests measure page-cache residency with fincore.
packages="$packages util-linux-extra"
# make bench-directio runs fio as the native baseline, and reads its JSON
# output for the queue-depth table with jq.
packages="$packages fio jq"
# The direct I/O file system matrix (make test-directio-fs, part of make
# test-rdio) makes XFS and btrfs file systems on loop devices; mkfs.ext4
# comes with e2fsprogs, which every Debian system has.
packages="$packages xfsprogs btrfs-progs"
# The RDMA sockets compile against librdmacm's headers (the library itself
# is loaded at run time).
[ "$rdma" = no ] || packages="$packages librdmacm-dev"
# make test-rdio also runs the RDMA group against a librdmacm with the fix
# of its service-thread bug, built from Debian 13's rdma-core source
# (test/infra/rdma-guest/rdma-core.sh), whose build needs these.
packages="$packages cmake ninja-build pkg-config libnl-3-dev libnl-route-3-dev"

missing=
for p in $packages; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
    note "installing missing packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq $missing >"$RDIO_BUILD/apt-install.log" 2>&1; then
        apt-get update -qq >>"$RDIO_BUILD/apt-install.log" 2>&1 || true
        apt-get install -y -qq $missing >>"$RDIO_BUILD/apt-install.log" 2>&1 ||
            die "apt-get install$missing failed (see $RDIO_BUILD/apt-install.log)"
    fi
else
    die "missing build dependencies; run: sudo apt-get install$missing"
fi
