#!/bin/sh
# A recorded event with three integer fields costs at most 100 instructions
# at the call site, dispatch included (callgrind, bench/event-cost.sh).
# Skips when valgrind is not installed.
. tests/lib.sh
exec sh bench/event-cost.sh 100
