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
# The pair stages of the guest's init (busybox sh), which sources this file
# from the initramfs after the rxe stage when job.env names a PAIR_ROLE
# (rdma-pair.sh).  It uses init's helpers (report, fail, since, oneline,
# $in_host) and job.env.
#
#   B: stage "agent": starts the control agent (busybox nc running /agent
#      for each connection to AGENT_PORT) and serves until it is powered
#      off, by a test through the agent or by rdma-pair.sh at the end.
#   A: stage "peer": waits for B's agent, then goes on with the baseline
#      (rstream's server runs in B, through the agent) and the tests.
# shellcheck shell=sh

# One command in B through its agent: prints its output and the agent's
# last line, "rdio-agent-exit: STATUS".
agent() { echo "$*" | nc "$PAIR_PEER" "$AGENT_PORT"; }

t=$(now)
if [ "$PAIR_ROLE" = b ]; then
    # in_host holds no single quote: its paths have no white space either
    echo "in_host='$in_host'" > /agent.env
    nc -ll -p "$AGENT_PORT" -e /agent > /results/agent.log 2>&1 &
    PAIR_PEER=127.0.0.1
    until agent true 2>/dev/null | grep -q '^rdio-agent-exit: 0$'; do
        kill -0 $! 2>/dev/null || fail agent "$t" "the agent (busybox nc) exited: $(oneline < /results/agent.log)"
        [ "$(since "$t" | cut -d. -f1)" -lt "$TIMEOUT_RXE" ] ||
            fail agent "$t" "the agent does not answer on port $AGENT_PORT after $TIMEOUT_RXE s"
        sleep 0.2
    done
    report "agent ok $(since "$t") listening on $PAIR_ADDR:$AGENT_PORT"
    # Nothing more to do here: B is powered off from outside.
    while :; do sleep 3600; done
fi

until agent true 2>/dev/null | grep -q '^rdio-agent-exit: 0$'; do
    [ "$(since "$t" | cut -d. -f1)" -lt "$TIMEOUT_PEER" ] ||
        fail peer "$t" "the agent of guest B ($PAIR_PEER:$AGENT_PORT) did not answer within $TIMEOUT_PEER s"
    sleep 1
done
report "peer ok $(since "$t") agent of B at $PAIR_PEER:$AGENT_PORT"
# The baseline's rstream server runs in B; its client here connects to it.
rstream_server() { agent "host rstream -b $SERVER_ADDR $*"; }
