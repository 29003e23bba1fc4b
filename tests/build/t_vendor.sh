#!/bin/sh
# The source tree vendored into another project, with no install:
#  - CMake add_subdirectory(<tree>) and FetchContent (URL of a tarball of
#    the tree): the top-level CMakeLists.txt gives tracepoint::tracepoint
#    (the installed package's name) and tracepoint_VERSION;
#  - Meson: the tree as subprojects/tracepoint; meson.build declares the
#    dependency and overrides 'tracepoint' (subproject() then
#    dependency('tracepoint'), and dependency() with a fallback), with the
#    version of include/tracepoint/version.h;
# each builds examples/install/hello.c against the tree's include/ (gcc's
# -H names the header used) and runs it.  The CMake and Meson parts are
# skipped, saying why, where cmake or meson and ninja are missing.
# shellcheck disable=SC2086 # flag lists ($CC) are split on purpose
. tests/lib.sh
B=$(cd "$B" && pwd) # cmake and meson want absolute paths
TREE=$(pwd)
HELLO=$TREE/examples/install
V=$(for p in MAJOR MINOR PATCH; do sed -n "s/^#define TRACEPOINT_VERSION_$p  *\([0-9]*\) *$/\1/p" include/tracepoint/version.h; done |
	paste -sd.)
EXP="probe: hello_greet(world, 1)
probe: hello_greet(world, 2)
probe: hello_greet(world, 3)"
# check <label> <build dir> <log>: the program ran as hello.c does, built
# against this tree's tracepoint.h
check() {
	out=$("$2/hello" 2>&1)
	if [ "$(echo "$out" | head -3)" = "$EXP" ]; then ok "$1: hello ran ($(echo "$out" | tail -1))"
	else fail "$1: hello printed: $out"; fi
	used=$(grep -E '^\.+ .*/tracepoint\.h$' "$3" | sed 's/^\.* //' | sort -u)
	if [ "$used" = "$4/tracepoint.h" ]; then ok "$1: built against $4/tracepoint.h"
	else fail "$1: included '$used', want $4/tracepoint.h"; fi
}
# the tree as a project would vendor it: the top-level files and include/
mkdir -p "$B/src/tracepoint"
cp -R CMakeLists.txt meson.build include "$B/src/tracepoint/"
(cd "$B/src" && tar czf tracepoint.tar.gz tracepoint)

if have cmake; then
	c=$B/cmake-sub
	if run "$c.log" env CC="$CC" cmake -S tests/build/vendor/cmake -B "$c" -DTP_HOW=subdirectory \
		-DTP_SOURCE="$B/src/tracepoint" -DHELLO_DIR="$HELLO" -DCMAKE_C_FLAGS="-H -Wall -Wextra -Werror" &&
		run "$c-build.log" cmake --build "$c" --verbose; then
		if grep -q "tracepoint $V\$" "$c.log"; then ok "add_subdirectory: tracepoint::tracepoint, tracepoint_VERSION $V"
		else fail "add_subdirectory: no 'tracepoint $V' in the configure log"; fi
		check "add_subdirectory" "$c" "$c-build.log" "$B/src/tracepoint/include"
	else fail "add_subdirectory: cmake failed"; fi
	c=$B/cmake-fetch
	if run "$c.log" env CC="$CC" cmake -S tests/build/vendor/cmake -B "$c" -DTP_HOW=fetch \
		-DTP_URL="file://$B/src/tracepoint.tar.gz" -DHELLO_DIR="$HELLO" -DCMAKE_C_FLAGS="-H -Wall -Wextra -Werror" &&
		run "$c-build.log" cmake --build "$c" --verbose; then
		if grep -q "tracepoint $V\$" "$c.log"; then ok "FetchContent: tracepoint::tracepoint, tracepoint_VERSION $V"
		else fail "FetchContent: no 'tracepoint $V' in the configure log"; fi
		check "FetchContent" "$c" "$c-build.log" "$c/_deps/tracepoint-src/include"
	else fail "FetchContent: cmake failed"; fi
	# the tree's own top level: configures with no language and builds nothing
	if run "$B/top.log" cmake -S "$B/src/tracepoint" -B "$B/cmake-top" && run "$B/top-build.log" cmake --build "$B/cmake-top"; then
		ok "cmake on the tree itself configures and builds (nothing to build)"
	else fail "cmake on the tree itself"; fi
else skip_part "cmake not installed (apt-get install cmake): the CMake part is not run"; fi

if have meson && have ninja; then
	for how in subproject fallback; do
		m=$B/meson-$how
		mkdir -p "$m/src/subprojects"
		cp tests/build/vendor/meson/meson.build tests/build/vendor/meson/meson_options.txt "$HELLO/hello.c" \
			"$HELLO/hello_trace.h" "$m/src/"
		cp -R "$B/src/tracepoint" "$m/src/subprojects/tracepoint"
		# PKG_CONFIG_LIBDIR: an installed tracepoint.pc must not be found first
		if run "$m.log" env CC="$CC" CFLAGS="-H" PKG_CONFIG_LIBDIR="$m/none" meson setup "$m/build" "$m/src" -Dhow=$how &&
			run "$m-build.log" meson compile -v -C "$m/build"; then
			if grep -q "Message: tracepoint $V\$" "$m.log"; then ok "meson ($how): the dependency is the subproject's, version $V"
			else fail "meson ($how): $(grep -i tracepoint "$m.log" | head -5)"; fi
			check "meson ($how)" "$m/build" "$m-build.log" ../src/subprojects/tracepoint/include # relative to the build dir
		else fail "meson ($how): setup or compile failed"; fi
	done
else skip_part "meson or ninja not installed (apt-get install meson ninja-build): the Meson part is not run"; fi
finish
