#!/bin/sh
# Events of a library dlopen()ed after start-up are reachable by pattern:
# tracepoint_enable("plug:*") matches nothing before the dlopen (and says so
# on stderr), matches the plugin's event after it, and what the plugin
# fires is in the trace, readable after the plugin is gone (babeltrace2
# reads it); twice, across a dlclose/dlopen cycle.
set -u
T=event_dlopen
. tests/script_env.sh
W="-O2 -Wall -Wextra -Wundef -Werror $TPF -Iinclude -I$S"
$CC $W -fPIC -shared -DCONFIG_PLUG_TRACER "$S/plugin.c" -o "$B/libplug.so" || exit 1
$CC $W "$S/host.c" -o "$B/host" -ldl -lpthread || exit 1
"$B/host" "$B/libplug.so" "$B/trace" >"$B/out.txt" 2>"$B/err.txt" || { cat "$B/out.txt" "$B/err.txt"; echo "FAIL: host"; exit 1; }
fail=0
command -v babeltrace2 >/dev/null || { echo "babeltrace2 not installed (apt-get install babeltrace2)"; exit 77; }
babeltrace2 "$B/trace" >"$B/bt.txt" 2>&1 || { cat "$B/bt.txt"; echo "FAIL: babeltrace2"; exit 1; }
got=$(sed -n 's/.* plug:plug_work: .*{ round = \([0-9]*\), value = \([0-9]*\) }$/round=\1 value=\2/p' "$B/bt.txt" | tr '\n' ';')
want="round=0 value=1000;round=10 value=1010;round=1 value=1001;round=11 value=1011;"
if [ "$got" = "$want" ]; then echo "ok: the plugin's events were recorded, in order: $got"; else echo "FAIL: recorded '$got', want '$want'"; cat "$B/bt.txt"; fail=1; fi
n=$(grep -c 'pattern "plug:\*" matches no event' "$B/err.txt")
if [ "$n" = 1 ]; then echo "ok: enabling before the dlopen matched nothing and said so once"; else echo "FAIL: 'matches no event' said $n times"; cat "$B/err.txt"; fail=1; fi
grep -q "host: done" "$B/out.txt" && echo "ok: the host ran to the end" || { echo "FAIL: host did not finish"; fail=1; }
exit $fail
