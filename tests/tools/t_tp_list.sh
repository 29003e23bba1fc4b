#!/bin/sh
# tools/tp-list reads the tracepoint names of an executable, a shared
# library and an object file without running them (it must match the
# running program's own TRACEPOINTS=list), reports a file without
# tracepoints, a missing file and a non-ELF file.
# shellcheck disable=SC2086 # flag lists ($CC, $TPF) are split on purpose
. tests/lib.sh
$CC -O2 $TPF -Iinclude -Itests/include -DCONFIG_EVF tests/recorder/event_env/env_prog.c -o "$B/prog" -ldl -lpthread || exit 1
$CC -O2 $TPF -fPIC -shared -Iinclude -Itests/include -DCONFIG_EVF -x c - -o "$B/libevf.so" <<'C' || exit 1
#include <stdio.h>
#define CREATE_TRACE_POINTS
#include "events/ev_fields.h"
C
$CC -O2 $TPF -Iinclude -Itests/include -c -x c - -o "$B/none.o" <<'C' || exit 1
int none(void);
int none(void) { return 1; }
C
want="evf_lock_acquire
evf_lock_release
evf_mixed
evf_plain
evf_three"
for f in "$B/prog" "$B/libevf.so"; do
	got=$(tools/tp-list "$f")
	if [ "$got" = "$want" ]; then ok "tp-list $f"; else fail "tp-list $f printed: $got"; fi
done
run=$(TRACEPOINTS=list "$B/prog" | sed 's/ .*//; s/^.*://' | sort)
if [ "$run" = "$want" ]; then ok "same names as TRACEPOINTS=list"; else fail "TRACEPOINTS=list differs: $run"; fi
if tools/tp-list "$B/prog" "$B/libevf.so" | grep -q "^$B/libevf.so: evf_three$"; then ok "several files are prefixed"; else fail "prefix"; fi
out=$(tools/tp-list "$B/none.o" 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q 'no tracepoints'; then ok "no tracepoints reported"; else fail "file without tracepoints: $rc $out"; fi
out=$(tools/tp-list "$B/missing" 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'cannot read'; then ok "missing file"; else fail "missing file: $rc $out"; fi
out=$(tools/tp-list tests/tools/t_tp_list.sh 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'not an ELF file'; then ok "non-ELF file"; else fail "non-ELF: $rc $out"; fi
finish
