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

.PHONY: all demo check bench install uninstall clean
all: $(B)/demo

$(B)/demo: $(wildcard examples/*.c examples/*/*.h) $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) $(WARN) -DCONFIG_TRACEPOINTS_ALL examples/*.c -o $@ $(LDLIBS)

demo:
	@CC="$(CC)" tools/demo.sh

$(B)/tests/%: tests/%.c tests/*.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(WARN) $< -o $@ -lcmocka $(LDLIBS)

check:
	@CC="$(CC)" tools/need-cmocka.sh
	@$(MAKE) --no-print-directory $(UNIT_TESTS)
	@CC="$(CC)" CXX="$(CXX)" tools/run-tests.sh $(UNIT_TESTS) $(SCRIPT_TESTS)

clean:
	rm -rf $(B)
