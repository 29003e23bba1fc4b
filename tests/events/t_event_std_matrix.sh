#!/bin/sh
# The event layer is warning-free under -Wall -Wextra -Wundef -Wpedantic
# -Werror for C (c99, gnu99, c11, gnu17) with $CC and C++ (c++11, c++14,
# c++17, gnu++20) with $CXX: a file defining events (CREATE_TRACE_POINTS)
# with the sink (ev_fields.h and ev_parity.h: every event form), a file
# only firing them, and the kmem example; compiled
# in and compiled out.  The C++ builds also link and record one event
# (read back with babeltrace2 where it is installed).
# shellcheck disable=SC2086 # flag lists ($c, $W, $TPF) are split on purpose
. tests/lib.sh
W="-Wall -Wextra -Wundef -Wpedantic -Werror"
cat >"$B/fire.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "events/ev_fields.h"
#include "events/ev_parity.h"
void fire(void);
void fire(void)
{
	trace_evf_three(1, 2, 3);
	trace_evf_lock_acquire(NULL, 1);
	trace_evp_gc(1, 3u, (const unsigned char *)"ab", 2u, "t");
	trace_evp_odd(3);
	trace_evp_tick();
}
C
cat >"$B/def.c" <<'C'
#include <stdio.h>
#include <string.h>
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
#include "events/ev_parity.h"
#define TRACEPOINT_SINK_MAIN
#include <trace/sink.h>
int evp_reg(void) { return 0; }
void evp_unreg(void) {}
void fire(void);
int main(int argc, char **argv)
{
	if (argc < 2 || tracepoint_output("stream", argv[1]) != 0 || tracepoint_enable("evf:evf_three") != 1)
		return 1;
	fire();
	return tracepoint_flush() == 0 && tracepoint_dropped() == 0 ? 0 : 1;
}
C
try() { # label compiler std flags...
	l=$1 c=$2 std=$3; shift 3
	if $c -std=$std $W $TPF -Iinclude -Itests/include -Iexamples "$@" >"$B/$l.log" 2>&1; then ok "$l"
	else fail "$l"; cat "$B/$l.log"; fi
}
# make check: the oldest and newest of each language; check-all: four each
for std in $(quick "c99 gnu17" "c99 gnu99 c11 gnu17"); do
	for on in -DCONFIG_EVF -UCONFIG_EVF; do
		try "$CC-$std$on-def" "$CC" $std $on -c "$B/def.c" -o "$B/def.o"
		try "$CC-$std$on-fire" "$CC" $std $on -c "$B/fire.c" -o "$B/fire.o"
	done
	try "$CC-$std-example" "$CC" $std -DCONFIG_KMEMTRACE -c examples/sinks/kmem_trace.c -o "$B/ex.o"
done
for std in $(quick "c++11 gnu++20" "c++11 c++14 c++17 gnu++20"); do
	for on in -DCONFIG_EVF -UCONFIG_EVF; do
		try "$CXX-$std$on" "$CXX" $std $on -x c++ "$B/def.c" -x c++ "$B/fire.c" -o "$B/prog-$std$on" -ldl -lpthread
	done
	# the compiled-in program records
	if "$B/prog-$std-DCONFIG_EVF" "$B/trace-$std" 2>"$B/run.err" &&
		{ ! have babeltrace2 || babeltrace2 "$B/trace-$std" | grep -q 'evf:evf_three: .*{ a = 1, b = 2, c = 3 }$'; }; then
		ok "$CXX-$std records"
	else fail "$CXX-$std run"; cat "$B/run.err"; fi
	try "$CXX-$std-example" "$CXX" $std -DCONFIG_KMEMTRACE -x c++ -c examples/sinks/kmem_trace.c -o "$B/ex.o"
done
finish
