#!/bin/sh
# A hist trigger under threads, wall clock (bench/hist_mt.c; the event and
# trigger of bench/hist-cost.sh: 'evf:evf_three hist:keys=b:vals=c', one u64
# key + one sum, nothing recorded):
#  - per-call slowdown of 2 threads on one trigger: rounds of N events on
#    one thread alone, then N on each of 2 threads at once, in one process;
#    the median of the per-round ratios (together / alone) of each
#    process, and the median of RUNS processes.  Rounds are short (a few
#    ms), so that on a shared machine most of them are not preempted.  The
#    same with no trigger (the tracepoint idle; 5 x N calls, rounds of
#    about the same length) is the machine's own slowdown.
#  - reading a 2048-entry table (size=2048, keys 0..2047) while busy
#    threads fire into it without pause (nproc - 1 of them, at least 1, so
#    that the reader has a CPU): trace_recorder_hist_text() timed READS
#    times; the median read of each process, the median of RUNS processes,
#    and the slowest read seen.
# The processes of the three kinds are interleaved.  Prints one line each:
#   hist 2 threads: alone A ns, together B ns, slowdown R (no trigger: R0)
#   hist read 2048 entries, T busy threads: median M us, slowest S us
# Usage: bench/hist-mt.sh   (CC, TP_BUILD, TP_CFLAGS, RUNS, N, ROUNDS, READS)
set -u
CC=${CC:-cc}
B=${TP_BUILD:-build}/hist_mt
TPF=${TP_CFLAGS:-}
RUNS=${RUNS:-5} N=${N:-200000} ROUNDS=${ROUNDS:-100} READS=${READS:-50}
mkdir -p "$B" || exit 1
# shellcheck disable=SC2086 # $TPF: a list of flags
$CC -O2 -g $TPF -Iinclude -Itests/include -Ibench bench/hist_mt.c -o "$B/hist_mt" -ldl -lpthread || exit 1
T=$(($(nproc) - 1))
[ "$T" -ge 1 ] || T=1
: >"$B/on" && : >"$B/off" && : >"$B/read" || exit 1
r=0
while [ $r -lt "$RUNS" ]; do
	# the table goes to stderr at exit
	"$B/hist_mt" pairs "$N" 2 "$ROUNDS" >>"$B/on" 2>/dev/null || { echo "hist_mt pairs failed"; exit 1; }
	"$B/hist_mt" pairs $((5 * N)) 2 "$ROUNDS" off >>"$B/off" 2>/dev/null || { echo "hist_mt pairs off failed"; exit 1; }
	"$B/hist_mt" read "$READS" 2048 "$T" >>"$B/read" 2>/dev/null || { echo "hist_mt read failed"; exit 1; }
	r=$((r + 1))
done
# the process with the median of column $2 of file $1: its line
median() { sort -n -k"$2","$2" "$1" | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }
# shellcheck disable=SC2046 # three numbers
set -- $(median "$B/on" 3) $(median "$B/off" 3)
echo "hist 2 threads: alone $1 ns, together $2 ns, slowdown $3 (no trigger: $6)"
# shellcheck disable=SC2046 # three numbers
set -- $(median "$B/read" 1)
slow=$(sort -n -k2,2 "$B/read" | tail -1 | cut -d' ' -f2)
[ "$3" = 2048 ] || { echo "hist_mt read: $3 entries, want 2048"; exit 1; }
echo "hist read 2048 entries, $T busy threads: median $1 us, slowest $slow us"
