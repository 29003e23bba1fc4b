#!/bin/sh
# Events of a library dlopen()ed after start-up are reachable by pattern:
# tracepoint_enable("plug:*") matches nothing before the dlopen (and says so
# on stderr), matches the plugin's event after it, and what the plugin
# fires is in the trace, readable after the plugin is gone (babeltrace2
# reads it); twice, across a dlclose/dlopen cycle.
. tests/lib.sh
cc_build -I"$S" -fPIC -shared -DCONFIG_PLUG_TRACER "$S/plugin.c" -o "$B/libplug.so"
cc_build -I"$S" "$S/host.c" -o "$B/host" -ldl -lpthread
"$B/host" "$B/libplug.so" "$B/trace" >"$B/out.txt" 2>"$B/err.txt" || { cat "$B/out.txt" "$B/err.txt"; fail "host"; finish; }
need babeltrace2
babeltrace2 "$B/trace" >"$B/bt.txt" 2>&1 || { cat "$B/bt.txt"; fail "babeltrace2"; finish; }
got=$(sed -n 's/.* plug:plug_work: .*{ round = \([0-9]*\), value = \([0-9]*\) }$/round=\1 value=\2/p' "$B/bt.txt" | tr '\n' ';')
want="round=0 value=1000;round=10 value=1010;round=1 value=1001;round=11 value=1011;"
if [ "$got" = "$want" ]; then ok "the plugin's events were recorded, in order: $got"; else fail "recorded '$got', want '$want'"; cat "$B/bt.txt"; fi
n=$(grep -c 'pattern "plug:\*" matches no event' "$B/err.txt")
if [ "$n" = 1 ]; then ok "enabling before the dlopen matched nothing and said so once"; else fail "'matches no event' said $n times"; cat "$B/err.txt"; fi
if grep 'pattern "plug:\*" matches no event' "$B/err.txt" | grep -q 'tracepoint_enable() after its dlopen()'; then
	ok "and the message says to enable after the dlopen"
else
	fail "the message does not mention dlopen"; cat "$B/err.txt"
fi
if grep -q "host: done" "$B/out.txt"; then ok "the host ran to the end"; else fail "host did not finish"; fi
finish
