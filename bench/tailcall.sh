#!/bin/sh
# bench/tailcall.sh - idle tracepoints where they sit in real code
# (bench/tailcall.c): an allocator wrapper with the tracepoint after the
# call (a lost tail call), a tracepoint at entry before a tail call, and a
# 4-argument tracepoint in a leaf function; every variant of loop.c, idle.
# Per function: its own instructions per call (callgrind, exclusive), the
# whole loop's instructions per call above the build without tracepoints
# (what the call really costs more, callee and caller included), the
# function's bytes (hot + its .cold part) and ns per call (median of
# interleaved runs).  About 25 s of CPU time for gcc and clang.
#
# usage: bench/tailcall.sh [OUTDIR [TSV]]   measure, append rows to TSV
#                                          (default OUTDIR/results.tsv) and,
#                                          run alone (no TSV), print them
#        bench/tailcall.sh --report TSV    print the rows of a results.tsv
# Environment: TC_CCS (compilers, default "gcc clang"), TC_N (calls per
# shape under callgrind, 100000), TC_NTIME (calls per timed run, 2000000),
# TC_RUNS (interleaved timing rounds, 3; 0 skips timing), TC_INCLUDE (the
# header directory, default include: point it at a modified copy to compare).
set -u
cd "$(dirname "$0")/.." || exit 1

report() {
	awk -F'\t' '
	NR == 1 { next }
	$1 ~ /^tailcall_/ { v[$1, $2, $3] = $4; if (!(($1, $2) in seen)) { seen[$1, $2] = 1; order[$1, ++n[$1]] = $2 }
		if (!($1 in kseen)) { kseen[$1] = 1; kinds[++nk] = $1 } }
	$1 == "param" && $2 == "tailcall" { p[$3] = $4 }
	END {
		if (!nk) exit
		printf "\n== (h) idle tracepoints in real code shapes (bench/tailcall.c), -O2, nothing attached\n"
		printf "   alloc: void *p = impl(n); trace(p, n); return p;  (without it: jmp impl)\n"
		printf "   entry: trace(op, arg); return impl(op, arg);       leaf: r = f(a..d); trace(a, b, c, d); return r;\n"
		printf "   own = the function'\''s own instructions per call (callgrind, callee excluded); +base = the\n"
		printf "   calling loop'\''s instructions per call minus the build without tracepoints (N = %s);\n", p["n_cg"]
		printf "   bytes = the function'\''s symbol size + its .cold part"
		if (p["runs"] > 0) printf "; ns = median of %s interleaved runs", p["runs"]
		printf "\n"
		for (k = 1; k <= nk; k++) {
			K = kinds[k]
			printf "   %s\n", p[K]
			printf "   %-14s %21s %21s %21s %s\n", "variant", "alloc own +base bytes", "entry own +base bytes", "leaf own +base bytes", (p["runs"] > 0) ? "  ns alloc/entry/leaf" : ""
			for (i = 1; i <= n[K]; i++) {
				x = order[K, i]; line = sprintf("   %-14s", x)
				split("alloc entry leaf", s, " ")
				for (j = 1; j <= 3; j++)
					line = line sprintf(" %6s %6s %7s", v[K, x, s[j] "_own"], v[K, x, s[j] "_above"], v[K, x, s[j] "_hot"] "+" v[K, x, s[j] "_cold"])
				if (p["runs"] > 0)
					line = line sprintf("  %s/%s/%s", v[K, x, "alloc_ns"], v[K, x, "entry_ns"], v[K, x, "leaf_ns"])
				print line
			}
		}
	}' "$1"
}
if [ "${1:-}" = --report ]; then
	if [ $# -ne 2 ] || [ ! -f "$2" ]; then
		echo "usage: bench/tailcall.sh --report RESULTS.TSV (an existing file)" >&2
		exit 2
	fi
	report "$2"
	exit 0
fi
case ${1:-} in -*) echo "usage: bench/tailcall.sh [OUTDIR [TSV]] | --report TSV" >&2; exit 2 ;; esac

OUT=${1:-build/bench/tailcall}
TSV=${2:-}
ALONE=0
N=${TC_N:-100000}
NT=${TC_NTIME:-2000000}
RUNS=${TC_RUNS:-3}
INC=${TC_INCLUDE:-include}
CCS=${TC_CCS:-gcc clang}
[ -f "$INC/tracepoint.h" ] || { echo "tailcall: TC_INCLUDE=$INC holds no tracepoint.h" >&2; exit 1; }
mkdir -p "$OUT" || exit 1
[ -z "$TSV" ] && { TSV=$OUT/results.tsv; ALONE=1; printf 'kind\tvariant\tmetric\tvalue\tunit\n' >"$TSV"; }
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "tailcall: skipped, valgrind not installed (apt-get install valgrind)"
	exit 0
fi
put() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$TSV"; }
put param tailcall n_cg "$N" calls
put param tailcall runs "$RUNS" runs
export LTTNG_UST_REGISTER_TIMEOUT=0
SHAPES="alloc entry leaf"

for cc in $CCS; do
	command -v "$cc" >/dev/null 2>&1 || { echo "tailcall: $cc not installed, skipped"; continue; }
	K=tailcall_$cc
	put param tailcall "$K" "$($cc --version | head -1), header $INC" text
	F="-O2 -Wall -Wextra -Werror -I$INC -Ibench"
	D=$OUT/$cc
	mkdir -p "$D" || exit 1
	V=
	# name:flags (| separates flags):extra sources
	for v in "base:-DV_BASE:" "compiled_out:-DV_OURS:" \
		"static_idle:-DV_OURS|-DCONFIG_BENCH_TP=1:bench/tailcall_def.c" \
		"portable_idle:-DV_OURS|-DCONFIG_BENCH_TP=1|-DTRACEPOINT_PORTABLE:bench/tailcall_def.c" \
		"usdt:-DV_USDT:" "usdt_sem_idle:-DV_USDT_SEM:" "lttng_idle:-DV_LTTNG:bench/tailcall_def.c|-llttng-ust"; do
		IFS=: read -r name flags extra <<E
$v
E
		# shellcheck disable=SC2046,SC2086 # lists of flags and files
		if $cc $F $(echo "$flags" | tr '|' ' ') bench/tailcall.c $(echo "$extra" | tr '|' ' ') \
			-o "$D/$name" -ldl -lpthread 2>"$D/$name.err"; then
			V="$V $name"
		else
			case $name in
			usdt* | lttng*) echo "tailcall: $name skipped with $cc (systemtap-sdt-dev / liblttng-ust-dev installed?)" ;;
			*) cat "$D/$name.err"; echo "tailcall: build of $name failed with $cc"; exit 1 ;;
			esac
		fi
	done
	for name in $V; do
		valgrind --tool=callgrind --smc-check=all --callgrind-out-file="$D/$name.cg" \
			"$D/$name" cg "$N" >"$D/$name.vg" 2>&1 || { cat "$D/$name.vg"; echo "tailcall: callgrind $name failed"; exit 1; }
		callgrind_annotate --threshold=100 "$D/$name.cg" >"$D/$name.excl" 2>/dev/null
		callgrind_annotate --inclusive=yes --threshold=100 "$D/$name.cg" >"$D/$name.incl" 2>/dev/null
		readelf -sW "$D/$name" >"$D/$name.sym"
		for s in $SHAPES; do
			# own: the function and its .cold part (never entered while idle)
			own=$(awk -v f="tc_$s" '{ a[2] = ""; for (i = 2; i <= NF; i++) if (index($i, ":")) { split($i, a, ":"); break } } a[2] == f || a[2] == f ".cold" { gsub(",", "", $1); t += $1 } END { print t + 0 }' "$D/$name.excl")
			loop=$(awk -v f="tc_loop_$s" '{ a[2] = ""; for (i = 2; i <= NF; i++) if (index($i, ":")) { split($i, a, ":"); break } } a[2] == f { gsub(",", "", $1); print $1; exit }' "$D/$name.incl")
			[ "$name" = base ] && eval "base_$s=\$loop"
			b=0
			eval "b=\$base_$s"
			hot=$(awk -v f="tc_$s" '$4 == "FUNC" && $8 == f { print $3; exit }' "$D/$name.sym")
			cold=$(awk -v f="tc_$s.cold" '$4 == "FUNC" && $8 == f { print $3; exit }' "$D/$name.sym")
			put "$K" "$name" "${s}_own" "$(awk -v a="$own" -v n="$N" 'BEGIN { printf "%.2f", a / n }')" instr
			put "$K" "$name" "${s}_above" "$(awk -v a="$loop" -v b="$b" -v n="$N" 'BEGIN { printf "%+.2f", (a - b) / n }')" instr
			put "$K" "$name" "${s}_hot" "${hot:-0}" bytes
			put "$K" "$name" "${s}_cold" "${cold:-0}" bytes
		done
		objdump -d --no-show-raw-insn "$D/$name" | awk '/^[0-9a-f]+ <tc_(alloc|entry|leaf)(\.cold)?>:/,/^$/' >"$D/$name.dis"
	done
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		for name in $V; do
			"$D/$name" time "$NT" >>"$D/$name.ns" || { echo "tailcall: timing $name failed"; exit 1; }
		done
		r=$((r + 1))
	done
	if [ "$RUNS" -gt 0 ]; then
		for name in $V; do
			for j in 1 2 3; do
				s=$(echo "$SHAPES" | cut -d' ' -f$j)
				put "$K" "$name" "${s}_ns" "$(cut -d' ' -f$j "$D/$name.ns" | sort -n | awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)]}')" ns
			done
		done
	fi
done
[ $ALONE = 1 ] && { report "$TSV"; echo "results: $TSV   code: $OUT/<cc>/<variant>.dis"; }
exit 0
