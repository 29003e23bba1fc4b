#!/bin/sh
# bench/compile.sh OUT [TSV] - what CREATE_TRACE_POINTS costs to compile:
# N events (default 1,000) with two integer fields each, defined in one .c
# file, ours (TRACE_EVENT + CREATE_TRACE_POINTS) next to LTTng-UST's
# (TRACEPOINT_EVENT with two ctf_integer fields, TRACEPOINT_CREATE_PROBES +
# TRACEPOINT_DEFINE), three times: events that differ by name only
# ("same", the issue's measurement), events whose code differs
# ("distinct"), and events of one class (DECLARE_EVENT_CLASS + N
# DEFINE_EVENT, next to TRACEPOINT_EVENT_CLASS + N TRACEPOINT_EVENT_INSTANCE:
# "class").
# Measures the user CPU seconds of `$CC -O2 -c` (the least of RUNS
# compilations, default 1) and the .text bytes of the object, and prints
# them with their per-event shares.  With TSV, appends the rows
# "compile <ours|lttng>[_distinct|_class] <user_s|text_bytes>" (bench/run.sh).
# Environment: CC (gcc), N (1000), RUNS (1).  LTTng-UST is skipped when
# <lttng/tracepoint.h> is missing (apt-get install liblttng-ust-dev).
set -u
[ $# -ge 1 ] || { echo "usage: bench/compile.sh OUT [TSV]" >&2; exit 2; }
OUT=$1 TSV=${2:-}
# relative paths are the caller's, not the repository's
case $OUT in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
case $TSV in '' | /*) ;; *) TSV=$(pwd)/$TSV ;; esac
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-gcc}
[ "$CC" = cc ] && CC=gcc
N=${N:-1000}
RUNS=${RUNS:-1}
case $N in '' | *[!0-9]* | 0) echo "bench/compile.sh: N must be a positive number, not '$N'" >&2; exit 2 ;; esac
case $RUNS in '' | *[!0-9]* | 0) echo "bench/compile.sh: RUNS must be a positive number, not '$RUNS'" >&2; exit 2 ;; esac
mkdir -p "$OUT" || exit 1
put() { [ -n "$TSV" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }

# gen DIR KIND: both flavours' sources in DIR.  KIND same: the events differ
# by name only, as in the issue's measurement (gcc's identical code folding,
# -fipa-icf, then compiles one LTTng-UST probe for all of them); distinct:
# event i stores b + i, so that every event's code is its own; class: one
# event class and N events of it.
gen() {
	d=$1 kind=$2
	mkdir -p "$d" || exit 1
	{
		echo '#undef TRACE_SYSTEM'
		echo '#undef TRACE_CONFIG'
		echo '#define TRACE_SYSTEM cbench'
		echo '#define TRACE_CONFIG CONFIG_CBENCH'
		echo '#if !defined(CBENCH_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)'
		echo '#define CBENCH_EVENTS_H'
		echo '#include <tracepoint.h>'
		if [ "$kind" = class ]; then
			echo "DECLARE_EVENT_CLASS(cb_class, TP_PROTO(int a, long b), TP_ARGS(a, b),"
			echo "	TP_STRUCT__entry(__field(int, a) __field(long, b)),"
			echo "	TP_fast_assign(__entry->a = a; __entry->b = b;),"
			echo "	TP_printk(\"a=%d b=%ld\", __entry->a, __entry->b));"
		fi
		i=0
		while [ "$i" -lt "$N" ]; do
			if [ "$kind" = class ]; then
				echo "DEFINE_EVENT(cb_class, cb_$i, TP_PROTO(int a, long b), TP_ARGS(a, b));"
				i=$((i + 1))
				continue
			fi
			if [ "$kind" = same ]; then b=b; else b="b + $i"; fi
			echo "TRACE_EVENT(cb_$i, TP_PROTO(int a, long b), TP_ARGS(a, b),"
			echo "	TP_STRUCT__entry(__field(int, a) __field(long, b)),"
			echo "	TP_fast_assign(__entry->a = a; __entry->b = $b;),"
			echo "	TP_printk(\"a=%d b=%ld\", __entry->a, __entry->b));"
			i=$((i + 1))
		done
		echo '#endif'
		echo '#undef TRACE_INCLUDE_PATH'
		echo '#define TRACE_INCLUDE_PATH .'
		echo '#define TRACE_INCLUDE_FILE cbench_events'
		echo '#include <trace/define_trace.h>'
	} >"$d/cbench_events.h"
	printf '#define CREATE_TRACE_POINTS\n#include "cbench_events.h"\n' >"$d/ours.c"
	{
		echo '#undef TRACEPOINT_PROVIDER'
		echo '#define TRACEPOINT_PROVIDER cbench'
		echo '#undef TRACEPOINT_INCLUDE'
		echo '#define TRACEPOINT_INCLUDE "./cbench_lttng.h"'
		echo '#if !defined(CBENCH_LTTNG_H) || defined(TRACEPOINT_HEADER_MULTI_READ)'
		echo '#define CBENCH_LTTNG_H'
		echo '#include <lttng/tracepoint.h>'
		[ "$kind" = class ] &&
			echo "TRACEPOINT_EVENT_CLASS(cbench, cb_class, TP_ARGS(int, a, long, b), TP_FIELDS(ctf_integer(int, a, a) ctf_integer(long, b, b)))"
		i=0
		while [ "$i" -lt "$N" ]; do
			if [ "$kind" = class ]; then
				echo "TRACEPOINT_EVENT_INSTANCE(cbench, cb_class, cb_$i, TP_ARGS(int, a, long, b))"
				i=$((i + 1))
				continue
			fi
			if [ "$kind" = same ]; then b=b; else b="b + $i"; fi
			echo "TRACEPOINT_EVENT(cbench, cb_$i, TP_ARGS(int, a, long, b),"
			echo "	TP_FIELDS(ctf_integer(int, a, a) ctf_integer(long, b, $b)))"
			i=$((i + 1))
		done
		echo '#endif'
		echo '#include <lttng/tracepoint-event.h>'
	} >"$d/cbench_lttng.h"
	printf '#define TRACEPOINT_CREATE_PROBES\n#define TRACEPOINT_DEFINE\n#include "cbench_lttng.h"\n' >"$d/lttng.c"
}

have_lttng=0
printf '#include <lttng/tracepoint.h>\n' | $CC -x c -E - >/dev/null 2>&1 && have_lttng=1

# text_bytes OBJ: the bytes of its .text* sections (code, hot and cold).
text_bytes() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$1 ~ /^\.text/ { s += ("0x" $5) + 0 } END { printf "%d\n", s }' 2>/dev/null ||
		echo 0
}
# user_s SRC OBJ FLAGS...: the least user CPU seconds of RUNS compilations.
user_s() {
	src=$1 obj=$2; shift 2
	best=
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		# shellcheck disable=SC2086 # $CC may hold flags
		/usr/bin/env time -f '%U' -o "$OUT/time" $CC -O2 "$@" -c "$src" -o "$obj" ||
			{ echo "bench/compile.sh: compiling $src failed" >&2; return 1; }
		t=$(tail -1 "$OUT/time")
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
		r=$((r + 1))
	done
	echo "$best"
}
if ! /usr/bin/env time -f '%U' -o /dev/null true 2>/dev/null; then
	echo "skipped: GNU time not installed (apt-get install time)"
	exit 0
fi

echo "compile time of $N events with two integer fields, one .c file, $($CC --version | head -1) -O2 -c (least of $RUNS):"
printf '   %-15s %9s %12s %11s %14s\n' flavour "user s" "ms/event" ".text B" ".text B/event"
report() { # name seconds objfile
	tb=$(text_bytes "$3")
	printf '   %-15s %9s %12s %11s %14s\n' "$1" "$2" \
		"$(awk -v s="$2" -v n="$N" 'BEGIN { printf "%.2f", s * 1000 / n }')" "$tb" \
		"$(awk -v t="$tb" -v n="$N" 'BEGIN { printf "%.1f", t / n }')"
	put compile "$1" user_s "$2" s
	put compile "$1" text_bytes "$tb" bytes
}
put param all compile_n "$N" events
for kind in same distinct class; do
	sfx=; [ $kind = same ] || sfx=_$kind
	d=$OUT/$kind
	gen "$d" $kind
	s=$(user_s "$d/ours.c" "$d/ours.o" -Wall -Wextra -Werror -Iinclude -I"$d" -DCONFIG_CBENCH=1) || exit 1
	report "ours$sfx" "$s" "$d/ours.o"
	if [ $have_lttng = 1 ]; then
		s=$(user_s "$d/lttng.c" "$d/lttng.o" -I"$d") || exit 1
		report "lttng$sfx" "$s" "$d/lttng.o"
	fi
done
[ $have_lttng = 1 ] || echo "   lttng skipped: liblttng-ust-dev not installed (apt-get install liblttng-ust-dev)"
exit 0
