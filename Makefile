# Placard — the only entry point. `make` builds, `make run` runs, `make test` proves.
SHELL := /bin/bash
.DEFAULT_GOAL := all

# Build on every core unless the caller chose -j: the gcc and clang trees built serially were a
# third of `make test`. No --output-sync: it would hold back the test suites' progress (a recipe
# of half an hour) until they end.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
  MAKEFLAGS += -j$(shell nproc)
endif

# ccache when the machine has it (scripts/deps.sh test installs it): the package test's builds and
# a rebuild after a checkout then reuse every object; paths are relative and the directory is not
# hashed, so other checkouts share the cache (debian/rules sets the same).
ifeq ($(origin CXX),default)
  CXX := $(if $(shell command -v ccache 2>/dev/null),ccache g++,g++)
endif
export CCACHE_NOHASHDIR := 1
export CCACHE_BASEDIR := $(CURDIR)
SANITIZE ?=
COMMA    := ,
PORT     ?= 8080
VAR_DIR  ?= $(CURDIR)/var
export PORT VAR_DIR

# Each sanitizer set has its own build dir (objects of one must never link with another's):
# address,undefined -> build/san, thread -> build/san-thread, any other set -> build/san-<set>.
ifeq ($(strip $(SANITIZE)),)
  BUILD := build
  SANFLAGS :=
else ifeq ($(strip $(SANITIZE)),address$(COMMA)undefined)
  BUILD := build/san
  SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
  BUILD := build/san-$(subst $(COMMA),-,$(strip $(SANITIZE)))
  SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
endif
export BUILD

CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++20 -Wall -Wextra -Werror -pthread -MMD -MP -I. $(SANFLAGS)
LDFLAGS  += -pthread $(SANFLAGS)
# The release (VERSION file): compiled into one small file only, so a bump recompiles just it.
VERSION_STRING := $(shell cat VERSION)
LIBS     := -lfcgi -lmysqlcppconn -lssl -lcrypto -lcurl -lz

LIB_SRCS  := $(shell find lib -name '*.cpp' | sort)
LIB_OBJS  := $(LIB_SRCS:%.cpp=$(BUILD)/obj/%.o)
CTL_SRCS  := $(shell find placardctl -name '*.cpp' | sort)
CTL_OBJS  := $(CTL_SRCS:%.cpp=$(BUILD)/obj/%.o)
UNIT_SRCS := $(shell find tests/unit -name '*.cpp' | sort)
UNIT_OBJS := $(UNIT_SRCS:%.cpp=$(BUILD)/obj/%.o)
# scripts/deps.sh groups: build (make), run (make run/start), test (make test, bench, fuzz...).
DEPS_OK      := $(BUILD)/.deps-build-ok
DEPS_RUN_OK  := $(BUILD)/.deps-run-ok
DEPS_TEST_OK := $(BUILD)/.deps-test-ok

.PHONY: all deps deps-run deps-test node-deps run start stop test check unit e2e bench bench-handler lint analyze format clean fuzz fuzz-build
all: $(BUILD)/placard.fcgi $(BUILD)/placardctl

# Debian packages: scripts/deps.sh installs only what is missing (as root) or explains and fails.
# `make` needs the build group only: never a web server, a database server or a browser.
deps $(DEPS_OK): scripts/deps.sh
	@bash scripts/deps.sh build
	@mkdir -p $(BUILD) && touch $(DEPS_OK)
deps-run $(DEPS_RUN_OK): scripts/deps.sh
	@bash scripts/deps.sh run
	@mkdir -p $(BUILD) && touch $(DEPS_RUN_OK)
deps-test $(DEPS_TEST_OK): scripts/deps.sh
	@bash scripts/deps.sh test
	@mkdir -p $(BUILD) && touch $(DEPS_TEST_OK)
$(UNIT_OBJS): | $(DEPS_TEST_OK)

# The admin page's npm packages (uPlot; playwright-core and axe-core for its browser tests), from
# the lock file: npm ci only when node_modules is missing or older than the lock.
NODE_OK := node_modules/.package-lock.json
node-deps: $(NODE_OK)
$(NODE_OK): package-lock.json package.json | $(DEPS_RUN_OK)
	npm ci --no-audit --no-fund
	@touch $@

$(BUILD)/obj/%.o: %.cpp | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(BUILD)/obj/lib/util/service_version.o: VERSION
$(BUILD)/obj/lib/util/service_version.o: CXXFLAGS += -DPLACARD_VERSION='"$(VERSION_STRING)"'

$(BUILD)/libplacard.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

FCGI_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(sort $(wildcard fcgi-app/*.cpp)))
$(BUILD)/placard.fcgi: $(FCGI_OBJS) $(BUILD)/libplacard.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/placardctl: $(CTL_OBJS) $(BUILD)/libplacard.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/unit_tests: $(UNIT_OBJS) $(BUILD)/libplacard.a
	$(CXX) $(LDFLAGS) -o $@ $^ -lgtest -lgtest_main $(LIBS)

run: all $(DEPS_RUN_OK) $(NODE_OK)
	@bash scripts/stack.sh run

start: all $(DEPS_RUN_OK) $(NODE_OK)
	@bash scripts/stack.sh start

stop:
	@bash scripts/stack.sh stop

unit: $(BUILD)/unit_tests $(BUILD)/network_probe
	$(BUILD)/unit_tests

# A test driver for the network adapters (tests/e2e/test_network_adapters.py); not installed.
$(BUILD)/network_probe: $(BUILD)/obj/tests/network_probe/network_probe.o $(BUILD)/libplacard.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

# Every suite, in parallel lanes (docs/testing.md); a table of suites and seconds, then "N passed, M failed".
# The fuzz targets' clang build is the fuzz suite's first step, beside the other suites.
test: all $(DEPS_TEST_OK) $(BUILD)/unit_tests $(BUILD)/network_probe $(BUILD)/bench-bare-fcgi $(NODE_OK) bundle
	@bash scripts/run-tests.sh

# The end-to-end suite alone, behind one web server (docs/testing.md): E2E_SERVER=lighttpd|apache,
# E2E_ARGS for run.py (e.g. E2E_ARGS="-k test_offers").
E2E_SERVER ?= lighttpd
e2e: all $(DEPS_TEST_OK) $(BUILD)/network_probe bundle
	python3 tests/e2e/run.py --server $(E2E_SERVER) --build $(BUILD) $(E2E_ARGS)

# The development loop, a few minutes: build, the unit tests (the handlers' in-process tests
# among them), and every linter over what changed since `git merge-base HEAD main`.
check: all $(DEPS_TEST_OK) $(BUILD)/unit_tests $(NODE_OK)
	@$(BUILD)/unit_tests --gtest_brief=1
	@bash scripts/lint.sh --changed

# The portable bundle for shared hosting (scripts/bundle.sh, docs/shared-hosting.md): the same
# objects linked with libstdc++, libgcc, libfcgi and Connector/C++ static; the rest of the
# shared libraries and this build's dynamic loader are copied beside them.
BUNDLE_LIBS := -static-libstdc++ -static-libgcc -Wl,-Bstatic -lfcgi -lmysqlcppconn-static \
               -Wl,-Bdynamic -l:libmariadb.so.3 -lssl -lcrypto -lcurl -lz
.PHONY: bundle
$(BUILD)/bundle-bin/placard.fcgi: $(FCGI_OBJS) $(BUILD)/libplacard.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $^ $(BUNDLE_LIBS)

$(BUILD)/bundle-bin/placardctl: $(CTL_OBJS) $(BUILD)/libplacard.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $^ $(BUNDLE_LIBS)

bundle: $(BUILD)/bundle-bin/placard.fcgi $(BUILD)/bundle-bin/placardctl $(NODE_OK)
	@BUILD=$(BUILD) bash scripts/bundle.sh

bench: all $(DEPS_TEST_OK) $(BUILD)/bench-bare-fcgi
	@bash scripts/bench.sh

# The bench's bare baseline: a minimal libfcgi program, nothing of ours (bench/bare/).
# With --journal FILE it is the durable baseline of the event steps (group_commit.cpp).
$(BUILD)/bench-bare-fcgi: $(BUILD)/obj/bench/bare/bare_fcgi.o $(BUILD)/obj/bench/bare/group_commit.o
	$(CXX) $(LDFLAGS) -o $@ $^ -lfcgi

$(BUILD)/bench-query-handler: $(BUILD)/obj/bench/micro/query_handler.o $(BUILD)/libplacard.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS)

# The offers query handler alone, over the catalog and query mix a `BENCH_KEEP=1 make bench` left.
BENCH_VAR_DIR ?= build/bench/var
bench-handler: $(BUILD)/bench-query-handler
	$(BUILD)/bench-query-handler $(BENCH_VAR_DIR)/placard.conf build/bench/data/query-mix.txt

# --- fuzzing: libFuzzer targets (tests/fuzz/fuzz_*.cpp), clang, ASan + UBSan -------------------
# The library is compiled again with clang and coverage into its own dir, never mixed with the
# gcc objects. `make fuzz` runs every target FUZZ_SECONDS (default 600) on a working copy of its
# seed corpus under build/fuzz/ and prints a table; `make test` runs them 20 s each.
FUZZ_BUILD    := build/fuzz
FUZZ_CXX      ?= clang++
FUZZ_SECONDS  ?= 600
FUZZ_SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
                 -fsanitize-ignorelist=tests/fuzz/ubsan-ignorelist.txt
# -Wno-ambiguous-reversed-operator: RapidJSON's member iterators declare != in a way C++20's
# rewritten comparisons make clang (not gcc) warn about at every `it != end` in our code.
FUZZ_CXXFLAGS := -O1 -g -std=c++20 -Wall -Wextra -Werror -Wno-ambiguous-reversed-operator -pthread \
                 -MMD -MP -I. $(FUZZ_SANFLAGS)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.cpp=$(FUZZ_BUILD)/obj/%.o)
FUZZ_SRCS     := $(sort $(wildcard tests/fuzz/fuzz_*.cpp))
FUZZ_TARGETS  := $(FUZZ_SRCS:tests/fuzz/%.cpp=$(FUZZ_BUILD)/%)

$(FUZZ_BUILD)/obj/%.o: %.cpp tests/fuzz/ubsan-ignorelist.txt | $(DEPS_TEST_OK)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/obj/lib/util/service_version.o: VERSION
$(FUZZ_BUILD)/obj/lib/util/service_version.o: FUZZ_CXXFLAGS += -DPLACARD_VERSION='"$(VERSION_STRING)"'

$(FUZZ_BUILD)/libplacard.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/libplacard.a
	$(FUZZ_CXX) -fsanitize=fuzzer $(FUZZ_SANFLAGS) -pthread -o $@ $^ $(LIBS)

fuzz-build: $(FUZZ_TARGETS)
.SECONDARY: $(FUZZ_SRCS:%.cpp=$(FUZZ_BUILD)/obj/%.o)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# Faults, load and scanners against a private stack on 127.0.0.1 (tests/resilience/,
# docs/hardening.md); each prints a pass/fail table and keeps its figures under build/.
.PHONY: chaos soak scan
# Then across hosts (root, ip netns; docs/scaling.md): cluster.py --only chaos (primary killed,
# a host's link cut) and galera.py --only kill (a Galera node killed); CHAOS_CLUSTER=0 skips them.
CHAOS_CLUSTER ?= 1
chaos: all $(DEPS_TEST_OK)
	@rc=0; timeout -k 30 1200 python3 tests/resilience/chaos.py --build $(BUILD) \
	  --summary build/chaos/summary.json || rc=1; \
	if [ "$(CHAOS_CLUSTER)" != 0 ]; then \
	  timeout -k 30 300 python3 tests/cluster/cluster.py --build $(BUILD) --only chaos \
	    --summary build/chaos/cluster.json || rc=1; \
	  timeout -k 30 300 python3 tests/cluster/galera.py --build $(BUILD) --only kill \
	    --summary build/chaos/galera.json || rc=1; fi; exit $$rc

# Two web hosts in network namespaces over one MariaDB primary, behind haproxy (tests/cluster/,
# docs/scaling.md); needs root (ip netns). Removes everything it made, whatever happens.
# CLUSTER_LOAD_SECONDS (8, at most 10): each of the three load runs; 2 makes the run ~25 s.
# CLUSTER_DB: replica (the primary + GTID replica topology), galera (three Galera nodes,
# tests/cluster/galera.py, ~80 s), both (the default: one after the other).
CLUSTER_LOAD_SECONDS ?= 8
CLUSTER_DB ?= both
.PHONY: cluster-test
cluster-test: all
	@rc=0; if [ "$(CLUSTER_DB)" != galera ]; then timeout -k 30 600 python3 tests/cluster/cluster.py \
	  --build $(BUILD) --load-seconds $(CLUSTER_LOAD_SECONDS) --summary build/cluster/summary.json \
	  || rc=1; fi; \
	if [ "$(CLUSTER_DB)" != replica ]; then timeout -k 30 600 python3 tests/cluster/galera.py \
	  --build $(BUILD) --summary build/cluster/galera.json || rc=1; fi; exit $$rc

# Requests/s of the offers query and of impressions, two hosts behind haproxy vs one host, in one
# run (tests/cluster/scaling.py, docs/performance.md "Across hosts"); 4 runs of
# CLUSTER_BENCH_SECONDS (10, at most 15) each. Needs root (ip netns).
CLUSTER_BENCH_SECONDS ?= 10
.PHONY: cluster-bench
cluster-bench: all
	@timeout -k 30 300 python3 tests/cluster/scaling.py --build $(BUILD) \
	  --seconds $(CLUSTER_BENCH_SECONDS) --summary build/cluster/bench-summary.json

SOAK_SECONDS ?= 600
soak: all $(DEPS_TEST_OK)
	@timeout -k 30 $$(($(SOAK_SECONDS) + 600)) python3 tests/resilience/soak.py --build $(BUILD) \
	  --seconds $(SOAK_SECONDS) --summary build/soak/summary.json

# sqlmap and wapiti are installed here (scripts/deps.sh --scan), not for make test.
scan: all $(DEPS_TEST_OK)
	@bash scripts/deps.sh --scan
	@timeout -k 30 5400 python3 tests/resilience/scan.py --build $(BUILD) --summary build/scan/summary.json

# --- install: FHS paths (docs/operations.md, "Manual install"); the Debian package uses it too --
# make install PREFIX=/usr DESTDIR=...: programs in $(PREFIX)/sbin, migrations, the admin page
# (with uPlot from node_modules: make node-deps) and the web server snippets in
# $(PREFIX)/share/placard, empty /etc/placard, /var/lib/placard and /var/log/placard. Never
# writes a config, a user or a database: `placardctl setup` does.
PREFIX     ?= /usr/local
SBINDIR    := $(PREFIX)/sbin
DATADIR    := $(PREFIX)/share/placard
SYSCONFDIR ?= /etc
RUNDIR     ?= /run/placard
UPLOT_DIR  ?= node_modules/uplot/dist
SUBST       = sed -e 's|@DATADIR@|$(DATADIR)|g' -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@RUNDIR@|$(RUNDIR)|g'
.PHONY: install uninstall
install: $(BUILD)/placard.fcgi $(BUILD)/placardctl
	@test -r $(UPLOT_DIR)/uPlot.esm.js || { echo "install: $(UPLOT_DIR) missing (make node-deps)"; exit 1; }
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(DATADIR)/sql $(DESTDIR)$(DATADIR)/admin/vendor \
	  $(DESTDIR)$(DATADIR)/doc
	install -m 0755 $(BUILD)/placard.fcgi $(BUILD)/placardctl $(DESTDIR)$(SBINDIR)/
	install -m 0644 sql/*.sql $(DESTDIR)$(DATADIR)/sql/
	cp -R admin-static/. $(DESTDIR)$(DATADIR)/admin/
	chmod -R u=rwX,go=rX $(DESTDIR)$(DATADIR)/admin
	install -m 0644 $(UPLOT_DIR)/uPlot.esm.js $(UPLOT_DIR)/uPlot.min.css $(DESTDIR)$(DATADIR)/admin/vendor/
	install -m 0644 VERSION docs/operations.md $(DESTDIR)$(DATADIR)/doc/
	$(SUBST) dist/apache-placard.conf.in >$(DESTDIR)$(DATADIR)/apache-placard.conf
	$(SUBST) dist/lighttpd-placard.conf.in >$(DESTDIR)$(DATADIR)/lighttpd-placard.conf
	$(SUBST) dist/placard.service.in >$(DESTDIR)$(DATADIR)/placard.service
	install -m 0644 dist/placard.logrotate $(DESTDIR)$(DATADIR)/placard.logrotate
	chmod 0644 $(DESTDIR)$(DATADIR)/*.conf $(DESTDIR)$(DATADIR)/placard.service
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/placard
	install -d -m 0750 $(DESTDIR)/var/lib/placard $(DESTDIR)/var/log/placard

# Removes what install put there; keeps /etc/placard, /var/lib/placard and /var/log/placard
# (configuration and data are the operator's).
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/placard.fcgi $(DESTDIR)$(SBINDIR)/placardctl
	rm -rf $(DESTDIR)$(DATADIR)

# The Debian package (../placard_VERSION_amd64.deb, debian/) and its test: built, installed in a
# fresh debootstrap root with Apache, then lighttpd, upgraded (tests/package/, as root).
.PHONY: deb package-test
deb: $(DEPS_OK) $(NODE_OK)
	dpkg-buildpackage -us -uc
package-test: $(DEPS_TEST_OK) $(NODE_OK)
	@timeout -k 30 3600 python3 tests/package/test_package.py --summary build/pkgtest/summary.json

# Every linter over every file (clang-tidy's fast checks; cached by content under build/lint-cache).
lint: $(DEPS_TEST_OK) $(NODE_OK)
	@bash scripts/lint.sh

# clang-tidy with the static analyzer (clang-analyzer-*) over every translation unit, cached by
# content: run it in full before a release (docs/testing.md).
analyze:
	@bash scripts/lint.sh --analyze

format:
	clang-format -i $$(find lib fcgi-app placardctl tests/unit tests/fuzz tests/fakes bench/micro -name '*.cpp' -o -name '*.h')

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
