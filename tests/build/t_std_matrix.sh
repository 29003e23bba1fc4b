#!/bin/sh
# Standards matrix: one representative consumer (three subsystems: one
# compiled in by its CONFIG_ switch, one unconverted hence in, one compiled
# out; DEFINE_TRACE, firing, trace_lazy, typed and by-name registration,
# iteration, unregistration) built with
#   $CC  -std=c99 / c11 / c17 / gnu17      at -O0, -O2, -Os and -O2 -flto
#   $CXX -std=c++11 / c++17 / c++20        at -O0, -O2, -Os and -O2 -flto
# under -Wall -Wextra -Wundef -Wpedantic -Werror -Wshadow -Wconversion.
# Every binary must build without a diagnostic, run, and print exactly
# tests/build/std_matrix/expected.out.
# shellcheck disable=SC2086 # flag lists ($cc, $opt, $FLAGS, $TPF) are split on purpose
. tests/lib.sh

# -Wconversion stays on: the header is clean under it with gcc 12 and
# clang 14 (checked when this test was written).
FLAGS="-Wall -Wextra -Wundef -Wpedantic -Werror -Wshadow -Wconversion"
n=0

run_case() { # compiler lang std opt
	cc=$1 lang=$2 std=$3 opt=$4
	n=$((n + 1))
	out="$B/$(basename "$cc")-$std$(echo "$opt" | tr -d ' ')"
	if ! $cc -x "$lang" "-std=$std" $opt $FLAGS $TPF -Iinclude -I"$S" -DCONFIG_SM_NET \
		"$S/consumer.c" -o "$out" -ldl -lpthread >"$out.cc.log" 2>&1; then
		fail "$cc -std=$std $opt does not compile cleanly:"; cat "$out.cc.log"
		return
	fi
	if [ -s "$out.cc.log" ]; then
		fail "$cc -std=$std $opt printed diagnostics:"; cat "$out.cc.log"
		return
	fi
	if ! "$out" >"$out.out" 2>&1; then
		fail "$cc -std=$std $opt: binary exited non-zero:"; cat "$out.out"
		return
	fi
	if ! cmp -s "$out.out" "$S/expected.out"; then
		fail "$cc -std=$std $opt: unexpected output:"
		diff -u "$S/expected.out" "$out.out"
		return
	fi
	ok "$cc -std=$std $opt $FLAGS: builds silently, runs, output matches"
}

for std in c99 c11 c17 gnu17; do
	for opt in -O0 -O2 -Os "-O2 -flto"; do run_case "$CC" c $std $opt; done
done
for std in c++11 c++17 c++20; do
	for opt in -O0 -O2 -Os "-O2 -flto"; do run_case "$CXX" c++ $std $opt; done
done

echo "$((n - fails))/$n configurations passed"
finish
