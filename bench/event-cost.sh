#!/bin/sh
# Instructions per recorded event (callgrind): bench/event_record.c fires
# trace_evf_three(a, b, c) with the sink's recorder attached N1 and N2
# times; (Ir(N2) - Ir(N1)) / (N2 - N1) is the whole cost of one event at
# the call site: the enabled tracepoint's dispatch plus the recorder
# (reserve, three fields, timestamp, commit) and the window switches
# (a new window of the stream file every 1 MiB), amortized.  The recorder alone is
# also reported (callgrind's inclusive count of the probe function).
# EVENT=str measures trace_evc_str(int, a 12-byte string) instead, EVENT=dyn
# trace_evc_dyn(int, 8 bytes of a __dynamic_array) (bench/events/ev_cost.h).
# Usage: bench/event-cost.sh [max]   exits 1 if the total exceeds max.
set -u
CC=${CC:-cc}
B=${TP_BUILD:-build}/event_cost
TPF=${TP_CFLAGS:-}
MAX=${1:-}
EVENT=${EVENT:-three}
case $EVENT in
three) DEF='' PROBE=tp__ev_probe_evf_three WHAT='3 integer fields' ;;
str) DEF=-DEV_STR PROBE=tp__ev_probe_evc_str WHAT='1 integer + 1 string of 12 bytes' ;;
dyn) DEF=-DEV_DYN PROBE=tp__ev_probe_evc_dyn WHAT='1 integer + 1 dynamic array of 8 bytes' ;;
*) echo "EVENT=$EVENT: three, str or dyn"; exit 1 ;;
esac
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not installed (apt-get install valgrind)"; exit 77; }
mkdir -p "$B" || exit 1
# shellcheck disable=SC2086 # $TPF: a list of flags
# shellcheck disable=SC2086 # $DEF: nothing or one flag
$CC -O2 -g $TPF $DEF -Iinclude -Itests/include -Ibench bench/event_record.c -o "$B/event_record" -ldl -lpthread || exit 1
ir() { # count -> total Ir of the program
	valgrind --tool=callgrind --callgrind-out-file="$B/cg.$1" "$B/event_record" "$1" "$B/trace.$1" ${TP_FILTER:+"$TP_FILTER"} >"$B/vg.$1.log" 2>&1 || { cat "$B/vg.$1.log"; exit 1; }
	sed -n 's/^summary: *//p' "$B/cg.$1"
}
rm -rf "$B"/trace.*
# 1,000,000 events = 24 MB: the difference spans about 23 window switches.
N1=100000 N2=1100000
a=$(ir $N1) b=$(ir $N2)
per=$(( (b - a) / (N2 - N1) ))
rec=$(callgrind_annotate --inclusive=yes "$B/cg.$N2" 2>/dev/null | grep "$PROBE" | head -1 | awk '{gsub(",","",$1); print $1}')
[ -n "$rec" ] && rec=$(( rec / (N2 + 1) )) || rec='?'
rm -rf "$B"/trace.*
echo "instructions per recorded event ($WHAT, $CC ${TPF:-static keys}${TP_FILTER:+, filter $TP_FILTER}): $per total, $rec in the recorder probe"
if [ -n "$MAX" ] && [ "$per" -gt "$MAX" ]; then echo "FAIL: more than $MAX"; exit 1; fi
exit 0
