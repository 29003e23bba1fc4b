#!/bin/sh
# make demo: builds examples/ (with the recorder file examples/sinks/
# recorder.c) in four configurations and shows, for each, which
# tracepoints are in the binary, which events fired, and then what every
# object costs in each (size, symbols), and what the compiled-in
# subsystems cost in code and data (tools/bloat-o-meter).
# Needs only a C compiler (and binutils nm, which comes with it).  Respects
# $CC, $CFLAGS and $NM.
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
NM=${NM:-nm}
WARN="-Wall -Wextra -Wundef -Werror"
SHOW=12 # event lines shown per configuration

# build NAME CPPFLAGS...: compiles every example file and the recorder file
# to build/demo-NAME/*.o, links build/demo-NAME/demo, and bundles the
# subsystem objects (all but demo.o, the tool that attaches the probes, and
# recorder.o) into subsystems.o for bloat-o-meter.
# shellcheck disable=SC2086 # $CC, $CFLAGS, $WARN, $subsys: lists, split on purpose
build() {
	dir=build/demo-$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	for src in examples/*.c examples/sinks/recorder.c; do
		obj=$dir/$(basename "$src" .c).o
		$CC -Iinclude -Iexamples $CFLAGS $WARN "$@" -c "$src" -o "$obj"
	done
	$CC $CFLAGS -o "$dir/demo" "$dir"/*.o -ldl -lpthread
	subsys=
	for obj in "$dir"/*.o; do
		case $obj in "$dir/demo.o" | "$dir/recorder.o") ;; *) subsys="$subsys $obj" ;; esac
	done
	$CC -r -nostdlib -o "$dir/subsystems.o" $subsys
}

# show NAME CPPFLAGS...: builds and reports one configuration.
show() {
	name=$1
	flags=$(echo "$@" | cut -d' ' -f2-)
	[ "$flags" = "$name" ] && flags="(no CONFIG_* flag; sched has no switch of its own: always in)"
	build "$@"
	dir=build/demo-$name
	echo "=== $name: $flags"
	echo "--- __tracepoint_* symbols in $dir/demo (prefix dropped):"
	"$NM" "$dir/demo" | awk '$3 ~ /^__tracepoint_/ { sub(/^__tracepoint_/, "", $3); print $3 }' |
		sort | awk '{ line = line " " $0; if (length(line) > 70) { print " " line; line = "" } }
			    END { if (line != "") print " " line; if (NR == 0) print "   (none)" }'
	"$dir/demo" >"$dir/run.txt"
	out=$(awk '/: compiled out$/ { printf " %s", $1 }' "$dir/run.txt" | tr -d :)
	echo "--- run: register_trace_*() said -ENOSYS for:${out:- (nothing)}"
	grep -v ': compiled out$' "$dir/run.txt" >"$dir/events.txt" || true
	lines=$(wc -l <"$dir/events.txt")
	if [ "$lines" -gt "$SHOW" ]; then
		echo "--- events: first $SHOW of $lines (all in $dir/events.txt):"
	else
		echo "--- events ($lines):"
	fi
	head -n "$SHOW" "$dir/events.txt" | sed 's/^/   /'
	echo
}

show off -DCONFIG_TRACEPOINTS_OFF
show none
show kmem -DCONFIG_KMEMTRACE
show all -DCONFIG_KMEMTRACE -DCONFIG_EXT4_TRACER -DCONFIG_JBD2_TRACER \
	-DCONFIG_LOCK_TRACER -DCONFIG_MODULE_TRACER -DCONFIG_TIMER_TRACER \
	-DCONFIG_POWER_TRACER -DCONFIG_IRQ_TRACER -DCONFIG_FTRACE_SYSCALLS \
	-DCONFIG_DRM_I915_TRACER

# Every object of the program in every configuration: bytes of code and
# data (size: text + data + bss) and symbols (nm).  With
# CONFIG_TRACEPOINTS_OFF the recorder file is empty, and each file keeps
# only its own code.
echo "=== Every object: bytes (text+data+bss) / symbols, per configuration"
printf '%-14s %16s %16s %16s %16s\n' object off none kmem all
for obj in build/demo-all/*.o; do
	o=$(basename "$obj")
	[ "$o" = subsystems.o ] && continue
	printf '%-14s' "$o"
	for c in off none kmem all; do
		f=build/demo-$c/$o
		b=$(size "$f" | awk 'NR == 2 { print $1 + $2 + $3 }')
		n=$("$NM" "$f" | grep -c .) || true
		printf ' %16s' "$b / $n"
	done
	echo
done
echo "(recorder.o: examples/sinks/recorder.c, the TRACEPOINT_SINK_MAIN file; demo.o attaches the probes)"
echo

echo "=== Cost of the subsystems compiled in (subsystems.o: every example object but demo.o and recorder.o)"
echo "--- none -> kmem: tools/bloat-o-meter build/demo-none/subsystems.o build/demo-kmem/subsystems.o"
tools/bloat-o-meter -n "$NM" build/demo-none/subsystems.o build/demo-kmem/subsystems.o
echo
echo "--- none -> all: tools/bloat-o-meter build/demo-none/subsystems.o build/demo-all/subsystems.o"
# The table is long: one row per tracepoint for its struct, name, pointer and
# dispatch function.  Show the subsystems' own functions and sum up the rest.
tools/bloat-o-meter -n "$NM" build/demo-none/subsystems.o build/demo-all/subsystems.o >build/demo-all/bloat.txt
awk 'NR <= 2 { print; next }
     /^Total:/ { total = $0; next }
     /^tp__|^__tracepoint_/ { n++; sum += $4; next }
     ++shown <= 20 { print }
     END { if (shown > 20) printf "... %d more rows of subsystem functions\n", shown - 20
	   printf "... %d rows for __tracepoint_* and tp__* symbols: %+d bytes in all\n", n, sum
	   print total
	   print "(the whole table: build/demo-all/bloat.txt)" }' build/demo-all/bloat.txt
