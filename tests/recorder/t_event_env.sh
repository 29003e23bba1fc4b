#!/bin/sh
# Runtime control by environment, in child processes of one test program
# (tests/recorder/event_env/env_prog.c: main thread plus two named worker threads):
#  - TRACEPOINTS unset: no output at all;
#  - TRACEPOINTS=list prints every event with its fields and exits 0 without
#    running main;
#  - TRACEPOINTS=evf:evf_three TRACEPOINTS_DIR=d: one trace in d, named on
#    stderr at exit, that babeltrace2 reads (the 6 worker events);
#  - TRACEPOINTS_DIR empty (as unset): trace-<comm>-<pid>/ in the current
#    directory;
#  - TRACEPOINTS="evf:*", then tracepoint-dump --json: a file python's json
#    module loads, with every fired event (name, cat, ph "i", args as
#    fired), each worker's events on its own tid, thread and process names;
#  - a TRACEPOINTS that enables nothing leaves no trace directory;
#  - TRACEPOINTS unset and the program calling tracepoint_enable() itself:
#    the trace goes to TRACEPOINTS_DIR in TRACEPOINTS_MODE (also through
#    tracepoint_output(NULL, NULL)); a tracepoint_output() that chooses
#    otherwise is said on stderr;
#  - malformed TRACEPOINTS, unknown events, a bad TRACEPOINTS_MODE, the old
#    TRACEPOINTS_OUTPUT/FILE and an unusable directory are reported on
#    stderr, and the program still runs.
. tests/lib.sh
cc_build -Itests/include -DCONFIG_EVF "$S/env_prog.c" -o "$B/prog" -ldl -lpthread
P=$B/prog

$P >"$B/none.out" 2>"$B/none.err"
if [ "$(cat "$B/none.out")" = 'done' ] && [ ! -s "$B/none.err" ]; then ok "no TRACEPOINTS: no output"; else fail "output without TRACEPOINTS"; cat "$B/none.err"; fi

TRACEPOINTS=list $P >"$B/list.out" 2>&1; rc=$?
cat "$B/list.out"
if [ $rc -eq 0 ] && ! grep -q 'done' "$B/list.out" &&
	grep -qx 'evf:evf_three (int a, unsigned long b, long long c)' "$B/list.out" &&
	grep -q '^evf:evf_mixed (string name, const void \* ptr, double ratio, unsigned char bytes\[4\], char comm\[8\], string tag, signed char small)$' "$B/list.out" &&
	grep -q '^evf:evf_lock_acquire ' "$B/list.out" && grep -q '^evf:evf_lock_release ' "$B/list.out" &&
	grep -qx 'evf_plain (plain tracepoint, no fields)' "$B/list.out"; then
	ok "TRACEPOINTS=list lists every event and exits"
else fail "TRACEPOINTS=list (exit $rc)"; fi

TRACEPOINTS=evf:evf_three TRACEPOINTS_DIR=$B/t1 $P >"$B/t1.out" 2>"$B/t1.err"
cat "$B/t1.err"
n=$(count "$B"/t1/prog-*/)
if [ "$(cat "$B/t1.out")" = 'done' ] && [ "$n" = 1 ] &&
	grep -q "^tracepoints: trace in $B/t1/prog-[0-9]* (.* KiB); read it with: tracepoint-dump $B/t1\$" "$B/t1.err"; then
	ok "TRACEPOINTS_DIR: one trace, named on stderr at exit"
else fail "TRACEPOINTS_DIR ($n traces)"; fi
if have babeltrace2; then
	babeltrace2 "$B/t1" >"$B/t1.bt" 2>&1
	n=$(grep -c 'evf:evf_three: .*{ a = [12], b = [012], c = -1 }$' "$B/t1.bt")
	if [ "$n" = 6 ] && [ "$(wc -l <"$B/t1.bt")" = 6 ]; then ok "babeltrace2 reads the 6 worker events"
	else fail "babeltrace2 read $n of 6"; cat "$B/t1.bt"; fi
else skip_part "babeltrace2 not installed: trace contents not checked here"; fi

(cd "$B" && TRACEPOINTS=evf:evf_three TRACEPOINTS_DIR='' ./prog >/dev/null 2>def.err)
n=$(count "$B"/trace-prog-*/prog-*/)
if [ "$n" = 1 ] && grep -q "read it with: tracepoint-dump trace-prog-" "$B/def.err"; then
	ok "default: trace-<comm>-<pid>/<comm>-<pid> in the current directory"
else fail "default directory ($n)"; fi

dump_tool
TRACEPOINTS='evf:*' TRACEPOINTS_DIR=$B/j $P >"$B/json.out" 2>"$B/json.err"
"$DUMP" --json "$B/j" >"$B/trace.json" || fail "tracepoint-dump --json"
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

TRACEPOINTS='evf:*,,bad' $P >"$B/bad.out" 2>"$B/bad.err"; rc=$?
cat "$B/bad.err"
if [ $rc -eq 0 ] && grep -q 'done' "$B/bad.out" && grep -q 'malformed pattern list "evf:\*,,bad": empty pattern .* at position 7' "$B/bad.err" &&
	! grep -q ' evf:evf_' "$B/bad.err"; then ok "malformed TRACEPOINTS reported with its position; program runs"; else fail "malformed TRACEPOINTS"; fi

TRACEPOINTS='evf:evf_thre,nosys:*,evf_plain' $P >/dev/null 2>"$B/unk.err"
cat "$B/unk.err"
if grep -q 'unknown event "evf:evf_thre"' "$B/unk.err" && grep -q 'pattern "nosys:\*" matches no event' "$B/unk.err" &&
	grep -q 'evf_plain is a plain tracepoint' "$B/unk.err"; then ok "unknown names reported"; else fail "unknown names"; fi

mkdir -p "$B/typo" && (cd "$B/typo" && TRACEPOINTS='evf:evf_thre' ../prog >/dev/null 2>typo.err)
if [ "$(count "$B"/typo/trace-*)" = 0 ] && ! grep -q "trace in" "$B/typo/typo.err"; then
	ok "a TRACEPOINTS that enables nothing leaves no trace behind"; else fail "empty trace left behind"; fi

TRACEPOINTS=evf:evf_three TRACEPOINTS_MODE=xml TRACEPOINTS_DIR=$B/m $P >/dev/null 2>"$B/mode.err"
if grep -q 'TRACEPOINTS_MODE="xml" is neither stream nor flight; using stream' "$B/mode.err" && [ "$(count "$B"/m/prog-*/metadata)" = 1 ]; then
	ok "bad TRACEPOINTS_MODE reported, stream used"; else fail "bad TRACEPOINTS_MODE"; cat "$B/mode.err"; fi

TRACEPOINTS=evf:evf_three TRACEPOINTS_OUTPUT=json TRACEPOINTS_FILE=x.json TRACEPOINTS_DIR=$B/o $P >/dev/null 2>"$B/old.err"
if grep -q 'TRACEPOINTS_OUTPUT and TRACEPOINTS_FILE are no longer read' "$B/old.err" && [ ! -e x.json ]; then
	ok "the old TRACEPOINTS_OUTPUT/FILE are reported as unused"; else fail "old variables"; cat "$B/old.err"; fi

# The program's own tracepoint_enable() (TRACEPOINTS unset) and
# tracepoint_output(): TRACEPOINTS_DIR and TRACEPOINTS_MODE are honoured
# where the program leaves them open, and said when it overrides them.
own() { # name args...: runs the program in $B/own-NAME (its cwd) with args
	_o=$1
	shift
	mkdir -p "$B/own-$_o" && (cd "$B/own-$_o" && ../prog "$@" >out 2>err)
}
summary() { # dir: "MODE EVENTS" of the trace in dir, as tracepoint-dump --summary says
	"$DUMP" --summary "$1" 2>/dev/null | sed -n 's/^mode *//p; s/^events *//p' | tr '\n' ' '
}
TRACEPOINTS_DIR=td TRACEPOINTS_MODE=flight own enable enable evf:evf_three
s=$(summary "$B/own-enable/td")
if grep -qx 'enable 1' "$B/own-enable/out" && [ "$s" = "flight 6 " ] && [ "$(count "$B"/own-enable/trace-*)" = 0 ] &&
	grep -q "^tracepoints: trace in td/prog-[0-9]* " "$B/own-enable/err"; then
	ok "the program's own tracepoint_enable(): the trace in TRACEPOINTS_DIR, in TRACEPOINTS_MODE"
else fail "the program's own tracepoint_enable() ignored TRACEPOINTS_DIR or _MODE (summary '$s')"; ls "$B/own-enable"; cat "$B/own-enable/err"; fi
TRACEPOINTS_DIR=td TRACEPOINTS_MODE=flight own null output - - evf:evf_three
s=$(summary "$B/own-null/td")
if grep -qx 'output 0' "$B/own-null/out" && [ "$s" = "flight 6 " ] && [ "$(count "$B"/own-null/trace-*)" = 0 ]; then
	ok "tracepoint_output(NULL, NULL): TRACEPOINTS_DIR and TRACEPOINTS_MODE"
else fail "tracepoint_output(NULL, NULL) (summary '$s')"; cat "$B/own-null/err"; fi
TRACEPOINTS_DIR=td TRACEPOINTS_MODE=flight own chosen output stream mine evf:evf_three
s=$(summary "$B/own-chosen/mine")
if [ "$s" = "stream 6 " ] && [ ! -e "$B/own-chosen/td" ] &&
	grep -qx 'tracepoints: TRACEPOINTS_DIR=td is not used: the program chose the trace directory mine (tracepoint_output)' "$B/own-chosen/err" &&
	grep -qx 'tracepoints: TRACEPOINTS_MODE=flight is not used: the program chose mode stream (tracepoint_output)' "$B/own-chosen/err"; then
	ok "tracepoint_output(\"stream\", \"mine\") against TRACEPOINTS_DIR and _MODE: the program's choice, said on stderr"
else fail "tracepoint_output against the environment (summary '$s')"; cat "$B/own-chosen/err"; fi
TRACEPOINTS_DIR=td TRACEPOINTS_MODE=xml own badmode enable evf:evf_three
s=$(summary "$B/own-badmode/td")
if [ "$s" = "stream 6 " ] && [ "$(grep -c 'TRACEPOINTS_MODE="xml" is neither stream nor flight; using stream' "$B/own-badmode/err")" = 1 ]; then
	ok "the program's own tracepoint_enable() with a bad TRACEPOINTS_MODE: said once, stream in TRACEPOINTS_DIR"
else fail "bad TRACEPOINTS_MODE with the program's own enable (summary '$s')"; cat "$B/own-badmode/err"; fi

for d in /nonexistent/dir/t /dev/full; do
	TRACEPOINTS=evf:evf_three TRACEPOINTS_DIR=$d $P >"$B/bad.out" 2>"$B/bad.err"; rc=$?
	if [ $rc = 0 ] && grep -q 'done' "$B/bad.out" && grep -q "cannot create the trace directory $d: " "$B/bad.err" &&
		! grep -q "trace in" "$B/bad.err"; then ok "unusable TRACEPOINTS_DIR=$d reported once, the program runs"
	else fail "TRACEPOINTS_DIR=$d"; cat "$B/bad.err"; fi
done

finish
