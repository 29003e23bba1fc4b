#!/bin/sh
# The pattern parser (trace/pattern.h) under libFuzzer: the regression
# corpus tests/fuzz_patterns/corpus/ is replayed by a plain build of the target with
# $CC (always), then, when clang's libFuzzer is available, the target is
# built with -fsanitize=fuzzer,address,undefined, replays the corpus and
# fuzzes for 10 seconds from it (new inputs go to $TP_BUILD, not the
# corpus).  Skips (77) only the libFuzzer part, saying why.
set -u
B=${TP_BUILD:-build}/fuzz_patterns
CC=${CC:-cc}
rm -rf "$B" && mkdir -p "$B/new" || exit 1
C=tests/fuzz_patterns/corpus
n=$(ls "$C" | wc -l)
$CC -O1 -g -Wall -Wextra -Wundef -Werror -Iinclude -DFUZZ_REPLAY_MAIN tests/fuzz_patterns/fuzz_pattern.c -o "$B/replay" || exit 1
"$B/replay" "$C"/* || { echo "FAIL: corpus replay with $CC"; exit 1; }
echo "ok: $n corpus inputs replayed ($CC)"
FZ=${FUZZ_CC:-clang}
if ! command -v "$FZ" >/dev/null 2>&1; then echo "libFuzzer: $FZ not installed (apt-get install clang)"; exit 77; fi
if ! $FZ -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude \
	tests/fuzz_patterns/fuzz_pattern.c -o "$B/fuzz" 2>"$B/cc.log"; then
	cat "$B/cc.log"; echo "libFuzzer unavailable with $FZ (-fsanitize=fuzzer failed; apt-get install libclang-rt-dev)"; exit 77
fi
"$B/fuzz" -runs=0 "$C" >"$B/replay.log" 2>&1 || { tail -20 "$B/replay.log"; echo "FAIL: corpus replay under libFuzzer"; exit 1; }
echo "ok: corpus replayed under libFuzzer+ASan+UBSan"
"$B/fuzz" -max_total_time=10 -max_len=2048 -print_final_stats=1 "$B/new" "$C" >"$B/fuzz.log" 2>&1 ||
	{ tail -30 "$B/fuzz.log"; echo "FAIL: the fuzzer found a crash (input saved in $(pwd))"; exit 1; }
grep -E 'stat::number_of_executed_units|Done' "$B/fuzz.log" | tail -2
echo "ok: 10 s of fuzzing, no crash"
