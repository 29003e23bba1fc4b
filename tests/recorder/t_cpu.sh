#!/bin/sh
# The CPU of each record (TRACEPOINTS_CPU=1; tests/recorder/cpu/cpu.c moves
# itself to each CPU it may use, up to 4, and fires a fixed-size event and
# one with a string there, then a thread does so on the first one):
#  - every record holds the CPU the program asked for: tracepoint-dump's
#    text shows it as ftrace does ([003]), JSON as "cpu", Perfetto as a
#    "cpu" annotation (protoc), babeltrace2 as the event context cpu_id;
#  - in stream and flight mode, on the counter and the monotonic clock;
#  - the metadata says record_version = 2 and declares the event context,
#    which --repair takes as the recorder's; a version from a newer
#    recorder is refused in one line;
#  - without TRACEPOINTS_CPU the trace is as before (no record_version, no
#    context, no [CPU] column); merged with one that has CPUs, its lines
#    show [---];
#  - without rseq (GLIBC_TUNABLES=glibc.pthread.rseq=0) the records say
#    65535, shown as [---] and left out of JSON; TRACEPOINTS_CPU=yes is
#    reported and records no CPU.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -I"$S" -DCONFIG_CPU "$S/cpu.c" -o "$B/cpu" -lpthread -ldl
rec() { # dir env...: records a run of cpu into dir
	_d=$1
	shift
	env TRACEPOINTS='cpu:*' TRACEPOINTS_DIR="$_d" "$@" "$B/cpu" 4 >"$_d.cpus" 2>"$_d.err"
}
# lines "want cpu" of the text output (cpu: the [NNN] column, leading zeros off)
pairs() {
	sed -n 's/^[0-9.]* [0-9]* \[\([0-9-]*\)\] cpu:[a-z]* want=\([0-9]*\).*/\2 \1/p' | awk '{ c = $2; if (c != "---") c += 0; print $1, c }'
}
check_text() { # dir what: every record's CPU is the one asked for
	n=$(wc -l <"$1.cpus")
	"$DUMP" "$1" >"$1.txt" 2>"$1.dump.err"
	got=$(pairs <"$1.txt" | awk '$1 == $2' | wc -l)
	if [ "$n" -ge 1 ] && [ "$got" = $((2 * n + 2)) ] && [ "$(wc -l <"$1.txt")" = "$got" ] && [ ! -s "$1.dump.err" ]; then
		ok "$2: $got records on $n CPUs ($(tr '\n' ' ' <"$1.cpus")), each with its CPU ($(head -1 "$1.txt" | cut -d' ' -f3))"
	else fail "$2: $got of $((2 * n + 2)) records with their CPU"; head -4 "$1.txt" "$1.err" "$1.dump.err"; fi
}

rec "$B/t" TRACEPOINTS_CPU=1
check_text "$B/t" "stream mode"
meta=$(echo "$B"/t/*/metadata)
if grep -q '^	record_version = 2;$' "$meta" && grep -q 'integer { size = 16; align = 8; signed = false; } cpu_id;' "$meta"; then
	ok "metadata: record_version = 2 and the event context cpu_id"
else fail "metadata of a trace with CPUs"; fi
babeltrace2 "$B/t" >"$B/bt" 2>"$B/bt.err"
bt=$(sed -n 's/.*cpu:[a-z]*: {[^}]*}, { cpu_id = \([0-9]*\) }, { want = \([0-9]*\)[ ,].*/\2 \1/p' "$B/bt" | awk '$1 == $2' | wc -l)
if [ "$bt" = "$(wc -l <"$B/t.txt")" ] && [ "$bt" = "$(wc -l <"$B/bt")" ] && [ ! -s "$B/bt.err" ]; then ok "babeltrace2: { cpu_id = N } on each of the $bt records, the CPU asked for"
else fail "babeltrace2: $bt records with their cpu_id"; head -3 "$B/bt" "$B/bt.err"; fi
"$DUMP" --json "$B/t" >"$B/t.json"
js=$(sed -n 's/.*"cpu":\([0-9]*\),.*"args":{"want":\([0-9]*\)[,}].*/\2 \1/p' "$B/t.json" | awk '$1 == $2' | wc -l)
if [ "$js" = "$bt" ]; then ok "JSON: \"cpu\" on each of the $js events"
else fail "JSON: $js events with their cpu"; grep want "$B/t.json" | head -2; fi
if have protoc; then
	"$DUMP" --perfetto "$B/t" -o "$B/t.pf" &&
		protoc --decode=perfetto.protos.Trace -Itests/tools/perfetto tests/tools/perfetto/perfetto_min.proto <"$B/t.pf" >"$B/t.decoded" 2>"$B/pf.err"
	# the cpu annotation is the only unsigned one (want is an int)
	pf=$(awk '/track_event {/ { i = ""; u = "" } /int_value:/ { i = $2 } /uint_value:/ { u = $2 }
		/track_event {/ || /^}/ { if (i != "" && u != "") { print i, u }; i = ""; u = "" }' "$B/t.decoded" | awk '$1 == $2' | wc -l)
	if grep -q 'name: "cpu"' "$B/t.decoded" && [ "$pf" = "$bt" ] && [ ! -s "$B/pf.err" ]; then ok "Perfetto: a \"cpu\" annotation on each of the $pf events"
	else fail "Perfetto: $pf events with their cpu"; cat "$B/pf.err"; fi
else skip_part "Perfetto: protoc not installed (apt-get install protobuf-compiler)"; fi
if "$DUMP" --repair "$B/t" >"$B/repair.out" 2>&1 && ! grep -q 'where the recorder writes' "$B/repair.out"; then
	ok "--repair takes the event context as the recorder's"
else fail "--repair"; cat "$B/repair.out"; fi

rec "$B/f" TRACEPOINTS_CPU=1 TRACEPOINTS_MODE=flight
check_text "$B/f" "flight mode"
rec "$B/m" TRACEPOINTS_CPU=1 TRACEPOINTS_CLOCK=monotonic
check_text "$B/m" "monotonic clock"

# ---- without TRACEPOINTS_CPU: as before
rec "$B/off"
if ! grep -q 'record_version\|cpu_id' "$B"/off/*/metadata && "$DUMP" "$B/off" >"$B/off.txt" && ! grep -q '\[' "$B/off.txt" &&
	[ "$(wc -l <"$B/off.txt")" = $((2 * $(wc -l <"$B/off.cpus") + 2)) ] && ! babeltrace2 "$B/off" | grep -q cpu_id; then
	ok "without TRACEPOINTS_CPU: no record_version, no context, no [CPU] ($(wc -l <"$B/off.txt") records)"
else fail "without TRACEPOINTS_CPU"; head -2 "$B/off.txt"; fi
"$DUMP" "$B/t" "$B/off" >"$B/both.txt"
if [ "$(grep -c ' \[---\] ' "$B/both.txt")" = "$(wc -l <"$B/off.txt")" ] &&
	[ "$(pairs <"$B/both.txt" | awk '$2 != "---" && $1 == $2' | wc -l)" = "$(wc -l <"$B/t.txt")" ]; then
	ok "merged with a trace without CPUs: its lines show [---]"
else fail "merge of traces with and without CPUs"; head -3 "$B/both.txt"; fi

# ---- no rseq, a bad value, a newer version
rec "$B/norseq" TRACEPOINTS_CPU=1 GLIBC_TUNABLES=glibc.pthread.rseq=0
"$DUMP" "$B/norseq" >"$B/norseq.txt"
if [ "$(grep -c ' \[---\] cpu:' "$B/norseq.txt")" = "$(wc -l <"$B/norseq.txt")" ] && [ -s "$B/norseq.txt" ] &&
	babeltrace2 "$B/norseq" | grep -q '{ cpu_id = 65535 }' && ! "$DUMP" --json "$B/norseq" | grep -q '"cpu":'; then
	ok "without rseq: 65535 in the trace, [---] in text, no \"cpu\" in JSON"
else fail "without rseq"; head -2 "$B/norseq.txt"; fi
rec "$B/yes" TRACEPOINTS_CPU=yes
if grep -q 'TRACEPOINTS_CPU="yes" is neither 0 nor 1; the CPUs are not recorded' "$B/yes.err" && ! grep -q record_version "$B"/yes/*/metadata; then
	ok "TRACEPOINTS_CPU=yes: said, no CPUs"
else fail "TRACEPOINTS_CPU=yes"; cat "$B/yes.err"; fi
cp -R "$B/t" "$B/v3"
sed -i 's/^	record_version = 2;$/	record_version = 3;/' "$B"/v3/*/metadata
"$DUMP" "$B/v3" >"$B/v3.out" 2>"$B/v3.err"
if [ $? = 1 ] && [ ! -s "$B/v3.out" ] && grep -q 'record_version 3: written by a newer recorder than this tool knows (up to 2)' "$B/v3.err"; then
	ok "record_version = 3: refused in one line"
else fail "record_version 3"; cat "$B/v3.err"; fi
finish
