#!/bin/sh
# Process and thread lifecycles, on a real program (tests/recorder/recorder_life/life.c)
# recorded through the environment and read back with babeltrace2.  A
# session directory (TRACEPOINTS_DIR) holds one trace per process:
#  - fork: each child records into a trace of its own; the parent's trace
#    is complete and untouched; babeltrace2 on the session reads them all;
#  - exec: the first program's trace is kept whole, the new program's
#    trace is another one in the same session;
#  - a thread whose first event comes from a signal handler records it;
#  - events fired from a constructor, main, an atexit handler and a
#    destructor are all kept;
#  - flight mode with TRACEPOINTS_SNAPSHOT_SIGNAL: the signal freezes the
#    last records (contiguous, up to the one before the signal) into a
#    snapshot that babeltrace2 reads;
#  - exit() while 4 threads record without pause, from main or from one of
#    them, at a random instant 0.5 to 30.5 ms after the start (6.5 under
#    make check; TP_EXIT_RUNS runs, default 50, 10 under make check, per
#    window size, 4 and 64 KiB): the program exits 0, its buffered stdout is
#    written, and babeltrace2 reads the trace as it is.
. tests/lib.sh
need babeltrace2
cc_build -Itests/include -DCONFIG_EVH "$S/life.c" -o "$B/life" -lpthread -ldl
# values of evh_step in a trace or session directory, one line
values() { babeltrace2 "$1" 2>>"$B/bt.err" | sed -n 's/.* evh:evh_step: .*{ v = \(-*[0-9]*\) }$/\1/p' | tr '\n' ' '; }
traces() { find "$1" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l; }

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/fork "$B/life" fork 2>"$B/fork.err" || fail "life fork exited $?"
parent=0 children=0
for d in "$B"/fork/*/; do
	v=$(values "$d")
	case "$v" in
	"1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 1013 1014 1015 1016 1017 1018 1019 ") parent=$((parent + 1)) ;;
	"2000 2001 2002 2003 2004 "|"2100 2101 2102 2103 2104 "|"2200 2201 2202 2203 2204 ") children=$((children + 1)) ;;
	*) fail "fork: trace $d holds '$v'" ;;
	esac
done
if [ $parent = 1 ]; then ok "fork: the parent's 20 events, in order, in a trace of their own"; else fail "fork: $parent parent traces"; fi
if [ $children = 3 ]; then ok "fork: three child traces of 5 events each"; else fail "fork: $children child traces"; fi
all=$(values "$B/fork" | wc -w)
if [ "$all" = 35 ]; then ok "fork: babeltrace2 on the session reads all 35 events"; else fail "fork: babeltrace2 read $all of 35"; fi

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/exec "$B/life" exec 2>"$B/exec.err" || fail "life exec exited $?"
v=$(values "$B/exec")
if [ "$(traces "$B/exec")" = 2 ] && [ "$v" = "3000 3001 3002 3003 3004 3005 3006 3007 3008 3009 4000 4001 4002 4003 4004 4005 4006 " ]; then
	ok "exec: both programs' traces, whole, in the session"
else fail "exec: $(traces "$B/exec") traces, '$v'"; fi

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/signal "$B/life" signal 2>"$B/signal.err" || fail "life signal exited $?"
v=$(values "$B/signal")
if [ "$v" = "7000 7001 " ]; then ok "a thread's first event, in a signal handler, is recorded"; else fail "signal: '$v'"; fi

LIFE_CTOR=1 TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/ctor "$B/life" ctor 2>"$B/ctor.err" || fail "life ctor exited $?"
v=$(values "$B/ctor")
if [ "$v" = "9001 9000 9002 9003 " ]; then ok "constructor, main, atexit and destructor events are kept"; else fail "ctor: '$v'"; fi
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/flight TRACEPOINTS_MODE=flight TRACEPOINTS_FLIGHT_KB=64 \
	TRACEPOINTS_BUFFER_KB=16 TRACEPOINTS_SNAPSHOT_SIGNAL=SIGUSR2 "$B/life" flight 2>"$B/flight.err" || fail "life flight exited $?"
snap=$(ls -d "$B"/flight/*/snapshot-1 2>/dev/null)
v=$( [ -n "$snap" ] && values "$snap")
first=${v%% *} last=$(echo "$v" | awk '{print $NF}') n=$(echo "$v" | wc -w)
if [ -n "$v" ] && [ "$last" = 99999 ] && [ $((last - first + 1)) = "$n" ] && [ "$n" -gt 4000 ] &&
	grep -q "snapshot 1 in .*/snapshot-1" "$B/flight.err"; then
	ok "flight: the signal's snapshot holds the last $n records ($first..$last)"
else fail "flight: snapshot '${snap:-none}' holds $n records ending at '$last'"; cat "$B/flight.err"; fi

# exit() against recording threads
RUNS=${TP_EXIT_RUNS:-$(quick 10 50)}
SPAN=$(quick 6000 30000) # us: exit() 0.5 ms to 0.5 ms + SPAN after the start
for kb in 4 64; do
	crashed=0 lost=0 unread=0 i=0
	while [ $i -lt "$RUNS" ]; do
		who=main; [ $((i % 2)) = 1 ] && who=worker
		us=$(( ($(od -An -N2 -tu2 /dev/urandom) % SPAN) + 500 ))
		d=$B/exit-$kb-$i
		TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$d TRACEPOINTS_BUFFER_KB=$kb "$B/life" exit $who $us \
			>"$d.out" 2>"$d.err"
		rc=$?
		if [ $rc != 0 ]; then crashed=$((crashed + 1)); echo "run $i ($who, ${us} us): exit $rc"; fi
		grep -qx "result 42" "$d.out" || lost=$((lost + 1))
		if babeltrace2 -o dummy "$d" >/dev/null 2>"$d.bt"; then
			rm -rf "$d" # keep the ones that fail
		else
			unread=$((unread + 1)); echo "run $i ($who, ${us} us): babeltrace2: $(grep -m1 ' E ' "$d.bt")"
		fi
		i=$((i + 1))
	done
	if [ $crashed = 0 ] && [ $lost = 0 ] && [ $unread = 0 ]; then
		ok "exit() at a random instant while 4 threads record, ${kb} KiB windows: $RUNS runs, no crash, stdout kept, every trace read by babeltrace2"
	else
		fail "exit() while recording, ${kb} KiB windows, $RUNS runs: $crashed crashed, $lost lost their stdout, $unread unreadable"
	fi
done
if [ -s "$B/bt.err" ]; then fail "babeltrace2 complained"; head "$B/bt.err"; fi
finish
