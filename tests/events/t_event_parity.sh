#!/bin/sh
# Kernel TRACE_EVENT parity seen by the readers (tests/include/events/ev_parity.h,
# tests/events/event_parity/parity_prog.c):
#  - tracepoint-dump --text prints __print_symbolic, __print_flags and
#    __print_hex as the kernel does (names, "A|B|0x10", "ca fe 07"), and
#    events without fields or arguments; a value whose table does not fit
#    its field (no labels in the metadata) from the TP_printk text, in hex
#    when it has no label, as the kernel prints it;
#  - tracepoint-dump --json gives the names as strings and a dynamic array
#    as a JSON array, without its length field;
#  - tracepoint-dump --perfetto (decoded by protoc) carries the names as
#    string annotations and a dynamic array as array values, no length;
#  - babeltrace2 reads the same trace: the symbolic field as its enum
#    label, the dynamic array as a sequence;
#  - the conditions kept only the records they accept;
#  - TRACEPOINTS=list-format prints the kernel's format-file layout,
#    each block after a system: line;
#  - a TP_printk of 40 KB (a 1000-label table) is recorded and read, the
#    label from the text (the table is too big for the metadata's enum);
#  - the example (examples/gc/) prints its GC states and reasons by name,
#    and compiled out it has no tracepoint left.
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -Itests/include -DCONFIG_EVF "$S/parity_prog.c" -o "$B/parity_prog" -lpthread -ldl

rm -rf "$B/tr"
TRACEPOINTS='evp:*' TRACEPOINTS_DIR=$B/tr "$B/parity_prog" 2>"$B/prog.err" || { fail "parity_prog"; cat "$B/prog.err"; }
"$DUMP" --text "$B/tr" >"$B/text" 2>"$B/text.err" || { fail "tracepoint-dump --text exited $?"; cat "$B/text.err"; }
sed 's/^[0-9.]* [0-9]* //' "$B/text" >"$B/text.short"
cat >"$B/text.want" <<'END'
evp:evp_gc state=sweep flags=READ|EXEC data=ca fe 07 tag=gc
evp:evp_gc state=0x9 flags=0x10 data= tag=odd
evp:evp_odd v=1
evp:evp_odd v=3
evp:evp_big v=20
evp:evp_hexv hex=0x1f
evp:evp_fn v=1
evp:evp_tick
evp:evp_nofield nothing
evp:evp_small c=0x7
END
if cmp -s "$B/text.want" "$B/text.short"; then ok "text: symbolic, flags, hex, conditions, empty events"
else fail "text output"; diff "$B/text.want" "$B/text.short"; fi

"$DUMP" --json "$B/tr" >"$B/json" 2>"$B/json.err" || { fail "tracepoint-dump --json exited $?"; cat "$B/json.err"; }
if grep -q '"args":{"state":"sweep","flags":"READ|EXEC","data":\[202,254,7\],"tag":"gc","nums":\[-1,3\]}' "$B/json" &&
	grep -q '"args":{"state":9,"flags":"0x10","data":\[\],"tag":"odd","nums":\[-1,0\]}' "$B/json" &&
	grep -q '"name":"evp_tick","cat":"evp".*"args":{}}' "$B/json" && ! grep -q '_len_' "$B/json"; then
	ok "JSON: names as strings, dynamic arrays as arrays"
else fail "JSON output"; grep evp_gc "$B/json"; fi
if have python3; then
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$B/json"; then ok "the JSON parses"
	else fail "the JSON does not parse"; fi
fi

if have protoc; then
	"$DUMP" --perfetto "$B/tr" >"$B/pf" 2>"$B/pf.err" || { fail "tracepoint-dump --perfetto exited $?"; cat "$B/pf.err"; }
	protoc --decode=perfetto.protos.Trace -Itests/tools/perfetto tests/tools/perfetto/perfetto_min.proto \
		<"$B/pf" >"$B/pf.txt" 2>"$B/protoc.err"
	if grep -q 'string_value: "sweep"' "$B/pf.txt" && grep -q 'string_value: "READ|EXEC"' "$B/pf.txt" &&
		grep -A2 'array_values {' "$B/pf.txt" | grep -q 'uint_value: 254' &&
		[ "$(grep -c 'debug_annotations {' "$B/pf.txt")" = 16 ]; then # the fields, no length field
		ok "Perfetto protobuf (decoded by protoc): names as strings, dynamic arrays as arrays"
	else fail "Perfetto protobuf"; cat "$B/protoc.err"; fi
else
	skip_part "protoc not installed (protobuf-compiler): the Perfetto output is not decoded"
fi

babeltrace2 "$B/tr" >"$B/bt" 2>"$B/bt.err" || { fail "babeltrace2 exited $?"; cat "$B/bt.err"; }
if grep -q 'evp:evp_gc: .*state = ( "sweep" : container = 2 ), .*data = \[ \[0\] = 202, \[1\] = 254, \[2\] = 7 \], tag = "gc", nums = \[ \[0\] = -1, \[1\] = 3 \]' "$B/bt" &&
	grep -q 'evp:evp_gc: .*data = \[ \], tag = "odd"' "$B/bt" &&
	grep -q 'evp:evp_small: .*{ c = 7 }' "$B/bt" && [ "$(grep -c 'evp:' "$B/bt")" = 10 ]; then
	ok "babeltrace2: the enum label and the sequences, 10 events"
else fail "babeltrace2 output"; cat "$B/bt"; fi

TRACEPOINTS=list-format "$B/parity_prog" >"$B/format" 2>&1 || fail "list-format exited $?"
if grep -q '^name: evp_gc$' "$B/format" && grep -q '^ID: [0-9]*$' "$B/format" &&
	[ "$(grep -B1 '^name: ' "$B/format" | grep -c '^system: evp$')" = 8 ] &&
	grep -q "^	field:__data_loc unsigned char\[\] data;	offset:8;	size:4;	signed:0;$" "$B/format" &&
	grep -q '^print fmt: "v=%d", REC->v$' "$B/format" && [ "$(grep -c '^name: ' "$B/format")" = 8 ]; then
	ok "TRACEPOINTS=list-format: 8 events in the format-file layout"
else fail "list-format"; cat "$B/format"; fi

# a TP_printk of about 40 KB (a 1000-label table): recorded, read by both
mkdir -p "$B/ev"
{
	printf '#undef TRACE_SYSTEM\n#define TRACE_SYSTEM big\n'
	printf '#if !defined(_BIG_H) || defined(TRACE_HEADER_MULTI_READ)\n#define _BIG_H\n#include <tracepoint.h>\n'
	printf 'TRACE_EVENT(bigtab, TP_PROTO(int s), TP_ARGS(s), TP_STRUCT__entry(__field(int, s)),\n'
	printf '\tTP_fast_assign(__entry->s = s;), TP_printk("s=%%s", __print_symbolic(__entry->s'
	awk 'BEGIN { for (i = 0; i < 1000; i++) printf ", { %d, \"label_number_%d_padding\" }", i, i }'
	printf ')));\n#endif\n#undef TRACE_INCLUDE_PATH\n#undef TRACE_INCLUDE_FILE\n'
	printf '#define TRACE_INCLUDE_PATH ev\n#define TRACE_INCLUDE_FILE big\n#include <trace/define_trace.h>\n'
} >"$B/ev/big.h"
cc_build -I"$B" "$S/big_prog.c" -o "$B/big_prog" -lpthread -ldl
rm -rf "$B/bigtr"
TRACEPOINTS='big:*' TRACEPOINTS_DIR=$B/bigtr "$B/big_prog" 2>"$B/big.err"; rc=$?
if [ $rc = 0 ] && "$DUMP" --text "$B/bigtr" 2>&1 | grep -q ' big:bigtab s=label_number_999_padding$' &&
	babeltrace2 "$B/bigtr" 2>&1 | grep -q 'big:bigtab: .*{ s = 999 }'; then
	ok "a 40 KB TP_printk: recorded, its table too big for the metadata block, read by both"
else fail "a 40 KB TP_printk (exit $rc)"; cat "$B/big.err"; fi

cc_build -Iexamples -DCONFIG_GCTRACE examples/gc/gc.c -o "$B/gc" -lpthread -ldl
cc_build -Iexamples examples/gc/gc.c -o "$B/gc_off" -lpthread -ldl
rm -rf "$B/gct"
TRACEPOINTS='gc:*' TRACEPOINTS_DIR=$B/gct "$B/gc" >/dev/null 2>&1 || fail "examples/gc/gc exited $?"
"$DUMP" --text "$B/gct" >"$B/gc.txt" 2>&1
if grep -q ' gc:gc_phase state=mark reasons=alloc_failed|low_memory heap_bytes=14600$' "$B/gc.txt" &&
	grep -q ' gc:gc_phase state=idle reasons= heap_bytes=208$' "$B/gc.txt" &&
	[ "$(grep -c gc_free_big "$B/gc.txt")" = 3 ] && ! nm "$B/gc_off" | grep -q __tracepoint_; then
	ok "examples/gc: states and reasons by name; compiled out, no tracepoint"
else fail "examples/gc"; cat "$B/gc.txt"; fi
finish
