#!/bin/sh
# A process killed in the middle of a hand-off (stream mode: the warm
# ring's packets go to the stream file in one pwrite(), as they are; the
# ring's lead packet then covers them, and the next packet's header is
# written in the first slot; trace/recorder/stream.h, "The warm ring"), at
# each step exactly (tests/recorder/handoff/killer.c, a preload that
# raises SIGKILL there), one thread recording 0, 1, 2... in 4 KiB windows
# (a 256 KiB ring: a hand-off every 32,000 records), the first and the
# second hand-off:
#  - after the pwrite(): the packets are in both files, byte for byte;
#  - in the next header: the lead covers the ring, the header is half
#    written;
# and the hand-over at the end (40,000 records: the last packet closed at
# its content, an empty one made after it in the ring; 10 records: that
# packet alone), right after its pwrite(); a library's destructor
# recording after exit() began, into windows at the end of the stream
# file (each written whole before it is mapped), killed in a header; and the first hand-off to the
# second file of a rotation (TRACEPOINTS_FILE_MB=1: the ring's packets and
# lead take the new file's stream_instance_id first);
# each time babeltrace2 (which reads a thread's stream file and ring as
# one stream, and a packet found twice once) and tracepoint-dump read
# 0..K, every value once, babeltrace2 without a word on stderr.
# shellcheck disable=SC2046,SC2086 # counts ($(values)) and $WARN are split on purpose
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -Itests/include "$S/handoff.c" -o "$B/handoff" -lpthread -ldl
cc_build -Itests/include -fPIC -shared "$S/late_lib.c" -o "$B/liblate.so"
cc_build "$S/late_main.c" -o "$B/late_main" -L"$B" -llate -Wl,-rpath,"$(cd "$B" && pwd)" -lpthread -ldl
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

# (the rotation's under make check-all only: babeltrace2 reads 160,000 records;
# "late": late_main 1000, then 100,000 records in a library's destructor,
# killed at two packet headers in a row, one of them a window at the end
# of the stream file before it is written)
for case in 1000000:run:1:0 1000000:cover:1:0 1000000:run:2:0 1000000:cover:2:0 \
	40000:run:2:0 10:run:1:0 late:fill:60:0 late:fill:61:0 \
	$(quick "" "1000000:run:5:1 1000000:cover:5:1"); do
	n=${case%%:*} at=${case#*:} mb=${case##*:}
	at=${at%:*}
	d=$B/${at%%:*}${at#*:}-$n-$mb
	rot=
	[ "$mb" = 0 ] || rot=TRACEPOINTS_FILE_MB=$mb
	prog="$B/handoff $n" least=32000 what="$n records"
	[ "$n" = late ] && prog="$B/late_main 1000" n=1000000 least=1001 what="records after exit()"
	# shellcheck disable=SC2086 # $prog: the program and its argument
	env $rot TP_KILL_AFTER=$at LD_PRELOAD="$(cd "$B" && pwd)/killer.so" TRACEPOINTS='evh:*' \
		TP_LATE=100000 TRACEPOINTS_DIR=$d TRACEPOINTS_BUFFER_KB=4 $prog 2>"$d.err"
	rc=$?
	set -- $(values "$d" tracepoint-dump)
	dn=$1 dmax=$2 ddup=$3
	set -- $(values "$d" babeltrace2)
	bn=$1 bmax=$2 bdup=$3
	echo "$what, TRACEPOINTS_FILE_MB=$mb, killed at $at (exit $rc): tracepoint-dump $dn values (last $dmax, $ddup twice), babeltrace2 $bn (last $bmax, $bdup twice)"
	if [ $rc != 137 ] || { [ "$n" = 1000000 ] && { [ "$dn" -lt $least ] || [ "$dn" -ge "$n" ]; }; } ||
		{ [ "$n" != 1000000 ] && [ "$dn" != "$n" ]; }; then
		fail "$what, $at: the program was not killed where it should be (exit $rc, $dn records)"
		continue
	fi
	if [ "$dn" = $((dmax + 1)) ] && [ "$ddup" = 0 ]; then
		ok "$what, killed at $at: tracepoint-dump reads 0..$dmax, each once"
	else fail "$what, killed at $at: tracepoint-dump reads $dn values up to $dmax, $ddup twice"; cat "$d.dump"; fi
	if [ "$bn" = "$dn" ] && [ "$bmax" = "$dmax" ] && [ "$bdup" = 0 ] && [ ! -s "$d.bt" ]; then
		ok "$what, killed at $at: babeltrace2 reads the same, each once"
	else fail "$what, killed at $at: babeltrace2 reads $bn values up to $bmax, $bdup twice"; head -3 "$d.bt"; fi
done
finish
