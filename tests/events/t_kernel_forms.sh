#!/bin/sh
# The kernel's other TRACE_EVENT forms, in event headers laid out as the
# kernel's are (tests/events/kernel_forms/: kforms.h, kfmod.h, kfdash.h),
# in the kernel's two-file layout (kforms_prog.c defines, kforms_fire.c
# only fires):
#  - they build warning-free (-Wall -Wextra -Wundef -Werror) in C and C++
#    with gcc and clang (those installed; make check: $CC and $CXX only),
#    __get_dynamic_array_len() with %d and %u under -Werror=format;
#  - recorded, tracepoint-dump --text prints each as the kernel's trace
#    file does: __string_len, __vstring, __bitmask and __cpumask as %*pb,
#    __sockaddr as %pISpc (IPv4 and IPv6), the __rel_ forms as the others,
#    DEFINE_EVENT_FN, TRACE_EVENT_FN_COND (its condition kept 2 of 4),
#    __perf_task/__perf_count, __get_str of a char __dynamic_array (as
#    the kernel's printk.h), a field named errno (the kernel's
#    signal.h; the C library's errno read beside it), a `const char *`
#    field printed with %s (the kernel's ipi.h: the string, from the
#    program's file), %#x of 0 as "0x0", %pI4/%pi4/%pI6c/%pI6/%pi6 of
#    byte arrays (the kernel's sock.h), a char __dynamic_array written
#    through __get_str() (the kernel's block.h), a __field named as an array
#    (the kernel's older rcu.h; C only); so does the program's own
#    formatter (but
#    for %pISpc); --json gives them as strings and arrays;
#    babeltrace2 reads the same trace;
#  - TRACE_EVENT_NOP and DEFINE_EVENT_NOP declare nothing;
#  - the system "kf-dash" names its symbols by TRACE_SYSTEM_VAR (kf_dash);
#    kfmod.h, which sets TRACE_SYSTEM only with CREATE_TRACE_POINTS, links
#    from the second file, after another header; -DCONFIG_TRACE_kf_dash=0
#    compiles out kfdash.h, which has no TRACE_CONFIG.
# shellcheck disable=SC2086 # flag lists are split on purpose
. tests/lib.sh
dump_tool
K=tests/events/kernel_forms
F="-Iinclude -I$K -Itests/include -DCONFIG_KFORMS -DTRACEPOINT_CPUMASK_BITS=64 -Werror=format"
built=
# (make check: $CC and $CXX only; the four are check-all's)
for c in $(quick "$CC ${CXX:-g++}" "gcc clang g++ clang++"); do
	have $c || continue
	x=
	case $c in *++) x="-x c++" ;; esac
	if $c -O2 $WARN $TPF $F $x "$K/kforms_prog.c" $x "$K/kforms_fire.c" -o "$B/prog_$c" -lpthread -ldl \
		>"$B/build_$c.log" 2>&1; then built="$built $c"
	else fail "$c: the kernel forms do not build"; cat "$B/build_$c.log"; fi
done
[ -n "$built" ] && ok "built warning-free with:$built"
P=
for c in $built; do
	case $c in *++) ;; *) [ -n "$P" ] || P=$B/prog_$c ;; esac
done
[ -n "$P" ] || finish

cat >"$B/text.want" <<'END'
kforms:kf_struct pair={0xfb,0xff,0xff,0xff,0x7,0x0,0x0,0x0} a=-5
kforms:kf_strlen name=abc rname=abc whole=abcdef
kforms:kf_strlen name=ab rname=ab whole=ab
kforms:kf_vstr level=2 msg=x=17 s=hi
kforms:kf_bits nbits=65 mask=00000000,80000000,00000000,00000003 rmask=00000000,80000000,00000000,00000003 cpus=00000000,00000000 rcpus=00000000,00000000 bytes=16
kforms:kf_bits nbits=8 mask=00000000,00000003 rmask=00000000,00000003 cpus=00000000,00000005 rcpus=00000000,00000005 bytes=8
kforms:kf_sock addr=127.0.0.1:8080 raddr=127.0.0.1:8080 len=16 raw=4
kforms:kf_sock addr=[fe80::1]:443 raddr=[fe80::1]:443 len=28 raw=4
kforms:kf_fn_cond v=3
kforms:kf_fn_cond v=4
kforms:kf_fn v=9
kforms:kf_perf pid=42 count=1000
kforms:kf_errno errno=5 libc=7
kforms:kf_reason (Rescheduling interrupts)
kforms:kf_reason ((null))
kforms:kf_hex 0x0 0x0 0x0000 0x0  |0X0
kforms:kf_hex 0x1f 0x1f 0x001f 0x1f |0X1F
kforms:kf_inet saddr=192.168.0.1 lead=192.168.000.001 v6=::ffff:192.168.0.1 full=0000:0000:0000:0000:0000:ffff:c0a8:0001 raw=00000000000000000000ffffc0a80001
kforms:kf_inet saddr=10.0.0.255 lead=010.000.000.255 v6=fe80::1 full=fe80:0000:0000:0000:0000:0000:0000:0001 raw=fe800000000000000000000000000001
kforms:kf_dyncmd (12 00 00)
kforms:kf_declarr reade n=3
kfmod:kf_mod_load first
kf-dash:kf_dash_hit n=1
kforms:kf_struct pair={0x1,0x0,0x0,0x0,0x2,0x0,0x0,0x0} a=1
kforms:kf_fn v=10
kfmod:kf_mod_load second
kf-dash:kf_dash_hit n=2
kforms:kf_dynstr msg=hello len=6
kforms:kf_errno errno=0 libc=0
END
for c in $built; do
	rm -rf "$B/tr_$c"
	TRACEPOINTS='*' TRACEPOINTS_DIR=$B/tr_$c "$B/prog_$c" 2>"$B/prog_$c.err" || { fail "prog_$c exited $?"; cat "$B/prog_$c.err"; }
	"$DUMP" --text "$B/tr_$c" 2>&1 | sed 's/^[0-9.]* [0-9]* //' >"$B/text_$c"
	# (C++ has no __field named as an array)
	case $c in *++) grep -v kf_declarr "$B/text.want" >"$B/text_$c.want" ;; *) cp "$B/text.want" "$B/text_$c.want" ;; esac
	if cmp -s "$B/text_$c.want" "$B/text_$c"; then ok "$c: tracepoint-dump --text prints every form as the kernel (kf_struct: name=value)"
	else fail "$c: text output"; diff "$B/text_$c.want" "$B/text_$c"; fi
done

# the program's own formatter: the same text, but %pISpc (a pointer there)
rm -rf "$B/tr_fmt"
TRACEPOINTS='*' TRACEPOINTS_DIR=$B/tr_fmt "$P" --format >"$B/format" 2>"$B/format.err" || fail "--format exited $?"
# (and __entry->pair.b, which tracepoint-dump cannot read in a struct's bytes)
grep -v kf_sock "$B/text.want" |
	sed -e 's/^kforms:kf_struct pair={0xfb,.*/kforms:kf_struct a=-5 b=7/' \
		-e 's/^kforms:kf_struct pair={0x1,.*/kforms:kf_struct a=1 b=2/' >"$B/format.want"
if grep -v kf_sock "$B/format" | cmp -s "$B/format.want" - && [ "$(grep -c kf_sock "$B/format")" = 2 ]; then
	ok "the program's formatter prints them as the kernel (bitmasks as %*pb)"
else fail "the program's formatter"; grep -v kf_sock "$B/format" | diff "$B/format.want" -; fi

"$DUMP" --json "$B/tr_$(basename "$P" | sed 's/prog_//')" >"$B/json" 2>&1
if grep -q '"args":{"name":"abc","rname":"abc","whole":"abcdef"}' "$B/json" &&
	grep -q '"args":{"level":2,"msg":"x=17 s=hi"}' "$B/json" &&
	grep -q '"mask":\[3,2147483648\],"rmask":\[3,2147483648\],"cpus":\[0\],"rcpus":\[0\]' "$B/json" &&
	grep -q '"raw":\[2,0,31,144\]' "$B/json" && grep -q '"pair":\[251,255,255,255,7,0,0,0\]' "$B/json" &&
	grep -q '"name":"kf_dash_hit","cat":"kf-dash"' "$B/json" && ! grep -q '_len_' "$B/json" &&
	grep -q '"args":{"tag":"reade","n":3}' "$B/json"; then
	ok "JSON: strings, bitmasks and sockaddrs as arrays, the struct as bytes"
else fail "JSON output"; grep kf_ "$B/json"; fi

if have babeltrace2; then
	babeltrace2 "$B/tr_$(basename "$P" | sed 's/prog_//')" >"$B/bt" 2>"$B/bt.err" || { fail "babeltrace2 exited $?"; cat "$B/bt.err"; }
	if grep -q 'kforms:kf_vstr: .*{ level = 2, msg = "x=17 s=hi" }' "$B/bt" &&
		grep -q 'kforms:kf_bits: .*mask = \[ \[0\] = 3, \[1\] = 2147483648 \]' "$B/bt" &&
		grep -q 'kforms:kf_sock: .*raw = \[ \[0\] = 2, \[1\] = 0, \[2\] = 31, \[3\] = 144 \]' "$B/bt" &&
		grep -q 'kforms:kf_struct: .*pair = \[ \[0\] = 0xFB' "$B/bt" &&
		grep -q 'kf-dash:kf_dash_hit: .*{ n = 2 }' "$B/bt" && grep -q 'kforms:kf_declarr: .*{ tag = "reade", n = 3 }' "$B/bt" &&
		[ "$(grep -c 'kf' "$B/bt")" = 29 ]; then
		ok "babeltrace2 reads every form, 29 events"
	else fail "babeltrace2 output"; cat "$B/bt"; fi
else
	skip_part "babeltrace2 not installed"
fi

if nm "$P" | grep -q ' D __tracepoint_kf_dash__kf_dash_hit$' &&
	nm "$P" | grep -q ' V __tracepoint_TRACE_SYSTEM__kf_mod_load$' &&
	nm "$P" | grep -q ' D __tracepoint_kfmod__kf_mod_load$' &&
	! nm "$P" | grep -q 'kf_nop'; then
	ok "symbols: TRACE_SYSTEM_VAR's; kfmod's events answer without a system too; no NOP event"
else fail "symbols"; nm "$P" | grep -i 'kf_dash\|kf_mod\|kf_nop'; fi

cc_build $F -DCONFIG_TRACE_kf_dash=0 "$K/kforms_prog.c" "$K/kforms_fire.c" -o "$B/prog_nodash" -lpthread -ldl
rm -rf "$B/tr_nodash"
TRACEPOINTS='*' TRACEPOINTS_DIR=$B/tr_nodash "$B/prog_nodash" 2>/dev/null
if ! nm "$B/prog_nodash" | grep -q dash && ! strings "$B/prog_nodash" | grep -q 'kf.dash' &&
	"$DUMP" --text "$B/tr_nodash" | grep -q 'kfmod:kf_mod_load second' &&
	! "$DUMP" --text "$B/tr_nodash" | grep -q dash; then
	ok "-DCONFIG_TRACE_kf_dash=0: kfdash.h (no TRACE_CONFIG) compiled out, the others in"
else fail "-DCONFIG_TRACE_kf_dash=0"; nm "$B/prog_nodash" | grep dash; fi
finish
