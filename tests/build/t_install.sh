#!/bin/sh
# `make install` / `make uninstall`, and building a program against the
# installed copy the two usual ways.  The consumer is examples/install/ (an
# event header switched by CONFIG_HELLO_TRACE; hello.c defines, fires and
# attaches a probe to hello_greet).  Every install runs with CC=false once
# the reader is built (nothing else is compiled, cmocka not needed) and with
# INSTALL set to a wrapper that refuses the GNU-only options -D and -t and
# records what it installs.  Three layouts:
#  - custom: prefix=/opt/tp includedir=/opt/tp/inc libdir=/opt/tp/lib64
#    bindir=/opt/tp/tools DESTDIR=$TP_BUILD/install/destdir, checked in full:
#  - the files: exactly every include/*.h, include/*/*.h and
#    include/*/*/*.h under the includedir at the same relative path,
#    byte-identical; in the bindir
#    tracepoint-dump, tracepoint-ctl, tracepoint-list and tracepoint-bloat-o-meter,
#    executable; <libdir>/pkgconfig/tracepoint.pc and <libdir>/cmake/
#    tracepoint/tracepoint-config{,-version}.cmake; nothing else, each one put
#    there by $(INSTALL), none naming the DESTDIR or the source tree.
#  - the tools run from the install directory (from another working
#    directory): tracepoint-dump --version, tracepoint-ctl --version and
#    --help, tracepoint-list on the
#    pkg-config-built program (hello_greet) and tracepoint-bloat-o-meter
#    between the compiled-out and compiled-in programs (__tracepoint_
#    hello_greet added).
#  - the version: the one of include/tracepoint/version.h is what
#    pkg-config --modversion, the CMake version file, tracepoint_VERSION,
#    tracepoint-dump --version, tracepoint-ctl --version and a C and a C++
#    program built against the
#    installed tracepoint.h (TRACEPOINT_VERSION_STRING, TRACEPOINT_VERSION)
#    say.
#  - pkg-config (PKG_CONFIG_LIBDIR + PKG_CONFIG_SYSROOT_DIR onto the DESTDIR):
#    the .pc validates, --cflags is -I<destdir>/opt/tp/inc (as
#    ${pcfiledir}/../../inc: tests/build/t_pc_moved.sh), --libs is
#    empty; hello.c built with only those flags (no -Iinclude, no -ldl or
#    -lpthread) includes the installed tracepoint.h (cc -H); with
#    -DCONFIG_HELLO_TRACE the binary has __tracepoint_hello_greet and prints
#    the three events, without it has no __tracepoint_ / tp__ symbol and
#    prints that the tracepoints are compiled out.  The same with the
#    examples/install/Makefile snippet (HELLO_TRACE=1 and 0).
#  - CMake: cmake -S examples/install -DCMAKE_PREFIX_PATH=<destdir>/opt/tp
#    -Dtracepoint_DIR=<destdir>/opt/tp/lib64/cmake/tracepoint (lib64 is not
#    searched everywhere), -DHELLO_TRACE=ON and OFF
#    (target_compile_definitions): find_package used
#    the DESTDIR config, the compile line has the installed include directory
#    and not the source tree's; same symbol and output checks.  The version
#    file accepts no version, the current one (exact), 0.0...<99 and rejects
#    the next major.
#  - Meson (when meson and ninja are installed): examples/install/meson.build,
#    dependency('tracepoint') found through the installed .pc (pkg-config
#    onto the DESTDIR), -Dhello_trace=true and false: the compile line has
#    the installed include directory and not the source tree's; same symbol
#    and output checks.
#  - make uninstall with the same variables removes every installed file
#    and our own directories, and leaves a foreign header and .pc file alone.
#  - compat: PREFIX=/usr/local (the former spelling of prefix): the default
#    layout (bin/, include/, lib/pkgconfig/, lib/cmake/tracepoint/), exactly
#    the files docs/install.md's "Installed files" lists, a
#    pkg-config and a CMake build against it (found through
#    CMAKE_PREFIX_PATH alone), uninstall.
#  - share: prefix=/opt/tp pkgconfigdir='$(datadir)/pkgconfig'
#    cmakedir='$(datadir)/cmake/tracepoint' (architecture-independent): the
#    same.
#  - outside: prefix=/opt/tp includedir=/usr/include/tp-outside: the .pc
#    and the CMake config name the include directory by absolute path; a
#    pkg-config build against it (sysroot); uninstall.
# Skipped (77) when pkg-config or cmake is missing.  Respects $CC and $CXX;
# adds $TP_CFLAGS to every compile.
# shellcheck disable=SC2086 # flag and variable lists ($CC, $TPF, $WARN, $VARS ...) are split on purpose
. tests/lib.sh
S=examples/install
need pkg-config
need cmake
mkdir -p "$B/elsewhere" || exit 1
B=$(cd "$B" && pwd) # DESTDIR and cmake want absolute paths
SRC=$(pwd)
unset MAKEFLAGS MFLAGS MAKELEVEL # not the outer `make check`'s variables

# The version, read here from the header on its own (not through the Makefile).
part() { sed -n "s/^#define TRACEPOINT_VERSION_$1[[:space:]]*\([0-9]*\)[[:space:]]*\$/\1/p" include/tracepoint/version.h; }
HV="$(part MAJOR).$(part MINOR).$(part PATCH)"
HN=$(($(part MAJOR) * 10000 + $(part MINOR) * 100 + $(part PATCH)))
echo "include/tracepoint/version.h: $HV ($HN)"
case $HV in [0-9]*.[0-9]*.[0-9]*) ;; *) fail "cannot read the version from include/tracepoint/version.h"; finish ;; esac

# INSTALL for every `make install`: install(1) as POSIX and BSD have it.
# Refuses -D and -t (GNU only) and records each file it installs in
# $B/installed-by-INSTALL.
W=$B/portable-install
cat >"$W" <<EOF
#!/bin/sh
log="$B/installed-by-INSTALL"
EOF
cat >>"$W" <<'EOF'
check() {
	dirs=no
	while [ $# -gt 0 ]; do
		case $1 in
		-d) dirs=yes; shift ;;
		-m | -o | -g) shift 2 ;;
		-m?* | -c) shift ;;
		--) shift; break ;;
		-*) echo "portable-install: $1 is not portable (GNU only): install $*" >&2; exit 1 ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || { echo "portable-install: no operand" >&2; exit 1; }
	[ $dirs = yes ] && return 0
	[ $# -ge 2 ] || { echo "portable-install: one operand" >&2; exit 1; }
	for last; do :; done
	if [ -d "$last" ]; then
		while [ $# -gt 1 ]; do echo "$last/${1##*/}" >>"$log"; shift; done
	elif [ $# -eq 2 ]; then
		echo "$last" >>"$log"
	else
		echo "portable-install: several files, and $last is not a directory" >&2; exit 1
	fi
}
check "$@" || exit 1
exec install "$@"
EOF
chmod +x "$W"
echo x >"$B/probe-src"
if "$W" -D -m 644 "$B/probe-src" "$B/probe-dir/probe" 2>/dev/null; then
	fail "the INSTALL wrapper accepts -D"
fi

echo "== build the tools once: make $B/build/tracepoint-dump $B/build/tracepoint-ctl"
run "$B/build.log" make --no-print-directory B="$B/build" "$B/build/tracepoint-dump" "$B/build/tracepoint-ctl" \
	CC="$CC" || { fail "make $B/build/tracepoint-dump $B/build/tracepoint-ctl"; finish; }

# layout <name> <DESTDIR> <prefix> <includedir> <bindir> <pkgconfigdir>
# <cmakedir> <make variables...>: installs, and sets D, P (the prefix in the
# DESTDIR), INC, BIN, PCDIR and CMDIR (where the files must go, in the
# DESTDIR) and VARS (the variables).
layout() {
	L=$1 D=$2 P=$2$3 INC=$2$4 BIN=$2$5 PCDIR=$2$6 CMDIR=$2$7
	shift 7
	VARS="$*"
	echo "== make install $VARS DESTDIR=$D"
	rm -f "$B/installed-by-INSTALL"
	run "$B/install-$L.log" make --no-print-directory install B="$B/build" "$@" DESTDIR="$D" \
		CC=false INSTALL="$W" || { fail "$L: make install $VARS"; return 1; }
	expected=$( (for h in include/*.h include/*/*.h include/*/*/*.h; do [ -f "$h" ] && echo "$INC/${h#include/}"; done
		for t in tracepoint-dump tracepoint-ctl tracepoint-list tracepoint-bloat-o-meter; do echo "$BIN/$t"; done
		echo "$PCDIR/tracepoint.pc"
		echo "$CMDIR/tracepoint-config.cmake"
		echo "$CMDIR/tracepoint-config-version.cmake") | sort)
	got=$(find "$D" -type f | sort)
	if [ "$got" = "$expected" ]; then
		ok "$L: installed exactly $(echo "$got" | wc -l) files"
	else
		fail "$L: installed files differ"; printf 'got:\n%s\nwant:\n%s\n' "$got" "$expected"
	fi
	by=$(sort -u "$B/installed-by-INSTALL")
	if [ "$by" = "$got" ]; then ok "$L: every file installed by \$(INSTALL), none with -D or -t"
	else fail "$L: files not installed by \$(INSTALL):"; printf '%s\n%s\n' "$got" "$by" | sort | uniq -u; fi
	for h in include/*.h include/*/*.h include/*/*/*.h; do
		[ -f "$h" ] && ! cmp -s "$h" "$INC/${h#include/}" && fail "$L: $INC/${h#include/} differs from $h"
	done
	for t in tracepoint-dump tracepoint-ctl tracepoint-list tracepoint-bloat-o-meter; do
		[ -x "$BIN/$t" ] || fail "$L: $BIN/$t is not executable"
	done
	# shellcheck disable=SC2046 # the installed files: names without blanks
	leak=$(grep -l -e "$D" -e "$SRC" $(find "$D" -type f ! -name tracepoint-dump ! -name tracepoint-ctl))
	[ -z "$leak" ] || fail "$L: installed files name the DESTDIR or the source tree:" $leak
	return 0
}

# uninstall: make uninstall with the same variables, next to a foreign header
# and .pc file; nothing of ours may be left, file or directory.
uninstall() {
	echo "== make uninstall $VARS DESTDIR=$D"
	echo '/* not ours */' >"$INC/other.h"
	echo 'Name: other' >"$PCDIR/other.pc"
	run "$B/uninstall-$L.log" make --no-print-directory uninstall B="$B/build" $VARS DESTDIR="$D" CC=false ||
		fail "$L: make uninstall"
	left=$(find "$D" -type f | sort)
	[ "$left" = "$(printf '%s\n' "$INC/other.h" "$PCDIR/other.pc" | sort)" ] ||
		{ fail "$L: after uninstall, files other than the two foreign ones:"; echo "$left"; }
	ours=$CMDIR
	for h in include/*/*.h include/*/*/*.h; do [ -f "$h" ] && ours="$ours $(dirname "$INC/${h#include/}")"; done
	for d in $ours; do [ ! -d "$d" ] || fail "$L: directory $d left after uninstall"; done
	ok "$L: uninstall left the foreign files and the directories: $(find "$D" -type d | sed "s|^$D||" | sort | tr '\n' ' ')"
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
		ok "$label: $(echo "$out" | tail -n 1), tracepoint symbols: $(echo $syms | wc -w)"
	fi
}

# pc_build <label> on|off: hello.c built with the flags of the installed .pc
# only (pkg-config onto $D); checks that the installed tracepoint.h was used.
pc_build() {
	label=$1 cfg=$2
	export PKG_CONFIG_LIBDIR="$PCDIR" PKG_CONFIG_SYSROOT_DIR="$D"
	unset PKG_CONFIG_PATH
	PC_CFLAGS=$(pkg-config --cflags tracepoint) || fail "$label: pkg-config --cflags tracepoint"
	PC_LIBS=$(pkg-config --libs tracepoint) || fail "$label: pkg-config --libs tracepoint"
	unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
	# $(echo $x): the words of $x, one space apart (pkg-config pads its output);
	# the directory named as ${pcfiledir}/../../inc, .. resolved
	# shellcheck disable=SC2116
	inc=$(echo $PC_CFLAGS)
	if [ "$(echo $PC_CFLAGS | wc -w)" != 1 ] || [ "$(cd "${inc#-I}" 2>/dev/null && pwd)" != "$INC" ]; then
		fail "$label: --cflags is '$PC_CFLAGS', want -I$INC"
	fi
	# shellcheck disable=SC2116
	[ -z "$(echo $PC_LIBS)" ] || fail "$label: --libs is '$PC_LIBS', want nothing"
	def=; [ $cfg = on ] && def=-DCONFIG_HELLO_TRACE
	if run "$B/$label.log" $CC $TPF $WARN -O2 -H $PC_CFLAGS $def $S/hello.c -o "$B/$label" $PC_LIBS; then
		used=$(grep -E '^\.+ .*tracepoint\.h$' "$B/$label.log" | sed 's/^\.* //' | sort -u)
		[ "$(cd "$(dirname "$used")" 2>/dev/null && pwd)/$(basename "$used")" = "$INC/tracepoint.h" ] ||
			fail "$label: included '$used', not $INC/tracepoint.h"
	else
		fail "$label: pkg-config build"
	fi
	check_program "$label: pkg-config ${def:-(no -DCONFIG_HELLO_TRACE)}" "$B/$label" $cfg
}

# cmake_build <label> ON|OFF [cmake options]: examples/install with
# find_package from $P.
cmake_build() {
	label=$1 cfg=$2
	shift 2
	c=$B/$label
	lc=$(echo $cfg | tr '[:upper:]' '[:lower:]')
	if run "$c.log" env CC="$CC" cmake -S $S -B "$c" -DCMAKE_PREFIX_PATH="$P" -DHELLO_TRACE=$cfg "$@" \
		-DCMAKE_C_FLAGS="-O2 $TPF $WARN" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON &&
		run "$c-build.log" cmake --build "$c" --verbose; then
		dir=$(sed -n 's/^tracepoint_DIR:[A-Z]*=//p' "$c/CMakeCache.txt")
		[ "$dir" = "$CMDIR" ] || fail "$label: tracepoint_DIR is '$dir', want $CMDIR"
		grep -q -- "-I$INC \|-isystem $INC " "$c/compile_commands.json" ||
			fail "$label: compile line lacks $INC"
		! grep -q -- "$SRC/include" "$c/compile_commands.json" ||
			fail "$label: compile line has the source tree's include/"
		[ $cfg = OFF ] || grep -q -- "-DCONFIG_HELLO_TRACE" "$c/compile_commands.json" ||
			fail "$label: no -DCONFIG_HELLO_TRACE"
	else
		fail "$label: cmake build ($cfg)"
	fi
	check_program "$label: cmake -DHELLO_TRACE=$cfg" "$c/hello" $lc
}

# meson_build <label> true|false: examples/install/meson.build, with the
# installed .pc found through pkg-config onto $D.
meson_build() {
	label=$1 cfg=$2
	c=$B/$label
	lc=on; [ $cfg = true ] || lc=off
	if run "$c.log" env CC="$CC" CFLAGS="-O2 $TPF $WARN" PKG_CONFIG_LIBDIR="$PCDIR" \
		PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_PATH= meson setup "$c" $S -Dhello_trace=$cfg &&
		run "$c-build.log" meson compile -C "$c"; then
		grep -q "Run-time dependency tracepoint found: YES $HV" "$c.log" ||
			fail "$label: meson did not report tracepoint $HV: $(grep -i 'dependency tracepoint' "$c.log")"
		# the -I directories of the compile line, .. resolved (from the build dir)
		grep -o -- '-I[^ "]*' "$c/compile_commands.json" | sed 's/^-I//' | while read -r d; do
			(cd "$c" && cd "$d" 2>/dev/null && pwd)
		done | grep -qx -- "$INC" || fail "$label: compile line lacks -I$INC"
		! grep -q -- "$SRC/include" "$c/compile_commands.json" ||
			fail "$label: compile line has the source tree's include/"
	else
		fail "$label: meson build (hello_trace=$cfg)"
	fi
	check_program "$label: meson -Dhello_trace=$cfg" "$c/hello" $lc
}

layout custom "$B/destdir" /opt/tp /opt/tp/inc /opt/tp/tools /opt/tp/lib64/pkgconfig \
	/opt/tp/lib64/cmake/tracepoint \
	prefix=/opt/tp includedir=/opt/tp/inc libdir=/opt/tp/lib64 bindir=/opt/tp/tools ||
	finish

echo "== pkg-config"
export PKG_CONFIG_LIBDIR="$PCDIR" PKG_CONFIG_SYSROOT_DIR="$D"
unset PKG_CONFIG_PATH
run "$B/pc-validate.log" pkg-config --validate tracepoint || fail "tracepoint.pc does not validate"
PC_VERSION=$(pkg-config --modversion tracepoint)
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
pc_build pc-on on
pc_build pc-off off
for t in 1 0; do
	cfg=on; [ $t = 1 ] || cfg=off
	run "$B/mk-$cfg.log" env PKG_CONFIG_LIBDIR="$PCDIR" PKG_CONFIG_SYSROOT_DIR="$D" \
		make --no-print-directory -f $S/Makefile O="$B/mk-$cfg" HELLO_TRACE=$t \
		CC="$CC" CFLAGS="-O2 $TPF $WARN" || fail "examples/install/Makefile HELLO_TRACE=$t"
	check_program "examples/install/Makefile HELLO_TRACE=$t" "$B/mk-$cfg/hello" $cfg
done

echo "== cmake"
# CMake does not look in lib64 on every system (FIND_LIBRARY_USE_LIB64_PATHS):
# the package's directory is given, as a user would.
cmake_build cmake-ON ON -Dtracepoint_DIR="$CMDIR"
cmake_build cmake-OFF OFF -Dtracepoint_DIR="$CMDIR"
v=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$CMDIR/tracepoint-config-version.cmake")
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
  include("$CMDIR/tracepoint-config-version.cmake")
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
	ok "version file: $(echo "$vgot" | tr '\n' ';')"
else
	fail "version file"; printf 'got:\n%s\nwant:\n%s\n' "$vgot" "$vwant"
fi

echo "== meson"
if have meson && have ninja; then
	meson_build meson-on true
	meson_build meson-off false
else
	skip_part "meson or ninja not installed (apt-get install meson ninja-build): the Meson consumer is not built"
fi

echo "== the version is include/tracepoint/version.h's ($HV) everywhere"
cat >"$B/version.c" <<'EOF'
#include <stdio.h>
#include <tracepoint.h>
#if !defined(TRACEPOINT_VERSION) || !defined(TRACEPOINT_VERSION_STRING)
#error "tracepoint.h does not define the version"
#endif
int main(void)
{
	printf("%s %d %d.%d.%d\n", TRACEPOINT_VERSION_STRING, TRACEPOINT_VERSION,
	       TRACEPOINT_VERSION_MAJOR, TRACEPOINT_VERSION_MINOR, TRACEPOINT_VERSION_PATCH);
	return 0;
}
EOF
for lang in c c++; do
	cc=$CC; [ $lang = c ] || cc=$CXX
	if run "$B/version-$lang.log" $cc -x $lang $TPF $WARN -I"$INC" "$B/version.c" -o "$B/version-$lang"; then
		got=$("$B/version-$lang")
		if [ "$got" = "$HV $HN $HV" ]; then ok "installed tracepoint.h ($lang): $got"
		else fail "installed tracepoint.h ($lang) says '$got', want '$HV $HN $HV'"; fi
	else
		fail "version program ($lang) against the installed header"
	fi
done
cv=$(sed -n 's/^set(tracepoint_VERSION "\(.*\)")$/\1/p' "$CMDIR/tracepoint-config.cmake")
dv=$(cd "$B/elsewhere" && "$BIN/tracepoint-dump" --version | awk '{print $2}')
ctlv=$(cd "$B/elsewhere" && "$BIN/tracepoint-ctl" --version | awk '{print $2}')
for x in "pkg-config --modversion:$PC_VERSION" "CMake PACKAGE_VERSION:$v" "CMake tracepoint_VERSION:$cv" \
	"tracepoint-dump --version:$dv" "tracepoint-ctl --version:$ctlv"; do
	if [ "${x##*:}" = "$HV" ]; then ok "${x%:*}: $HV"; else fail "${x%:*} is '${x##*:}', want $HV"; fi
done

echo "== the installed tools run from $BIN"
out=$(cd "$B/elsewhere" && "$BIN/tracepoint-list" "$B/pc-on" 2>&1)
if [ "$out" = hello_greet ]; then ok "tracepoint-list pc-on: $out"; else fail "tracepoint-list pc-on printed: $out"; fi
out=$(cd "$B/elsewhere" && "$BIN/tracepoint-list" "$B/pc-off" 2>&1)
if echo "$out" | grep -q '^tracepoint-list: .*no tracepoints'; then ok "tracepoint-list pc-off: no tracepoints"
else fail "tracepoint-list pc-off printed: $out"; fi
out=$(cd "$B/elsewhere" && "$BIN/tracepoint-bloat-o-meter" "$B/pc-off" "$B/pc-on" 2>&1); rc=$?
if [ $rc -eq 0 ] && echo "$out" | head -n 1 | grep -q '^add/remove: [1-9]' &&
	echo "$out" | grep -Eq '^__tracepoint_hello_greet +- +[0-9]+ +\+[0-9]+$'; then
	ok "tracepoint-bloat-o-meter pc-off pc-on: $(echo "$out" | head -n 1)"
else
	fail "tracepoint-bloat-o-meter pc-off pc-on (exit $rc):"; echo "$out"
fi
out=$(cd "$B/elsewhere" && "$BIN/tracepoint-bloat-o-meter" 2>&1)
echo "$out" | grep -q '^usage: tracepoint-bloat-o-meter ' || fail "tracepoint-bloat-o-meter usage: $out"
out=$(cd "$B/elsewhere" && "$BIN/tracepoint-ctl" --help 2>&1)
if echo "$out" | grep -q '^usage: tracepoint-ctl PID list$'; then ok "tracepoint-ctl --help: $(echo "$out" | head -n 1)"
else fail "tracepoint-ctl --help: $out"; fi

uninstall

# docs/install.md's "Installed files" block, as paths under the prefix: a
# line "DIR/*.h  a.h b.h" (continued on indented lines) names each file; a
# line "DIR/*.h  some words" stands for every header of that folder of the
# tree; any other line is one file.
doc_files() {
	# shellcheck disable=SC2016 # backquotes of Markdown, not a command
	sed -n '/^## Installed files/,/^## /p' docs/install.md | sed -n '/^```$/,/^```$/p' | grep -v '^```' |
		awk '/^[^ ]/ { path = $1; each = path ~ /\*/ && $2 ~ /\.h$/; start = 2
			if (path !~ /\*/) print path; else if (!each) print "GLOB " path }
		/^ / { start = 1 }
		each { dir = path; sub(/\/[^\/]*$/, "", dir); for (i = start; i <= NF; i++) print dir "/" $i }' |
		while read -r a b; do
			if [ "$a" = GLOB ]; then for h in $b; do echo "$h"; done; else echo "$a"; fi
		done | sort
}

# The former spelling, PREFIX, and the default layout under it; the files
# are those docs/install.md lists.
layout compat "$B/destdir-compat" /usr/local /usr/local/include /usr/local/bin \
	/usr/local/lib/pkgconfig /usr/local/lib/cmake/tracepoint PREFIX=/usr/local && {
	doc=$(doc_files) got=$(cd "$D/usr/local" && find . -type f | sed 's|^\./||' | sort)
	if [ "$doc" = "$got" ]; then ok "docs/install.md lists exactly the $(echo "$got" | wc -l) installed files"
	else fail "docs/install.md's list differs from the install (< docs only, > installed only):"
		printf '%s\n' "$doc" >"$B/doc-files"; printf '%s\n' "$got" >"$B/got-files"
		diff "$B/doc-files" "$B/got-files" | grep '^[<>]'; fi
	pc_build compat-pc on; cmake_build compat-cmake ON; uninstall
}

# The architecture-independent places a header-only package may prefer.
# shellcheck disable=SC2016 # make variables, expanded by make
layout share "$B/destdir-share" /opt/tp /opt/tp/include /opt/tp/bin \
	/opt/tp/share/pkgconfig /opt/tp/share/cmake/tracepoint \
	prefix=/opt/tp 'pkgconfigdir=$(datadir)/pkgconfig' 'cmakedir=$(datadir)/cmake/tracepoint' &&
	{ pc_build share-pc on; cmake_build share-cmake ON; uninstall; }

# An includedir outside the prefix: named by absolute path.
layout outside "$B/destdir-outside" /opt/tp /usr/include/tp-outside /opt/tp/bin \
	/opt/tp/lib/pkgconfig /opt/tp/lib/cmake/tracepoint \
	prefix=/opt/tp includedir=/usr/include/tp-outside && {
	grep -qx 'includedir=/usr/include/tp-outside' "$PCDIR/tracepoint.pc" ||
		fail "outside: tracepoint.pc: $(grep includedir= "$PCDIR/tracepoint.pc")"
	grep -q '^set(_tracepoint_include "/usr/include/tp-outside")$' "$CMDIR/tracepoint-config.cmake" ||
		fail "outside: tracepoint-config.cmake: $(grep 'set(_tracepoint_include' "$CMDIR/tracepoint-config.cmake")"
	pc_build outside-pc on
	uninstall
}

finish
