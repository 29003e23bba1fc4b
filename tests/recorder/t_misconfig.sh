#!/bin/sh
# Mistakes that used to build fine and record nothing, silently, now say so:
#  1. TRACEPOINTS set for a program that has no recorder (no file defines
#     TRACEPOINT_SINK_MAIN), or whose recorder sits in a static library the
#     linker dropped: one line on stderr at start-up (static-key builds,
#     where modules have a constructor; other modes: skipped).
#  2. The file that fires an event built without the subsystem's switch
#     while the defining file has it: TRACEPOINTS=list marks the event "no
#     call site compiled in" (static-key builds), and does not when the
#     switch is right; recording it (TRACEPOINTS='net:*') says at start that
#     nothing of it will be recorded, and does not when the switch is right.
# (-DCONFIG_X=y and the event-header template are checked by
# t_compile_fail.sh and t_modules.sh.)
. tests/lib.sh
case "$TPF" in *PORTABLE*|*USDT*) skip "call sites are not recorded in this mode ($TPF); skipped" ;; esac
cc_() { cc_build -I"$S" "$@"; }
msg='tracepoints: TRACEPOINTS is set, but this program has no recorder'

# 1a. no recorder at all
cc_ -DCONFIG_MC_NET "$S/events.c" "$S/driver.c" "$S/main.c" -o "$B/nosink" -lpthread -ldl
TRACEPOINTS='net:*' "$B/nosink" >"$B/1a.out" 2>"$B/1a.err"
n=$(grep -c "$msg" "$B/1a.err")
if [ "$n" = 1 ]; then ok "no recorder: said once"; else fail "no recorder: said $n times"; cat "$B/1a.err"; fi
# one prefix for every message of the library: the recorder's, "tracepoints: "
if [ -s "$B/1a.err" ] && ! grep -v '^tracepoints: ' "$B/1a.err" >/dev/null; then ok "no recorder: the message starts with tracepoints:"
else fail "a message without the tracepoints: prefix"; cat "$B/1a.err"; fi
"$B/nosink" >"$B/1a2.out" 2>"$B/1a2.err"
if [ ! -s "$B/1a2.err" ]; then ok "without TRACEPOINTS nothing is said"; else fail "said something without TRACEPOINTS"; cat "$B/1a2.err"; fi
# 1b. the recorder in a static library that nothing pulls in
cc_ -c "$S/sink.c" -o "$B/sink.o"
ar rcs "$B/libsink.a" "$B/sink.o"
cc_ -DCONFIG_MC_NET "$S/events.c" "$S/driver.c" "$S/main.c" -o "$B/dropped" -L"$B" -lsink -lpthread -ldl
TRACEPOINTS='net:*' TRACEPOINTS_DIR="$B/t1b" "$B/dropped" >"$B/1b.out" 2>"$B/1b.err"
if grep -q "$msg" "$B/1b.err"; then ok "recorder dropped from a static library: said"; else fail "dropped recorder not reported"; cat "$B/1b.err"; fi
# 1c. control: the same with the object linked in records and says nothing of the kind
cc_ -DCONFIG_MC_NET "$S/events.c" "$S/driver.c" "$S/main.c" "$B/sink.o" -o "$B/withsink" -lpthread -ldl
TRACEPOINTS='net:*' TRACEPOINTS_DIR="$B/t1c" "$B/withsink" >"$B/1c.out" 2>"$B/1c.err"
if ! grep -q "$msg" "$B/1c.err" && [ -d "$B/t1c" ]; then ok "with the recorder linked: recorded, no such line"
else fail "with the recorder"; cat "$B/1c.err"; fi

# 2. the firing file without the switch
cc_ -DCONFIG_MC_NET -c "$S/events.c" -o "$B/events.o"
cc_ -c "$S/driver.c" -o "$B/driver-off.o"
cc_ -DCONFIG_MC_NET -c "$S/driver.c" -o "$B/driver-on.o"
cc_ "$B/events.o" "$B/driver-off.o" "$S/main.c" "$B/sink.o" -o "$B/off" -lpthread -ldl
cc_ "$B/events.o" "$B/driver-on.o" "$S/main.c" "$B/sink.o" -o "$B/on" -lpthread -ldl
TRACEPOINTS=list "$B/off" >"$B/2off.out" 2>&1
TRACEPOINTS=list "$B/on" >"$B/2on.out" 2>&1
if grep -q '^net:net_xmit (int len) - no call site compiled in' "$B/2off.out"; then
	ok "listed with 'no call site compiled in' when the firing file lacks the switch"
else fail "listing without the switch"; cat "$B/2off.out"; fi
if grep -qx 'net:net_xmit (int len)' "$B/2on.out"; then
	ok "listed plainly when the firing file has the switch"
else fail "listing with the switch"; cat "$B/2on.out"; fi
nosite='tracepoints: "net:\*" selects 1 event(s) with no call site compiled in'
TRACEPOINTS='net:*' TRACEPOINTS_DIR="$B/t2off" "$B/off" >"$B/2off-rec.out" 2>"$B/2off-rec.err"
if grep -q "$nosite" "$B/2off-rec.err"; then ok "recording it without call sites: said at start"
else fail "recording without call sites: not said"; cat "$B/2off-rec.err"; fi
TRACEPOINTS='net:*' TRACEPOINTS_DIR="$B/t2on" "$B/on" >"$B/2on-rec.out" 2>"$B/2on-rec.err"
if ! grep -q 'no call site compiled in' "$B/2on-rec.err"; then ok "recording it with call sites: no such line"
else fail "said 'no call site' with the switch right"; cat "$B/2on-rec.err"; fi
finish
