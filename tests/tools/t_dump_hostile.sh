#!/bin/sh
# tracepoint-dump on traces received from someone else (issue 27, part 3):
# hostile directories and crafted bytes, each pinned here.
#  - --repair of a trace holding a planted .stream-N.repair link to a file
#    outside the trace (and a planted regular file of that name): the file
#    outside is left as it was (content and mode), the trace is repaired
#    and babeltrace2 reads it;
#  - a 4 GiB sparse stream file (16 KiB on disk): no more than a second and
#    100 MB, exit 1 naming the zeros at its end; one sparse window of
#    zeros (a crashed writer's leftover) is still a warning, exit 0;
#  - a session with six symbolic links to itself: its trace read once,
#    exit 0, the links named; a trace with a link child -> . : --all reads
#    it once, --repair repairs it once; a session is searched 8 levels down;
#  - FIFOs as metadata and as a stream, a link as a stream: no hang, exit 1,
#    named, the rest read;
#  - an event whose timestamp lies after its packet's end (babeltrace2
#    refuses the trace): exit 1, and --repair does not call it readable;
#  - metadata other than the recorder writes (babeltrace2 refuses it): read,
#    but --repair does not call it readable;
#  - a duplicated, two swapped and a missing packet: exit 1 naming the
#    stream and the offset, every event read once and in order; --repair
#    rewrites the first two in packet_seq_num order ("readable", and
#    babeltrace2 reads them, as tracepoint-dump reads the original) and says
#    that packets are missing in the third (exit 1);
#  - dump_hostile/seqread_oob, a crafted trace (TP_printk printing a
#    __dynamic_array with %d, a record with no element at the very end of a
#    page-sized stream): read within the mapping under AddressSanitizer.
# The seed trace: recorder_life/life.c, 2000 events in 4 KiB packets.
. tests/lib.sh
dump_tool
cc_build -Itests/include -DCONFIG_EVH tests/recorder/recorder_life/life.c -o "$B/life" -lpthread -ldl
TRACEPOINTS='evh:*' TRACEPOINTS_DIR=$B/seed TRACEPOINTS_BUFFER_KB=4 "$B/life" many 2000 >/dev/null 2>&1 ||
	{ fail "the seed trace"; finish; }
set -- "$B"/seed/*/
SEED=${1%/}
set -- "$SEED"/stream-*
ST=$(basename "$1")
"$DUMP" "$SEED" >"$B/seed.txt" 2>"$B/seed.err" || { fail "the seed trace does not read"; finish; }
if [ "$(grep -c evh_step "$B/seed.txt")" != 2000 ] || [ "$(wc -c <"$1")" != 16384 ]; then
	fail "the seed trace: want 2000 events in 4 packets"
	finish
fi
have babeltrace2 || skip_part "babeltrace2 not installed (apt-get install babeltrace2): its checks"
bt_reads() { # dir: babeltrace2 reads it (true without babeltrace2)
	! have babeltrace2 || babeltrace2 "$1" >/dev/null 2>"$B/bt.err"
}
timed() { # log command...: runs it with a 20 s limit; $B/time holds "seconds max-RSS-KB" if it can
	_log=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$B/time.raw" -f "%e %M" timeout 20 "$@" >"$_log" 2>"$_log.err"
		_rc=$?
		tail -n 1 "$B/time.raw" >"$B/time" # after "Command exited with non-zero status 1"
		return $_rc
	else
		echo "0 0" >"$B/time"
		timeout 20 "$@" >"$_log" 2>"$_log.err"
	fi
}
trace() { # name: a copy of the seed trace as $B/name/t; sets t and f (its stream)
	mkdir -p "$B/$1" && cp -r "$SEED" "$B/$1/t" || exit 1
	t=$B/$1/t
	f=$t/$ST
}

# ---- 1. --repair and a planted .stream-N.repair
trace plant
printf 'precious user data\n' >"$B/victim.txt" && chmod 600 "$B/victim.txt"
cp "$B/victim.txt" "$B/victim.orig"
head -c 200 /dev/zero >>"$f" # an unfinished trailing packet: --repair rewrites the stream
chmod 666 "$f"
ln -s ../../victim.txt "$t/.$ST.repair"
"$DUMP" --repair "$t" >"$B/plant.out" 2>&1; rc=$?
if cmp -s "$B/victim.txt" "$B/victim.orig" && [ -n "$(find "$B/victim.txt" -perm 0600)" ]; then
	ok "a planted .$ST.repair link: the file it names is left as it was (content, mode 0600)"
else fail "the planted link's target was changed: $(od -An -tx1 "$B/victim.txt" | head -1)"; fi
if [ $rc = 0 ] && grep -q 'repaired; the trace is readable' "$B/plant.out" && [ "$(wc -c <"$f")" = 16384 ] &&
	[ -L "$t/.$ST.repair" ] && [ "$(count "$t"/.*.repair-*)" = 0 ] && bt_reads "$t"; then
	ok "... and the trace is repaired (16384 bytes, readable by babeltrace2), the link left, no temporary file"
else fail "repair beside a planted link (exit $rc)"; cat "$B/plant.out"; fi
trace plantf
head -c 200 /dev/zero >>"$f"
printf 'planted\n' >"$t/.$ST.repair"
"$DUMP" --repair "$t" >"$B/plantf.out" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(cat "$t/.$ST.repair")" = planted ] && [ "$(wc -c <"$f")" = 16384 ]; then
	ok "a planted regular .$ST.repair file: left as it was, the trace repaired"
else fail "planted regular file (exit $rc)"; cat "$B/plantf.out"; fi

# ---- 2. sparse stream files
trace sparse
if have truncate; then truncate -s 4G "$f"; else dd if=/dev/null of="$f" bs=1 seek=4294967296 2>/dev/null; fi
timed "$B/sparse.txt" "$DUMP" "$t"; rc=$?
read -r secs kb <"$B/time"
if [ $rc = 1 ] && grep -q "$ST: byte 16384: a packet header of zeros.*not a crashed writer's leftover" "$B/sparse.txt.err" &&
	[ "$(grep -c evh_step "$B/sparse.txt")" = 2000 ] && [ "${secs%.*}" -lt 1 ] && [ "$kb" -lt 100000 ]; then
	ok "a 4 GiB sparse stream: $secs s, $kb KB, exit 1, the zeros named, the 2000 events read"
else fail "a 4 GiB sparse stream: exit $rc, $secs s, $kb KB"; head -5 "$B/sparse.txt.err"; fi
"$DUMP" --repair "$t" >"$B/sparse.rep" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(wc -c <"$f")" = 16384 ] && bt_reads "$t"; then ok "... --repair cuts it to its 4 packets"
else fail "--repair of the sparse stream (exit $rc)"; cat "$B/sparse.rep"; fi
trace leftover
if have truncate; then truncate -s 20480 "$f"; else dd if=/dev/null of="$f" bs=1 seek=20480 2>/dev/null; fi
"$DUMP" "$t" >/dev/null 2>"$B/leftover.err"; rc=$?
if [ $rc = 0 ] && grep -q 'warning: incomplete trailing packet' "$B/leftover.err"; then
	ok "one sparse window of zeros at the end (a crashed writer's): a warning, exit 0"
else fail "a sparse trailing window: exit $rc"; cat "$B/leftover.err"; fi

# ---- 3. links to itself
mkdir -p "$B/loop/sess" && cp -r "$SEED" "$B/loop/sess/t" || exit 1
for l in a b c d e f; do ln -s . "$B/loop/sess/$l"; done
timed "$B/loop.txt" "$DUMP" "$B/loop/sess"; rc=$?
read -r secs kb <"$B/time"
if [ $rc = 0 ] && [ "$(grep -c evh_step "$B/loop.txt")" = 2000 ] &&
	[ "$(grep -c 'sess/[a-f]: warning: a symbolic link: not read' "$B/loop.txt.err")" = 6 ] &&
	[ "$("$DUMP" --summary "$B/loop/sess" 2>/dev/null | grep -c '^trace ')" = 1 ]; then
	ok "a session with 6 links to itself: its trace read once ($secs s), each link named once, exit 0"
else fail "a session with links to itself: exit $rc, $(grep -c evh_step "$B/loop.txt") events, $secs s"; head -8 "$B/loop.txt.err"; fi
d=$B/deep/s
for l in 1 2 3 4 5 6 7 8 9; do d=$d/$l; done
mkdir -p "$d" && cp -r "$SEED" "$d/t" || exit 1
timeout 20 "$DUMP" "$B/deep/s" >/dev/null 2>"$B/deep.err"; rc=$?
if [ $rc = 1 ] && grep -q 'deep/s/1/2/3/4/5/6/7/8: warning: more than 8 directories deep: not searched' "$B/deep.err"; then
	ok "a session 10 directories deep: searched 8 levels down, saying so"
else fail "a deep session: exit $rc"; cat "$B/deep.err"; fi
trace child
ln -s . "$t/child"
n=$(timeout 20 "$DUMP" --all "$t" 2>/dev/null | grep -c evh_step)
timeout 20 "$DUMP" --repair "$t" >"$B/child.rep" 2>&1; rc=$?
if [ "$n" = 2000 ] && [ $rc = 0 ] && [ "$(grep -c 'the trace is readable' "$B/child.rep")" = 1 ]; then
	ok "a trace with child -> . : --all reads it once, --repair repairs it once"
else fail "child -> . : --all read $n events; --repair exit $rc"; head -5 "$B/child.rep"; fi

# ---- 4. FIFOs and links where files are expected
trace fifo
rm "$t/metadata" && mkfifo "$t/metadata"
timed "$B/fifo.txt" "$DUMP" "$t"; rc=$?
if [ $rc = 1 ] && grep -q 'metadata: cannot read: a FIFO' "$B/fifo.txt.err"; then ok "a FIFO as metadata: exit 1 at once, named"
else fail "a FIFO as metadata: exit $rc (124: it hung)"; cat "$B/fifo.txt.err"; fi
trace fifo2
mkfifo "$t/stream-9" && ln -s "$ST" "$t/stream-77" && ln -s ../../victim.txt "$t/stream-78"
timed "$B/fifo2.txt" "$DUMP" "$t"; rc=$?
if [ $rc = 1 ] && [ "$(grep -c evh_step "$B/fifo2.txt")" = 2000 ] && grep -q 'stream-9: a FIFO: not read' "$B/fifo2.txt.err" &&
	grep -q 'stream-77: a symbolic link: not read' "$B/fifo2.txt.err" && grep -q 'stream-78: a symbolic link: not read' "$B/fifo2.txt.err"; then
	ok "a FIFO and links as streams: not opened, named, exit 1, the real stream read once"
else fail "a FIFO or links as streams: exit $rc (124: it hung)"; cat "$B/fifo2.txt.err"; fi

# ---- 5. duplicated, swapped and missing packets
packets() { # name packet...: a copy of the seed trace whose stream holds these 4 KiB packets
	trace "$1"
	shift
	: >"$f"
	for p in "$@"; do dd if="$SEED/$ST" bs=4096 skip="$p" count=1 2>/dev/null >>"$f"; done
}
for c in "dup 0 1 1 2 3" "swap 0 2 1 3" "miss 0 2 3"; do
	# shellcheck disable=SC2086 # the packet list is split on purpose
	packets $c
	m=${c%% *}
	"$DUMP" "$t" >"$B/$m.txt" 2>"$B/$m.err"; rc=$?
	case $m in
	# (the stream file's packets are numbered from 1: 0 is its ring's lead)
	dup) want="$ST: byte 8192: a copy of the packet at byte 4096 (packet_seq_num 2); ignored" n=2000 ;;
	swap) want="$ST: byte 8192: packet_seq_num 2 after 3: packets duplicated or out of order" n=2000 ;;
	*) want="$ST: byte 4096: packet 2 missing: packet_seq_num 3 follows 1" n=1500 ;;
	esac
	# in time order: by the first column only (-s), two events of one tick
	# are in order whatever their text
	if [ $rc = 1 ] && grep -q "$want" "$B/$m.err" && [ "$(grep -c evh_step "$B/$m.txt")" = $n ] &&
		sort -c -s -k1,1n "$B/$m.txt" 2>/dev/null; then
		ok "$m: exit 1, '$want', $n events in order"
	else fail "$m: exit $rc, $(grep -c evh_step "$B/$m.txt") events"; cat "$B/$m.err"; fi
	"$DUMP" --repair "$t" >"$B/$m.rep" 2>&1; rc=$?
	if [ "$m" = miss ]; then
		if [ $rc = 1 ] && grep -q 'the trace is readable, but packets are missing' "$B/$m.rep" && bt_reads "$t"; then
			ok "$m: --repair says that packets are missing, exit 1 (babeltrace2 reads it)"
		else fail "$m: --repair exit $rc"; cat "$B/$m.rep"; fi
	elif [ $rc = 0 ] && grep -q 'repaired; the trace is readable' "$B/$m.rep" && bt_reads "$t" &&
		"$DUMP" "$t" 2>&1 | cmp -s - "$B/seed.txt"; then
		ok "$m: --repair rewrites the stream in order: readable (babeltrace2 too), the seed's events"
	else fail "$m: --repair exit $rc, then babeltrace2 or tracepoint-dump"; cat "$B/$m.rep" "$B/bt.err" 2>/dev/null | head -5; fi
done

# an event's compact timestamp pushed 2^25 ticks on (bit 25 flipped): after
# its packet's end, so the stream goes back in time at the next packet
trace late
o=$((4096 + 96 + 3))
b=$(od -An -tu1 -j $o -N 1 "$f" | tr -d ' ')
# shellcheck disable=SC2059 # the format is the octal escape of the byte
printf "\\$(printf %o $((b ^ 128)))" | dd of="$f" bs=1 seek=$o conv=notrunc 2>/dev/null
"$DUMP" "$t" >/dev/null 2>"$B/late.err"; rc=$?
"$DUMP" --repair "$t" >"$B/late.rep" 2>&1; rrc=$?
if [ $rc = 1 ] && grep -q "$ST: byte 4192: event timestamp after the packet's timestamp_end" "$B/late.err" &&
	[ $rrc = 1 ] && grep -q 'still damaged after repair' "$B/late.rep" && ! grep -q readable "$B/late.rep"; then
	ok "an event after its packet's timestamp_end: exit 1, named; --repair does not call it readable"
else fail "an event after its packet's end: exit $rc, --repair exit $rrc"; cat "$B/late.err" "$B/late.rep"; fi
if have babeltrace2 && babeltrace2 "$t" >/dev/null 2>&1; then
	fail "babeltrace2 reads the trace with a late event: the check is stricter than needed"
fi

# metadata babeltrace2 refuses (an attribute misspelt in the stream block):
# tracepoint-dump reads the events, --repair does not call it readable
trace meta
sed 's/integer { size = 26;/integer { jize = 26;/' "$SEED/metadata" >"$t/metadata"
"$DUMP" "$t" >"$B/meta.txt" 2>&1; rc=$?
"$DUMP" --repair "$t" >"$B/meta.rep" 2>&1; rrc=$?
if [ $rc = 0 ] && [ "$(grep -c evh_step "$B/meta.txt")" = 2000 ] && [ $rrc = 1 ] &&
	grep -q "metadata: not as the recorder writes it (other readers may refuse it): line [0-9]*: 'jize' where the recorder writes 'size'" "$B/meta.rep" &&
	! grep -q readable "$B/meta.rep"; then
	ok "metadata the recorder does not write: read, but --repair does not call it readable (exit 1)"
else fail "metadata not the recorder's: exit $rc, --repair exit $rrc"; cat "$B/meta.rep"; fi
if have babeltrace2 && babeltrace2 "$t" >/dev/null 2>&1; then
	fail "babeltrace2 reads the metadata with 'jize': the check is stricter than needed"
fi

# ---- 6. crafted bytes: a dynamic array printed with %d, last record empty at the end of the mapping
"$DUMP" "$S/seqread_oob" >"$B/oob.txt" 2>"$B/oob.err"; rc=$?
if [ $rc = 0 ] && [ "$(tail -1 "$B/oob.txt" | sed 's/^[0-9.]* //')" = "4242 sk:blob s=-1 n=0 arr={1,2,3} data={}" ]; then
	ok "seqread_oob: %d of a dynamic array falls back to name=value"
else fail "seqread_oob: exit $rc"; tail -n 2 "$B/oob.txt" "$B/oob.err"; fi
if cc_works -fsanitize=address,undefined; then
	# no $WARN: gcc's -Wformat-truncation misfires in this instrumented build
	$CC -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined tools/dump/*.c -o "$B/dump-asan" ||
		{ fail "cannot build tracepoint-dump with AddressSanitizer"; finish; }
	for o in --text --json --summary; do "$B/dump-asan" $o "$S/seqread_oob" >/dev/null 2>"$B/asan$o.err" || break; done
	if [ ! -s "$B/asan$o.err" ]; then ok "seqread_oob under AddressSanitizer and UBSan: --text, --json, --summary"
	else fail "seqread_oob under AddressSanitizer ($o)"; head -12 "$B/asan$o.err"; fi
else
	skip_part "AddressSanitizer: $CC cannot build with -fsanitize=address,undefined here"
fi
finish
