# tests/lib.sh: the setup and helpers every script test shares.  Each
# tests/LAYER/t_NAME.sh starts with
#	. tests/lib.sh
# run from the repository root, as scripts/run-tests.sh (`make check`) does;
# by hand:  CC=gcc CXX=g++ TP_BUILD=build/x sh tests/LAYER/t_NAME.sh
# (add TP_CFLAGS=-DTRACEPOINT_PORTABLE for the portable mode).
#
# From the environment (scripts/run-tests.sh passes them; defaults in brackets):
#   CC, CXX     the compilers [cc, c++]
#   TP_CFLAGS   the fast-path mode flags to add to every compile [none]
#   TP_BUILD    where artifacts go [build]
#   TP_DUMP     a built tracepoint-dump, used by dump_tool [built here]
#   TP_QUICK    set by `make check`: the short version of the tests that
#               have one (fewer rounds, shorter phases, the fuzzers' corpora
#               without new fuzzing); `make check-all` runs the long ones
#               (see quick) [unset]
#   TP_SECOND_PASS  set by .ci/run for its clang passes: what does not
#               depend on $CC ran in the gcc pass (see repeated) [unset]
# Sets:
#   T     the test's name, NAME for tests/LAYER/t_NAME.sh
#   S     its sources, the folder NAME next to the script: tests/LAYER/NAME
#         (absent for tests that need none)
#   B     its artifact directory, $TP_BUILD/NAME, emptied
#   TPF   $TP_CFLAGS
#   WARN  the project's warning flags (-Wall -Wextra -Wundef -Werror)
#   fails, passes   counted by fail and ok; finish gives the verdict
# Exit status of a test: 0 pass, 1 fail, 77 skipped (the last line says why).
#
# Flag lists ($WARN, $TPF, $CC when it is "ccache gcc", ...) are expanded
# unquoted on purpose throughout the tests, to be split into words (SC2086);
# the variables set here are for the tests that source this file (SC2034).
# shellcheck shell=sh disable=SC2086,SC2034

set -u
T=$(basename "$0" .sh)
T=${T#t_}
S=$(dirname "$0")/$T
B=${TP_BUILD:-build}/$T
CC=${CC:-cc}
CXX=${CXX:-c++}
TPF=${TP_CFLAGS:-}
WARN="-Wall -Wextra -Wundef -Werror"
fails=0
passes=0
[ -f include/tracepoint.h ] || { echo "run $0 from the repository root"; exit 1; }
echo "mode flags (TP_CFLAGS): ${TPF:-none}; artifacts in $B"
rm -rf "$B" && mkdir -p "$B" || exit 1

# ---- results
ok() { # message: one check passed
	echo "ok: $*"
	passes=$((passes + 1))
}
fail() { # message: one check failed; the test goes on, finish exits 1
	echo "FAIL: $*"
	fails=$((fails + 1))
}
finish() { # the verdict: exit 1 if any check failed, else 0
	if [ "$fails" -ne 0 ]; then
		echo "== $T: FAILED ($fails of $((fails + passes)) checks)"
		exit 1
	fi
	echo "== $T: passed ($passes checks)"
	exit 0
}
skip() { # reason: skip the whole test (exit 77); run-tests.sh shows the reason
	echo "$*"
	exit 77
}
skip_part() { # reason: a part of the test is not run here; the rest goes on
	echo "skip: $*"
}
have() { # command: is it installed?
	command -v "$1" >/dev/null 2>&1
}
count() { # path...: how many exist (for globs: a glob that matches nothing
	# stays itself and counts 0)
	_n=0
	for _f in "$@"; do [ -e "$_f" ] && _n=$((_n + 1)); done
	echo $_n
}
need() { # command [package]: skip the test unless the command is installed
	have "$1" || skip "$1 not installed (apt-get install ${2:-$1})"
}
quick() { # short long: the short value under `make check` (TP_QUICK),
	# else the long one
	if [ -n "${TP_QUICK:-}" ]; then echo "$1"; else echo "$2"; fi
}
repeated() { # part: true, saying so, when the part does not depend on $CC
	# and this is .ci/run's second pass (TP_SECOND_PASS), whose first pass,
	# with gcc, ran it on the same sources in the same mode
	[ -n "${TP_SECOND_PASS:-}" ] || return 1
	skip_part "$1: the same whatever CC is, run in the first pass"
}

# ---- running and building
run() { # log command...: runs it, output in log; on failure prints the
	# command and the log, and returns 1
	_log=$1
	shift
	"$@" >"$_log" 2>&1 && return 0
	echo "command failed: $*"
	sed 's/^/    /' "$_log"
	return 1
}
run_silent() { # log command...: like run, but a command that prints
	# anything (a diagnostic) fails too
	_log=$1
	shift
	"$@" >"$_log" 2>&1 && [ ! -s "$_log" ] && return 0
	echo "command failed or printed diagnostics: $*"
	sed 's/^/    /' "$_log"
	return 1
}
cc_build() { # args...: $CC -O2 $WARN $TPF -Iinclude args; if that fails,
	# so does the test, at once (exit 1)
	$CC -O2 $WARN $TPF -Iinclude "$@" || {
		echo "FAIL: cannot build: $CC -O2 $WARN $TPF -Iinclude $*"
		exit 1
	}
}
cc_works() { # flags...: can $CC build and run a threaded program with them?
	# (a sanitizer's runtime may be missing)
	printf '%s\n' '#include <pthread.h>' 'static void *f(void *a) { return a; }' \
		'int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); return pthread_join(t, 0); }' \
		>"$B/cc_works.c"
	$CC "$@" "$B/cc_works.c" -o "$B/cc_works" -lpthread >/dev/null 2>&1 && "$B/cc_works" >/dev/null 2>&1
}
is_clang() { # compiler: is it clang?
	$1 --version 2>/dev/null | grep -q clang
}
dump_tool() { # sets DUMP to a tracepoint-dump: $TP_DUMP, or one built here
	DUMP=${TP_DUMP:-}
	[ -n "$DUMP" ] && [ -x "$DUMP" ] && return 0
	DUMP=$B/tracepoint-dump
	$CC -O2 $WARN tools/dump/*.c -o "$DUMP" || {
		echo "FAIL: cannot build tools/dump/*.c"
		exit 1
	}
}

# ---- fuzzing
fuzz_corpus() { # target.c seconds max_len: $S/corpus replayed by a plain
	# build of the target with $CC (always); then, in the first pass without
	# mode flags and outside `make check`, where clang's libFuzzer works:
	# the target built with -fsanitize=fuzzer,address,undefined replays the
	# corpus and fuzzes `seconds` from it (new inputs in $B/new, not the
	# corpus).  Ends the test (finish), or skips only the libFuzzer part.
	mkdir -p "$B/new" || exit 1
	_c=$S/corpus
	_n=$(count "$_c"/*)
	$CC -O1 -g $WARN -Iinclude -DFUZZ_REPLAY_MAIN "$S/$1" -o "$B/replay" || exit 1
	"$B/replay" "$_c"/* || { fail "corpus replay with $CC"; finish; }
	ok "$_n corpus inputs replayed ($CC)"
	[ -z "$TPF" ] || { skip_part "libFuzzer: the same program as without mode flags: fuzzed in that pass"; finish; }
	repeated "libFuzzer (clang whatever CC is)" && finish
	[ -z "${TP_QUICK:-}" ] || { skip_part "libFuzzer (its build, the corpus under it, new inputs): in make check-all"; finish; }
	_fz=${FUZZ_CC:-clang}
	have "$_fz" || skip "libFuzzer: $_fz not installed (apt-get install clang)"
	if ! $_fz -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude \
		"$S/$1" -o "$B/fuzz" 2>"$B/cc.log"; then
		cat "$B/cc.log"; skip "libFuzzer unavailable with $_fz (-fsanitize=fuzzer failed; apt-get install libclang-rt-dev)"
	fi
	"$B/fuzz" -runs=0 "$_c" >"$B/replay.log" 2>&1 || { tail -20 "$B/replay.log"; fail "corpus replay under libFuzzer"; finish; }
	ok "corpus replayed under libFuzzer+ASan+UBSan"
	"$B/fuzz" -max_total_time="$2" -max_len="$3" -print_final_stats=1 "$B/new" "$_c" >"$B/fuzz.log" 2>&1 ||
		{ tail -30 "$B/fuzz.log"; fail "the fuzzer found a crash (input saved in $(pwd))"; finish; }
	grep -E 'stat::number_of_executed_units|Done' "$B/fuzz.log" | tail -2
	ok "$2 s of fuzzing, no crash"
	finish
}
