#!/bin/sh
# bench/ctl.sh DIR TSV [N]: what the control channel (include/trace/control.h)
# costs.  tests/recorder/ctl/ctl_prog.c (ctl:ctl_tick every 200 us) runs without and
# with TRACEPOINTS_CONTROL=1; measured: its threads and descriptors both ways,
# the CPU time the idle control thread uses in 2 s (/proc/PID/task/TID/stat,
# clock ticks), N (default 50) round trips of each command on one
# connection (tests/recorder/ctl/hostile.c rtt: the program's side), median and
# worst, and the wall time of N tracepoint-ctl runs (a new process each
# time, as when a person or a script runs it).  Prints a summary and
# appends rows to TSV (kind ctl).
set -u
D=$1 TSV=$2 N=${3:-50}
CC=${CC:-cc}
mkdir -p "$D/run" && chmod 700 "$D/run" || exit 1
D=$(cd "$D" && pwd)
$CC -O2 -Iinclude -Itests/recorder/ctl -DCONFIG_CTL_TRACE tests/recorder/ctl/ctl_prog.c -o "$D/ctl_prog" -lpthread -ldl || exit 1
$CC -O2 tools/tracepoint-ctl.c -o "$D/tracepoint-ctl" || exit 1
$CC -O2 tests/recorder/ctl/hostile.c -o "$D/hostile" || exit 1
XDG_RUNTIME_DIR=$D/run
export XDG_RUNTIME_DIR
put() { printf 'ctl\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$TSV"; }

# run VAR=VALUE...: starts ctl_prog, waits for its ready line; sets P
run() {
	env CTL_SECONDS=60 TRACEPOINTS_DIR="$D/trace" "$@" "$D/ctl_prog" >"$D/prog.out" 2>"$D/prog.err" &
	P=$!
	i=0
	until grep -q '^ready ' "$D/prog.out" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 500 ] && { echo "ctl_prog did not start"; exit 1; }
		sleep 0.01
	done
}
count() { find "$1" -mindepth 1 -maxdepth 1 | wc -l; }

run
off_threads=$(count /proc/$P/task) off_fds=$(count /proc/$P/fd)
kill $P; wait $P
run TRACEPOINTS_CONTROL=1
on_threads=$(count /proc/$P/task) on_fds=$(count /proc/$P/fd)
tid=$(grep -l '^tp-control$' /proc/$P/task/*/comm | cut -d/ -f5)
cpu() { awk '{ print $14 + $15 }' "/proc/$P/task/$tid/stat"; }
c0=$(cpu)
sleep 2
idle=$(($(cpu) - c0))
echo "control channel: off: $off_threads thread(s), $off_fds descriptors; on: $on_threads threads, $on_fds descriptors"
echo "idle control thread: $idle clock ticks of CPU in 2 s"
put off threads "$off_threads" threads
put off fds "$off_fds" fds
put on threads "$on_threads" threads
put on fds "$on_fds" fds
put on idle_ticks_2s "$idle" ticks

"$D/tracepoint-ctl" "$P" enable 'ctl:*' >/dev/null || exit 1 # the trace starts (5 ms clock calibration)
# Round trips on one connection (the program's side: parse, run, reply).
"$D/hostile" "$D/run/tracepoints/$P.sock" rtt "$N" >"$D/rtt" || { cat "$D/rtt"; exit 1; }
while read -r c med worst; do
	echo "$c on one connection: median $med us, worst $worst us ($N round trips)"
	put "$c" rtt_median_us "$med" us
	put "$c" rtt_worst_us "$worst" us
done <"$D/rtt"
# The tool as a person or a script runs it: a new process each time.
: >"$D/times"
k=0
while [ $k -lt "$N" ]; do
	t0=$(date +%s%N)
	"$D/tracepoint-ctl" "$P" flush >/dev/null || exit 1
	echo $((($(date +%s%N) - t0) / 1000)) >>"$D/times"
	k=$((k + 1))
done
med=$(sort -n "$D/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "tracepoint-ctl PID flush, a new process each time: median $med us ($N runs)"
put tool flush_median_us "$med" us
kill $P; wait $P
