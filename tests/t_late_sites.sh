#!/bin/sh
# Call sites loaded after their tracepoint was enabled: the program links
# liblate_def.so (which defines late_tp), attaches a probe, then dlopen()s
# liblate_fire.so, whose idle sites of late_tp its constructor must make
# jump (late_app.c says what is checked).  Twice: a program with a
# tracepoint of its own (its module note carries the process-wide "a key
# was enabled" flag, which the constructor reads instead of every key) and
# one without (no note: the constructor reads the keys).  In portable mode
# the sites are loads and branches, nothing to patch: the same checks.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
F="-O2 $WARN $TPF -Iinclude -I$S -DCONFIG_LATE_TRACE"
run "$B/def.log" $CC $F -fPIC -shared "$S/late_def.c" -o "$B/liblate_def.so" -lpthread -ldl ||
	{ fail "building liblate_def.so"; finish; }
run "$B/fire.log" $CC $F -fPIC -shared "$S/late_fire.c" -o "$B/liblate_fire.so" -L"$B" -llate_def \
	-Wl,-rpath,"$B" || { fail "building liblate_fire.so"; finish; }
for own in "" -DOWN_TRACEPOINT; do
	name=late_app${own:+_own}
	run "$B/$name.log" $CC $F $own "$S/late_app.c" -o "$B/$name" -L"$B" -llate_def \
		-Wl,-rpath,"$B" -lpthread -ldl || { fail "building $name"; continue; }
	if out=$("$B/$name" "$B/liblate_fire.so" 2>&1) && [ "$out" = "late_app: all checks passed" ]; then
		ok "$name: the late library's sites reach the probe attached before dlopen${own:+ (flag in the note of the program)}"
	else
		fail "$name: $out"
	fi
done
finish
