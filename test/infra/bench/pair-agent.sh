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
# Guest B's control agent, for a benchmark's --after script in guest A of
# a pair (test/infra/rdma-guest/rdma-pair.sh --after, which puts PAIR_PEER
# and AGENT_PORT in the script's environment).  Source it; do not run it.
#
#   in_pair          true in guest A of a pair
#   agent CMD...     runs CMD in B through the agent (see
#                    test/infra/rdma-guest/agent: "host PROGRAM..." runs a
#                    host binary, "spawn LOG PROGRAM..." starts one in the
#                    background and prints its process id); prints its
#                    output and returns its exit status
#   agent_wait SECONDS CMD...
#                    runs CMD through the agent once a second until it
#                    succeeds, at most SECONDS times; returns 1 if it never
#                    did

in_pair() { [ -n "${PAIR_PEER:-}" ]; }

agent() {
    local reply rc
    # bash's own TCP client: the host root has no nc
    reply=$( { exec 3<> "/dev/tcp/$PAIR_PEER/$AGENT_PORT" && echo "$*" >&3 && cat <&3; } 2>&1) ||
        { echo "the agent of guest B ($PAIR_PEER:$AGENT_PORT) does not answer: $reply" >&2; return 1; }
    rc=$(sed -n 's/^rdio-agent-exit: //p' <<< "$reply" | tail -n1)
    sed '/^rdio-agent-exit: /d' <<< "$reply"
    return "${rc:-1}"
}

agent_wait() {   # SECONDS CMD...
    local tries=$1
    shift
    until agent "$@" > /dev/null 2>&1; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || return 1
        sleep 1
    done
}
