#!/bin/sh
# A process that ends at any instant leaves a trace that babeltrace2 reads
# as it is (no tracepoint-dump --repair), and that holds every record it
# completed.  tests/recorder/death/death.c: 4 threads record without pause;
# after a random 1-12 ms the process ends by SIGKILL, SIGSEGV, abort(),
# _exit(), exec(), quick_exit() or a plain exit() while the others record.
# TP_DEATH_RUNS runs per way of ending (default 2; `make stress-death`: 10),
# with 4 KiB and 64 KiB windows in stream mode, and 64 KiB windows in
# flight mode.  Stream mode: babeltrace2 reads every trace (exit 0), and
# the test's own reader (tests/include/trace_read.h) finds, per thread,
# every record completed (or dropped and counted, after exit() began) and
# at most the one in flight, in order.  Flight mode: tracepoint-dump reads
# every trace; how many babeltrace2 refuses as they are is only printed
# (a ring's slots are not in time order: tracepoint-dump --repair writes
# them in order).  Prints the counts per way and window size.
. tests/lib.sh
need babeltrace2
dump_tool
cc_build -Itests/include "$S/death.c" -o "$B/death" -lpthread -ldl
RUNS=${TP_DEATH_RUNS:-2}
unread=0 lost=0 total=0
for setting in stream:4 stream:64 flight:64; do
	mode=${setting%%:*} kb=${setting#*:}
	for how in kill segv abort _exit exec quick_exit exit; do
		bad=0 i=0
		while [ $i -lt "$RUNS" ]; do
			us=$(( ($(od -An -N2 -tu2 /dev/urandom) % 11000) + 1000 ))
			d=$B/$mode-$kb-$how-$i
			head -c 96 /dev/zero >"$d.counts"
			TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$d TRACEPOINTS_MODE=$mode TRACEPOINTS_BUFFER_KB=$kb \
				TRACEPOINTS_FLIGHT_KB=256 "$B/death" "$how" "$us" "$d.counts" >/dev/null 2>"$d.err"
			total=$((total + 1))
			if ! babeltrace2 -o dummy "$d" >/dev/null 2>"$d.bt"; then
				bad=$((bad + 1))
				[ "$mode" = stream ] && unread=$((unread + 1)) &&
					echo "$mode $kb KiB, $how after $us us: babeltrace2: $(grep -m1 ' E ' "$d.bt")"
			fi
			if [ "$mode" = stream ] && ! "$B/death" check "$d" "$d.counts" >"$d.check" 2>&1; then
				lost=$((lost + 1))
				echo "$mode $kb KiB, $how after $us us: records missing: $(tr '\n' ' ' <"$d.check")"
			elif [ "$mode" = flight ] && ! "$DUMP" --summary "$d" >"$d.check" 2>&1; then
				lost=$((lost + 1))
				echo "$mode $kb KiB, $how after $us us: tracepoint-dump: $(head -3 "$d.check")"
			elif ! [ -s "$d.bt" ] || [ "$mode" = flight ]; then
				rm -rf "$d" "$d.counts" "$d.err" "$d.bt" "$d.check" # keep the ones that fail
			fi
			i=$((i + 1))
		done
		echo "$mode, $kb KiB windows, $how: $bad of $RUNS traces refused by babeltrace2"
	done
done
if [ $unread = 0 ]; then ok "stream mode: babeltrace2 read every trace as it is (7 ways of dying, $RUNS runs each, 4 and 64 KiB windows)"
else fail "stream mode: babeltrace2 refused $unread traces"; fi
if [ $lost = 0 ]; then ok "every completed record in every stream-mode trace; tracepoint-dump read every flight-mode trace"
else fail "records missing, or a trace tracepoint-dump could not read: $lost traces"; fi
finish
