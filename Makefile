# Copyright (c) 2026, the rdio JDK authors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  Oracle designates this
# particular file as subject to the "Classpath" exception as provided
# by Oracle in the LICENSE file that accompanied this code.
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
# Top-level Makefile of the rdio JDK.  Run "bash configure" first (make runs
# it with default options if you did not), then:
#
#   make [images]       the JDK image, in build/<conf>/images/jdk (default)
#   make test TEST=...  upstream's test framework, e.g. TEST=jdk_nio
#   make test-rdio      every jtreg test this fork adds; prints "N passed, N failed"
#   make test-rdio-extended  the same with the large sizes (connections, cycles, bytes) CI leaves out
#   make test-upstream  upstream's own tests of what the fork patches (java/nio/channels, java/net sockets)
#   make test-upstream-rings RINGS=on|off  upstream's scheduler tests with the carriers' io_uring hooks active (on)
#   make update-upstream VERSION=25.0.N+B  move the pin to another jdk25u update release (CHECK=1: no build)
#   make test-rdma      only the RDMA group, in the Soft-RoCE QEMU guest (LIBRDMACM=56.1: against that librdmacm)
#   make test-rdma-pair the two-guest RDMA tests: two Soft-RoCE guests on one link, with faults
#   make test-directio-fs  only the direct I/O tests, once per file system (as root)
#   make bench          the fork's JMH benchmarks
#   make bench-directio the direct I/O benchmark: fork vs JDK 25 vs fio, one table
#   make bench-directio-ab  one direct I/O case, fork vs JDK 25, alternating rounds
#   make bench-rdma     the RDMA benchmark in the Soft-RoCE guest: Java vs rstream, RDMA vs TCP
#   make bench-rdma-pingpong  Java's ping-pong against a C client, alternating, 5 repetitions, percentiles
#   make bench-rdma-pingpong-pair  the same across the link of two guests, beside the one-kernel rows
#   make bench-rdma-streams   a classic Socket's streams against the channels at 64 B and 1 KiB, alternating, 5 repetitions
#   make bench-rdma-loss  librdmacm's rstream across the two guests under netem loss: the C side of PairLoss's cases
#   make bench-rdma-ab  Java's RDMA ping-pong under two JVM options AB_A and AB_B, alternating
#   make profile-rdma   perf profiles of Java's RDMA ping-pong, per wait mode, in the guest
#   make review-diff    the whole fork as one diff against pristine upstream
#   make check-headers  every file has the licence header upstream uses for its kind
#   make check-readme   README.md shows the example files its tests run; no table cell over 300 characters
#   make check-portable share/ and unix/ Java code compiles without the Linux-only directories
#   make assemble       refresh build/src from overlay files and patches
#
# See README.md and doc/building.md.

SHELL := /bin/bash
TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
BUILD := $(TOP)/build
SCRIPTS := $(TOP)/make/scripts
# The test and benchmark drivers: test infrastructure lives under test/,
# as upstream's does (test/lib, test/failure_handler).
INFRA := $(TOP)/test/infra

.DEFAULT_GOAL := images
.PHONY: images assemble test test-rdio test-rdio-extended test-upstream test-upstream-rings update-upstream test-rdma test-rdma-pair test-rdma-conformance test-directio-fs bench bench-directio bench-directio-ab bench-rdma bench-rdma-pingpong bench-rdma-pingpong-pair bench-rdma-streams bench-rdma-loss bench-rdma-ab bench-tcp-rules profile-rdma review-diff check-headers check-readme check-portable clean dist-clean

# Configure on first use, so that one command works on a fresh clone.
$(BUILD)/config.mk:
	cd $(TOP) && bash configure

-include $(BUILD)/config.mk

# build/config.mk and upstream's spec.gmk hold absolute paths, so a checkout
# moved or copied elsewhere must be configured again.  (A config.mk without
# RDIO_CONFIGURED_TOP is judged by its RDIO_CONF_DIR.)
RDIO_CONFIGURED_TOP ?= $(patsubst %/build/src/build/,%,$(dir $(RDIO_CONF_DIR)))
rdio_real = $(or $(realpath $(1)),$(abspath $(1)))
ifneq ($(RDIO_CONF_DIR),)
  ifneq ($(call rdio_real,$(RDIO_CONFIGURED_TOP)),$(call rdio_real,$(TOP)))
    ifneq ($(filter-out check-headers dist-clean,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
      $(error build/config.mk was written by bash configure for the checkout at $(RDIO_CONFIGURED_TOP), not for this one at $(TOP): re-run bash configure)
    endif
  endif
endif

# Every target that builds refreshes build/src first: cheap when nothing
# changed, and it picks up edited overlay files and patches.
assemble: $(BUILD)/config.mk
	@$(SCRIPTS)/assemble.sh $(RDIO_PRISTINE)

images: assemble
	+$(MAKE) -C $(RDIO_CONF_DIR) images

test: assemble
	+$(MAKE) -C $(RDIO_CONF_DIR) test TEST="$(TEST)" $(if $(JTREG),JTREG="$(JTREG)")

# The host tests, the direct I/O matrix, then the RDMA group in the guest;
# one summary line.
test-rdio: images
	@$(INFRA)/test-rdio.sh $(RDIO_CONF_DIR)/images/jdk $(RDIO_JTREG_HOME)

# The same runs with the large sizes that the tests' defaults, sized for
# CI's budget, leave out (test-rdio.sh's extended_opts; doc/testing.md).
test-rdio-extended: images
	@$(INFRA)/test-rdio.sh --extended $(RDIO_CONF_DIR)/images/jdk $(RDIO_JTREG_HOME)

# Upstream's own tests of the classes the fork patches, on the host; an
# update of the pinned release must not lower its counts (doc/building.md).
test-upstream: images
	@$(INFRA)/test-upstream.sh $(RDIO_CONF_DIR) $(RDIO_JTREG_HOME)

# Upstream's tests of the virtual thread scheduler and ForkJoinPool under a
# load of DIRECT reads, with the engine on (RINGS=on: the hooks of patches
# 0025 and 0026 active) or off (RINGS=off, the baseline) (doc/building.md).
RINGS ?= on
test-upstream-rings: images
	@$(INFRA)/test-upstream-rings.sh $(RDIO_CONF_DIR) $(RDIO_JTREG_HOME) $(RINGS)

# Moves make/upstream.conf and make/patches to another jdk25u update release,
# then builds and tests it (doc/building.md).  It has no prerequisite: it
# runs bash configure for the new release itself.
update-upstream:
	@$(if $(VERSION),,$(error usage: make update-upstream VERSION=25.0.N+B [DEBIAN_VERSION=...] [CHECK=1]))
	@$(SCRIPTS)/update-upstream.sh $(if $(CHECK),--check) $(VERSION) $(DEBIAN_VERSION)

# The RDMA group in the Soft-RoCE guest; LIBRDMACM=56.1 runs it against
# that release of librdmacm (test/infra/rdma-guest/rdma-core.sh) instead of
# the host's.
test-rdma: images
	@$(INFRA)/rdma-guest/rdma-guest.sh --jdk $(RDIO_CONF_DIR)/images/jdk --jtreg $(RDIO_JTREG_HOME) \
	    --out $(BUILD)/rdma-guest$(if $(LIBRDMACM),-librdmacm) --tests jdk/net/rdma \
	    $(if $(LIBRDMACM),--librdmacm $(LIBRDMACM))

# Two guests on one virtual link (doc/testing.md, "Two guests"): guest A
# runs jdk/net/rdmapair against peers in guest B, with loss, partitions, a
# killed peer and a power-off of B; also part of test-rdio.  PAIR_TESTS
# names other tests (FILE.java#ID for one @test of a file).
test-rdma-pair: images
	@$(INFRA)/rdma-guest/rdma-pair.sh --jdk $(RDIO_CONF_DIR)/images/jdk \
	    --jtreg $(RDIO_JTREG_HOME) --out $(BUILD)/rdma-pair --tests $(or $(PAIR_TESTS),jdk/net/rdmapair) \
	    $(if $(PAIR_JAVA_OPTS),--java-opts "$(PAIR_JAVA_OPTS)")

# Upstream's socket and channel tests over transparent RDMA in the guest, then
# (RDMA_CONFORMANCE_TCP=1) the same without the rules file; prints the pass
# rate.  Not part of test-rdio: it takes about an hour.
test-rdma-conformance: images
	@$(INFRA)/rdma-conformance.sh $(RDIO_CONF_DIR)/images/jdk $(RDIO_JTREG_HOME)
	@if [ -n "$(RDMA_CONFORMANCE_TCP)" ]; then \
	    $(INFRA)/rdma-conformance.sh --tcp $(RDIO_CONF_DIR)/images/jdk $(RDIO_JTREG_HOME); fi

# The fork's and upstream's direct I/O tests on ext4 (default, data=journal,
# 4096-byte sectors), XFS, btrfs and tmpfs, each on its own loop device.
test-directio-fs: images
	@$(INFRA)/directio-fs.sh $(RDIO_CONF_DIR)/images/jdk $(RDIO_JTREG_HOME)

bench: assemble
	+$(MAKE) -C $(RDIO_CONF_DIR) images build-microbenchmark
	@$(INFRA)/bench/bench.sh $(RDIO_CONF_DIR)

# Measures the image as it is built (make images first): it does not
# rebuild, so that a benchmark never waits for a build.
bench-directio: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-directio.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

# One direct I/O case, the fork against JDK 25 in alternating rounds.
bench-directio-ab: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-directio-ab.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

bench-rdma: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR) $(RDIO_JTREG_HOME)

bench-rdma-pingpong: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma-pingpong.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

# The same across the link of two guests (client in A, server in B), its
# rows beside those of the last bench-rdma-pingpong (run first if none).
bench-rdma-pingpong-pair: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma-pingpong.sh --pair $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

bench-rdma-ab: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma-ab.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

bench-rdma-streams: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma-streams.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

bench-rdma-loss: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-rdma-loss.sh $(RDIO_CONF_DIR)

# TCP over loopback on JDK 25, the fork, and the fork with a rules file
# that matches none of it, in the RDMA guest.
bench-tcp-rules: $(BUILD)/config.mk
	@$(INFRA)/bench/bench-tcp-rules.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

profile-rdma: $(BUILD)/config.mk
	@$(INFRA)/bench/profile-rdma-pingpong.sh $(RDIO_CONF_DIR) $(RDIO_JMH_DIR)

# Only the diff goes to stdout, so that "make review-diff > fork.diff" works.
review-diff: $(BUILD)/config.mk
	@$(SCRIPTS)/assemble.sh $(RDIO_PRISTINE) >&2
	@$(SCRIPTS)/review-diff.sh $(RDIO_PRISTINE)

check-headers:
	@$(SCRIPTS)/check-headers.sh

# README.md's examples are the files its tests run, and its tables stay short.
check-readme:
	@$(SCRIPTS)/check-readme.sh

check-portable: assemble
	@$(SCRIPTS)/check-portable.sh

clean:
	if [ -d "$(RDIO_CONF_DIR)" ]; then $(MAKE) -C $(RDIO_CONF_DIR) clean; fi

# Removes build/ entirely; the caches outside the work tree stay.
dist-clean:
	if [ -d $(BUILD) ]; then chmod -R u+w $(BUILD) && rm -rf $(BUILD); fi
