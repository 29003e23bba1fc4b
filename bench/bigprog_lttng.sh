#!/bin/sh
# bench/bigprog_lttng.sh OUT TSV - the program of bench/bigprog.sh with
# LTTng-UST instead: 1,000 events (provider big_prov, two integer fields)
# with 10 call sites each in 10 files, a PIE, driven by bench/bigprog.c
# built with -DBIG_LTTNG.  Measures enable-all as an LTTng user does it:
# with the program started and registered to a private session daemon
# (bench/lttng-daemon.sh), the wall time of "lttng enable-event -u -a" then
# "lttng start" (median of EA_RUNS rounds, each with a fresh session and
# program), and of one "lttng list SESSION" round trip (the client's own
# cost, for reference).  Each round then has the program fire its 10,000
# sites and checks with babeltrace2 that 10,000 events were recorded, so
# the events were enabled.  Appends "big lttng ..." rows to TSV; skips
# (exit 0, with the reason) without LTTng-UST, lttng-tools or when another
# session daemon is running.
set -u
OUT=$1 TSV=$2
EA_RUNS=${EA_RUNS:-3}
CC=${CC:-gcc}
NT=1000 NF=10
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
for c in lttng lttng-sessiond babeltrace2; do
	command -v $c >/dev/null 2>&1 || { echo "bigprog lttng: skipped: $c not installed"; exit 0; }
done
printf '#include <lttng/tracepoint.h>\nint main(void){return 0;}\n' >"$OUT/lttng-probe.c"
$CC -x c "$OUT/lttng-probe.c" -o "$OUT/lttng-probe" -llttng-ust -ldl 2>/dev/null ||
	{ echo "bigprog lttng: skipped: liblttng-ust-dev not installed"; exit 0; }
L=$OUT/lsrc
mkdir -p "$L" "$OUT/bin"
{
	echo '#undef TRACEPOINT_PROVIDER'
	echo '#define TRACEPOINT_PROVIDER big_prov'
	echo '#undef TRACEPOINT_INCLUDE'
	echo '#define TRACEPOINT_INCLUDE "big_lttng_tp.h"'
	echo '#if !defined(BIG_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)'
	echo '#define BIG_LTTNG_TP_H'
	echo '#include <lttng/tracepoint.h>'
	i=0; while [ $i -lt $NT ]; do
		echo "TRACEPOINT_EVENT(big_prov, big_$i, TP_ARGS(int, a, long, b), TP_FIELDS(ctf_integer(int, a, a) ctf_integer(long, b, b)))"
		i=$((i + 1))
	done
	echo '#endif'
	echo '#include <lttng/tracepoint-event.h>'
} >"$L/big_lttng_tp.h"
printf '#define TRACEPOINT_CREATE_PROBES\n#define TRACEPOINT_DEFINE\n#include "big_lttng_tp.h"\n' >"$L/big_ldef.c"
{
	echo 'void big_fire_all(void);'
	echo 'void big_fire_all(void) {'
	f=0; while [ $f -lt $NF ]; do
		i=0; while [ $i -lt $NT ]; do
			echo "	{ extern void l${f}_$i(int, long); l${f}_$i($i, $f); }"
			i=$((i + 1))
		done
		f=$((f + 1))
	done
	echo '}'
} >"$L/big_lfire.c"
f=0
while [ $f -lt $NF ]; do
	{
		echo '#include "big_lttng_tp.h"'
		if [ $f = 0 ]; then echo 'long big_sink;'; else echo 'extern long big_sink;'; fi
		i=0; while [ $i -lt $NT ]; do
			echo "__attribute__((noinline)) void l${f}_$i(int a, long b) { big_sink += a; tracepoint(big_prov, big_$i, a, b); }"
			i=$((i + 1))
		done
	} >"$L/big_ls$f.c"
	f=$((f + 1))
done
# shellcheck disable=SC2016 # the script is sh -c's: expanded there
for s in "$L"/big_ls*.c "$L/big_ldef.c" "$L/big_lfire.c"; do echo "$s"; done |
	CC=$CC O=$OUT/bin/lttng I=$L xargs -P "$(nproc)" -I{} sh -c \
		'$CC -O2 -g -fPIE -I"$I" -c "$1" -o "$O-$(basename "$1" .c).o"' sh {} || exit 1
$CC -O2 -g -fPIE -Iinclude -DTP_ON_BIG=0 -DBIG_LTTNG -I"$OUT/src" -c bench/bigprog.c \
	-o "$OUT/bin/lttng-bigprog.o" || exit 1
$CC -pie "$OUT"/bin/lttng-*.o -o "$OUT/bin/big_lttng" -llttng-ust -ldl -lpthread || exit 1

S=tpbig
. bench/lttng-daemon.sh
lttng_up "$OUT/lttng" "$S"
case $? in 0) ;; 2) exit 0 ;; *) exit 1 ;; esac
now() { date +%s%N; }
: >"$OUT/lttng-ea.txt"
: >"$OUT/lttng-rt.txt"
r=0
while [ $r -lt "$EA_RUNS" ]; do
	[ $r -gt 0 ] && { lttng destroy "$S"; rm -rf "$LD/trace"; lttng create "$S" --output="$LD/trace"; }
	go=$OUT/lttng-go
	rm -f "$go"
	"$OUT/bin/big_lttng" lttng-wait "$go" >"$OUT/lttng-app.out" 2>&1 &
	app=$!
	i=0
	while ! grep -q ready "$OUT/lttng-app.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 600 ] && { echo "bigprog lttng: the program did not start"; kill "$app"; exit 1; }
		sleep 0.1
	done
	t0=$(now)
	lttng list "$S"
	t1=$(now)
	lttng enable-event -s "$S" -u -a
	lttng start "$S"
	t2=$(now)
	echo $(((t1 - t0) / 1000)) >>"$OUT/lttng-rt.txt"
	echo $(((t2 - t1) / 1000)) >>"$OUT/lttng-ea.txt"
	touch "$go"
	wait "$app" || { echo "bigprog lttng: the program failed"; exit 1; }
	lttng stop "$S"
	got=$(babeltrace2 "$LD/trace" 2>/dev/null | grep -c 'big_prov:big_')
	if [ "$got" != $((NT * NF)) ]; then
		echo "bigprog lttng: $got of $((NT * NF)) events recorded after enable-all: not reported"
		exit 0
	fi
	r=$((r + 1))
done
med() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
put big lttng enable_all_us "$(med <"$OUT/lttng-ea.txt")" us
put big lttng client_roundtrip_us "$(med <"$OUT/lttng-rt.txt")" us
exit 0
