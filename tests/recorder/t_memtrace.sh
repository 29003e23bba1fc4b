#!/bin/sh
# A real program at default settings: examples/memtrace (a preloaded
# malloc/free recorder) on Python with its allocator routed to malloc
# (PYTHONMALLOC=malloc), about 1.6 million events in well under a second.
# Every call the wrappers made while recording is in the trace (the
# library counts them; babeltrace2 counts the trace), none dropped.
. tests/lib.sh
PY=/usr/bin/python3
[ -x $PY ] || skip "no $PY: skipped"
need babeltrace2
cc_build -fPIC -shared -Iexamples -DCONFIG_MEMTRACE \
	examples/memtrace/memtrace.c -o "$B/libmemtrace.so" -lpthread -ldl
cat >"$B/work.py" <<'PY'
d = {}
for i in range(100000):
    d[str(i)] = [i, str(i) * 2]
print(len(d))
PY
MEMTRACE_COUNT=1 TRACEPOINTS='mem:*' TRACEPOINTS_DIR=$B/trace LD_PRELOAD=$B/libmemtrace.so PYTHONMALLOC=malloc \
	$PY "$B/work.py" >"$B/out" 2>"$B/err" || { cat "$B/err"; fail "python3 under memtrace"; finish; }
cat "$B/err"
calls=$(sed -n 's/^memtrace: \([0-9]*\) calls recorded$/\1/p' "$B/err")
events=$(babeltrace2 "$B/trace" 2>"$B/bt.err" | grep -c ' mem:\(malloc\|free\|realloc\): ')
if [ "$(cat "$B/out")" = 100000 ]; then ok "the program's output is unchanged"; else fail "the program's output changed"; fi
if [ -n "$calls" ] && [ "$calls" -gt 1000000 ] && [ "$events" = "$calls" ]; then
	ok "$events of $calls events in the trace"
else fail "$events events in the trace for ${calls:-?} calls"; fi
if grep -q dropped "$B/err"; then fail "records dropped"; fi
if [ -s "$B/bt.err" ]; then fail "babeltrace2 complained"; head "$B/bt.err"; fi
rm -rf "$B/trace"
finish
