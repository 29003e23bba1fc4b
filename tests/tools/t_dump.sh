#!/bin/sh
# tracepoint-dump against babeltrace2 on real traces, and on damaged ones:
#  - a program with three threads and every field kind (strings, arrays,
#    char arrays, double, pointer, signed char): the same events, values and
#    times (within 1 ns) from both readers (tests/tools/dump/vs_babeltrace.py),
#    and the TP_printk text as the program would print it; empty strings
#    after non-empty ones (tests/tools/dump/empty_str.c);
#  - a process killed with SIGKILL while recording: both read it as it is;
#  - a flight-recorder process killed the same way: tracepoint-dump reads
#    the ring directly, --repair makes it readable by babeltrace2, and both
#    then agree; the records are the last ones, contiguous;
#  - a stream file cut in the middle of a packet: exit 1 with the file and
#    offset, what could be read is printed, --repair makes it whole again;
#  - a missing directory exits 1, a bad option 2, two output modes 2.
. tests/lib.sh
need babeltrace2
need python3
dump_tool
cc_build -Itests/include -DCONFIG_EVF tests/recorder/event_env/env_prog.c -o "$B/env_prog" -lpthread -ldl
cc_build -Itests/include -DCONFIG_EVH tests/recorder/recorder_life/life.c -o "$B/life" -lpthread -ldl
same() { python3 "$S/vs_babeltrace.py" --dump "$DUMP" "$1" >"$B/cmp.log" 2>&1 || { cat "$B/cmp.log"; return 1; }; }

TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/all "$B/env_prog" >/dev/null 2>&1 || fail "env_prog"
if same "$B/all"; then ok "every field kind: tracepoint-dump and babeltrace2 agree ($(tail -1 "$B/cmp.log"))"; else fail "readers disagree"; fi
"$DUMP" "$B/all" >"$B/all.txt" || fail "tracepoint-dump exited $?"
if grep -Eq '^[0-9]+\.[0-9]{9} [0-9]+ evf:evf_mixed name=worker1 ptr=0x[0-9a-f]+ ratio=0\.50 bytes=01020304 comm=worker tag=w small=1$' "$B/all.txt" &&
	grep -Eq ' evf:evf_three a=2 b=2 c=-1$' "$B/all.txt" && grep -Eq ' evf:evf_lock_acquire lock=0x[0-9a-f]+ depth=1$' "$B/all.txt" &&
	[ "$(wc -l <"$B/all.txt")" = 14 ]; then ok "TP_printk text, 14 lines"
else fail "text output"; cat "$B/all.txt"; fi

# empty strings after non-empty ones (babeltrace2 2.0.4 reads them right here)
cc_build -Itests/include -DCONFIG_EVF "$S/empty_str.c" -o "$B/empty_str" -lpthread -ldl
TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/empty "$B/empty_str" >/dev/null 2>&1 || fail "empty_str"
if same "$B/empty" && [ "$("$DUMP" --json "$B/empty" | grep -o '"tag":""' | wc -l)" = 3 ]; then
	ok "empty strings after non-empty ones: both readers agree ($(tail -1 "$B/cmp.log"))"
else fail "empty strings"; fi

# killed while recording (stream, then flight)
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/killed "$B/life" paced 2>/dev/null & p=$!
sleep 0.5; kill -9 $p; wait $p 2>/dev/null
n=$("$DUMP" --summary "$B/killed" | sed -n 's/^events *\([0-9]*\)$/\1/p')
if [ -n "$n" ] && [ "$n" -gt 100 ] && same "$B/killed"; then ok "killed with SIGKILL: $n events, both readers agree"; else fail "killed trace ($n)"; fi
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/ring TRACEPOINTS_MODE=flight TRACEPOINTS_FLIGHT_KB=64 TRACEPOINTS_BUFFER_KB=4 \
	"$B/life" paced 2>/dev/null & p=$!
sleep 0.5; kill -9 $p; wait $p 2>/dev/null
"$DUMP" "$B/ring" | awk '{sub("v=", "", $4); if (NR > 1 && $4 != last + 1) gaps++; last = $4; n++} END {print n, gaps + 0}' >"$B/ring.n"
read -r n gaps <"$B/ring.n"
if [ "$n" -gt 5000 ] && [ "$gaps" = 0 ]; then ok "flight ring read directly: the last $n records, contiguous"; else fail "flight ring: $n records, $gaps gaps"; fi
"$DUMP" --repair "$B/ring" 2>"$B/repair.err" || { fail "--repair"; cat "$B/repair.err"; }
if same "$B/ring"; then ok "after --repair babeltrace2 reads the ring, and agrees"; else fail "ring after repair"; fi

# damaged: a stream file cut in the middle of its second packet
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/cut TRACEPOINTS_BUFFER_KB=16 "$B/life" many 5000 2>/dev/null
set -- "$B"/cut/*/stream-*
f=$1
truncate -s 20000 "$f"
"$DUMP" "$B/cut" >"$B/cut.txt" 2>"$B/cut.err"; rc=$?
cat "$B/cut.err"
if [ $rc = 1 ] && grep -q "stream-" "$B/cut.err" && grep -q "16384" "$B/cut.err" && [ "$(wc -l <"$B/cut.txt")" -ge 2036 ]; then
	ok "a cut stream: exit 1, the file and offset named, the whole first packet printed"
else fail "cut stream (exit $rc)"; fi
if "$DUMP" --repair "$B/cut" 2>/dev/null && "$DUMP" "$B/cut" >/dev/null 2>&1 && babeltrace2 "$B/cut" >/dev/null 2>&1; then
	ok "--repair drops the cut packet: both readers take the trace"
else fail "--repair of a cut stream"; fi

"$DUMP" "$B/nonexistent" >/dev/null 2>"$B/none.err"; rc=$?
if [ $rc = 1 ] && grep -q nonexistent "$B/none.err"; then ok "a missing directory: exit 1, named"; else fail "missing directory (exit $rc)"; fi
"$DUMP" --bogus >/dev/null 2>&1; rc=$?
if [ $rc = 2 ]; then ok "a bad option: exit 2"; else fail "bad option (exit $rc)"; fi
"$DUMP" --json --perfetto -o "$B/two.out" "$B/ring" >/dev/null 2>"$B/two.err"; rc=$?
if [ $rc = 2 ] && grep -q 'one output at a time' "$B/two.err"; then ok "two output modes: exit 2, one output at a time"
else fail "two output modes (exit $rc)"; cat "$B/two.err"; fi
finish
