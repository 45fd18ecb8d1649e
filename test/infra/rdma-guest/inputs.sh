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
# The inputs of a guest run, for rdma-guest.sh and rdma-pair.sh (which
# source this file).
#
#   guest_option ARG...      parses the option at ARG that every guest run
#                            takes (--jdk, --jtreg, --out, --tests,
#                            --java-opts, --librdmacm, --after,
#                            --after-env); sets shift_by, the words it
#                            took (0: not one of them)
#   guest_host_inputs DEFAULT_OUT
#                            checks the tools; sets jdk, out (absolute) and
#                            tmp_paths (with the JDK's)
#   guest_after              makes --after's script, if any, absolute and
#                            visible to the guest
#   guest_jars               sets netty_dir and helidon_dir, the tests' jars
#   guest_visible PATH WHAT  adds the entry under /tmp that holds PATH to
#                            tmp_paths, or fails if the guest cannot see PATH
#   guest_librdmacm          sets rdma_prefix, rdma_release and rdma_dir: the
#                            librdmacm of the run, the host's or, with
#                            --librdmacm, the pinned rdma-core's
#   guest_tests              sets jtreg_home, test_root and jtreg_tests: jtreg
#                            and the tests of a test run, in the assembled tree
#   guest_jtwork_seed [NAME] sets jtwork_seed: the jtreg work directory of
#                            the last run (of kind NAME) with the same JDK,
#                            jtreg and test tree, which the guest starts
#                            from a copy of
#   guest_job                writes the guest's parameters to $out: job.env,
#                            tests.list, tmp-paths.list and an empty status

# The guest sees the host's root, except where it mounts its own file
# systems.  It has its own /tmp, over which it binds back, from the host's,
# the entry directly under /tmp that holds each path the run needs (a
# checkout in /tmp/NAME, say: /tmp/NAME).  Under /proc, /sys, /dev or /run
# nothing can live.
guest_visible() {   # PATH WHAT
    local top=${1#/} entry p
    top=/${top%%/*}
    case $top in
        /tmp)
            entry=${1#/tmp/}; entry=/tmp/${entry%%/*}
            for p in "${tmp_paths[@]}"; do [ "$p" != "$entry" ] || return 0; done
            tmp_paths+=("$entry") ;;
        /proc|/sys|/dev|/run)
            die "$2 $1 is under $top, which the guest replaces with its own file system; put it elsewhere" ;;
    esac
}

guest_option() {   # ARG...
    shift_by=2
    case $1 in
        --jdk) jdk=${2:?--jdk needs a directory} ;;
        --jtreg) jtreg_home=${2:?--jtreg needs a directory} ;;
        --out) out=${2:?--out needs a directory} ;;
        --java-opts) java_opts=${2?--java-opts needs options} ;;   # jtreg's -javaoptions
        --librdmacm) librdmacm=${2:?--librdmacm needs a release, such as ${GUEST_RDMA_CORE_VERSION%-*}} ;;
        --after) after=${2:?--after needs a script} ;;
        --after-env)
            [[ ${2:-} =~ ^[A-Z_][A-Z0-9_]*=[A-Za-z0-9.,:_=+-]*$ ]] ||
                die "--after-env ${2:-}: not NAME=VALUE (VALUE of letters, digits and .,:_=+-)"
            after_env+=("$2") ;;
        --tests)
            shift_by=1
            shift
            while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do tests+=("$1"); shift; shift_by=$((shift_by + 1)); done
            [ "${#tests[@]}" -gt 0 ] || die "--tests needs at least one test file or directory" ;;
        *) shift_by=0 ;;
    esac
}

# What every guest run needs of the host: QEMU and the tools that build the
# initramfs, the JDK (--jdk, or configure's image) and the results
# directory (--out, or build/DEFAULT_OUT), and what the guest must see.
guest_host_inputs() {   # DEFAULT_OUT
    # The tools first, so that a machine that cannot run the guest says so at once.
    command -v "$qemu" >/dev/null || die "$qemu is not on PATH (install qemu-system-x86)"
    for tool in busybox dpkg gzip timeout; do
        command -v "$tool" >/dev/null || die "$tool is not on PATH"
    done
    command -v modprobe >/dev/null && command -v depmod >/dev/null ||
        die "modprobe and depmod are not on PATH (install kmod)"

    if [ -z "$jdk" ]; then
        conf_dir=$(config_value RDIO_CONF_DIR)
        [ -n "$conf_dir" ] || die "no --jdk given and no build/config.mk to find the JDK image in: run bash configure, or pass --jdk"
        jdk=$conf_dir/images/jdk
    fi
    [ -x "$jdk/bin/java" ] || die "no JDK at $jdk (no bin/java): run make images, or pass --jdk"
    out=${out:-$RDIO_BUILD/$1}
    mkdir -p "$out" || die "cannot create $out"
    jdk=$(readlink -f "$jdk") out=$(readlink -f "$out")
    [ "$out" != / ] || die "--out / would share the whole host root read-write with the guest"

    tmp_paths=()
    guest_visible "$jdk" "the JDK"
}

guest_after() {
    [ -n "$after" ] || return 0
    [ -f "$after" ] || die "no script $after"
    after=$(readlink -f "$after")
    guest_visible "$after" "the --after script"
}

# The jars of the tests' frameworks, from configure's cache.
guest_jars() {
    # Netty's jars: for RdmaNetty (RDIO_NETTY_DIR in the tests' environment)
    # and the --after script of make bench-rdma
    netty_dir=$(config_value RDIO_NETTY_DIR)
    [ -n "$netty_dir" ] || netty_dir=$("$RDIO_TOP/make/scripts/maven-jars.sh" netty "$NETTY_ARTIFACTS")
    guest_visible "$netty_dir" "the Netty jars"
    # Helidon's jars: for RdmaHelidon (RDIO_HELIDON_DIR in the tests' environment)
    helidon_dir=$(config_value RDIO_HELIDON_DIR)
    [ -n "$helidon_dir" ] || helidon_dir=$("$RDIO_TOP/make/scripts/maven-jars.sh" helidon "$HELIDON_ARTIFACTS")
    guest_visible "$helidon_dir" "the Helidon jars"
}

# The librdmacm of the run: the host's, or with --librdmacm the pinned
# rdma-core's, built into the cache once.  Its release (major.minor) and
# directory go to the tests.
guest_librdmacm() {
    rdma_prefix='' rdma_release='' rdma_dir=''
    if [ -n "$librdmacm" ]; then
        pinned=${GUEST_RDMA_CORE_VERSION%-*}
        [ "$librdmacm" = "$pinned" ] || [ "$librdmacm" = "${pinned%%.*}" ] ||
            die "--librdmacm $librdmacm: test/infra/rdma-guest/rdma-guest.conf pins rdma-core $pinned (GUEST_RDMA_CORE_VERSION); pass --librdmacm $pinned, or pin another release there"
        rdma_prefix=$("$guest_dir/rdma-core.sh") || exit 1
        [[ $rdma_prefix != *[[:space:]]* ]] ||
            die "rdma-core's prefix $rdma_prefix has white space, which the guest's shell would split: set RDIO_CACHE elsewhere"
        guest_visible "$rdma_prefix" "rdma-core $pinned"
        rdma_release=$pinned rdma_dir=$rdma_prefix/lib
    else
        # awk reads all of ldconfig's output: an early exit would end ldconfig
        # with SIGPIPE, which pipefail and set -e turn into a silent exit here
        lib=$(/sbin/ldconfig -p 2>/dev/null | awk '$1 == "librdmacm.so.1" && /x86-64/ && !found { print $NF; found = 1 }')
        [ -n "$lib" ] || die "the host has no librdmacm.so.1 (install librdmacm1 and rdmacm-utils)"
        lib=$(readlink -f "$lib")
        rdma_dir=$(dirname "$lib")
        if [[ ${lib##*/} =~ ^librdmacm\.so\.1\.[0-9]+\.([0-9]+\.[0-9]+)$ ]]; then
            rdma_release=${BASH_REMATCH[1]}
        fi
    fi
}

# jtreg and the tests, for a test run.
# The JDK's release file is in the key because jtreg judges a class by the
# times of its sources, and the upstream files of the test tree (test/lib)
# keep the times of upstream's tarball: after a move to another upstream
# they may be older than classes compiled from the files they replaced.
guest_jtwork_seed() {   # [NAME]
    jtwork_seed=$cache/jtwork/$(printf '%s\n' "$@" "$jdk" "$jtreg_home" "$test_root" \
                                    "$(cat "$jdk/release" 2>/dev/null)" | sha256sum | cut -c1-16)
}

guest_tests() {
    if [ -z "$jtreg_home" ]; then
        jtreg_home=$(config_value RDIO_JTREG_HOME)
        [ -n "$jtreg_home" ] || jtreg_home=$("$RDIO_TOP/make/scripts/jtreg.sh")
    fi
    [ -f "$jtreg_home/lib/jtreg.jar" ] || die "no jtreg at $jtreg_home (no lib/jtreg.jar)"
    jtreg_home=$(readlink -f "$jtreg_home")
    guest_visible "$jtreg_home" "jtreg"

    test_root=$RDIO_BUILD/src/test/jdk
    [ -f "$test_root/TEST.ROOT" ] || die "no assembled test tree at $test_root: run make assemble (or make images) first"
    test_root=$(readlink -f "$test_root")
    guest_visible "$test_root" "the test tree"
    [ "${#tests[@]}" -gt 0 ] || tests=(jdk/net/rdma)
    local id
    for t in "${tests[@]}"; do
        # FILE.java#ID names one @test block of FILE.java, as for jtreg.
        id=
        case $t in
            *.java\#*) id=#${t##*.java#}; t=${t%"$id"} ;;
        esac
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
        jtreg_tests+=("$t$id")
    done
}

# Values for the guest's busybox sh, single-quoted.
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

guest_job() {
    {
        echo "SHARE=$(shq "$out")"
        echo "JDK=$(shq "$jdk")"
        echo "JTREG_HOME=$(shq "$jtreg_home")"
        echo "NETTY_DIR=$(shq "$netty_dir")"
        echo "HELIDON_DIR=$(shq "$helidon_dir")"
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
        echo "JAVA_OPTS=$(shq "$java_opts")"
        echo "JTREG_MODE=$jtreg_mode"
        echo "BENCH_JAR=$(shq "$bench_jar")"
        echo "BENCH_AFTER=$(shq "$after")"
        echo "AFTER_ENV=$(shq "${after_env[*]}")"
        echo "BENCH_ARGS=$(shq "${bench_args[*]}")"
        echo "RDMA_PREFIX=$(shq "$rdma_prefix")"
        echo "RDMA_RELEASE=$(shq "$rdma_release")"
        echo "RDMA_DIR=$(shq "$rdma_dir")"
    } > "$out/job.env"
    printf '%s\n' "${jtreg_tests[@]}" > "$out/tests.list"
    printf '%s\n' "${tmp_paths[@]}" > "$out/tmp-paths.list"
    : > "$out/status"
}
