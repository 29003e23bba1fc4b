#!/bin/sh
# A process killed in the middle of a hand-off (stream mode: the warm
# ring's packets go to the stream file in one pwritev() with the first
# header hidden, then one pwrite() that shows that header, then the ring's
# copy is covered; trace/recorder/stream.h), at each step exactly
# (tests/recorder/handoff/killer.c, a preload that raises SIGKILL right
# after the chosen write), one thread recording 0, 1, 2... in 4 KiB
# windows (a 256 KiB ring: a hand-off every 32,000 records):
#  - after the pwritev(): the bytes are in the stream file but hidden;
#    babeltrace2 and tracepoint-dump each read 0..K, every value once;
#  - after the pwrite() that shows them, before the cover: tracepoint-dump
#    reads 0..K once; babeltrace2 reads the trace (exit 0) and every value,
#    the handed ring's values twice (the window docs/recording.md
#    describes: the same records in two files for a few stores).
# shellcheck disable=SC2046,SC2086 # counts ($(values)) and $WARN are split on purpose
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -Itests/include "$S/handoff.c" -o "$B/handoff" -lpthread -ldl
$CC -O2 $WARN -shared -fPIC "$S/killer.c" -o "$B/killer.so" -ldl ||
	{ fail "killer.c does not build"; finish; }

# values DIR READER: "n max dups" of the evh_step values READER reads
values() {
	if [ "$2" = babeltrace2 ]; then
		babeltrace2 "$1" 2>"$1.bt" | sed -n 's/.* evh:evh_step: .*{ v = \([0-9]*\) }$/\1/p'
	else
		"$DUMP" "$1" 2>"$1.dump" | sed -n 's/.* evh:evh_step v=\([0-9]*\)$/\1/p'
	fi | sort -n | awk '{ n++; if ($1 == last && n > 1) d++; last = $1 } END { print n + 0, last + 0, d + 0 }'
}

for at in run:2 header:2; do
	d=$B/${at%%:*}
	TP_KILL_AFTER=$at LD_PRELOAD="$(cd "$B" && pwd)/killer.so" TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$d \
		TRACEPOINTS_BUFFER_KB=4 "$B/handoff" 1000000 2>"$d.err"
	rc=$?
	set -- $(values "$d" tracepoint-dump)
	dn=$1 dmax=$2 ddup=$3
	set -- $(values "$d" babeltrace2)
	bn=$1 bmax=$2 bdup=$3
	echo "killed after $at (exit $rc): tracepoint-dump $dn values (last $dmax, $ddup twice), babeltrace2 $bn (last $bmax, $bdup twice)"
	if [ $rc != 137 ] || [ "$dn" -lt 32000 ] || [ "$dn" -ge 1000000 ]; then
		fail "$at: the program was not killed in a hand-off (exit $rc, $dn records)"
		continue
	fi
	if [ "$dn" = $((dmax + 1)) ] && [ "$ddup" = 0 ]; then
		ok "killed after $at: tracepoint-dump reads 0..$dmax, each once"
	else fail "killed after $at: tracepoint-dump reads $dn values up to $dmax, $ddup twice"; cat "$d.dump"; fi
	if [ ${at%%:*} = run ]; then
		if [ "$bn" = "$dn" ] && [ "$bmax" = "$dmax" ] && [ "$bdup" = 0 ] && [ ! -s "$d.bt" ]; then
			ok "killed after the hand-off's pwritev(): babeltrace2 reads the same, each once"
		else fail "after the pwritev(): babeltrace2 reads $bn values, $bdup twice"; head -3 "$d.bt"; fi
	else
		# every value, and at most the ring just handed over (the second
		# of two: half the records) twice
		if [ "$bmax" = "$dmax" ] && [ $((bn - bdup)) = "$dn" ] && [ "$bdup" -le $((dn / 2)) ] && [ ! -s "$d.bt" ]; then
			ok "killed after the header's pwrite(): babeltrace2 reads every value, $bdup of them twice (the window of docs/recording.md)"
		else fail "after the header's pwrite(): babeltrace2 reads $bn values up to $bmax, $bdup twice"; head -3 "$d.bt"; fi
	fi
done
finish
