#!/bin/sh
# Runs every unit-test binary and script test given on the command line,
# prints one line per test and a summary; exits non-zero if any failed.
set -u
pass=0; fail=0; failed=""
for t in "$@"; do
	start=$(date +%s)
	if [ "${t%.sh}" != "$t" ]; then sh "$t" >"build/$(basename "$t").log" 2>&1; else "$t" >"$t.log" 2>&1; fi
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS  $t (${secs}s)"
	elif [ $rc -eq 77 ]; then echo "SKIP  $t: $(tail -n 1 "build/$(basename "$t").log" 2>/dev/null)"
	else fail=$((fail + 1)); failed="$failed $t"; echo "FAIL  $t (exit $rc)"
		if [ "${t%.sh}" != "$t" ]; then tail -n 30 "build/$(basename "$t").log"; else tail -n 30 "$t.log"; fi
	fi
done
echo "== $pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
