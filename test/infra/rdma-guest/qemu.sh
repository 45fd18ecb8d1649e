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
# The QEMU run of the guest, for rdma-guest.sh (which sources this file).
#
#   run_guest [QEMU_ARG...]
#               boots $vmlinuz with $initrd under $qemu, the host root shared
#               read-only and $out read-write over 9p, its console in
#               $out/console.log, the whole run under timeout(1) for $total
#               seconds, and watches the stages; sets qrc (QEMU's exit
#               status), wall (seconds) and, if the watchdog killed QEMU,
#               watchdog (why).  The QEMU_ARGs name its network (default
#               -nic none: the single guest has none)
#   guest_qemu OUT CPUS MEMORY QEMU_ARG...
#               runs QEMU as run_guest does, with OUT as its results share
#               and console directory, in place of the calling shell: call
#               it with & only (the job's PID is then timeout's)
#   stop_qemu [PID]
#               stops QEMU of PID (default: run_guest's), TERM then KILL;
#               the EXIT trap of run_guest stops it and each of other_qpids
#
# The guest prints "rdio-guest-status: STAGE ok|fail ..." on its console as
# each stage of $stages ends.  A stage that outlives its timeout in
# stage_timeout by 30 s (a grace for the guest's own timeout to fire first)
# gets QEMU killed.  An EXIT trap stops QEMU if the script dies meanwhile.

qpid= other_qpids=()
stop_guests() {
    local p
    stop_qemu
    for p in "${other_qpids[@]}"; do stop_qemu "$p"; done
}
stop_qemu() {   # [PID]
    local pid=${1:-$qpid}
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null   # timeout(1) passes it on to QEMU
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
    pkill -KILL -P "$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
}

guest_qemu() {   # OUT CPUS MEMORY QEMU_ARG...
    local dir=$1 cpus=$2 memory=$3
    shift 3
    # exec: started with &, the job's process is timeout(1) itself, which
    # stop_qemu signals (a subshell would die and leave QEMU running)
    exec timeout -k 10 "$total" "$qemu" \
        -accel "$GUEST_ACCEL" -m "$memory" -smp "$cpus" \
        -nographic -monitor none -serial "file:$dir/console.log" -no-reboot "$@" \
        -kernel "$vmlinuz" -initrd "$initrd" \
        -append "console=ttyS0 quiet panic=-1 rdio_timeout_modules=$GUEST_TIMEOUT_MODULES${GUEST_KERNEL_ARGS:+ $GUEST_KERNEL_ARGS}" \
        -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
        -virtfs "local,path=$dir,mount_tag=results,security_model=none,multidevs=remap" \
        </dev/null >"$dir/qemu.log" 2>&1
}

run_guest() {   # [QEMU_ARG...]
    local start done_stages=0 since=$SECONDS n s
    [ $# -gt 0 ] || set -- -nic none
    trap stop_guests EXIT
    start=$EPOCHREALTIME
    guest_qemu "$out" "$GUEST_CPUS" "$GUEST_MEMORY" "$@" &
    qpid=$!
    watchdog=
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
}
