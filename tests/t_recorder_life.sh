#!/bin/sh
# Process and thread lifecycles, on a real program (tests/recorder_life/life.c)
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
#    snapshot that babeltrace2 reads.
set -u
T=recorder_life
. tests/script_env.sh
command -v babeltrace2 >/dev/null || { echo "babeltrace2 not installed (apt-get install babeltrace2)"; exit 77; }
$CC -O2 -Wall -Wextra -Wundef -Werror $TPF -Iinclude -Itests -DCONFIG_EVH "$S/life.c" -o "$B/life" -lpthread -ldl || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# values of evh_step in a trace or session directory, one line
values() { babeltrace2 "$1" 2>>"$B/bt.err" | sed -n 's/.* evh:evh_step: .*{ v = \(-*[0-9]*\) }$/\1/p' | tr '\n' ' '; }
traces() { ls -d "$1"/*/ 2>/dev/null | wc -l; }

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/fork "$B/life" fork 2>"$B/fork.err" || bad "life fork exited $?"
parent=0 children=0
for d in "$B"/fork/*/; do
	v=$(values "$d")
	case "$v" in
	"1000 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 1013 1014 1015 1016 1017 1018 1019 ") parent=$((parent + 1)) ;;
	"2000 2001 2002 2003 2004 "|"2100 2101 2102 2103 2104 "|"2200 2201 2202 2203 2204 ") children=$((children + 1)) ;;
	*) bad "fork: trace $d holds '$v'" ;;
	esac
done
[ $parent = 1 ] && ok "fork: the parent's 20 events, in order, in a trace of their own" || bad "fork: $parent parent traces"
[ $children = 3 ] && ok "fork: three child traces of 5 events each" || bad "fork: $children child traces"
all=$(values "$B/fork" | wc -w)
[ "$all" = 35 ] && ok "fork: babeltrace2 on the session reads all 35 events" || bad "fork: babeltrace2 read $all of 35"

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/exec "$B/life" exec 2>"$B/exec.err" || bad "life exec exited $?"
v=$(values "$B/exec")
[ "$(traces "$B/exec")" = 2 ] && [ "$v" = "3000 3001 3002 3003 3004 3005 3006 3007 3008 3009 4000 4001 4002 4003 4004 4005 4006 " ] &&
	ok "exec: both programs' traces, whole, in the session" || bad "exec: $(traces "$B/exec") traces, '$v'"

TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/signal "$B/life" signal 2>"$B/signal.err" || bad "life signal exited $?"
v=$(values "$B/signal")
[ "$v" = "7000 7001 " ] && ok "a thread's first event, in a signal handler, is recorded" || bad "signal: '$v'"

LIFE_CTOR=1 TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/ctor "$B/life" ctor 2>"$B/ctor.err" || bad "life ctor exited $?"
v=$(values "$B/ctor")
[ "$v" = "9001 9000 9002 9003 " ] && ok "constructor, main, atexit and destructor events are kept" || bad "ctor: '$v'"
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/flight TRACEPOINTS_MODE=flight TRACEPOINTS_FLIGHT_KB=64 \
	TRACEPOINTS_BUFFER_KB=16 TRACEPOINTS_SNAPSHOT_SIGNAL=SIGUSR2 "$B/life" flight 2>"$B/flight.err" || bad "life flight exited $?"
snap=$(ls -d "$B"/flight/*/snapshot-1 2>/dev/null)
v=$( [ -n "$snap" ] && values "$snap")
first=${v%% *} last=$(echo "$v" | awk '{print $NF}') n=$(echo "$v" | wc -w)
if [ -n "$v" ] && [ "$last" = 99999 ] && [ $((last - first + 1)) = "$n" ] && [ "$n" -gt 4000 ] &&
	grep -q "snapshot 1 in .*/snapshot-1" "$B/flight.err"; then
	ok "flight: the signal's snapshot holds the last $n records ($first..$last)"
else bad "flight: snapshot '${snap:-none}' holds $n records ending at '$last'"; cat "$B/flight.err"; fi
[ -s "$B/bt.err" ] && { bad "babeltrace2 complained"; head "$B/bt.err"; }
exit $fail
