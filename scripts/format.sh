#!/bin/sh
# scripts/format.sh check|fix [FILE...]: the C style of .clang-format,
# checked (`make format-check`, run by `make check`) or applied (`make
# format`).  clang-format formats every line of a file except the bodies of
# macros (a `#define` and the lines its backslashes continue): clang-format
# 14 cannot lay out the code-generating macros of the headers (asm goto
# strings, TRACE_EVENT passes) and would make them unreadable, so those
# keep the hand layout their comments describe.  Without FILE: every C file
# git knows, except the folders of .clang-format-ignore.  Says so and does
# nothing when clang-format is missing.
set -eu
mode=${1:-check}
[ $# -gt 0 ] && shift
case $mode in check|fix) ;; *) echo "usage: $0 check|fix [FILE...]" >&2; exit 2 ;; esac
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
	echo "== format: SKIPPED ($cf not installed: apt-get install clang-format)"
	exit 0
fi
# The tree is laid out by clang-format 14 (Debian 12's); others lay out a
# few constructs differently, so only 14 checks (any version may fix).
ver=$("$cf" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)
if [ "$mode" = check ] && [ "$ver" != 14 ]; then
	echo "== format: SKIPPED ($cf is version ${ver:-unknown}; the tree follows clang-format 14)"
	exit 0
fi
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
	ignore=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' .clang-format-ignore 2>/dev/null || true)
	# shellcheck disable=SC2046 # the file list: paths without blanks
	set -- $( { git ls-files '*.c' '*.h' 2>/dev/null || find include tools examples bench tests -name '*.[ch]'; } | while read -r f; do
		skip=
		for i in $ignore; do case $f in "$i"*) skip=1 ;; esac; done
		[ -n "$skip" ] || echo "$f"
	done)
fi
# The --lines ranges of a file's lines outside macro bodies.
ranges() {
	awk '
	function flush(to) { if (start && to >= start) printf " --lines=%d:%d", start, to; start = 0 }
	{
		if (!inmacro && $0 ~ /^[ \t]*#[ \t]*define[ \t]/) { flush(NR - 1); inmacro = 1 }
		if (inmacro) { if ($0 !~ /\\$/) inmacro = 0; next }
		if (!start) start = NR
	}
	END { flush(NR) }' "$1"
}
bad=0; n=0
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for f in "$@"; do
	n=$((n + 1))
	r=$(ranges "$f")
	[ -n "$r" ] || continue
	# shellcheck disable=SC2086 # $r: the --lines options
	"$cf" --style=file $r "$f" >"$tmp"
	if ! cmp -s "$f" "$tmp"; then
		if [ "$mode" = fix ]; then
			cat "$tmp" >"$f"; echo "formatted: $f"
		else
			bad=$((bad + 1))
			diff -u "$f" "$tmp" | sed -n '1,12p'
		fi
	fi
done
if [ "$mode" = check ]; then
	if [ $bad -ne 0 ]; then
		echo "== format: $bad of $n files differ from .clang-format (make format applies it)"
		exit 1
	fi
	echo "== format: $n files follow .clang-format"
fi
