#!/bin/sh
# Events of a library dlopen()ed after start-up are reachable by pattern:
# tracepoint_enable("plug:*") matches nothing before the dlopen (and says so
# on stderr), matches the plugin's event after it, the sink records what the
# plugin fires, and a flush before dlclose writes it; twice, across a
# dlclose/dlopen cycle.
set -u
T=event_dlopen
. tests/script_env.sh
W="-O2 -Wall -Wextra -Wundef -Werror $TPF -Iinclude -I$S"
$CC $W -fPIC -shared -DCONFIG_PLUG_TRACER "$S/plugin.c" -o "$B/libplug.so" || exit 1
$CC $W "$S/host.c" -o "$B/host" -ldl -lpthread || exit 1
"$B/host" "$B/libplug.so" >"$B/out.txt" 2>"$B/err.txt" || { cat "$B/out.txt" "$B/err.txt"; echo "FAIL: host"; exit 1; }
fail=0
got=$(sed -n 's/.* plug:plug_work //p' "$B/err.txt" | tr '\n' ';')
want="round=0 value=1000;round=10 value=1010;round=1 value=1001;round=11 value=1011;"
if [ "$got" = "$want" ]; then echo "ok: the plugin's events were recorded, in order: $got"; else echo "FAIL: recorded '$got', want '$want'"; fail=1; fi
n=$(grep -c 'pattern "plug:\*" matches no event' "$B/err.txt")
if [ "$n" = 1 ]; then echo "ok: enabling before the dlopen matched nothing and said so once"; else echo "FAIL: 'matches no event' said $n times"; cat "$B/err.txt"; fail=1; fi
grep -q "host: done" "$B/out.txt" && echo "ok: the host ran to the end" || { echo "FAIL: host did not finish"; fail=1; }
exit $fail
