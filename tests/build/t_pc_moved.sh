#!/bin/sh
# tracepoint.pc relocates: `make install` into a DESTDIR, the staged tree
# moved somewhere else, and a consumer (examples/install/hello.c) built with
# only PKG_CONFIG_PATH pointing at the moved tree: its prefix is
# ${pcfiledir}/../.. (../../.. for a multiarch libdir), so -I names the
# moved include/; pkg-config and Meson (dependency('tracepoint')) both.  A
# pkgconfigdir outside the prefix gets the prefix's absolute path.
# shellcheck disable=SC2086,SC2016 # flag lists ($CC, $WARN, $TPF) are split on
# purpose; ${pcfiledir} and $(datadir) are pkg-config's and make's, not ours
. tests/lib.sh
need pkg-config
B=$(cd "$B" && pwd)
S=examples/install
# moved <label> <pkgconfig dir below the prefix> <make variables...>
moved() {
	label=$1 pcrel=$2
	shift 2
	rm -rf "$B/stage" "${B:?}/$label"
	run "$B/$label-install.log" make --no-print-directory install B="$B/build" DESTDIR="$B/stage" prefix=/usr/local "$@" ||
		{ fail "$label: make install"; return; }
	mv "$B/stage/usr/local" "$B/$label"
	pc=$B/$label/$pcrel/tracepoint.pc
	want=$(printf '${pcfiledir}/%s' "$(echo "$pcrel" | sed 's|[^/][^/]*|..|g')")
	if grep -qx "prefix=$want" "$pc"; then ok "$label: prefix=$want"
	else fail "$label: $(grep '^prefix=' "$pc"), want prefix=$want"; fi
	inc=$(PKG_CONFIG_PATH="$B/$label/$pcrel" pkg-config --cflags tracepoint)
	inc=${inc%% }
	if [ "$(cd "${inc#-I}" 2>/dev/null && pwd)" = "$B/$label/include" ]; then ok "$label: pkg-config --cflags names the moved include/ ($inc)"
	else fail "$label: pkg-config --cflags: '$inc'"; fi
	if run "$B/$label-cc.log" $CC -O2 $WARN $TPF -H $inc -DCONFIG_HELLO_TRACE $S/hello.c -o "$B/$label-hello" &&
		used=$(grep -E '^\.+ .*/tracepoint\.h$' "$B/$label-cc.log" | sed 's/^\.* //' | sort -u) &&
		[ "$(cd "$(dirname "$used")" && pwd)" = "$B/$label/include" ] &&
		"$B/$label-hello" | grep -q 'probe: hello_greet(world, 3)'; then
		ok "$label: hello.c built against the moved headers, and ran"
	else fail "$label: build against the moved tree"; fi
	if have meson && have ninja; then
		if run "$B/$label-meson.log" env CC="$CC" PKG_CONFIG_PATH="$B/$label/$pcrel" PKG_CONFIG_LIBDIR= \
			meson setup "$B/$label-mb" $S && run "$B/$label-mb.log" meson compile -C "$B/$label-mb" &&
			"$B/$label-mb/hello" | grep -q 'probe: hello_greet(world, 3)'; then
			ok "$label: Meson's dependency('tracepoint') through the moved .pc"
		else fail "$label: meson through the moved .pc"; fi
	fi
}
run "$B/tools.log" make --no-print-directory B="$B/build" "$B/build/tracepoint-dump" "$B/build/tracepoint-ctl" ||
	{ fail "build the tools"; finish; }
moved default lib/pkgconfig
moved multiarch lib/x86_64-linux-gnu/pkgconfig libdir=/usr/local/lib/x86_64-linux-gnu
moved share share/pkgconfig 'pkgconfigdir=$(datadir)/pkgconfig'

# a pkgconfigdir outside the prefix: the prefix by absolute path
rm -rf "$B/stage"
if run "$B/outside.log" make --no-print-directory install B="$B/build" DESTDIR="$B/stage" prefix=/opt/tp pkgconfigdir=/usr/share/pkgconfig &&
	grep -qx 'prefix=/opt/tp' "$B/stage/usr/share/pkgconfig/tracepoint.pc"; then
	ok "pkgconfigdir outside the prefix: prefix=/opt/tp"
else fail "pkgconfigdir outside the prefix: $(grep '^prefix=' "$B/stage/usr/share/pkgconfig/tracepoint.pc")"; fi
finish
