#!/bin/sh
# fork() against every operation that takes a lock (tests/recorder/fork_locks/):
# enable and disable by pattern, with and without a field filter; attach
# and detach a probe; flush and snapshot; list; threads that start, record
# and exit; control requests (tracepoint-ctl, from outside); dlopen and
# dlclose of a library with tracepoints.  The main thread forks for
# TP_FORK_SECONDS (default 6, 2 under make check) in each output mode; a watchdog fails the
# test on the first hang of the parent or of a child.  The locks' order and
# what a child may do are in docs/design.md (Locks; Fork).  A short run
# under ThreadSanitizer (deadlock detection on) follows, where it works (4
# forks under make check, 10 otherwise).
# `make stress` runs longer phases (TP_STRESS_SECONDS).
. tests/lib.sh
SECS=${TP_FORK_SECONDS:-${TP_STRESS_SECONDS:-$(quick 2 6)}}
cc_build -fPIC -shared -Itests/events/event_dlopen -DCONFIG_PLUG_TRACER tests/events/event_dlopen/plugin.c -o "$B/libplug.so"
cc_build -Itests/include -DCONFIG_EVH "$S/fork_locks.c" -o "$B/fork_locks" -lpthread -ldl
CTL=${TP_CTL:-}
if [ -z "$CTL" ] || [ ! -x "$CTL" ]; then
	CTL=$B/tracepoint-ctl
	cc_build tools/tracepoint-ctl.c -o "$CTL"
fi
mkdir -m 700 "$B/run" || exit 1
XDG_RUNTIME_DIR=$(cd "$B/run" && pwd)
export XDG_RUNTIME_DIR
LIB=$(cd "$B" && pwd)/libplug.so

# control requests from outside while the program forks
drive() { # pid dir: once the program has started its trace in dir (an
	# enable before its tracepoint_output() would start a stream trace)
	n=0
	while [ -z "$(ls -d "$2"/trace-* 2>/dev/null)" ] && kill -0 "$1" 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	while kill -0 "$1" 2>/dev/null; do
		"$CTL" "$1" enable 'evh:*' >/dev/null 2>&1
		"$CTL" "$1" list >/dev/null 2>&1
		"$CTL" "$1" disable 'evh:*' >/dev/null 2>&1
		"$CTL" "$1" flush >/dev/null 2>&1
	done
}

for mode in stream flight; do
	mkdir "$B/$mode" || exit 1
	(cd "$B/$mode" && TRACEPOINTS_CONTROL=1 exec ../fork_locks 100000 "$SECS" "$mode" "$LIB") \
		>"$B/$mode.out" 2>"$B/$mode.err" &
	pid=$!
	drive "$pid" "$B/$mode" &
	driver=$!
	wait "$pid"
	rc=$?
	wait "$driver"
	got=$(cat "$B/$mode.out")
	case "$rc:$got" in
	"0:forks "*" child-hangs 0 child-failures 0")
		ok "$mode: ${got%% child-hangs*} in ${SECS}s against every locking operation, no hang" ;;
	*)
		fail "$mode: exit $rc, '$got'"; grep -v '^tracepoints: ' "$B/$mode.err" | tail -5 ;;
	esac
done

# ThreadSanitizer: every lock, the recorder's and the core's, under its
# deadlock detector and race checks, a few forks (each is slow there)
if repeated "ThreadSanitizer"; then
	:
elif cc_works -fsanitize=thread; then
	# The library too: ThreadSanitizer does not see the atomics of code
	# it did not instrument.
	# shellcheck disable=SC2086 # flag lists are split on purpose
	if ! $CC -O1 -g -fsanitize=thread $WARN $TPF -Iinclude -fPIC -shared -Itests/events/event_dlopen \
		-DCONFIG_PLUG_TRACER tests/events/event_dlopen/plugin.c -o "$B/libplug_tsan.so" ||
		! $CC -O1 -g -fsanitize=thread $WARN $TPF -Iinclude -Itests/include -DCONFIG_EVH "$S/fork_locks.c" \
			-o "$B/fork_locks_tsan" -lpthread -ldl; then
		fail "cannot build with -fsanitize=thread"
	fi
	mkdir "$B/tsan" || exit 1
	if (cd "$B/tsan" &&
		TSAN_OPTIONS="halt_on_error=1:exitcode=66:detect_deadlocks=1:second_deadlock_stack=1:die_after_fork=0" \
			../fork_locks_tsan "$(quick 4 10)" 30 stream "${LIB%/*}/libplug_tsan.so") >"$B/tsan.out" 2>"$B/tsan.err"; then
		ok "ThreadSanitizer: $(cat "$B/tsan.out"), no race, no lock-order inversion"
	else
		rc=$?
		fail "ThreadSanitizer: exit $rc, '$(cat "$B/tsan.out")' $(grep -m1 'WARNING: ThreadSanitizer\|HANG' "$B/tsan.err")"
		if grep -q 'WARNING: ThreadSanitizer' "$B/tsan.err"; then
			sed -n '/WARNING: ThreadSanitizer/,/^SUMMARY/p' "$B/tsan.err" | head -40
		else grep -v '^tracepoints: ' "$B/tsan.err" | tail -10; fi
	fi
else
	skip_part "ThreadSanitizer: $CC cannot build and run a -fsanitize=thread program here"
fi
finish
