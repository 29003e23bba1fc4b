#!/bin/sh
# Modules that do not agree, and modules that go away:
#  1. liba.so and libb.so each define an event "init" (systems a and b, with
#     other arguments) and are linked into one program: each library's call
#     sites reach its own tracepoint (symbols __tracepoint_a__init and
#     __tracepoint_b__init), both are listed and both are recorded with
#     their own fields.
#  2. libold.so is built against a copy of tracepoint.h with another layout
#     (TRACEPOINT_ABI 99 and one more member): the program that links it
#     reports it by name, once, and never reads its tracepoint (register
#     gives -EPROTO, lookup by name finds nothing, nothing crashes).
#  3. A plugin whose events are enabled and buffered and whose own probe is
#     attached to the host's tracepoint is dlclose()d without disabling or
#     detaching anything, 100 times: the host's next fire does not call into
#     it, the exit-time flush keeps every event, and valgrind finds no byte
#     lost and no invalid access (10 rounds under valgrind).
# shellcheck disable=SC2086 # flag lists ($CC, $W) are split on purpose
. tests/lib.sh
dump_tool
W="-O2 -g $WARN $TPF"
build() { # log command...: the test stops if it fails
	run "$@" || { fail "cannot build (above)"; finish; }
}

# ---- 1. two libraries, one event name
build "$B/a.log" $CC $W -fPIC -shared -Iinclude -I"$S" -DCONFIG_MOD_A "$S/liba.c" -o "$B/liba.so"
build "$B/b.log" $CC $W -fPIC -shared -Iinclude -I"$S" -DCONFIG_MOD_B "$S/libb.c" -o "$B/libb.so"
build "$B/s.log" $CC $W -Iinclude "$S/same_name.c" -o "$B/same_name" -L"$B" -la -lb -Wl,-rpath,"$B" -lpthread -ldl
for l in a b; do
	if nm -D "$B/lib$l.so" | grep -q " __tracepoint_${l}__init$"; then ok "lib$l.so defines __tracepoint_${l}__init"
	else fail "lib$l.so: no __tracepoint_${l}__init"; nm -D "$B/lib$l.so" | grep tracepoint; fi
done
TRACEPOINTS=list "$B/same_name" >"$B/list.txt" 2>&1
if grep -q '^a:init' "$B/list.txt" && grep -q '^b:init' "$B/list.txt"; then ok "both are listed"
else fail "listing"; cat "$B/list.txt"; fi
TRACEPOINTS='*:init' TRACEPOINTS_DIR="$B/same" "$B/same_name" >"$B/same.out" 2>"$B/same.err"; rc=$?
if [ $rc = 0 ]; then ok "the program ran (exit 0)"; else fail "exit $rc"; cat "$B/same.err"; fi
"$DUMP" --text "$B/same" >"$B/same.txt" 2>&1
got=$(sed -n 's/.* \([ab]:init\) \(.*\)$/\1 \2/p' "$B/same.txt" | tr '\n' ';')
want='a:init who=from-a;b:init value=-42;a:init who=again;b:init value=7;'
if [ "$got" = "$want" ]; then ok "each library recorded its own event: $got"; else fail "recorded '$got', want '$want'"; cat "$B/same.txt"; fi

# ---- 2. a library built with another layout
# (the layout is in tracepoint/defs.h; the copy's other headers are unchanged)
# (the simulated member goes after the last one, `none`)
mkdir -p "$B/other/trace" "$B/other/tracepoint"
cp include/tracepoint.h "$B/other/"
cp include/tracepoint/*.h "$B/other/tracepoint/"
sed -e 's/^#define TRACEPOINT_ABI [0-9]*/#define TRACEPOINT_ABI 99/' \
    -e 's/^\tstruct tracepoint_probe none;$/\tstruct tracepoint_probe none;\n\tvoid *tp__extra; \/* the simulated new member *\//' \
    -e 's/\({ 0, 0, 0, 0, &tp__domain_obj, 0 }, 0, { 0, 0, 0, 0 }\) }/\1, 0 }/' \
    include/tracepoint/defs.h >"$B/other/tracepoint/defs.h"
cp include/trace/*.h "$B/other/trace/"
if grep -q 'tp__extra' "$B/other/tracepoint/defs.h" && grep -q 'TRACEPOINT_ABI 99' "$B/other/tracepoint/defs.h" &&
	grep -q '{ 0, 0, 0, 0, &tp__domain_obj, 0 }, 0, { 0, 0, 0, 0 }, 0 }' "$B/other/tracepoint/defs.h"; then :; else
	fail "could not make the modified header"; fi
build "$B/old.log" $CC $W -fPIC -shared -I"$B/other" -I"$S" -DCONFIG_MOD_OLD "$S/libold.c" -o "$B/libold.so"
build "$B/oh.log" $CC $W -Iinclude -I"$S" -DCONFIG_MOD_OLD "$S/old_host.c" -o "$B/old_host" -L"$B" -lold -Wl,-rpath,"$B" -lpthread -ldl
"$B/old_host" >"$B/old.out" 2>"$B/old.err"; rc=$?
cat "$B/old.out"
if [ $rc = 0 ]; then ok "nothing of libold.so was read as ours"; else fail "old_host exit $rc"; cat "$B/old.err"; fi
n=$(grep -c 'tracepoints: [^ ]*libold.so was built with tracepoint.h layout 99, this code reads layout' "$B/old.err")
if [ "$n" = 1 ]; then ok "the module was reported by name, once"; else fail "reported $n times"; cat "$B/old.err"; fi
if grep -q 'tracepoints: old_tick is defined by a module built with another tracepoint.h layout' "$B/old.err"; then
	ok "the direct registration said why it failed"
else fail "no message for register"; cat "$B/old.err"; fi

# ---- 3. dlclose with everything still attached
build "$B/p.log" $CC $W -fPIC -shared -Iinclude -I"$S" -DCONFIG_MOD_PLUG -DCONFIG_MOD_HOST "$S/unload_plugin.c" -o "$B/libplug.so"
build "$B/h.log" $CC $W -rdynamic -Iinclude -I"$S" -DCONFIG_MOD_HOST "$S/unload_host.c" -o "$B/unload_host" -lpthread -ldl
"$B/unload_host" "$B/libplug.so" "$B/unload" 100 >"$B/unload.out" 2>"$B/unload.err"; rc=$?
if [ $rc = 0 ]; then ok "100 dlclose()s with a probe attached and events enabled: no crash"; else fail "exit $rc"; cat "$B/unload.out" "$B/unload.err"; fi
n=$("$DUMP" --text "$B/unload" 2>&1 | grep -c ' plug:plug_work ')
if [ "$n" = 100 ]; then ok "the exit-time flush kept all 100 events of the unloaded plugin"; else fail "$n plug_work events, want 100"; fi
if have valgrind; then
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		"$B/unload_host" "$B/libplug.so" "$B/unload_vg" 10 >"$B/vg.out" 2>"$B/vg.err"; rc=$?
	if [ $rc = 0 ] && ! grep -q 'definitely lost\|indirectly lost\|Invalid' "$B/vg.err"; then
		ok "valgrind: no byte lost, no invalid access over 10 rounds"
	else fail "valgrind (exit $rc)"; head -40 "$B/vg.err"; fi
else
	skip_part "valgrind not installed: the leak check is not run"
fi
finish
