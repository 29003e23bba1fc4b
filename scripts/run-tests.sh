#!/bin/sh
# Runs every unit-test binary and script test given on the command line,
# TP_JOBS at a time (default: the number of CPUs), and prints one line per
# test, in the order given, and a summary; exits non-zero if any failed.
# Script tests get CC, CXX, TP_CFLAGS (mode flags to add to every compile)
# and TP_BUILD (where to put artifacts) from the environment; exit 77 = skip.
# TP_RUNNER, if set, prefixes every binary (e.g. qemu-aarch64).
set -u
: "${TP_BUILD:=build}"
export TP_BUILD TP_CFLAGS="${TP_CFLAGS:-}"
L=$TP_BUILD/logs
mkdir -p "$L"
if [ "${1:-}" = --one ]; then # one test: its log, exit status and seconds
	t=$2 log="$L/$(basename "$2").log"
	start=$(date +%s)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) ${TP_RUNNER:-} "$t" >"$log" 2>&1 ;;
	esac
	echo $? >"$log.rc"
	echo $(( $(date +%s) - start )) >"$log.secs"
	exit 0
fi
jobs=${TP_JOBS:-$(nproc 2>/dev/null || echo 1)}
# Started longest first (by the last run's time in $L; without one, script
# tests before unit tests), so that no long test starts last; reported in
# the order given.
for t in "$@"; do
	log="$L/$(basename "$t").log"
	rm -f "$log.rc"
	secs=$(cat "$log.secs" 2>/dev/null) || case "$t" in *.sh) secs=1000 ;; *) secs=0 ;; esac
	echo "$secs $t"
done | sort -s -k1,1nr | cut -d' ' -f2- | xargs -P "$jobs" -n 1 sh "$0" --one
pass=0; fail=0; skip=0; failed=""
for t in "$@"; do
	log="$L/$(basename "$t").log"
	rc=$(cat "$log.rc" 2>/dev/null || echo 255)
	secs=$(cat "$log.secs" 2>/dev/null || echo '?')
	if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); echo "PASS  $t (${secs}s)"
	elif [ "$rc" -eq 77 ]; then skip=$((skip + 1)); echo "SKIP  $t: $(tail -n 1 "$log")"
	else fail=$((fail + 1)); failed="$failed $t"; echo "FAIL  $t (exit $rc), last lines of $log:"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
done
echo "== $pass passed, $skip skipped, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
