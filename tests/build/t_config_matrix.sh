#!/bin/sh
# Per-subsystem selection on the examples/ program: builds it with every
# subsystem off, every one on, each one alone on, each one alone off (not
# under make check), with CONFIG_TRACEPOINTS_ALL and CONFIG_TRACEPOINTS_OFF,
# and with CONFIG_KMEMTRACE set to 0, empty and 1; for each build asserts
# EXACTLY which __tracepoint_* symbols the binary holds (expected sets come
# from the table below; the unconverted sched.h is always in, except under
# CONFIG_TRACEPOINTS_OFF), and that at run time demo reports -ENOSYS for
# exactly the subsystems left out and prints events only from those compiled
# in.
# Every build uses -O2 and -Wall -Wextra -Wundef -Werror; two run at a time.
# Works in a private temp dir (build/ may be cleaned or shared by concurrent
# runs) and copies it to $TP_BUILD/config_matrix (build/config_matrix when
# run by hand) at the end.
# shellcheck disable=SC2086,SC2116 # flag lists are split on purpose; $(echo $x) joins the words of $x with single spaces
. tests/lib.sh
CFLAGS="-O2 $TPF"

$CC --version >/dev/null 2>&1 || skip "skip: no C compiler ($CC)"
OUT=$B
B=$(mktemp -d "${TMPDIR:-/tmp}/tp-config-matrix.XXXXXX") || exit 1
trap 'rm -rf "$B"' EXIT

# subsystem  switch                   tracepoints (examples/events/*.h)
TABLE='
kmem      CONFIG_KMEMTRACE         kmalloc kfree
ext4      CONFIG_EXT4_TRACER       ext4_write_begin ext4_sync_file
jbd2      CONFIG_JBD2_TRACER       jbd2_start_commit jbd2_end_commit
lock      CONFIG_LOCK_TRACER       lock_acquire lock_release
module    CONFIG_MODULE_TRACER     module_load module_free
timer     CONFIG_TIMER_TRACER      timer_start timer_expire_entry
power     CONFIG_POWER_TRACER      power_start power_end power_frequency
irq       CONFIG_IRQ_TRACER        irq_handler_entry irq_handler_exit
syscalls  CONFIG_FTRACE_SYSCALLS   sys_enter sys_exit
i915      CONFIG_DRM_I915_TRACER   i915_gem_object_create i915_gem_request_submit i915_gem_request_complete
'
UNCONVERTED="sched_wakeup sched_switch" # sched.h: no TRACE_CONFIG

SUBSYSTEMS=$(echo "$TABLE" | awk 'NF { print $1 }')
ALL_FLAGS=$(echo "$TABLE" | awk 'NF { printf " -D%s", $2 }')
flag_of() { echo "$TABLE" | awk -v s="$1" '$1 == s { print "-D" $2 }'; }
tps_of() { echo "$TABLE" | awk -v s="$1" '$1 == s { for (i = 3; i <= NF; i++) print $i }'; }

# Configurations, one a line:  name | compiler flags | subsystems expected in
# ("-" for none; sched is added unless the name is tp-off).
CONFIGS="off | | -
on |$ALL_FLAGS | $(echo $SUBSYSTEMS)
tp-all | -DCONFIG_TRACEPOINTS_ALL | $(echo $SUBSYSTEMS)
tp-all-kmem0 | -DCONFIG_TRACEPOINTS_ALL -DCONFIG_KMEMTRACE=0 | $(echo $SUBSYSTEMS)
tp-off |$ALL_FLAGS -DCONFIG_TRACEPOINTS_OFF | -
kmem=0 | -DCONFIG_KMEMTRACE=0 | -
kmem=empty | -DCONFIG_KMEMTRACE= | -
kmem=1 | -DCONFIG_KMEMTRACE=1 | kmem"
# (make check's short version: each one alone on, not each one alone off)
for s in $SUBSYSTEMS; do
	others=$(echo $SUBSYSTEMS | tr ' ' '\n' | grep -vx "$s" | tr '\n' ' ')
	CONFIGS="$CONFIGS
only-$s | $(flag_of "$s") | $s"
	[ -n "${TP_QUICK:-}" ] || CONFIGS="$CONFIGS
no-$s |$(echo "$ALL_FLAGS" | sed "s/ $(flag_of "$s")\( \|\$\)/ /") | $others"
done

# --- Build every configuration, two compilers at a time. ---
# Each example file is preprocessed with the configuration's flags and
# compiled only if no configuration before gave the same text: the object
# depends on nothing else (the flags that act after the preprocessor,
# $CFLAGS $WARN, are the same for every configuration), so a subsystem's
# file is compiled two or three times instead of 28.  build.log holds the
# diagnostics of both steps.
mkdir -p "$B/objs"
build() { # name flags
	d=$B/$1
	mkdir -p "$d"
	rc=0 objs=
	for src in examples/*.c; do
		f=$(basename "$src" .c)
		if ! $CC -E -Iinclude -Iexamples $CFLAGS $WARN $2 "$src" -o "$d/$f.i"; then rc=1; continue; fi
		o=$B/objs/$f-$(cksum <"$d/$f.i" | tr ' ' -).o
		rm -f "$d/$f.i"
		if [ ! -f "$o" ]; then
			if $CC -Iinclude -Iexamples $CFLAGS $WARN $2 -c "$src" -o "$o.$1"; then mv "$o.$1" "$o"; else rc=1; continue; fi
		fi
		objs="$objs $o"
	done
	if [ $rc = 0 ]; then $CC $CFLAGS $objs -o "$d/demo" -ldl -lpthread || rc=1; fi
	echo $rc >"$d/build.rc"
}
start=$(date +%s)
jobs=0
while IFS='|' read -r name flags expect; do
	name=$(echo $name)
	mkdir -p "$B/$name" && build "$name" "$flags" >"$B/$name/build.log" 2>&1 &
	jobs=$((jobs + 1))
	[ $((jobs % 2)) -eq 0 ] && wait
done <<EOF_CONFIGS
$CONFIGS
EOF_CONFIGS
wait
echo "built $jobs configurations in $(( $(date +%s) - start ))s with $CC $CFLAGS $WARN ($(count "$B"/objs/*.o) compilations)"

# --- Check each one. ---
while IFS='|' read -r name flags expect; do
	name=$(echo $name) expect=$(echo $expect)
	d=$B/$name
	if [ "$(cat "$d/build.rc")" != 0 ]; then
		fail "$name ($flags): build failed"; sed 's/^/    /' "$d/build.log"; continue
	fi
	[ -s "$d/build.log" ] && { fail "$name: compiler output"; sed 's/^/    /' "$d/build.log"; }

	# Expected symbols: the listed subsystems' tracepoints, plus sched's.
	{
		[ "$name" = tp-off ] || echo $UNCONVERTED | tr ' ' '\n'
		for s in $expect; do [ "$s" = - ] || tps_of "$s"; done
	} | sed 's/^/__tracepoint_/' | LC_ALL=C sort >"$d/expected.txt"
	nm "$d/demo" | awk '$3 ~ /^__tracepoint_/ { print $3 }' | LC_ALL=C sort >"$d/actual.txt"
	if cmp -s "$d/expected.txt" "$d/actual.txt"; then
		ok "$name:$flags -> $(wc -l <"$d/actual.txt") __tracepoint_* symbols, as expected"
	else
		fail "$name ($flags): __tracepoint_* symbols differ (- expected, + in binary):"
		diff "$d/expected.txt" "$d/actual.txt" | grep '^[<>]' | sed 's/^</    -/; s/^>/    +/'
	fi

	# Run it: -ENOSYS ("X: compiled out") exactly for the others, events
	# only from the expected subsystems.
	if ! "$d/demo" >"$d/run.txt" 2>&1; then
		fail "$name: demo exited non-zero"; sed 's/^/    /' "$d/run.txt"; continue
	fi
	want_out=$(for s in $SUBSYSTEMS; do case " $expect " in *" $s "*) ;; *) echo "$s" ;; esac; done | LC_ALL=C sort | tr '\n' ' ')
	[ "$name" = tp-off ] && want_out=$(echo $SUBSYSTEMS sched | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ')
	got_out=$(sed -n 's/^\([a-z0-9]*\): compiled out$/\1/p' "$d/run.txt" | LC_ALL=C sort | tr '\n' ' ')
	want_ev=$(for s in $expect; do [ "$s" = - ] || echo "$s"; done; [ "$name" = tp-off ] || echo sched)
	want_ev=$(echo "$want_ev" | sed '/^$/d' | LC_ALL=C sort | tr '\n' ' ')
	got_ev=$(grep -v ': compiled out$' "$d/run.txt" | cut -d: -f1 | LC_ALL=C sort -u | tr '\n' ' ')
	if [ "$got_out" = "$want_out" ] && [ "$got_ev" = "$want_ev" ]; then
		ok "$name: run: compiled out [${got_out% }], events from [${got_ev% }]"
	else
		fail "$name: run: compiled out [$got_out] (want [$want_out]), events from [$got_ev] (want [$want_ev])"
	fi
done <<EOF_CONFIGS
$CONFIGS
EOF_CONFIGS

rm -rf "$OUT" && mkdir -p "$OUT" && cp -R "$B"/. "$OUT"/ && echo "artifacts in $OUT"
finish
