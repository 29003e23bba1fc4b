#!/bin/sh
# Our traces next to other tracers' traces of the same run
# (tests/tools/lineup/lineup.c: our lineup:step events with even numbers,
# another tracer's events with the odd ones between them, 200 us apart):
#  - CTF: the clock is absolute (Unix epoch) with the boot's uuid, as
#    LTTng's: `babeltrace2 OURS LTTNG` merges an LTTng-UST trace of the same
#    run in time order (where lttng and liblttng-ust-dev are installed; else
#    two of our traces recorded at once); tracepoint-dump still reads a
#    trace of the old form (absolute = FALSE, no clock uuid).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
need babeltrace2
dump_tool
run "$B/cc.log" $CC -O2 $WARN $TPF -Iinclude -I$S -DCONFIG_LINEUP "$S/lineup.c" "$S/none.c" -o "$B/lineup" -lpthread -ldl ||
	{ fail "lineup.c does not build"; finish; }
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/t "$B/lineup" 5 2>"$B/err" || { cat "$B/err"; fail "lineup failed"; finish; }
meta=$(echo "$B"/t/*/metadata)

# ---- the clock: absolute, the boot's uuid, Unix-epoch offset
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
clk=$(sed -n '/^clock {/,/^};/p' "$meta")
if echo "$clk" | grep -q 'absolute = TRUE;'; then ok "the clock is absolute"
else fail "clock: $clk"; fi
if [ -n "$boot" ] && echo "$clk" | grep -q "uuid = \"$boot\";"; then ok "the clock's uuid is the boot id"
else fail "clock uuid (boot id $boot): $clk"; fi
now=$(date +%s)
first=$("$DUMP" "$B/t" | awk 'NR == 1 { print int($1) }')
if [ -n "$first" ] && [ $((now - first)) -ge 0 ] && [ $((now - first)) -lt 60 ]; then ok "event times are Unix time ($first, now $now)"
else fail "first event at $first, now $now"; fi
bt=$(babeltrace2 --clock-seconds "$B/t" 2>"$B/bt.err" | awk 'NR == 1 { sub(/^\[/, "", $1); print int($1) }')
if [ "$bt" = "$first" ]; then ok "babeltrace2 reads the same Unix time"
else fail "babeltrace2: $bt, tracepoint-dump: $first"; cat "$B/bt.err"; fi

# ---- a trace of the old form (absolute = FALSE, no clock uuid) still reads
cp -R "$B/t" "$B/old"
old=$(echo "$B"/old/*/metadata)
sed -e 's/absolute = TRUE;/absolute = FALSE;/' -e '/^clock {/,/^};/{/uuid = /d}' "$meta" >"$old"
if grep -q 'absolute = FALSE' "$old" && ! sed -n '/^clock {/,/^};/p' "$old" | grep -q uuid &&
	"$DUMP" "$B/old" >"$B/old.txt" 2>"$B/old.err" && [ ! -s "$B/old.err" ] && "$DUMP" "$B/t" | cmp -s - "$B/old.txt"; then
	ok "a trace of the old form reads the same"
else fail "old form"; cat "$B/old.err"; fi
if "$DUMP" --repair "$B/old" >"$B/repair.out" 2>&1 && "$DUMP" --repair "$B/t" >>"$B/repair.out" 2>&1 &&
	! grep -q 'where the recorder writes' "$B/repair.out"; then ok "--repair takes both forms of the clock as the recorder's"
else fail "--repair"; cat "$B/repair.out"; fi

# steps: the numbers of the merged events in babeltrace2's order, one line
steps() {
	babeltrace2 "$@" 2>"$B/merge.err" | sed -n -e 's/.*lineup:step: .* n = \([0-9]*\) }$/\1/p' \
		-e 's/.*lttng_ust_tracef:event: .*msg = "step \([0-9]*\)" }$/\1/p' | tr '\n' ' '
}

# ---- next to an LTTng-UST trace of the same run
lt=
if have lttng && $CC -O2 $WARN -c "$S/lttng.c" -o "$B/lttng.o" >"$B/lttng-cc.log" 2>&1 &&
	run "$B/cc2.log" $CC -O2 $WARN $TPF -Iinclude -I$S -DCONFIG_LINEUP "$S/lineup.c" "$B/lttng.o" -o "$B/lineup-lt" -llttng-ust -lpthread -ldl; then
	sess=tp-lineup-$$
	if lttng create "$sess" --output="$(cd "$B" && pwd)/lt" >"$B/lttng.log" 2>&1 &&
		lttng enable-event -s "$sess" -u 'lttng_ust_tracef:*' >>"$B/lttng.log" 2>&1 &&
		lttng start "$sess" >>"$B/lttng.log" 2>&1; then
		TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/both "$B/lineup-lt" 5 2>"$B/both.err"
		lttng stop "$sess" >>"$B/lttng.log" 2>&1
		lt=$B/lt
	else skip_part "LTTng: cannot make a session ($(tail -1 "$B/lttng.log"))"; fi
	lttng destroy "$sess" >>"$B/lttng.log" 2>&1
else skip_part "LTTng: lttng or liblttng-ust-dev not installed (apt-get install lttng-tools liblttng-ust-dev)"; fi
if [ -n "$lt" ]; then
	got=$(steps "$B/both" "$lt")
	if [ "$got" = "0 1 2 3 4 5 6 7 8 9 " ]; then ok "babeltrace2 merges ours and LTTng-UST's in time order: $got"
	else fail "babeltrace2 OURS LTTNG: '$got'"; cat "$B/merge.err"; fi
	got=$(steps "$lt" "$B/both")
	if [ "$got" = "0 1 2 3 4 5 6 7 8 9 " ]; then ok "and in the other order of arguments"
	else fail "babeltrace2 LTTNG OURS: '$got'"; fi
fi

# ---- two of our traces recorded at once (two processes, two sessions)
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/a "$B/lineup" 20 2>/dev/null &
a=$!
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/b "$B/lineup" 20 2>/dev/null
wait $a
babeltrace2 --clock-seconds "$B/a" "$B/b" >"$B/ab" 2>"$B/ab.err"
pids=$(sed -n 's/.*lineup:step: { tid = \([0-9]*\),.*/\1/p' "$B/ab" | uniq | wc -l)
if [ "$(wc -l <"$B/ab")" = 40 ] && sed 's/^\[\([0-9.]*\)\].*/\1/' "$B/ab" | sort -c -n && [ "$pids" -gt 10 ]; then
	ok "babeltrace2 merges two of our traces of one run by time (the process changes $pids times)"
else fail "two traces: $(wc -l <"$B/ab") events, $pids runs"; cat "$B/ab.err"; fi
finish
