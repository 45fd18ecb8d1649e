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
# The guest's initramfs, for rdma-guest.sh (which sources this
# file after kernel.sh has set the kernel and its modules).
#
#   guest_initramfs INIT [PART...]
#                          sets initrd: busybox-static with its applets,
#                          the modules of mod_order decompressed into
#                          /lib/modules with their load order in
#                          /modules.list, INIT as /init and each PART,
#                          which INIT sources, beside it.  Cached in
#                          $cache, keyed by a hash of kernel, modules,
#                          INIT, the parts and busybox, as
#                          $initramfs_name-KEY.cpio.gz (default name:
#                          initramfs; rdma-pair.sh's is initramfs-pair)

guest_initramfs() {   # INIT [PART...]
    local init=$1 busybox key stage m src i part parts=()
    shift
    mkdir -p "$cache"
    busybox=$(command -v busybox)
    if ldd "$busybox" >/dev/null 2>&1; then
        die "$busybox is dynamically linked: install busybox-static"
    fi
    [ -f "$init" ] || die "no guest init script $init"
    for part in "$@"; do
        [ -f "$part" ] || die "no guest init part $part"
        parts+=("$(sha256_of "$part")")
    done
    key=$(printf '%s\n' "$kernel_pkg $kernel_ver $kver" "${mod_order[*]}" "$(sha256_of "$init")" "${parts[*]}" \
              "$(sha256_of "$busybox")" | sha256sum | cut -c1-16)
    initrd=$cache/${initramfs_name:-initramfs}-$key.cpio.gz
    [ ! -f "$initrd" ] || return 0
    note "building the guest initramfs ($kver, modules: ${mod_order[*]})"
    stage=$(mktemp -d "$cache/initramfs.XXXXXX")
    mkdir -p "$stage"/{bin,dev,proc,sys,tmp,host,results,lib/modules}
    cp "$busybox" "$stage/bin/busybox"
    for m in $("$busybox" --list); do
        [ "$m" = busybox ] || ln -s busybox "$stage/bin/$m"
    done
    # Plain .ko files: busybox's insmod does not decompress.
    for i in "${!mod_order[@]}"; do
        m=${mod_order[$i]} src=${mod_file[$i]}
        case $src in
            *.ko.xz) xz -dc "$src" ;;
            *.ko.zst) zstd -dcq "$src" ;;
            *.ko.gz) gzip -dc "$src" ;;
            *.ko) cat "$src" ;;
            *) die "module $m has an unknown format: $src" ;;
        esac > "$stage/lib/modules/$m.ko" || die "cannot unpack module $m ($src)"
        echo "$m" >> "$stage/modules.list"
    done
    cp "$init" "$stage/init"
    chmod 755 "$stage/init"
    for part in "$@"; do
        cp "$part" "$stage/${part##*/}"
    done
    (cd "$stage" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null | gzip -9n) > "$initrd.tmp" ||
        die "cannot build the initramfs"
    mv "$initrd.tmp" "$initrd"
    rm -rf "$stage"
    # Those of other inputs are stale: rebuilding one takes seconds.
    find "$cache" -maxdepth 1 -regextype posix-extended \
        -regex ".*/${initramfs_name:-initramfs}-[0-9a-f]{16}[.]cpio[.]gz" ! -name "${initrd##*/}" -delete
}
