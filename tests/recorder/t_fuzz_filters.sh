#!/bin/sh
# The field filter parser (trace/filter.h) and the TRACEPOINTS splitter under libFuzzer: the regression
# corpus tests/recorder/fuzz_filters/corpus/ is replayed by a plain build of the target with
# $CC (always), then, when clang's libFuzzer is available, the target is
# built with -fsanitize=fuzzer,address,undefined, replays the corpus and
# fuzzes for 10 seconds from it (new inputs go to $TP_BUILD, not the
# corpus).  Skips (77) only the libFuzzer part, saying why.
# TP_CFLAGS is not added: trace/filter.h uses only types and inline functions of tracepoint.h, so it
# is the same code in every mode, and the libFuzzer part (built with clang
# whatever $CC is) runs in the static-key pass only (TP_CFLAGS empty), and
# not in .ci/run's second pass (TP_SECOND_PASS).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN) are split on purpose
. tests/lib.sh
mkdir -p "$B/new" || exit 1
C=$S/corpus
n=$(count "$C"/*)
$CC -O1 -g $WARN -Iinclude -DFUZZ_REPLAY_MAIN "$S/fuzz_filter.c" -o "$B/replay" || exit 1
"$B/replay" "$C"/* || { fail "corpus replay with $CC"; finish; }
ok "$n corpus inputs replayed ($CC)"
[ -z "$TPF" ] || { skip_part "libFuzzer: the same program as without mode flags: fuzzed in that pass"; finish; }
repeated "libFuzzer (clang whatever CC is)" && finish
[ -z "${TP_QUICK:-}" ] || { skip_part "libFuzzer (its build, the corpus under it, new inputs): in make check-all"; finish; }
FZ=${FUZZ_CC:-clang}
have "$FZ" || skip "libFuzzer: $FZ not installed (apt-get install clang)"
if ! $FZ -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude \
	"$S/fuzz_filter.c" -o "$B/fuzz" 2>"$B/cc.log"; then
	cat "$B/cc.log"; skip "libFuzzer unavailable with $FZ (-fsanitize=fuzzer failed; apt-get install libclang-rt-dev)"
fi
"$B/fuzz" -runs=0 "$C" >"$B/replay.log" 2>&1 || { tail -20 "$B/replay.log"; fail "corpus replay under libFuzzer"; finish; }
ok "corpus replayed under libFuzzer+ASan+UBSan"
"$B/fuzz" -max_total_time=10 -max_len=2048 -print_final_stats=1 "$B/new" "$C" >"$B/fuzz.log" 2>&1 ||
	{ tail -30 "$B/fuzz.log"; fail "the fuzzer found a crash (input saved in $(pwd))"; finish; }
grep -E 'stat::number_of_executed_units|Done' "$B/fuzz.log" | tail -2
ok "10 s of fuzzing, no crash"
finish
