#!/bin/sh
# Field filters from the environment, on examples/sinks/kmem_trace.c (two
# worker threads, each kmalloc 24, 64, 104 bytes from its cache "dentry" or
# "inode", then three kfree), the trace read back with tracepoint-dump:
#  - TRACEPOINTS='kmem:kmalloc if bytes_req > 64 && cache == "dentry"':
#    exactly that record, nothing dropped;
#  - two groups, 'kmem:kmalloc if cache ~ "i*"; kmem:kfree': the inode
#    kmallocs and every kfree;
#  - the same in flight mode (TRACEPOINTS_MODE=flight);
#  - babeltrace2 reads a filtered trace (when installed);
#  - a field the event lacks, a type mismatch, a syntax error: a message
#    with the position and a caret, no trace directory, the program runs;
#  - tests/recorder/filters/host.c: a filter on a plugin's event, the plugin
#    replaced by others defining the event with x elsewhere, then without
#    x: the filter follows the new layout, then is dropped (said so);
#    never run with the old offsets (the bytes each plugin's records added).
. tests/lib.sh
cc_build -Iexamples -DCONFIG_KMEMTRACE examples/sinks/kmem_trace.c -o "$B/kmem_trace" -ldl -lpthread
dump_tool
P=$B/kmem_trace

record() { # name spec [VAR=value...]: records into $B/name, text in $B/name.txt
	_n=$1 _spec=$2
	shift 2
	env TRACEPOINTS="$_spec" TRACEPOINTS_DIR="$B/$_n" "$@" "$P" >"$B/$_n.out" 2>"$B/$_n.err"
	"$DUMP" "$B/$_n" >"$B/$_n.txt" 2>&1
	"$DUMP" --summary "$B/$_n" >"$B/$_n.sum" 2>&1
}
# "event bytes_req cache" of each kmalloc, "kfree" for each kfree, sorted
kept() {
	sed -n 's/.* kmem:kmalloc .*bytes_req=\([0-9]*\) .*cache=\([a-z]*\).*/kmalloc \1 \2/p; s/.* kmem:kfree .*/kfree/p' "$B/$1.txt" | sort | tr '\n' ' '
}

record one 'kmem:kmalloc if bytes_req > 64 && cache == "dentry"'
if [ "$(kept one)" = "kmalloc 104 dentry " ] && grep -q '^dropped *0$' "$B/one.sum" &&
	grep -q '^events *1$' "$B/one.sum"; then
	ok "one condition pair: exactly the matching record, nothing dropped"
else fail "one: $(kept one)"; cat "$B/one.err" "$B/one.sum"; fi

want='kfree kfree kfree kfree kfree kfree kmalloc 104 inode kmalloc 24 inode kmalloc 64 inode '
record two 'kmem:kmalloc if cache ~ "i*"; kmem:kfree'
if [ "$(kept two)" = "$want" ]; then ok "two groups: filtered kmallocs, every kfree"
else fail "two: $(kept two)"; cat "$B/two.err"; fi

record flight 'kmem:kmalloc if cache ~ "i*"; kmem:kfree' TRACEPOINTS_MODE=flight
if [ "$(kept flight)" = "$want" ]; then ok "flight mode: the same records"
else fail "flight: $(kept flight)"; cat "$B/flight.err"; fi

if have babeltrace2; then
	n=$(babeltrace2 "$B/two" 2>"$B/bt.err" | wc -l)
	if [ "$n" = 9 ]; then ok "babeltrace2 reads the filtered trace (9 records)"
	else fail "babeltrace2: $n records"; cat "$B/bt.err"; fi
else skip_part "babeltrace2 not installed"; fi

bad() { # name spec message caret-column: reported, nothing recorded, the program runs
	record "$1" "$2"
	if grep -qF "$3" "$B/$1.err" && [ "$(cat "$B/$1.out")" = 'kmem_trace: done' ] &&
		[ ! -e "$B/$1" ] && [ "$(tail -1 "$B/$1.err" | awk '{ print index($0, "^") }')" = "$4" ]; then
		ok "$1: reported with a caret, nothing recorded"
	else fail "$1"; cat "$B/$1.err"; ls "$B/$1" 2>/dev/null; fi
}
bad no_field 'kmem:kmalloc if bytes_rq > 64' 'tracepoints: bad filter for kmem:kmalloc: no field "bytes_rq" in this event (its fields: call_site, ptr, bytes_req, bytes_alloc, cache); did you mean "bytes_req"? at position 17' 19
bad mismatch 'kmem:kmalloc if cache > 1' 'field cache is a string: put the value in quotes' 27
bad syntax 'kmem:kmalloc if (bytes_req > 64' "bad filter: this '(' is not closed at position 17" 19
bad other_event 'kmem:* if bytes_req > 64' 'bad filter for kmem:kfree: no field "bytes_req"' 13

# Labels: examples/gc shows gc_phase's state by __print_symbolic and its
# reasons by __print_flags; a filter takes those names, as the reader prints them.
cc_build -Iexamples -DCONFIG_GCTRACE examples/gc/gc.c -o "$B/gc" -ldl -lpthread
labels() { # name filter: the gc_phase records kept, "state reasons" each
	env TRACEPOINTS="gc:gc_phase if $2" TRACEPOINTS_DIR="$B/$1" "$B/gc" >/dev/null 2>"$B/$1.err"
	"$DUMP" "$B/$1" 2>&1 | sed -n 's/.*gc:gc_phase state=\([a-z]*\) reasons=\([a-z_|]*\) .*/\1 \2/p' | tr '\n' ';'
}
got=$(labels lab_sym 'state == "mark"')
if [ "$got" = "mark alloc_failed|low_memory;mark explicit;" ]; then ok "state == \"mark\": the two mark phases"
else fail "state == \"mark\": $got"; cat "$B/lab_sym.err"; fi
got=$(labels lab_flags 'reasons & "low_memory" && state != "mark"')
if [ "$got" = "sweep alloc_failed|low_memory;" ]; then ok "reasons & \"low_memory\" && state != \"mark\": one sweep"
else fail "flags: $got"; cat "$B/lab_flags.err"; fi
env TRACEPOINTS='gc:gc_phase if reasons & "low_memry"' TRACEPOINTS_DIR="$B/lab_bad" "$B/gc" >/dev/null 2>"$B/lab_bad.err"
if grep -qF 'no label "low_memry" for reasons (its labels: alloc_failed, explicit, low_memory); did you mean "low_memory"? at position 27' "$B/lab_bad.err" &&
	[ "$(tail -1 "$B/lab_bad.err" | awk '{ print index($0, "^") }')" = 29 ] && [ ! -e "$B/lab_bad" ]; then
	ok "a misspelt label: its labels, the nearest, a caret, nothing recorded"
else fail "misspelt label"; cat "$B/lab_bad.err"; fi

# a hist trigger's filter takes the labels too: the two mark phases
env TRACEPOINTS='gc:gc_phase hist:keys=state if state == "mark"' TRACEPOINTS_DIR="$B/lab_hist" "$B/gc" >/dev/null 2>"$B/lab_hist.err"
if grep -Eq '^\{ state: +1 \} hitcount: +2$' "$B/lab_hist.err"; then ok "hist:keys=state if state == \"mark\": 2 hits"
else fail "a hist trigger's filter with a label"; cat "$B/lab_hist.err"; fi

for l in 1 2 3; do
	cc_build -I"$S" -fPIC -shared -DCONFIG_FPLUG -DPLUG_LAYOUT=$l "$S/plug.c" -o "$B/libplug$l.so"
done
cc_build -I"$S" "$S/host.c" -o "$B/host" -ldl -lpthread
"$B/host" "$B/libplug1.so" "$B/libplug2.so" "$B/libplug3.so" "$B/reload" >"$B/reload.out" 2>"$B/reload.err"
# one record of 8 (layout 1, after the 96-byte packet header), one of 12,
# then ten of 4, each with a 4-byte header (13 if the clock moved 2^26 ticks)
got=$(tr '\n' ' ' <"$B/reload.out")
if echo "$got" | grep -Eq '^layout 1: 1(08|17) layout 2: (16|25) layout 3: (80|89) dropped 0 $'; then
	ok "a reloaded event: its filter follows the new layout ($got)"
else fail "reloaded event: $got"; cat "$B/reload.err"; fi
if grep -q 'tracepoints: the filter "x == 5" of fplug:fplug_work does not fit the event.s fields any more .*: dropped (no field "x" in this event (its fields: y))' "$B/reload.err"; then
	ok "a filter that no longer fits is dropped, and said so"
else fail "no message for the dropped filter"; cat "$B/reload.err"; fi
finish
