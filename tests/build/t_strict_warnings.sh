#!/bin/sh
# Consumers build warning-free under the union of the strict warning sets
# real C projects use, with every header: plain tracepoints (tracepoint.h),
# events defined with CREATE_TRACE_POINTS, the recorder (trace/sink.h), a
# file that only fires; compiled in, compiled out, and all out with
# -DCONFIG_TRACEPOINTS_OFF (no machinery, no recorder); linked and run.
#   gcc: C (c99, c11, gnu17) with GCC_C below, C++ (c++11, c++17) with the
#        same minus the C-only options (GCC_CXX); under make check, c99 and
#        c++11 only;
#   clang: C and C++ with -Weverything minus these, each for a reason:
#     -Wno-reserved-identifier -Wno-reserved-macro-identifier: the internal
#        names keep the kernel's reserved tp__priv/__tracepoint_ prefixes (the
#        rename to one non-reserved prefix belongs to the renovation issue);
#     -Wno-padded: reports every struct with padding, a fact, not a defect;
#     -Wno-used-but-marked-unused: the generated inlines are marked unused
#        because a file calls only some of them, and clang flags the rest;
#     -Wno-c++98-compat -Wno-c++98-compat-pedantic: the header needs C++11;
#     -Wno-declaration-after-statement: C99 allows it (the consumers' own);
#     C++ only, -Wno-old-style-cast -Wno-zero-as-null-pointer-constant: the
#        headers (and these consumers, built with -x c++) are C, whose casts
#        and NULL are what those flag.
# shellcheck disable=SC2086 # flag lists ($cc, $TPF, $GCC_C ...) are split on purpose
. tests/lib.sh
# Every compiler here is named (gcc, g++, clang, clang++), not $CC.
repeated "every build" && skip "the same builds whatever CC is: run in the first pass"
GCC_COMMON="-Wall -Wextra -Wpedantic -Wundef -Wshadow -Wconversion -Wsign-conversion
 -Wredundant-decls -Wmissing-declarations -Wcast-qual -Wcast-align -Wformat=2
 -Wswitch-default -Wswitch-enum -Wdouble-promotion -Wnull-dereference
 -Wwrite-strings -Wlogical-op -Wduplicated-cond -Wvla"
GCC_C="$GCC_COMMON -Wmissing-prototypes -Wstrict-prototypes -Wold-style-definition -Wnested-externs"
GCC_CXX="$GCC_COMMON"
CLANG_EXCL="-Wno-reserved-identifier -Wno-reserved-macro-identifier -Wno-padded
 -Wno-used-but-marked-unused -Wno-c++98-compat -Wno-c++98-compat-pedantic
 -Wno-declaration-after-statement"
n=0
build() { # name compiler lang std flags... : compiles the three files, links, runs
	name=$1 cc=$2 lang=$3 std=$4; shift 4
	n=$((n + 1))
	out="$B/$name"
	if $cc -x "$lang" "-std=$std" -O2 -Werror "$@" $TPF -Iinclude -I"$S" \
		"$S/plain.c" "$S/events.c" "$S/fire.c" -o "$out" -ldl -lpthread >"$out.log" 2>&1 &&
		[ ! -s "$out.log" ] && "$out" >"$out.run" 2>&1; then
		ok "$name"
	else
		fail "$name: $cc -std=$std $*"; head -30 "$out.log" "$out.run" 2>/dev/null
	fi
}
# make check (TP_QUICK): the oldest standards only, where the strict sets
# differ most, and C++ only with the subsystems compiled in; every one of
# them in the long version
C_STDS=$(quick "c99" "c99 c11 gnu17")
CXX_STDS=$(quick "c++11" "c++11 c++17")
for sw in "-DCONFIG_SW_DISK -DCONFIG_SW_NET" "" "-DCONFIG_SW_DISK -DCONFIG_TRACEPOINTS_OFF"; do
	case $sw in *OFF*) tag=off ;; "") tag=out ;; *) tag=in ;; esac
	for std in $C_STDS; do
		build "gcc-$std-$tag" gcc c $std $GCC_C $sw
	done
	# (make check: C++ with the subsystems compiled in only)
	[ -n "${TP_QUICK:-}" ] && [ $tag != in ] && cxx= || cxx=1
	for std in ${cxx:+$CXX_STDS}; do
		build "g++-$std-$tag" g++ c++ $std $GCC_CXX $sw
	done
	if have clang; then
		build "clang-c11-$tag" clang c c11 -Weverything $CLANG_EXCL $sw
		[ -z "$cxx" ] || build "clang++-c++17-$tag" clang++ c++ c++17 -Weverything $CLANG_EXCL \
			-Wno-old-style-cast -Wno-zero-as-null-pointer-constant $sw
	else
		skip_part "clang not installed: its -Weverything builds are not run"
	fi
done
echo "== $n builds, $fails failed"
finish
