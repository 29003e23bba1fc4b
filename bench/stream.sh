#!/bin/sh
# bench/stream.sh DIR TSV [N] [RUNS] - sustained recording to disk, ours
# next to LTTng-UST in a running session, for bench/run.sh: N events
# (default 10,000,000) fired as fast as possible from 1 and from 2 threads
# (bench/stream_rec.c), RUNS times each (default 3, median reported):
# events per second, bytes per event on disk, events dropped; our stream
# mode against our flight mode, per event.  Then the
# readers: tracepoint-dump to text and to JSON, babeltrace2 to text, on
# one of our traces; and a real program at default settings (Python under
# examples/memtrace).  Appends to TSV.  Installs nothing.
set -u
D=$1 TSV=$2 N=${3:-10000000} RUNS=${4:-3}
CC=${CC:-gcc}
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mkdir -p "$D" || exit 1
$CC -O2 -Iinclude -Itests/include -Ibench bench/stream_rec.c -o "$D/ours" -lpthread -ldl || exit 1
# one variant: name, threads, command that records N events and prints "events seconds"
measure() { # name threads bytes-command run-command...
	name=$1 th=$2 bytes=$3; shift 3
	: >"$D/$name.rate"; : >"$D/$name.bytes"
	r=0
	while [ $r -lt "$RUNS" ]; do
		out=$("$@") || { echo "$name failed"; return 1; }
		echo "$out" | awk '{printf "%.0f\n", $1 / $2}' >>"$D/$name.rate"
		echo "$out" | awk -v b="$(eval "$bytes")" '{printf "%.2f\n", b / $1}' >>"$D/$name.bytes"
		r=$((r + 1))
	done
	put stream "$name" events_per_s "$(median <"$D/$name.rate")" "events/s"
	put stream "$name" bytes_per_event "$(median <"$D/$name.bytes")" bytes
	echo "$name: $(median <"$D/$name.rate") events/s, $(median <"$D/$name.bytes") bytes/event"
}
# shellcheck disable=SC2317 # called through measure
ours() { rm -rf "$D/t"; "$D/ours" "$N" "$1" "$D/t" 2>"$D/ours.err"; }
# shellcheck disable=SC2317 # called through measure
ours_bytes() { du -sb "$D/t" | awk '{print $1}'; }
for th in 1 2; do
	measure "ours_${th}t" "$th" ours_bytes ours "$th" || exit 1
	if grep -q dropped "$D/ours.err"; then
		cat "$D/ours.err"; put stream "ours_${th}t" dropped "$(sed -n 's/.*: \([0-9]*\) dropped/\1/p' "$D/ours.err")" events
	else put stream "ours_${th}t" dropped 0 events; fi
done

# Stream mode against flight mode (no disk: the rings are written over),
# one thread, the same events, runs interleaved: ns per event (wall time of
# the firing loop) and CPU ns per event (perf task-clock, where perf runs),
# medians, and stream / flight (target: <= 1.3).
: >"$D/sf.stream"; : >"$D/sf.flight"; : >"$D/sfc.stream"; : >"$D/sfc.flight"
r=0
while [ $r -lt "$RUNS" ]; do
	for m in stream flight; do
		rm -rf "$D/t"
		if perf stat -x, -e task-clock -o "$D/sf.perf" true 2>/dev/null; then
			perf stat -x, -e task-clock -o "$D/sf.perf" "$D/ours" "$N" 1 "$D/t" $m 2>/dev/null >"$D/sf.out"
			awk -F, -v n="$N" '/task-clock/ {printf "%.2f\n", $1 * 1e6 / n}' "$D/sf.perf" >>"$D/sfc.$m"
		else
			"$D/ours" "$N" 1 "$D/t" $m 2>/dev/null >"$D/sf.out"
		fi
		awk '{printf "%.2f\n", $2 / $1 * 1e9}' "$D/sf.out" >>"$D/sf.$m"
	done
	r=$((r + 1))
done
ws=$(median <"$D/sf.stream") wf=$(median <"$D/sf.flight")
put modes stream ns_per_event "$ws" ns
put modes flight ns_per_event "$wf" ns
put modes stream_vs_flight ratio "$(echo "$ws $wf" | awk '{printf "%.2f", $1 / $2}')" x
msg="stream vs flight mode, 1 thread: $ws against $wf ns/event (wall)"
if [ -s "$D/sfc.stream" ]; then
	cs=$(median <"$D/sfc.stream") cf=$(median <"$D/sfc.flight")
	put modes stream cpu_ns_per_event "$cs" ns
	put modes flight cpu_ns_per_event "$cf" ns
	put modes stream_vs_flight cpu_ratio "$(echo "$cs $cf" | awk '{printf "%.2f", $1 / $2}')" x
	msg="$msg, $cs against $cf (CPU)"
fi
echo "$msg"

# Readers, on a 2-thread trace: events per second (wall, the median of
# RUNS interleaved runs), and instructions per event (callgrind, on a
# trace of 200,000 events: repeatable where wall time is not).
rm -rf "$D/t"
"$D/ours" "$N" 2 "$D/t" 2>/dev/null >/dev/null || { echo "ours failed"; exit 1; }
DUMP=${TP_DUMP:-build/tracepoint-dump}
if [ -x "$DUMP" ]; then
	r=0
	: >"$D/rd.text"; : >"$D/rd.json"; : >"$D/rd.perfetto"
	while [ $r -lt "$RUNS" ]; do
		for f in text json perfetto; do
			s=$(date +%s.%N)
			"$DUMP" --$f "$D/t" >/dev/null || { echo "tracepoint-dump --$f failed"; exit 1; }
			e=$(date +%s.%N)
			echo "$s $e $N" | awk '{printf "%.0f\n", $3 / ($2 - $1)}' >>"$D/rd.$f"
		done
		r=$((r + 1))
	done
	rm -rf "$D/t2"
	"$D/ours" 200000 2 "$D/t2" 2>/dev/null >/dev/null || { echo "ours failed"; exit 1; }
	for f in text json perfetto; do
		rate=$(median <"$D/rd.$f")
		put reader "dump_$f" events_per_s "$rate" "events/s"
		msg="tracepoint-dump --$f: $rate events/s"
		if command -v valgrind >/dev/null 2>&1 &&
			valgrind --tool=callgrind --callgrind-out-file="$D/rd.cg" "$DUMP" --$f "$D/t2" \
				>/dev/null 2>"$D/rd.cgerr"; then
			ipe=$(sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' "$D/rd.cgerr" | tr -d , |
				awk '{printf "%.0f", $1 / 200000}')
			put reader "dump_$f" instr_per_event "$ipe" instr
			msg="$msg, $ipe instructions/event"
		fi
		echo "$msg"
	done
	rm -rf "$D/t2" "$D/rd.cg"
fi
if command -v babeltrace2 >/dev/null 2>&1; then
	s=$(date +%s.%N)
	babeltrace2 "$D/t" >/dev/null || { echo "babeltrace2 failed"; exit 1; }
	e=$(date +%s.%N)
	rate=$(echo "$s $e $N" | awk '{printf "%.0f", $3 / ($2 - $1)}')
	put reader babeltrace2_text events_per_s "$rate" "events/s"
	echo "babeltrace2 (text): $rate events/s"
fi
rm -rf "$D/t"

# A real program at default settings: Python under examples/memtrace, one
# event per malloc/realloc/free (PYTHONMALLOC=malloc), a few million events.
# First the check, one run: with MEMTRACE_COUNT=1 the library counts the
# calls it made while recording, and the trace must hold them all.  Then
# the cost, at default settings (no MEMTRACE_COUNT): /usr/bin/python3
# alone (the untraced time the targets compare with: no library
# preloaded), with the library preloaded and nothing recorded (TRACEPOINTS
# unset: the wrappers' cost), recording mem:* in stream mode (the default)
# and in flight mode; MT_RUNS interleaved runs each (default RUNS, at
# least 7), medians of the wall time and of the CPU time (perf task-clock,
# where perf runs).  Target of issue 29: traced / untraced <= 1.2.
if [ -x /usr/bin/python3 ] && [ -x "$DUMP" ] &&
	$CC -O2 -fPIC -shared -Iinclude -Iexamples -DCONFIG_MEMTRACE examples/memtrace/memtrace.c \
		-o "$D/libmemtrace.so" -lpthread -ldl; then
	printf 'd = {}\nfor i in range(300000):\n    d[str(i)] = [i, str(i) * 2]\nprint(len(d))\n' >"$D/work.py"
	rm -rf "$D/mt"
	MEMTRACE_COUNT=1 TRACEPOINTS='mem:*' TRACEPOINTS_DIR=$D/mt LD_PRELOAD=$D/libmemtrace.so PYTHONMALLOC=malloc \
		/usr/bin/python3 "$D/work.py" >/dev/null 2>"$D/mt.err" || { cat "$D/mt.err"; echo "memtrace run failed"; exit 1; }
	calls=$(sed -n 's/^memtrace: \([0-9]*\) calls recorded$/\1/p' "$D/mt.err")
	"$DUMP" --summary "$D/mt" >"$D/mt.sum" || { echo "tracepoint-dump --summary failed"; exit 1; }
	# the allocator's events (mem:heap_bytes and mem:gc are not calls)
	events=$(awk '$2 ~ /^mem:(malloc|realloc|free)$/ {s += $1} END {print s + 0}' "$D/mt.sum")
	all=$(awk '/^events / {s += $2} END {print s + 0}' "$D/mt.sum")
	dropped=$(awk '/^dropped / {s += $2} END {print s + 0}' "$D/mt.sum")
	put memtrace python3 calls "$calls" calls
	put memtrace python3 events_on_disk "$events" events
	put memtrace python3 dropped "$dropped" events
	echo "memtrace: python3 made $calls calls while recording, $events events on disk, $dropped dropped"
	MT_RUNS=${MT_RUNS:-$RUNS}
	[ "$MT_RUNS" -ge 7 ] || MT_RUNS=7
	PERF=
	perf stat -x, -e task-clock -o "$D/mt.perf" true 2>/dev/null && PERF=1
	# one run of variant $1 (plain, preload, stream, flight): wall and CPU seconds
	mt_run() {
		rm -rf "$D/mtt"
		case $1 in
		plain) set -- "$1" env ;;
		preload) set -- "$1" env LD_PRELOAD="$D/libmemtrace.so" ;;
		stream) set -- "$1" env LD_PRELOAD="$D/libmemtrace.so" TRACEPOINTS='mem:*' TRACEPOINTS_DIR="$D/mtt" ;;
		flight) set -- "$1" env LD_PRELOAD="$D/libmemtrace.so" TRACEPOINTS='mem:*' TRACEPOINTS_DIR="$D/mtt" \
			TRACEPOINTS_MODE=flight ;;
		esac
		v=$1
		shift
		s=$(date +%s.%N)
		if [ -n "$PERF" ]; then
			PYTHONMALLOC=malloc perf stat -x, -e task-clock -o "$D/mt.perf" "$@" /usr/bin/python3 "$D/work.py" \
				>/dev/null 2>"$D/mt.err" || { cat "$D/mt.err"; return 1; }
			awk -F, '/task-clock/ {printf "%.3f\n", $1 / 1000}' "$D/mt.perf" >>"$D/mt.cpu.$v"
		else
			PYTHONMALLOC=malloc "$@" /usr/bin/python3 "$D/work.py" >/dev/null 2>"$D/mt.err" || { cat "$D/mt.err"; return 1; }
		fi
		e=$(date +%s.%N)
		echo "$s $e" | awk '{printf "%.3f\n", $2 - $1}' >>"$D/mt.wall.$v"
	}
	for m in plain preload stream flight; do : >"$D/mt.wall.$m"; : >"$D/mt.cpu.$m"; done
	r=0
	while [ $r -lt "$MT_RUNS" ]; do
		for m in plain preload stream flight; do
			mt_run $m || { echo "memtrace $m run failed"; exit 1; }
		done
		r=$((r + 1))
	done
	rm -rf "$D/mtt"
	plain=$(median <"$D/mt.wall.plain")
	msg="memtrace, medians of $MT_RUNS interleaved runs: untraced ${plain}s wall"
	put memtrace python3 seconds_plain "$plain" s
	for m in preload stream flight; do
		w=$(median <"$D/mt.wall.$m")
		x=$(echo "$w $plain" | awk '{printf "%.2f", $1 / $2}')
		case $m in stream) put memtrace python3 seconds_traced "$w" s ;; *) put memtrace python3 "seconds_$m" "$w" s ;; esac
		put memtrace "${m}_vs_plain" ratio "$x" x
		msg="$msg, $m ${w}s (${x}x)"
	done
	if [ -s "$D/mt.cpu.plain" ]; then
		cplain=$(median <"$D/mt.cpu.plain")
		put memtrace python3 cpu_s_plain "$cplain" s
		msg="$msg; CPU: untraced ${cplain}s"
		for m in preload stream flight; do
			c=$(median <"$D/mt.cpu.$m")
			x=$(echo "$c $cplain" | awk '{printf "%.2f", $1 / $2}')
			put memtrace python3 "cpu_s_$m" "$c" s
			put memtrace "${m}_vs_plain" cpu_ratio "$x" x
			msg="$msg, $m ${c}s (${x}x)"
		done
	fi
	echo "$msg"
	# The same trace as Chrome JSON and as Perfetto protobuf: bytes per event.
	# (counted through a pipe: the JSON is a few hundred MB)
	jb=$("$DUMP" --json "$D/mt" | wc -c)
	pb=$("$DUMP" --perfetto "$D/mt" | wc -c)
	put perfetto python3 events "$all" events
	put perfetto python3 json_bytes_per_event "$(awk -v b="$jb" -v n="$all" 'BEGIN {printf "%.1f", b / n}')" bytes/event
	put perfetto python3 proto_bytes_per_event "$(awk -v b="$pb" -v n="$all" 'BEGIN {printf "%.1f", b / n}')" bytes/event
	put perfetto python3 proto_to_json "$(awk -v p="$pb" -v j="$jb" 'BEGIN {printf "%.3f", p / j}')" ratio
	echo "perfetto: $all events: JSON $jb bytes, protobuf $pb bytes"
	rm -rf "$D/mt"
else
	echo "skipped memtrace: needs /usr/bin/python3 and tracepoint-dump"
fi

# LTTng-UST in a running session, same event shape, same counts.
for c in lttng lttng-sessiond; do
	command -v $c >/dev/null 2>&1 || { echo "skipped lttng streaming: lttng-tools not installed"; exit 0; }
done
$CC -O2 -Iinclude -Itests/include -Ibench -DV_LTTNG bench/stream_rec.c bench/lttng_tp.c -o "$D/lttng" \
	-lpthread -ldl -llttng-ust 2>/dev/null || { echo "skipped lttng streaming: liblttng-ust-dev not installed"; exit 0; }
S=tpstream
. bench/lttng-daemon.sh
lttng_up "$D/lt" "$S"
case $? in 0) ;; 2) exit 0 ;; *) exit 1 ;; esac
lttng enable-event -s "$S" -u 'bench_prov:*'
# shellcheck disable=SC2317 # called through measure
lt() { # threads: one run in a fresh trace
	lttng clear "$S"
	b0=$(tracebytes) d0=$(discarded)
	lttng start "$S"
	out=$("$D/lttng" "$N" "$1") || return 1
	lttng stop "$S"
	echo "$(($(tracebytes) - b0)) $(($(discarded) - d0))" >"$D/lt.last"
	echo "$out"
}
# shellcheck disable=SC2317 # called through measure
lt_bytes() { awk '{print $1}' "$D/lt.last"; }
for th in 1 2; do
	measure "lttng_${th}t" "$th" lt_bytes lt "$th" || exit 1
	put stream "lttng_${th}t" dropped "$(awk '{print $2}' "$D/lt.last")" events
	echo "lttng_${th}t: $(awk '{print $2}' "$D/lt.last") discarded in the last run"
done
exit 0
