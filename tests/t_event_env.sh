#!/bin/sh
# Runtime control by environment, in child processes of one test program
# (tests/sink/env_prog.c: main thread plus two named worker threads):
#  - TRACEPOINTS unset: no output at all;
#  - TRACEPOINTS=list prints every event with its fields and exits 0 without
#    running main;
#  - TRACEPOINTS=evf:evf_three (text on stderr): exactly the 6 worker lines;
#  - TRACEPOINTS="evf:*" TRACEPOINTS_OUTPUT=json TRACEPOINTS_FILE=...: a
#    file python's json module loads, with every fired event (name, cat,
#    ph "i", args as fired), each worker's events on its own tid, thread and
#    process name metadata;
#  - TRACEPOINTS_FILE alone writes text there;
#  - malformed TRACEPOINTS, unknown events, a bad TRACEPOINTS_OUTPUT and an
#    unwritable file are reported on stderr, and the program still runs.
set -u
B=${TP_BUILD:-build}/event_env
TPF=${TP_CFLAGS:-}
CC=${CC:-cc}
rm -rf "$B" && mkdir -p "$B" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

if ! $CC -O2 -Wall -Wextra -Wundef -Werror $TPF -Iinclude -Itests -DCONFIG_EVF \
	tests/sink/env_prog.c -o "$B/prog" -ldl -lpthread; then
	echo "cannot build tests/sink/env_prog.c"; exit 1
fi
P=$B/prog

$P >"$B/none.out" 2>"$B/none.err"
if [ "$(cat "$B/none.out")" = done ] && [ ! -s "$B/none.err" ]; then ok "no TRACEPOINTS: no output"; else fail "output without TRACEPOINTS"; cat "$B/none.err"; fi

TRACEPOINTS=list $P >"$B/list.out" 2>&1; rc=$?
cat "$B/list.out"
if [ $rc -eq 0 ] && ! grep -q done "$B/list.out" &&
	grep -qx 'evf:evf_three (int a, unsigned long b, long long c)' "$B/list.out" &&
	grep -q '^evf:evf_mixed (string name, const void \* ptr, double ratio, unsigned char bytes\[4\], char comm\[8\], string tag, signed char small)$' "$B/list.out" &&
	grep -q '^evf:evf_lock_acquire ' "$B/list.out" && grep -q '^evf:evf_lock_release ' "$B/list.out" &&
	grep -qx 'evf_plain (plain tracepoint, no fields)' "$B/list.out"; then
	ok "TRACEPOINTS=list lists every event and exits"
else fail "TRACEPOINTS=list (exit $rc)"; fi

TRACEPOINTS=evf:evf_three $P >"$B/text.out" 2>"$B/text.err"
cat "$B/text.err"
n=$(grep -c ' evf:evf_three a=[12] b=[012] c=-1$' "$B/text.err")
if [ "$n" = 6 ] && [ "$(wc -l <"$B/text.err")" = 6 ] &&
	grep -Eq '^[0-9]+\.[0-9]{9} [0-9]+ [0-9]+ evf:evf_three a=1 b=0 c=-1$' "$B/text.err"; then
	ok "text lines on stderr: timestamp cpu tid system:event fields"
else fail "text output ($n matching lines)"; fi

TRACEPOINTS='evf:*' TRACEPOINTS_OUTPUT=json TRACEPOINTS_FILE=$B/trace.json $P >"$B/json.out" 2>"$B/json.err"
cat "$B/json.err"
if python3 - "$B/trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
inst = [e for e in ev if e["ph"] == "i"]
names = sorted(e["name"] for e in inst)
assert names == ["evf_lock_acquire", "evf_lock_release"] + ["evf_mixed"] * 6 + ["evf_three"] * 6, names
for e in inst:
    assert e["cat"] == "evf" and e["s"] == "t" and isinstance(e["ts"], (int, float)), e
    assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
pid = inst[0]["pid"]
main_tid = [e for e in inst if e["name"] == "evf_lock_acquire"][0]["tid"]
assert main_tid == pid
by_worker = {}
for e in inst:
    if e["name"] == "evf_three":
        a = e["args"]
        assert set(a) == {"a", "b", "c"} and a["c"] == -1 and a["b"] in (0, 1, 2), a
        by_worker.setdefault(a["a"], set()).add(e["tid"])
    if e["name"] == "evf_mixed":
        a = e["args"]
        assert a["name"] == "worker%d" % a["small"] and a["bytes"] == [1, 2, 3, 4], a
        assert a["comm"] == "worker" and a["tag"] == "w" and a["ptr"].startswith("0x"), a
        assert a["ratio"] in (0, 0.5, 1.0), a
        by_worker.setdefault(a["small"], set()).add(e["tid"])
assert set(by_worker) == {1, 2}, by_worker
t1, t2 = by_worker[1], by_worker[2]
assert len(t1) == 1 and len(t2) == 1 and t1 != t2 and main_tid not in t1 | t2, by_worker
meta = {(e["name"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M"}
assert meta[("process_name", pid)] == "prog", meta
assert meta[("thread_name", list(t1)[0])] == "worker1", meta
assert meta[("thread_name", list(t2)[0])] == "worker2", meta
ts = [e["ts"] for e in inst]
assert ts == sorted(ts)
print("json: %d events, tids %s" % (len(inst), sorted(t1 | t2 | {main_tid})))
PY
then ok "JSON loads with python's json, every event with its args, one tid per thread"
else fail "JSON check"; fi
grep -q "wrote 14 event(s) to $B/trace.json" "$B/json.err" && ok "exit message names the JSON file" || fail "no exit message for the JSON file"

TRACEPOINTS='evf:evf_lock_*' TRACEPOINTS_FILE=$B/trace.txt $P >/dev/null 2>"$B/file.err"
if [ "$(grep -c ' evf:evf_lock_' "$B/trace.txt")" = 2 ] && [ ! -s "$B/file.err" ]; then ok "TRACEPOINTS_FILE alone: text into the file"; else fail "TRACEPOINTS_FILE text"; fi

TRACEPOINTS='evf:*,,bad' $P >"$B/bad.out" 2>"$B/bad.err"; rc=$?
cat "$B/bad.err"
if [ $rc -eq 0 ] && grep -q done "$B/bad.out" && grep -q 'malformed pattern list "evf:\*,,bad": empty pattern .* at position 7' "$B/bad.err" &&
	! grep -q ' evf:evf_' "$B/bad.err"; then ok "malformed TRACEPOINTS reported with its position; program runs"; else fail "malformed TRACEPOINTS"; fi

TRACEPOINTS='evf:evf_thre,nosys:*,evf_plain' $P >/dev/null 2>"$B/unk.err"
cat "$B/unk.err"
if grep -q 'unknown event "evf:evf_thre"' "$B/unk.err" && grep -q 'pattern "nosys:\*" matches no event' "$B/unk.err" &&
	grep -q 'evf_plain is a plain tracepoint' "$B/unk.err"; then ok "unknown names reported"; else fail "unknown names"; fi

TRACEPOINTS=evf:evf_three TRACEPOINTS_OUTPUT=xml $P >/dev/null 2>"$B/fmt.err"
if grep -q 'TRACEPOINTS_OUTPUT="xml" is neither text nor json; using text' "$B/fmt.err" && [ "$(grep -c evf_three "$B/fmt.err")" = 6 ]; then
	ok "bad TRACEPOINTS_OUTPUT reported, text used"; else fail "bad TRACEPOINTS_OUTPUT"; cat "$B/fmt.err"; fi

TRACEPOINTS=evf:evf_three TRACEPOINTS_OUTPUT=json TRACEPOINTS_FILE=/nonexistent/dir/t.json $P >/dev/null 2>"$B/open.err"
if grep -q 'cannot open "/nonexistent/dir/t.json" for writing' "$B/open.err" && [ "$(grep -c evf_three "$B/open.err")" = 6 ]; then
	ok "unwritable TRACEPOINTS_FILE reported, text on stderr used"; else fail "unwritable file"; cat "$B/open.err"; fi

if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "all checks passed"
