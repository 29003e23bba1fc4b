#!/bin/sh
# scripts/run-tests.sh [--mode=MODE] TEST... [--mode=MODE TEST...]
# Runs every unit-test binary and script test given, TP_JOBS at a time
# (default: the number of CPUs), prints one line per test as it finishes
# (with its wall and CPU seconds), then the log of each failure, and as
# its last line "N passed, N failed, N skipped"; exits non-zero if any
# failed.  A test whose binary is missing (it did not build) fails.
#
# --mode=static or --mode=portable (-DTRACEPOINT_PORTABLE) applies to the
# tests after it: script tests get TP_CFLAGS from it and TP_BUILD=
# $TP_BUILD/MODE.  Without --mode, TP_CFLAGS and TP_BUILD are taken as
# given.  Script tests also get CC, CXX (and anything else, e.g. TP_QUICK)
# from the environment; exit 77 = skip.  TP_RUNNER, if set, prefixes every
# binary (e.g. qemu-aarch64).  Logs: $TP_BUILD[/MODE]/logs/NAME.log, with
# .rc, .secs (wall) and .cpu (user+system of the test and its children).
#
# TP_TALLY=FILE: also append "passed failed skipped cpu-seconds" to FILE;
# scripts/run-tests.sh --total FILE prints the sum of such lines, in the
# same last-line form, and fails if any test failed (`make check-all`
# adds up its parts that way); a line "start SECONDS" (date +%s) in FILE
# adds the time since then.
set -u
: "${TP_BUILD:=build}"
export TP_BUILD TP_CFLAGS="${TP_CFLAGS:-}"

summary() { # passed failed skipped: the last line
	echo "$1 passed, $2 failed, $3 skipped"
}

if [ "${1:-}" = --total ]; then
	awk -v now="$(date +%s)" '$1 == "start" { t0 = $2; next } { p += $1; f += $2; s += $3; c += $4 }
		END { printf "== in all: %.0f CPU-seconds of tests", c
			if (t0) printf ", %d s since the start", now - t0
			printf "\n%d %d %d\n", p, f, s }' "$2" 2>/dev/null |
		{
			read -r line && echo "$line"
			read -r p f s || { p=0 f=1 s=0; echo "no results in $2"; }
			summary "$p" "$f" "$s"
			[ "$f" -eq 0 ]
		}
	exit
fi

if [ "${1:-}" = --one ]; then # one test: MODE TEST; its log, status, seconds
	mode=$2 t=$3
	case "$mode" in
	static) TP_BUILD=$TP_BUILD/static TP_CFLAGS= ;;
	portable) TP_BUILD=$TP_BUILD/portable TP_CFLAGS=-DTRACEPOINT_PORTABLE ;;
	esac
	L=$TP_BUILD/logs
	log="$L/$(basename "$t").log"
	start=$(date +%s)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) if [ -x "$t" ]; then ${TP_RUNNER:-} "$t" >"$log" 2>&1; else
		echo "$t was not built (the compiler's messages are above)" >"$log"; false; fi ;;
	esac
	rc=$?
	secs=$(($(date +%s) - start))
	times >"$log.times" # line 2: the user and system time of the test
	cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] } printf "%.1f", n }' "$log.times")
	echo "$secs" >"$log.secs"
	echo "$cpu" >"$log.cpu"
	echo "$rc" >"$log.rc" # last: what the summary waits for
	m=; [ "$mode" = - ] || m="$mode "
	if [ "$rc" -eq 0 ]; then echo "PASS  $m$t (${secs}s, ${cpu}s CPU)"
	elif [ "$rc" -eq 77 ]; then echo "SKIP  $m$t: $(tail -n 1 "$log")"
	else echo "FAIL  $m$t (exit $rc, ${secs}s)"
	fi
	exit 0
fi

jobs=${TP_JOBS:-$(nproc 2>/dev/null || echo 1)}
# The list: "MODE TEST" per line ("-": no --mode given).
list=$(mode=-
	for a in "$@"; do
		case "$a" in
		--mode=static | --mode=portable) mode=${a#--mode=} ;;
		--mode=*) echo "run-tests.sh: unknown $a" >&2; exit 2 ;;
		*) echo "$mode $a" ;;
		esac
	done) || exit 2
logof() { # mode test: its log
	case "$1" in
	-) echo "$TP_BUILD/logs/$(basename "$2").log" ;;
	*) echo "$TP_BUILD/$1/logs/$(basename "$2").log" ;;
	esac
}
echo "$list" | while read -r mode t; do
	log=$(logof "$mode" "$t")
	mkdir -p "$(dirname "$log")"
	rm -f "$log.rc"
done
# Started longest first (by the last run's time; without one, script tests
# before unit tests), so that no long test starts last; each line printed
# as its test ends.
echo "$list" | while read -r mode t; do
	log=$(logof "$mode" "$t")
	secs=$(cat "$log.secs" 2>/dev/null) || case "$t" in *.sh) secs=1000 ;; *) secs=0 ;; esac
	echo "$secs $mode $t"
done | sort -s -k1,1nr | cut -d' ' -f2- | xargs -P "$jobs" -n 2 sh "$0" --one
pass=0 fail=0 skip=0 cpu=0 failed=
while read -r mode t; do
	log=$(logof "$mode" "$t")
	rc=$(cat "$log.rc" 2>/dev/null || echo 255)
	cpu=$(awk -v a="$cpu" -v b="$(cat "$log.cpu" 2>/dev/null || echo 0)" 'BEGIN { printf "%.1f", a + b }')
	m=; [ "$mode" = - ] || m="$mode "
	if [ "$rc" -eq 0 ]; then pass=$((pass + 1))
	elif [ "$rc" -eq 77 ]; then skip=$((skip + 1))
	else fail=$((fail + 1)); failed="$failed $m$t"
		echo "---- FAIL  $m$t (exit $rc), last lines of $log:"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
done <<EOF
$list
EOF
[ -z "${TP_TALLY:-}" ] || echo "$pass $fail $skip $cpu" >>"$TP_TALLY"
[ $fail -eq 0 ] || echo "failed:$failed"
echo "== $((pass + fail + skip)) tests, ${cpu} CPU-seconds"
summary $pass $fail $skip
[ $fail -eq 0 ]
