#!/bin/sh
# Events fired by the constructor of a library the program links
# (tests/recorder/lib_ctor/lib.c, linked by main.c, which holds the recorder): such
# a constructor runs before the program's own constructors, so the
# recorder starts from the executable's .preinit_array, before any
# library's constructor, and the events are recorded (they were lost,
# without a word, when it started from a constructor):
#  - TRACEPOINTS='evf:*': the library constructor's 3 events and main's 1,
#    in order; babeltrace2 reads the trace;
#  - TRACEPOINTS=list lists the library's events and exits before main;
#    misspelt variables and a bad TRACEPOINTS_MODE are still said;
#  - built with -fsanitize=address,undefined (whose runtime has a
#    .preinit_array of its own): the same 4 events, no report;
#  - nothing recorded and nothing said without TRACEPOINTS.
. tests/lib.sh
dump_tool
cc_build -fPIC -shared -Itests/include -DCONFIG_EVF "$S/lib.c" -o "$B/libctor.so"
cc_build -Itests/include "$S/main.c" -o "$B/main" -L"$B" -lctor -Wl,-rpath,"$(cd "$B" && pwd)" -lpthread -ldl
values() { "$DUMP" "$1" 2>/dev/null | sed -n 's/.* evf:evf_three a=\([0-9]*\) .*/\1/p' | tr '\n' ' '; }

TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/t "$B/main" >"$B/t.out" 2>"$B/t.err"; rc=$?
v=$(values "$B/t")
if [ $rc = 0 ] && [ "$v" = "100 101 102 200 " ] && grep -qx 'work 201' "$B/t.out"; then
	ok "the linked library's constructor events (100 101 102) and main's (200), in order"
else fail "library constructor events: exit $rc, recorded '$v'"; cat "$B/t.err"; fi
if have babeltrace2; then
	n=$(babeltrace2 "$B/t" 2>"$B/bt.err" | grep -c 'evf:evf_three')
	if [ "$n" = 4 ]; then ok "babeltrace2 reads the 4 events"; else fail "babeltrace2 read $n of 4"; cat "$B/bt.err"; fi
else skip_part "babeltrace2 not installed"; fi

TRACEPOINTS=list "$B/main" >"$B/list.out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q '^evf:evf_three (int a, unsigned long b, long long c)$' "$B/list.out" && ! grep -q work "$B/list.out"; then
	ok "TRACEPOINTS=list lists the library's events and exits before main"
else fail "TRACEPOINTS=list: exit $rc"; cat "$B/list.out"; fi

TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/m TRACEPOINTS_MODE=xml TRACEPOINT=x "$B/main" >/dev/null 2>"$B/m.err"
if grep -q 'TRACEPOINTS_MODE="xml" is neither stream nor flight; using stream' "$B/m.err" &&
	grep -q 'TRACEPOINT in the environment is not a variable of the recorder' "$B/m.err" &&
	[ "$(values "$B/m")" = "100 101 102 200 " ]; then
	ok "messages about the environment still said; the events recorded"
else fail "environment messages"; cat "$B/m.err"; fi

"$B/main" >"$B/none.out" 2>"$B/none.err"
if grep -qx 'work 201' "$B/none.out" && [ ! -s "$B/none.err" ]; then ok "without TRACEPOINTS: nothing said"
else fail "without TRACEPOINTS: $(cat "$B/none.err")"; fi

if repeated "AddressSanitizer"; then :
elif cc_works -fsanitize=address,undefined; then
	cc_build -fsanitize=address,undefined -fPIC -shared -Itests/include -DCONFIG_EVF "$S/lib.c" -o "$B/libctor.so"
	cc_build -fsanitize=address,undefined -Itests/include "$S/main.c" -o "$B/main-asan" -L"$B" -lctor \
		-Wl,-rpath,"$(cd "$B" && pwd)" -lpthread -ldl
	TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/a "$B/main-asan" >/dev/null 2>"$B/a.err"; rc=$?
	if [ $rc = 0 ] && [ "$(values "$B/a")" = "100 101 102 200 " ] && ! grep -q 'Sanitizer' "$B/a.err"; then
		ok "under AddressSanitizer and UBSan: the same 4 events, no report"
	else fail "under sanitizers: exit $rc, '$(values "$B/a")'"; cat "$B/a.err"; fi
else skip_part "$CC has no working -fsanitize=address,undefined"; fi

finish
