#!/bin/sh
# The recorder's environment as a new user meets it (examples/sinks/
# kmem_trace.c: 6 kmem:kmalloc and 6 kmem:kfree records):
#  - TRACEPOINTS with empty groups (a trailing ';', ';;', spaces and line
#    ends around groups) records what the other groups name and says
#    nothing more; one of only ';' and spaces is as if unset; real mistakes
#    ('; if ...', a bad pattern after ';') still say what and where;
#  - a misspelt variable (TRACEPOINT, TRACEPOINTS_OUPUT, tracepoints,
#    TRACEPOINTS_DIRR, TRACEPOINTS_FOO) is named once at start-up with the
#    closest known one, with or without TRACEPOINTS; the known ones, a
#    build's TRACEPOINT_CFLAGS and unrelated names are not;
#  - every variable the recorder's code reads is in trace/recorder/env.h's
#    list (what the warning compares with);
#  - TRACEPOINTS=list shows each event's kind (tests/tools/perfetto/kinds.c),
#    list-format each event's system.
. tests/lib.sh
cc_build -Iexamples -DCONFIG_KMEMTRACE examples/sinks/kmem_trace.c -o "$B/kt" -lpthread -ldl
dump_tool
n=0
records() { # dir: the number of records of the trace in dir
	"$DUMP" --summary "$1" 2>/dev/null | sed -n 's/^events *//p'
}
# groups want: TRACEPOINTS=groups records want records, and stderr holds
# only the recorder's "trace in" line
groups() {
	n=$((n + 1))
	TRACEPOINTS=$1 TRACEPOINTS_DIR=$B/g$n "$B/kt" >"$B/g$n.out" 2>"$B/g$n.err"
	got=$(records "$B/g$n")
	if [ "$got" = "$2" ] && [ "$(grep -vc '^tracepoints: trace in ' "$B/g$n.err")" = 0 ]; then
		ok "TRACEPOINTS='$1': $2 records, nothing said"
	else fail "TRACEPOINTS='$1': $got records (want $2)"; cat "$B/g$n.err"; fi
}
groups 'kmem:*;' 12
groups 'kmem:kmalloc;' 6
groups 'kmem:kmalloc;;kmem:kfree' 12
groups ' kmem:kfree ; ' 6
groups ';kmem:kfree' 6
groups 'kmem:kmalloc if bytes_req > 64;' 2
groups 'kmem:kmalloc if bytes_req > 64;
  kmem:kfree
' 8
groups '	kmem:kmalloc,
	kmem:kfree
' 12
for v in ';' ' ; ; ' '
'; do
	rm -rf "$B/blank"
	TRACEPOINTS=$v TRACEPOINTS_DIR=$B/blank "$B/kt" >"$B/blank.out" 2>"$B/blank.err"
	if [ ! -s "$B/blank.err" ] && [ ! -e "$B/blank" ] && grep -q 'done' "$B/blank.out"; then
		ok "TRACEPOINTS of only ';' and spaces: as unset (nothing said, no trace)"
	else fail "blank TRACEPOINTS='$v'"; cat "$B/blank.err"; fi
done
# mistake spec message position: still an error, said with its place
mistake() {
	rm -rf "$B/bad"
	TRACEPOINTS=$1 TRACEPOINTS_DIR=$B/bad "$B/kt" >"$B/bad.out" 2>"$B/bad.err"
	if grep -q "^tracepoints: .*$2 at position $3\$" "$B/bad.err" && [ ! -e "$B/bad" ]; then
		ok "TRACEPOINTS='$1': '$2' at $3, nothing recorded"
	else fail "TRACEPOINTS='$1'"; cat "$B/bad.err"; fi
}
mistake '; if bytes_req > 1' "no pattern before 'if'" 3
mistake 'kmem:kfree;  if bytes_req > 1' "no pattern before 'if'" 14
mistake 'kmem:*;kmem:' "empty event name after ':'" 13
mistake 'kmem:*;;kmem:a,,b' 'empty pattern (two commas, or a leading comma)' 16
mistake 'kmem:* if' "nothing after 'if'" 10

# misspelt variables
said() { # file name closest: the line for name, naming closest
	grep -q "^tracepoints: $2 in the environment is not a variable of the recorder: ignored (.*$3" "$1"
}
env TRACEPOINT='kmem:*' TRACEPOINTS_OUPUT=x tracepoints=y TRACEPOINTS_DIRR=z TRACEPOINTS_FOO=1 \
	TRACEPOINT_CFLAGS=-O2 TRACE=1 "$B/kt" >"$B/v.out" 2>"$B/v.err"
cat "$B/v.err"
if said "$B/v.err" TRACEPOINT 'did you mean TRACEPOINTS?)' &&
	said "$B/v.err" TRACEPOINTS_OUPUT 'did you mean TRACEPOINTS_OUTPUT? it is no longer read' &&
	said "$B/v.err" tracepoints 'did you mean TRACEPOINTS?)' &&
	said "$B/v.err" TRACEPOINTS_DIRR 'did you mean TRACEPOINTS_DIR?)' &&
	said "$B/v.err" TRACEPOINTS_FOO 'the closest is TRACEPOINTS_DIR; the recorder reads TRACEPOINTS, TRACEPOINTS_DIR, TRACEPOINTS_MODE' &&
	[ "$(wc -l <"$B/v.err")" = 5 ] && grep -q 'done' "$B/v.out"; then
	ok "misspelt variables: each named once with the closest known one, the program runs"
else fail "misspelt variables"; fi
TRACEPOINTS='kmem:kfree' TRACEPOINTS_DIR=$B/v2 TRACEPOINTS_BUFER_KB=64 "$B/kt" >"$B/v2.out" 2>"$B/v2.err"
if said "$B/v2.err" TRACEPOINTS_BUFER_KB 'did you mean TRACEPOINTS_BUFFER_KB?)' &&
	[ "$(grep -c 'not a variable' "$B/v2.err")" = 1 ] && [ "$(records "$B/v2")" = 6 ]; then
	ok "a misspelt variable next to TRACEPOINTS: said once, the trace recorded"
else fail "misspelt variable with TRACEPOINTS"; cat "$B/v2.err"; fi
TRACEPOINTS='kmem:kfree' TRACEPOINTS_DIR=$B/v3 TRACEPOINTS_MODE=stream TRACEPOINTS_BUFFER_KB=64 \
	TRACEPOINTS_FLIGHT_KB=128 TRACEPOINTS_CLOCK=monotonic TRACEPOINTS_CONTROL=0 \
	"$B/kt" >"$B/v3.out" 2>"$B/v3.err"
if [ "$(grep -vc '^tracepoints: trace in ' "$B/v3.err")" = 0 ]; then ok "known variables: nothing said"
else fail "known variables"; cat "$B/v3.err"; fi

# the list of known variables against the code that reads them
code=$(grep -ho 'tp__sink_getenv("[A-Z_]*")' include/trace/*.h include/trace/recorder/*.h | sed 's/.*("//; s/")//' | sort -u)
listed=$(sed -n '/tp__sink_env_known\[\] = {/,/};/p; /tp__sink_env_retired\[\] = {/p' include/trace/recorder/env.h |
	grep -o '"[A-Z_]*"' | tr -d '"' | sort -u)
missing=$(printf '%s\n' "$code" | while read -r v; do printf '%s\n' "$listed" | grep -qx "$v" || echo "$v"; done)
if [ -n "$code" ] && [ -z "$missing" ]; then ok "every variable the code reads ($(printf '%s\n' "$code" | wc -l)) is listed in recorder/env.h"
else fail "read but not listed in trace/recorder/env.h: $missing"; fi

# kinds in TRACEPOINTS=list, systems in list-format
cc_build -Itests/tools/perfetto -DCONFIG_WORK tests/tools/perfetto/kinds.c -o "$B/kinds" -lpthread -ldl
TRACEPOINTS=list "$B/kinds" >"$B/list" 2>&1
if grep -qx 'work:batch_begin (int n, string who) \[slice_begin\]' "$B/list" &&
	grep -qx 'work:batch_end (int n, string who) \[slice_end\]' "$B/list" &&
	grep -qx 'work:queued (long items) \[counter\]' "$B/list" &&
	grep -qx 'work:submit (unsigned long id, int prio) \[flow\]' "$B/list" &&
	grep -qx 'work:handle_begin (unsigned long id) \[slice_begin flow\]' "$B/list" &&
	grep -qx 'work:note (int code, const void \* where, short pair\[2\])' "$B/list"; then
	ok "TRACEPOINTS=list: slices, counters and flows marked, instants plain"
else fail "TRACEPOINTS=list kinds"; cat "$B/list"; fi
TRACEPOINTS=list-format "$B/kinds" >"$B/format" 2>&1
if [ "$(grep -c '^name: ' "$B/format")" = 10 ] && [ "$(grep -B1 '^name: ' "$B/format" | grep -c '^system: work$')" = 10 ] &&
	grep -A1 '^system: work$' "$B/format" | grep -qx 'name: batch_begin'; then
	ok "TRACEPOINTS=list-format: every block names its system before its name"
else fail "list-format system"; cat "$B/format"; fi
finish
