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
# The guest kernel and its modules, for rdma-guest.sh (which sources this
# file, after ../lib.sh and rdma-guest.conf).
#
#   guest_kernel          sets kernel_pkg, kernel_ver, kver, kernel_dir,
#                         moddir and vmlinuz: the pinned kernel package of
#                         Debian $GUEST_KERNEL_SUITE (or the newest of its
#                         ABI series), downloaded and unpacked (never
#                         installed) into $cache/kernel once
#   guest_modules NAME... sets mod_order (module names, in load order, each
#                         after its dependencies) and mod_file (their .ko
#                         files): kmod's modprobe --show-depends on the
#                         unpacked kernel tree, whose module index kmod's
#                         depmod wrote

# apt-get and apt-cache on a private package list of the kernel's suite, from
# the archive the machine uses (common.sh's suite_apt).
kernel_apt() {
    DEBIAN_SUITE=$GUEST_KERNEL_SUITE suite_apt "$@"
}

# Whether the suite has binary package PACKAGE at VERSION.  (apt-cache show
# PACKAGE=VERSION succeeds, silently, for a version that does not exist.)
kernel_available() {   # PACKAGE VERSION
    kernel_apt apt-cache madison "$1" 2>/dev/null |
        awk -F' *[|] *' -v v="$2" '$2 == v && /Packages$/ { found = 1 } END { exit !found }'
}

# Prints "PACKAGE VERSION" of the kernel to use: the pin, or else the newest
# linux-image-6.1.0-N-amd64 of the suite (not -rt, -cloud, -dbg, -unsigned).
resolve_kernel() {
    if kernel_available "$GUEST_KERNEL_PACKAGE" "$GUEST_KERNEL_VERSION"; then
        echo "$GUEST_KERNEL_PACKAGE $GUEST_KERNEL_VERSION"
        return
    fi
    # Our package list may be the stale one: read the archive again, once.
    kernel_apt apt-get -qq update >/dev/null 2>&1 ||
        die "cannot read the $GUEST_KERNEL_SUITE package lists (network down or archive unreachable)"
    if kernel_available "$GUEST_KERNEL_PACKAGE" "$GUEST_KERNEL_VERSION"; then
        echo "$GUEST_KERNEL_PACKAGE $GUEST_KERNEL_VERSION"
        return
    fi
    # The same kernel line with another ABI number: linux-image-6.1.0-*-amd64
    local pkg ver line
    line=$(sed -E 's/[.]/\\./g; s/-[0-9]+-([a-z0-9]+)$/-[0-9]+-\1/' <<< "$GUEST_KERNEL_PACKAGE")
    pkg=$(kernel_apt apt-cache search --names-only "^$line\$" |
          awk '{ print $1 }' | sort -V | tail -n1)
    [ -n "$pkg" ] || die "no package like $GUEST_KERNEL_PACKAGE in Debian $GUEST_KERNEL_SUITE: the guest kernel is missing"
    ver=$(kernel_apt apt-cache policy "$pkg" | awk '$1 == "Candidate:" { print $2 }')
    if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
        die "no installable version of $pkg in Debian $GUEST_KERNEL_SUITE"
    fi
    note "the pinned $GUEST_KERNEL_PACKAGE $GUEST_KERNEL_VERSION is no longer in Debian $GUEST_KERNEL_SUITE; using $pkg $ver instead: update test/infra/rdma-guest/rdma-guest.conf" >&2
    echo "$pkg $ver"
}

# The package leaves the module index (modules.dep and its binary forms,
# which modprobe reads) to depmod at install time: kmod's depmod writes it
# into the unpacked tree DIR.
index_modules() {   # DIR
    local kv
    for kv in "$1"/lib/modules/*/; do
        kv=$(basename "$kv")
        depmod -b "$1" "$kv" || die "depmod of the guest kernel $kv failed"
    done
}

# Downloads and unpacks (never installs) the kernel package into the cache,
# once; sets kernel_dir.
fetch_kernel() {   # PACKAGE VERSION
    local pkg=$1 ver=$2
    kernel_dir=$cache/kernel/${pkg}_$ver
    [ -f "$kernel_dir/.rdio-complete" ] && return
    # test-rdio.sh starts guests side by side: one downloads, the others
    # wait for it and find the kernel there.
    mkdir -p "$cache/kernel"
    local lock
    exec {lock}> "$kernel_dir.lock"
    flock "$lock"
    if [ -f "$kernel_dir/.rdio-complete" ]; then
        exec {lock}>&-
        return
    fi
    note "downloading $pkg $ver from Debian $GUEST_KERNEL_SUITE"
    rm -rf "$kernel_dir" "$kernel_dir.tmp"
    mkdir -p "$kernel_dir.tmp/deb"
    (cd "$kernel_dir.tmp/deb" && kernel_apt apt-get -qq download "$pkg=$ver" >download.log 2>&1) ||
        die "cannot download the guest kernel $pkg $ver (see $kernel_dir.tmp/deb/download.log)"
    dpkg -x "$kernel_dir.tmp/deb/"*.deb "$kernel_dir.tmp" || die "cannot unpack $pkg $ver"
    rm -rf "$kernel_dir.tmp/deb"
    index_modules "$kernel_dir.tmp"
    mv "$kernel_dir.tmp" "$kernel_dir"
    touch "$kernel_dir/.rdio-complete"
    exec {lock}>&-
}

guest_kernel() {
    if [ -f "$cache/kernel/${GUEST_KERNEL_PACKAGE}_$GUEST_KERNEL_VERSION/.rdio-complete" ]; then
        kernel_pkg=$GUEST_KERNEL_PACKAGE kernel_ver=$GUEST_KERNEL_VERSION   # no archive needed
    else
        read -r kernel_pkg kernel_ver < <(resolve_kernel) || exit 1
    fi
    fetch_kernel "$kernel_pkg" "$kernel_ver"
    kver=
    local d
    for d in "$kernel_dir"/lib/modules/*/; do kver=$(basename "$d"); break; done
    vmlinuz=$kernel_dir/boot/vmlinuz-$kver
    moddir=$kernel_dir/lib/modules/$kver
    if [ ! -f "$vmlinuz" ] || [ ! -f "$moddir/modules.dep" ]; then
        die "$kernel_pkg $kernel_ver has no boot/vmlinuz or modules.dep: the guest kernel is missing"
    fi
    # A tree unpacked before the index had its binary forms gets them now.
    [ -f "$moddir/modules.dep.bin" ] || index_modules "$kernel_dir"
}

# modprobe --show-depends prints what loading NAME takes, in load order:
# "insmod FILE" per module, or "builtin NAME" when the kernel has it built
# in.  -C /dev/null keeps the host's modprobe.d (blacklists, options) out.
guest_modules() {   # NAME...
    mod_order=() mod_file=()
    local name line what file out seen=' '
    for name in "$@"; do
        [ -n "$name" ] || continue
        name=${name//-/_}
        if ! out=$(modprobe -C /dev/null -d "$kernel_dir" -S "$kver" --show-depends "$name" 2>&1); then
            case $out in
                *"not found in directory"*)
                    die "module $name is not in the guest kernel $kver (neither in its modules.dep nor built in)" ;;
                *) die "cannot resolve module $name of the guest kernel $kver: $(head -n1 <<< "$out")" ;;
            esac
        fi
        while read -r what file _; do
            [ "$what" = insmod ] || continue   # builtin: nothing to load
            name=${file##*/}; name=${name%%.ko*}; name=${name//-/_}
            case ",$GUEST_SKIP_MODULES," in *",$name,"*) continue ;; esac
            case $seen in *" $name "*) continue ;; esac
            seen="$seen$name "
            mod_order+=("$name")
            mod_file+=("$file")
        done <<< "$out"
    done
}
