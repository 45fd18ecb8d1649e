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
# The devices of bench-directio-qd.sh (which sources this file): the
# RAM-backed block device and the disk, each with one file that every row
# reads and writes.
#
#   qd_devices   drops from devices what cannot be measured (ram when not
#                root), makes the RAM device and the files, and sets
#                dev_file, dev_mib and dev_desc (declared by the caller)
#   release      undoes what qd_devices made under $ram (also what a killed
#                run left); an EXIT trap while the RAM device exists

# Writes FILE (MIB MiB of random bytes), unless it has that size already.
make_file() {   # FILE MIB
    if [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" != $(($2 << 20)) ]; then
        note "writing $1 ($2 MiB of random bytes)"
        dd if=/dev/urandom of="$1.tmp" bs=1M count="$2" conv=fsync status=none || die "cannot write $1"
        mv "$1.tmp" "$1"
    fi
}

# Unmounts and detaches whatever this script made under $ram (also what a
# killed run left): the ext4, then the loop device, then the tmpfs under
# it; unloads brd if this run loaded it, and removes the directories.
release() {
    local dev file
    if mountpoint -q "$ram/mnt"; then
        umount "$ram/mnt" 2>/dev/null || umount --lazy "$ram/mnt" || echo "$RDIO_PROG: cannot unmount $ram/mnt" >&2
    fi
    if command -v losetup >/dev/null; then
        while read -r dev file; do
            case $file in
                "$ram"/*) losetup -d "$dev" || echo "$RDIO_PROG: cannot detach $dev ($file)" >&2 ;;
            esac
        done < <(losetup --noheadings --list --output NAME,BACK-FILE 2>/dev/null)
    fi
    if mountpoint -q "$ram/tmpfs"; then
        umount "$ram/tmpfs" 2>/dev/null || umount --lazy "$ram/tmpfs" || echo "$RDIO_PROG: cannot unmount $ram/tmpfs" >&2
    fi
    if [ -n "$brd_loaded" ]; then
        rmmod brd 2>/dev/null || echo "$RDIO_PROG: cannot unload brd" >&2
        brd_loaded=
    fi
    if ! findmnt -rn -o TARGET | awk -v p="$ram/" 'index($0, p) == 1 { found = 1 } END { exit !found }'; then
        rm -rf "$ram"
    fi
}

qd_devices() {
    want_ram=
    for d in "${devices[@]}"; do [ "$d" != ram ] || want_ram=1; done
    if [ -n "$want_ram" ] && [ "$(id -u)" != 0 ]; then
        ram_note="RAM device left out: not root (it mounts a tmpfs and makes a loop device; run as root for it)"
        note "$ram_note"
        devices=("${devices[@]/ram/}")
        read -r -a devices <<<"${devices[*]}"
        want_ram=
    fi
    [ "${#devices[@]}" -gt 0 ] || die "no device left to measure"

    if [ -n "$want_ram" ]; then
        trap release EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        release
        for tool in mkfs.ext4 losetup findmnt; do
            command -v "$tool" >/dev/null || die "$tool is not installed (needed for the RAM device)"
        done
        # Room for the file and ext4's metadata and journal.
        img_mib=$((ram_mib + ram_mib / 8 + 128))
        mkdir -p "$ram/mnt"
        rdev=
        if [ "$ram_kind" = auto ] && [ ! -e /sys/module/brd ] &&
           modprobe brd rd_nr=1 rd_size=$((img_mib * 1024)) max_part=0 2>/dev/null; then
            brd_loaded=1
            for _ in 1 2 3 4 5; do [ -b /dev/ram0 ] && break; sleep 0.2; done
            if [ -b /dev/ram0 ]; then
                rdev=/dev/ram0
                ram_what="brd (/dev/ram0, $img_mib MiB)"
            else
                rmmod brd 2>/dev/null || true
                brd_loaded=
            fi
        fi
        if [ -z "$rdev" ]; then
            mkdir -p "$ram/tmpfs"
            o=$(mount -t tmpfs -o size=$((img_mib + 16))m rdio-bench-qd "$ram/tmpfs" 2>&1) ||
                die "cannot mount a tmpfs at $ram/tmpfs: ${o//$'\n'/ }"
            truncate -s "${img_mib}M" "$ram/tmpfs/ram.img"
            rdev=$(losetup --find --show "$ram/tmpfs/ram.img" 2>&1) ||
                die "cannot attach $ram/tmpfs/ram.img to a loop device: ${rdev//$'\n'/ }"
            ram_what="$rdev over a $img_mib MiB file on tmpfs"
        fi
        o=$(mkfs.ext4 -q -F -m 0 -E lazy_itable_init=0,lazy_journal_init=0 "$rdev" 2>&1) ||
            die "mkfs.ext4 $rdev failed: ${o//$'\n'/ }"
        o=$(mount "$rdev" "$ram/mnt" 2>&1) || die "cannot mount $rdev at $ram/mnt: ${o//$'\n'/ }"
        dev_file[ram]=$ram/mnt/qd-${ram_mib}m.dat
        dev_mib[ram]=$ram_mib
        make_file "${dev_file[ram]}" "$ram_mib"
        dev_desc[ram]="ext4 (mkfs.ext4 defaults, -m 0) on $ram_what, file ${dev_file[ram]}, $ram_mib MiB"
    fi
    for d in "${devices[@]}"; do
        [ "$d" = disk ] || continue
        fstype=$(findmnt -n -o FSTYPE --target "$data_dir" 2>/dev/null || stat -f -c %T "$data_dir")
        [ "$fstype" != tmpfs ] || die "$data_dir is on tmpfs, which is no disk: set BENCH_DIR"
        dev_file[disk]=$data_dir/qd-${disk_mib}m.dat
        dev_mib[disk]=$disk_mib
        make_file "${dev_file[disk]}" "$disk_mib"
        src_dev=$(findmnt -n -o SOURCE --target "$data_dir" 2>/dev/null || echo '?')
        blk=$(basename "$(readlink -f "$src_dev")")
        sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$blk/queue/scheduler" 2>/dev/null || true)
        rot=$(cat "/sys/block/$blk/queue/rotational" 2>/dev/null || echo '?')
        dev_desc[disk]="$fstype on $src_dev (scheduler ${sched:-?}, rotational $rot), file ${dev_file[disk]}, $disk_mib MiB"
    done
}
