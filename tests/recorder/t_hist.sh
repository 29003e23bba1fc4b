#!/bin/sh
# Hist triggers (trace/recorder/hist.h, trace/hist_core.h) on
# tests/recorder/hist/hist_prog.c: 4 threads each firing hst_op (integers of
# each size and sign, a char array) and hst_named (a __string), then a
# forked child firing its own share:
#  - differential: one run both records the events and aggregates them with
#    a trigger per modifier (compound and string keys, .hex, .log2,
#    .buckets, common_pid, common_tid, sums, two sort fields); each
#    in-process hist file, the parent's and the child's, equals
#    tracepoint-dump --hist over that process's trace, line by line; the
#    same built with -DTRACEPOINT_NO_HIST_PROBE (no hist probe);
#  - .sym and .sym-offset named from the program's symbols (-rdynamic);
#  - a trigger's 'if' filter: the counts of the recorded events that match;
#  - latency by onmatch(): requests started and ended on other threads, by
#    kind, and a slice's duration; drops of variables; names that do not
#    resolve; the same triggers (and .execname) over the recorded events
#    with tracepoint-dump --hist, table by table;
#  - drops counted exactly: one thread, size=3 for 5 keys;
#  - an event with only a trigger writes no trace (the table on stderr);
#  - :pause and :continue; :clear (through tracepoint-ctl), of the saved
#    variables too; .execname;
#    name= (two events, one table);
#  - the live table through tracepoint-ctl PID hist; a trigger enabled and
#    disabled through tracepoint-ctl, its mistakes reported as TRACEPOINTS's;
#    one removed by !hist:... (the kernel's), and given again;
#  - TRACEPOINTS_SNAPSHOT_SIGNAL works when TRACEPOINTS holds a trigger;
#  - a table an exiting thread gives back is clean for the next thread
#    (churn.c holds each exiting thread there);
#  - hostile triggers: errors naming the token, never a crash (the program,
#    tracepoint-dump --hist, and fuzz_hist.c's mutations under the
#    sanitizers where they work).
. tests/lib.sh
cc_build -rdynamic -Itests/recorder -DCONFIG_HST "$S/hist_prog.c" -o "$B/hp" -lpthread -ldl
dump_tool
CTL=${TP_CTL:-}
if [ -z "$CTL" ] || [ ! -x "$CTL" ]; then
	CTL=$B/tracepoint-ctl
	cc_build tools/tracepoint-ctl.c -o "$CTL"
fi
ROUNDS=$(quick 2000 20000)

# ---- differential: in-process tables against --hist over the trace ----
set -- \
	'hst:hst_op hist:keys=kind:vals=bytes,lat:sort=bytes.descending' \
	'hst:hst_op hist:keys=tag,kind:vals=bytes.hex:sort=kind,bytes.descending' \
	'hst:hst_op hist:keys=lat.buckets=500,small.log2:vals=bytes,small' \
	'hst:hst_op hist:keys=lat.hex:vals=small:sort=lat.descending:size=8192' \
	'hst:hst_op hist:keys=bytes:vals=lat:sort=lat.descending,bytes' \
	'hst:hst_named hist:keys=name,n.log2' \
	'hst:hst_named hist:keys=common_tid,common_pid:vals=n'
spec='hst:hst_op;hst:hst_named'
for t in "$@"; do spec="$spec;$t"; done
env TRACEPOINTS="$spec" TRACEPOINTS_DIR="$B/diff" "$B/hp" 4 "$ROUNDS" fork >"$B/diff.out" 2>"$B/diff.err"
n=0
for d in "$B"/diff/hp-*; do
	n=$((n + 1))
	k_op=0 k_named=0
	for t in "$@"; do
		ev=${t%% *}
		if [ "$ev" = hst:hst_op ]; then k_op=$((k_op + 1)); k=$k_op; else k_named=$((k_named + 1)); k=$k_named; fi
		f="$d/hist/$ev"
		[ "$k" -gt 1 ] && f="$f-$k"
		"$DUMP" --hist "$t" "$d" >"$B/want" 2>"$B/want.err"
		if [ -s "$f" ] && cmp -s "$f" "$B/want" && grep -q '^    Dropped: 0$' "$f"; then
			ok "$(basename "$d"): '$t' equals tracepoint-dump --hist ($(grep -c '^{' "$f") entries)"
		else
			fail "$(basename "$d"): '$t' differs from tracepoint-dump --hist"
			diff "$f" "$B/want" | head -20; cat "$B/want.err" "$B/diff.err"
		fi
	done
done
if [ "$n" = 2 ]; then ok "the parent's and the forked child's traces each have their tables"
else fail "$n traces, want 2 (parent and child)"; cat "$B/diff.err"; fi
# the parent's 4 threads x ROUNDS, the child's ROUNDS / 2 (in its own trace)
hits=$(cat "$B"/diff/hp-*/hist/hst:hst_op | sed -n 's/^    Hits: //p' | sort -n | tr '\n' ' ')
if [ "$hits" = "$((ROUNDS / 2)) $((4 * ROUNDS)) " ]; then ok "hitcounts add up ($hits)"
else fail "Hits: $hits"; fi

# ---- -DTRACEPOINT_NO_HIST_PROBE: no hist probe in the classes; the
# triggers take the recorder probe (its failed reservation hands the entry
# to the hook) and make the same tables ----
cc_build -DTRACEPOINT_NO_HIST_PROBE -Itests/recorder -DCONFIG_HST "$S/hist_prog.c" -o "$B/hp_nohp" -lpthread -ldl
rm -rf "$B/nohp"
env TRACEPOINTS='hst:hst_op; hst:hst_op hist:keys=bytes:vals=lat; hst:hst_op hist:keys=kind,tag:vals=bytes,small' \
	TRACEPOINTS_DIR="$B/nohp" "$B/hp_nohp" 4 "$ROUNDS" >/dev/null 2>"$B/nohp.err"
for nd in "$B"/nohp/hp_nohp-*; do :; done
"$DUMP" --hist 'hst:hst_op hist:keys=bytes:vals=lat' "$nd" >"$B/nohp.1"
"$DUMP" --hist 'hst:hst_op hist:keys=kind,tag:vals=bytes,small' "$nd" >"$B/nohp.2"
if ! nm "$B/hp_nohp" | grep -q tp__ev_hprobe_ && nm "$B/hp" | grep -q tp__ev_hprobe_hst_op &&
	cmp -s "$B/nohp.1" "$nd/hist/hst:hst_op" && cmp -s "$B/nohp.2" "$nd/hist/hst:hst_op-2" &&
	grep -q "^    Hits: $((4 * ROUNDS))$" "$B/nohp.1"; then
	ok "-DTRACEPOINT_NO_HIST_PROBE: no hist probe; the triggers' tables equal --hist's all the same"
else fail "-DTRACEPOINT_NO_HIST_PROBE"; cat "$B/nohp.err"; diff "$B/nohp.1" "$nd/hist/hst:hst_op" | head; fi

# ---- .sym and .sym-offset: named at read time (the program's symbols) ----
env TRACEPOINTS='hst:hst_site; hst:hst_site hist:keys=call_site.sym:sort=call_site; hst:hst_site hist:keys=call_site.sym-offset:vals=call_site.hex' \
	TRACEPOINTS_DIR="$B/sym" "$B/hp" 2 300 >"$B/sym.out" 2>"$B/sym.err"
for d in "$B"/sym/hp-*; do :; done
unnamed() { sed 's/\(\[[0-9a-f]*\]\) [^}]*}/\1 }/' "$@"; }
"$DUMP" --hist 'hst:hst_site hist:keys=call_site.sym:sort=call_site' "$d" >"$B/sym.want"
if grep -q '^{ call_site: \[[0-9a-f]*\] hst_site_a  *} hitcount:        150$' "$d/hist/hst:hst_site" &&
	grep -q '^{ call_site: \[[0-9a-f]*\] hst_site_b+0x2  *} hitcount:         50  call_site: ' "$d/hist/hst:hst_site-2" &&
	[ "$(unnamed "$d/hist/hst:hst_site")" = "$(unnamed "$B/sym.want")" ]; then
	ok ".sym, .sym-offset: the functions named; the addresses as tracepoint-dump --hist counts them"
else fail ".sym"; cat "$d/hist/hst:hst_site" "$d/hist/hst:hst_site-2" "$B/sym.want" "$B/sym.err"; fi

# ---- a trigger's filter: the recorded events that match, counted ----
env TRACEPOINTS='hst:hst_op; hst:hst_op hist:keys=kind:vals=bytes if small < 10 && kind != 3' \
	TRACEPOINTS_DIR="$B/flt" "$B/hp" 4 "$ROUNDS" >"$B/flt.out" 2>"$B/flt.err"
for d in "$B"/flt/hp-*; do :; done
"$DUMP" "$d" | sed -n 's/.*kind=\([0-9]*\) bytes=\([0-9]*\) lat=[-0-9]* small=\([0-9]*\) .*/\1 \2 \3/p' |
	awk '$3 < 10 && $1 != 3 { n[$1]++; s[$1] += $2 } END { for (k in n) printf "%d %d %d\n", k, n[k], s[k] }' |
	sort -n >"$B/flt.want"
sed -n 's/^{ kind: *\([0-9]*\) } hitcount: *\([0-9]*\)  bytes: *\([0-9]*\)$/\1 \2 \3/p' "$d/hist/hst:hst_op" |
	sort -n >"$B/flt.got"
if [ -s "$B/flt.want" ] && cmp -s "$B/flt.got" "$B/flt.want" && grep -q ' if small < 10 && kind != 3 \[active\]' "$d/hist/hst:hst_op"; then
	ok "'if' filter: the counts and sums of the matching recorded events"
else fail "filter"; diff "$B/flt.got" "$B/flt.want"; cat "$B/flt.err"; fi

# ---- latency between two events: variables, onmatch(), synthetic events ----
# 4 threads start R requests each (kind i % 3), wait 2 ms, end the next
# thread's requests (and R / 10 never started); then 20 slices each.
R=$(quick 300 2000)
LAT='hst:hst_req_start hist:keys=id:ts0=common_timestamp.usecs:k=kind:size=16384'
LAT="$LAT; hst:hst_req_end hist:keys=id:lat=common_timestamp.usecs-\$ts0:onmatch(hst.hst_req_start).trace(req_lat,\$k,\$lat):size=16384"
LAT="$LAT; synthetic:req_lat hist:keys=k:vals=lat:sort=k; synthetic:req_lat hist:keys=lat.buckets=1000:sort=lat"
LAT="$LAT; hst:hst_work_begin hist:keys=common_tid:t0=common_timestamp"
LAT="$LAT; hst:hst_work_end hist:keys=common_tid:dur=common_timestamp-\$t0:onmatch(hst.hst_work_begin).trace(work,kind,\$dur)"
LAT="$LAT; synthetic:work hist:keys=kind:vals=dur"
env TRACEPOINTS="$LAT" "$B/hp" 4 "$R" req >"$B/lat.out" 2>"$B/lat.err"
# the tables in order: start, end, req_lat by k, req_lat by lat, work_begin, work_end, work
awk '/^# [a-z_]*:[a-z_]*$/ { n++ } { print > (B "/lat." n) }' B="$B" "$B/lat.err"
want=$(awk -v r="$R" 'BEGIN { for (k = 0; k < 3; k++) { c = 0; for (i = 0; i < r; i++) if (i % 3 == k) c++; printf "%d %d ", k, 4 * c } }')
got=$(sed -n 's/^{ k: *\([0-9]*\) } hitcount: *\([0-9]*\)  lat: *\([0-9]*\)$/\1 \2/p' "$B/lat.3" | tr '\n' ' ')
# every latency is at least the 2 ms the threads waited
short=$(sed -n 's/^{ k: *[0-9]* } hitcount: *\([0-9]*\)  lat: *\([0-9]*\)$/\1 \2/p' "$B/lat.3" | awk '$2 < 2000 * $1 { n++ } END { print n + 0 }')
low=$(sed -n 's/^{ lat: ~ \([0-9]*\)-.*/\1/p' "$B/lat.4" | sort -n | head -1)
# shellcheck disable=SC2016 # the $ of the trigger's text, literally
if [ "$got" = "$want" ] && [ "$short" = 0 ] && [ "${low:-0}" -ge 2000 ] &&
	grep -q "^    Hits: $((4 * R))$" "$B/lat.2" && grep -q "^    Hits: $((4 * R))$" "$B/lat.4" &&
	grep -q '^# trigger info: hist:keys=id:vals=hitcount:lat=common_timestamp.usecs-\$ts0:sort=hitcount:size=16384:onmatch(hst.hst_req_start).trace(req_lat,\$k,\$lat) \[active\]$' "$B/lat.2" &&
	grep -q '^    Dropped: 0$' "$B/lat.1"; then
	ok "onmatch(): request latency by kind across threads ($want), each >= 2 ms; unstarted ones unmatched"
else fail "latency by kind: '$got' want '$want', $short short, lowest bucket $low"; cat "$B/lat.err"; fi
if grep -q '^{ kind:          0 } hitcount:         40  dur: ' "$B/lat.7" &&
	grep -q '^{ kind:          1 } hitcount:         40  dur: ' "$B/lat.7" &&
	sed -n 's/^{ kind: *\([01]\) } hitcount: *40  dur: *\([0-9]*\)$/\1 \2/p' "$B/lat.7" |
	awk '{ if ($2 < 40 * 1000000 * ($1 + 1)) bad++; n++ } END { exit !(n == 2 && !bad) }'; then
	ok "a slice's duration as a value: 40 of 1 ms and 40 of 2 ms, at least that long"
else fail "slice durations"; cat "$B/lat.7"; fi

# drops, exactly: one thread, size=4 (8 slots of variables) for 20 requests
# started: the table keeps 4 (16 dropped), the variables 8 (12 dropped)
env TRACEPOINTS="$(echo "$LAT" | sed "s/size=16384/size=4/")" "$B/hp" 1 20 req >"$B/latd.out" 2>"$B/latd.err"
awk '/^# [a-z_]*:[a-z_]*$/ { n++ } { print > (B "/latd." n) }' B="$B" "$B/latd.err"
if grep -q '^    Dropped: 28$' "$B/latd.1" && grep -q '^    Hits: 8$' "$B/latd.2" &&
	grep -q '^    Hits: 8$' "$B/latd.3"; then
	ok "variables of a full table: counted in Dropped (28), only the 8 saved match"
else fail "variable drops"; cat "$B/latd.err"; fi

# names that do not resolve: reported, nothing made
for t in 'hst:hst_req_end hist:keys=id:onmatch(hst.hst_req_start).trace(x,id)' \
	"hst:hst_req_start hist:keys=id:t=common_timestamp; hst:hst_req_end hist:keys=id:l=common_timestamp-\$nope:onmatch(hst.hst_req_start).trace(x,\$l)" \
	"hst:hst_named hist:keys=name:t=common_timestamp; hst:hst_req_end hist:keys=id:onmatch(hst.hst_named).trace(x,id)" \
	"hst:hst_req_start hist:keys=id:t=common_timestamp; hst:hst_req_end hist:keys=id,common_tid:onmatch(hst.hst_req_start).trace(x,id)" \
	"hst:hst_req_start hist:keys=id:t=common_timestamp; hst:hst_req_end hist:keys=id:onmatch(hst.hst_req_start).trace(x,id); synthetic:x hist:keys=nope"; do
	env TRACEPOINTS="$t" "$B/hp" 1 10 req >"$B/latb.out" 2>"$B/latb.err"
	if grep -q '\^' "$B/latb.err" && ! grep -q '^# ' "$B/latb.err"; then :; else
		fail "'$t' not refused"; cat "$B/latb.err"; bad=x; fi
done
[ "${bad:-}" = x ] || ok "onmatch() of an event without variables, an unknown \$variable, keys of another kind or number, a synthetic event's unknown field: refused"

# ---- variables, onmatch() and .execname: in-process == --hist ----
# The same run records the four events; --hist takes the same triggers
# (one text, groups split by ';') and computes them in time order.  The
# tables are equal line by line but for the sums of time differences
# (lat, dur): the process reads common_timestamp when it aggregates, the
# trace holds the time each record was made.
VX="$(echo "$LAT" | sed 's/; synthetic:req_lat hist:keys=lat.buckets=1000:sort=lat//')"
VX="$VX; synthetic:req_lat hist:keys=k; synthetic:work hist:keys=common_tid.execname,kind"
rm -rf "$B/vx"
env TRACEPOINTS="hst:hst_req_*; hst:hst_work*; $VX" TRACEPOINTS_DIR="$B/vx" "$B/hp" 4 "$R" req >"$B/vx.out" 2>"$B/vx.err"
for vd in "$B"/vx/hp-*; do :; done
"$DUMP" --hist "$VX" "$vd" >"$B/vx.want" 2>"$B/vx.werr"
rm -f "$B"/vx.sec.*
awk '/^# [a-z_]*:[a-z_]*$/ { n++; next } { print > (B "/vx.sec." n) }' B="$B" "$B/vx.want"
i=0 same=0 nsame=0
for f in hst:hst_req_start hst:hst_req_end synthetic:req_lat hst:hst_work_begin \
	hst:hst_work_end synthetic:work synthetic:req_lat-2 synthetic:work-2; do
	i=$((i + 1))
	sed '$d' "$B/vx.sec.$i" 2>/dev/null | sed 's/  \(lat\|dur\): *[0-9]*$//' >"$B/vx.a"
	sed 's/  \(lat\|dur\): *[0-9]*$//' "$vd/hist/$f" >"$B/vx.b" 2>/dev/null
	if [ -s "$B/vx.b" ] && cmp -s "$B/vx.a" "$B/vx.b" && grep -q '^{' "$B/vx.b"; then
		same=$((same + 1))
		sed '$d' "$B/vx.sec.$i" | cmp -s - "$vd/hist/$f" && nsame=$((nsame + 1))
	else
		echo "$f differs:"; diff "$B/vx.a" "$B/vx.b" | head -10
	fi
done
if [ $same = 8 ] && [ $nsame = 6 ] && grep -q '^{ common_tid: hst-w0  *\[ *[0-9]*\], kind:          1 } hitcount:         10$' "$B/vx.want"; then
	ok "variables, onmatch(), synthetic events, .execname: the 8 tables equal tracepoint-dump --hist's (6 exactly, 2 but for their sums of times)"
else fail "variables: $same of 8 tables equal --hist's, $nsame exactly"; cat "$B/vx.werr"; fi

# hostile sets of triggers for --hist: VX cut, spliced and repeated at
# random places (awk's seeded rand()); an error (exit 2) or a table, never
# a crash
awk -v s="$VX" -v n="$(quick 100 400)" 'BEGIN {
	srand(7); split("; :onmatch( ) $ .trace( synthetic: hist:keys= - + , .execname ; ;", p, " ")
	for (i = 0; i < n; i++) {
		t = s; m = 1 + int(rand() * 3)
		for (j = 0; j < m; j++) {
			a = 1 + int(rand() * length(t)); b = a + int(rand() * 12)
			r = rand() < 0.5 ? p[1 + int(rand() * 12)] : substr(s, 1 + int(rand() * length(s)), int(rand() * 40))
			t = substr(t, 1, a - 1) r substr(t, b)
		}
		print t
	}
}' >"$B/vx.fuzz"
crash=0
while IFS= read -r t; do
	"$DUMP" --hist "$t" "$vd" >/dev/null 2>&1
	rc=$?
	[ $rc -le 2 ] || { crash=$((crash + 1)); echo "exit $rc: $t"; }
done <"$B/vx.fuzz"
if [ $crash = 0 ]; then ok "$(wc -l <"$B/vx.fuzz") mangled sets of triggers: --hist reports them or computes them, no crash"
else fail "$crash mangled sets of triggers crash --hist"; fi

# ---- drops, exactly: one thread, keys kind = i % 5, size=3 ----
env TRACEPOINTS='hst:hst_op hist:keys=kind:size=3' "$B/hp" 1 1000 >"$B/drop.out" 2>"$B/drop.err"
if grep -q '^    Hits: 600$' "$B/drop.err" && grep -q '^    Entries: 3$' "$B/drop.err" &&
	grep -q '^    Dropped: 400$' "$B/drop.err"; then
	ok "a full table: 3 entries, the other 400 events counted as dropped"
else fail "drops"; cat "$B/drop.err"; fi
# the same through the straight path (one 8-byte key, 8-byte sums): 1000 keys
env TRACEPOINTS='hst:hst_op hist:keys=bytes:vals=lat:size=3' "$B/hp" 1 1000 >"$B/drop8.out" 2>"$B/drop8.err"
if grep -q '^    Hits: 3$' "$B/drop8.err" && grep -q '^    Entries: 3$' "$B/drop8.err" &&
	grep -q '^    Dropped: 997$' "$B/drop8.err"; then
	ok "a full table, 8-byte key: 3 entries, 997 dropped"
else fail "drops (8-byte key)"; cat "$B/drop8.err"; fi

# ---- only a trigger: nothing recorded, the table on stderr ----
env TRACEPOINTS='hst:hst_named hist:keys=name' TRACEPOINTS_DIR="$B/only" "$B/hp" 2 100 >"$B/only.out" 2>"$B/only.err"
if [ ! -e "$B/only" ] && grep -q '^# hst:hst_named$' "$B/only.err" && grep -q '^    Hits: 200$' "$B/only.err"; then
	ok "an event with only a trigger: no trace, its table on stderr"
else fail "trigger only"; cat "$B/only.err"; ls -R "$B/only" 2>/dev/null; fi

# ---- :pause and :continue, of the trigger with the same text ----
pc() { # name spec: the trigger's state and hits, on stderr at exit
	env TRACEPOINTS="$2" "$B/hp" 2 100 2>"$B/$1.err" >/dev/null
	printf '%s %s' "$(sed -n 's/.*\[\(active\|paused\)\]$/\1/p' "$B/$1.err")" "$(sed -n 's/^    Hits: //p' "$B/$1.err")"
}
TRIG='hst:hst_op hist:keys=kind'
if [ "$(pc p1 "$TRIG:pause")" = 'paused 0' ] && [ "$(pc p2 "$TRIG; $TRIG:pause")" = 'paused 0' ] &&
	[ "$(pc p3 "$TRIG; $TRIG:pause; $TRIG:continue")" = 'active 200' ]; then
	ok ":pause makes a paused trigger or pauses one; :continue resumes it"
else fail "pause/continue: '$(pc p1 "$TRIG:pause")' '$(pc p2 "$TRIG; $TRIG:pause")' '$(pc p3 "$TRIG; $TRIG:pause; $TRIG:continue")'"; fi

# ---- live, through the control channel ----
RUN=$B/run
mkdir -m 700 "$RUN" || exit 1
env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS='hst:hst_op hist:keys=kind' TRACEPOINTS_CONTROL=1 \
	HST_READY="$B/ready" HST_GO="$B/go" "$B/hp" 2 100 >"$B/live.out" 2>"$B/live.err" &
pid=$!
i=0
while [ ! -e "$B/ready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid hist 'hst:*' >"$B/live.txt" 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid hist hst:hst_named >"$B/live2.txt" 2>&1
touch "$B/go"
wait $pid
if grep -q '^{ kind:          4 } hitcount:         40$' "$B/live.txt" && grep -q '^    Hits: 200$' "$B/live.txt" &&
	grep -q 'no hist trigger on these events' "$B/live2.txt"; then
	ok "tracepoint-ctl PID hist: the live table"
else fail "live"; cat "$B/live.txt" "$B/live2.txt" "$B/live.err"; fi

# ---- a trigger enabled and disabled through the control channel ----
env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS_CONTROL=1 HST_AFTER=1 \
	HST_READY="$B/cready" HST_GO="$B/cgo" "$B/hp" 1 100 >"$B/ctl.out" 2>"$B/ctl.err" &
pid=$!
i=0
while [ ! -e "$B/cready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op hist:keys=knid' >"$B/ctl1.out" 2>"$B/ctl1.err"
rc1=$?
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op hist:keys=kind:vals=bytes' >"$B/ctl2.out" 2>&1
rc2=$?
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_site hist:keys=call_site' >/dev/null 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid disable 'hst:hst_site hist:keys=call_site' >"$B/ctl3.out" 2>&1
rc3=$?
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:nothing hist:keys=kind' >/dev/null 2>"$B/ctl4.err"
rc4=$?
touch "$B/cgo"
wait $pid
env TRACEPOINTS='hst:hst_op hist:keys=knid' "$B/hp" 1 1 2>"$B/ctl1.want" >/dev/null
if [ $rc1 = 1 ] && [ "$(sed 's/^tracepoint-ctl: process [0-9]*: /tracepoints: /' "$B/ctl1.err")" = "$(cat "$B/ctl1.want")" ] &&
	[ $rc2 = 0 ] && [ $rc3 = 0 ] && [ $rc4 = 1 ] && grep -q 'no event of this program matches' "$B/ctl4.err" &&
	awk '/^# hst:hst_op$/ { f = 1 } f && /^    Hits: 100$/ { ok = 1 } END { exit !ok }' "$B/ctl.err" &&
	awk '/^# hst:hst_site$/ { f = 1 } f && /paused/ { p = 1 } f && /^    Hits: 0$/ { ok = p } END { exit !ok }' "$B/ctl.err"; then
	ok "tracepoint-ctl PID enable/disable 'event hist:...': added, paused, mistakes as TRACEPOINTS reports them"
else fail "ctl enable of a trigger: $rc1 $rc2 $rc3 $rc4"; cat "$B/ctl1.err" "$B/ctl1.want" "$B/ctl2.out" "$B/ctl3.out" "$B/ctl.err"; fi

# ---- !hist:...: the kernel's removal of one trigger, through the control
# channel: gone from `hist` (the other stays), given again it starts empty ----
env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS='hst:hst_op hist:keys=kind; hst:hst_op hist:keys=kind:vals=bytes' \
	TRACEPOINTS_CONTROL=1 HST_AFTER=1 HST_READY="$B/rmready" HST_GO="$B/rmgo" "$B/hp" 1 100 >"$B/rm.out" 2>"$B/rm.err" &
pid=$!
i=0
while [ ! -e "$B/rmready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op !hist:keys=kind' >"$B/rm1.out" 2>&1
rc1=$?
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid hist >"$B/rm2.txt" 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op !hist:keys=lat' >"$B/rm3.out" 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op hist:keys=kind' >"$B/rm4.out" 2>&1
touch "$B/rmgo"
wait $pid
if [ $rc1 = 0 ] && [ "$(grep -c '^# hst:hst_op$' "$B/rm2.txt")" = 1 ] && grep -q 'keys=kind:vals=hitcount,bytes' "$B/rm2.txt" &&
	grep -q 'no hist trigger "hist:keys=lat:vals=hitcount:sort=hitcount:size=2048" on hst:hst_op to remove' "$B/rm.err" &&
	awk '/^# trigger info: hist:keys=kind:vals=hitcount:sort/ { f = 1 } f && /^    Hits: / { print $2; exit }' "$B/rm.err" | grep -qx 100 &&
	awk '/^# trigger info: hist:keys=kind:vals=hitcount,bytes/ { f = 1 } f && /^    Hits: / { print $2; exit }' "$B/rm.err" | grep -qx 300; then
	ok "tracepoint-ctl PID enable 'event !hist:...' removes that trigger; given again it starts empty (100 of 300)"
else fail "!hist removal: $rc1"; cat "$B/rm1.out" "$B/rm2.txt" "$B/rm3.out" "$B/rm4.out" "$B/rm.err"; fi

# ---- :clear through the control channel: the threads gone, and main's
# own table at its next event; only main's events after it are left ----
env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS='hst:hst_op hist:keys=kind' TRACEPOINTS_CONTROL=1 HST_AFTER=1 \
	HST_READY="$B/clready" HST_GO="$B/clgo" "$B/hp" 2 100 >"$B/cl.out" 2>"$B/cl.err" &
pid=$!
i=0
while [ ! -e "$B/clready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid hist >"$B/cl1.txt" 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_op hist:keys=kind:clear' >"$B/cl2.txt" 2>&1
XDG_RUNTIME_DIR="$RUN" "$CTL" $pid hist >"$B/cl3.txt" 2>&1
touch "$B/clgo"
wait $pid
if grep -q '^    Hits: 300$' "$B/cl1.txt" && grep -q '^    Hits: 0$' "$B/cl3.txt" &&
	grep -q '^    Hits: 100$' "$B/cl.err" && grep -q '^{ kind:          4 } hitcount:         20$' "$B/cl.err"; then
	ok ":clear empties the table (300 hits, then 0, then main's 100 after it)"
else fail ":clear"; cat "$B/cl1.txt" "$B/cl2.txt" "$B/cl3.txt" "$B/cl.err"; fi

# :clear of a trigger with variables forgets them: main's requests started
# before the clear match nothing after it (the threads' own did); without
# the clear they match
for c in clear keep; do
	rm -f "$B/cvready" "$B/cvgo"
	# shellcheck disable=SC2016 # the $ of the trigger's text, literally
	env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS='hst:hst_req_start hist:keys=id:k=kind; hst:hst_req_end hist:keys=id:onmatch(hst.hst_req_start).trace(rl,$k); synthetic:rl hist:keys=k' \
		TRACEPOINTS_CONTROL=1 HST_AFTER=1 HST_READY="$B/cvready" HST_GO="$B/cvgo" "$B/hp" 2 30 req >"$B/cv.out" 2>"$B/cv.$c" &
	pid=$!
	i=0
	while [ ! -e "$B/cvready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	[ $c = clear ] && XDG_RUNTIME_DIR="$RUN" "$CTL" $pid enable 'hst:hst_req_start hist:keys=id:k=kind:clear' >"$B/cv.ctl" 2>&1
	touch "$B/cvgo"
	wait $pid
done
if sed -n '/^# synthetic:rl$/,$p' "$B/cv.clear" | grep -q '^    Hits: 60$' &&
	sed -n '/^# synthetic:rl$/,$p' "$B/cv.keep" | grep -q '^    Hits: 90$' &&
	sed -n '/^# hst:hst_req_start$/,/^# hst:hst_req_end$/p' "$B/cv.clear" | grep -q '^    Hits: 0$'; then
	ok ":clear forgets the saved variables (60 matched with it, 90 without)"
else fail ":clear of variables"; cat "$B/cv.ctl" "$B/cv.clear" "$B/cv.keep"; fi

# ---- .execname: the thread's name; name=: two events, one table ----
env TRACEPOINTS='hst:hst_op hist:keys=common_tid.execname,kind:sort=common_tid,kind' "$B/hp" 2 10 >/dev/null 2>"$B/exec.err"
if [ "$(grep -Ec '^\{ common_tid: hst-w[01] {10}\[ *[0-9]+\], kind: +[0-4] \} hitcount: +2$' "$B/exec.err")" = 10 ]; then
	ok ".execname: each thread's name with its id"
else fail ".execname"; cat "$B/exec.err"; fi
env TRACEPOINTS='hst:hst_req_start hist:name=reqs:keys=id; hst:hst_req_end hist:name=reqs:keys=id; hst:hst_req_end hist:name=reqs:keys=id:size=99' \
	"$B/hp" 2 10 req >/dev/null 2>"$B/named.bad"
env TRACEPOINTS='hst:hst_req_start hist:name=reqs:keys=id:sort=id; hst:hst_req_end hist:name=reqs:keys=id:sort=id' \
	"$B/hp" 2 10 req >/dev/null 2>"$B/named.err"
sed -n '/^# hst:hst_req_start$/,/^# hst:hst_req_end$/p' "$B/named.err" | sed '1d;$d' >"$B/named.1"
sed -n '/^# hst:hst_req_end$/,$p' "$B/named.err" | sed '1d' >"$B/named.2"
if cmp -s "$B/named.1" "$B/named.2" && grep -q '^    Hits: 42$' "$B/named.1" &&
	[ "$(grep -c 'hitcount:          2$' "$B/named.1")" = 21 ] &&
	grep -q 'the histogram named reqs is another: hist:name=reqs:keys=id' "$B/named.bad" && ! grep -q '^# ' "$B/named.bad"; then
	ok "name=: two events' triggers share one table (both files equal, 42 hits); another trigger of the name refused"
else fail "name="; diff "$B/named.1" "$B/named.2"; cat "$B/named.1" "$B/named.bad"; fi

# ---- TRACEPOINTS_SNAPSHOT_SIGNAL with a trigger in TRACEPOINTS ----
env XDG_RUNTIME_DIR="$RUN" TRACEPOINTS='hst:hst_op; hst:hst_op hist:keys=kind' TRACEPOINTS_DIR="$B/snap" \
	TRACEPOINTS_MODE=flight TRACEPOINTS_SNAPSHOT_SIGNAL=SIGUSR2 \
	HST_READY="$B/sready" HST_GO="$B/sgo" "$B/hp" 2 100 >"$B/snap.out" 2>"$B/snap.err" &
pid=$!
i=0
while [ ! -e "$B/sready" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
kill -USR2 $pid
i=0
while ! grep -q 'snapshot 1 in' "$B/snap.err" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
touch "$B/sgo"
wait $pid
rc=$?
if [ $rc = 0 ] && [ "$(count "$B"/snap/hp-*/snapshot-1)" = 1 ] && grep -q '^    Hits: 200$' "$B"/snap/hp-*/hist/hst:hst_op; then
	ok "TRACEPOINTS_SNAPSHOT_SIGNAL with a trigger: the signal takes a snapshot"
else
	fail "snapshot signal with a trigger: exit $rc"
	cat "$B/snap.err"
	ls -R "$B/snap"
	for f in "$B"/snap/hp-*/hist/*; do echo "== $f"; cat "$f"; done
fi

# ---- threads that end while others start: a table given back is clean ----
cc_build -Itests/recorder -DCONFIG_HST "$S/churn.c" -o "$B/churn" -lpthread -ldl
TRACEPOINTS='hst:hst_op hist:keys=kind' "$B/churn" 20 2 100 >"$B/churn.out" 2>"$B/churn.err"
if grep -q '^expected 4000$' "$B/churn.out" && grep -q '^    Hits: 4000$' "$B/churn.out" &&
	grep -q '^    Dropped: 0$' "$B/churn.out"; then
	ok "threads ending as others start (each held 2 ms after giving its table back): 4000 of 4000 events counted"
else fail "threads ending as others start"; cat "$B/churn.out" "$B/churn.err"; fi

# ---- hostile triggers ----
bad=0
for t in 'hist:keys=nope' 'hist:keys=kind:vals=tag' 'hist:keys=kind.log2.buckets=3' 'hist' \
	'hist:keys=kind:sort=zzz' 'hist:keys=kind:size=0' 'hist:keys=kind:size=99999999999999999999999' \
	'hist:keys=kind:frob=1' 'hist:keys=a,b,c,d' 'hist:keys=kind.usecs' 'hist:keys=kind,tag,lat,small' \
	'hist:keys=kind:vals=bytes:sort=bytes.sideways' 'hist:keys=kind.buckets=0' 'hist:keys=kind:keys=lat' \
	'hist:keys=kind:sort=kind,lat,bytes' 'hist:keys=kind:' 'hist::' 'histo:keys=kind' 'hist:keys=tag.hex' \
	'hist:keys=bytes.sym.hex' 'hist:keys=bytes:vals=lat.sym' 'hist:keys=bytes.sym-offse' \
	'hist:keys=kind:pause:continue' 'hist:keys=kind:paused'; do
	env TRACEPOINTS="hst:hst_op $t" TRACEPOINTS_DIR="$B/bad" "$B/hp" 1 10 >"$B/bad.out" 2>"$B/bad.err"
	rc=$?
	"$DUMP" --hist "hst:hst_op $t" "$d" >/dev/null 2>"$B/bad.derr"
	drc=$?
	if [ $rc != 0 ] || [ -e "$B/bad" ] || ! grep -q '\^' "$B/bad.err" || [ $drc != 2 ] ||
		! grep -q '\^' "$B/bad.derr"; then
		bad=$((bad + 1))
		echo "'$t': rc $rc, dump rc $drc"; cat "$B/bad.err" "$B/bad.derr"
	fi
	rm -rf "$B/bad"
done
if [ $bad = 0 ]; then ok "24 bad triggers: each reported with a caret (program and --hist), nothing recorded"
else fail "$bad bad triggers not reported as they should"; fi
env TRACEPOINTS='hst:hst_op hist:keys=nope' "$B/hp" 1 1 2>"$B/nope.err" >/dev/null
if grep -q 'no field "nope" (the event.s fields: common_timestamp, common_pid, common_tid, kind, bytes, lat, small, tag)' "$B/nope.err"; then
	ok "an unknown field: named, with the event's fields"
else fail "unknown field message"; cat "$B/nope.err"; fi

FZ=""
if cc_works -fsanitize=address,undefined; then FZ="-fsanitize=address,undefined -fno-sanitize-recover"; fi
# shellcheck disable=SC2086 # FZ is a list of flags
cc_build -g $FZ "$S/fuzz_hist.c" -o "$B/fuzz_hist"
if "$B/fuzz_hist" "$(quick 20000 300000)" >"$B/fuzz.out" 2>&1; then
	ok "fuzzed triggers${FZ:+ (sanitizers)}: $(cat "$B/fuzz.out")"
else fail "fuzz_hist"; tail -20 "$B/fuzz.out"; fi
finish
