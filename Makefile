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
# wildcards are the one list of what `make check` runs.  The unit tests'
# binaries go to build/<mode>/tests/test_NAME, whatever their layer.
# Names are unique across layers (logs and artifacts are named by them) and
# the tests run in the order of their names.
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

.PHONY: all demo check check-mode stress stress-mode stress-death bench install uninstall clean
all: $(B)/demo $(B)/tracepoint-dump $(B)/tracepoint-ctl

# The trace reader (tools/dump/: one file per part, dump.h their map; libc only).
DUMP_SRC := $(wildcard tools/dump/*.c)
$(B)/tracepoint-dump: $(DUMP_SRC) tools/dump/dump.h tools/protobuf.h include/trace/wire.h include/tracepoint/version.h
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
	@CC="$(CC)" tools/demo.sh

# `make check` runs the whole suite twice, with static keys (the default) and
# with -DTRACEPOINT_PORTABLE, then the unit tests for aarch64 under qemu;
# JOBS (default: the number of CPUs) builds and tests run at once.
MODE      ?= static
MODEFLAGS := $(if $(filter portable,$(MODE)),-DTRACEPOINT_PORTABLE)
MODE_UNIT := $(patsubst $(B)/tests/%,$(B)/$(MODE)/tests/%,$(UNIT_TESTS))

$(B)/$(MODE)/tests/%: %.c $(TEST_HEADERS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/include $(CFLAGS) $(WARN) $(MODEFLAGS) $< -o $@ -lcmocka $(LDLIBS)

check:
	@$(MAKE) --no-print-directory lint
	@CC="$(CC)" tools/need-cmocka.sh
	@$(MAKE) --no-print-directory -j$(JOBS) check-mode MODE=static
	@$(MAKE) --no-print-directory -j$(JOBS) check-mode MODE=portable
	@TP_BUILD="$(B)" tools/check-aarch64.sh $(UNIT_SRC)

check-mode: $(MODE_UNIT) $(B)/tracepoint-dump $(B)/tracepoint-ctl
	@echo "== $(MODE) mode ($(CC))"
	@CC="$(CC)" CXX="$(CXX)" TP_CFLAGS="$(MODEFLAGS)" TP_BUILD="$(B)/$(MODE)" \
		TP_DUMP="$(B)/tracepoint-dump" TP_CTL="$(B)/tracepoint-ctl" TP_JOBS=$(JOBS) tools/run-tests.sh $(MODE_UNIT) $(SCRIPT_TESTS)

# `make lint`: shellcheck over every shell script (settings: .shellcheckrc);
# says so and does nothing when shellcheck is not installed.  `make check`
# runs it first.
.PHONY: lint
LINT_SCRIPTS := $(wildcard tests/*.sh tests/*/*.sh tools/*.sh bench/*.sh) tools/tracepoint-list tools/tracepoint-bloat-o-meter \
	tools/tp-list tools/bloat-o-meter .ci/run
lint:
	@if command -v shellcheck >/dev/null 2>&1; then \
		shellcheck $(LINT_SCRIPTS) && echo "== lint: shellcheck: $(words $(LINT_SCRIPTS)) scripts clean"; \
	else \
		echo "== lint: SKIPPED (shellcheck not installed: apt-get install shellcheck)"; \
	fi

# `make stress [STRESS_SECONDS=30]`: the robustness tests with long phases, both modes.
STRESS_SECONDS ?= 30
STRESS_UNIT    := $(patsubst %,$(B)/$(MODE)/tests/%,test_concurrency test_process_events)
stress:
	@for m in static portable; do $(MAKE) --no-print-directory stress-mode MODE=$$m || exit 1; done

stress-mode: $(STRESS_UNIT) $(B)/tracepoint-ctl
	@echo "== stress, $(MODE) mode ($(CC)), $(STRESS_SECONDS)s phases"
	@TP_STRESS_SECONDS=$(STRESS_SECONDS) CC="$(CC)" CXX="$(CXX)" TP_CFLAGS="$(MODEFLAGS)" \
		TP_BUILD="$(B)/$(MODE)" TP_CTL="$(B)/tracepoint-ctl" tools/run-tests.sh $(STRESS_UNIT) tests/core/t_dlopen_stress.sh \
		tests/recorder/t_fork_locks.sh

# `make stress-death [DEATH_RUNS=10]`: tests/recorder/t_death.sh with 10 runs per
# way of ending (make check runs 2): 4 threads recording, 7 ways of dying.
DEATH_RUNS ?= 10
stress-death: $(B)/tracepoint-dump
	@TP_DEATH_RUNS=$(DEATH_RUNS) CC="$(CC)" TP_CFLAGS="$(MODEFLAGS)" TP_BUILD="$(B)/$(MODE)" \
		TP_DUMP="$(B)/tracepoint-dump" tools/run-tests.sh tests/recorder/t_death.sh

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
PC_INCLUDEDIR = $(if $(call below_prefix,$(includedir)),$${prefix}/$(call below_prefix,$(includedir)),$(includedir))
CMAKE_INCLUDEDIR = $(if $(and $(call below_prefix,$(cmakedir)),$(call below_prefix,$(includedir))),$(call up,$(call below_prefix,$(cmakedir)))/$(call below_prefix,$(includedir)),$(includedir))
SUBST = sed -e 's|@prefix@|$(prefix)|g' -e 's|@PC_INCLUDEDIR@|$(PC_INCLUDEDIR)|g' \
	-e 's|@CMAKE_INCLUDEDIR@|$(CMAKE_INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'

install: $(B)/tracepoint-dump $(B)/tracepoint-ctl
	$(SUBST) tools/tracepoint.pc.in >$(B)/tracepoint.pc
	for f in config config-version; do $(SUBST) tools/tracepoint-$$f.cmake.in \
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
