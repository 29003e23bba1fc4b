#!/bin/sh
# Our traces next to other tracers' traces of the same run
# (tests/tools/lineup/lineup.c: our lineup:step events with even numbers,
# another tracer's events with the odd ones between them, 200 us apart):
#  - CTF: the clock is absolute (Unix epoch) with the boot's uuid, as
#    LTTng's: `babeltrace2 OURS LTTNG` merges an LTTng-UST trace of the same
#    run in time order (where lttng and liblttng-ust-dev are installed; else
#    two of our traces recorded at once); tracepoint-dump still reads a
#    trace of the old form (absolute = FALSE, no clock uuid).
#  - the clocks at one instant in the metadata's env (clock_realtime_ns,
#    clock_monotonic_ns, clock_boottime_ns): `tracepoint-dump
#    --clock=monotonic` puts each event between the program's own
#    CLOCK_MONOTONIC readings around it, and within 10 us before the
#    system call that follows it in `perf record -k CLOCK_MONOTONIC` of the
#    same run; --perfetto's times are BOOTTIME, with a clock snapshot of
#    BOOTTIME, MONOTONIC and REALTIME (protoc with Perfetto's field numbers);
#    a trace without the readings says so once and is labelled REALTIME;
#  - several DIRs: `tracepoint-dump A B` merges two of our traces recorded
#    at once in babeltrace2's order and at its times to the nanosecond
#    (text), in time order in JSON and Perfetto, whatever the order of the
#    arguments (also for events of the same nanosecond in two traces: a
#    copy of a trace with its tids moved by one); a DIR named twice is
#    read once; traces of two boots (a copy with another clock uuid) are
#    refused with --clock=monotonic (exit 2, the boot ids named), merged
#    on realtime, and --perfetto falls back to REALTIME saying so; a trace
#    without a clock is refused among others;
#  - valid CTF of another writer (babeltrace2 --output-format=ctf of our
#    own trace; an LTTng-UST trace, packetized) is refused in one line,
#    exit 1, no event printed; merged with ours, ours still print.
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
sed -e 's/absolute = TRUE;/absolute = FALSE;/' -e '/^clock {/,/^};/{/uuid = /d}' -e '/^	clock_[a-z]*_ns = /d' "$meta" >"$old"
if grep -q 'absolute = FALSE' "$old" && ! grep -q clock_realtime_ns "$old" && ! sed -n '/^clock {/,/^};/p' "$old" | grep -q uuid &&
	"$DUMP" "$B/old" >"$B/old.txt" 2>"$B/old.err" && [ ! -s "$B/old.err" ] && "$DUMP" "$B/t" | cmp -s - "$B/old.txt"; then
	ok "a trace of the old form reads the same"
else fail "old form"; cat "$B/old.err"; fi
if "$DUMP" --repair "$B/old" >"$B/repair.out" 2>&1 && "$DUMP" --repair "$B/t" >>"$B/repair.out" 2>&1 &&
	! grep -q 'where the recorder writes' "$B/repair.out"; then ok "--repair takes both forms of the clock as the recorder's"
else fail "--repair"; cat "$B/repair.out"; fi

# ---- the clocks at one instant; --clock
env=$(sed -n '/^env {/,/^};/p' "$meta")
if echo "$env" | grep -q '^	clock_realtime_ns = [0-9]*;$' && echo "$env" | grep -q '^	clock_monotonic_ns = [0-9]*;$' &&
	echo "$env" | grep -q '^	clock_boottime_ns = [0-9]*;$'; then ok "env: realtime, monotonic and boottime at one instant"
else fail "env: $env"; fi
if babeltrace2 --output-format=ctf-metadata "$(dirname "$meta")" 2>/dev/null | grep -q 'clock_boottime_ns' &&
	"$DUMP" --repair "$B/t" >/dev/null 2>&1; then
	ok "babeltrace2 and --repair take the env's clock readings"
else fail "the env's clock readings upset babeltrace2 or --repair"; fi
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/m "$B/lineup" 20 spin >"$B/spin" 2>/dev/null
"$DUMP" --clock=monotonic "$B/m" >"$B/m.txt" 2>"$B/m.err"
# each event's monotonic time (sec.nsec) between the program's readings (ns)
inside=$(awk 'NR == FNR { split($1, t, "."); ns[$4] = t[1] * 1000000000 + t[2]; next }
	{ v = ns["n=" $2]; if (v >= $3 && v <= $4) k++ } END { print k + 0 }' "$B/m.txt" "$B/spin")
if [ "$inside" = 20 ] && [ ! -s "$B/m.err" ]; then ok "--clock=monotonic: 20 of 20 events between the program's CLOCK_MONOTONIC readings"
else fail "--clock=monotonic: $inside of 20 events inside"; head -3 "$B/m.txt" "$B/spin" "$B/m.err"; fi
b=$("$DUMP" --clock=boottime "$B/m" | awk 'NR == 1 { print $1 }')
r=$("$DUMP" --clock=realtime "$B/m" | awk 'NR == 1 { print $1 }')
r0=$("$DUMP" "$B/m" | awk 'NR == 1 { print $1 }')
m=$(awk 'NR == 1 { print $1 }' "$B/m.txt")
if [ "$r" = "$r0" ] && [ "${b%.*}" -ge "${m%.*}" ] && [ "${r%.*}" -gt "${b%.*}" ]; then ok "--clock=boottime ($b), realtime ($r, the default)"
else fail "boottime $b, monotonic $m, realtime $r, default $r0"; fi
if "$DUMP" --json --clock=monotonic "$B/m" | grep -q '"otherData":{"time_origin_monotonic_ns":"'"$(echo "$m" | tr -d .)"'"'; then
	ok "--json --clock=monotonic: the origin on CLOCK_MONOTONIC"
else fail "--json --clock=monotonic"; fi
"$DUMP" --clock=tai "$B/m" >/dev/null 2>"$B/tai.err"
if [ $? = 2 ] && grep -q "realtime, monotonic or boottime, not 'tai'" "$B/tai.err"; then ok "--clock=tai: a usage error"
else fail "--clock=tai"; cat "$B/tai.err"; fi
"$DUMP" --clock=monotonic "$B/old" >"$B/oldm.txt" 2>"$B/oldm.err"
if cmp -s "$B/oldm.txt" "$B/old.txt" && [ "$(grep -c 'no monotonic reading' "$B/oldm.err")" = 1 ]; then
	ok "an old trace: --clock=monotonic says once that it shows realtime"
else fail "old trace, --clock=monotonic"; cat "$B/oldm.err"; fi

# ---- perf record -k CLOCK_MONOTONIC of the same run
if have perf && perf record -q -k CLOCK_MONOTONIC -e syscalls:sys_enter_clock_nanosleep -o "$B/perf.data" \
	env TRACEPOINTS='lineup:*' TRACEPOINTS_DIR="$B/p" "$B/lineup" 20 >"$B/perf.log" 2>&1; then
	perf script -i "$B/perf.data" -F time --ns 2>/dev/null | tr -d ' :' >"$B/perf.times"
	# the first event is left out: its record opens the thread's stream
	# (half a millisecond between its time and the program's next call)
	"$DUMP" --clock=monotonic "$B/p" | awk 'NR > 1 { print $1 }' >"$B/p.times"
	# for each of our events, the next nanosleep perf saw: how long after (ns)
	awk 'NR == FNR { split($1, t, "."); s[++n] = t[1] * 1000000000 + t[2]; next }
		{ split($1, t, "."); v = t[1] * 1000000000 + t[2]; d = -1
		  for (i = 1; i <= n; i++) if (s[i] >= v) { d = s[i] - v; break }
		  print d }' "$B/perf.times" "$B/p.times" >"$B/deltas"
	worst=$(sort -n "$B/deltas" | tail -1)
	close=$(awk '$1 >= 0 && $1 < 10000' "$B/deltas" | wc -l)
	if [ "$close" = 19 ]; then ok "perf -k CLOCK_MONOTONIC: each of 19 events within 10 us before perf's next system call (worst $worst ns)"
	else fail "perf -k CLOCK_MONOTONIC: $close of 19 events within 10 us (deltas: $(tr '\n' ' ' <"$B/deltas"))"; fi
else skip_part "perf record -k CLOCK_MONOTONIC: $(tail -1 "$B/perf.log" 2>/dev/null)"; fi

# ---- Perfetto: BOOTTIME, a snapshot of the three clocks
if have protoc; then
	P="protoc --decode=perfetto.protos.Trace -Itests/tools/perfetto tests/tools/perfetto/perfetto_min.proto"
	"$DUMP" --perfetto "$B/m" -o "$B/m.pf" 2>"$B/pf.err"
	$P <"$B/m.pf" >"$B/m.decoded" 2>>"$B/pf.err"
	# the clock snapshot of the first sequence: id=timestamp ...
	snap=$(awk '/clock_snapshot/ { on = 1 } on && /clock_id:/ { id = $2 } on && /timestamp:/ { printf "%s=%s ", id, $2 }
		on && /primary_trace_clock/ { print $2; exit }' "$B/m.decoded")
	want="1=$(echo "$r" | tr -d .) 3=$(echo "$m" | tr -d .) 6=$(echo "$b" | tr -d .) 64=$(echo "$b" | tr -d .) BUILTIN_CLOCK_BOOTTIME"
	if [ "$snap" = "$want" ] && [ ! -s "$B/pf.err" ]; then ok "--perfetto: on BOOTTIME, with REALTIME and MONOTONIC at the same instant"
	else fail "--perfetto snapshot: '$snap', want '$want'"; cat "$B/pf.err"; fi
	"$DUMP" --perfetto --clock=monotonic "$B/m" -o "$B/mm.pf" 2>"$B/pf.err"
	if $P <"$B/mm.pf" | grep -q 'primary_trace_clock: BUILTIN_CLOCK_MONOTONIC' && [ ! -s "$B/pf.err" ]; then
		ok "--perfetto --clock=monotonic: on MONOTONIC"
	else fail "--perfetto --clock=monotonic"; fi
	"$DUMP" --perfetto "$B/old" -o "$B/old.pf" 2>"$B/oldpf.err"
	snap=$($P <"$B/old.pf" | awk '/clock_snapshot/ { on = 1 } on && /clock_id:/ { printf "%s ", $2 } on && /primary_trace_clock/ { print $2; exit }')
	if [ "$snap" = "1 64 BUILTIN_CLOCK_REALTIME" ] && [ "$(grep -c 'no boottime reading.*labelled REALTIME' "$B/oldpf.err")" = 1 ]; then
		ok "--perfetto of an old trace: labelled REALTIME, said once"
	else fail "--perfetto of an old trace: '$snap'"; cat "$B/oldpf.err"; fi
else skip_part "Perfetto: protoc not installed (apt-get install protobuf-compiler)"; fi

# steps: the numbers of the merged events in babeltrace2's order, one line
# (LTTng's session takes every process's tracef events: only ours, by vpid)
steps() {
	babeltrace2 "$@" 2>"$B/merge.err" | sed -n -e 's/.*lineup:step: .* n = \([0-9]*\) }$/\1/p' \
		-e 's/.*lttng_ust_tracef:event: .*{ vpid = '"$ltpid"' }.*msg = "step \([0-9]*\)" }$/\1/p' | tr '\n' ' '
}

# ---- next to an LTTng-UST trace of the same run
lt=''
ltpid=''
stopped=''
if have lttng && $CC -O2 $WARN -c "$S/lttng.c" -o "$B/lttng.o" >"$B/lttng-cc.log" 2>&1 &&
	run "$B/cc2.log" $CC -O2 $WARN $TPF -Iinclude -I$S -DCONFIG_LINEUP "$S/lineup.c" "$B/lttng.o" -o "$B/lineup-lt" -llttng-ust -lpthread -ldl; then
	sess=tp-lineup-$$
	# One session at a time across this test's runs (both modes of
	# `make check-all` run at once): the daemon one run starts and stops
	# must not go from under another's session.
	if have flock; then exec 9>"${TMPDIR:-/tmp}/tp-lineup-lttng.lock" && flock 9; fi
	# `lttng create` starts a session daemon when none runs: stop the
	# one it started (a bench or a user's daemon, already running, stays).
	daemons=$(pgrep -x lttng-sessiond | tr '\n' ' ')
	if lttng create "$sess" --output="$(cd "$B" && pwd)/lt" >"$B/lttng.log" 2>&1 &&
		lttng enable-event -s "$sess" -u 'lttng_ust_tracef:*' >>"$B/lttng.log" 2>&1 &&
		lttng add-context -s "$sess" -u -t vpid >>"$B/lttng.log" 2>&1 &&
		lttng start "$sess" >>"$B/lttng.log" 2>&1; then
		TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/both "$B/lineup-lt" 5 2>"$B/both.err" &
		ltpid=$!
		wait $ltpid
		lttng stop "$sess" >>"$B/lttng.log" 2>&1
		lt=$B/lt
	else skip_part "LTTng: cannot make a session ($(tail -1 "$B/lttng.log"))"; fi
	lttng destroy "$sess" >>"$B/lttng.log" 2>&1
	for p in $(pgrep -x lttng-sessiond); do
		case " $daemons " in *" $p "*) ;; *) kill "$p" 2>/dev/null && stopped="$stopped $p" ;; esac
	done
	# gone before the next run looks for a daemon (up to 5 s)
	tries=25
	while [ $tries -gt 0 ]; do
		alive=''
		for p in $stopped; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ -z "$alive" ] && break
		sleep 0.2
		tries=$((tries - 1))
	done
	exec 9>&-
else skip_part "LTTng: lttng or liblttng-ust-dev not installed (apt-get install lttng-tools liblttng-ust-dev)"; fi
if [ -n "$lt" ]; then
	got=$(steps "$B/both" "$lt")
	if [ "$got" = "0 1 2 3 4 5 6 7 8 9 " ]; then ok "babeltrace2 merges ours and LTTng-UST's in time order: $got"
	else fail "babeltrace2 OURS LTTNG: '$got'"; cat "$B/merge.err"; fi
	got=$(steps "$lt" "$B/both")
	if [ "$got" = "0 1 2 3 4 5 6 7 8 9 " ]; then ok "and in the other order of arguments"
	else fail "babeltrace2 LTTNG OURS: '$got'"; fi
fi

# ---- two of our traces recorded at once (two processes, two sessions):
# one list in time order (how often the process changes in it depends on
# the machine's load: a loaded one may run one process's steps in a row)
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/a "$B/lineup" 20 2>/dev/null &
a=$!
TRACEPOINTS='lineup:*' TRACEPOINTS_DIR=$B/b "$B/lineup" 20 2>/dev/null
wait $a
babeltrace2 --clock-seconds "$B/a" "$B/b" >"$B/ab" 2>"$B/ab.err"
pids=$(sed -n 's/.*lineup:step: { tid = \([0-9]*\),.*/\1/p' "$B/ab" | uniq | wc -l)
if [ "$(wc -l <"$B/ab")" = 40 ] && sed 's/^\[\([0-9.]*\)\].*/\1/' "$B/ab" | sort -c -n && [ "$pids" -ge 2 ]; then
	ok "babeltrace2 merges two of our traces of one run by time (the process changes $pids times)"
else fail "two traces: $(wc -l <"$B/ab") events, $pids runs"; cat "$B/ab.err"; fi

# ---- tracepoint-dump A B: the same merge
# time tid:n of each event, in babeltrace2's order and in ours
sed -n 's/^\[\([0-9.]*\)\].*lineup:step: { tid = \([0-9]*\),.* n = \([0-9]*\) }$/\1 \2:\3/p' "$B/ab" >"$B/ab.bt"
"$DUMP" "$B/a" "$B/b" >"$B/ab.txt" 2>"$B/ab.err"
awk '{ sub(/^n=/, "", $4); print $1, $2 ":" $4 }' "$B/ab.txt" >"$B/ab.ours"
if [ "$(wc -l <"$B/ab.ours")" = 40 ] && cmp -s "$B/ab.bt" "$B/ab.ours" && [ ! -s "$B/ab.err" ]; then
	ok "tracepoint-dump A B: the 40 events in babeltrace2's order, at the same nanosecond"
else fail "tracepoint-dump A B differs from babeltrace2 A B"; diff "$B/ab.bt" "$B/ab.ours" | head; cat "$B/ab.err"; fi
if "$DUMP" "$B/b" "$B/a" | cmp -s - "$B/ab.txt"; then ok "tracepoint-dump B A: the same"
else fail "tracepoint-dump B A differs from A B"; "$DUMP" "$B/b" "$B/a" | diff "$B/ab.txt" - | head; fi
"$DUMP" "$B/a" "$B/b" "$B/a" >"$B/aba.txt" 2>"$B/aba.err"
if cmp -s "$B/aba.txt" "$B/ab.txt" && grep -q 'the same directory as .*: read once' "$B/aba.err"; then ok "A B A: A read once, said"
else fail "A B A"; cat "$B/aba.err"; fi
# events of the same nanosecond in two traces (a copy of b): one order,
# whatever the order of the arguments
# with tids + 1 (every packet's tid field, <trace/wire.h>) to tell them apart
if have python3; then
	cp -R "$B/b" "$B/twin"
	python3 - "$B"/twin/*/stream-* <<'PY'
import struct, sys
for f in sys.argv[1:]:
    b = bytearray(open(f, 'rb').read())
    off = 0
    while off + 96 <= len(b) and struct.unpack_from('<I', b, off)[0] == 0xC1FC1FC1:
        struct.pack_into('<I', b, off + 72, struct.unpack_from('<I', b, off + 72)[0] + 1)
        off += struct.unpack_from('<Q', b, off + 48)[0] // 8 or len(b)
    open(f, 'wb').write(b)
PY
	"$DUMP" "$B/b" "$B/twin" >"$B/twin1.txt" 2>/dev/null
	"$DUMP" "$B/twin" "$B/b" >"$B/twin2.txt" 2>/dev/null
	if [ "$(wc -l <"$B/twin1.txt")" = 40 ] && cmp -s "$B/twin1.txt" "$B/twin2.txt"; then
		ok "20 events of two traces at the same times: the same order whatever the order of the DIRs"
	else fail "ties across traces: B TWIN and TWIN B differ"; diff "$B/twin1.txt" "$B/twin2.txt" | head -4; fi
else skip_part "ties across traces: python3 not installed"; fi
# JSON: the events' ts (after the metadata) never go back, both processes
"$DUMP" --json "$B/b" "$B/a" >"$B/ab.json"
if [ "$(grep -c '"ph":"i"' "$B/ab.json")" = 40 ] &&
	grep '"ph":"i"' "$B/ab.json" | sed 's/.*"ts":\([0-9.]*\),.*/\1/' | sort -c -n &&
	[ "$(grep '"ph":"i"' "$B/ab.json" | sed 's/.*"pid":\([0-9]*\),.*/\1/' | sort -u | wc -l)" = 2 ]; then
	ok "--json B A: 40 events of two processes in time order"
else fail "--json of two DIRs"; fi
if have protoc; then
	P="protoc --decode=perfetto.protos.Trace -Itests/tools/perfetto tests/tools/perfetto/perfetto_min.proto"
	"$DUMP" --perfetto "$B/b" "$B/a" -o "$B/ab.pf" && $P <"$B/ab.pf" >"$B/ab.decoded" 2>"$B/ab.perr"
	if [ "$(grep -c 'track_event {' "$B/ab.decoded")" = 40 ] && [ "$(grep -c 'process {' "$B/ab.decoded")" = 2 ] &&
		[ ! -s "$B/ab.perr" ]; then ok "--perfetto B A: 40 events, two processes"
	else fail "--perfetto of two DIRs: $(grep -c 'track_event {' "$B/ab.decoded") events"; cat "$B/ab.perr"; fi
fi
# another boot: the same trace with another clock uuid (the boot id)
cp -R "$B/b" "$B/boot2"
sed -i '/^clock {/,/^};/s/uuid = "[0-9a-f-]*";/uuid = "00000000-1111-2222-3333-444444444444";/' "$B"/boot2/*/metadata
"$DUMP" --clock=monotonic "$B/a" "$B/boot2" >"$B/boot.out" 2>"$B/boot.err"
if [ $? = 2 ] && [ ! -s "$B/boot.out" ] && grep -q 'recorded in different boots (boot ids [0-9a-f-]* and 00000000-1111-2222-3333-444444444444), whose monotonic clocks cannot be lined up' "$B/boot.err"; then
	ok "--clock=monotonic across two boots: refused (exit 2), the boot ids named"
else fail "--clock=monotonic across boots"; cat "$B/boot.err"; fi
if "$DUMP" --clock=monotonic "$B/boot2" >/dev/null 2>&1 && "$DUMP" "$B/a" "$B/boot2" | cmp -s - "$B/ab.txt"; then
	ok "each alone on monotonic, both together on realtime"
else fail "another boot on realtime"; fi
if have protoc; then
	if "$DUMP" --perfetto "$B/a" "$B/boot2" -o "$B/boot.pf" 2>"$B/bootpf.err" && $P <"$B/boot.pf" | grep -q 'primary_trace_clock: BUILTIN_CLOCK_REALTIME' &&
		[ "$(grep -c 'another boot.*labelled REALTIME' "$B/bootpf.err")" = 1 ]; then
		ok "--perfetto across two boots: on REALTIME, said once"
	else fail "--perfetto across boots"; cat "$B/bootpf.err"; fi
fi
cp -R "$B/b" "$B/noclock"
sed -i '/^clock {/,/^};/d' "$B"/noclock/*/metadata
"$DUMP" "$B/a" "$B/noclock" >"$B/noclock.out" 2>"$B/noclock.err"
if [ $? = 2 ] && [ ! -s "$B/noclock.out" ] && grep -q 'no clock in its metadata, so its times cannot be lined up' "$B/noclock.err" &&
	[ "$("$DUMP" "$B/noclock" 2>/dev/null | wc -l)" = 20 ]; then ok "a trace without a clock: read alone, refused among others (exit 2)"
else fail "a trace without a clock"; cat "$B/noclock.err"; fi
# ---- CTF of another writer: refused, never decoded
babeltrace2 "$B/a" --output-format=ctf --output="$B/btctf" >"$B/btctf.log" 2>&1
"$DUMP" "$B/btctf" >"$B/btctf.out" 2>"$B/btctf.err"
if [ $? = 1 ] && [ ! -s "$B/btctf.out" ] && [ "$(grep -c "not a trace of tracepoint.h's recorder: .*its packet.header is not the one" "$B/btctf.err")" = 1 ] &&
	[ "$(wc -l <"$B/btctf.err")" = 1 ]; then ok "babeltrace2 --output-format=ctf of our trace: refused in one line, exit 1"
else fail "babeltrace2's CTF copy: $(wc -l <"$B/btctf.out") lines printed"; head -3 "$B/btctf.out" "$B/btctf.err"; fi
"$DUMP" "$B/btctf" "$B/b" >"$B/btb.out" 2>/dev/null
rc=$?
"$DUMP" "$B/b" >"$B/b.txt" 2>/dev/null
if [ $rc = 1 ] && cmp -s "$B/btb.out" "$B/b.txt" && [ "$(wc -l <"$B/btb.out")" = 20 ]; then
	ok "with one of ours: ours printed (20 events), the copy refused"
else fail "a refused trace with ours: $(wc -l <"$B/btb.out") lines"; fi
if [ -n "$lt" ]; then
	"$DUMP" "$lt" >"$B/lt.out" 2>"$B/lt.err"
	if [ $? = 1 ] && [ ! -s "$B/lt.out" ] && grep -q "not a trace of tracepoint.h's recorder\|packetized metadata is not supported" "$B/lt.err"; then
		ok "an LTTng-UST trace: refused ($(sed 's/.*metadata: //' "$B/lt.err" | head -1))"
	else fail "tracepoint-dump of an LTTng trace"; head -3 "$B/lt.out" "$B/lt.err"; fi
fi
finish
