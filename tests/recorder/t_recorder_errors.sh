#!/bin/sh
# Storage that fails: a real file system that fills up (a 1 MiB tmpfs,
# mounted when run as root, skipped otherwise) while a program records
# 300,000 events.  The error is reported once, with the stream's path; the
# exit summary says the trace is incomplete and how many records were lost
# (never "trace in ..."); the trace holds what fit, babeltrace2 reads it,
# and its packets count the lost records (babeltrace2 reports them as
# discarded events).  The free-space floor is off here
# (TRACEPOINTS_MIN_FREE_MB=0): t_disk_bound.sh tests it; this test wants
# the file system's own ENOSPC.
. tests/lib.sh
[ "$(id -u)" = 0 ] || skip "not root: cannot mount a small file system; skipped"
need babeltrace2
cc_build -Itests/include -DCONFIG_EVH tests/recorder/recorder_life/life.c -o "$B/life" -lpthread -ldl
mkdir -p "$B/small"
mount -t tmpfs -o size=1m tmpfs "$B/small" 2>"$B/mount.err" || { cat "$B/mount.err"; skip "cannot mount a tmpfs here; skipped"; }
trap 'umount "$B/small" 2>/dev/null' EXIT
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/small/s TRACEPOINTS_BUFFER_KB=64 TRACEPOINTS_MIN_FREE_MB=0 "$B/life" many 300000 2>"$B/err"; rc=$?
cat "$B/err"
if [ $rc = 0 ]; then ok "the program ran to its end"; else fail "exit $rc"; fi
n=$(grep -c 'No space left on device' "$B/err")
if [ "$n" = 1 ] && grep -q "tracepoints: cannot extend $B/small/s/life-[0-9]*/stream-[0-9]*: No space left on device" "$B/err"; then
	ok "the full file system is reported once, with the path"
else fail "reported $n times"; fi
lost=$(sed -n 's/.*is incomplete (see the errors above); \([0-9]*\) record(s) lost$/\1/p' "$B/err")
if [ -n "$lost" ] && [ "$lost" -gt 0 ] && ! grep -q "tracepoints: trace in" "$B/err"; then
	ok "the exit summary says the trace is incomplete: $lost records lost"
else fail "no 'incomplete' summary"; fi
babeltrace2 "$B/small/s" >"$B/bt.out" 2>"$B/bt.err" || { fail "babeltrace2 cannot read it"; head "$B/bt.err"; }
kept=$(grep -c 'evh:evh_step' "$B/bt.out")
if [ -n "$lost" ] && [ $((kept + lost)) = 300000 ]; then ok "$kept kept + $lost lost = 300000"
else fail "$kept kept, ${lost:-?} lost"; fi
# the first event after the gap is preceded by babeltrace2's discarded-events notice
if grep -qi 'discarded' "$B/bt.err" "$B/bt.out"; then ok "babeltrace2 reports the discarded events"
else fail "babeltrace2 saw no discarded events"; fi
finish
