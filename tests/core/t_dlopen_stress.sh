#!/bin/sh
# dlopen a library with tracepoints, attach probes by name, fire them through
# the library, detach, dlclose: 1000 rounds, 200 under make check
# (TP_STRESS_ROUNDS, or TP_STRESS_SECONDS x 100 under `make stress`).  Every round checks exact
# probe counts and that the walk never shows the closed library's
# tracepoints.  Then 100 rounds (20) under valgrind --leak-check=full (when
# valgrind exists; --smc-check=all because static keys rewrite code).
. tests/lib.sh
rounds=${TP_STRESS_ROUNDS:-}
if [ -z "$rounds" ]; then
	if [ -n "${TP_STRESS_SECONDS:-}" ]; then rounds=$(awk "BEGIN { print int(${TP_STRESS_SECONDS} * 100) }"); else rounds=$(quick 200 1000); fi
fi

cc_build -g -fPIC -shared -I"$S" -DCONFIG_DLS_TRACE "$S/lib.c" -o "$B/libdls.so"
cc_build -g -I"$S" -DCONFIG_DLS_TRACE "$S/app.c" -o "$B/app" -ldl -lpthread

start=$(date +%s)
"$B/app" "$rounds" "$B/libdls.so" || { fail "$rounds dlopen/dlclose rounds"; finish; }
ok "$rounds rounds in $(( $(date +%s) - start ))s"

if have valgrind; then
	vrounds=$(quick 20 100)
	if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --smc-check=all \
		--error-exitcode=1 "$B/app" "$vrounds" "$B/libdls.so" >"$B/valgrind.log" 2>&1; then
		ok "$vrounds rounds under valgrind: no error, no leak"
	else
		cat "$B/valgrind.log"; fail "valgrind"
	fi
else
	skip_part "valgrind not installed, leak check not run"
fi
finish
