#!/bin/sh
# Under valgrind, a probe attached after its call site ran idle runs on
# every firing, and not after it is detached (tests/core/valgrind_smc/smc.c:
# 100 firings idle, 100 with the probe, 100 after): with valgrind's default
# options, which do not look for changes in code mapped from a file (each
# patch asks valgrind to translate the site again: its client request
# DISCARD_TRANSLATIONS), and with --smc-check=all.
. tests/lib.sh
need valgrind
cc_build -Itests/include -DCONFIG_TP_TEST "$S/smc.c" -o "$B/smc" -lpthread -ldl
for opt in --smc-check=all-non-file --smc-check=all; do
	got=$(valgrind -q --error-exitcode=9 $opt "$B/smc" 2>"$B/vg.err")
	r=$?
	if [ $r -eq 0 ] && [ "$got" = "enabled=100 disabled=0" ]; then
		ok "$opt: $got"
	else
		fail "$opt: exit $r, '$got' (want enabled=100 disabled=0)"
		cat "$B/vg.err"
	fi
done
finish
