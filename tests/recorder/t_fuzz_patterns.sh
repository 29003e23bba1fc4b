#!/bin/sh
# The pattern parser (trace/pattern.h) under libFuzzer: the regression
# corpus tests/recorder/fuzz_patterns/corpus/ is replayed by a plain build of the target with
# $CC (always), then, when clang's libFuzzer is available, the target is
# built with -fsanitize=fuzzer,address,undefined, replays the corpus and
# fuzzes for 10 seconds from it (new inputs go to $TP_BUILD, not the
# corpus).  Skips (77) only the libFuzzer part, saying why.
# TP_CFLAGS is not added: trace/pattern.h uses nothing of tracepoint.h, so it
# is the same code in every mode, and the libFuzzer part (built with clang
# whatever $CC is) runs in the static-key pass only (TP_CFLAGS empty), and
# not in .ci/run's second pass (TP_SECOND_PASS).
. tests/lib.sh
fuzz_corpus fuzz_pattern.c 10 2048
