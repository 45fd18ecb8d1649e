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
# Runs the fork's RDMA tests for real, on a Soft-RoCE device, in a QEMU guest.
#
#   rdma-guest.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME]
#                 [--tests DIR_OR_FILE...] [--out DIR]
#   rdma-guest.sh [--jdk JDK_HOME] --bench JAR [--out DIR] [-- JMH_ARGS...]
#
# The host kernel has no InfiniBand, so the tests cannot run on it.  The guest
# boots Debian bookworm's 6.1 kernel (which has rdma_rxe) under TCG, with an
# initramfs of busybox plus the modules of make/rdma-guest.conf, sees the
# host's root read-only over 9p and --out read-write over a second 9p share
# (mounted at the same path, so every path means the same on both sides).
# In one boot it brings up rxe0 on a veth pair with guest-only addresses,
# measures librdmacm's rstream over it (--out/rstream-baseline.txt), runs
# jtreg with the given JDK on the given tests (--out/JTreport), and powers
# off.  With --bench, the last stage runs the JMH jar JAR instead (java -jar
# JAR JMH_ARGS, its results in --out/jmh.csv), and the baseline measures
# rstream at the benchmark's sizes, over rsockets and over TCP.  Host
# binaries and libraries (java, rstream, ibv_devices, the librxe verbs
# provider) run chrooted into the shared host root.
#
# Every stage has a timeout, enforced in the guest and again by a watchdog
# here; the whole QEMU run is under timeout(1).  The guest reports each
# stage as "STAGE ok|fail SECONDS [DETAIL]" on its console and in
# --out/status; this script prints the timings and, on failure, one line
# naming the stage and the cause, and exits non-zero.  A test that skips
# fails the run: in the guest there is nothing to skip for.
#
# Defaults: the JDK image and jtreg of build/config.mk, the tests under
# jdk/net/rdma of the assembled test tree (build/src/test/jdk; test paths
# are relative to it, and paths into this repository's test/jdk map to it),
# and --out build/rdma-guest.
#
# For testing the failure paths: RDIO_GUEST_EXTRA_MODULES=mod1,mod2 adds
# modules to load (e.g. one the kernel lacks, or kvm_intel, which TCG's CPU
# cannot run), and RDIO_QEMU names another QEMU binary.
. "$(dirname "$0")/common.sh"
# shellcheck source=../rdma-guest.conf
. "$RDIO_TOP/make/rdma-guest.conf"

qemu=${RDIO_QEMU:-qemu-system-x86_64}
cache=$RDIO_CACHE/rdma-guest
stages=(boot modules rxe baseline tests)
declare -A stage_timeout=(
    [boot]=$GUEST_TIMEOUT_BOOT [modules]=$GUEST_TIMEOUT_MODULES [rxe]=$GUEST_TIMEOUT_RXE
    [baseline]=$GUEST_TIMEOUT_BASELINE [tests]=$GUEST_TIMEOUT_TESTS
)

usage() {
    sed -n 's/^#   //p' "$0" | head -n2 >&2
    exit 2
}

# --- Arguments ---------------------------------------------------------------

config_value() {   # NAME: a value from build/config.mk, if configure wrote one
    sed -n "s/^$1 := //p" "$RDIO_BUILD/config.mk" 2>/dev/null | head -n1
}

jdk='' jtreg_home='' out='' tests=() bench_jar='' bench_args=()
while [ $# -gt 0 ]; do
    case $1 in
        --jdk) jdk=${2:?--jdk needs a directory}; shift 2 ;;
        --jtreg) jtreg_home=${2:?--jtreg needs a directory}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        --tests)
            shift
            while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do tests+=("$1"); shift; done
            [ "${#tests[@]}" -gt 0 ] || die "--tests needs at least one test file or directory" ;;
        --bench) bench_jar=${2:?--bench needs a JMH jar}; shift 2 ;;
        --) shift; bench_args=("$@"); break ;;
        -h|--help) usage ;;
        *) die "unknown argument $1 (usage: rdma-guest.sh [--jdk JDK_HOME] [--jtreg JTREG_HOME] [--tests DIR_OR_FILE...] [--out DIR], or --bench JAR [-- JMH_ARGS])" ;;
    esac
done

# The tools first, so that a machine that cannot run the guest says so at once.
command -v "$qemu" >/dev/null || die "$qemu is not on PATH (install qemu-system-x86)"
for tool in busybox dpkg gzip timeout; do
    command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

if [ -z "$jdk" ]; then
    conf_dir=$(config_value RDIO_CONF_DIR)
    [ -n "$conf_dir" ] || die "no --jdk given and no build/config.mk to find the JDK image in: run bash configure, or pass --jdk"
    jdk=$conf_dir/images/jdk
fi
[ -x "$jdk/bin/java" ] || die "no JDK at $jdk (no bin/java): run make images, or pass --jdk"
if [ -z "$jtreg_home" ]; then
    jtreg_home=$(config_value RDIO_JTREG_HOME)
    [ -n "$jtreg_home" ] || jtreg_home=$("$RDIO_TOP/make/scripts/jtreg.sh")
fi
[ -f "$jtreg_home/lib/jtreg.jar" ] || die "no jtreg at $jtreg_home (no lib/jtreg.jar)"
out=${out:-$RDIO_BUILD/rdma-guest}
mkdir -p "$out" || die "cannot create $out"
jdk=$(readlink -f "$jdk") jtreg_home=$(readlink -f "$jtreg_home") out=$(readlink -f "$out")
[ "$out" != / ] || die "--out / would share the whole host root read-write with the guest"

# The guest sees the host's root, except where it mounts its own file
# systems.  What lives under /tmp (a clone in /tmp, say) it binds back over
# its own /tmp; under /proc, /sys, /dev or /run nothing can live.
tmp_paths=()
guest_visible() {   # PATH WHAT
    local top=${1#/}
    top=/${top%%/*}
    case $top in
        /tmp) tmp_paths+=("$1") ;;
        /proc|/sys|/dev|/run)
            die "$2 $1 is under $top, which the guest replaces with its own file system; put it elsewhere" ;;
    esac
}
guest_visible "$jdk" "the JDK"
if [ -n "$bench_jar" ]; then
    [ "${#tests[@]}" = 0 ] || die "--bench and --tests exclude each other"
    [ -f "$bench_jar" ] || die "no JMH jar $bench_jar"
    bench_jar=$(readlink -f "$bench_jar")
    guest_visible "$bench_jar" "the JMH jar"
fi
guest_visible "$jtreg_home" "jtreg"

test_root=$RDIO_BUILD/src/test/jdk
[ -f "$test_root/TEST.ROOT" ] || die "no assembled test tree at $test_root: run make assemble (or make images) first"
test_root=$(readlink -f "$test_root")
guest_visible "$test_root" "the test tree"
[ "${#tests[@]}" -gt 0 ] || tests=(jdk/net/rdma)
jtreg_tests=()
for t in "${tests[@]}"; do
    case $t in
        /*) t=$(readlink -f "$t") ;;
        *) t=$test_root/$t ;;
    esac
    # A path into this repository's overlay means its assembled copy.
    case $t/ in
        "$RDIO_TOP/test/jdk/"*) t=$test_root/${t#"$RDIO_TOP/test/jdk/"} ;;
    esac
    t=${t%/}
    [ -e "$t" ] || die "no test $t"
    case $t/ in
        "$test_root/"*) t=${t#"$test_root/"} ;;
        *) die "test $t is not in the assembled test tree $test_root" ;;
    esac
    # The assembled copies must be those of the overlay, or we would test
    # stale files.
    if [ -e "$RDIO_TOP/test/jdk/$t" ]; then
        while read -r f; do
            cmp -s "$RDIO_TOP/test/jdk/$f" "$test_root/$f" ||
                die "build/src/test/jdk/$f differs from test/jdk/$f: run make assemble first"
        done < <(cd "$RDIO_TOP/test/jdk" && find "$t" -type f)
    fi
    jtreg_tests+=("$t")
done

# --- The kernel ----------------------------------------------------------------

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
    local pkg ver
    pkg=$(kernel_apt apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
          awk '{ print $1 }' | sort -V | tail -n1)
    [ -n "$pkg" ] || die "no linux-image-6.1.0-*-amd64 in Debian $GUEST_KERNEL_SUITE: the guest kernel is missing"
    ver=$(kernel_apt apt-cache policy "$pkg" | awk '$1 == "Candidate:" { print $2 }')
    if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
        die "no installable version of $pkg in Debian $GUEST_KERNEL_SUITE"
    fi
    note "the pinned $GUEST_KERNEL_PACKAGE $GUEST_KERNEL_VERSION is no longer in Debian $GUEST_KERNEL_SUITE; using $pkg $ver instead: update make/rdma-guest.conf" >&2
    echo "$pkg $ver"
}

# Downloads and unpacks (never installs) the kernel package into the cache,
# once; sets kernel_dir.
fetch_kernel() {
    local pkg=$1 ver=$2
    kernel_dir=$cache/kernel/${pkg}_$ver
    [ -f "$kernel_dir/.rdio-complete" ] && return
    note "downloading $pkg $ver from Debian $GUEST_KERNEL_SUITE"
    rm -rf "$kernel_dir" "$kernel_dir.tmp"
    mkdir -p "$kernel_dir.tmp/deb"
    (cd "$kernel_dir.tmp/deb" && kernel_apt apt-get -qq download "$pkg=$ver" >download.log 2>&1) ||
        die "cannot download the guest kernel $pkg $ver (see $kernel_dir.tmp/deb/download.log)"
    dpkg -x "$kernel_dir.tmp/deb/"*.deb "$kernel_dir.tmp" || die "cannot unpack $pkg $ver"
    rm -rf "$kernel_dir.tmp/deb"
    # The package leaves modules.dep to depmod at install time.
    local kv
    for kv in "$kernel_dir.tmp"/lib/modules/*/; do
        kv=$(basename "$kv")
        busybox depmod -b "$kernel_dir.tmp" "$kv" || die "depmod of the guest kernel $kv failed"
    done
    mv "$kernel_dir.tmp" "$kernel_dir"
    touch "$kernel_dir/.rdio-complete"
}

if [ -f "$cache/kernel/${GUEST_KERNEL_PACKAGE}_$GUEST_KERNEL_VERSION/.rdio-complete" ]; then
    kernel_pkg=$GUEST_KERNEL_PACKAGE kernel_ver=$GUEST_KERNEL_VERSION   # no archive needed
else
    read -r kernel_pkg kernel_ver < <(resolve_kernel) || exit 1
fi
fetch_kernel "$kernel_pkg" "$kernel_ver"
kver=
for d in "$kernel_dir"/lib/modules/*/; do kver=$(basename "$d"); break; done
vmlinuz=$kernel_dir/boot/vmlinuz-$kver
if [ ! -f "$vmlinuz" ] || [ ! -f "$kernel_dir/lib/modules/$kver/modules.dep" ]; then
    die "$kernel_pkg $kernel_ver has no boot/vmlinuz or modules.dep: the guest kernel is missing"
fi

# --- The modules, in load order ----------------------------------------------

moddir=$kernel_dir/lib/modules/$kver
declare -A mod_path=() mod_deps=() mod_done=()
while IFS=: read -r path deps; do
    name=${path##*/}; name=${name%%.ko*}; name=${name//-/_}
    mod_path[$name]=$path
    mod_deps[$name]=$deps
done < "$moddir/modules.dep"
builtin_mods=" $(sed 's|.*/||; s|\.ko.*||; s|-|_|g' "$moddir/modules.builtin" | tr '\n' ' ') "

mod_order=()
add_module() {   # NAME: its dependencies first, then itself
    local name=${1//-/_} dep
    [ -z "${mod_done[$name]:-}" ] || return 0
    mod_done[$name]=1
    case $builtin_mods in *" $name "*) return 0 ;; esac
    [ -n "${mod_path[$name]:-}" ] ||
        die "module $name is not in the guest kernel $kver (neither in its modules.dep nor built in)"
    for dep in ${mod_deps[$name]}; do
        dep=${dep##*/}; add_module "${dep%%.ko*}"
    done
    mod_order+=("$name")
}
IFS=, read -ra wanted <<< "$GUEST_MODULES${RDIO_GUEST_EXTRA_MODULES:+,$RDIO_GUEST_EXTRA_MODULES}"
for m in "${wanted[@]}"; do
    [ -z "$m" ] || add_module "$m"
done

# --- The initramfs -------------------------------------------------------------

# The guest's /init: busybox sh, no bash.  Its parameters come from the
# kernel command line (rdio_* variables, which the kernel puts in init's
# environment) and from job.env on the results share.
IFS= read -r -d '' guest_init <<'INIT' || true
#!/bin/sh
# PID 1 of the Soft-RoCE test guest, written by make/scripts/rdma-guest.sh.
# $in_host and $BASELINE_RUNS are word lists, expanded unquoted on purpose.
# shellcheck disable=SC2086
PATH=/bin
export PATH
: "${rdio_timeout_modules:=120}"   # from the kernel command line
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# Status lines, "STAGE ok|fail SECONDS [DETAIL]", go to the console at once
# and to the share's status file once it is mounted.
status_file=
pending=
report() {
    echo "rdio-guest-status: $*"
    if [ -n "$status_file" ]; then
        echo "$*" >> "$status_file"
    else
        pending="$pending$*
"
    fi
}
now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
off() {
    sync
    umount /host/"$SHARE" /results 2>/dev/null
    poweroff -f
    sleep 60   # not reached; were it, init's death panics and QEMU exits
}
fail() {   # STAGE START CAUSE...
    stage=$1 start=$2
    shift 2
    report "$stage fail $(since "$start") $*"
    off
}
oneline() { tr '\n\t' '  ' | sed 's/  */ /g; s/^ //; s/ $//' | cut -c1-300; }
# Runs a host binary: chrooted into the host root, with a clean environment
# (in_host is for timeout(1), which cannot run a function).
in_host="chroot /host /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin HOME=/tmp LANG=C.UTF-8"
host() { $in_host "$@"; }

report "boot ok $(awk '{ printf "%.1f", $1 }' /proc/uptime)"

# --- modules: load them, mount the shares.
t=$(now)
while read -r m; do
    seen=$(dmesg | wc -l)
    out=$(timeout -s KILL "$rdio_timeout_modules" insmod "/lib/modules/$m.ko" 2>&1)
    rc=$?
    if [ "$rc" = 137 ]; then
        fail modules "$t" "module $m did not load within $rdio_timeout_modules s"
    elif [ "$rc" != 0 ]; then
        klog=$(dmesg | tail -n +$((seen + 1)) | tail -n1 | sed 's/^\[[^]]*\] *//')
        fail modules "$t" "module $m failed to load: $(echo "${out:-exit status $rc}" | sed 's/^insmod: //' | oneline)${klog:+ (kernel: $klog)}"
    fi
done < /modules.list
mkdir -p /host /results /hosttmp
opts=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$opts,ro,cache=loose" hostroot /host ||
    fail modules "$t" "cannot mount the host root (9p tag hostroot)"
mount -t 9p -o "$opts" results /results ||
    fail modules "$t" "cannot mount the results share (9p tag results)"
status_file=/results/status
printf '%s' "$pending" >> "$status_file"
. /results/job.env || fail modules "$t" "cannot read job.env on the results share"
# The host root, made livable for its binaries: their own /proc, /sys,
# /dev, a RAM /tmp and /run, and the results share at its host path.
mount --bind /host/tmp /hosttmp &&
mount -t tmpfs -o size=1g tmpfs /host/tmp &&
mount -t tmpfs tmpfs /host/run &&
mount -t proc proc /host/proc &&
mount -t sysfs sysfs /host/sys &&
mount -t devtmpfs devtmpfs /host/dev &&
mkdir -p /host/dev/pts /host/dev/shm &&
mount -t devpts devpts /host/dev/pts &&
mount -t tmpfs tmpfs /host/dev/shm ||
    fail modules "$t" "cannot set up the chroot into the host root"
# What the run needs from the host's /tmp, back at its path.
while read -r p; do
    [ -n "$p" ] || continue
    mkdir -p "/host$p" && mount --bind "/hosttmp/${p#/tmp/}" "/host$p" ||
        fail modules "$t" "cannot make the host's $p visible in the guest"
done < /results/tmp-paths.list
# The mount point exists unless the share is under /tmp, the guest's own.
[ -d "/host$SHARE" ] || mkdir -p "/host$SHARE"
mount --bind /results "/host$SHARE" ||
    fail modules "$t" "cannot mount the results share at $SHARE in the chroot"
report "modules ok $(since "$t")"

# --- rxe: rxe0 on a veth pair with guest-only addresses.
t=$(now)
host ip link set lo up
out=$(host ip link add veth0 type veth peer name veth1 2>&1 &&
      host ip addr add "$SERVER_ADDR/$PREFIX_LEN" dev veth0 2>&1 &&
      host ip addr add "$CLIENT_ADDR/$PREFIX_LEN" dev veth1 2>&1 &&
      host ip link set veth0 up 2>&1 && host ip link set veth1 up 2>&1) ||
    fail rxe "$t" "cannot set up the veth pair: $(echo "$out" | oneline)"
out=$(timeout -s KILL "$TIMEOUT_RXE" $in_host rdma link add rxe0 type rxe netdev veth0 2>&1) ||
    fail rxe "$t" "rdma link add rxe0 type rxe netdev veth0 failed: $(echo "$out" | oneline)"
out=$(timeout -s KILL "$TIMEOUT_RXE" $in_host ibv_devices 2>&1)
echo "$out" | awk '$1 == "rxe0" { found = 1 } END { exit !found }' ||
    fail rxe "$t" "ibv_devices does not list rxe0 (it says: $(echo "$out" | oneline))"
# The port goes active once veth0 has carrier; wait for it.
while ! host ibv_devinfo -d rxe0 2>/dev/null | grep -q PORT_ACTIVE; do
    [ "$(since "$t" | cut -d. -f1)" -lt "$TIMEOUT_RXE" ] ||
        fail rxe "$t" "rxe0 did not come up: its port is not active after $TIMEOUT_RXE s ($(host ibv_devinfo -d rxe0 2>&1 | grep -w state | oneline))"
    sleep 1
done
report "rxe ok $(since "$t")"

# --- baseline: librdmacm's rstream between a server and a client over rxe0.
t=$(now)
deadline=$(awk -v a="$t" -v d="$TIMEOUT_BASELINE" 'BEGIN { printf "%d", a + d }')
left() { awk -v d="$deadline" -v n="$(now)" 'BEGIN { l = d - n; printf "%d", (l > 1 ? l : 1) }'; }
# One rstream server and client pair, both with ARGS (they must agree on
# size, count and iterations); their output goes to LOG.server, LOG.client.
rstream_pair() {   # LOG ARGS...
    log=$1
    shift
    $in_host rstream -b "$SERVER_ADDR" "$@" > "$log.server" 2>&1 &
    server=$!
    # The server listens a moment after it starts: retry a failed connect
    # (rstream says "rconnect: ..." or "rpoll: ...") while it runs.
    tries=0
    until timeout -s KILL "$(left)" $in_host rstream -s "$SERVER_ADDR" "$@" > "$log.client" 2>&1; do
        tries=$((tries + 1))
        if ! grep -q -e '^rconnect' -e '^async rconnect' -e '^rpoll' "$log.client" ||
           ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 20 ] || [ "$(left)" -le 1 ]; then
            kill -9 "$server" 2>/dev/null
            fail baseline "$t" "rstream $* over rxe0 failed: $(oneline < "$log.client")"
        fi
        sleep 0.5
    done
    while kill -0 "$server" 2>/dev/null; do
        [ "$(left)" -gt 1 ] || { kill -9 "$server"; fail baseline "$t" "the rstream $* server did not finish within $TIMEOUT_BASELINE s"; }
        sleep 0.2
    done
    grep -q '^custom ' "$log.client" ||
        fail baseline "$t" "rstream $* printed no result: $(oneline < "$log.client")"
}
mkdir -p /results/baseline
{
    echo "# librdmacm rstream over Soft-RoCE rxe0 (kernel $(uname -r), guest under QEMU TCG), server $SERVER_ADDR"
    echo "# a line per size, the median of 3 runs by usec/xfer (all runs: baseline/NAME.runs):"
    echo "# name bytes xfers iters total time Gb/sec usec/xfer, as rstream prints them"
} > /results/rstream-baseline.txt
# TCG translates code on its first run, which the first pair would pay for.
rstream_pair /results/baseline/warmup -S 64 -C 1 -I 1000
set -- $BASELINE_RUNS
while [ $# -gt 0 ]; do
    name=$1 size=$2 count=$3 iterations=$4 over=$5
    shift 5
    # rsockets, or (-T s) the kernel's TCP to the same address (local, so
    # the kernel delivers it through lo, as rxe0 loops RDMA back itself)
    [ "$over" = tcp ] && over="-T s" || over=
    # Scheduling in the emulated guest makes single runs noisy: take the
    # median of three.
    for run in 1 2 3; do
        rstream_pair "/results/baseline/$name.$run" -S "$size" -C "$count" -I "$iterations" $over
        grep '^custom ' "/results/baseline/$name.$run.client" >> "/results/baseline/$name.runs"
    done
    sort -k8,8n "/results/baseline/$name.runs" | sed -n 2p |
        awk -v n="$name" '{ printf "%-14s%s\n", n, substr($0, 11) }' >> /results/rstream-baseline.txt
done
report "baseline ok $(since "$t")"

# --- tests: jtreg with the JDK under test, the report on the share; or,
# for a benchmark run, JMH.
t=$(now)
if [ -n "$BENCH_JAR" ]; then
    # C2 only (see run_jtreg below: tiered JVMs crash under TCG; 2 of 10
    # JMH forks did), so that scores are those of optimized code.
    timeout -s KILL "$TIMEOUT_TESTS" $in_host JAVA_TOOL_OPTIONS=-XX:-TieredCompilation \
        sh -c 'cd /tmp && exec "$@"' sh \
        "$JDK/bin/java" -jar "$BENCH_JAR" -foe true $BENCH_ARGS -jvmArgsAppend "-Drdio.rdma.server=$SERVER_ADDR" \
        -rf csv -rff "$SHARE/jmh.csv" > /results/jmh.log 2>&1
    rc=$?
    [ "$rc" != 137 ] || fail tests "$t" "JMH did not finish within $TIMEOUT_TESTS s (last output: $(tail -n1 /results/jmh.log | oneline))"
    [ "$rc" = 0 ] && [ -s /results/jmh.csv ] ||
        fail tests "$t" "JMH failed (exit status $rc): $(grep -m1 -e 'Exception' -e 'ERROR' /results/jmh.log | oneline)"
    report "tests ok $(since "$t") JMH"
    off
fi
# A work directory of an earlier run spares jtreg compiling its property
# definitions and the tests again (it recompiles what is out of date).
[ -z "$JTWORK_SEED" ] || cp -a "/host$JTWORK_SEED" /tmp/JTwork 2>/dev/null || rm -rf /tmp/JTwork
set --
while read -r test; do set -- "$@" "$test"; done < /results/tests.list
# Every JVM of the run (jtreg, the javac it starts, the tests and what they
# start) compiles with C1 only, through JAVA_TOOL_OPTIONS: under QEMU's
# multi-threaded TCG, JVMs with tiered compilation crashed at the entry of
# C1-compiled methods (2 of 5 javac runs in one probe; 0 of 5 with C1 only,
# 0 of 5 with C2 only; single-threaded TCG made rstream 70 times slower),
# and C2 only costs emulated CPU time here.  -report:files keeps the report
# to the tests named: jtreg's default report walks the whole test tree,
# which takes minutes under TCG.  jtreg runs in a writable directory, so
# that a JVM that crashes leaves its hs_err file where the crash logs are
# collected from.
run_jtreg() {
    timeout -s KILL "$TIMEOUT_TESTS" $in_host JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1 \
        sh -c 'mkdir -p /tmp/jtreg-cwd && cd /tmp/jtreg-cwd && exec "$@"' sh \
        "$JDK/bin/java" -jar "$JTREG_HOME/lib/jtreg.jar" \
        -jdk:"$JDK" -dir:"$TEST_ROOT" -w:/tmp/JTwork -r:"$SHARE/JTreport" -report:files \
        -agentvm -conc:1 -verbose:summary -e:JAVA_TOOL_OPTIONS \
        -timeoutFactor:"$JTREG_TIMEOUT_FACTOR" -e:RDIO_RDMA_SERVER_ADDR="$SERVER_ADDR" \
        "$@" > /results/jtreg.log 2>&1
}
# The crash logs of JVMs that died in this run, and the first one's frame.
# A JVM writes it to its working directory, or to /tmp when it cannot.
crash_logs() {
    { find /host/tmp -maxdepth 1 -name 'hs_err_pid*.log'
      find /host/tmp/jtreg-cwd /host/tmp/JTwork -name 'hs_err_pid*.log'; } 2>/dev/null
}
crashes() {
    crash_logs | while read -r f; do
        mkdir -p /results/crashes && cp "$f" /results/crashes/ && echo "/results/crashes/${f##*/}"
    done
}
crash_frame() {   # FILE: its "Problematic frame" line and the one after
    grep -A1 '^# Problematic frame:' "$1" 2>/dev/null | tail -n1 | oneline
}
run_jtreg "$@"
rc=$?
# A JVM that crashes before jtreg runs a test (seen once, in CI: the javac
# that compiles the harness's property definitions, under TCG) is retried
# once, and said so; a crash in a test is a failure.
if [ "$rc" != 0 ] && [ ! -s /results/JTreport/text/summary.txt ] &&
   grep -q 'A fatal error has been detected' /results/jtreg.log; then
    first=$(crashes | head -n1)
    mv /results/jtreg.log /results/jtreg-crashed.log
    echo "a JVM crashed before any test ran, after $(since "$t") s: $(crash_frame "$first") ($first); jtreg ran again" > /results/retried
    crash_logs | xargs rm -f
    run_jtreg "$@"
    rc=$?
fi
# The .jtr files, for the per-test times and for post-mortems.
cp -r /host/tmp/JTwork /results/JTwork 2>/dev/null
summary=/results/JTreport/text/summary.txt
if [ "$rc" = 137 ]; then
    fail tests "$t" "jtreg did not finish within $TIMEOUT_TESTS s (last output: $(grep -v '^Killed$' /results/jtreg.log | tail -n1 | oneline))"
elif [ ! -s "$summary" ]; then
    first=$(crashes | head -n1)
    fail tests "$t" "jtreg ran no test (exit status $rc): $(tail -n3 /results/jtreg.log | oneline)${first:+ (JVM crash: $(crash_frame "$first"), $first)}"
fi
crashes > /dev/null
# Inside the guest there is no reason to skip: a skip is a failure.
bad=$(grep -v -e '^$' "$summary" | grep -v 'Passed\.' ; grep 'Passed\..*Skipped:' "$summary")
if [ -n "$bad" ]; then
    fail tests "$t" "$(echo "$bad" | wc -l) of $(grep -c . "$summary") tests did not pass, first: $(echo "$bad" | head -n1 | oneline)"
fi
[ "$rc" = 0 ] || fail tests "$t" "jtreg exit status $rc: $(tail -n3 /results/jtreg.log | oneline)"
report "tests ok $(since "$t") $(grep -c . "$summary") passed"
off
INIT

# The rstream baseline: NAME SIZE COUNT ITERATIONS OVER, where an iteration
# sends COUNT messages of SIZE bytes one way and then back, OVER rdma
# (rsockets) or tcp.  For tests, 64 B ping-pong for the latency and a stream
# of 64 KiB messages for the bandwidth; for benchmarks, the sizes of
# test/micro/.../RdmaChannels.java, both ways.
if [ -z "$bench_jar" ]; then
    baseline_runs="64_lat 64 1 5000 rdma 64k_bw 65536 200 1 rdma"
else
    stage_timeout[baseline]=$GUEST_TIMEOUT_BASELINE_BENCH
    baseline_runs=
    for over in rdma tcp; do
        baseline_runs+=" 64_lat_$over 64 1 2000 $over 1k_lat_$over 1024 1 2000 $over"
        baseline_runs+=" 32k_lat_$over 32768 1 500 $over 1m_lat_$over 1048576 1 50 $over"
        baseline_runs+=" 64k_bw_$over 65536 500 1 $over"
    done
fi

mkdir -p "$cache"
busybox=$(command -v busybox)
if ldd "$busybox" >/dev/null 2>&1; then
    die "$busybox is dynamically linked: install busybox-static"
fi
key=$(printf '%s\n' "$kernel_pkg $kernel_ver $kver" "${mod_order[*]}" "$guest_init" "$(sha256_of "$busybox")" |
      sha256sum | cut -c1-16)
initrd=$cache/initramfs-$key.cpio.gz
if [ ! -f "$initrd" ]; then
    note "building the guest initramfs ($kver, modules: ${mod_order[*]})"
    stage=$(mktemp -d "$cache/initramfs.XXXXXX")
    mkdir -p "$stage"/{bin,dev,proc,sys,tmp,host,results,lib/modules}
    cp "$busybox" "$stage/bin/busybox"
    for applet in $("$busybox" --list); do
        [ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
    done
    # Plain .ko files: busybox's insmod does not decompress.
    for m in "${mod_order[@]}"; do
        src=$moddir/${mod_path[$m]}
        case $src in
            *.ko.xz) xz -dc "$src" ;;
            *.ko.zst) zstd -dcq "$src" ;;
            *.ko.gz) gzip -dc "$src" ;;
            *.ko) cat "$src" ;;
            *) die "module $m has an unknown format: $src" ;;
        esac > "$stage/lib/modules/$m.ko" || die "cannot unpack module $m ($src)"
        echo "$m" >> "$stage/modules.list"
    done
    printf '%s\n' "$guest_init" > "$stage/init"
    chmod 755 "$stage/init"
    (cd "$stage" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null | gzip -9n) > "$initrd.tmp" ||
        die "cannot build the initramfs"
    mv "$initrd.tmp" "$initrd"
    rm -rf "$stage"
    # Those of other inputs are stale: rebuilding one takes seconds.
    find "$cache" -maxdepth 1 -name 'initramfs-*.cpio.gz' ! -name "${initrd##*/}" -delete
fi

# --- The run -------------------------------------------------------------------

# Clear what an earlier run left in --out (only that: it may be a shared dir).
rm -rf "$out"/{status,job.env,tests.list,tmp-paths.list,console.log,qemu.log,jtreg.log,jtreg-crashed.log,crashes,retried,rstream-baseline.txt,baseline,JTreport,JTwork,jmh.log,jmh.csv,progress.log}

# The jtreg work directory of the last run with the same JDK, jtreg and test
# tree: the guest starts from a copy of it.
jtwork_seed=$cache/jtwork/$(printf '%s\n' "$jdk" "$jtreg_home" "$test_root" | sha256sum | cut -c1-16)

# Values for the guest's busybox sh, single-quoted.
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
{
    echo "SHARE=$(shq "$out")"
    echo "JDK=$(shq "$jdk")"
    echo "JTREG_HOME=$(shq "$jtreg_home")"
    echo "TEST_ROOT=$(shq "$test_root")"
    echo "SERVER_ADDR=$GUEST_SERVER_ADDR"
    echo "CLIENT_ADDR=$GUEST_CLIENT_ADDR"
    echo "PREFIX_LEN=$GUEST_PREFIX_LEN"
    echo "BASELINE_RUNS=$(shq "$baseline_runs")"
    echo "TIMEOUT_RXE=$GUEST_TIMEOUT_RXE"
    echo "TIMEOUT_BASELINE=${stage_timeout[baseline]}"
    echo "TIMEOUT_TESTS=$GUEST_TIMEOUT_TESTS"
    echo "JTREG_TIMEOUT_FACTOR=$GUEST_JTREG_TIMEOUT_FACTOR"
    [ ! -d "$jtwork_seed" ] || echo "JTWORK_SEED=$(shq "$jtwork_seed")"
    echo "BENCH_JAR=$(shq "$bench_jar")"
    echo "BENCH_ARGS=$(shq "${bench_args[*]}")"
} > "$out/job.env"
printf '%s\n' "${jtreg_tests[@]}" > "$out/tests.list"
printf '%s\n' "${tmp_paths[@]}" > "$out/tmp-paths.list"
: > "$out/status"

total=$GUEST_TIMEOUT_SLACK
for s in "${stages[@]}"; do total=$((total + stage_timeout[$s])); done

qpid=
stop_qemu() {
    [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null || return 0
    kill -TERM "$qpid" 2>/dev/null   # timeout(1) passes it on to QEMU
    for _ in $(seq 20); do kill -0 "$qpid" 2>/dev/null || return 0; sleep 0.5; done
    pkill -KILL -P "$qpid" 2>/dev/null
    kill -KILL "$qpid" 2>/dev/null
}
trap stop_qemu EXIT

note "booting the guest: kernel $kver ($kernel_pkg $kernel_ver), ${GUEST_ACCEL}, ${GUEST_CPUS} CPUs, $GUEST_MEMORY; at most $total s"
note "JDK $jdk, tests ${jtreg_tests[*]}, results in $out"
start=$EPOCHREALTIME
timeout -k 10 "$total" "$qemu" \
    -accel "$GUEST_ACCEL" -m "$GUEST_MEMORY" -smp "$GUEST_CPUS" \
    -nographic -monitor none -serial "file:$out/console.log" -nic none -no-reboot \
    -kernel "$vmlinuz" -initrd "$initrd" \
    -append "console=ttyS0 quiet panic=-1 rdio_timeout_modules=$GUEST_TIMEOUT_MODULES" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$out,mount_tag=results,security_model=none,multidevs=remap" \
    </dev/null >"$out/qemu.log" 2>&1 &
qpid=$!

# The watchdog: a stage that outlives its timeout (plus a grace for the
# guest's own timeout to fire first) gets QEMU killed.
watchdog=
done_stages=0 since=$SECONDS
while kill -0 "$qpid" 2>/dev/null; do
    sleep 1
    n=$(grep -c 'rdio-guest-status: ' "$out/console.log" 2>/dev/null) || n=0
    if [ "$n" -gt "$done_stages" ]; then done_stages=$n since=$SECONDS; fi
    grep -q 'rdio-guest-status: [a-z]* fail' "$out/console.log" 2>/dev/null && continue
    [ "$done_stages" -lt "${#stages[@]}" ] || continue
    s=${stages[$done_stages]}
    if [ $((SECONDS - since)) -gt $((stage_timeout[$s] + 30)) ]; then
        watchdog="stage $s did not finish within ${stage_timeout[$s]} s; QEMU killed (see $out/console.log)"
        stop_qemu
        break
    fi
done
qrc=0
wait "$qpid" || qrc=$?
qpid=
wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

# --- The report ----------------------------------------------------------------

if [ -d "$out/JTwork/extraPropDefns" ]; then
    rm -rf "$jtwork_seed.tmp"
    mkdir -p "$(dirname "$jtwork_seed")"
    if cp -a "$out/JTwork" "$jtwork_seed.tmp"; then
        rm -rf "$jtwork_seed"
        mv "$jtwork_seed.tmp" "$jtwork_seed"
    fi
fi

# The status file, or the console when the share never came up.
if [ -s "$out/status" ]; then
    status=$(cat "$out/status")
else
    status=$(tr -d '\r' < "$out/console.log" 2>/dev/null | sed -n 's/^.*rdio-guest-status: //p')
fi
cause='' sum=0
while read -r s result secs detail; do
    [ -n "$s" ] || continue
    printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" "$s" "$result" "$secs" "$detail"
    sum=$(awk -v a="$sum" -v b="$secs" 'BEGIN { print a + b }')
    [ "$result" = ok ] || cause="stage $s failed: $detail"
done <<< "$status"
printf '%s: %-9s %-4s %7s s  %s\n' "$RDIO_PROG" qemu "" \
    "$(awk -v w="$wall" -v s="$sum" 'BEGIN { printf "%.1f", w - s }')" \
    "outside the stages: QEMU start, firmware, power-off (wall time $wall s in all)"

# Per-test times, from the .jtr files ("elapsed=MILLIS ...").
if [ -f "$out/JTreport/text/summary.txt" ]; then
    while read -r test result _; do
        jtr=${test%.java}; jtr=$out/JTwork/${jtr/.java\#/_}.jtr
        ms=$(sed -n 's/^elapsed=\([0-9]*\).*/\1/p' "$jtr" 2>/dev/null | head -n1)
        printf '%s:   %-50s %-8s %7s s\n' "$RDIO_PROG" "$test" "$result" \
            "$(awk -v ms="${ms:-0}" 'BEGIN { printf "%.1f", ms / 1000 }')"
    done < "$out/JTreport/text/summary.txt"
fi
[ ! -s "$out/retried" ] || note "tests: $(cat "$out/retried")"
if [ -s "$out/rstream-baseline.txt" ] && grep -qv '^#' "$out/rstream-baseline.txt"; then
    note "rstream baseline ($out/rstream-baseline.txt):"
    sed "s/^/$RDIO_PROG:   /" "$out/rstream-baseline.txt"
fi

[ -z "$watchdog" ] || die "$watchdog"
[ -z "$cause" ] || die "$cause"
if [ "$(grep -c . <<< "$status")" -lt "${#stages[@]}" ]; then
    case $qrc in
        124|137) die "the guest did not finish within $total s; QEMU killed (see $out/console.log)" ;;
    esac
    s=${stages[$(grep -c . <<< "$status")]}
    last=$(tr -d '\r' < "$out/console.log" 2>/dev/null | grep -v '^\s*$' | tail -n1)
    [ -n "$last" ] || last=$(grep -v '^\s*$' "$out/qemu.log" | tail -n1)
    die "QEMU exited (status $qrc) during stage $s: ${last:-no output} (see $out/console.log)"
fi
[ -n "$bench_jar" ] || "$RDIO_TOP/make/scripts/jtreg-summary.sh" "$out/JTreport"
