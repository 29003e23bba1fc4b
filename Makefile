# tracepoint.h - header-only per-subsystem tracepoints.  See README.md.
CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wundef -Werror
CPPFLAGS += -Iinclude
LDLIBS   += -ldl -lpthread
# The version is written once, in include/tracepoint/version.h; the three
# `#define TRACEPOINT_VERSION_<PART> <number>` lines are read from there.
empty :=
space := $(empty) $(empty)
version_part = $(shell sed -n 's/^.define TRACEPOINT_VERSION_$(1)[[:space:]][[:space:]]*\([0-9][0-9]*\)[[:space:]]*$$/\1/p' include/tracepoint/version.h)
VERSION_PARTS := $(call version_part,MAJOR) $(call version_part,MINOR) $(call version_part,PATCH)
ifneq ($(words $(VERSION_PARTS)),3)
$(error include/tracepoint/version.h: want one line each of define TRACEPOINT_VERSION_MAJOR, _MINOR, _PATCH <number>; read '$(VERSION_PARTS)')
endif
VERSION  := $(subst $(space),.,$(VERSION_PARTS))
B        := build
JOBS     ?= $(shell nproc 2>/dev/null || echo 1)

# The tests: tests/LAYER/test_*.c (unit) and tests/LAYER/t_*.sh (script), one
# folder per layer (core, events, recorder, tools, build); these two
# wildcards are the one list of what `make check-all` runs (`make check`:
# less SLOW_TESTS, below).  The unit tests' binaries go to
# build/<mode>/tests/test_NAME, whatever their layer.  Names are unique
# across layers: logs and artifacts are named by them.
by_name      = $(foreach n,$(sort $(notdir $(1))),$(filter %/$(n),$(1)))
UNIT_SRC     := $(call by_name,$(wildcard tests/*/test_*.c))
UNIT_TESTS   := $(patsubst %.c,$(B)/tests/%,$(notdir $(UNIT_SRC)))
SCRIPT_TESTS := $(call by_name,$(wildcard tests/*/t_*.sh))
ifneq ($(words $(UNIT_SRC) $(SCRIPT_TESTS)),$(words $(sort $(notdir $(UNIT_SRC) $(SCRIPT_TESTS)))))
$(error two tests under tests/*/ have the same name)
endif
TEST_HEADERS := $(wildcard tests/*/*.h tests/include/events/*.h)
vpath test_%.c $(sort $(dir $(UNIT_SRC)))
HEADERS      := $(wildcard include/*.h include/*/*.h include/*/*/*.h)

.PHONY: all demo check check-all check-build check-run check-mode stress stress-mode stress-death bench install uninstall clean
all: $(B)/demo $(B)/tracepoint-dump $(B)/tracepoint-ctl

# The trace reader (tools/dump/: one file per part, dump.h their map; libc only).
DUMP_SRC := $(wildcard tools/dump/*.c)
$(B)/tracepoint-dump: $(DUMP_SRC) tools/dump/dump.h tools/dump/protobuf.h include/trace/wire.h include/tracepoint/version.h \
		include/trace/hist_core.h include/trace/hist_print.h
	@mkdir -p $(B)
	$(CC) $(CFLAGS) $(WARN) $(DUMP_SRC) -o $@

# The control client (tools/tracepoint-ctl.c, libc only).
$(B)/tracepoint-ctl: tools/tracepoint-ctl.c include/trace/wire.h include/tracepoint/version.h
	@mkdir -p $(B)
	$(CC) $(CFLAGS) $(WARN) $< -o $@

$(B)/demo: $(wildcard examples/*.c examples/*.h examples/*/*.h) $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) $(WARN) -DCONFIG_TRACEPOINTS_ALL examples/*.c -o $@ $(LDLIBS)

demo:
	@CC="$(CC)" scripts/demo.sh

# The fast-path modes: static keys (the default) and -DTRACEPOINT_PORTABLE.
# A unit test's binary is build/<mode>/tests/test_NAME.
MODE      ?= static
mode_flags = $(if $(filter portable,$(1)),-DTRACEPOINT_PORTABLE)
MODEFLAGS := $(call mode_flags,$(MODE))
define unit_rule
$(B)/$(1)/tests/%: %.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -Itests/include $$(CFLAGS) $$(WARN) $(call mode_flags,$(1)) $$< -o $$@ -lcmocka $$(LDLIBS)
endef
$(foreach m,static portable,$(eval $(call unit_rule,$(m))))

# What the test commands run (docs/testing.md; the README has the times):
# - `make check`: lint, then one run of every test with static keys, and
#   with -DTRACEPOINT_PORTABLE the tests of what the mode changes (the
#   core/ layer: call sites, patching, modules; the zero-bytes tests), all
#   in their short versions (TP_QUICK=1: fewer rounds, shorter phases, the
#   fuzzers' corpora only), except the slow suites (SLOW_TESTS).
# - `make check-all` (what .ci/run runs): lint, every test in both modes
#   in its long version, the unit tests for aarch64 under qemu, then both
#   modes again with clang (TP_SECOND_PASS) when clang is installed.
# Each prints a line per test as it finishes and, last, one line
# "N passed, N failed, N skipped".  JOBS (default: the number of CPUs)
# builds and tests run at once.
SLOW_TESTS     := tests/build/t_sanitizers.sh
PORTABLE_CHECK := $(filter tests/core/% tests/events/t_event_zero_bytes.sh,$(UNIT_SRC) $(SCRIPT_TESTS))
# check-run SET=quick|all [MODES="static portable"]: builds what the set
# needs and runs it, both modes in one run-tests.sh.
SET        ?= all
MODES      ?= static portable
unit_of     = $(patsubst %.c,$(B)/$(1)/tests/%,$(notdir $(filter %.c,$(2))))
script_of   = $(filter %.sh,$(1))
SET_STATIC  = $(if $(filter quick,$(SET)),$(filter-out $(SLOW_TESTS),$(UNIT_SRC) $(SCRIPT_TESTS)),$(UNIT_SRC) $(SCRIPT_TESTS))
SET_PORT    = $(if $(filter quick,$(SET)),$(filter-out $(SLOW_TESTS),$(PORTABLE_CHECK)),$(UNIT_SRC) $(SCRIPT_TESTS))
RUN_STATIC  = $(if $(filter static,$(MODES)),$(call unit_of,static,$(SET_STATIC)) $(call script_of,$(SET_STATIC)))
RUN_PORT    = $(if $(filter portable,$(MODES)),$(call unit_of,portable,$(SET_PORT)) $(call script_of,$(SET_PORT)))
TEST_ENV    = CC="$(CC)" CXX="$(CXX)" TP_BUILD="$(B)" TP_DUMP="$(B)/tracepoint-dump" \
	TP_CTL="$(B)/tracepoint-ctl" TP_JOBS=$(JOBS) $(if $(filter quick,$(SET)),TP_QUICK=1)

# make check: lint runs beside the build (its output after the build's),
# and a lint failure stops it before the tests.
check: SET := quick
check:
	@CC="$(CC)" scripts/need-cmocka.sh
	@mkdir -p $(B); $(MAKE) --no-print-directory lint >$(B)/lint.log 2>&1 & lint=$$!; \
	$(MAKE) --no-print-directory check-build SET=$(SET); \
	wait $$lint; st=$$?; cat $(B)/lint.log; exit $$st
	@$(run_set)

check-all:
	@$(MAKE) --no-print-directory lint
	@CC="$(CC)" scripts/need-cmocka.sh
	@mkdir -p $(B) && echo "start $$(date +%s)" >$(B)/tally
	@st=0; \
	$(MAKE) --no-print-directory check-run SET=all TP_TALLY=$(abspath $(B))/tally || st=1; \
	TP_TALLY=$(abspath $(B))/tally TP_BUILD="$(B)" scripts/check-aarch64.sh $(UNIT_SRC) || st=1; \
	if command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1; then \
		TP_SECOND_PASS=1 $(MAKE) --no-print-directory check-run SET=all CC=clang CXX=clang++ B=$(B)/clang \
			TP_TALLY=$(abspath $(B))/tally || st=1; \
	else \
		echo "== clang: SKIPPED (not installed: apt-get install clang)"; echo "0 0 1 0" >>$(B)/tally; \
	fi; \
	scripts/run-tests.sh --total $(B)/tally && exit $$st

# check-build: what the set needs; a test whose build fails fails itself.
check-build:
	@$(MAKE) --no-print-directory -k -j$(JOBS) $(filter $(B)/%,$(RUN_STATIC) $(RUN_PORT)) \
		$(B)/tracepoint-dump $(B)/tracepoint-ctl || echo "== a build failed (above): its tests fail"

run_set = echo "== tests ($(SET), $(CC)): $(words $(RUN_STATIC)) with static keys, $(words $(RUN_PORT)) portable"; \
	$(TEST_ENV) $(if $(TP_TALLY),TP_TALLY="$(TP_TALLY)") scripts/run-tests.sh \
		$(if $(RUN_STATIC),--mode=static $(RUN_STATIC)) $(if $(RUN_PORT),--mode=portable $(RUN_PORT))

check-run: check-build
	@$(run_set)

# `make check-mode MODE=static|portable`: every test of one mode, long versions.
check-mode:
	@$(MAKE) --no-print-directory check-run SET=all MODES=$(MODE)

# `make lint`: shellcheck over every shell script (settings: .shellcheckrc),
# then `make format-check`; each says so and does nothing when its tool is
# not installed.  `make check` runs it first.
.PHONY: lint
LINT_SCRIPTS := $(wildcard tests/*.sh tests/*/*.sh scripts/*.sh bench/*.sh) tools/tracepoint-list tools/tracepoint-bloat-o-meter \
	tools/tp-list tools/bloat-o-meter .ci/run
lint:
	@if command -v shellcheck >/dev/null 2>&1; then \
		shellcheck $(LINT_SCRIPTS) && echo "== lint: shellcheck: $(words $(LINT_SCRIPTS)) scripts clean"; \
	else \
		echo "== lint: SKIPPED (shellcheck not installed: apt-get install shellcheck)"; \
	fi
	@scripts/format.sh check

# `make format-check`: the C files follow .clang-format outside macro
# bodies (scripts/format.sh says why those are left alone); `make format`
# applies it.  Both say so and do nothing when clang-format is missing.
.PHONY: format format-check
format:
	@scripts/format.sh fix
format-check:
	@scripts/format.sh check

# `make stress [STRESS_SECONDS=30]`: the robustness tests with long phases, both modes.
STRESS_SECONDS ?= 30
STRESS_UNIT    := $(patsubst %,$(B)/$(MODE)/tests/%,test_concurrency test_process_events)
stress:
	@for m in static portable; do $(MAKE) --no-print-directory stress-mode MODE=$$m || exit 1; done

stress-mode: $(STRESS_UNIT) $(B)/tracepoint-ctl
	@echo "== stress, $(MODE) mode ($(CC)), $(STRESS_SECONDS)s phases"
	@TP_STRESS_SECONDS=$(STRESS_SECONDS) CC="$(CC)" CXX="$(CXX)" TP_CFLAGS="$(MODEFLAGS)" \
		TP_BUILD="$(B)/$(MODE)" TP_CTL="$(B)/tracepoint-ctl" scripts/run-tests.sh $(STRESS_UNIT) tests/core/t_dlopen_stress.sh \
		tests/recorder/t_fork_locks.sh

# `make stress-death [DEATH_RUNS=10]`: tests/recorder/t_death.sh with 10 runs per
# way of ending (make check runs 2): 4 threads recording, 7 ways of dying.
DEATH_RUNS ?= 10
stress-death: $(B)/tracepoint-dump
	@TP_DEATH_RUNS=$(DEATH_RUNS) CC="$(CC)" TP_CFLAGS="$(MODEFLAGS)" TP_BUILD="$(B)/$(MODE)" \
		TP_DUMP="$(B)/tracepoint-dump" scripts/run-tests.sh tests/recorder/t_death.sh

bench: $(B)/tracepoint-dump
	@CC="$(CC)" TP_DUMP="$(B)/tracepoint-dump" bench/run.sh

# make install [prefix=/usr/local] [DESTDIR=/staging] [bindir=...]: every
# header under include/ in $(includedir) (layout kept), the tools in
# $(bindir) (tracepoint-dump, tracepoint-ctl, tracepoint-list, tracepoint-bloat-o-meter),
# tracepoint.pc in $(pkgconfigdir) and a CMake package (tracepoint::tracepoint)
# in $(cmakedir).  make uninstall, with the same variables, removes exactly
# these files and the directories that are the package's own.  The names are
# the GNU ones; set them on the command line.  PREFIX and BINDIR, the former
# spellings of prefix and bindir, still work.  docs/install.md has the rest.
PREFIX       ?= /usr/local
prefix       = $(PREFIX)
exec_prefix  = $(prefix)
BINDIR       ?= $(exec_prefix)/bin
bindir       = $(BINDIR)
libdir       = $(exec_prefix)/lib
includedir   = $(prefix)/include
datarootdir  = $(prefix)/share
datadir      = $(datarootdir)
pkgconfigdir = $(libdir)/pkgconfig
cmakedir     = $(libdir)/cmake/tracepoint
INSTALL      = install
INSTALL_PROGRAM = $(INSTALL)
INSTALL_SCRIPT  = $(INSTALL)
INSTALL_DATA    = $(INSTALL) -m 644

HEADER_SUBDIRS := $(patsubst %/,%,$(sort $(filter-out ./,$(dir $(HEADERS:include/%=%)))))
# nested ones first (two levels), so that rmdir empties trace/recorder before trace
HEADER_SUBDIRS_UP := $(foreach d,$(HEADER_SUBDIRS),$(if $(findstring /,$(d)),$(d))) \
	$(foreach d,$(HEADER_SUBDIRS),$(if $(findstring /,$(d)),,$(d)))
TOOLS     := $(B)/tracepoint-dump $(B)/tracepoint-ctl tools/tracepoint-list tools/tracepoint-bloat-o-meter
INSTALLED := $(HEADERS:include/%=$(includedir)/%) $(addprefix $(bindir)/,$(notdir $(TOOLS))) \
	$(pkgconfigdir)/tracepoint.pc $(cmakedir)/tracepoint-config.cmake \
	$(cmakedir)/tracepoint-config-version.cmake

# The installed files locate the headers relative to their own place when
# both are under $(prefix) (so a staged or moved tree still works), else by
# absolute path: $(call below_prefix,dir) is dir relative to $(prefix), or
# empty; $(call up,a/b/c) is ../../..
below_prefix = $(patsubst $(prefix)/%,%,$(filter $(prefix)/%,$(1)))
up           = $(subst $(space),/,$(patsubst %,..,$(subst /, ,$(1))))
PC_PREFIX     = $(if $(call below_prefix,$(pkgconfigdir)),$${pcfiledir}/$(call up,$(call below_prefix,$(pkgconfigdir))),$(prefix))
PC_INCLUDEDIR = $(if $(call below_prefix,$(includedir)),$${prefix}/$(call below_prefix,$(includedir)),$(includedir))
CMAKE_INCLUDEDIR = $(if $(and $(call below_prefix,$(cmakedir)),$(call below_prefix,$(includedir))),$(call up,$(call below_prefix,$(cmakedir)))/$(call below_prefix,$(includedir)),$(includedir))
SUBST = sed -e 's|@PC_PREFIX@|$(PC_PREFIX)|g' -e 's|@prefix@|$(prefix)|g' -e 's|@PC_INCLUDEDIR@|$(PC_INCLUDEDIR)|g' \
	-e 's|@CMAKE_INCLUDEDIR@|$(CMAKE_INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'

install: $(B)/tracepoint-dump $(B)/tracepoint-ctl
	$(SUBST) packaging/tracepoint.pc.in >$(B)/tracepoint.pc
	for f in config config-version; do $(SUBST) packaging/tracepoint-$$f.cmake.in \
		>$(B)/tracepoint-$$f.cmake || exit 1; done
	$(INSTALL) -d "$(DESTDIR)$(includedir)" $(HEADER_SUBDIRS:%="$(DESTDIR)$(includedir)/%") \
		"$(DESTDIR)$(bindir)" "$(DESTDIR)$(pkgconfigdir)" "$(DESTDIR)$(cmakedir)"
	for f in $(HEADERS:include/%=%); do \
		$(INSTALL_DATA) include/$$f "$(DESTDIR)$(includedir)/$$f" || exit 1; done
	$(INSTALL_PROGRAM) $(B)/tracepoint-dump "$(DESTDIR)$(bindir)/tracepoint-dump"
	$(INSTALL_PROGRAM) $(B)/tracepoint-ctl "$(DESTDIR)$(bindir)/tracepoint-ctl"
	$(INSTALL_SCRIPT) tools/tracepoint-list "$(DESTDIR)$(bindir)/tracepoint-list"
	$(INSTALL_SCRIPT) tools/tracepoint-bloat-o-meter "$(DESTDIR)$(bindir)/tracepoint-bloat-o-meter"
	$(INSTALL_DATA) $(B)/tracepoint.pc "$(DESTDIR)$(pkgconfigdir)/tracepoint.pc"
	$(INSTALL_DATA) $(B)/tracepoint-config.cmake $(B)/tracepoint-config-version.cmake \
		"$(DESTDIR)$(cmakedir)"
uninstall:
	rm -f $(INSTALLED:%="$(DESTDIR)%")
	rmdir $(HEADER_SUBDIRS_UP:%="$(DESTDIR)$(includedir)/%") "$(DESTDIR)$(cmakedir)" 2>/dev/null || true

clean:
	rm -rf $(B)
