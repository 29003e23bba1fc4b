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
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF ...) are split on purpose
. tests/lib.sh
n=0

if ! run_silent "$B/c_side.log" $CC -std=c99 -O2 $WARN -Wpedantic $TPF -Iinclude -DCONFIG_CXX_TEST \
	-c "$S/c_side.c" -o "$B/c_side.o"; then
	fail "$CC cannot compile c_side.c"; finish
fi
ok "$CC -std=c99 -Wpedantic compiles c_side.c silently"

for std in c++11 c++17 c++20; do
	for ped in "" -Wpedantic; do
		n=$((n + 1))
		d="$B/$std${ped:+-pedantic}"
		mkdir -p "$d"
		flags="-std=$std -O2 $WARN $ped"
		built=1
		for f in main other; do
			run_silent "$d/$f.log" $CXX $flags $TPF -Iinclude -DCONFIG_CXX_TEST -c "$S/$f.cpp" \
				-o "$d/$f.o" || built=0
		done
		[ $built = 1 ] && { run_silent "$d/link.log" $CXX "$d/main.o" "$d/other.o" "$B/c_side.o" \
			-o "$d/cxx" -ldl -lpthread || built=0; }
		if [ $built = 0 ]; then
			fail "$CXX $flags: build failed"; continue
		fi
		if "$d/cxx" >"$d/out" 2>&1; then
			ok "$CXX $flags: builds silently; $(tail -n 1 "$d/out")"
		else
			fail "$CXX $flags: run failed:"; cat "$d/out"
		fi
	done
done

echo "checks made by each binary (from $B/c++17-pedantic/out):"
sed 's/^/    /' "$B/c++17-pedantic/out" 2>/dev/null
echo "$((n - fails))/$n configurations passed"
finish
