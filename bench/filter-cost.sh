#!/bin/sh
# Instructions a one-comparison field filter adds per event (callgrind):
# bench/event-cost.sh three times - no filter, "a >= 0" (one comparison,
# keeps every event) and "a < 0" (one comparison, rejects every event:
# nothing is stored).  Usage: bench/filter-cost.sh [max]   exits 1 if the
# filter adds more than max instructions to a kept event.
set -u
MAX=${1:-}
cost() { # filter -> total instructions per event
	out=$(TP_FILTER=$1 bench/event-cost.sh) || { echo "$out" >&2; exit 1; }
	echo "$out" | sed -n 's/.*: \([0-9]*\) total.*/\1/p'
}
none=$(cost "") || exit $?
keep=$(cost "a >= 0") || exit $?
drop=$(cost "a < 0") || exit $?
echo "instructions per event (${CC:-cc} ${TP_CFLAGS:-static keys}): no filter $none; filter \"a >= 0\" (kept) $keep (+$((keep - none))); filter \"a < 0\" (rejected, nothing stored) $drop"
if [ -n "$MAX" ] && [ $((keep - none)) -gt "$MAX" ]; then echo "FAIL: the filter adds more than $MAX"; exit 1; fi
exit 0
