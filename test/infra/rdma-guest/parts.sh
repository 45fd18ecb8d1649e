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
# The guest's settings and parts, for rdma-guest.sh and rdma-pair.sh
# (which source this file after ../lib.sh): rdma-guest.conf, kernel.sh,
# initramfs.sh, qemu.sh, inputs.sh and report.sh; sets guest_dir, qemu
# (RDIO_QEMU, or qemu-system-x86_64) and cache.

guest_dir=$RDIO_INFRA/rdma-guest
# shellcheck source=rdma-guest.conf
. "$guest_dir/rdma-guest.conf"
# shellcheck source=kernel.sh
. "$guest_dir/kernel.sh"
# shellcheck source=initramfs.sh
. "$guest_dir/initramfs.sh"
# shellcheck source=qemu.sh
. "$guest_dir/qemu.sh"
# shellcheck source=inputs.sh
. "$guest_dir/inputs.sh"
# shellcheck source=report.sh
. "$guest_dir/report.sh"

qemu=${RDIO_QEMU:-qemu-system-x86_64}
cache=$RDIO_CACHE/rdma-guest
