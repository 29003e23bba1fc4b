#!/bin/sh
# Makes sure cmocka (the unit-test framework) is installed before `make check`.
# As root on Debian/Ubuntu it installs libcmocka-dev with apt-get and says so;
# otherwise it stops with the exact command to run.
set -eu
CC=${CC:-cc}
probe() {
	printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
		$CC -x c - -o /dev/null -lcmocka >/dev/null 2>&1
}
probe && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "need-cmocka: cmocka is missing; installing libcmocka-dev with apt-get (running as root)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q libcmocka-dev >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libcmocka-dev >/dev/null; }
	probe && exit 0
	echo "need-cmocka: apt-get ran but cmocka still does not link" >&2
	exit 1
fi
echo "need-cmocka: the tests need cmocka. Install it with:" >&2
echo "    sudo apt-get install libcmocka-dev" >&2
exit 1
