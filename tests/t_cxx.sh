#!/bin/sh
# C++ consumers, with $CXX at -std=c++11, c++17 and c++20 (each with and
# without -Wpedantic) linked with a C file built by $CC:
#  - main.cpp includes the event headers normally, defines cx_cpp_ev and
#    cx_cpp_tick with DEFINE_TRACE, attaches a plain function and a
#    captureless lambda (converted to a function pointer) as typed probes;
#  - other.cpp includes the event headers inside extern "C" { } (its first
#    inclusion of tracepoint.h), registers a lambda, fires from C++;
#  - c_side.c defines cx_c_ev, fires it and the C++-defined cx_cpp_ev, and
#    attaches a C probe to the C++-defined tracepoint.
# Both directions must work at run time, with one tracepoint object per name.
set -u
T=cxx
. tests/script_env.sh

WARN="-Wall -Wextra -Wundef -Werror"
fails=0
n=0

run() { # log-file command...
	log=$1; shift
	if "$@" >"$log" 2>&1 && [ ! -s "$log" ]; then return 0; fi
	echo "command failed or printed diagnostics: $*"; cat "$log"; return 1
}

if ! run "$B/c_side.log" $CC -std=c99 -O2 $WARN -Wpedantic $TPF -Iinclude -DCONFIG_CXX_TEST \
	-c "$S/c_side.c" -o "$B/c_side.o"; then
	echo "FAIL: $CC cannot compile c_side.c"; exit 1
fi
echo "ok: $CC -std=c99 -Wpedantic compiles c_side.c silently"

for std in c++11 c++17 c++20; do
	for ped in "" -Wpedantic; do
		n=$((n + 1))
		d="$B/$std${ped:+-pedantic}"
		mkdir -p "$d"
		flags="-std=$std -O2 $WARN $ped"
		ok=1
		for f in main other; do
			run "$d/$f.log" $CXX $flags $TPF -Iinclude -DCONFIG_CXX_TEST -c "$S/$f.cpp" \
				-o "$d/$f.o" || ok=0
		done
		[ $ok = 1 ] && { run "$d/link.log" $CXX "$d/main.o" "$d/other.o" "$B/c_side.o" \
			-o "$d/cxx" -ldl -lpthread || ok=0; }
		if [ $ok = 0 ]; then
			echo "FAIL: $CXX $flags: build failed"; fails=$((fails + 1)); continue
		fi
		if "$d/cxx" >"$d/out" 2>&1; then
			echo "ok: $CXX $flags: builds silently; $(tail -n 1 "$d/out")"
		else
			echo "FAIL: $CXX $flags: run failed:"; cat "$d/out"; fails=$((fails + 1))
		fi
	done
done

echo "checks made by each binary (from $B/c++17-pedantic/out):"
sed 's/^/    /' "$B/c++17-pedantic/out" 2>/dev/null
echo "$((n - fails))/$n configurations passed"
[ $fails -eq 0 ]
