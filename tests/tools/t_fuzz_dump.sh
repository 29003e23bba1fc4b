#!/bin/sh
# The trace reader (tools/dump/) under libFuzzer: each input is
# a trace directory (metadata, streams, a shape: session, nested traces,
# snapshots, links to itself, a FIFO stream, a planted .stream-1.repair
# link, sparse streams) and an output (text, JSON, summary, Perfetto,
# --repair then text, --all): tests/tools/fuzz_dump/fuzz_dump.c.  The regression
# corpus tests/tools/fuzz_dump/corpus/ is replayed by a plain build of the target
# with $CC (always), then, when clang's libFuzzer is available, the target
# is built with -fsanitize=fuzzer,address,undefined, replays the corpus and
# fuzzes for 20 seconds from it (new inputs go to $TP_BUILD, not the
# corpus; a crash leaves its input in $TP_BUILD/fuzz_dump/crash-*: add it
# to the corpus once fixed).  Skips (77) only the libFuzzer part, saying
# why.  TP_CFLAGS is not added: the reader does not include the library's
# headers (but its version and include/trace/wire.h), so it is the same program in every mode; the
# libFuzzer part runs in the static-key pass only (TP_CFLAGS empty), and
# not in .ci/run's second pass (TP_SECOND_PASS).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN) are split on purpose
. tests/lib.sh
mkdir -p "$B/new" "$B/tmp" || exit 1
TMPDIR=$(cd "$B/tmp" && pwd) # the target makes its trace directories there
export TMPDIR
C=$S/corpus
n=$(count "$C"/*)
$CC -O1 -g $WARN -DFUZZ_REPLAY_MAIN "$S/fuzz_dump.c" -o "$B/replay" || exit 1
"$B/replay" "$C"/* || { fail "corpus replay with $CC"; finish; }
ok "$n corpus inputs replayed ($CC)"
[ -z "$TPF" ] || { skip_part "libFuzzer: the same program as without mode flags: fuzzed in that pass"; finish; }
repeated "libFuzzer (clang whatever CC is)" && finish
[ -z "${TP_QUICK:-}" ] || { skip_part "libFuzzer (its build, the corpus under it, new inputs): in make check-all"; finish; }
FZ=${FUZZ_CC:-clang}
have "$FZ" || skip "libFuzzer: $FZ not installed (apt-get install clang)"
if ! $FZ -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	"$S/fuzz_dump.c" -o "$B/fuzz" 2>"$B/cc.log"; then
	cat "$B/cc.log"; skip "libFuzzer unavailable with $FZ (-fsanitize=fuzzer failed; apt-get install libclang-rt-dev)"
fi
A=$(cd "$B" && pwd)/
"$B/fuzz" -runs=0 -artifact_prefix="$A" "$C" >"$B/replay.log" 2>&1 ||
	{ tail -20 "$B/replay.log"; fail "corpus replay under libFuzzer"; finish; }
ok "corpus replayed under libFuzzer+ASan+UBSan"
"$B/fuzz" -max_total_time=20 -max_len=20000 -timeout=10 -rss_limit_mb=1024 -artifact_prefix="$A" \
	-print_final_stats=1 "$B/new" "$C" >"$B/fuzz.log" 2>&1 || {
	tail -30 "$B/fuzz.log"
	for f in "$A"crash-* "$A"timeout-* "$A"oom-* "$A"leak-*; do
		[ -f "$f" ] || continue
		echo "== $f, replayed:"
		FUZZ_DUMP_VERBOSE=1 "$B/fuzz" "$f" 2>&1 | tail -40
	done
	fail "the fuzzer found a failure (its input is in $A)"
	finish
}
grep -E 'stat::number_of_executed_units|Done' "$B/fuzz.log" | tail -2
ok "20 s of fuzzing, no crash, hang or write outside the trace"
finish
