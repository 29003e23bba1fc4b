#!/bin/sh
# scripts/plot-bench.sh [RESULTS.tsv [OUT.png|OUT.svg]] - bar charts of a bench/run.sh
# result file: instructions per call above baseline per loop variant, and
# bytes per call site (hot, cold, metadata; 100 distinct tracepoints) per
# variant.  Needs gnuplot (apt-get install gnuplot-nox).
set -eu
tsv=${1:-build/bench/results.tsv}
out=${2:-docs/bench.png}
command -v gnuplot >/dev/null 2>&1 || { echo "skipped: gnuplot-nox not installed (apt-get install gnuplot-nox)"; exit 0; }
[ -r "$tsv" ] || { echo "plot-bench: no $tsv (run make bench)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$out")"
# Instructions above baseline; enabled variants without their probe bodies.
awk -F'\t' '$1 == "loop" && $3 == "instr_total" { t[$2] = $4; o[++n] = $2 }
	$1 == "loop" && $3 == "instr_probes" { p[$2] = $4 }
	$1 == "loop" && $3 == "ns_median" { if (!($2 in t)) o[++n] = $2 }
	END { for (i = 1; i <= n; i++) if (o[i] != "baseline" && (o[i] in t))
		printf "%s\t%.2f\n", o[i], (t[o[i]] - p[o[i]] - t["baseline"]) / NCG }' NCG="$(awk -F'\t' '$3 == "n_cg" {print $4}' "$tsv")" "$tsv" >"$tmp/instr.dat"
awk -F'\t' '$1 == "size_d" { v[$2, $3] = $4; if (!($2 in s)) { s[$2] = 1; o[++n] = $2 } }
	END { for (i = 1; i <= n; i++) printf "%s\t%s\t%s\t%s\n", o[i], v[o[i], "hot"], v[o[i], "cold"], v[o[i], "meta"] }' "$tsv" >"$tmp/size.dat"
case "$out" in
*.png) term='set terminal pngcairo size 1000,800 font "sans,10" background rgb "white"' ;;
*) term='set terminal svg size 1000,800 dynamic font "sans,11" background rgb "white"' ;;
esac
gnuplot <<G
$term
set output "$out"
set multiplot layout 2,1
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set grid ytics
set xtics rotate by 35 right noenhanced nomirror
set datafile separator "\t"
set key noenhanced top left
set title "Instructions per call above baseline (callgrind; probe bodies excluded)"
set ylabel "instructions"
plot "$tmp/instr.dat" using 2:xtic(1) title "instructions/call" lc rgb "#4477aa", \
     "" using 0:2:(sprintf("%g", \$2)) with labels offset 0,0.7 notitle
set title "Bytes per call site, 100 distinct tracepoints (gcc -O2, allocated sections)"
set ylabel "bytes"
set style histogram rowstacked
plot "$tmp/size.dat" using 2:xtic(1) title "hot .text" lc rgb "#cc6677", \
     "" using 3 title "cold .text.unlikely" lc rgb "#ddcc77", \
     "" using 4 title "metadata (tp__jump, .init_array, notes, data)" lc rgb "#117733"
unset multiplot
G
