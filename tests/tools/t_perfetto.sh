#!/bin/sh
# Event kinds (<trace/event_kinds.h>: slices, scoped slices, counters,
# flows) and tracepoint-dump --perfetto, the native protobuf trace.
# tests/tools/perfetto/kinds.c records every kind on two threads; its trace is
#  - written with --perfetto, decoded by protoc against our minimal schema
#    (tests/tools/perfetto/perfetto_min.proto, Perfetto's field numbers), and
#    turned by canon.awk into one line per event as a Perfetto reader sees
#    it (interned names, delta clock, default tracks resolved; errors for
#    anything used before it was defined), which must equal the text
#    output turned into the same form (expect.awk): every event, value,
#    track and flow;
#  - written with --json: B/E for slices, C for counters, flow v2 fields;
#  - flows are per process: two runs in one session use the same ids
#    (100, 101) and get flows of their own, in JSON and protobuf, but
#    share the global flow 7 (TRACE_FLOW_GLOBAL);
# the scoped form is checked in C (kinds.c) and C++ (scoped.cc: end of
# block, return, exception); a compiled-out header with events of every
# kind leaves zero bytes (zero.c, as tests/events/t_event_zero_bytes.sh).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
need protoc protobuf-compiler
dump_tool
P="protoc --decode=perfetto.protos.Trace -I$S $S/perfetto_min.proto"
run "$B/cc.log" $CC -O2 $WARN $TPF -Iinclude -I$S -DCONFIG_WORK "$S/kinds.c" -o "$B/kinds" -lpthread -ldl ||
	{ fail "kinds.c does not build"; finish; }
TRACEPOINTS='work:*' TRACEPOINTS_DIR=$B/t "$B/kinds" >"$B/out" 2>"$B/err" || { cat "$B/err"; fail "kinds failed"; finish; }

# ---- protobuf: every event, value, track and flow
if "$DUMP" --clock=boottime "$B/t" >"$B/text" && [ "$(wc -l <"$B/text")" = 19 ]; then ok "19 events recorded"
else fail "events recorded: $(wc -l <"$B/text")"; fi
if "$DUMP" --perfetto "$B/t" -o "$B/t.pftrace" 2>"$B/dump.err" && [ ! -s "$B/dump.err" ]; then
	ok "--perfetto wrote $(wc -c <"$B/t.pftrace") bytes"
else fail "--perfetto failed"; cat "$B/dump.err"; fi
if $P <"$B/t.pftrace" >"$B/decoded" 2>"$B/protoc.err" && [ ! -s "$B/protoc.err" ]; then ok "protoc decodes it"
else fail "protoc cannot decode it"; head "$B/protoc.err"; fi
awk -f "$S/canon.awk" "$B/decoded" >"$B/canon"
if grep ERROR "$B/canon"; then fail "the decoded trace has errors"; else ok "names, clocks and tracks resolve"; fi
sed '/event_names {/,/}/d' "$B/decoded" | awk -f "$S/canon.awk" >"$B/canon.bad"
if grep -q 'ERROR: name iid' "$B/canon.bad"; then ok "control: a name that was never interned is caught"
else fail "control: canon.awk misses an uninterned name"; fi
grep -v '^#' "$B/canon" >"$B/got"
awk -f "$S/expect.awk" "$B/text" >"$B/want"
if diff "$B/want" "$B/got" >"$B/diff"; then ok "every event, value and flow as recorded ($(wc -l <"$B/got") lines)"
else fail "the protobuf trace differs from the recorded one"; cat "$B/diff"; fi
# messages of every length's size: the encoder alone (1 to 4 bytes), then
# events whose who takes 200 and 1,000 bytes (the recorder keeps at most
# 1,024 of a string)
if run "$B/pbl.log" $CC -O2 $WARN -Wno-unused-function -o "$B/pb_lengths" "$S/pb_lengths.c" && "$B/pb_lengths" >"$B/pbl.out"; then
	ok "nested messages of 0 to 2,100,000 bytes: every length right"
else fail "nested message lengths"; cat "$B/pbl.log" "$B/pbl.out"; fi
for n in 200 1000; do
	rm -rf "$B/tl"
	TRACEPOINTS='work:*' TRACEPOINTS_DIR=$B/tl "$B/kinds" $n >/dev/null 2>"$B/err" || { cat "$B/err"; fail "kinds $n failed"; }
	if ! "$DUMP" --perfetto "$B/tl" -o "$B/tl.pftrace" ||
		! $P <"$B/tl.pftrace" >"$B/tl.decoded" 2>"$B/protoc.err" || [ -s "$B/protoc.err" ]; then
		fail "who of $n bytes: protoc cannot decode the trace"
		head "$B/protoc.err"
		continue
	fi
	"$DUMP" --clock=boottime "$B/tl" | awk -f "$S/expect.awk" >"$B/tl.want"
	awk -f "$S/canon.awk" "$B/tl.decoded" | grep -v '^#' >"$B/tl.got"
	long=$(grep -c "string_value: \"$(printf "%${n}s" "" | tr ' ' w)\"" "$B/tl.decoded")
	if diff "$B/tl.want" "$B/tl.got" >"$B/tl.diff" && [ "$long" = 2 ]; then
		ok "who of $n bytes: every event as recorded, both strings whole"
	else fail "who of $n bytes: $long whole strings"; head "$B/tl.diff"; fi
done

pid=$(sed -n 's/^# process \([0-9]*\) "kinds"$/\1/p' "$B/canon")
if [ -n "$pid" ]; then ok "process track $pid \"kinds\""
else fail "no process track"; fi
tids=$(awk '$2 != "-" { print $2 }' "$B/text" | sort -u | tr '\n' ' ')
got=$(sed -n "s/^# thread $pid \\([0-9]*\\) \"kinds\"$/\\1/p" "$B/canon" | sort -u | tr '\n' ' ')
if [ "$got" = "$tids" ] && [ "$(echo "$got" | wc -w)" = 2 ]; then ok "a thread track per thread: $got"
else fail "thread tracks: $got, threads: $tids"; fi
if [ "$(grep -c "^# counter $pid " "$B/canon")" = 3 ] && grep -q "^# counter $pid heap.fill$" "$B/canon"; then ok "three counter tracks below the process"
else fail "counter tracks: $(grep '^# counter' "$B/canon" | tr '\n' ' ')"; fi
if grep -q 'double_counter_value: 0.5' "$B/decoded" && grep -q 'pointer_value:' "$B/decoded" && grep -q 'int_value: -100' "$B/decoded" &&
	grep -q 'string_value: "outer"' "$B/decoded" && grep -q 'uint_value: 100' "$B/decoded"; then ok "value kinds: double, pointer, int, uint, string"
else fail "a value kind is missing"; fi
if [ "$(grep -c 'flow_ids:' "$B/decoded")" = 7 ]; then ok "7 flow steps"
else fail "flow steps: $(grep -c 'flow_ids:' "$B/decoded")"; fi

"$DUMP" --summary "$B/t" >"$B/summary"
if grep -q ' work:handle_begin (slice begin, flow)$' "$B/summary" && grep -q ' work:queued (counter)$' "$B/summary" &&
	grep -q ' work:hop (global flow)$' "$B/summary" &&
	grep -q ' work:note$' "$B/summary"; then ok "--summary names the kinds"
else fail "--summary kinds"; cat "$B/summary"; fi

# ---- JSON: B/E/C and flow v2
"$DUMP" --json "$B/t" >"$B/t.json"
if [ "$(grep -c '"ph":"B"' "$B/t.json")" = 4 ] && [ "$(grep -c '"ph":"E"' "$B/t.json")" = 4 ] &&
	[ "$(grep -c '"ph":"C"' "$B/t.json")" = 4 ]; then ok "JSON: 4 B, 4 E, 4 C"
else fail "JSON phases"; fi
if grep -q '"name":"batch","cat":"work","ph":"B"' "$B/t.json"; then ok "JSON: the slice is named batch"
else fail "JSON slice name"; fi
if grep -q '"name":"submit".*"args":{"id":100,"prio":1},"bind_id":"0x1","flow_out":true}' "$B/t.json" &&
	grep -q '"name":"handle","cat":"work","ph":"B".*"args":{"id":100},"bind_id":"0x1","flow_out":true,"flow_in":true}' "$B/t.json"; then ok "JSON: flow 100 from submit to handle"
else fail "JSON flows"; fi

# ---- flows are per process, unless global
if ! TRACEPOINTS='work:*' TRACEPOINTS_DIR=$B/two "$B/kinds" >/dev/null 2>&1 ||
	! TRACEPOINTS='work:*' TRACEPOINTS_DIR=$B/two "$B/kinds" >/dev/null 2>&1; then fail "two runs in one session"; fi
if TRACEPOINTS=list "$B/kinds" 2>&1 | grep -q '^work:hop (unsigned long id) \[flow global\]$' &&
	grep -q 'kind: instant flow global' "$B"/two/*/metadata; then ok "TRACE_FLOW_GLOBAL: [flow global] in the list and the metadata"
else fail "TRACE_FLOW_GLOBAL's kind"; fi
# flow -> "pid:user id" of its steps (JSON: bind_id, the pid, args' id)
"$DUMP" --json "$B/two" | sed -n 's/.*"pid":\([0-9]*\),.*"args":{"id":\([0-9]*\)[,}].*"bind_id":"\(0x[0-9a-f]*\)".*/\3 \1:\2/p' |
	sort -u >"$B/two.flows"
# per flow: how many processes, which user id
per=$(awk '{ split($2, a, ":"); if (!(($1, a[1]) in s)) { s[$1, a[1]] = 1; n[$1]++; id[$1] = a[2] } }
	END { for (f in n) print n[f] ":" id[f] }' "$B/two.flows" | sort | tr '\n' ' ')
if [ "$per" = "1:100 1:100 1:101 1:101 2:7 " ]; then
	ok "JSON: 5 flows, each of 100 and 101 once per process, the global 7 across both"
else fail "JSON flows of two processes (processes:id per flow): $per"; cat "$B/two.flows"; fi
"$DUMP" --perfetto "$B/two" -o "$B/two.pftrace" && $P <"$B/two.pftrace" >"$B/two.decoded" 2>/dev/null
if [ "$(grep -c 'flow_ids:' "$B/two.decoded")" = 14 ] &&
	[ "$(sed -n 's/.*flow_ids: //p' "$B/two.decoded" | sort | uniq -c | awk '{ print $1 }' | sort -n | tr '\n' ' ')" = "2 3 3 3 3 " ]; then
	ok "protobuf: 14 flow steps in 5 flows (3 steps each, the global one 2)"
else fail "protobuf flows of two processes: $(sed -n 's/.*flow_ids: //p' "$B/two.decoded" | sort | uniq -c | tr '\n' ' ')"; fi
if have python3; then
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$B/t.json"; then ok "JSON parses"
	else fail "JSON does not parse"; fi
fi

# ---- mistakes
"$DUMP" --perfetto "$B/none" -o "$B/none.pftrace" 2>"$B/none.err"
if [ $? = 1 ] && grep -q 'No such file' "$B/none.err"; then ok "a missing directory: exit 1 with a message"
else fail "missing directory"; fi

if have script; then # a terminal as standard output
	script -eqc "$DUMP --perfetto $B/t" /dev/null >"$B/tty.out" 2>&1
	if [ $? = 2 ] && grep -q 'give -o FILE.pftrace' "$B/tty.out"; then ok "--perfetto to a terminal: refused, exit 2"
	else fail "--perfetto to a terminal"; cat "$B/tty.out"; fi
fi
if have babeltrace2; then # the kind comments are only comments to it
	if [ "$(babeltrace2 "$B/t" 2>"$B/bt.err" | wc -l)" = 19 ] && [ ! -s "$B/bt.err" ]; then ok "babeltrace2 reads the 19 events"
	else fail "babeltrace2"; head "$B/bt.err"; fi
fi

# ---- trace_processor, when installed (it is not a Debian package)
if have trace_processor_shell; then
	echo "select count(*) from slice;" >"$B/q.sql"
	if trace_processor_shell -q "$B/q.sql" "$B/t.pftrace" >"$B/tp.out" 2>&1; then ok "trace_processor_shell reads it"
	else fail "trace_processor_shell"; cat "$B/tp.out"; fi
else skip_part "trace_processor_shell not installed"; fi

# ---- the scoped form in C++
if have "$CXX"; then
	run "$B/cxx.log" $CXX -std=c++11 -O2 $WARN -Wshadow $TPF -Iinclude -I$S -DCONFIG_WORK "$S/scoped.cc" \
		-o "$B/scoped" -lpthread -ldl || fail "scoped.cc does not build"
	TRACEPOINTS='work:*' TRACEPOINTS_DIR=$B/sc "$B/scoped" >/dev/null 2>&1
	"$DUMP" "$B/sc" | awk '{ $1 = ""; $2 = ""; print }' | sed 's/^ *//' >"$B/sc.text"
	printf '%s\n' 'work:batch_begin n=1 who=block' 'work:queued items=1' 'work:batch_end n=1 who=block' \
		'work:batch_begin n=2 who=early' 'work:batch_end n=2 who=early' \
		'work:batch_begin n=3 who=thrown' 'work:batch_end n=3 who=thrown' 'work:queued items=3' >"$B/sc.want"
	if diff "$B/sc.want" "$B/sc.text"; then ok "C++: scoped slices end at the block's end, a return and an exception"
	else fail "C++ scoped slices"; fi
fi

# ---- compiled out: zero bytes (tests/events/t_event_zero_bytes.sh's checks)
mkdir -p "$B/z/free" "$B/z/nocreate" # twins of the same file name (it is in the object)
sed -e '/TRACE-ONLY \*\/$/d' "$S/zero.c" >"$B/z/free/zero.c" && sed -e '/CREATE_TRACE_POINTS/d' "$S/zero.c" >"$B/z/nocreate/zero.c"
secs() { readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) *[A-Z_]* *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\).*/\1 \2/p'; }
same() { # what a b: the .text bytes (or size), sections, symbols and strings of objects a and b
	objcopy -O binary --only-section=.text "$2" "$2.text"; objcopy -O binary --only-section=.text "$3" "$3.text"
	if [ "$1" = bytes ]; then cmp -s "$2.text" "$3.text" || return 1
	else [ "$(wc -c <"$2.text")" = "$(wc -c <"$3.text")" ] || return 1; fi
	[ "$(secs "$2")" = "$(secs "$3")" ] && [ "$(nm "$2")" = "$(nm "$3")" ] || return 1
	if [ "$1" = bytes ]; then [ "$(strings -a "$2")" = "$(strings -a "$3")" ]
	else [ "$(strings -a "$2" | grep -c 'batch\|handle\|queued\|submit\|heap\|tp__')" = 0 ]; fi
}
for opt in -O2 -O0; do
	if ! $CC $opt $WARN $TPF -Iinclude -I$S -c "$S/zero.c" -o "$B/z/zero$opt.o" ||
		! $CC $opt $WARN $TPF -Iinclude -I$S -c "$B/z/nocreate/zero.c" -o "$B/z/nocreate$opt.o" ||
		! $CC $opt $WARN $TPF -c "$B/z/free/zero.c" -o "$B/z/free$opt.o"; then
		fail "zero.c does not build ($opt)"; continue
	fi
	if same bytes "$B/z/zero$opt.o" "$B/z/nocreate$opt.o"; then ok "compiled out, $opt: the define passes add nothing"
	else fail "compiled out, $opt: differs from the plain consumer"; fi
done
if same size "$B/z/zero-O2.o" "$B/z/free-O2.o"; then ok "compiled out, -O2: as if no trace call were written"
else fail "compiled out, -O2: differs from the trace-free twin"; fi
if $CC -O2 $WARN $TPF -Iinclude -I$S -DCONFIG_WORK -c "$S/zero.c" -o "$B/z/on.o" &&
	! same size "$B/z/on.o" "$B/z/free-O2.o"; then ok "control: compiled in, it differs"
else fail "control: the checks cannot see events"; fi
finish
