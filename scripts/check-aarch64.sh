#!/bin/sh
# Builds the unit tests given on the command line (their sources; the
# Makefile passes tests/*/test_*.c) for aarch64 in both fast-path modes and
# runs them under qemu-user.  Skips, saying why, when the cross tools are
# missing.
# TP_TALLY: passed on to run-tests.sh; a skip counts there as one.
set -u
skipped() { # why
	echo "== aarch64: SKIPPED ($1)"
	[ -z "${TP_TALLY:-}" ] || echo "0 0 1 0" >>"$TP_TALLY"
	exit 0
}
cc=${AARCH64_CC:-aarch64-linux-gnu-gcc}
sysroot=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
out=${TP_BUILD:-build}/aarch64
if ! command -v "$cc" >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1; then
	skipped "install gcc-aarch64-linux-gnu qemu-user and libcmocka-dev:arm64"
fi
if ! printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
	"$cc" -x c - -o /dev/null -lcmocka >/dev/null 2>&1; then
	skipped "no cmocka for arm64: dpkg --add-architecture arm64 && apt-get update && apt-get install libcmocka-dev:arm64"
fi
mkdir -p "$out"
# Threaded tests crawl or hang under this machine's qemu-user (even a trivial
# pthread program does); they run natively in the x86-64 passes.
emulated() { # test source: is it run under qemu?
	case "$1" in
	*test_batch_threads.c|*test_concurrency.c|*test_control.c|*test_crash.c|*test_grace.c|*test_flight.c|*test_fork.c|*test_sink_thread_exit.c|*test_sink_no_key.c|*test_process_events.c|*test_sink_concurrency.c|*test_sink_drops.c|*test_synchronize.c)
		return 1 ;;
	esac
}
# Both modes' binaries first, TP_JOBS (default: the number of CPUs) at a
# time; a failed build leaves no binary and its log on stdout.
# shellcheck disable=SC2016 # the script is sh -c's: expanded there
for mode in static portable; do
	for src in "$@"; do
		if emulated "$src"; then echo "$mode $src"; fi
	done
done | AARCH64_CC=$cc xargs -P "${TP_JOBS:-$(nproc 2>/dev/null || echo 1)}" -n 2 sh -c '
	flags=; [ "$1" = portable ] && flags=-DTRACEPOINT_PORTABLE
	bin=$0/$1-$(basename "$2" .c)
	rm -f "$bin"
	"$AARCH64_CC" -Iinclude -Itests/include -O2 -g -Wall -Wextra -Wundef -Werror $flags "$2" -o "$bin" \
		-lcmocka -ldl -lpthread >"$bin.build.log" 2>&1 || cat "$bin.build.log"' "$out"
status=0
for mode in static portable; do
	echo "== aarch64 $mode mode ($cc, qemu-aarch64)"
	bins=""
	for src in "$@"; do
		if ! emulated "$src"; then echo "skip under qemu (threads crawl emulated): $src"; continue; fi
		bins="$bins $out/$mode-$(basename "$src" .c)" # one that did not build fails
	done
	# shellcheck disable=SC2086 # $bins: the list of binaries
	TP_RUNNER="timeout -s KILL 300 qemu-aarch64 -L $sysroot" TP_BUILD="$out/$mode" scripts/run-tests.sh $bins || status=1
done
exit $status
