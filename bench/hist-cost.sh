#!/bin/sh
# Instructions per event aggregated by a hist trigger (callgrind):
# bench/hist_record.c fires trace_evf_three(a, b, c) with the trigger
# 'evf:evf_three hist:keys=b:vals=c' (one u64 key, one sum) N1 and N2
# times; (Ir(N2) - Ir(N1)) / (N2 - N1) is the whole cost of one event at
# the call site: the enabled tracepoint's dispatch, the class's hist probe
# (the entry assigned on its stack, the hook called) and the trigger's
# table update.  The trigger alone is also reported (callgrind's inclusive
# count of tp__hist_hook_fast1).
# Usage: bench/hist-cost.sh [max]   exits 1 if the total exceeds max.
set -u
CC=${CC:-cc}
B=${TP_BUILD:-build}/hist_cost
TPF=${TP_CFLAGS:-}
MAX=${1:-}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not installed (apt-get install valgrind)"; exit 77; }
mkdir -p "$B" || exit 1
# shellcheck disable=SC2086 # $TPF: a list of flags
$CC -O2 -g $TPF -Iinclude -Itests/include -Ibench bench/hist_record.c -o "$B/hist_record" -ldl -lpthread || exit 1
ir() { # count -> total Ir of the program
	valgrind --tool=callgrind --callgrind-out-file="$B/cg.$1" "$B/hist_record" "$1" >"$B/vg.$1.log" 2>&1 || { cat "$B/vg.$1.log"; exit 1; }
	sed -n 's/^summary: *//p' "$B/cg.$1"
}
N1=100000 N2=1100000
a=$(ir $N1) b=$(ir $N2)
per=$(( (b - a) / (N2 - N1) ))
hk=$(callgrind_annotate --inclusive=yes "$B/cg.$N2" 2>/dev/null | grep "tp__hist_hook_fast1" | head -1 | awk '{gsub(",","",$1); print $1}')
[ -n "$hk" ] && hk=$(( hk / (N2 + 1) )) || hk='?'
echo "instructions per aggregated event (one u64 key, one sum, $CC ${TPF:-static keys}): $per total, $hk in the trigger"
if [ -n "$MAX" ] && [ "$per" -gt "$MAX" ]; then echo "FAIL: more than $MAX"; exit 1; fi
exit 0
