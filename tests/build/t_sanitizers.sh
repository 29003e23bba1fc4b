#!/bin/sh
# Builds every tests/*/test_*.c with $CC under -fsanitize=address,undefined
# (-fno-sanitize-recover=all) and under -fsanitize=thread, runs each, and
# fails on any sanitizer report (or test failure).  A sanitizer whose runtime
# is missing is skipped; if both are, the script exits 77.  No suppressions:
# a report about include/tracepoint.h or include/tracepoint/*.h is a bug to
# fix there.  Run in the static-keys pass only: -DTRACEPOINT_PORTABLE
# changes the call sites (one load and branch instead of the asm goto) and
# leaves out the code patching, so it runs a subset of the same code, and
# the 58 sanitized builds are the longest test there is: make check-all
# runs it, make check leaves it out (SLOW_TESTS in the Makefile).
# shellcheck disable=SC2086 # flag lists ($CC, $flags, $TPF) are split on purpose
. tests/lib.sh
case " $TPF " in
*-DTRACEPOINT_PORTABLE*) skip "sanitizers run in the static-keys pass (portable mode runs a subset of that code)" ;;
esac
echo "compiler: $CC"
# Short stress phases: sanitized code runs 5-20x slower.
TP_STRESS_SECONDS=${TP_STRESS_SECONDS:-0.3}
export TP_STRESS_SECONDS
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=66"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=66"
# die_after_fork=0: some tests fork from a threaded process on purpose
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:die_after_fork=0"

ran=0; failed=""
for san in "address,undefined" "thread"; do
	flags="-fsanitize=$san -fno-sanitize-recover=all -fno-omit-frame-pointer"
	if ! cc_works $flags; then
		skip_part "$CC has no working -fsanitize=$san runtime"
		continue
	fi
	tag=$(echo "$san" | tr ',' '_')
	for src in tests/*/test_*.c; do
		t=$(basename "$src" .c)
		bin="$B/$tag-$t"
		if ! $CC -O1 -g $flags -Iinclude -Itests/include -Wall -Wextra -Wundef $TPF "$src" -o "$bin" \
			-lcmocka -ldl -lpthread >"$bin.build.log" 2>&1; then
			fail "$san: $t does not build"; cat "$bin.build.log"
			failed="$failed $san:$t"; continue
		fi
		ran=$((ran + 1))
		start=$(date +%s)
		"$bin" >"$bin.log" 2>&1; rc=$?
		secs=$(( $(date +%s) - start ))
		if [ $rc -ne 0 ] || grep -qE 'ERROR: (Address|Thread|Leak)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$bin.log"; then
			fail "$san: $t (exit $rc, ${secs}s); report:"
			grep -E -A30 'Sanitizer|runtime error:|ERROR|FAILED|WATCHDOG|DEADLOCK' "$bin.log" | head -60 | sed 's/^/    /'
			failed="$failed $san:$t"
		else
			ok "$san: $t (${secs}s)"
		fi
	done
done
[ $ran -eq 0 ] && skip "no sanitizer runtime for $CC"
[ $fails -eq 0 ] || echo "failed:$failed"
finish
