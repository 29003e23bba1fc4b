#!/bin/sh
# A recorded event costs at most this many instructions at the call site,
# dispatch included (callgrind, bench/event-cost.sh): three integer fields
# 100; one integer and a 12-byte __string 110, and one integer and an
# 8-byte __dynamic_array 110 (issue 29: a string costs about what copying
# its bytes costs).  Those two limits are gcc's with static keys; the
# portable mode's dispatch costs 3 more (115), and clang 14 saves six
# registers in the string's recorder where gcc saves three (125 for the
# string there, also portable).  Skips when valgrind is not installed.
. tests/lib.sh
command -v valgrind >/dev/null 2>&1 || skip "valgrind not installed (apt-get install valgrind)"
str=110 dyn=110
[ -n "$TPF" ] && str=115 dyn=115
$CC --version 2>/dev/null | grep -q clang && str=125 dyn=110
for c in three:100 str:$str dyn:$dyn; do
	if out=$(EVENT=${c%%:*} TP_BUILD=$B sh bench/event-cost.sh "${c#*:}" 2>&1); then
		ok "$(echo "$out" | tail -1) (at most ${c#*:})"
	else
		fail "$(echo "$out" | tail -2 | tr '\n' ' ')"
	fi
done
finish
