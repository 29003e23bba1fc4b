#!/bin/sh
# TP_printk read back as the kernel prints it (tests/events/event_kprint/:
# kp_events.h, events written the way the kernel's headers write them, and
# kp_prog.c, which records them and prints them with the in-process
# formatter):
#  - the program builds warning-free as C and as C++ ($CC, $CXX, -Werror);
#  - the formatter's text is the kernel's trace-file text: casts, ?:,
#    comparisons, arithmetic, show_*() helper macros, a field printed both
#    with __print_symbolic and __print_flags, TRACE_DEFINE_ENUM names in
#    the tables, TRACE_DEFINE_SIZEOF, %ps/%pS as symbols, __print_hex,
#    __print_hex_str, __print_hex_dump, __print_array,
#    __print_symbolic_u64, __print_flags_u64, __print_ns_to_secs and
#    __print_ns_without_secs;
#  - tracepoint-dump --text prints the same lines, %ps/%pS by name from
#    the symbol table of the program's file (the metadata lists the file
#    mappings), by address once that file is gone (or is a FIFO: never
#    waited on);
#  - the metadata's print format is the expanded one, enum names and
#    sizeof(type) replaced by values, and so is TRACEPOINTS=list-format;
#  - the JSON parses and babeltrace2 reads every event.
. tests/lib.sh
dump_tool
cc_build -rdynamic -I"$S" -Itests/include -DCONFIG_KPRINT "$S/kp_prog.c" -o "$B/kp_prog" -lpthread -ldl
# shellcheck disable=SC2086 # flag lists ($WARN, $TPF) are split on purpose
if $CXX -O2 $WARN $TPF -Iinclude -x c++ -rdynamic -I"$S" -Itests/include -DCONFIG_KPRINT \
	"$S/kp_prog.c" -o "$B/kp_prog_cxx" -lpthread -ldl >"$B/cxx.log" 2>&1; then
	ok "C++ ($CXX -Werror) builds the events"
else fail "C++ build"; cat "$B/cxx.log"; fi

TRACEPOINTS='kp:*' TRACEPOINTS_DIR=$B/tr "$B/kp_prog" >"$B/inproc" 2>"$B/prog.err" ||
	{ fail "kp_prog exited $?"; cat "$B/prog.err"; }
"$DUMP" --text "$B/tr" >"$B/text" 2>"$B/text.err" || { fail "tracepoint-dump --text exited $?"; cat "$B/text.err"; }
sed 's/^[0-9.]* [0-9]* //' "$B/text" >"$B/dump"

# What the kernel's trace file shows for the same values (%pS: name+0xoff/0xsize).
cat >"$B/kernel" <<'END'
kp:kp_sched pid=42 prio=20 delta=4 state=running ret=0 ok size=8
kp:kp_sched pid=7 prio=-10 delta=1 state=blocked+ ret=-5 failed size=8
kp:kp_sched pid=8 prio=0 delta=0 state=R ret=1 ok size=8
kp:kp_sched pid=9 prio=0 delta=0 state=0x9 ret=1 ok size=8
kp:kp_call fn=kp_handler at=kp_handler+0x0/SIZE mode=0x11 flags=READ|SYNC
kp:kp_call fn=kp_handler at=kp_handler+0x0/SIZE mode=write-only flags=WRITE
kp:kp_buf hex=ca fe 07 str=cafe07 words={0x1,0x20,0xdeadbeef} dump=
kp: 00000000: ca fe 07                                         ...

kp:kp_buf hex=ca fe 07 68 69 00 41 42 43 7f 20 31 32 33 34 35 36 37 38 39 str=cafe076869004142437f20313233343536373839 words={0x1,0x20,0xdeadbeef} dump=
kp: 00000000: ca fe 07 68 69 00 41 42 43 7f 20 31 32 33 34 35  ...hi.ABC. 12345
kp: 00000010: 36 37 38 39                                      6789

kp:kp_wide id=big mask=TOP,LOW t=3.000000123
kp:kp_wide id=0x5 mask=0x6 t=0.000000999
END
sed 's|kp_handler+0x0/0x[0-9a-f]*|kp_handler+0x0/SIZE|' "$B/inproc" >"$B/inproc.k"
if cmp -s "$B/kernel" "$B/inproc.k"; then ok "the formatter prints the kernel's text (14 lines, 10 events)"
else fail "formatter text"; diff "$B/kernel" "$B/inproc.k"; fi

# tracepoint-dump: the same, %ps and %pS from the program's symbol table
# (the metadata lists its file mappings)
sed 's|kp_handler+0x0/0x[0-9a-f]*|kp_handler+0x0/SIZE|' "$B/dump" >"$B/dump.k"
if cmp -s "$B/kernel" "$B/dump.k" && cmp -s "$B/inproc" "$B/dump"; then
	ok "tracepoint-dump --text prints the same text, %ps/%pS by name"
else fail "tracepoint-dump text"; diff "$B/kernel" "$B/dump.k"; diff "$B/inproc" "$B/dump"; fi

# a trace whose program file is gone: the addresses, as the kernel prints
# one in no symbol
cp "$B/kp_prog" "$B/kp_gone"
TRACEPOINTS='kp:kp_call' TRACEPOINTS_DIR=$B/tr2 "$B/kp_gone" >/dev/null 2>&1
rm -f "$B/kp_gone"
if "$DUMP" --text "$B/tr2" | grep -q ' kp:kp_call fn=0x[0-9a-f]* at=0x[0-9a-f]* mode=0x11 flags=READ|SYNC$'; then
	ok "the program's file gone: %ps/%pS print the address"
else fail "%ps without the program's file"; "$DUMP" --text "$B/tr2"; fi

# a trace that names a FIFO as the program's file: read without blocking
cp -R "$B/tr2" "$B/tr3"
mkfifo "$B/fifo"
m3=$(find "$B/tr3" -name metadata | head -1)
sed "s|^\(	[0-9a-f]* [0-9a-f]* [0-9a-f]* \)/.*/kp_gone\$|\1$B/fifo|" "$m3" >"$m3.new" && mv "$m3.new" "$m3"
if grep -q "	.* $B/fifo\$" "$m3" && timeout 20 "$DUMP" --text "$B/tr3" >"$B/tr3.txt" 2>&1 &&
	grep -q ' kp:kp_call fn=0x[0-9a-f]* at=0x' "$B/tr3.txt"; then
	ok "a FIFO named as the program's file: not waited on, the address printed"
else fail "a FIFO as the program's file"; cat "$B/tr3.txt"; fi

meta=$(find "$B/tr" -name metadata | head -1)
if grep -q '__print_symbolic(__entry->state & 0xff, { 0, "idle" }, { 3, "running" }, { 7, "blocked" }) : "R"' "$meta" &&
	grep -q '"ok", (unsigned)8 \*/' "$meta" && ! grep -q 'show_kp_\|KP_RUNNING\|sizeof(struct' "$meta"; then
	ok "metadata: show_*() expanded, TRACE_DEFINE_ENUM/_SIZEOF names as values"
else fail "metadata print format"; grep 'printk:' "$meta"; fi

TRACEPOINTS=list-format "$B/kp_prog" >"$B/format" 2>&1
if grep -q '^print fmt: "pid=%d .*, (int)REC->prio - 100, .*{ 3, "running" }.*(unsigned)8$' "$B/format"; then
	ok "list-format: the print fmt with values, REC->"
else fail "list-format"; grep 'print fmt' "$B/format"; fi

"$DUMP" --json "$B/tr" >"$B/json" 2>&1 || fail "tracepoint-dump --json exited $?"
if have python3; then
	if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$B/json"; then ok "the JSON parses"
	else fail "the JSON does not parse"; fi
fi
if have babeltrace2; then
	babeltrace2 "$B/tr" >"$B/bt" 2>"$B/bt.err" || { fail "babeltrace2 exited $?"; cat "$B/bt.err"; }
	if [ "$(grep -c 'kp:kp_' "$B/bt")" = 10 ] &&
		grep -q 'kp:kp_call: .*flags = ( "write-only" : container = 2 )' "$B/bt"; then
		ok "babeltrace2: 10 events, the symbolic table as the field's enumeration"
	else fail "babeltrace2 output"; cat "$B/bt"; fi
else
	skip_part "babeltrace2 not installed"
fi
finish
