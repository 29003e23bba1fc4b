# tracepoint.h - header-only per-subsystem tracepoints.  See README.md.
CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wundef -Werror
CPPFLAGS += -Iinclude
LDLIBS   += -ldl -lpthread
PREFIX   ?= /usr/local
B        := build

UNIT_TESTS   := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
SCRIPT_TESTS := $(sort $(wildcard tests/t_*.sh))
HEADERS      := $(wildcard include/*.h include/*/*.h)

.PHONY: all demo check check-mode bench install uninstall clean
all: $(B)/demo

$(B)/demo: $(wildcard examples/*.c examples/*.h examples/*/*.h) $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) $(WARN) -DCONFIG_TRACEPOINTS_ALL examples/*.c -o $@ $(LDLIBS)

demo:
	@CC="$(CC)" tools/demo.sh

# `make check` runs the whole suite twice, with static keys (the default) and
# with -DTRACEPOINT_PORTABLE, then the unit tests for aarch64 under qemu.
MODE      ?= static
MODEFLAGS := $(if $(filter portable,$(MODE)),-DTRACEPOINT_PORTABLE)
MODE_UNIT := $(patsubst $(B)/tests/%,$(B)/$(MODE)/tests/%,$(UNIT_TESTS))

$(B)/$(MODE)/tests/%: tests/%.c tests/*.h tests/events/*.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(WARN) $(MODEFLAGS) $< -o $@ -lcmocka $(LDLIBS)

check:
	@CC="$(CC)" tools/need-cmocka.sh
	@$(MAKE) --no-print-directory check-mode MODE=static
	@$(MAKE) --no-print-directory check-mode MODE=portable
	@tools/check-aarch64.sh

check-mode: $(MODE_UNIT)
	@echo "== $(MODE) mode ($(CC))"
	@CC="$(CC)" CXX="$(CXX)" TP_CFLAGS="$(MODEFLAGS)" TP_BUILD="$(B)/$(MODE)" \
		tools/run-tests.sh $(MODE_UNIT) $(SCRIPT_TESTS)

bench:
	@CC="$(CC)" bench/run.sh

clean:
	rm -rf $(B)
