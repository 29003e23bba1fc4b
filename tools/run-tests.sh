#!/bin/sh
# Runs every unit-test binary and script test given on the command line,
# prints one line per test and a summary; exits non-zero if any failed.
# Script tests get CC, CXX, TP_CFLAGS (mode flags to add to every compile)
# and TP_BUILD (where to put artifacts) from the environment; exit 77 = skip.
# TP_RUNNER, if set, prefixes every binary (e.g. qemu-aarch64).
set -u
: "${TP_BUILD:=build}"
export TP_BUILD TP_CFLAGS="${TP_CFLAGS:-}"
mkdir -p "$TP_BUILD/logs"
pass=0; fail=0; skip=0; failed=""
for t in "$@"; do
	log="$TP_BUILD/logs/$(basename "$t").log"
	start=$(date +%s)
	case "$t" in
	*.sh) sh "$t" >"$log" 2>&1 ;;
	*) ${TP_RUNNER:-} "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS  $t (${secs}s)"
	elif [ $rc -eq 77 ]; then skip=$((skip + 1)); echo "SKIP  $t: $(tail -n 1 "$log")"
	else fail=$((fail + 1)); failed="$failed $t"; echo "FAIL  $t (exit $rc), last lines of $log:"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
done
echo "== $pass passed, $skip skipped, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
