#!/bin/sh
# bench/lttng-session.sh BIN DIR N_CG N_TIME RUNS VG TSV - LTTng-UST recording
# events in a running tracing session, for bench/run.sh.  BIN is the loop
# built with -DV_LTTNG; DIR a private scratch directory.  Starts its own
# lttng-sessiond (LTTNG_HOME=DIR/home, no kernel tracing), creates a session
# writing to DIR/trace, enables 'bench_prov:*' (userspace), runs the loop
# under callgrind (if VG=1) and RUNS timing runs of N_TIME calls, checks that
# the events were written, then destroys the session and stops the daemon
# (also on exit).  Appends its results to TSV.  Installs nothing.
set -u
BIN=$1 D=$2 N_CG=$3 N_TIME=$4 RUNS=$5 VG=$6 TSV=$7
for c in lttng lttng-sessiond; do
	command -v $c >/dev/null 2>&1 || {
		echo "skipped: lttng-tools not installed (apt-get install lttng-tools)"; exit 0; }
done
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
S=tpbench
. bench/lttng-daemon.sh
lttng_up "$D" "$S"
case $? in 0) ;; 2) exit 0 ;; *) exit 1 ;; esac
lttng enable-event -s "$S" -u 'bench_prov:*'

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
