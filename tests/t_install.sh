#!/bin/sh
# `make install` / `make uninstall`, and building a program against the
# installed copy the two usual ways.  The consumer is examples/install/ (an
# event header switched by CONFIG_HELLO_TRACE; hello.c defines, fires and
# attaches a probe to hello_greet).
#  - make install PREFIX=/usr/local DESTDIR=$TP_BUILD/install/destdir (with
#    CC=false once the reader is built: nothing else is compiled, cmocka not
#    needed) installs exactly every include/*.h and include/*/*.h at the
#    same relative path, byte-identical, bin/tracepoint-dump (which runs),
#    lib/pkgconfig/tracepoint.pc and lib/cmake/tracepoint/
#    tracepoint-config{,-version}.cmake, and nothing else.
#  - pkg-config (PKG_CONFIG_LIBDIR + PKG_CONFIG_SYSROOT_DIR onto the DESTDIR):
#    the .pc validates, --cflags is -I<destdir>/usr/local/include, --libs is
#    empty; hello.c built with only those flags (no -Iinclude, no -ldl or
#    -lpthread) includes the installed tracepoint.h (cc -H); with
#    -DCONFIG_HELLO_TRACE the binary has __tracepoint_hello_greet and prints
#    the three events, without it has no __tracepoint_ / tp__ symbol and
#    prints that the tracepoints are compiled out.  The same with the
#    examples/install/Makefile snippet (HELLO_TRACE=1 and 0).
#  - CMake: cmake -S examples/install -DCMAKE_PREFIX_PATH=<destdir>/usr/local,
#    -DHELLO_TRACE=ON and OFF (target_compile_definitions): find_package used
#    the DESTDIR config, the compile line has the installed include directory
#    and not the source tree's; same symbol and output checks.  The version
#    file accepts no version, the current one (exact), 0.0...<99 and rejects
#    the next major.
#  - make uninstall into the same DESTDIR removes every installed file and
#    our own directories, and leaves a foreign header and .pc file alone.
# Skipped (77) when pkg-config or cmake is missing.  Respects $CC; adds
# $TP_CFLAGS to every compile.
set -u
T=install
S=examples/install
B=${TP_BUILD:-build}/$T
TPF=${TP_CFLAGS:-} # mode flags from tools/run-tests.sh, added to every compile
echo "mode flags (TP_CFLAGS): ${TPF:-none}; artifacts in $B"
CC=${CC:-cc}
for tool in pkg-config cmake; do
	command -v $tool >/dev/null 2>&1 ||
		{ echo "skip: $tool is not installed (apt-get install $tool)"; exit 77; }
done
rm -rf "$B" && mkdir -p "$B" || exit 1
B=$(cd "$B" && pwd) # DESTDIR and cmake want absolute paths
unset MAKEFLAGS MFLAGS MAKELEVEL # not the outer `make check`'s variables
PREFIX=/usr/local
D=$B/destdir
P=$D$PREFIX
WARN="-Wall -Wextra -Wundef -Werror"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run() { # log-file command...; prints the command's output on failure
	log=$1; shift
	if "$@" >"$log" 2>&1; then return 0; fi
	echo "command failed: $*"; sed 's/^/    /' "$log"; return 1
}

# check_program <label> <binary> on|off: symbols and output
EXP_ON="probe: hello_greet(world, 1)
probe: hello_greet(world, 2)
probe: hello_greet(world, 3)
3 events seen"
EXP_OFF="hello tracepoints compiled out
0 events seen"
check_program() {
	label=$1 bin=$2 want=$3
	[ -x "$bin" ] || { fail "$label: $bin was not built"; return; }
	syms=$(nm "$bin" | awk '{print $NF}' | grep -E '^(__tracepoint_|tp__)')
	out=$("$bin" 2>&1); rc=$?
	[ $rc -eq 0 ] || fail "$label: $bin exited with $rc"
	if [ $want = on ]; then
		echo "$syms" | grep -qx __tracepoint_hello_greet ||
			fail "$label: no __tracepoint_hello_greet symbol in $bin"
		exp=$EXP_ON
	else
		[ -z "$syms" ] || fail "$label: compiled out, but $bin has:" $syms
		exp=$EXP_OFF
	fi
	if [ "$out" != "$exp" ]; then
		fail "$label: output differs"; printf 'got:\n%s\nwant:\n%s\n' "$out" "$exp"
	else
		echo "ok: $label: $(echo "$out" | tail -n 1), tracepoint symbols: $(echo $syms | wc -w)"
	fi
}

echo "== make install PREFIX=$PREFIX DESTDIR=$D"
run "$B/build.log" make --no-print-directory B="$B/build" "$B/build/tracepoint-dump" CC="$CC" ||
	{ fail "make $B/build/tracepoint-dump"; exit 1; }
run "$B/install.log" make --no-print-directory install B="$B/build" PREFIX=$PREFIX DESTDIR="$D" CC=false ||
	{ fail "make install"; exit 1; }
"$P/bin/tracepoint-dump" --version >/dev/null || fail "the installed tracepoint-dump does not run"
expected=$( (for h in include/*.h include/*/*.h; do [ -f "$h" ] && echo "$P/$h"; done
	echo "$P/bin/tracepoint-dump"
	echo "$P/bin/tracepoint-list"
	echo "$P/bin/tracepoint-bloat-o-meter"
	echo "$P/lib/pkgconfig/tracepoint.pc"
	echo "$P/lib/cmake/tracepoint/tracepoint-config.cmake"
	echo "$P/lib/cmake/tracepoint/tracepoint-config-version.cmake") | sort)
got=$(find "$D" -type f | sort)
if [ "$got" = "$expected" ]; then
	echo "ok: installed exactly $(echo "$got" | wc -l) files"
else
	fail "installed files differ"; printf 'got:\n%s\nwant:\n%s\n' "$got" "$expected"
fi
for h in include/*.h include/*/*.h; do
	[ -f "$h" ] && ! cmp -s "$h" "$P/$h" && fail "$P/$h differs from $h"
done

echo "== pkg-config"
export PKG_CONFIG_LIBDIR="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
unset PKG_CONFIG_PATH
run "$B/pc-validate.log" pkg-config --validate tracepoint || fail "tracepoint.pc does not validate"
PC_CFLAGS=$(pkg-config --cflags tracepoint) || fail "pkg-config --cflags tracepoint"
PC_LIBS=$(pkg-config --libs tracepoint) || fail "pkg-config --libs tracepoint"
PC_VERSION=$(pkg-config --modversion tracepoint)
echo "cflags: $PC_CFLAGS; libs: '$PC_LIBS'; version $PC_VERSION"
[ "$(echo $PC_CFLAGS)" = "-I$P/include" ] || fail "--cflags is '$PC_CFLAGS', want -I$P/include"
[ -z "$(echo $PC_LIBS)" ] || fail "--libs is '$PC_LIBS', want nothing"
for cfg in on off; do
	def=; [ $cfg = on ] && def=-DCONFIG_HELLO_TRACE
	if run "$B/pc-$cfg.log" $CC $TPF $WARN -O2 -H $PC_CFLAGS $def $S/hello.c -o "$B/pc-$cfg" $PC_LIBS; then
		used=$(grep -E '^\.+ .*tracepoint\.h$' "$B/pc-$cfg.log" | sed 's/^\.* //' | sort -u)
		[ "$used" = "$P/include/tracepoint.h" ] ||
			fail "pkg-config build ($cfg) included '$used', not $P/include/tracepoint.h"
	else
		fail "pkg-config build ($cfg)"
	fi
	check_program "pkg-config ${def:-(no -DCONFIG_HELLO_TRACE)}" "$B/pc-$cfg" $cfg
done
for t in 1 0; do
	cfg=on; [ $t = 1 ] || cfg=off
	run "$B/mk-$cfg.log" make --no-print-directory -f $S/Makefile O="$B/mk-$cfg" HELLO_TRACE=$t \
		CC="$CC" CFLAGS="-O2 $TPF $WARN" || fail "examples/install/Makefile HELLO_TRACE=$t"
	check_program "examples/install/Makefile HELLO_TRACE=$t" "$B/mk-$cfg/hello" $cfg
done
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR

echo "== cmake"
for cfg in ON OFF; do
	c=$B/cmake-$cfg
	lc=$(echo $cfg | tr A-Z a-z)
	if run "$c.log" env CC="$CC" cmake -S $S -B "$c" -DCMAKE_PREFIX_PATH="$P" -DHELLO_TRACE=$cfg \
		-DCMAKE_C_FLAGS="-O2 $TPF $WARN" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
		run "$c-build.log" cmake --build "$c" --verbose; then
		dir=$(sed -n 's/^tracepoint_DIR:[A-Z]*=//p' "$c/CMakeCache.txt")
		[ "$dir" = "$P/lib/cmake/tracepoint" ] || fail "cmake $cfg: tracepoint_DIR is '$dir'"
		grep -q -- "-I$P/include\|-isystem $P/include" "$c/compile_commands.json" ||
			fail "cmake $cfg: compile line lacks $P/include"
		! grep -q -- "$(pwd)/include" "$c/compile_commands.json" ||
			fail "cmake $cfg: compile line has the source tree's include/"
		[ $cfg = OFF ] || grep -q -- "-DCONFIG_HELLO_TRACE" "$c/compile_commands.json" ||
			fail "cmake $cfg: no -DCONFIG_HELLO_TRACE"
	else
		fail "cmake build ($cfg)"
	fi
	check_program "cmake -DHELLO_TRACE=$cfg" "$c/hello" $lc
done
v=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$P/lib/cmake/tracepoint/tracepoint-config-version.cmake")
[ "$v" = "$PC_VERSION" ] || fail "cmake version '$v' differs from pkg-config version '$PC_VERSION'"
major=${v%%.*}
cat >"$B/version.cmake" <<EOF
foreach(req "" "$v" "$major.0" "$((major + 1)).0" "0.0...<99" "$((major + 1)).0...$((major + 2)).0")
  unset(PACKAGE_VERSION_EXACT)
  unset(PACKAGE_FIND_VERSION_RANGE)
  set(PACKAGE_FIND_VERSION "\${req}")
  if(req MATCHES "^([0-9.]+)[.][.][.](<?)([0-9.]+)\$")
    set(PACKAGE_FIND_VERSION_RANGE "\${req}")
    set(PACKAGE_FIND_VERSION_MIN "\${CMAKE_MATCH_1}")
    set(PACKAGE_FIND_VERSION "\${CMAKE_MATCH_1}")
    set(PACKAGE_FIND_VERSION_MAX "\${CMAKE_MATCH_3}")
    if(CMAKE_MATCH_2)
      set(PACKAGE_FIND_VERSION_RANGE_MAX EXCLUDE)
    else()
      set(PACKAGE_FIND_VERSION_RANGE_MAX INCLUDE)
    endif()
  endif()
  string(REGEX MATCH "^[0-9]+" PACKAGE_FIND_VERSION_MAJOR "\${PACKAGE_FIND_VERSION}")
  include("$P/lib/cmake/tracepoint/tracepoint-config-version.cmake")
  message("'\${req}' compatible=\${PACKAGE_VERSION_COMPATIBLE} exact=\${PACKAGE_VERSION_EXACT}")
endforeach()
EOF
vgot=$(cmake -P "$B/version.cmake" 2>&1)
vwant="'' compatible=TRUE exact=
'$v' compatible=TRUE exact=TRUE
'$major.0' compatible=TRUE exact=
'$((major + 1)).0' compatible=FALSE exact=
'0.0...<99' compatible=TRUE exact=
'$((major + 1)).0...$((major + 2)).0' compatible=FALSE exact="
if [ "$vgot" = "$vwant" ]; then
	echo "ok: version file: $(echo "$vgot" | tr '\n' ';')"
else
	fail "version file"; printf 'got:\n%s\nwant:\n%s\n' "$vgot" "$vwant"
fi

echo "== make uninstall"
echo '/* not ours */' >"$P/include/other.h"
echo 'Name: other' >"$P/lib/pkgconfig/other.pc"
run "$B/uninstall.log" make --no-print-directory uninstall B="$B/build" PREFIX=$PREFIX DESTDIR="$D" CC=false ||
	fail "make uninstall"
left=$(find "$D" -type f | sort)
[ "$left" = "$(printf '%s\n' "$P/include/other.h" "$P/lib/pkgconfig/other.pc")" ] ||
	{ fail "after uninstall, files other than the two foreign ones:"; echo "$left"; }
for d in "$P/lib/cmake/tracepoint" $(for h in include/*/*.h; do [ -f "$h" ] && dirname "$P/$h"; done); do
	[ ! -d "$d" ] || fail "directory $d left after uninstall"
done
[ $fails -eq 0 ] && echo "ok: uninstall left only the foreign files"

echo "== $fails failure(s)"
[ $fails -eq 0 ]
