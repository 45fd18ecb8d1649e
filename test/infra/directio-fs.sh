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
# Runs the direct I/O jtreg tests, the fork's and upstream's, once on each
# file system this host can mount, because what direct I/O does (whether
# O_DIRECT bypasses the page cache, STATX_DIOALIGN, RWF_DONTCACHE) is up to
# the file system, and the host run (test-rdio.sh) sees only the one its
# work directory is on:
#
#   ext4          mkfs.ext4's defaults
#   ext4-journal  the same, mounted with data=journal
#   ext4-4k       ext4 on a loop device with a 4096-byte logical block
#   xfs           mkfs.xfs's defaults
#   btrfs         mkfs.btrfs's defaults
#   tmpfs         no block device; takes O_DIRECT, has no STATX_DIOALIGN
#   ramfs         no O_DIRECT at all: an open with it fails with EINVAL
#
# On ramfs only the tests of what a file system without direct I/O must
# do run (ramfs_tests below): every other test opens files with DIRECT.
#
# Each file system but tmpfs and ramfs is made on a loop device over a
# sparse 1 GiB image file in $RDIO_BUILD/directio-fs/img (the largest tests
# write 256 MiB; 1 GiB also keeps every mkfs on its default profile, which
# for ext4 below 512 MiB would be 1 KiB blocks), 2 GiB for btrfs, and
# mounted at $RDIO_BUILD/directio-fs/mnt/NAME.  The tests get that
# directory as the system property test.directio.dir (the fork's tests,
# through FileChannel/directio/lib/DirectIODir.java), test.dir (upstream's,
# through DirectIOTest.createTempFile) and java.io.tmpdir (the talk's
# example, which uses File.createTempFile).  Each run has its own work and report
# directories, $RDIO_BUILD/directio-fs/NAME/{JTwork,JTreport}, and the mount
# it used in NAME/mount.txt.  The file systems are made afresh each time and
# released after their run, image files included.
#
# It needs root (losetup, mkfs, mount) and loop devices, and fails with one
# line if either is missing, or if a file system cannot be made or mounted:
# a file system that is left out would be one that went untested.  Whatever
# it mounts or attaches is released on every exit, and what a killed earlier
# run left behind is released at the start.
#
#   directio-fs.sh JDK_IMAGE JTREG_HOME [NAME...]   the runs, all or the named file systems
#   directio-fs.sh --reports [NAME...]              print the runs' report directories
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

base=$RDIO_BUILD/directio-fs
all_fs=(ext4 ext4-journal ext4-4k xfs btrfs tmpfs ramfs)
image_size=1G
# Relative to the assembled test tree, build/src/test/jdk.
tests=(java/nio/channels/FileChannel/directio java/nio/channels/AsynchronousFileChannel/DirectIOAsync.java)
# DIRECT refused with JDK 25's IOException, leaving nothing behind; the
# DONTCACHE hint, which needs no O_DIRECT, falling back to cached I/O.
ramfs_tests=(java/nio/channels/FileChannel/directio/DirectIOOpenCleanup.java
             java/nio/channels/FileChannel/directio/DontCacheOption.java
             java/nio/channels/FileChannel/directio/DontCacheHint.java)

# Sets lo_opts (losetup options), mkfs (command and options, empty for
# tmpfs and ramfs), mount_opts and size (the image file's) for the file
# system NAME.
fs_spec() {   # NAME
    lo_opts=() mkfs=() mount_opts=defaults size=$image_size
    case $1 in
        ext4)         mkfs=(mkfs.ext4 -q -F) ;;
        ext4-journal) mkfs=(mkfs.ext4 -q -F) mount_opts=data=journal ;;
        ext4-4k)      mkfs=(mkfs.ext4 -q -F) lo_opts=(-b 4096) ;;
        xfs)          mkfs=(mkfs.xfs -q -f) ;;
        # btrfs frees a deleted file's extents only when its transaction
        # commits: at 1 GiB, a test right after others had deleted theirs
        # saw its writeback fail with ENOSPC (cow_file_range: -28), and the
        # next direct read of that range report it
        btrfs)        mkfs=(mkfs.btrfs -q -f) size=2G ;;
        tmpfs)        mount_opts=size=$size ;;
        ramfs)        ;;
        *) die "unknown file system $1 (known: ${all_fs[*]})" ;;
    esac
}

# A command's output as one line, for die().
oneline() {   # TEXT
    printf '%s' "${1//$'\n'/ }"
}

usage="usage: directio-fs.sh JDK_IMAGE JTREG_HOME [NAME...] | --reports [NAME...]"
if [ "${1:-}" = --reports ]; then
    shift
    jdk='' jtreg_home=''
else
    jdk=${1:?$usage}
    jtreg_home=${2:?$usage}
    shift 2
fi
names=("${@:-${all_fs[@]}}")
report_dirs=()
for name in "${names[@]}"; do
    fs_spec "$name"
    report_dirs+=("$base/$name/JTreport")
done
if [ -z "$jdk" ]; then
    printf '%s\n' "${report_dirs[@]}"
    exit 0
fi
# No report of an earlier run may pass for one of this run.
rm -rf "${report_dirs[@]}" || die "cannot remove the reports of an earlier run (${report_dirs[*]})"
[ -x "$jdk/bin/java" ] || die "no JDK image at $jdk: run make images"
[ -f "$jtreg_home/lib/jtreg.jar" ] || die "no jtreg at $jtreg_home: run bash configure"
[ -d "$RDIO_BUILD/src/test/jdk" ] || die "no assembled test tree at $RDIO_BUILD/src/test/jdk: run make assemble"

# --- What the host must provide ------------------------------------------------

[ "$(id -u)" = 0 ] ||
    die "must run as root: it makes file systems on loop devices and mounts them (run: sudo make test-directio-fs)"
[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
out=$(losetup --find 2>&1) ||
    die "no loop device: losetup --find: $(oneline "$out") (is the kernel's loop driver loaded? modprobe loop)"
declare -A tool_package=([mkfs.ext4]=e2fsprogs [mkfs.xfs]=xfsprogs [mkfs.btrfs]=btrfs-progs
                         [fincore]=util-linux-extra [gcc]=gcc [findmnt]=util-linux)
needed=(fincore gcc findmnt)
for name in "${names[@]}"; do
    fs_spec "$name"
    [ "${#mkfs[@]}" = 0 ] || needed+=("${mkfs[0]}")
done
for tool in "${needed[@]}"; do
    command -v "$tool" >/dev/null ||
        die "$tool is not installed (Debian package ${tool_package[$tool]}; bash configure installs it as root)"
done

# --- Mounts and loop devices -----------------------------------------------------

# Unmounts everything under $base/mnt and detaches every loop device over an
# image in $base/img, then removes the images: after a run, on any exit, and
# at the start for what a killed run left.
release() {
    local m dev file
    while read -r m; do
        umount "$m" 2>/dev/null || umount --lazy "$m" || echo "$RDIO_PROG: cannot unmount $m" >&2
    done < <(findmnt -rn -o TARGET | awk -v p="$base/mnt/" 'index($0, p) == 1' | sort -r)
    while read -r dev file; do
        case $file in
            "$base"/img/*) losetup -d "$dev" || echo "$RDIO_PROG: cannot detach $dev ($file)" >&2 ;;
        esac
    done < <(losetup --noheadings --list --output NAME,BACK-FILE)
    rm -rf "$base/img"
}
trap release EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
release

# Makes and mounts the file system NAME at $base/mnt/NAME.
mount_fs() {   # NAME
    local name=$1 mnt=$base/mnt/$1 img=$base/img/$1.img dev out
    fs_spec "$name"
    mkdir -p "$mnt" "$base/img"
    if [ "${#mkfs[@]}" = 0 ]; then
        out=$(mount -t "$name" -o "$mount_opts" "rdio-directio-$name" "$mnt" 2>&1) ||
            die "$name: cannot mount $name: $(oneline "$out")"
        return
    fi
    truncate -s "$size" "$img"
    dev=$(losetup --find --show "${lo_opts[@]}" "$img" 2>&1) ||
        die "$name: cannot attach $img to a loop device: $(oneline "$dev")"
    out=$("${mkfs[@]}" "$dev" 2>&1) || die "$name: ${mkfs[*]} $dev failed: $(oneline "$out")"
    out=$(mount -o "$mount_opts" "$dev" "$mnt" 2>&1) ||
        die "$name: cannot mount $dev (${mkfs[0]#mkfs.}, -o $mount_opts): $(oneline "$out")"
}

# Upstream's DirectIOTest (@run main/native) loads libDirectIO from
# jtreg's -nativepath, which upstream's test image would provide; one
# library needs no test image build.
native=$base/native
mkdir -p "$native"
out=$(gcc -shared -fPIC -O2 -I"$jdk/include" -I"$jdk/include/linux" -o "$native/libDirectIO.so" \
          "$RDIO_BUILD/src/test/jdk/java/nio/channels/FileChannel/directio/libDirectIO.c" 2>&1) ||
    die "cannot compile upstream's libDirectIO.c: $(oneline "$out")"

# --- The runs --------------------------------------------------------------------

declare -A took result
for name in "${names[@]}"; do
    dir=$base/$name mnt=$base/mnt/$name
    # A fresh work directory: classes compiled against another image must
    # not be reused.
    rm -rf "$dir"
    mkdir -p "$dir"
    awk -v fs="$name" '$1 == fs { r = $3; for (i = 4; i <= NF; i++) r = r " " $i; print $2 " 0000000 generic-all " r }' \
        "$RDIO_INFRA/directio-fs.exclude" > "$dir/exclude.txt"
    mount_fs "$name"
    {
        findmnt -n -o TARGET,SOURCE,FSTYPE,OPTIONS "$mnt"
        src=$(findmnt -n -o SOURCE "$mnt")
        [ ! -b "$src" ] || echo "$src: logical block $(blockdev --getss "$src") bytes, physical $(blockdev --getpbsz "$src")"
    } > "$dir/mount.txt"
    note "$name: $(paste -sd' ' "$dir/mount.txt" | sed 's/  */ /g')"
    run_tests=("${tests[@]}")
    [ "$name" != ramfs ] || run_tests=("${ramfs_tests[@]}")
    start=$SECONDS
    run_jtreg "$jdk" "$jtreg_home" "$dir" \
        -nativepath:"$native" \
        -exclude:"$dir/exclude.txt" \
        -javaoption:-Dtest.directio.dir="$mnt" \
        -javaoption:-Dtest.dir="$mnt" \
        -javaoption:-Djava.io.tmpdir="$mnt" \
        "${run_tests[@]}" > "$dir/jtreg.log" 2>&1 || true
    took[$name]=$((SECONDS - start))
    result[$name]="no report"
    [ ! -f "$dir/JTreport/text/summary.txt" ] ||
        result[$name]=$("$RDIO_INFRA/jtreg-summary.sh" "$dir/JTreport" 2>/dev/null || true)
    note "$name: ${result[$name]} in ${took[$name]} s (log $dir/jtreg.log)"
    release
done

{
    printf '%-13s %-36s %s\n' "file system" "tests" "time"
    for name in "${names[@]}"; do
        printf '%-13s %-36s %s s\n' "$name" "${result[$name]}" "${took[$name]}"
    done
} | tee "$base/summary.txt"
"$RDIO_INFRA/jtreg-summary.sh" "${report_dirs[@]}"
