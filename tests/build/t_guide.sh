#!/bin/sh
# docs/guide.md, done as it says: its files (each code block after a line
# "<!-- file: PATH -->") written into $B, the library installed with
# make install prefix=/tp DESTDIR=$B/dest, and then
#  - pkg-config: the guide's Makefile builds kvd with -Wall -Wextra
#    -Werror and only the installed headers (cc -H); it runs; TRACEPOINTS=list
#    prints the five events the guide shows;
#  - a recorded run: 4000 of each net event and of each store slice end,
#    a store_entries counter, no drop, the text lines as the guide shows
#    them;
#  - the guide's filter (a label, a number, a second group): only DEL
#    requests longer than 2000, and store_entries; the misspelt label's
#    message, as the guide quotes it;
#  - make STORE=0: store compiled out (two events listed, no store symbol);
#  - tracepoint-dump --perfetto writes the file, and protoc decodes it
#    against tests/tools/perfetto/perfetto_min.proto (when installed);
#  - CMake (when installed): the guide's CMakeLists.txt finds the install,
#    builds, -DSTORE_TRACE=OFF leaves store out.
# Skipped without pkg-config.
. tests/lib.sh
need pkg-config
B=$(cd "$B" && pwd)
ROOT=$(pwd)
P=$B/dest/tp

# The guide's files.
mkdir -p "$B/kvd/events"
awk -v dir="$B" '
	/^<!-- file: .* -->$/ { path = $3; want = 1; next }
	want && /^```/ { if (open) { close(out); open = 0; want = 0 } else { out = dir "/" path; open = 1 }; next }
	open { print > out }' docs/guide.md
files=$(cd "$B" && find kvd -type f | sort | tr '\n' ' ')
if [ "$files" = "kvd/CMakeLists.txt kvd/Makefile kvd/events/net_events.h kvd/events/store_events.h kvd/kvd.c kvd/recorder.c " ]; then
	ok "the guide's six files: $files"
else fail "the guide's files: $files"; fi

run "$B/install.log" make --no-print-directory install B="$B/build" prefix=/tp DESTDIR="$B/dest" ||
	{ fail "make install"; finish; }
PKG_CONFIG_PATH=$P/lib/pkgconfig
PATH=$P/bin:$PATH
export PKG_CONFIG_PATH PATH

cd "$B/kvd" || exit 1
if run "$B/make.log" make CC="$CC" CFLAGS="-O2 $WARN -H" && ./kvd >"$B/plain.out" 2>"$B/plain.err" &&
	grep -q '^kvd: [0-9]* entries$' "$B/plain.out" && [ ! -s "$B/plain.err" ]; then
	ok "make with pkg-config builds kvd (-Werror); it runs: $(tail -n 1 "$B/plain.out")"
else fail "pkg-config build or plain run"; cat "$B/plain.err"; fi
if grep -q "^\.* $P/lib/pkgconfig/../../include/tracepoint.h$" "$B/make.log" &&
	! grep -q "$ROOT/include" "$B/make.log"; then ok "the installed headers, not the tree's"
else fail "which tracepoint.h: $(grep 'tracepoint.h$' "$B/make.log" | head -n 2)"; fi
# (sorted: the order is the link's, which differs between gcc and clang)
list=$(TRACEPOINTS=list ./kvd | LC_ALL=C sort | tr '\n' ';')
want='net:net_reply (int status, unsigned len);net:net_request (int method, string key, unsigned len);store:store_entries (long entries) [counter];store:store_op_begin (string op, unsigned bucket) [slice_begin];store:store_op_end (string op, unsigned bucket) [slice_end];'
if [ "$list" = "$want" ]; then ok "TRACEPOINTS=list: the five events of the guide"
else fail "list: $list"; fi

TRACEPOINTS='net:*,store:*' TRACEPOINTS_DIR=tr ./kvd >/dev/null 2>"$B/rec.err"
sum=$(tracepoint-dump --summary tr | awk '/^dropped/ { print "dropped", $2 } / net:| store:/ { print $1, $2 }' | tr '\n' ';')
if echo "$sum" | grep -Eq '^dropped 0;4000 net:net_reply;4000 net:net_request;4000 store:store_op_begin;4000 store:store_op_end;[0-9]+ store:store_entries;$'; then
	ok "recorded: $sum"
else fail "summary: $sum"; cat "$B/rec.err"; fi
if grep -q '^tracepoints: trace in tr/kvd-[0-9]* ([0-9.]* KiB); read it with: tracepoint-dump tr$' "$B/rec.err"; then
	ok "the summary line as the guide shows it"
else fail "rec.err: $(cat "$B/rec.err")"; fi
tracepoint-dump tr >"$B/tr.txt"
if grep -Eq '^[0-9]+\.[0-9]{9} [0-9]+ net:net_request method=(GET|PUT|DEL) key=key[0-9]+ len=[0-9]+$' "$B/tr.txt" &&
	grep -Eq '^[0-9.]+ [0-9]+ store:store_op_end op=(get|put|del) bucket=[0-9]+$' "$B/tr.txt" &&
	grep -Eq '^[0-9.]+ [0-9]+ net:net_reply status=(200|201|404) len=[0-9]+$' "$B/tr.txt"; then
	ok "the text lines look as the guide shows them"
else fail "text: $(head -n 5 "$B/tr.txt")"; fi

TRACEPOINTS='net:net_request if method == "DEL" && len > 2000; store:store_entries' TRACEPOINTS_DIR=tf \
	./kvd >/dev/null 2>"$B/tf.err"
tracepoint-dump tf >"$B/tf.txt"
nreq=$(grep -c ' net:net_request ' "$B/tf.txt")
other=$(grep ' net:net_request ' "$B/tf.txt" | awk '{ split($6, l, "="); if ($4 != "method=DEL" || l[2] + 0 <= 2000) n++ } END { print n + 0 }')
nent=$(grep -c ' store:store_entries ' "$B/tf.txt")
rest=$(grep -vc ' net:net_request \| store:store_entries ' "$B/tf.txt")
if [ "$nreq" -gt 0 ] && [ "$other" = 0 ] && [ "$nent" -gt 0 ] && [ "$rest" = 0 ]; then
	ok "the guide's filter: $nreq DEL requests longer than 2000, $nent store_entries, nothing else"
else fail "filter: $nreq requests ($other others), $nent counters, $rest other lines"; fi
TRACEPOINTS='net:net_request if method == "DELETE"' ./kvd >/dev/null 2>"$B/label.err"
if grep -qF 'tracepoints: bad filter for net:net_request: no label "DELETE" for method (its labels: GET, PUT, DEL); did you mean "DEL"? at position 31' "$B/label.err" &&
	[ "$(tail -n 1 "$B/label.err")" = "                                ^" ]; then
	ok "the misspelt label: the guide's message and caret"
else fail "label: $(cat "$B/label.err")"; fi

if run "$B/perfetto.log" tracepoint-dump --perfetto tr -o kvd.pftrace && [ -s kvd.pftrace ]; then
	ok "--perfetto: $(wc -c <kvd.pftrace) bytes"
	if have protoc; then
		pm=$ROOT/tests/tools/perfetto
		if protoc --decode=perfetto.protos.Trace -I"$pm" "$pm/perfetto_min.proto" <kvd.pftrace >"$B/pf.txt" 2>"$B/pf.err" &&
			grep -q '"store_op"' "$B/pf.txt" && grep -q '"store_entries"' "$B/pf.txt"; then
			ok "protoc decodes it: store_op slices, store_entries counter"
		else fail "protoc: $(head -c 300 "$B/pf.err")"; fi
	else skip_part "protoc not installed"; fi
else fail "--perfetto"; fi

if ! run "$B/make0.log" make clean || ! run "$B/make0.log" make CC="$CC" STORE=0; then fail "make STORE=0"; fi
list=$(TRACEPOINTS=list ./kvd | LC_ALL=C sort | tr '\n' ';')
if [ "$list" = "net:net_reply (int status, unsigned len);net:net_request (int method, string key, unsigned len);" ] &&
	! nm kvd | grep -q store; then ok "make STORE=0: two events listed, no store symbol"
else fail "STORE=0: $list, $(nm kvd | grep -c store) store symbols"; fi

if have cmake; then
	if run "$B/cmake.log" cmake -S . -B b -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" &&
		run "$B/cmake-build.log" cmake --build b && [ "$(TRACEPOINTS=list b/kvd | wc -l)" = 5 ]; then
		ok "CMake: find_package finds the install, b/kvd lists five events"
	else fail "CMake build"; fi
	if run "$B/cmake-off.log" cmake -S . -B b0 -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" -DSTORE_TRACE=OFF &&
		run "$B/cmake-off-build.log" cmake --build b0 && [ "$(TRACEPOINTS=list b0/kvd | wc -l)" = 2 ]; then
		ok "CMake -DSTORE_TRACE=OFF: two events"
	else fail "CMake STORE_TRACE=OFF"; fi
else skip_part "cmake not installed"; fi
cd "$ROOT" || exit 1
finish
