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
# README.md's example of the rules file, with an unchanged program (PlainEcho.java).
# The README shows this file from the line after this comment, byte for
# byte (make/scripts/check-readme.sh); ../ReadmeRdmaExamples.java runs it.

cat > rdma.conf <<'RULES'
# sockets bound on, or connecting to, the RDMA device's subnet use RDMA
bind    10.77.0.0/24  *
connect 10.77.0.0/24  *
RULES
java -Djdk.net.rdma.conf=rdma.conf -Djdk.net.rdma.debug PlainEcho.java 10.77.0.1 'hello over RDMA'
