#!/bin/sh
# A process that ends at any instant leaves a trace that babeltrace2 reads
# as it is (no tracepoint-dump --repair), and that holds every record it
# completed.  tests/recorder/death/death.c: 4 threads record without pause;
# after a random 1-12 ms the process ends by SIGKILL, SIGSEGV, abort(),
# _exit(), exec(), quick_exit() or a plain exit() while the others record.
# TP_DEATH_RUNS runs per way of ending (default 2; `make stress-death`: 10),
# with 4 KiB and 64 KiB windows in stream mode, and 64 KiB windows in
# flight mode (4 KiB windows in a 64 KiB ring: its files wrap many times).
# babeltrace2 reads every trace as it is (exit 0).  Stream mode: the
# test's own reader (tests/include/trace_read.h) finds, per thread, every
# record completed (or dropped and counted, after exit() began) and at
# most the one in flight, in order.  Flight mode: per thread, the newest
# records, one after the other, up to the last one completed; and
# tracepoint-dump reads as many events as babeltrace2; stream mode too (a
# stream file and its warm ring are one stream, a packet in both read
# once).  Prints the counts per way and window size.
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -Itests/include "$S/death.c" -o "$B/death" -lpthread -ldl
RUNS=${TP_DEATH_RUNS:-2}
unread=0 lost=0 total=0 twice=0
for setting in stream:4 stream:64 flight:4; do
	mode=${setting%%:*} kb=${setting#*:}
	for how in kill segv abort _exit exec quick_exit exit; do
		bad=0 i=0
		while [ $i -lt "$RUNS" ]; do
			us=$(( ($(od -An -N2 -tu2 /dev/urandom) % 11000) + 1000 ))
			d=$B/$mode-$kb-$how-$i
			head -c 96 /dev/zero >"$d.counts"
			TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$d TRACEPOINTS_MODE=$mode TRACEPOINTS_BUFFER_KB=$kb \
				TRACEPOINTS_FLIGHT_KB=64 "$B/death" "$how" "$us" "$d.counts" >/dev/null 2>"$d.err"
			total=$((total + 1))
			# flight mode: the text, whose events are compared; stream
			# mode: the count, against tracepoint-dump's
			out="-c sink.utils.counter"
			[ "$mode" = flight ] && out=
			# shellcheck disable=SC2086 # $out is split on purpose
			if ! babeltrace2 $out "$d" >"$d.text" 2>"$d.bt"; then
				bad=$((bad + 1)) unread=$((unread + 1))
				echo "$mode $kb KiB, $how after $us us: babeltrace2: $(grep -m1 ' E ' "$d.bt")"
			fi
			check=check
			[ "$mode" = flight ] && check="check-tail"
			if ! "$B/death" $check "$d" "$d.counts" >"$d.check" 2>&1; then
				lost=$((lost + 1))
				echo "$mode $kb KiB, $how after $us us: records missing: $(tr '\n' ' ' <"$d.check")"
			elif [ "$mode" = flight ] &&
				[ "$("$DUMP" "$d" 2>/dev/null | grep -c evh_step)" != "$(grep -c evh_step "$d.text")" ]; then
				lost=$((lost + 1))
				echo "$mode $kb KiB, $how after $us us: tracepoint-dump and babeltrace2 differ"
			elif [ "$mode" = stream ] && dn=$("$DUMP" "$d" 2>/dev/null | grep -c evh_step) &&
				bn=$(sed -n 's/^ *\([0-9]*\) Event messages$/\1/p' "$d.text" | tail -n 1) &&
				[ "$dn" != "$bn" ]; then
				lost=$((lost + 1)) twice=$((twice + 1))
				echo "$mode $kb KiB, $how after $us us: babeltrace2 read $bn events, tracepoint-dump $dn"
			elif ! [ -s "$d.bt" ]; then
				rm -rf "$d" "$d.counts" "$d.err" "$d.bt" "$d.check" # keep the ones that fail
			fi
			rm -f "$d.text"
			i=$((i + 1))
		done
		echo "$mode, $kb KiB windows, $how: $bad of $RUNS traces refused by babeltrace2"
	done
done
if [ $twice = 0 ]; then ok "stream mode: babeltrace2 read as many events as tracepoint-dump in every trace (none twice)"
else fail "stream mode: babeltrace2 and tracepoint-dump read different counts in $twice traces"; fi
if [ $unread = 0 ]; then ok "babeltrace2 read every trace as it is (7 ways of dying, $RUNS runs each: stream mode with 4 and 64 KiB windows, flight mode)"
else fail "babeltrace2 refused $unread of $total traces"; fi
if [ $lost = 0 ]; then ok "every completed record in every stream-mode trace; the newest ones, in order, in every flight-mode trace (tracepoint-dump reads them too)"
else fail "records missing, or readers that differ: $lost traces"; fi
finish
