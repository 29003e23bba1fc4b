#!/bin/sh
# A program that ends with probes attached (tests/core/valgrind_leaks/attached.c)
# is clean under valgrind --leak-check=full: the probe lists it leaves are
# "still reachable" (the tracepoint keeps a pointer to each allocation), not
# "possibly lost", which memcheck counts as errors by default.
. tests/lib.sh
need valgrind
cc_build -Itests/include -DCONFIG_TP_TEST "$S/attached.c" -o "$B/attached" -lpthread -ldl
got=$(valgrind -q --smc-check=all --leak-check=full --error-exitcode=9 "$B/attached" 2>"$B/vg.err")
r=$?
if [ $r -eq 0 ] && [ "$got" = "hits=4" ] && ! grep -q "lost" "$B/vg.err"; then
	ok "probes attached at exit: no leak reported ($got)"
else
	fail "probes attached at exit: exit $r, '$got' (want hits=4, no leak)"
	cat "$B/vg.err"
fi
finish
