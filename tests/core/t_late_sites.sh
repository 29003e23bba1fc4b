#!/bin/sh
# Call sites loaded after their tracepoint was enabled: the program links
# liblate_def.so (which defines late_tp), attaches a probe, then dlopen()s
# liblate_fire.so, whose idle sites of late_tp its constructor must make
# jump (late_app.c says what is checked).  Twice: a program with a
# tracepoint of its own (its module note carries the process-wide "a key
# was enabled" flag, which the constructor reads instead of every key) and
# one without (no note: the constructor reads the keys).  In portable mode
# the sites are loads and branches, nothing to patch: the same checks.
# Mixed modes (static-key run only): the program built with
# -DTRACEPOINT_PORTABLE, and once with -DTRACEPOINT_USDT, against the
# libraries built with static keys; it has no patcher, so the
# tracepoint's definer patches the sites, loaded late (dlopen) or early
# (linked, -DLINKED: the attach itself must make them jump).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
F="-O2 $WARN $TPF -Iinclude -I$S -DCONFIG_LATE_TRACE"
run "$B/def.log" $CC $F -fPIC -shared "$S/late_def.c" -o "$B/liblate_def.so" -lpthread -ldl ||
	{ fail "building liblate_def.so"; finish; }
run "$B/fire.log" $CC $F -fPIC -shared "$S/late_fire.c" -o "$B/liblate_fire.so" -L"$B" -llate_def \
	-Wl,-rpath,"$B" || { fail "building liblate_fire.so"; finish; }
check() { # name what extra-flags...
	name=$1 what=$2
	shift 2
	run "$B/$name.log" $CC $F "$S/late_app.c" "$@" -o "$B/$name" -L"$B" -llate_def \
		-Wl,-rpath,"$B" -lpthread -ldl || { fail "building $name"; return; }
	if out=$("$B/$name" "$B/liblate_fire.so" 2>&1) && [ "$out" = "late_app: all checks passed" ]; then
		ok "$name: $what"
	else
		fail "$name: $out"
	fi
}
check late_app "the late library's sites reach the probe attached before dlopen"
check late_app_own "the same, the flag in the note of the program" -DOWN_TRACEPOINT
if [ -z "$TPF" ]; then
	for m in PORTABLE USDT; do
		check "late_app_$m" "a program built with TRACEPOINT_$m: the late library's sites reach its probe" -DTRACEPOINT_$m
		check "late_app_own_$m" "the same with a note in the program" -DTRACEPOINT_$m -DOWN_TRACEPOINT
		check "late_linked_$m" "TRACEPOINT_$m, library linked: attaching makes its sites jump" -DTRACEPOINT_$m -DLINKED -llate_fire
	done
fi
finish
