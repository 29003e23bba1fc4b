#!/bin/sh
# A real program at default settings: examples/memtrace (a preloaded
# malloc/free recorder) on Python with its allocator routed to malloc
# (PYTHONMALLOC=malloc), about 1.6 million events in well under a second.
# Every call the wrappers made while recording is in the trace (the
# library counts them; babeltrace2 counts the trace), none dropped.
# First the aligned allocators (tests/recorder/memtrace/aligned.c): each
# recorded once as mem:malloc with the size asked for, reallocarray as
# mem:realloc, a refused posix_memalign not at all.
. tests/lib.sh
cc_build -fPIC -shared -Iexamples -DCONFIG_MEMTRACE \
	examples/memtrace/memtrace.c -o "$B/libmemtrace.so" -lpthread -ldl
cc_build "$S/aligned.c" -o "$B/aligned"
dump_tool
TRACEPOINTS='mem:*' TRACEPOINTS_DIR=$B/al LD_PRELOAD=$B/libmemtrace.so "$B/aligned" >"$B/al.out" 2>"$B/al.err" ||
	{ cat "$B/al.out" "$B/al.err"; fail "the aligned allocators under memtrace"; }
"$DUMP" --text "$B/al" >"$B/al.txt" 2>&1 || fail "tracepoint-dump of the aligned allocators' trace"
for w in "posix_memalign:malloc size=1001" "aligned_alloc:malloc size=1088" \
	"memalign:malloc size=1003" "valloc:malloc size=1004" "pvalloc:malloc size=1005" \
	"reallocarray:realloc old=[^ ]* size=1011"; do
	n=$(grep -c " mem:${w#*:} " "$B/al.txt")
	if [ "$n" = 1 ]; then ok "${w%%:*}: one mem:${w#*:}"; else fail "${w%%:*}: $n mem:${w#*:}"; fi
done
if grep -q "size=1006" "$B/al.txt"; then fail "a refused posix_memalign was recorded"
elif grep -q "^posix_memalign(24) EINVAL$" "$B/al.out"; then ok "a refused posix_memalign: EINVAL, not recorded"
else fail "posix_memalign(24): $(grep 'posix_memalign(24)' "$B/al.out")"; fi

PY=/usr/bin/python3
[ -x $PY ] || { skip_part "no $PY: Python under memtrace"; finish; }
have babeltrace2 || { skip_part "no babeltrace2: Python under memtrace"; finish; }
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
