#!/bin/sh
# A compiled-out subsystem leaves no byte behind.  tests/core/zero_bytes/zb.c fires
# a compiled-out subsystem with trace_<name>(), trace_lazy() and a block
# guarded by trace_<name>_enabled(), and holds DEFINE_TRACE for it.  A twin
# source is derived from it with sed (event header include, DEFINE_TRACE,
# every trace_* line and the guarded block removed).  Built with $CC -O2 -c:
#  - .text of both objects is byte-identical (objcopy -O binary | cmp), and
#    so are the section lists (name, type, size) and the nm symbol lists;
#  - nm shows no __tracepoint_* / tp__* symbol (defined or undefined);
#  - strings shows no tracepoint name, readelf -S no tp__tracepoints*,
#    tp__jump or .note.tracepoint section.
#  - a file that includes only the event header preprocesses to at most
#    20 KB (the machinery and its libc headers are not read).
# Cases: CONFIG_ZB undefined, -DCONFIG_ZB=0, and -DCONFIG_ZB with the global
# -DCONFIG_TRACEPOINTS_OFF.  A control build with -DCONFIG_ZB alone must show
# all of these traces, proving that the checks can see them.
# Then the whole program off (-DCONFIG_TRACEPOINTS_OFF), C and C++: a file
# that includes <tracepoint.h> alone and the TRACEPOINT_SINK_MAIN recorder
# file alone compile to 0 bytes (size) and no symbol (nm); off_api.c
# (every tracepoint_*() function called) and off_sink.c (the recorder file,
# every trace_recorder_*() function called, old names too) to their own
# function only: nm lists it and nothing else (no undefined symbol), and
# no .data, .bss or .rodata.  Their control builds, without the switch,
# must fail these checks.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
mkdir -p "$B/twin" || exit 1

sed -e '/#include "ev_zb.h"/d' -e '/DEFINE_TRACE/d' -e '/ZB-BLOCK-BEGIN/,/ZB-BLOCK-END/d' \
	-e '/trace_/d' "$S/zb.c" >"$B/twin/zb.c"
if grep -n 'trace\|DEFINE_TRACE\|ev_zb' "$B/twin/zb.c" | grep -v '^[0-9]*: \*\|^[0-9]*:/\*'; then
	fail "the sed-derived twin still mentions tracing (lines above)"
fi
echo "twin source: $B/twin/zb.c ($(wc -l <"$B/twin/zb.c") lines, from $(wc -l <"$S/zb.c"))"

# The twin does not include the event header, so it must not need tracepoint.h.
if ! $CC -O2 $WARN $TPF -c "$B/twin/zb.c" -o "$B/twin/zb.o" >"$B/twin/cc.log" 2>&1; then
	fail "the twin does not compile:"; cat "$B/twin/cc.log"; exit 1
fi

sections() { readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) *\([A-Z_]*\) *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\).*/\1 \2 \3/p'; }
text() { objcopy -O binary --only-section=.text "$1" "$2"; }

report() { echo "   $c: $1"; }

# check <case> <expect: clean|traced> <cflags...>
check() {
	c=$1 expect=$2; shift 2
	d=$B/$c
	mkdir -p "$d"
	echo "== $c: $CC -O2 $TPF $*"
	if ! $CC -O2 $WARN $TPF -Iinclude -I"$S" "$@" -c "$S/zb.c" -o "$d/zb.o" >"$d/cc.log" 2>&1; then
		fail "$c: does not compile:"; cat "$d/cc.log"; return
	fi
	bad=0
	text "$d/zb.o" "$d/text.bin"
	text "$B/twin/zb.o" "$d/twin-text.bin"
	if cmp -s "$d/text.bin" "$d/twin-text.bin"; then
		r=".text identical to the twin's ($(wc -c <"$d/text.bin") bytes)"
	else
		r=".text differs from the twin's ($(wc -c <"$d/text.bin") vs $(wc -c <"$d/twin-text.bin") bytes)"; bad=$((bad + 1))
	fi
	report "$r"
	sections "$d/zb.o" >"$d/sections"
	sections "$B/twin/zb.o" >"$d/twin-sections"
	if cmp -s "$d/sections" "$d/twin-sections"; then
		report "section list (name type size) identical to the twin's"
	else
		report "section list differs from the twin's: $(diff "$d/twin-sections" "$d/sections" | grep '^[<>]' | tr '\n' ' ')"; bad=$((bad + 1))
	fi
	nm "$d/zb.o" >"$d/nm"
	nm "$B/twin/zb.o" >"$d/twin-nm"
	if cmp -s "$d/nm" "$d/twin-nm"; then
		report "nm symbol list identical to the twin's"
	else
		report "nm symbol list differs from the twin's"; bad=$((bad + 1))
	fi
	if grep -E '__tracepoint_|tp__' "$d/nm" >"$d/nm-tp"; then
		report "nm shows tracepoint symbols: $(awk '{print $NF}' "$d/nm-tp" | tr '\n' ' ')"; bad=$((bad + 1))
	else
		report "nm shows no __tracepoint_* / tp__* symbol"
	fi
	if strings -a "$d/zb.o" | grep -E 'zb_event_|tracepoint' >"$d/strings-tp"; then
		report "strings shows: $(sort -u "$d/strings-tp" | tr '\n' ' ')"; bad=$((bad + 1))
	else
		report "strings shows no tracepoint name (nor 'tracepoint')"
	fi
	if grep -E 'tp__|\.note\.tracepoint' "$d/sections" >"$d/sections-tp"; then
		report "readelf -S shows: $(awk '{print $1}' "$d/sections-tp" | tr '\n' ' ')"; bad=$((bad + 1))
	else
		report "readelf -S shows no tp__* or .note.tracepoint section"
	fi
	printf '#include "ev_zb.h"\n' >"$d/include_only.c"
	pp=$($CC -E $TPF -Iinclude -I"$S" "$@" "$d/include_only.c" | wc -c)
	if [ "$pp" -le 20480 ]; then
		report "#include \"ev_zb.h\" alone preprocesses to $pp bytes (<= 20 KB)"
	else
		report "#include \"ev_zb.h\" alone preprocesses to $pp bytes (> 20 KB)"; bad=$((bad + 1))
	fi
	if [ "$expect" = clean ] && [ $bad -ne 0 ]; then
		fail "$c: the compiled-out build left $bad kind(s) of trace behind"
	elif [ "$expect" = traced ] && [ $bad -lt 7 ]; then
		fail "$c: the compiled-in control passed $((7 - bad)) check(s) meant to catch it"
	elif [ "$expect" = clean ]; then
		ok "$c: no byte, symbol, string or section left behind, and cheap to include"
	else
		ok "$c: all 7 checks see the compiled-in tracepoints"
	fi
}

check out-undefined clean
check out-zero clean -DCONFIG_ZB=0
check out-global-off clean -DCONFIG_ZB -DCONFIG_TRACEPOINTS_OFF
check control-compiled-in traced -DCONFIG_ZB

# off_check <case> <expect: clean|traced> <lang> <source> <own symbols> <flags...>
off_check() {
	c=$1 expect=$2 lang=$3 src=$4 own=$5; shift 5
	d=$B/$c
	mkdir -p "$d"
	cc=$CC
	[ "$lang" = c++ ] && cc=$CXX
	if ! $cc -x "$lang" -O2 $WARN $TPF -Iinclude "$@" -c "$src" -o "$d/o.o" >"$d/cc.log" 2>&1; then
		fail "$c: does not compile:"; cat "$d/cc.log"; return
	fi
	bytes=$(size "$d/o.o" | awk 'NR == 2 { print $1 + $2 + $3 }')
	nm "$d/o.o" | awk '{ print $NF }' | sort >"$d/nm"
	: >"$d/own"
	[ -z "$own" ] || printf '%s\n' $own | sort >"$d/own"
	data=$(sections "$d/o.o" | awk '$1 ~ /^\.(data|bss|rodata)/ && $3 != "000000" { print $1 }' | tr '\n' ' ')
	r="$bytes bytes, $(grep -c . "$d/nm") symbols"
	if cmp -s "$d/nm" "$d/own" && [ -z "$data" ] && { [ -n "$own" ] || [ "$bytes" -eq 0 ]; }; then
		clean=1
	else
		clean=0
	fi
	if [ "$expect" = clean ] && [ $clean = 1 ]; then
		ok "$c: $r: ${own:-nothing}"
	elif [ "$expect" = clean ]; then
		fail "$c: $r, data sections: ${data:-none}; symbols: $(tr '\n' ' ' <"$d/nm")"
	elif [ $clean = 0 ]; then
		ok "$c: control: $r, as the checks must see"
	else
		fail "$c: control: $r, the checks see nothing"
	fi
}
printf '#include <tracepoint.h>\n' >"$B/tracepoint_h.c"
printf '#define TRACEPOINT_SINK_MAIN\n#include <trace/sink.h>\n' >"$B/sink_main.c"
for lang in c c++; do
	off_check "off-tracepoint-h-$lang" clean $lang "$B/tracepoint_h.c" "" -DCONFIG_TRACEPOINTS_OFF
	off_check "off-sink-main-$lang" clean $lang "$B/sink_main.c" "" -DCONFIG_TRACEPOINTS_OFF
done
off_check off-api clean c "$S/off_api.c" tp_api -DCONFIG_TRACEPOINTS_OFF
off_check off-api-c++ clean c++ "$S/off_api.c" _Z6tp_apiv -DCONFIG_TRACEPOINTS_OFF
off_check off-sink clean c "$S/off_sink.c" s -DCONFIG_TRACEPOINTS_OFF
off_check off-sink-c++ clean c++ "$S/off_sink.c" _Z1sv -DCONFIG_TRACEPOINTS_OFF
off_check control-api traced c "$S/off_api.c" tp_api
off_check control-sink-main traced c "$B/sink_main.c" ""

finish
