#!/bin/sh
# Storage that fails: a real file system that fills up (a 1 MiB tmpfs,
# mounted when run as root, skipped otherwise) while a program records
# 300,000 events.  The error is reported once, with the stream's path; the
# exit summary says the trace is incomplete and how many records were lost
# (never "trace in ..."); the trace holds what fit, babeltrace2 reads it,
# and its packets count the lost records (babeltrace2 reports them as
# discarded events).
set -u
T=recorder_errors
. tests/script_env.sh
[ "$(id -u)" = 0 ] || { echo "not root: cannot mount a small file system; skipped"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "babeltrace2 not installed (apt-get install babeltrace2)"; exit 77; }
$CC -O2 -Wall -Wextra -Wundef -Werror $TPF -Iinclude -Itests -DCONFIG_EVH tests/recorder_life/life.c -o "$B/life" -lpthread -ldl || exit 1
mkdir -p "$B/small"
mount -t tmpfs -o size=1m tmpfs "$B/small" 2>"$B/mount.err" || { cat "$B/mount.err"; echo "cannot mount a tmpfs here; skipped"; exit 77; }
trap 'umount "$B/small" 2>/dev/null' EXIT
fail=0
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/small/s TRACEPOINTS_BUFFER_KB=64 "$B/life" many 300000 2>"$B/err"; rc=$?
cat "$B/err"
[ $rc = 0 ] && echo "ok: the program ran to its end" || { echo "FAIL: exit $rc"; fail=1; }
n=$(grep -c 'No space left on device' "$B/err")
if [ "$n" = 1 ] && grep -q "tracepoints: cannot extend $B/small/s/life-[0-9]*/stream-[0-9]*: No space left on device" "$B/err"; then
	echo "ok: the full file system is reported once, with the path"
else echo "FAIL: reported $n times"; fail=1; fi
lost=$(sed -n 's/.*is incomplete (see the errors above); \([0-9]*\) record(s) lost$/\1/p' "$B/err")
if [ -n "$lost" ] && [ "$lost" -gt 0 ] && ! grep -q "tracepoints: trace in" "$B/err"; then
	echo "ok: the exit summary says the trace is incomplete: $lost records lost"
else echo "FAIL: no 'incomplete' summary"; fail=1; fi
babeltrace2 "$B/small/s" >"$B/bt.out" 2>"$B/bt.err" || { echo "FAIL: babeltrace2 cannot read it"; head "$B/bt.err"; fail=1; }
kept=$(grep -c 'evh:evh_step' "$B/bt.out")
if [ -n "$lost" ] && [ $((kept + lost)) = 300000 ]; then echo "ok: $kept kept + $lost lost = 300000"
else echo "FAIL: $kept kept, ${lost:-?} lost"; fail=1; fi
# the first event after the gap is preceded by babeltrace2's discarded-events notice
grep -qi 'discarded' "$B/bt.err" "$B/bt.out" && echo "ok: babeltrace2 reports the discarded events" ||
	{ echo "FAIL: babeltrace2 saw no discarded events"; fail=1; }
exit $fail
