#!/bin/sh
# Tracepoints defined in a shared library built with -fvisibility=hidden.
#  - nm -D: __tracepoint_<name> is exported (a hidden helper is not).
#  - app_linked (linked against the .so): typed probes on the library's
#    tracepoints see the right arguments; name lookup and the walk find the
#    library's and the executable's tracepoints exactly once.
#  - app_dlopen (not linked): before dlopen the library's tracepoints are
#    unknown; after dlopen(RTLD_NOW|RTLD_LOCAL) the walk lists them, an
#    untyped probe attached by name fires through dlsym'd calls; after
#    unregister + dlclose they are gone again; 50 rounds; the executable's
#    own tracepoint stays visible and working throughout.
# Built four ways: default, -no-pie (copy relocations), -flto, and
# -ffunction-sections -fdata-sections -Wl,--gc-sections (the last two with
# an explicit PIE executable); readelf -S must still show the tp__tracepoints,
# tp__strings, tp__ptrs and .note.tracepoint sections in
# the .so and in the executables.  Finally app_dlopen runs once more under
# AddressSanitizer (when the compiler can build with it).
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $TPF, $DEFS ...) are split on purpose
. tests/lib.sh
DEFS="-DCONFIG_SHLIB_TRACE -DCONFIG_SHEXE_TRACE"

has_sections() { # file
	for sec in tp__tracepoints tp__strings tp__ptrs .note.tracepoint; do
		if readelf -SW "$1" | grep -q " $sec "; then
			ok "readelf -S $1 shows section $sec"
		else
			fail "section $sec is missing from $1"
		fi
	done
}

variant() { # name cflags ldflags flags-for-executables
	v=$1 vflags=$2 ldflags=$3 exeflags=$4
	d=$B/$v
	mkdir -p "$d"
	echo "== variant $v: CFLAGS '$vflags', LDFLAGS '$ldflags', executables '$exeflags'"
	for f in lib_def lib_fire; do
		run "$d/$f.log" $CC -O2 $WARN $vflags -fPIC -fvisibility=hidden $TPF -Iinclude $DEFS \
			-c "$S/$f.c" -o "$d/$f.o" || { fail "$v: compiling $f.c"; return; }
	done
	if [ "$v" = lto ]; then
		if readelf -SW "$d/lib_def.o" 2>/dev/null | grep -q '\.gnu\.lto_' ||
			[ "$(head -c 2 "$d/lib_def.o")" = BC ]; then
			ok "$v: lib_def.o holds LTO IR (GIMPLE or LLVM bitcode)"
		else
			fail "$v: lib_def.o is not an LTO object"
		fi
	fi
	run "$d/lib.log" $CC -O2 $vflags $ldflags -shared -fPIC "$d/lib_def.o" "$d/lib_fire.o" \
		-o "$d/libshlibtp.so" || { fail "$v: linking libshlibtp.so"; return; }
	run "$d/app_linked.build.log" $CC -O2 $WARN $vflags $ldflags $exeflags $TPF -Iinclude $DEFS \
		"$S/app_linked.c" -o "$d/app_linked" -L"$d" -lshlibtp -Wl,-rpath,"\$ORIGIN" \
		-ldl -lpthread || { fail "$v: building app_linked"; return; }
	run "$d/app_dlopen.build.log" $CC -O2 $WARN $vflags $ldflags $exeflags $TPF -Iinclude $DEFS \
		"$S/app_dlopen.c" -o "$d/app_dlopen" -ldl -lpthread ||
		{ fail "$v: building app_dlopen"; return; }

	for sym in __tracepoint_shlib_tp __tracepoint_shlib_gpl_tp; do
		if nm -D --defined-only "$d/libshlibtp.so" | grep -q " $sym\$"; then
			ok "nm -D libshlibtp.so exports $sym despite -fvisibility=hidden"
		else
			fail "$v: nm -D libshlibtp.so does not export $sym"
		fi
	done
	if nm -D "$d/libshlibtp.so" | grep -q shlib_internal_helper; then
		fail "$v: shlib_internal_helper is exported: -fvisibility=hidden did not apply"
	else
		ok "nm -D does not list the hidden helper (visibility really is hidden)"
	fi
	has_sections "$d/libshlibtp.so"
	has_sections "$d/app_linked"
	has_sections "$d/app_dlopen"
	if readelf -lW "$d/app_dlopen" | grep -q 'DYN (Position-Independent Executable'; then
		ok "app_dlopen is a PIE"
	elif [ "$v" != no-pie ] && [ -n "$exeflags" ]; then
		fail "$v: app_dlopen is not a PIE"
	fi

	if "$d/app_linked" >"$d/app_linked.out" 2>&1; then
		ok "$v/app_linked: $(tail -n 1 "$d/app_linked.out")"
	else
		fail "$v: app_linked:"; cat "$d/app_linked.out"
	fi
	if "$d/app_dlopen" "$d/libshlibtp.so" >"$d/app_dlopen.out" 2>&1; then
		ok "$v/app_dlopen: $(tail -n 1 "$d/app_dlopen.out")"
	else
		fail "$v: app_dlopen:"; cat "$d/app_dlopen.out"
	fi
}

variant default "" "" ""
variant no-pie "" "" "-no-pie"
variant lto "-flto" "" "-fPIE -pie"
variant gc-sections "-ffunction-sections -fdata-sections" "-Wl,--gc-sections" "-fPIE -pie"

# The dlopen round trip once more under AddressSanitizer/LeakSanitizer: no
# leaked or doubly freed probe arrays, no bad access while walking modules.
d=$B/asan
mkdir -p "$d"
if cc_works -fsanitize=address; then
	if run "$d/build.log" $CC -O1 -g -fsanitize=address $WARN $TPF -Iinclude $DEFS \
		"$S/app_dlopen.c" -o "$d/app_dlopen" -ldl -lpthread &&
		"$d/app_dlopen" "$B/default/libshlibtp.so" >"$d/app_dlopen.out" 2>&1; then
		ok "asan/app_dlopen: $(tail -n 1 "$d/app_dlopen.out")"
	else
		fail "asan/app_dlopen:"; tail -n 40 "$d/app_dlopen.out"
	fi
else
	echo "note: $CC cannot build with -fsanitize=address here; AddressSanitizer run left out"
fi

echo "details: $B/*/app_*.out"
finish
