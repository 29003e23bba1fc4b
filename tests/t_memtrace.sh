#!/bin/sh
# A real program at default settings: examples/memtrace (a preloaded
# malloc/free recorder) on Python with its allocator routed to malloc
# (PYTHONMALLOC=malloc), about 1.6 million events in well under a second.
# Every call the wrappers made while recording is in the trace (the
# library counts them; babeltrace2 counts the trace), none dropped.
set -u
T=memtrace
. tests/script_env.sh
PY=/usr/bin/python3
[ -x $PY ] || { echo "no $PY: skipped"; exit 77; }
command -v babeltrace2 >/dev/null || { echo "babeltrace2 not installed (apt-get install babeltrace2)"; exit 77; }
$CC -O2 -fPIC -shared -Wall -Wextra -Wundef -Werror $TPF -Iinclude -Iexamples -DCONFIG_MEMTRACE \
	examples/memtrace/memtrace.c -o "$B/libmemtrace.so" -lpthread -ldl || exit 1
cat >"$B/work.py" <<'PY'
d = {}
for i in range(100000):
    d[str(i)] = [i, str(i) * 2]
print(len(d))
PY
MEMTRACE_COUNT=1 TRACEPOINTS='mem:*' TRACEPOINTS_DIR=$B/trace LD_PRELOAD=$B/libmemtrace.so PYTHONMALLOC=malloc \
	$PY "$B/work.py" >"$B/out" 2>"$B/err" || { cat "$B/err"; echo "FAIL: python3 under memtrace"; exit 1; }
cat "$B/err"
calls=$(sed -n 's/^memtrace: \([0-9]*\) calls recorded$/\1/p' "$B/err")
events=$(babeltrace2 "$B/trace" 2>"$B/bt.err" | grep -c ' mem:\(malloc\|free\|realloc\): ')
fail=0
[ "$(cat "$B/out")" = 100000 ] || { echo "FAIL: the program's output changed"; fail=1; }
if [ -n "$calls" ] && [ "$calls" -gt 1000000 ] && [ "$events" = "$calls" ]; then
	echo "ok: $events of $calls events in the trace"
else echo "FAIL: $events events in the trace for ${calls:-?} calls"; fail=1; fi
grep -q dropped "$B/err" && { echo "FAIL: records dropped"; fail=1; }
[ -s "$B/bt.err" ] && { echo "FAIL: babeltrace2 complained"; head "$B/bt.err"; fail=1; }
rm -rf "$B/trace"
exit $fail
