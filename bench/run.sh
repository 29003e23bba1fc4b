#!/bin/sh
# bench/run.sh - `make bench`: builds and runs every benchmark variant side by
# side, prints one table, writes build/bench/results.tsv and (with gnuplot)
# docs/bench.png.  Installs nothing; a missing alternative is skipped.
# Environment: CC (loop variants; default gcc), N_CG (200000), N_TIME
# (50000000), RUNS (9), REPS (2000), N_LT (1000000: calls per timing run of
# lttng_session, whose events are written to disk).
set -u
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-gcc}
[ "$CC" = cc ] && CC=gcc
SZCC=gcc                      # sizes are measured with gcc, as documented
N_CG=${N_CG:-200000}
N_TIME=${N_TIME:-50000000}
RUNS=${RUNS:-9}
REPS=${REPS:-2000}
N_LT=${N_LT:-1000000}
# Work in a private directory (build/ may be cleaned by a concurrent make
# clean) and copy it to build/bench at the end.
OUT=build/bench
B=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench.XXXXXX") || exit 1
trap 'rm -rf "$B"' EXIT
G=$B/gen
TSV=$B/results.tsv
mkdir -p "$B/bin" "$B/cg" "$B/obj" "$B/time"
bench/gen.sh "$G" || exit 1
INC="-Iinclude -Ibench -I$G"
WARN="-Wall -Wextra -Werror"

skip() { echo "skipped: $1 not installed (apt-get install $1)"; }
have_lttng=0; have_sdt=0; have_vg=0
printf '#include <lttng/tracepoint.h>\nint main(void){return 0;}\n' >"$B/probe.c"
$CC -x c "$B/probe.c" -o "$B/probe" -llttng-ust -ldl 2>/dev/null && have_lttng=1
printf '#include <sys/sdt.h>\nint main(void){DTRACE_PROBE(a,b);return 0;}\n' >"$B/probe.c"
$CC -x c "$B/probe.c" -o "$B/probe" 2>/dev/null && have_sdt=1
command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 && have_vg=1

echo "== tracepoint.h benchmark  ($(date -u '+%Y-%m-%d %H:%M:%S UTC'))"
echo "machine : $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, $(uname -r)"
echo "header  : include/tracepoint.h + include/tracepoint/*.h, contents $(cat include/tracepoint.h include/tracepoint/*.h | git hash-object --stdin 2>/dev/null | cut -c1-12) (HEAD $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- include/tracepoint.h include/tracepoint 2>/dev/null || echo ', modified'))"
echo "loop CC : $($CC --version | head -1)"
echo "size CC : $($SZCC --version | head -1)"
command -v clang >/dev/null 2>&1 && echo "clang   : $(clang --version | head -1)"
[ $have_vg = 1 ] && echo "valgrind: $(valgrind --version)"
if [ $have_lttng = 1 ]; then echo "lttng   : liblttng-ust-dev $(dpkg-query -W -f '${Version}' liblttng-ust-dev 2>/dev/null)"; else skip liblttng-ust-dev; fi
if [ $have_sdt = 1 ]; then echo "usdt    : systemtap-sdt-dev $(dpkg-query -W -f '${Version}' systemtap-sdt-dev 2>/dev/null)"; else skip systemtap-sdt-dev; fi
[ $have_vg = 1 ] || skip valgrind
printf 'kind\tvariant\tmetric\tvalue\tunit\n' >"$TSV"
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
put param all n_cg "$N_CG" iterations
put param all n_time "$N_TIME" iterations
put param all runs "$RUNS" runs
put param all n_lt "$N_LT" iterations
put param all loop_cc "$($CC --version | head -1)" text
put param all size_cc "$($SZCC --version | head -1)" text
put param all cpu "$(lscpu | sed -n 's/^Model name: *//p' | head -1)" text
put param all date "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" text

# ---------------------------------------------------------------- loop ----
# name:binary:probes   (binary = build flavour of bench/loop.c)
VARIANTS="baseline:base:0 compiled_out:out:0 static_idle:static:0 portable_idle:portable:0
static_1probe:static:1 portable_1probe:portable:1 static_4probes:static:4 portable_4probes:portable:4
ours_usdt_idle:ours_usdt:0 ours_usdt_1probe:ours_usdt:1 fnptr_1probe:fnptr:1"
[ $have_lttng = 1 ] && VARIANTS="$VARIANTS lttng_idle:lttng:0"
[ $have_sdt = 1 ] && VARIANTS="$VARIANTS usdt:usdt:0 usdt_sem_idle:usdt_sem:0"
LCFLAGS="-O2 -g -gdwarf-4 $WARN $INC"   # valgrind 3.19 cannot read clang's DWARF 5
build() { # flavour, extra args...
	f=$1; shift
	# shellcheck disable=SC2086 # $LCFLAGS: a list of flags
	$CC $LCFLAGS "$@" -o "$B/bin/$f" -ldl -lpthread || { echo "build of $f failed"; exit 1; }
}
build base -DV_BASE bench/loop.c
build fnptr -DV_FNPTR bench/loop.c
build out -DV_OURS bench/loop.c
build static -DV_OURS -DCONFIG_BENCH_TP=1 bench/loop.c bench/tp_define.c
build portable -DV_OURS -DCONFIG_BENCH_TP=1 -DTRACEPOINT_PORTABLE bench/loop.c bench/tp_define.c
# Our tracepoints as USDT probes too: the key is the semaphore, no patching.
build ours_usdt -DV_OURS -DCONFIG_BENCH_TP=1 -DTRACEPOINT_USDT bench/loop.c bench/tp_define.c
[ $have_lttng = 1 ] && build lttng -DV_LTTNG bench/loop.c bench/lttng_tp.c -llttng-ust
[ $have_sdt = 1 ] && build usdt -DV_USDT bench/loop.c
[ $have_sdt = 1 ] && build usdt_sem -DV_USDT_SEM bench/loop.c
# No session daemon is wanted: do not wait for one.
export LTTNG_UST_REGISTER_TIMEOUT=0

if [ $have_vg = 1 ]; then
	for v in $VARIANTS; do
		IFS=: read -r name bin pr <<E
$v
E
		out="$B/cg/$name.out"
		valgrind --tool=callgrind --smc-check=all --toggle-collect=bench_loop \
			--callgrind-out-file="$out" "$B/bin/$bin" cg "$N_CG" "$pr" >"$B/cg/$name.log" 2>&1 ||
			{ cat "$B/cg/$name.log"; echo "callgrind $name failed"; exit 1; }
		tot=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
		pb=$(callgrind_annotate --threshold=100 "$out" 2>/dev/null |
			awk '/:bench_probe[0-9]/ {gsub(",", "", $1); s += $1} END {print s + 0}')
		put loop "$name" instr_total "$tot" instr
		put loop "$name" instr_probes "$pb" instr
	done
fi

# Timing: RUNS rounds, each variant once per round (interleaved).
r=0
while [ $r -lt "$RUNS" ]; do
	for v in $VARIANTS; do
		IFS=: read -r name bin pr <<E
$v
E
		"$B/bin/$bin" time "$N_TIME" "$pr" >>"$B/time/$name" || { echo "timing $name failed"; exit 1; }
	done
	r=$((r + 1))
done
for v in $VARIANTS; do
	name=${v%%:*}
	put loop "$name" ns_median "$(sort -n "$B/time/$name" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" ns
done

# Threads: the same enabled tracepoint (one empty probe) fired by 1 thread
# alone and then by as many threads as there are CPUs at once, in rounds of
# N_MT calls per thread inside one process (`loop pairs`): both halves of a
# round see the same machine, which a VM's slow phases would otherwise
# split.  Each process prints the medians of its MT_ROUNDS rounds; the table
# takes the median process of RUNS_MT interleaved ones.  The baseline loop
# (no tracepoint) runs the same way: its slowdown is the machine's own.
NT=$(nproc)
N_MT=${N_MT:-1000000}
MT_ROUNDS=${MT_ROUNDS:-200}
RUNS_MT=${RUNS_MT:-3}
MT_VARIANTS="baseline:base:0 fnptr_1probe:fnptr:1 static_1probe:static:1 portable_1probe:portable:1" # name:binary:probes
r=0
while [ $r -lt "$RUNS_MT" ]; do
	for v in $MT_VARIANTS; do
		bin=${v#*:}
		"$B/bin/${bin%:*}" pairs "$N_MT" "${v##*:}" "$NT" "$MT_ROUNDS" >>"$B/time/mt_${v%%:*}" ||
			{ echo "threads ${v%%:*} failed"; exit 1; }
	done
	r=$((r + 1))
done
put param all threads "$NT" threads
put param all mt_rounds "$MT_ROUNDS" rounds
put param all runs_mt "$RUNS_MT" runs
for v in $MT_VARIANTS; do
	# the process with the median ratio, its three figures
	# shellcheck disable=SC2046 # three numbers
	set -- $(sort -n -k3,3 "$B/time/mt_${v%%:*}" | awk '{l[NR]=$0} END {print l[int((NR+1)/2)]}')
	put threads "${v%%:*}" ns_1 "$1" ns
	put threads "${v%%:*}" "ns_$NT" "$2" ns
	put threads "${v%%:*}" ratio "$3" x
done

# LTTng-UST recording in a running session (its own session daemon), after
# the interleaved runs so that no daemon is up while lttng_idle runs.
if [ $have_lttng = 1 ]; then
	mkdir -p "$B/lttng"
	bench/lttng-session.sh "$B/bin/lttng" "$B/lttng" "$N_CG" "$N_LT" "$RUNS" "$have_vg" "$TSV" ||
		{ echo "lttng_session failed"; exit 1; }
	export LTTNG_UST_REGISTER_TIMEOUT=0
fi
# Our sink recording one event (3 integer fields), for comparison with it.
if [ $have_vg = 1 ]; then
	ec=$(CC=$CC TP_BUILD=$B bench/event-cost.sh) || { echo "$ec"; echo "event-cost.sh failed"; exit 1; }
	put sink sink_recording instr_event "$(echo "$ec" | sed -n 's/.*: \([0-9]*\) total.*/\1/p')" instr
	put sink sink_recording instr_recorder "$(echo "$ec" | sed -n 's/.* total, \([0-9?]*\) in the recorder.*/\1/p')" instr
	# one int and a 12-byte string, one int and an 8-byte dynamic array
	for e in str dyn; do
		ec=$(EVENT=$e CC=$CC TP_BUILD=$B bench/event-cost.sh) || { echo "$ec"; echo "event-cost.sh ($e) failed"; exit 1; }
		put sink "sink_$e" instr_event "$(echo "$ec" | sed -n 's/.*: \([0-9]*\) total.*/\1/p')" instr
		put sink "sink_$e" instr_recorder "$(echo "$ec" | sed -n 's/.* total, \([0-9?]*\) in the recorder.*/\1/p')" instr
	done
	# the three integers with each record's CPU (TRACEPOINTS_CPU=1: the
	# recorder's full path, rseq's cpu_id)
	ec=$(TRACEPOINTS_CPU=1 CC=$CC TP_BUILD=$B bench/event-cost.sh) || { echo "$ec"; echo "event-cost.sh (TRACEPOINTS_CPU=1) failed"; exit 1; }
	put sink sink_cpu instr_event "$(echo "$ec" | sed -n 's/.*: \([0-9]*\) total.*/\1/p')" instr
	# LTTng-UST recording the same three events, measured the same way
	if [ $have_lttng = 1 ]; then
		CC=$CC bench/lttng-event-cost.sh "$B/lttng_evc" "$TSV" || echo "lttng-event-cost.sh failed: no LTTng-UST figures per event"
		export LTTNG_UST_REGISTER_TIMEOUT=0
	fi
	# the same event through a one-comparison field filter (bench/filter-cost.sh)
	fc=$(CC=$CC TP_BUILD=$B bench/filter-cost.sh) || { echo "$fc"; echo "filter-cost.sh failed"; exit 1; }
	put sink filter_kept instr_event "$(echo "$fc" | sed -n 's/.*(kept) \([0-9]*\) .*/\1/p')" instr
	put sink filter_kept instr_added "$(echo "$fc" | sed -n 's/.*(kept) [0-9]* (+\([0-9-]*\)).*/\1/p')" instr
	put sink filter_rejected instr_event "$(echo "$fc" | sed -n 's/.*nothing stored) \([0-9]*\).*/\1/p')" instr
	# the same event aggregated by a hist trigger, one u64 key + one sum (bench/hist-cost.sh)
	hc=$(CC=$CC TP_BUILD=$B bench/hist-cost.sh) || { echo "$hc"; echo "hist-cost.sh failed"; exit 1; }
	put sink hist_u64 instr_event "$(echo "$hc" | sed -n 's/.*): \([0-9]*\) total.*/\1/p')" instr
	put sink hist_u64 instr_trigger "$(echo "$hc" | sed -n 's/.* total, \([0-9?]*\) in the trigger.*/\1/p')" instr
fi
# The same trigger under 2 threads, and its 2048-entry table read while
# threads fire into it (bench/hist-mt.sh: wall clock, medians of RUNS_HIST
# interleaved processes).
hm=$(CC=$CC TP_BUILD=$B RUNS=${RUNS_HIST:-5} bench/hist-mt.sh) || { echo "$hm"; echo "hist-mt.sh failed"; exit 1; }
# shellcheck disable=SC2046 # four numbers
set -- $(echo "$hm" | sed -n 's/^hist 2 threads: alone \([0-9.]*\) ns, together \([0-9.]*\) ns, slowdown \([0-9.]*\) (no trigger: \([0-9.]*\)).*/\1 \2 \3 \4/p')
put hist mt ns_1 "$1" ns
put hist mt ns_2 "$2" ns
put hist mt ratio "$3" x
put hist mt ratio_idle "$4" x
# shellcheck disable=SC2046 # three numbers
set -- $(echo "$hm" | sed -n 's/^hist read 2048 entries, \([0-9]*\) busy threads: median \([0-9.]*\) us, slowest \([0-9.]*\) us.*/\1 \2 \3/p')
put hist read busy_threads "$1" threads
put hist read us_median "$2" us
put hist read us_max "$3" us

# Sustained recording to disk, ours next to LTTng-UST in a session, and the
# readers (bench/stream.sh; N_STREAM events, default 10,000,000).
CC=$CC bench/stream.sh "$B/stream" "$TSV" "${N_STREAM:-10000000}" 3 || { echo "stream.sh failed"; exit 1; }
export LTTNG_UST_REGISTER_TIMEOUT=0

# Idle tracepoints in real code shapes (a lost tail call, ...), gcc and clang.
bench/tailcall.sh "$B/tailcall" "$TSV" || { echo "tailcall.sh failed"; exit 1; }

# A program of some size: 1,000 tracepoints, 10,000 call sites.
CC=$CC RUNS=$RUNS bench/bigprog.sh "$B/big" "$TSV" || { echo "bigprog.sh failed"; exit 1; }

# Compile time of CREATE_TRACE_POINTS, 1,000 events, next to LTTng-UST's.
CC=$SZCC bench/compile.sh "$B/compile" "$TSV" >"$B/compile.log" || { cat "$B/compile.log"; echo "compile.sh failed"; exit 1; }

# The control channel: what it costs idle, and per command (bench/ctl.sh).
CC=$CC bench/ctl.sh "$B/ctl" "$TSV" 50 || { echo "ctl.sh failed"; exit 1; }

# Static-key sites: the opcode the site holds while the loop runs.
for v in $VARIANTS; do
	IFS=: read -r name bin pr <<E
$v
E
	case $bin in static) put loop "$name" site_opcode "$("$B/bin/$bin" sites "$pr" | sort -u | tr '\n' ' ' | sed 's/ $//')" hex ;; esac
done

# ---------------------------------------------------------------- size ----
# Sums allocated section bytes of an object by class: hot cold meta eh notes
# (notes = non-allocated .note.* sections, e.g. USDT's .note.stapsdt), then
# the unpadded size of the site_* functions (symbol sizes, hot part only).
secsizes() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '
	function hex(s,  i, c, v) { v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
		return v }
	{ name = $1; size = hex($5); flags = ($7 ~ /^[0-9]+$/) ? "" : $7
	  if (flags ~ /A/) {
		if (name ~ /^\.text\.unlikely/ || name ~ /cold/) cold += size
		else if (name ~ /^\.text/) hot += size
		else if (name == ".eh_frame") eh += size
		else meta += size
	  } else if (name ~ /^\.note\./ && name != ".note.GNU-stack") notes += size }
	END { printf "%d %d %d %d %d", hot, cold, meta, eh, notes }'
	readelf -sW "$1" | awk '$4 == "FUNC" && $8 ~ /^site_[0-9]+$/ {s += $3} END {printf " %d\n", s}'
}
# Per-section detail of what an object allocates outside .text (for the log).
secdetail() { size -A "$1" | awk 'NR > 2 && $1 != "Total" && $2 > 0 {printf "%s=%s ", $1, $2}'; }
SZFLAGS="-O2 $WARN $INC"
FLAVOURS="ours_out:-DF_OURS ours_static:-DF_OURS|-DCONFIG_BENCH_TP=1 ours_portable:-DF_OURS|-DCONFIG_BENCH_TP=1|-DTRACEPOINT_PORTABLE"
[ $have_lttng = 1 ] && FLAVOURS="$FLAVOURS lttng:-DF_LTTNG"
[ $have_sdt = 1 ] && FLAVOURS="$FLAVOURS usdt:-DF_USDT usdt_sem:-DF_USDT_SEM"
: >"$B/obj/sections.txt"
for fl in $FLAVOURS; do
	name=${fl%%:*}; defs=$(echo "${fl#*:}" | tr '|' ' ')
	for lay in d s; do
		o=$B/obj/$name-$lay.o; o0=$B/obj/$name-$lay-nofire.o
		# shellcheck disable=SC2086
		$SZCC $SZFLAGS $defs -c "$G/sites_$lay.c" -o "$o" || exit 1
		# shellcheck disable=SC2086
		$SZCC $SZFLAGS $defs -DNOFIRE -c "$G/sites_$lay.c" -o "$o0" || exit 1
		# shellcheck disable=SC2046 # the sizes, one word each
		set -- $(secsizes "$o") $(secsizes "$o0")
		for k in hot cold meta eh notes hot_unpadded; do
			d=$(( $1 - $7 ))
			put "size_$lay" "$name" "$k" "$(awk -v d="$d" 'BEGIN {printf "%.2f", d / 100}')" bytes/site
			shift
		done
		echo "$name-$lay: $(secdetail "$o")" >>"$B/obj/sections.txt"
	done
done
# Definitions: (100 tracepoints - 1 tracepoint) / 99.
DEFS="ours:ours_def:-DF_OURS|-DCONFIG_BENCH_TP=1"
[ $have_lttng = 1 ] && DEFS="$DEFS lttng:lttng_def:"
[ $have_sdt = 1 ] && DEFS="$DEFS usdt_sem:sem_def:"
for d in $DEFS; do
	IFS=: read -r name src defs <<E
$d
E
	defs=$(echo "$defs" | tr '|' ' ')
	for k in 1 100; do
		# shellcheck disable=SC2086
		$SZCC $SZFLAGS $defs -c "$G/$src$k.c" -o "$B/obj/$src$k.o" || exit 1
	done
	# shellcheck disable=SC2046 # the sizes, one word each
	set -- $(secsizes "$B/obj/${src}100.o") $(secsizes "$B/obj/${src}1.o")
	for k in hot cold meta eh notes; do
		d=$(( $1 - $7 ))
		put def "$name" "$k" "$(awk -v d="$d" 'BEGIN {printf "%.2f", d / 99}')" bytes/tracepoint
		shift
	done
	echo "$src: $(secdetail "$B/obj/${src}100.o")" >>"$B/obj/sections.txt"
done

# ------------------------------------------------------- enable/disable ----
for m in static portable; do
	extra=; [ $m = portable ] && extra=-DTRACEPOINT_PORTABLE
	# shellcheck disable=SC2086
	$CC -O2 $WARN $INC -DF_OURS -DCONFIG_BENCH_TP=1 $extra bench/enable.c "$G/sites_one.c" \
		"$G/ours_def1.c" -o "$B/bin/enable_$m" -ldl -lpthread || exit 1
	# shellcheck disable=SC2046 # its four numbers, one word each
	set -- $("$B/bin/enable_$m" "$REPS") || { echo "enable_$m failed"; exit 1; }
	put enable "$m" enable_us "$1" us
	put enable "$m" disable_us "$2" us
	put enable "$m" patched_sites "$3" sites
	put enable "$m" site_mismatches "$4" sites
done

rm -rf "$OUT" && mkdir -p "$OUT" && cp -R "$B"/. "$OUT"/ || exit 1
TSV=$OUT/results.tsv
bench/report.sh "$TSV" "$N_CG" "$N_TIME" "$RUNS" "$REPS"
if command -v gnuplot >/dev/null 2>&1; then
	scripts/plot-bench.sh "$TSV" docs/bench.png && echo "chart: docs/bench.png"
else
	echo "chart skipped: gnuplot-nox not installed (apt-get install gnuplot-nox)"
fi
echo "results: $TSV   section details: $OUT/obj/sections.txt"
