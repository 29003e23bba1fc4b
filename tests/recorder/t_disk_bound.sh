#!/bin/sh
# A bounded disk (docs/recording.md#a-bounded-disk), with
# tests/recorder/disk_bound/disk.c: threads that record dsk:dsk_rec (a string and
# a dynamic array: variable sizes) without pause.
#  - Rotation: TRACEPOINTS_FILE_MB=1 and TRACEPOINTS_FILE_COUNT=3 with 4
#    threads: no stream file over 1 MiB, at most 3 per thread, and the
#    records of the removed ones counted exactly: events kept (babeltrace2
#    and tracepoint-dump) + dropped (tracepoint-dump, the exit summary) =
#    events fired.  Without a count every record is kept, in several files.
#  - Killed while it rotates (SIGKILL): babeltrace2 reads the trace as it
#    is, and tracepoint-dump --repair finds nothing to repair; without a
#    count (tests/recorder/death/death.c, 4 KiB windows) every record each
#    thread completed is in it, in order.
#  - The free-space floor on an 8 MiB tmpfs (root only: skipped otherwise):
#    by default (5 % of it) and with TRACEPOINTS_MIN_FREE_MB=4 the program
#    stops writing before the floor, says so once (no ENOSPC), and kept +
#    dropped = fired; with rotation the same tmpfs never reaches the floor.
#  - Malformed values are reported, and TRACEPOINTS_FILE_COUNT without
#    TRACEPOINTS_FILE_MB.
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -I"$S" -DCONFIG_DSK "$S/disk.c" -o "$B/disk" -lpthread -ldl

# kept_dropped DIR: "kept dropped" as tracepoint-dump --summary counts them
kept_dropped() {
	"$DUMP" --summary "$1" 2>/dev/null | awk '/^events /{e=$2} /^dropped /{d=$2} END{print e+0, d+0}'
}
# exact NAME DIR FIRED ERRFILE [late]: kept + dropped = fired, by both
# readers and the exit summary; "late": threads that started below the
# floor have no stream file to count their drops in, so only the exit
# summary counts them all (the trace's count is at most that)
exact() {
	late=${5:-}
	kd=$(kept_dropped "$2")
	set -- "$1" "$2" "$3" "$4" "${kd% *}" "${kd#* }"
	bt=$(babeltrace2 "$2" 2>/dev/null | grep -c 'dsk:dsk_rec')
	said=$(sed -n 's/^tracepoints: \([0-9]*\) record(s) dropped.*/\1/p' "$4")
	if [ -n "$late" ] && [ "$6" -le "${said:-0}" ] && [ $(($5 + ${said:-0})) = "$3" ]; then
		ok "$1: $5 kept (babeltrace2: $bt) + ${said:-0} dropped (exit summary; $6 in the trace's files) = $3 fired"
	elif [ -z "$late" ] && [ "$bt" = "$5" ] && [ $(($5 + $6)) = "$3" ] && [ "${said:-0}" = "$6" ]; then
		ok "$1: $5 kept (babeltrace2: $bt) + $6 dropped (exit summary: ${said:-0}) = $3 fired"
	else
		fail "$1: kept $5 (babeltrace2: $bt) + dropped $6 (exit summary: ${said:-0}) != $3 fired"
	fi
}

run_disk() { # DIR THREADS N [VAR=VALUE...]: records into DIR, stderr in $B/<DIR's name>.err
	d=$1 t=$2 n=$3 log=$B/${1##*/}
	shift 3
	rm -rf "$d"
	env TRACEPOINTS='dsk:*' TRACEPOINTS_DIR="$d" TRACEPOINTS_BUFFER_KB=64 "$@" \
		"$B/disk" "$t" "$n" >"$log.out" 2>"$log.err" || fail "$d: exit $?: $(cat "$log.err")"
}

# ---- rotation, with and without a file count ----
run_disk "$B/rot" 4 200000 TRACEPOINTS_FILE_MB=1 TRACEPOINTS_FILE_COUNT=3
big=$(find "$B/rot" -name 'stream-*' ! -name '*.ring' -size +1024k | wc -l)
most=$(find "$B/rot" -name 'stream-*' ! -name '*.ring' | sed 's/.*stream-\([0-9]*\).*/\1/' |
	sort | uniq -c | sort -n | tail -1 | awk '{print $1}')
rotated=$(find "$B/rot" -name 'stream-*_[0-9]*' | wc -l)
if [ "$big" = 0 ] && [ "${most:-9}" -le 3 ] && [ "$rotated" -ge 4 ]; then
	ok "rotation: no stream file over 1 MiB, at most $most per thread ($rotated rotation files)"
else
	fail "rotation: $big files over 1 MiB, $most files for one thread, $rotated rotated"
fi
exact "rotation with a count of 3" "$B/rot" 800000 "$B/rot.err"
[ "$(kept_dropped "$B/rot" | cut -d' ' -f2)" -gt 0 ] || fail "nothing was removed: the test proves nothing"

run_disk "$B/all" 2 100000 TRACEPOINTS_FILE_MB=1
files=$(find "$B/all" -name 'stream-*' ! -name '*.ring' | wc -l)
if [ "$files" -gt 2 ]; then ok "rotation without a count: $files files for 2 threads"
else fail "rotation without a count: $files files"; fi
exact "rotation without a count" "$B/all" 200000 "$B/all.err"

# ---- killed while it rotates ----
rm -rf "$B/kill"
TRACEPOINTS='dsk:*' TRACEPOINTS_DIR="$B/kill" TRACEPOINTS_BUFFER_KB=64 TRACEPOINTS_FILE_MB=1 \
	TRACEPOINTS_FILE_COUNT=2 "$B/disk" 4 -1 >/dev/null 2>"$B/kill.err" &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
if babeltrace2 "$B/kill" >"$B/kill.bt" 2>"$B/kill.bterr"; then
	ok "killed while rotating: babeltrace2 reads $(grep -c dsk_rec "$B/kill.bt") events as they are"
else
	fail "killed while rotating: babeltrace2 refuses it: $(head -3 "$B/kill.bterr")"
fi
if "$DUMP" --repair "$B/kill" 2>&1 | grep -q 'nothing to repair'; then
	ok "killed while rotating: tracepoint-dump --repair finds nothing to repair"
else
	fail "killed while rotating: --repair: $("$DUMP" --repair "$B/kill" 2>&1 | head -3)"
fi

# ---- rotation without a count keeps every completed record (SIGKILL) ----
# tests/recorder/death/death.c: 4 threads, each record's value one more
# than the one before, in the rotation files and the ring
cc_build -Itests/include "$S/../death/death.c" -o "$B/death" -lpthread -ldl
rm -rf "$B/dk"
head -c 96 /dev/zero >"$B/dk.counts"
TRACEPOINTS='evh:*' TRACEPOINTS_DIR="$B/dk" TRACEPOINTS_BUFFER_KB=4 TRACEPOINTS_FILE_MB=1 \
	"$B/death" kill 30000 "$B/dk.counts" >/dev/null 2>"$B/dk.err"
# "tid v" of each record, from tracepoint-dump ("time tid evh:evh_step v=V"),
# which reads a warm ring's records once even when the process was killed
# between a hand-off's pwrite() and the ring's cover (they are then in
# both files: babeltrace2 shows them twice; docs/recording.md); babeltrace2
# must read the trace, and at least every completed record
"$DUMP" "$B/dk" 2>/dev/null | awk '$3 == "evh:evh_step" { print $2, substr($4, 3) }' >"$B/dk.tv"
bt=$({ babeltrace2 "$B/dk" 2>"$B/dk.bterr" || echo refused; } | grep -c 'evh:evh_step\|^refused')
grep -q ERROR "$B/dk.bterr" && bt="0 (refused: $(grep -m1 ERROR "$B/dk.bterr"))"
od -An -td8 -w24 "$B/dk.counts" | awk 'NR==FNR { done[$1] = $2; next }
	{ if ($1 in seen && $2 != last[$1] + 1) bad++; seen[$1] = 1; last[$1] = $2; n[$1]++ }
	END { for (t in done) { if (n[t] < done[t] || n[t] > done[t] + 1) bad++; printf "%s:%d/%d ", t, n[t], done[t] }
	      print (bad ? "BAD" : "ok") }' - "$B/dk.tv" >"$B/dk.check"
files=$(find "$B/dk" -name 'stream-*_[0-9]*' ! -name '*.ring' | wc -l)
if grep -q ' ok$' "$B/dk.check" && [ "$files" -gt 4 ] && [ "$bt" -ge "$(wc -l <"$B/dk.tv")" ]; then
	ok "SIGKILL with rotation ($files rotation files): every completed record kept, in order (tid:read/done $(cat "$B/dk.check")); babeltrace2 reads $bt"
else
	fail "SIGKILL with rotation ($files rotation files): $(cat "$B/dk.check"); babeltrace2 read $bt"
fi

# ---- malformed values ----
rm -rf "$B/bad"
TRACEPOINTS='dsk:*' TRACEPOINTS_DIR="$B/bad" TRACEPOINTS_FILE_MB=1m TRACEPOINTS_FILE_COUNT=3 \
	TRACEPOINTS_MIN_FREE_MB=-1 "$B/disk" 1 1 2>"$B/bad.err" >/dev/null
if grep -q 'TRACEPOINTS_FILE_MB="1m" is not a size in MiB' "$B/bad.err" &&
	grep -q 'TRACEPOINTS_MIN_FREE_MB="-1" is not a size in MiB' "$B/bad.err" &&
	grep -q 'TRACEPOINTS_FILE_COUNT is ignored without TRACEPOINTS_FILE_MB' "$B/bad.err" &&
	! grep -q 'not a variable of the recorder' "$B/bad.err"; then
	ok "malformed values reported, a count without a size too"
else
	fail "malformed values: $(cat "$B/bad.err")"
fi

# ---- the free-space floor, on a small file system ----
if [ "$(id -u)" != 0 ]; then
	skip_part "not root: cannot mount a small file system for the free-space floor"
	finish
fi
mkdir -p "$B/small"
if ! mount -t tmpfs -o size=8m tmpfs "$B/small" 2>"$B/mount.err"; then
	skip_part "cannot mount a tmpfs here ($(cat "$B/mount.err")): the free-space floor is not tested"
	finish
fi
trap 'umount "$B/small" 2>/dev/null' EXIT
# floor WHAT KIB [VAR=VALUE...]: 4 threads fill the tmpfs; KIB must stay free
floor() {
	what=$1 want=$2
	shift 2
	rm -rf "$B/small/s"
	run_disk "$B/small/s" 4 1000000 "$@"
	mv "$B/s.err" "$B/floor.err"
	free=$(df -k "$B/small" | awk 'NR==2{print $4}')
	n=$(grep -c 'more would leave less than the .* KiB floor' "$B/floor.err")
	if [ "$n" = 1 ] && ! grep -q 'No space left' "$B/floor.err" && [ "$free" -ge "$want" ]; then
		ok "floor, $what: said once, $free KiB still free (at least $want)"
	else
		fail "floor, $what: said $n times, $free KiB free (want $want): $(cat "$B/floor.err")"
	fi
	exact "floor, $what" "$B/small/s" 4000000 "$B/floor.err" late
}
floor "default (5 % of 8 MiB)" 409
floor "TRACEPOINTS_MIN_FREE_MB=4" 4096 TRACEPOINTS_MIN_FREE_MB=4
# rotation keeps it bounded before the floor: 2 threads x 2 files x 1 MiB,
# and a 256 KiB warm ring each
rm -rf "$B/small/s"
run_disk "$B/small/s" 2 2000000 TRACEPOINTS_FILE_MB=1 TRACEPOINTS_FILE_COUNT=2
mv "$B/s.err" "$B/floor.err"
if ! grep -q 'floor\|No space' "$B/floor.err"; then ok "rotation on the tmpfs: the floor is never reached"
else fail "rotation on the tmpfs: $(cat "$B/floor.err")"; fi
exact "rotation on the tmpfs" "$B/small/s" 4000000 "$B/floor.err"
finish
