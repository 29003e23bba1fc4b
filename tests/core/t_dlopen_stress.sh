#!/bin/sh
# dlopen a library with tracepoints, attach probes by name, fire them through
# the library, detach, dlclose: 1000 rounds, 200 under make check
# (TP_STRESS_ROUNDS, or TP_STRESS_SECONDS x 100 under `make stress`).  Every round checks exact
# probe counts and that the walk never shows the closed library's
# tracepoints.  A registration while dlclose() runs the library's
# destructors is refused (closing.c); a program without tracepoint code of
# its own whose threads fire a library's tracepoints while it exits
# (exit_main.c: the library's destructors run, and close them) ends well.
# Then 100 rounds (20) under valgrind --leak-check=full (when valgrind
# exists; --smc-check=all because static keys rewrite code).
. tests/lib.sh
rounds=${TP_STRESS_ROUNDS:-}
if [ -z "$rounds" ]; then
	if [ -n "${TP_STRESS_SECONDS:-}" ]; then rounds=$(awk "BEGIN { print int(${TP_STRESS_SECONDS} * 100) }"); else rounds=$(quick 200 1000); fi
fi

cc_build -g -fPIC -shared -I"$S" -DCONFIG_DLS_TRACE "$S/lib.c" -o "$B/libdls.so"
cc_build -g -I"$S" -DCONFIG_DLS_TRACE "$S/app.c" -o "$B/app" -ldl -lpthread

start=$(date +%s)
"$B/app" "$rounds" "$B/libdls.so" >"$B/app.out" || { cat "$B/app.out"; fail "$rounds dlopen/dlclose rounds"; finish; }
ok "$rounds rounds in $(( $(date +%s) - start ))s"

# The address space across the rounds (docs/design.md, grace periods):
# this program exports no grace domain, so the library's is its own and
# keeps its 64 KiB of slots at each dlclose(); exporting the executable's
# (--export-dynamic-symbol, or -rdynamic) makes it the library's too, and
# nothing grows.
grew() { sed -n 's/^address space after round 10: +*\(-*[0-9]*\) KiB.*/\1/p' "$1"; }
more=$((rounds - 10))
if [ "$more" -le 0 ]; then
	skip_part "the address space across rounds: $rounds rounds, measured after round 10"
else
	g=$(grew "$B/app.out") per=$((more * 64))
	if [ -n "$g" ] && [ "$g" -le $((per + 1024)) ]; then
		ok "own grace domain: address space $g KiB larger after $more more rounds (64 KiB a round: $per)"
	else fail "own grace domain: address space grew by ${g:-?} KiB over $more rounds (want at most $per + 1024)"; fi
	if cc_works -Wl,--export-dynamic-symbol='tp__domain_*'; then
		cc_build -g -I"$S" -DCONFIG_DLS_TRACE "$S/app.c" -o "$B/app_export" -ldl -lpthread \
			-Wl,--export-dynamic-symbol='tp__domain_*' -Wl,--export-dynamic-symbol='tp__thread_*'
		"$B/app_export" "$rounds" "$B/libdls.so" >"$B/app_export.out" ||
			{ cat "$B/app_export.out"; fail "$rounds rounds, domain exported"; }
		g=$(grew "$B/app_export.out")
		if [ -n "$g" ] && [ "$g" -le 64 ]; then
			ok "the executable's grace domain exported: address space $g KiB larger after $more more rounds"
		else fail "the executable's grace domain exported: address space grew by ${g:-?} KiB over $more rounds (want at most 64)"; fi
	else
		skip_part "--export-dynamic-symbol: the linker of $CC has none"
	fi
fi

cc_build -g -fPIC -shared -I"$S" -DCONFIG_DLS_TRACE "$S/lib_closing.c" -o "$B/libdls_closing.so"
cc_build -g -I"$S" -DCONFIG_DLS_TRACE "$S/closing.c" -o "$B/closing" -ldl -lpthread
if out=$("$B/closing" "$B/libdls_closing.so" 2>&1); then ok "$out"; else fail "$out"; fi

cc_build -g -fPIC -shared -I"$S" -DCONFIG_DLS_TRACE "$S/exit_lib.c" -o "$B/libdls_exit.so"
cc_build -g "$S/exit_main.c" -o "$B/exit_main" -L"$B" -ldls_exit -Wl,-rpath,"$(cd "$B" && pwd)" -lpthread
exits=$(quick 20 50) bad=0 i=0
while [ $i -lt "$exits" ]; do
	"$B/exit_main" 2>"$B/exit.err" || { bad=$((bad + 1)); echo "exit $i: status $?"; }
	i=$((i + 1))
done
if [ $bad = 0 ]; then ok "$exits exits while 4 threads fire a library's tracepoints (no tracepoint code in the program): all status 0"
else fail "$bad of $exits exits while threads fire a library's tracepoints failed"; fi

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
