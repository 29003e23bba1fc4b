#!/bin/sh
# A forked child of a recording process makes its own trace at its first
# record.  When several of its threads record their first events at the
# same moment, one makes the trace and the others wait for it: no record
# may be lost (they were, silently, while the others gave up at once).
# tests/recorder/fork_threads/fork_threads.c: 10 children of 5 threads (4 + main)
# recording 10 events each after a barrier, in 3 sessions; every session
# must hold 500 events, 50 per child, each thread's 10 values exactly once.
. tests/lib.sh
dump_tool
cc_build -Itests/include -DCONFIG_EVH "$S/fork_threads.c" -o "$B/fork_threads" -lpthread -ldl

for run in 1 2 3; do
	s=$B/s$run
	TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$s "$B/fork_threads" 10 4 2>"$B/err$run" ||
		fail "run $run: fork_threads exited $?: $(cat "$B/err$run")"
	"$DUMP" "$s" >"$B/dump$run" 2>"$B/dumperr$run" || fail "run $run: tracepoint-dump $s failed"
	n=$(grep -c ' evh:evh_step ' "$B/dump$run")
	kids=0 whole=0
	for d in "$s"/*/; do
		kids=$((kids + 1))
		v=$("$DUMP" "$d" 2>/dev/null | sed -n 's/.* evh:evh_step v=\([0-9]*\)$/\1/p' | sort -n | tr '\n' ' ')
		want=""
		for t in 1 2 3 4 5; do
			for i in 0 1 2 3 4 5 6 7 8 9; do want="$want$((1000 * t + i)) "; done
		done
		[ "$v" = "$want" ] && whole=$((whole + 1))
	done
	# 11 traces: the parent's (started with TRACEPOINTS, empty) and 10 children's
	if [ "$n" -eq 500 ] && [ "$kids" -eq 11 ] && [ "$whole" -eq 10 ]; then
		ok "run $run: 500 events in 10 child traces, each complete"
	else
		fail "run $run: $n events of 500, $kids traces of 11, $whole of 10 complete"
	fi
done
finish
