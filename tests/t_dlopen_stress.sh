#!/bin/sh
# dlopen a library with tracepoints, attach probes by name, fire them through
# the library, detach, dlclose: 1000 rounds (TP_STRESS_ROUNDS, or
# TP_STRESS_SECONDS x 100 under `make stress`).  Every round checks exact
# probe counts and that the walk never shows the closed library's
# tracepoints.  Then 100 rounds under valgrind --leak-check=full (when
# valgrind exists; --smc-check=all because static keys rewrite code).
set -u
S=tests/dlopen_stress
B=${TP_BUILD:-build}/dlopen_stress
TPF=${TP_CFLAGS:-}
CC=${CC:-cc}
rm -rf "$B" && mkdir -p "$B" || exit 1
echo "mode flags (TP_CFLAGS): ${TPF:-none}; artifacts in $B"
WARN="-Wall -Wextra -Wundef -Werror"
rounds=${TP_STRESS_ROUNDS:-}
if [ -z "$rounds" ]; then
	if [ -n "${TP_STRESS_SECONDS:-}" ]; then rounds=$(awk "BEGIN { print int(${TP_STRESS_SECONDS} * 100) }"); else rounds=1000; fi
fi

$CC -O2 -g $WARN $TPF -fPIC -shared -Iinclude -I$S -DCONFIG_DLS_TRACE $S/lib.c -o "$B/libdls.so" ||
	{ echo "FAIL: building libdls.so"; exit 1; }
$CC -O2 -g $WARN $TPF -Iinclude -I$S -DCONFIG_DLS_TRACE $S/app.c -o "$B/app" -ldl -lpthread ||
	{ echo "FAIL: building app"; exit 1; }

start=$(date +%s)
"$B/app" "$rounds" "$B/libdls.so" || { echo "FAIL: $rounds dlopen/dlclose rounds"; exit 1; }
echo "ok: $rounds rounds in $(( $(date +%s) - start ))s"

if command -v valgrind >/dev/null 2>&1; then
	vrounds=100
	if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --smc-check=all \
		--error-exitcode=1 "$B/app" $vrounds "$B/libdls.so" >"$B/valgrind.log" 2>&1; then
		echo "ok: $vrounds rounds under valgrind: no error, no leak"
	else
		cat "$B/valgrind.log"; echo "FAIL: valgrind"; exit 1
	fi
else
	echo "note: valgrind not installed, leak check skipped"
fi
exit 0
