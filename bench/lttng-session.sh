#!/bin/sh
# bench/lttng-session.sh BIN DIR N_CG N_TIME RUNS VG TSV - LTTng-UST recording
# events in a running tracing session, for bench/run.sh.  BIN is the loop
# built with -DV_LTTNG; DIR a private scratch directory.  Starts its own
# lttng-sessiond (LTTNG_HOME=DIR/home, no kernel tracing), creates a session
# writing to DIR/trace, enables 'bench_prov:*' (userspace), runs the loop
# under callgrind (if VG=1) and RUNS timing runs of N_TIME calls, checks that
# the events were written, then destroys the session and stops the daemon
# (also on exit).  Appends its results to TSV.  Installs nothing.
# Note: run as root, the daemon's sockets are the system-wide ones
# (/var/run/lttng), so if any session daemon already answers we leave it
# alone and skip.
set -u
BIN=$1 D=$2 N_CG=$3 N_TIME=$4 RUNS=$5 VG=$6 TSV=$7
for c in lttng lttng-sessiond; do
	command -v $c >/dev/null 2>&1 || {
		echo "skipped: lttng-tools not installed (apt-get install lttng-tools)"; exit 0; }
done
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
S=tpbench
mkdir -p "$D/home" || exit 1
LTTNG_HOME=$D/home
export LTTNG_HOME
if [ "$(id -u)" = 0 ]; then RUNDIR=/var/run/lttng; else RUNDIR=$LTTNG_HOME/.lttng; fi
if lttng list >/dev/null 2>&1; then
	echo "skipped lttng_session: a session daemon is already running (not disturbing it)"
	exit 0
fi
pid=
cleanup() {
	command lttng destroy "$S" >/dev/null 2>&1
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	rm -rf "$D/trace" # checked below; hundreds of MB not worth keeping
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
lttng-sessiond --daemonize --no-kernel >"$D/sessiond.log" 2>&1 || {
	cat "$D/sessiond.log"; echo "lttng_session: lttng-sessiond failed to start"; exit 1; }
pid=$(cat "$RUNDIR/lttng-sessiond.pid" 2>/dev/null)
lttng() { command lttng "$@" >>"$D/lttng.log" 2>&1 || { cat "$D/lttng.log"; echo "lttng $* failed"; exit 1; }; }
lttng create "$S" --output="$D/trace"
lttng enable-event -s "$S" -u 'bench_prov:*'
# Wait for the session daemon's registration reply (which enables the events)
# before main(): valgrind makes start-up slow.
LTTNG_UST_REGISTER_TIMEOUT=-1
export LTTNG_UST_REGISTER_TIMEOUT
tracebytes() { du -sb "$D/trace" 2>/dev/null | awk '{print $1 + 0}'; }
discarded() { command lttng list "$S" -c channel0 2>/dev/null | awk '/Discarded events:/ {s += $3} END {print s + 0}'; }

cgnote=
if [ "$VG" = 1 ]; then
	lttng start "$S"
	out=$D/cg.out
	if valgrind --tool=callgrind --smc-check=all --toggle-collect=bench_loop \
		--callgrind-out-file="$out" "$BIN" cg "$N_CG" 0 >"$D/cg.log" 2>&1; then
		lttng stop "$S"
		tot=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
		if command -v babeltrace2 >/dev/null 2>&1; then
			got=$(babeltrace2 "$D/trace" 2>/dev/null | grep -c 'bench_prov:bench_ev')
		else
			got=$(( $(tracebytes) > 0 ? N_CG : 0 ))
		fi
		if [ "$got" = "$N_CG" ]; then
			put session lttng_session instr_total "$tot" instr
			put session lttng_session instr_probes 0 instr
		else
			cgnote="callgrind run recorded $got of $N_CG events: instructions not reported"
		fi
	else
		lttng stop "$S"
		cgnote="callgrind run failed ($D/cg.log): instructions not reported"
	fi
	[ -n "$cgnote" ] && echo "lttng_session: $cgnote"
else
	cgnote="valgrind not installed: instructions not reported"
fi

before=$(tracebytes)
lttng start "$S"
r=0
while [ $r -lt "$RUNS" ]; do
	"$BIN" time "$N_TIME" 0 >>"$D/time" || { echo "timing lttng_session failed"; exit 1; }
	r=$((r + 1))
done
lttng stop "$S"
written=$(( $(tracebytes) - before ))
events=$(( RUNS * (N_TIME + N_TIME / 10) ))   # each run warms up with N/10 calls
lost=$(discarded)
# An event record is at least a compact header and 20 bytes of payload.
if [ "$written" -lt $(( events * 20 )) ]; then
	echo "lttng_session: only $written bytes written for $events events: not recording"
	exit 1
fi
put session lttng_session ns_median "$(sort -n "$D/time" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" ns
put lttng lttng_session n_time "$N_TIME" iterations
put lttng lttng_session events "$events" events
put lttng lttng_session trace_bytes "$written" bytes
put lttng lttng_session discarded "$lost" events
[ -n "$cgnote" ] && put lttng lttng_session cg_note "$cgnote" text
put lttng lttng_session version "$(command lttng --version 2>/dev/null | head -1)" text
exit 0
