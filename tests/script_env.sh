# Sourced by script tests after they set T (the test's name): the source
# directory S, the artifact directory B (emptied), the compilers, and TPF,
# the fast-path mode flags tools/run-tests.sh passes down in TP_CFLAGS.
S=tests/$T
B=${TP_BUILD:-build}/$T
TPF=${TP_CFLAGS:-}
echo "mode flags (TP_CFLAGS): ${TPF:-none}; artifacts in $B"
CC=${CC:-cc}
CXX=${CXX:-c++}
rm -rf "$B" && mkdir -p "$B" || exit 1
