#!/bin/sh
# bench/lttng-event-cost.sh DIR TSV - instructions per event LTTng-UST
# records, for the events of bench/event-cost.sh: bench_evc:three (3
# integers), str (an int and a 12-byte ctf_string), dyn (an int and an
# 8-byte ctf_sequence) (bench/lttng_ev.h, bench/lttng_ev.c).  As
# event-cost.sh: the program under callgrind for two counts, recording in
# a session (own lttng-sessiond, per-UID buffers, discard mode, to disk),
# the difference divided by the difference of the counts.  Appends
# "lttng_event <event> instr_event" to TSV (and the events discarded, which
# would make the figure too low).  Installs nothing; skips without
# liblttng-ust-dev, lttng-tools or valgrind.
set -u
D=$1 TSV=$2
CC=${CC:-cc}
for c in lttng lttng-sessiond valgrind; do
	command -v $c >/dev/null 2>&1 || { echo "skipped: $c not installed"; exit 0; }
done
mkdir -p "$D" || exit 1
(cd bench && $CC -O2 -g -I. lttng_ev.c -o "$(cd .. && cd "$D" && pwd)/lttng_ev" -llttng-ust -ldl) ||
	{ echo "skipped: cannot build with liblttng-ust"; exit 0; }
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
S=tpevc
. bench/lttng-daemon.sh
lttng_up "$D" "$S"
case $? in 0) ;; 2) exit 0 ;; *) exit 1 ;; esac
lttng enable-event -s "$S" -u 'bench_evc:*'
lttng start "$S"
N1=20000 N2=220000
ir() { # event count -> total Ir of the program
	valgrind --tool=callgrind --smc-check=all --callgrind-out-file="$D/cg.$1.$2" \
		"$D/lttng_ev" "$1" "$2" >"$D/vg.$1.$2.log" 2>&1 || { cat "$D/vg.$1.$2.log"; exit 1; }
	sed -n 's/^summary: *//p' "$D/cg.$1.$2"
}
for e in three str dyn; do
	a=$(ir $e $N1) b=$(ir $e $N2)
	per=$(( (b - a) / (N2 - N1) ))
	put lttng_event "$e" instr_event "$per" instr
	echo "LTTng-UST, instructions per recorded event ($e): $per"
done
lttng stop "$S"
put lttng_event all discarded "$(discarded)" events
exit 0
