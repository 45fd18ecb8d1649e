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
# The inputs of a guest run, for rdma-guest.sh (which sources this file).
#
#   guest_visible PATH WHAT  adds the entry under /tmp that holds PATH to
#                            tmp_paths, or fails if the guest cannot see PATH
#   guest_librdmacm          sets rdma_prefix, rdma_release and rdma_dir: the
#                            librdmacm of the run, the host's or, with
#                            --librdmacm, the pinned rdma-core's
#   guest_tests              sets jtreg_home, test_root and jtreg_tests: jtreg
#                            and the tests of a test run, in the assembled tree
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
