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
set -u
T=modules
. tests/script_env.sh
DUMP=${TP_DUMP:-build/tracepoint-dump}
[ -x "$DUMP" ] || { echo "$DUMP is missing (make builds it)"; exit 1; }
W="-O2 -g -Wall -Wextra -Wundef -Werror $TPF"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
build() { # log command...
	log=$1; shift
	"$@" >"$log" 2>&1 || { echo "command failed: $*"; cat "$log"; exit 1; }
}

# ---- 1. two libraries, one event name
build "$B/a.log" $CC $W -fPIC -shared -Iinclude -I$S -DCONFIG_MOD_A "$S/liba.c" -o "$B/liba.so"
build "$B/b.log" $CC $W -fPIC -shared -Iinclude -I$S -DCONFIG_MOD_B "$S/libb.c" -o "$B/libb.so"
build "$B/s.log" $CC $W -Iinclude "$S/same_name.c" -o "$B/same_name" -L"$B" -la -lb -Wl,-rpath,"$B" -lpthread -ldl
for l in a b; do
	if nm -D "$B/lib$l.so" | grep -q " __tracepoint_${l}__init$"; then ok "lib$l.so defines __tracepoint_${l}__init"
	else bad "lib$l.so: no __tracepoint_${l}__init"; nm -D "$B/lib$l.so" | grep tracepoint; fi
done
TRACEPOINTS=list "$B/same_name" >"$B/list.txt" 2>&1
if grep -q '^a:init' "$B/list.txt" && grep -q '^b:init' "$B/list.txt"; then ok "both are listed"
else bad "listing"; cat "$B/list.txt"; fi
TRACEPOINTS='*:init' TRACEPOINTS_DIR="$B/same" "$B/same_name" >"$B/same.out" 2>"$B/same.err"; rc=$?
[ $rc = 0 ] && ok "the program ran (exit 0)" || { bad "exit $rc"; cat "$B/same.err"; }
"$DUMP" --text "$B/same" >"$B/same.txt" 2>&1
got=$(sed -n 's/.* \([ab]:init\) \(.*\)$/\1 \2/p' "$B/same.txt" | tr '\n' ';')
want='a:init who=from-a;b:init value=-42;a:init who=again;b:init value=7;'
[ "$got" = "$want" ] && ok "each library recorded its own event: $got" || { bad "recorded '$got', want '$want'"; cat "$B/same.txt"; }

# ---- 2. a library built with another layout
# (the layout is in tracepoint/defs.h; the copy's other headers are unchanged)
mkdir -p "$B/other/trace" "$B/other/tracepoint"
cp include/tracepoint.h "$B/other/"
cp include/tracepoint/*.h "$B/other/tracepoint/"
sed -e 's/^#define TRACEPOINT_ABI [0-9]*/#define TRACEPOINT_ABI 99/' \
    -e 's/^\tstruct tp__state tp__priv;$/\tstruct tp__state tp__priv;\n\tvoid *tp__extra; \/* the simulated new member *\//' \
    -e 's/\({ 0, 0, 0, 0, &tp__domain_obj }\) }/\1, 0 }/' \
    include/tracepoint/defs.h >"$B/other/tracepoint/defs.h"
cp include/trace/*.h "$B/other/trace/"
if grep -q 'tp__extra' "$B/other/tracepoint/defs.h" && grep -q 'TRACEPOINT_ABI 99' "$B/other/tracepoint/defs.h" &&
	grep -q '{ 0, 0, 0, 0, &tp__domain_obj }, 0 }' "$B/other/tracepoint/defs.h"; then :; else
	bad "could not make the modified header"; fi
build "$B/old.log" $CC $W -fPIC -shared -I"$B/other" -I$S -DCONFIG_MOD_OLD "$S/libold.c" -o "$B/libold.so"
build "$B/oh.log" $CC $W -Iinclude -I$S -DCONFIG_MOD_OLD "$S/old_host.c" -o "$B/old_host" -L"$B" -lold -Wl,-rpath,"$B" -lpthread -ldl
"$B/old_host" >"$B/old.out" 2>"$B/old.err"; rc=$?
cat "$B/old.out"
[ $rc = 0 ] && ok "nothing of libold.so was read as ours" || { bad "old_host exit $rc"; cat "$B/old.err"; }
n=$(grep -c 'libold.so was built with tracepoint.h layout 99, this code reads layout' "$B/old.err")
[ "$n" = 1 ] && ok "the module was reported by name, once" || { bad "reported $n times"; cat "$B/old.err"; }
grep -q 'old_tick is defined by a module built with another tracepoint.h layout' "$B/old.err" &&
	ok "the direct registration said why it failed" || { bad "no message for register"; cat "$B/old.err"; }

# ---- 3. dlclose with everything still attached
build "$B/p.log" $CC $W -fPIC -shared -Iinclude -I$S -DCONFIG_MOD_PLUG -DCONFIG_MOD_HOST "$S/unload_plugin.c" -o "$B/libplug.so"
build "$B/h.log" $CC $W -rdynamic -Iinclude -I$S -DCONFIG_MOD_HOST "$S/unload_host.c" -o "$B/unload_host" -lpthread -ldl
"$B/unload_host" "$B/libplug.so" "$B/unload" 100 >"$B/unload.out" 2>"$B/unload.err"; rc=$?
[ $rc = 0 ] && ok "100 dlclose()s with a probe attached and events enabled: no crash" || { bad "exit $rc"; cat "$B/unload.out" "$B/unload.err"; }
n=$("$DUMP" --text "$B/unload" 2>&1 | grep -c ' plug:plug_work ')
[ "$n" = 100 ] && ok "the exit-time flush kept all 100 events of the unloaded plugin" || bad "$n plug_work events, want 100"
if command -v valgrind >/dev/null 2>&1; then
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		"$B/unload_host" "$B/libplug.so" "$B/unload_vg" 10 >"$B/vg.out" 2>"$B/vg.err"; rc=$?
	if [ $rc = 0 ] && ! grep -q 'definitely lost\|indirectly lost\|Invalid' "$B/vg.err"; then
		ok "valgrind: no byte lost, no invalid access over 10 rounds"
	else bad "valgrind (exit $rc)"; head -40 "$B/vg.err"; fi
else
	echo "valgrind not installed: the leak check is skipped"
fi
exit $fail
