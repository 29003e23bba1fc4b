#!/bin/sh
# Idle tracepoints keep the code around them lean (gcc -O2, the shapes of
# bench/tailcall.c, read with objdump): a tracepoint at function entry
# keeps the tail call that follows it with no frame (test, jmp impl; 3
# instructions portable),
# and an allocator wrapper with the tracepoint after its call runs at most
# 8 instructions to its ret (9 portable), USDT's 6 plus a 2-instruction
# frame; the slow path (the call of the dispatch) sits after the fast
# path's return, in the function itself: no .cold fragment, whose unwind
# entry would cost about 26 bytes a site.  Without the cold label of the
# slow path, gcc lets the slow block shape the fast one and saves registers
# on the idle path (12 instructions in both shapes).
# clang 14 does not split cold code (bench/tailcall.sh measures it): skipped.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF) are split on purpose
. tests/lib.sh
command -v objdump >/dev/null 2>&1 || { echo "skipped: objdump not installed (apt-get install binutils)"; exit 77; }
if $CC --version 2>/dev/null | grep -qi clang; then
	echo "skipped: $CC does not move slow paths to .cold; bench/tailcall.sh measures it"
	exit 77
fi
max_alloc=8 max_entry=2
case " $TPF " in *-DTRACEPOINT_PORTABLE* | *-DTRACEPOINT_USDT*) max_alloc=9 max_entry=3 ;; esac
$CC -O2 $WARN $TPF -Iinclude -Ibench -DV_OURS -DCONFIG_BENCH_TP=1 bench/tailcall.c bench/tailcall_def.c \
	-o "$B/tailcall" -ldl -lpthread || { fail "build of bench/tailcall.c"; finish; }
objdump -d --no-show-raw-insn "$B/tailcall" >"$B/dis" || { fail "objdump"; finish; }
# The instructions of a function's hot part, from its entry to the first
# ret or jmp out of it (mnemonics, one a line).
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit }
		on && NF >= 2 { print $2; if ($2 == "ret" || ($2 == "jmp" && $0 ~ /<tc_impl/)) exit }' "$B/dis"
}
e=$(body tc_entry | tr '\n' ' ')
n=$(body tc_entry | wc -l)
case $e in
*call*) fail "tc_entry calls on its idle path (the tail call is lost): $e" ;;
*jmp\ ) if [ "$n" -le "$max_entry" ]; then ok "tc_entry keeps its tail call, $n instructions: $e"
	else fail "tc_entry: $n instructions to its tail call, more than $max_entry: $e"; fi ;;
*) fail "tc_entry does not end in a tail call: $e" ;;
esac
n=$(body tc_alloc | wc -l)
a=$(body tc_alloc | tr '\n' ' ')
if [ "$n" -le "$max_alloc" ]; then ok "tc_alloc: $n instructions to ret (at most $max_alloc): $a"
else fail "tc_alloc: $n instructions to ret, more than $max_alloc: $a"; fi
# The whole function, entry to the next symbol: the slow path is there.
whole() { awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' "$B/dis"; }
for f in tc_alloc tc_entry; do
	if grep -q "<$f\.cold>:" "$B/dis"; then fail "$f has a .cold fragment (an unwind entry per site)"
	elif whole $f | grep -q '<tp__iter_'; then ok "$f: the slow path is in the function, after its fast path"
	else fail "$f: no call or jump to the dispatch in the function"; fi
done
finish
