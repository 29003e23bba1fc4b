#!/bin/sh
# bench/bigprog.sh OUT TSV - a program of some size: 1,000 tracepoints with
# 10 call sites each (10,000 sites in 10 files), built static-key, portable
# and without tracepoints, as a PIE.  Measures, for each build:
#   startup_us   time from posix_spawn to main, median of STARTUP_RUNS
#                spawns of each build, the three builds' spawns interleaved
#                (so that the load of a shared machine hits them alike)
#   startup_cpu_us   CPU time (user + system) of the whole short-lived
#                process, same spawns, median: less sensitive to that load
#   private_kb   text pages made private by the time main runs (smaps)
#   bytes_site   allocated bytes of the linked PIE above the build without
#                tracepoints, per call site (and per section, for the log)
#   enable_one   instructions of enabling one tracepoint (10 sites), its
#                first probe, after a warm-up cycle (callgrind)
#   enable_all_us / disable_all_us   one probe on every tracepoint and off,
#                one registration after the other (median of EA_RUNS runs)
#   enable_all_batch_us / disable_all_batch_us   the same inside
#                tracepoint_batch_begin/end (what TRACEPOINTS=* does)
# and, if LTTng-UST and lttng-tools are installed, the same program with
# 1,000 LTTng-UST events (bench/bigprog_lttng.sh): the time of
# "lttng enable-event -u -a" and "lttng start" with it registered.
set -u
OUT=$1 TSV=$2
RUNS=${RUNS:-9}
STARTUP_RUNS=${STARTUP_RUNS:-200}
EA_RUNS=${EA_RUNS:-3}
CC=${CC:-gcc}
NT=1000 NF=10
mkdir -p "$OUT/src" "$OUT/bin"
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
{
	echo '#undef TRACE_SYSTEM'
	echo '#undef TRACE_CONFIG'
	echo '#define TRACE_SYSTEM big'
	echo '#define TRACE_CONFIG CONFIG_BIG'
	echo '#if !defined(BIG_EV_H) || defined(TRACE_HEADER_MULTI_READ)'
	echo '#define BIG_EV_H'
	echo '#include <tracepoint.h>'
	i=0; while [ $i -lt $NT ]; do echo "DECLARE_TRACE(big_$i, TP_PROTO(int a, long b), TP_ARGS(a, b));"; i=$((i + 1)); done
	echo '#endif'
} >"$OUT/src/big_ev.h"
{
	echo '#include "big_ev.h"'
	i=0; while [ $i -lt $NT ]; do echo "DEFINE_TRACE(big_$i);"; i=$((i + 1)); done
} >"$OUT/src/big_def.c"
f=0
while [ $f -lt $NF ]; do
	{
		echo '#include "big_ev.h"'
		echo 'long big_sink;'
		i=0; while [ $i -lt $NT ]; do
			echo "__attribute__((noinline)) void s${f}_$i(int a, long b) { big_sink += a; trace_big_$i(a, b); }"
			i=$((i + 1))
		done
	} >"$OUT/src/big_s$f.c"
	[ $f -gt 0 ] && sed -i 's/^long big_sink;$/extern long big_sink;/' "$OUT/src/big_s$f.c"
	f=$((f + 1))
done
for b in ${BIG_BUILDS:-static portable none}; do
	case $b in
	static) d="-DCONFIG_BIG=1 -DTP_ON_BIG=1" ;;
	portable) d="-DCONFIG_BIG=1 -DTP_ON_BIG=1 -DTRACEPOINT_PORTABLE" ;;
	none) d="-DTP_ON_BIG=0" ;;
	esac
	objs=""
	for s in "$OUT"/src/big_s*.c "$OUT/src/big_def.c" bench/bigprog.c; do
		objs="$objs $OUT/bin/$b-$(basename "$s" .c).o"
	done
	# shellcheck disable=SC2016 # the script is sh -c's: expanded there
	for s in "$OUT"/src/big_s*.c "$OUT/src/big_def.c" bench/bigprog.c; do
		echo "$s"
	done | CC=$CC D=$d O=$OUT/bin/$b I=$OUT/src xargs -P "$(nproc)" -I{} sh -c \
		'$CC -O2 -g -fPIE -Iinclude -I"$I" $D -c "$1" -o "$O-$(basename "$1" .c).o"' sh {} || exit 1
	# shellcheck disable=SC2086
	$CC -pie $objs -o "$OUT/bin/big_$b" -ldl -lpthread || exit 1
done
sync # a freshly linked binary's page-cache pages count as dirty in smaps
med() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# Start-up: every build's spawns interleaved (the driver is in each binary).
"$OUT/bin/big_none" startup-cmp "$STARTUP_RUNS" "$OUT/bin/big_static" "$OUT/bin/big_portable" \
	"$OUT/bin/big_none" >"$OUT/startup.txt" || exit 1
for b in static portable none; do
	bin=$OUT/bin/big_$b
	put big "$b" startup_us "$(awk -v b="$bin" '$1 == b {print $2}' "$OUT/startup.txt")" us
	put big "$b" startup_cpu_us "$(awk -v b="$bin" '$1 == b {print $3}' "$OUT/startup.txt")" us
	put big "$b" private_kb "$("$bin" smaps)" KiB
	put big "$b" alloc_bytes "$(size -A "$bin" | awk 'NR > 2 && $3 > 0 && $1 !~ /^\.(debug|comment)/ {s += $2} END {print s}')" bytes
	if [ "$b" != none ]; then
		for mode in "" batch; do
			: >"$OUT/ea.txt"
			r=0
			while [ $r -lt "$EA_RUNS" ]; do
				# shellcheck disable=SC2086 # mode: no word or one
				"$bin" enable-all $mode >>"$OUT/ea.txt" || exit 1
				r=$((r + 1))
			done
			put big "$b" "enable_all${mode:+_$mode}_us" "$(cut -f1 "$OUT/ea.txt" | med)" us
			put big "$b" "disable_all${mode:+_$mode}_us" "$(cut -f2 "$OUT/ea.txt" | med)" us
		done
		if command -v valgrind >/dev/null 2>&1; then
			valgrind --tool=callgrind --toggle-collect=enable_one \
				--callgrind-out-file="$OUT/cg.$b" "$bin" enable-one >/dev/null 2>&1 || exit 1
			put big "$b" enable_one_instr "$(awk '/^(summary|totals):/ {print $2; exit}' "$OUT/cg.$b")" instr
		fi
	fi
	size -A "$bin" | awk 'NR > 2 && $2 > 0 {printf "%s=%s ", $1, $2} END {print ""}' >"$OUT/sections-$b.txt"
done
CC=$CC EA_RUNS=$EA_RUNS bench/bigprog_lttng.sh "$OUT" "$TSV" || exit 1
