#!/bin/sh
# Misuse must not compile, and for the intended reason: every failing case
# has a control that differs minimally and must compile, and where the
# header has a message of its own the compiler output must contain it.
#  (a) register_trace_<name>(probe of the wrong type): C with -Werror fails,
#      C++ fails even without -Werror; the right type compiles.
#  (b) DEFINE_TRACE / EXPORT_TRACEPOINT_SYMBOL after another event header
#      with a different TRACE_CONFIG decision: static assert "sees another
#      TRACE_CONFIG decision"; in time, or with the same decision, compiles.
#  (c) -DCONFIG_TRACEPOINTS_OFF together with -DCONFIG_TRACEPOINTS_ALL: #error;
#      either one alone compiles.
#  (d) -std=gnu89 (and -fgnu89-inline): #error about C99 inline semantics;
#      -std=gnu99 compiles.
#  (e) a TRACE_EVENT whose fixed fields exceed 65535 bytes: static assert
#      "take more than 65535 bytes"; one byte less compiles.
#  (f) -DCONFIG_X=y or =m: #error "defined as y or m"; =1 compiles.
#  (g) an internal header (include/tracepoint/*.h) included on its own:
#      #error "... is internal"; each included again after <tracepoint.h>
#      compiles (C and C++).  The exception, tracepoint/version.h (public,
#      macros only), compiles on its own (C89, C++98, -Wpedantic) and its
#      TRACEPOINT_VERSION, _STRING and parts agree.
#  (h) a file whose event headers are all compiled out calls a
#      tracepoint_*() function: error "#include <tracepoint.h> in this file"
#      (C, C++; gcc and clang); with that include it compiles, also when
#      the include comes after the event header.
#  (i) __get_str() or __assign_str() of a name that is no __string() of the
#      event (a typo): error naming tp__ev_s_<typo>, as the kernel fails on
#      it; the right name compiles (C and C++).
#  (j) TP_ARGS(void) (a prototype's habit) in DECLARE_TRACE or TRACE_EVENT:
#      static assertion "a tracepoint without arguments has TP_PROTO(void),
#      TP_ARGS()", also compiled out; TP_ARGS() compiles (C and C++).
#  (k) a DEFINE_EVENT whose TP_PROTO differs from its class's (the events of
#      a class share its recorder probe): static assertion "its TP_PROTO
#      differs from its class's" (C, C++); the class's prototype compiles.
# Mistakes whose first diagnostic must name the cause, at most 10 lines
# into the compiler's or linker's output (must_say counts them; the sources
# are kv_*.c and ev_kv*.h; docs/troubleshooting.md has each):
#  (l) events compiled in, and no file defines them: no CREATE_TRACE_POINTS,
#      or the defining file built without the switch: undefined reference
#      to tracepoint_events_of_kv_need_CREATE_TRACE_POINTS_in_one_file...;
#      CREATE_TRACE_POINTS in two files: multiple definition of it; one
#      defining file links and runs, also when it read the headers once
#      before CREATE_TRACE_POINTS, as the kernel's files do (C and C++;
#      -O0, -O2).
#  (m) an event header whose include guard is another's (copied with it),
#      or that sets a second TRACE_SYSTEM inside: undeclared
#      tracepoint_header_of_<sys>_not_read_copied_include_guard_or_...
#      (C, C++).
#  (n) define_trace.h cannot re-read the header (no -I for it, or a wrong
#      TRACE_INCLUDE_PATH / TRACE_INCLUDE_FILE): #error naming both macros,
#      then the path tried.
#  (o) a probe in the kernel's order (void *data first): an error (its
#      note names the parameter tp__probe_takes_the_args_then_data) without
#      -Werror, in C and C++, with gcc and clang.
#  (p) an enum in the guarded part of an event header without a guard of
#      its own: "redeclaration of enum" (gcc), "redefinition of" (clang)
#      in the defining file, the compiler's words (troubleshooting.md
#      says the cause); with its own guard it compiles.
# Positive checks that must produce no diagnostic at all:
#  - every file-scope macro followed by ';' under -Wpedantic (C99, C11, C++),
#    plus -Wextra-semi where the compiler has it;
#  - the selection with CONFIG_X undefined / =0 / = (empty) / =1 / bare
#    -DCONFIG_X, and the global switches, under -Wundef -Wextra
#    -Wexpansion-to-defined; the decision is checked at run time.
# shellcheck disable=SC2086 # flag lists ($CC, $WARN, $I ...) are split on purpose
. tests/lib.sh

WARN="-Wall -Wextra -Wundef" # here without -Werror: each case says
n=0

# must_fail <case> <expected text (ERE) or ""> <compiler and args...>
must_fail() {
	name=$1 want=$2; shift 2
	n=$((n + 1))
	log="$B/$name.log"
	if "$@" -c -o "$B/$name.o" >"$log" 2>&1; then
		fail "$name: compiled, but must not: $*"; return
	fi
	if [ -n "$want" ] && ! grep -Eq "$want" "$log"; then
		fail "$name: failed, but the message lacks /$want/:"; sed 's/^/    /' "$log"; return
	fi
	ok "$name fails to compile${want:+ with /$want/}"
}

# must_build <case> <compiler and args...>: compiles with no diagnostic at all
must_build() {
	name=$1; shift
	n=$((n + 1))
	log="$B/$name.log"
	if ! "$@" -c -o "$B/$name.o" >"$log" 2>&1; then
		fail "$name: does not compile: $*"; sed 's/^/    /' "$log"; return 1
	fi
	if [ -s "$log" ]; then
		fail "$name: compiles, with diagnostics: $*"; sed 's/^/    /' "$log"; return 1
	fi
	ok "$name compiles without a diagnostic"
}

# must_say <case> <expected text (ERE)> <command...>: the command (a
# compile or a link, given whole) fails, and its output has a line with the
# text after at most 10 lines.
must_say() {
	name=$1 want=$2; shift 2
	n=$((n + 1))
	log="$B/$name.log"
	if "$@" >"$log" 2>&1; then
		fail "$name: succeeded, but must not: $*"; return
	fi
	at=$(grep -nE -m1 "$want" "$log" | cut -d: -f1)
	if [ -z "$at" ]; then
		fail "$name: failed, but no line says /$want/:"; sed 's/^/    /' "$log"; return
	fi
	if [ $((at - 1)) -gt 10 ]; then
		fail "$name: /$want/ comes after $((at - 1)) lines (at most 10):"; sed 's/^/    /' "$log"; return
	fi
	ok "$name fails, saying /$want/ after $((at - 1)) of $(wc -l <"$log") lines"
}

I="$TPF -Iinclude -I$S"

echo "== (a) probe of the wrong type"
must_fail a-c-wrong-probe 'incompatible' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A -DWRONG "$S/probe_type.c"
must_build a-c-right-probe $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A "$S/probe_type.c"
must_fail a-c-wrong-probe-out 'incompatible' $CC -std=c11 $WARN -Werror $I -DWRONG "$S/probe_type.c"
must_build a-c-right-probe-out $CC -std=c11 $WARN -Werror $I "$S/probe_type.c"
must_fail a-cxx-wrong-probe-no-Werror 'invalid conversion|cannot initialize|no matching function|cannot convert' \
	$CXX -x c++ -std=c++11 $I -DCONFIG_CF_A -DWRONG "$S/probe_type.c"
must_build a-cxx-right-probe $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_A "$S/probe_type.c"
must_fail a-cxx-wrong-probe-out-no-Werror 'invalid conversion|cannot initialize|no matching function|cannot convert' \
	$CXX -x c++ -std=c++11 $I -DWRONG "$S/probe_type.c"

echo "== (e) an event entry too large for its 16-bit offsets and sizes"
must_fail e-entry-too-big 'take.more.than.65535.bytes' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_BIG -DBIG_LEN=65532 "$S/big.c"
must_build e-entry-at-the-limit $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_BIG -DBIG_LEN=65531 "$S/big.c"
must_fail e-entry-too-big-cxx 'take.more.than.65535.bytes' $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_BIG -DBIG_LEN=65532 "$S/big.c"

echo "== (f) a switch defined as y or m (Kconfig habit) is an error, not compiled out"
must_fail f-kconfig-y 'defined as y or m' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A=y "$S/plain.c"
must_fail f-kconfig-m 'defined as y or m' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A=m "$S/plain.c"
must_build f-kconfig-1 $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A=1 "$S/plain.c"

echo "== (i) __get_str() / __assign_str() of a name that is no __string()"
must_fail i-get-str-typo 'tp__ev_s_wo' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_STR -DGET_NAME=wo "$S/str.c"
must_fail i-assign-str-typo 'tp__ev_s_wo' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_STR -DASSIGN_NAME=wo "$S/str.c"
must_fail i-get-str-typo-cxx 'tp__ev_s_wo' $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_STR -DGET_NAME=wo "$S/str.c"
must_build i-str-right $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_STR "$S/str.c"
must_build i-str-right-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_STR "$S/str.c"

echo "== (j) TP_ARGS(void) for a tracepoint without arguments"
must_fail j-args-void 'TP_ARGS.void. in the declaration of cf_av_plain' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_AV -DARGS_V=void "$S/args_void.c"
must_fail j-args-void-event 'TP_ARGS.void. in the declaration of cf_av_ev' $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_AV -DARGS_V=void "$S/args_void.c"
must_fail j-args-void-out 'TP_ARGS_void_in_the_declaration_of_cf_av_plain|TP_ARGS.void. in the declaration of cf_av_plain' $CC -std=gnu99 $WARN -Werror $I -DARGS_V=void "$S/args_void.c"
must_fail j-args-void-cxx 'TP_ARGS.void. in the declaration of cf_av_plain' $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_AV -DARGS_V=void "$S/args_void.c"
must_build j-args-empty $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_AV "$S/args_void.c"
must_build j-args-empty-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_AV "$S/args_void.c"

echo "== (k) a DEFINE_EVENT whose prototype is not its class's"
msg='event cf_cls_write of class cf_cls: its TP_PROTO differs from its class'
must_fail k-class-proto "$msg" $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_CLS -DEV_TYPE=short "$S/class.c"
must_fail k-class-proto-c99 'tp__ev_proto_of_cf_cls_write_differs_from_its_class|differs from its class' $CC -std=gnu99 $WARN $I -DCONFIG_CF_CLS -DEV_TYPE=short "$S/class.c"
must_fail k-class-proto-cxx "$msg" $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_CLS -DEV_TYPE=short "$S/class.c"
must_build k-class-same $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_CLS "$S/class.c"
must_build k-class-same-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_CLS "$S/class.c"
must_build k-class-out $CC -std=c11 $WARN -Werror $I -DEV_TYPE=short "$S/class.c"

echo "== (b) DEFINE_TRACE / EXPORT after an event header with another decision"
# C11 and C++ print the static assertion's text; before C11 the text is the
# name of the array type whose size turns negative (underscores for spaces).
msg='sees.another.TRACE_CONFIG.decision'
must_fail b-late-define-in-after-out "$msg" $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A -DLATE "$S/decision.c"
must_build b-in-time-in-and-out $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A "$S/decision.c"
must_build b-late-same-decision-in $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A -DCONFIG_CF_B -DLATE "$S/decision.c"
must_fail b-late-define-out-after-in "$msg" $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_B -DLATE "$S/decision.c"
must_build b-in-time-out-and-in $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_B "$S/decision.c"
must_build b-late-same-decision-out $CC -std=c11 $WARN -Werror $I -DLATE "$S/decision.c"
# Strict -std=c99: glibc's <sys/cdefs.h> (pulled in by tracepoint.h's own
# <errno.h>) redefines _Static_assert as a macro for pre-C11 strict modes, a
# bit-field trick that drops the message.  Expected to fail until the header
# keeps its message there too (see the report for this test).
must_fail b-late-define-c99 "$msg" $CC -std=c99 $WARN -Werror $I -DCONFIG_CF_A -DLATE "$S/decision.c"
must_fail b-late-define-cxx "$msg" $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_A -DLATE "$S/decision.c"
must_build b-in-time-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_A "$S/decision.c"
must_fail b-late-export "EXPORT_TRACEPOINT_SYMBOL\\(cf_a\\) $msg" $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A -DLATE "$S/export_late.c"
must_build b-in-time-export $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_A "$S/export_late.c"

echo "== (c) CONFIG_TRACEPOINTS_OFF with CONFIG_TRACEPOINTS_ALL"
must_fail c-off-and-all 'CONFIG_TRACEPOINTS_OFF and CONFIG_TRACEPOINTS_ALL contradict' \
	$CC -std=c11 $WARN -Werror $I -DCONFIG_TRACEPOINTS_OFF -DCONFIG_TRACEPOINTS_ALL "$S/plain.c"
must_build c-off-only $CC -std=c11 $WARN -Werror $I -DCONFIG_TRACEPOINTS_OFF "$S/plain.c"
must_build c-all-only $CC -std=c11 $WARN -Werror $I -DCONFIG_TRACEPOINTS_ALL "$S/plain.c"
must_fail c-off-and-all-cxx 'CONFIG_TRACEPOINTS_OFF and CONFIG_TRACEPOINTS_ALL contradict' \
	$CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_TRACEPOINTS_OFF -DCONFIG_TRACEPOINTS_ALL "$S/plain.c"

echo "== (d) GNU89 inline semantics"
must_fail d-gnu89 'C99 inline semantics' $CC -std=gnu89 $WARN -Werror $I -DCONFIG_CF_A "$S/plain.c"
must_fail d-gnu99-fgnu89-inline 'C99 inline semantics' $CC -std=gnu99 -fgnu89-inline $WARN -Werror $I -DCONFIG_CF_A "$S/plain.c"
must_build d-gnu99 $CC -std=gnu99 $WARN -Werror $I -DCONFIG_CF_A "$S/plain.c"

echo "== file-scope macros followed by ';' (-Wpedantic, -Wextra-semi)"
csemi=""
is_clang "$CC" && csemi=-Wextra-semi
for cfg in -DCONFIG_CF_A=1 -DCONFIG_CF_A=0; do
	tag=${cfg#-DCONFIG_CF_A=}
	for std in c99 c11; do
		must_build "semi-$std-$tag" $CC -std=$std $WARN -Wpedantic $csemi $I $cfg "$S/semi.c"
	done
	must_build "semi-c++11-$tag" $CXX -x c++ -std=c++11 $WARN -Wpedantic -Wextra-semi $I $cfg "$S/semi.c"
done

echo "== selection under -Wundef -Wextra -Wexpansion-to-defined"
sel() { # case expected-output compiler lang args...
	sc=sel-$1 want=$2 cc=$3 lang=$4; shift 4
	must_build "$sc" $cc -x $lang $WARN -Wexpansion-to-defined -Werror $I "$@" "$S/selection.c" || return
	if ! $cc "$B/$sc.o" -o "$B/$sc" -ldl -lpthread >"$B/$sc.link.log" 2>&1; then
		fail "$sc: link failed"; cat "$B/$sc.link.log"; return
	fi
	got=$("$B/$sc")
	if [ "$got" = "$want" ]; then ok "$sc ($*): $got"; else fail "$sc ($*): got '$got', want '$want'"; fi
}
for lang in c c++; do
	if [ $lang = c ]; then cc=$CC; else cc=$CXX; fi
	sel "$lang-undefined" "sel_x=out sel_unconv=in" $cc $lang
	sel "$lang-zero" "sel_x=out sel_unconv=in" $cc $lang -DCONFIG_X=0
	sel "$lang-empty" "sel_x=out sel_unconv=in" $cc $lang -DCONFIG_X=
	sel "$lang-one" "sel_x=in sel_unconv=in" $cc $lang -DCONFIG_X=1
	sel "$lang-bare" "sel_x=in sel_unconv=in" $cc $lang -DCONFIG_X
	sel "$lang-two" "sel_x=out sel_unconv=in" $cc $lang -DCONFIG_X=2
	sel "$lang-yes" "sel_x=out sel_unconv=in" $cc $lang -DCONFIG_X=yes
	sel "$lang-all" "sel_x=in sel_unconv=in" $cc $lang -DCONFIG_TRACEPOINTS_ALL
	sel "$lang-off" "sel_x=out sel_unconv=out" $cc $lang -DCONFIG_TRACEPOINTS_OFF -DCONFIG_X=1
done

echo "== (g) internal headers are not included on their own"
printf '#include <tracepoint.h>\n' >"$B/internal_after.c"
for h in include/tracepoint/*.h; do
	f=${h#include/} b=$(basename "$h" .h)
	[ $b = version ] && continue # public, checked below
	printf '#include <%s>\n' "$f" >"$B/internal_$b.c"
	printf '#include <%s>\n' "$f" >>"$B/internal_after.c"
	must_fail "g-alone-$b" "$f is internal: #include <tracepoint.h> instead" $CC -std=c11 $WARN -Werror $I "$B/internal_$b.c"
done
must_build g-after-tracepoint-h $CC -std=c11 $WARN -Werror $I "$B/internal_after.c"
must_build g-after-tracepoint-h-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I "$B/internal_after.c"
cat >"$B/version_alone.c" <<'EOF'
#include <tracepoint/version.h>
#include <tracepoint/version.h>
#if !defined(TRACEPOINT_VERSION) || TRACEPOINT_VERSION != \
	TRACEPOINT_VERSION_MAJOR * 10000 + TRACEPOINT_VERSION_MINOR * 100 + TRACEPOINT_VERSION_PATCH
#error "TRACEPOINT_VERSION does not match its parts"
#endif
#ifdef TRACEPOINT_H_INCLUDED
#error "tracepoint/version.h pulled in tracepoint.h"
#endif
static const char v[] = TRACEPOINT_VERSION_STRING;
const char *tp_version(void);
const char *tp_version(void) { return v; }
EOF
must_build g-version-alone-c89 $CC -std=c89 -Wpedantic $WARN -Werror $I "$B/version_alone.c"
must_build g-version-alone-cxx98 $CXX -x c++ -std=c++98 -Wpedantic $WARN -Werror $I "$B/version_alone.c"

echo "== (h) the tracepoint_*() functions in a file whose subsystems are all out"
h_src() { # <file> <include before> <include after>
	{ printf '%s\n' "$2" '#include "ev_a.h"' "$3"
	  echo 'int h_run(void);'
	  echo 'int h_run(void) { tracepoint_synchronize_unregister(); return tracepoint_find("cf_a") != 0; }'; } >"$1"
}
h_src "$B/api_missing.c" "" ""
# an untyped probe too: the message, not "tracepoint_func_t undeclared"
{ echo '#include "ev_a.h"'
  echo 'static void h_probe(void *data) { (void)data; }'
  echo 'int h_run(void);'
  echo 'int h_run(void) { return tracepoint_probe_register_name("cf_a", TRACEPOINT_FUNC(h_probe), 0, 10); }'; } >"$B/api_func.c"
h_src "$B/api_before.c" "#include <tracepoint.h>" ""
h_src "$B/api_after.c" "" "#include <tracepoint.h>"
h_msg='#include <tracepoint.h> in this file to call them'
must_fail h-missing-c "$h_msg" $CC -std=c11 $WARN $I "$B/api_missing.c"
must_fail h-missing-cxx "$h_msg" $CXX -x c++ -std=c++11 $WARN $I "$B/api_missing.c"
must_fail h-func-c "$h_msg" $CC -std=c11 $WARN $I "$B/api_func.c"
must_fail h-func-cxx "$h_msg" $CXX -x c++ -std=c++11 $WARN $I "$B/api_func.c"
must_build h-include-before $CC -std=c11 $WARN -Werror $I "$B/api_before.c"
must_build h-include-after $CC -std=c11 $WARN -Werror $I "$B/api_after.c"
must_build h-include-after-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I "$B/api_after.c"

echo "== (l) events compiled in: defined in no file, or in two"
# kv_obj <object> <compiler> <lang> <flags...>: compiles one kv source
kv_obj() {
	o=$1 cc=$2 lang=$3; shift 3
	if ! $cc -x $lang $WARN -Werror $I "$@" -c -o "$B/$o.o" >"$B/$o.log" 2>&1; then
		fail "$o: does not compile: $cc $*"; sed 's/^/    /' "$B/$o.log"
	fi
}
need='undefined reference to .tracepoint_events_of_kv_need_CREATE_TRACE_POINTS_in_one_file'
twice='multiple definition of .tracepoint_events_of_kv_need_CREATE_TRACE_POINTS_in_one_file'
compilers="$CC"
if have clang && ! is_clang "$CC"; then compilers="$CC clang"; fi
for cc in $compilers; do
	for opt in -O0 -O2; do
		t=$(basename "$cc")$opt
		kv_obj "kv-main-$t" $cc c $opt "$S/kv_main.c"
		kv_obj "kv-fire-$t" $cc c $opt -DCONFIG_CF_KV "$S/kv_fire.c"
		kv_obj "kv-define-$t" $cc c $opt -DCONFIG_CF_KV "$S/kv_define.c"
		kv_obj "kv-nocreate-$t" $cc c $opt -DCONFIG_CF_KV -DKV_NO_CREATE "$S/kv_define.c"
		kv_obj "kv-off-$t" $cc c $opt "$S/kv_define.c"
		objs="$B/kv-main-$t.o $B/kv-fire-$t.o"
		must_say "l-no-create-$t" "$need" $cc $objs "$B/kv-nocreate-$t.o" -o "$B/kv-$t" -ldl -lpthread
		must_say "l-define-switched-off-$t" "$need" $cc $objs "$B/kv-off-$t.o" -o "$B/kv-$t" -ldl -lpthread
		# gcc -O0 emits the functions of the header's body before the
		# definition (source order): with these two events it comes
		# sixth; with -O2 first.
		must_say "l-create-twice-$t" "$twice" $cc $objs "$B/kv-define-$t.o" "$B/kv-define-$t.o" \
			-o "$B/kv-$t" -ldl -lpthread
		kv_obj "kv-define-first-$t" $cc c $opt -DCONFIG_CF_KV -DKV_READ_FIRST "$S/kv_define.c"
		must_say "l-create-twice-read-first-$t" "$twice" $cc $objs "$B/kv-define-first-$t.o" \
			"$B/kv-define-first-$t.o" -o "$B/kv-$t" -ldl -lpthread
		for d in define define-first; do
			n=$((n + 1))
			if $cc $objs "$B/kv-$d-$t.o" -o "$B/kv-$t" -ldl -lpthread >"$B/kv-$t.log" 2>&1 &&
				[ ! -s "$B/kv-$t.log" ] && "$B/kv-$t"; then
				ok "l-one-definition-$d-$t links and runs"
			else
				fail "l-one-definition-$d-$t: does not link or run:"; sed 's/^/    /' "$B/kv-$t.log"
			fi
		done
	done
done
kv_obj kv-fire-cxx $CXX c++ -std=c++11 -O2 -DCONFIG_CF_KV "$S/kv_fire.c"
kv_obj kv-main-cxx $CC c -O2 "$S/kv_main.c"
must_say l-no-create-cxx "$need" $CXX "$B/kv-main-cxx.o" "$B/kv-fire-cxx.o" -o "$B/kv-cxx" -ldl -lpthread

echo "== (m) an event header whose body its include guard skipped"
guard='tracepoint_header_of_kv2_not_read_copied_include_guard_or_TRACE_SYSTEM_set_twice'
must_say m-copied-guard "$guard" $CC -std=c11 $WARN $I -DCONFIG_CF_KV -DKV2_COPIED_GUARD -c "$S/kv_fire.c" -o "$B/m.o"
must_say m-copied-guard-cxx "$guard" $CXX -x c++ -std=c++11 $WARN $I -DCONFIG_CF_KV -DKV2_COPIED_GUARD -c "$S/kv_fire.c" -o "$B/m.o"
must_say m-copied-guard-out "$guard" $CC -std=c11 $WARN $I -DKV2_COPIED_GUARD -c "$S/kv_fire.c" -o "$B/m.o"
must_say m-two-systems 'tracepoint_header_of_kv4_not_read_copied_include_guard_or_TRACE_SYSTEM_set_twice' \
	$CC -std=c11 $WARN $I -DCONFIG_CF_KV -DKV3_TWO -c "$S/kv3.c" -o "$B/m.o"
must_build m-one-system $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv3.c"
must_build m-own-guards $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv_fire.c"
must_build m-own-guards-cxx $CXX -x c++ -std=c++11 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv_fire.c"

echo "== (n) define_trace.h cannot find the header to re-read"
reread='re-reads this event header as .*TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h'
must_say n-wrong-path "$reread" $CC -std=c11 $WARN $I -DCONFIG_CF_KV -DKV_PATH=events -c "$S/kv_define.c" -o "$B/n.o"
must_say n-wrong-path-tried 'message: .?events/ev_kv.h|warning: events/ev_kv.h' $CC -std=c11 $WARN $I -DCONFIG_CF_KV -DKV_PATH=events -c "$S/kv_define.c" -o "$B/n.o"
# A newcomer's layout: prog.c includes "events/ev_kv.h" from its own
# folder, which is no -I path, where define_trace.h looks.
mkdir -p "$B/noI/events" && cp "$S/ev_kv.h" "$B/noI/events/" &&
	printf '#define CREATE_TRACE_POINTS\n#include "events/ev_kv.h"\n' >"$B/noI/prog.c"
must_say n-no-I "$reread" $CC -std=c11 $WARN $TPF -Iinclude -DCONFIG_CF_KV -DKV_PATH=events -c "$B/noI/prog.c" -o "$B/n.o"
must_say n-no-I-path-tried 'message: .?events/ev_kv.h|warning: events/ev_kv.h' $CC -std=c11 $WARN $TPF -Iinclude -DCONFIG_CF_KV -DKV_PATH=events -c "$B/noI/prog.c" -o "$B/n.o"
must_build n-with-I $CC -std=c11 $WARN -Werror $TPF -Iinclude -I"$B/noI" -DCONFIG_CF_KV -DKV_PATH=events "$B/noI/prog.c"
must_say n-wrong-path-cxx "$reread" $CXX -x c++ -std=c++11 $WARN $I -DCONFIG_CF_KV -DKV_PATH=events -c "$S/kv_define.c" -o "$B/n.o"
must_build n-right-path $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv_define.c"

echo "== (o) a probe in the kernel's argument order (void *data first)"
order='incompatible|invalid conversion|cannot initialize|no matching function|cannot convert'
for cc in $compilers; do
	t=$(basename "$cc")
	must_say "o-data-first-$t" "$order" $cc -std=c99 $I -DCONFIG_CF_KV -DKV_DATA_FIRST -c "$S/kv_fire.c" -o "$B/o.o"
	must_say "o-data-first-out-$t" "$order" $cc -std=c11 $I -DKV_DATA_FIRST -c "$S/kv_fire.c" -o "$B/o.o"
	# the parameter's name says the order
	must_say "o-data-first-named-$t" "tp__probe_takes_the_args_then_data" \
		$cc -std=c99 $I -DCONFIG_CF_KV -DKV_DATA_FIRST -c "$S/kv_fire.c" -o "$B/o.o"
done
cxxs="$CXX"
if have clang++ && ! is_clang "$CXX"; then cxxs="$CXX clang++"; fi
for cxx in $cxxs; do
	t=$(basename "$cxx")
	must_say "o-data-first-$t" "$order" $cxx -x c++ -std=c++17 $I -DCONFIG_CF_KV -DKV_DATA_FIRST -c "$S/kv_fire.c" -o "$B/o.o"
done
must_build o-data-last $CC -std=c99 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv_fire.c"

echo "== (p) a type in the re-read part of an event header, without a guard of its own"
for cc in $compilers; do
	t=$(basename "$cc")
	must_say "p-unguarded-enum-$t" "redeclaration of .?enum kv_kind|redefinition of .?kv_kind" \
		$cc -std=c11 $WARN $I -DCONFIG_CF_KV -DKV_ENUM_UNGUARDED -c "$S/kv_define.c" -o "$B/p.o"
done
must_build p-guarded-enum $CC -std=c11 $WARN -Werror $I -DCONFIG_CF_KV "$S/kv_define.c"

echo "$((n - fails))/$n cases passed"
finish
