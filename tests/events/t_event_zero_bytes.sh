#!/bin/sh
# A compiled-out event header leaves zero bytes even in the file that
# defines its events (CREATE_TRACE_POINTS, so define_trace.h runs all its
# passes).  tests/events/event_zero_bytes/zbe.c is compared with two twins:
#  - "nocreate": the same file without CREATE_TRACE_POINTS (a plain
#    consumer of the compiled-out header): .text bytes, section list (name
#    size), nm list and strings must be identical, at -O2 and -O0, so the
#    define_trace.h passes add nothing at all;
#  - "free": every TRACE-ONLY line deleted (no event header at all): at -O2
#    the section list, nm list and .text size must be identical, and there
#    must be no __tracepoint_*/tp__ev_*/tp__* symbol, no event, field or
#    class string and no tp__tracepoints* section.  (.text bytes are not
#    compared here: gcc may order a compare's operands differently once a
#    compiled-out trace_x() stub was inlined; that is tracepoint.h's layer,
#    tested by t_zero_bytes.sh, and the size is the same.)
# Cases: CONFIG_EVF undefined, =0, and -DCONFIG_EVF -DCONFIG_TRACEPOINTS_OFF.
# A control with -DCONFIG_EVF must fail the checks.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
mkdir -p "$B/free" "$B/nocreate" || exit 1

sed -e '/TRACE-ONLY \*\/$/d' "$S/zbe.c" >"$B/free/zbe.c"
sed -e '/CREATE_TRACE_POINTS/d' "$S/zbe.c" >"$B/nocreate/zbe.c"
sections() { readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) *[A-Z_]* *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\).*/\1 \2/p'; }

# compare <dir> <obj> <twin-obj> <bytes|size>; prints differences, returns their count
compare() {
	d=$1 o=$2 t=$3 how=$4 n=0
	objcopy -O binary --only-section=.text "$o" "$d/t1"; objcopy -O binary --only-section=.text "$t" "$d/t2"
	if [ $how = bytes ]; then
		cmp -s "$d/t1" "$d/t2" || { echo "   .text differs"; n=$((n + 1)); }
	else
		[ "$(wc -c <"$d/t1")" = "$(wc -c <"$d/t2")" ] || { echo "   .text size differs ($(wc -c <"$d/t1") vs $(wc -c <"$d/t2"))"; n=$((n + 1)); }
	fi
	sections "$o" >"$d/s1"; sections "$t" >"$d/s2"
	cmp -s "$d/s1" "$d/s2" || { echo "   sections differ: $(diff "$d/s2" "$d/s1" | grep '^[<>]' | head -8 | tr '\n' ' ')"; n=$((n + 1)); }
	nm "$o" >"$d/n1"; nm "$t" >"$d/n2"
	cmp -s "$d/n1" "$d/n2" || { echo "   nm differs: $(diff "$d/n2" "$d/n1" | grep '^[<>]' | head -5 | tr '\n' ' ')"; n=$((n + 1)); }
	if [ $how = bytes ]; then
		strings -a "$o" >"$d/str1"; strings -a "$t" >"$d/str2"
		cmp -s "$d/str1" "$d/str2" || { echo "   strings differ"; n=$((n + 1)); }
	else
		grep -Eq '__tracepoint_|tp__ev_|tp__' "$d/n1" && { echo "   tracing symbols in nm"; n=$((n + 1)); }
		strings -a "$o" | grep -Eq 'evf_|evp_|lock_class|__get_str|__data_loc|__print_' && { echo "   event strings present"; n=$((n + 1)); }
		grep -q 'tp__' "$d/s1" && { echo "   tp__* sections"; n=$((n + 1)); }
	fi
	return $n
}

check() { # case expect flags...
	c=$1 expect=$2; shift 2
	for opt in -O2 -O0; do
		d=$B/$c$opt; mkdir -p "$d"
		if ! $CC $opt $WARN $TPF -Iinclude -Itests/include "$@" -c "$S/zbe.c" -o "$d/zbe.o" 2>"$d/cc.log" ||
			! $CC $opt $WARN $TPF -Iinclude -Itests/include "$@" -c "$B/nocreate/zbe.c" -o "$d/nocreate.o" 2>>"$d/cc.log" ||
			! $CC $opt $WARN $TPF -c "$B/free/zbe.c" -o "$d/free.o" 2>>"$d/cc.log"; then
			fail "$c$opt does not build"; cat "$d/cc.log"; continue
		fi
		echo "== $c$opt: against the nocreate twin"
		compare "$d" "$d/zbe.o" "$d/nocreate.o" bytes; b1=$?
		b2=0
		if [ $opt = -O2 ]; then
			echo "== $c$opt: against the trace-free twin"
			compare "$d" "$d/zbe.o" "$d/free.o" size; b2=$?
		fi
		if [ $expect = clean ] && [ $((b1 + b2)) -ne 0 ]; then fail "$c$opt left $((b1 + b2)) kind(s) of trace"
		elif [ $expect = traced ] && { [ $b1 -lt 4 ] || { [ $opt = -O2 ] && [ $b2 -lt 6 ]; }; }; then fail "$c$opt: the control passed checks meant to catch it"
		else ok "$c$opt ($expect)"; fi
	done
}
check out-undefined clean
check out-zero clean -DCONFIG_EVF=0
check out-global-off clean -DCONFIG_EVF -DCONFIG_TRACEPOINTS_OFF
check control traced -DCONFIG_EVF
finish
