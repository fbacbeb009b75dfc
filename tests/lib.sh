# tests/lib.sh: a small sharness-style TAP harness.  Source it from tests/tNNNN-name.sh.
#   test_expect_success 'what' 'commands'   (commands run in the test's own scratch dir)
#   test_expect_success PREREQ 'what' 'commands'   (skipped, "ok N # skip", without PREREQ)
#   test_skip PREREQ 'what'                  (one skipped test, for a group that needs PREREQ)
#   test_require PREREQ 'why'                (the whole file skipped without PREREQ)
#   test_done
# Helpers: test_cmp EXPECT ACTUAL, test_expect_code N cmd..., test_must_fail cmd...,
# test_when_finished 'commands', test_part PREREQ 'what', test_mem cmd..., need_shared.
#
# The chain lint: every body is first run as `(exit 117) && BODY`, which must end with
# status 117 having run nothing; a body that goes on (a `;`, a `||` or a line without
# `&&` between two commands) is a broken chain, and the test fails without being run.
# STALL_TEST_CHAIN_LINT=0 turns it off.
#
# STALL_SHARED: where the shared captures and goldens are (fixtures/tinygrad, golden);
# default ../shared beside the project; a relative path is taken from the project's root.
# Tests that need them have the prerequisite SHARED and are skipped, and said skipped,
# without them.
#
# Every skip is recorded in tests/out/NAME/skipped (prerequisite, tab, what) and
# check.sh counts them by prerequisite after prove's summary.
set -u
LC_ALL=C; export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN="$TOP/bin"
PATH="$BIN:$PATH"; export PATH
STALL_SHARED=${STALL_SHARED:-$TOP/../shared}
case $STALL_SHARED in /*) ;; *) STALL_SHARED=$TOP/$STALL_SHARED ;; esac
SHARED=$STALL_SHARED
FIXTURES="$SHARED/fixtures/tinygrad"
GOLDEN="$SHARED/golden"
T_NAME=$(basename "$0" .sh)
T_DIR="$TOP/tests/out/$T_NAME"
T_SKIPPED="$T_DIR/skipped"
rm -rf "$T_DIR" && mkdir -p "$T_DIR"
cd "$T_DIR" || exit 1
t_count=0
t_fail=0
t_lf='
'

test_cmp() { diff -u "$1" "$2"; }

# test_expect_code CODE cmd...: run cmd, require exit status CODE.
test_expect_code() {
	want=$1; shift
	"$@"; got=$?
	if [ "$got" != "$want" ]; then
		echo "exit status $got, wanted $want: $*" >&2
		return 1
	fi
	return 0
}

# test_must_fail cmd...: cmd must fail as a program fails (exit 1 to 125); success, a
# signal (a crash, an abort), and a command not found or not runnable (126, 127) do not do.
test_must_fail() {
	"$@"; t_got=$?
	if [ "$t_got" -eq 0 ]; then
		echo "test_must_fail: succeeded: $*" >&2; return 1
	elif [ "$t_got" -gt 128 ]; then
		echo "test_must_fail: killed by signal $((t_got - 128)): $*" >&2; return 1
	elif [ "$t_got" -ge 126 ]; then
		echo "test_must_fail: not found or not runnable (exit $t_got): $*" >&2; return 1
	fi
	return 0
}

# test_when_finished 'commands': run commands when the body ends, passed or failed (last
# registered first); a cleanup that fails fails the test.  Call it from the body itself,
# not from a subshell of it.
t_cleanup=
test_when_finished() {
	t_cleanup="{ $*${t_lf}} || t_cleanup_failed=1; $t_cleanup"
}

# The one-line error convention: exactly one line on stderr, starting "PROG: ".
test_one_line_error() {
	prog=$1; file=$2
	[ "$(wc -l < "$file")" -eq 1 ] || { echo "stderr is not one line:" >&2; cat "$file" >&2; return 1; }
	grep -q "^$prog: " "$file" || { echo "stderr does not start '$prog: ':" >&2; cat "$file" >&2; return 1; }
}

# Prerequisites, as git's test suite has them: a test names what it needs (PREREQ or
# PRE1,PRE2; !PRE for its absence) and is reported skipped, never passed, without it.
#   test_set_prereq NAME           declare NAME present
#   test_have_prereq NAME[,NAME]   true when all are present (lazy ones probed once)
# Lazy prerequisites, one for every program from outside that a test runs:
#   CLANG     clang-22 and ld.lld-22 (or $CLANG and $LLD)
#   OBJDUMP   llvm-objdump-22 ($OBJDUMP)        ADDR2LINE  llvm-addr2line-22 ($ADDR2LINE)
#   PYTHON3   python3 with its json and pickle  JQ         jq
#   GNU_TIME  GNU time as /usr/bin/time (-f %M) STRACE     strace that can trace here
#   CHROMIUM  chromium or chromium-browser      CC         a C compiler, cc
#   GZIP      gzip                              SHARED     $STALL_SHARED's captures and goldens
#   ASAN      the programs are a sanitizer build (bounds on memory and time do not hold)
#   VALGRIND  valgrind, and programs that are no sanitizer build
t_prereq=" "
t_noprereq=" "
test_set_prereq() { t_prereq="$t_prereq$1 "; }
t_probe_prereq() {
	case $1 in
	CLANG) command -v "${CLANG:-clang-22}" && command -v "${LLD:-ld.lld-22}" ;;
	OBJDUMP) command -v "${OBJDUMP:-llvm-objdump-22}" ;;
	ADDR2LINE) command -v "${ADDR2LINE:-llvm-addr2line-22}" ;;
	PYTHON3) command -v python3 && python3 -c 'import json, pickle' ;;
	JQ) command -v jq ;;
	GNU_TIME) [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true ;;
	STRACE) command -v strace && strace -f -o /dev/null true ;;
	SHARED) [ -d "$FIXTURES" ] && [ -d "$GOLDEN" ] ;;
	CHROMIUM) command -v chromium || command -v chromium-browser ;;
	CC) command -v cc ;;
	GZIP) command -v gzip ;;
	VALGRIND) command -v valgrind && ! grep -q __asan_init "$BIN/stall-table" ;;
	ASAN) grep -q __asan_init "$BIN/stall-table" ;;
	*) echo "lib.sh: unknown prerequisite $1" >&2; false ;;
	esac >/dev/null 2>&1
}
test_have_prereq() {
	t_save_ifs=$IFS; IFS=,; set -- $1; IFS=$t_save_ifs
	for t_p in "$@"; do
		t_neg=
		case $t_p in !*) t_neg=1; t_p=${t_p#!} ;; esac
		case $t_prereq in *" $t_p "*) t_has=1 ;; *)
			case $t_noprereq in *" $t_p "*) t_has= ;; *)
				if t_probe_prereq "$t_p"; then test_set_prereq "$t_p"; t_has=1
				else t_noprereq="$t_noprereq$t_p "; t_has=; fi ;;
			esac ;;
		esac
		if [ -n "$t_neg" ]; then [ -z "$t_has" ] || return 1; else [ -n "$t_has" ] || return 1; fi
	done
	return 0
}

# The prerequisites of PREREQ[,PREREQ] that do not hold, for the skip's record.
t_missing() {
	t_m=
	t_save_ifs=$IFS; IFS=,; set -- $1; IFS=$t_save_ifs
	for t_q in "$@"; do
		test_have_prereq "$t_q" || t_m="$t_m${t_m:+,}$t_q"
	done
	echo "$t_m"
}
t_record_skip() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$T_SKIPPED"; }

# test_skip PREREQ 'what': one test reported skipped (a group of tests that needs PREREQ).
test_skip() {
	t_count=$((t_count + 1))
	t_m=$(t_missing "$1"); [ -n "$t_m" ] || t_m=$1
	echo "ok $t_count # skip $2 (missing $t_m)"
	t_record_skip "$t_m" test "$2"
}

# test_part PREREQ 'what': in a body, true when PREREQ holds; else the part of the test
# that needs it is recorded as skipped ("what" not checked) and it is false:
#   ... && if test_part STRACE 'the capture opened once'; then strace ...; fi
test_part() {
	test_have_prereq "$1" && return 0
	t_record_skip "$(t_missing "$1")" part "test $t_count: $2"
	echo "# skipped part: $2 (missing $(t_missing "$1"))"
	return 1
}

# test_mem CMD...: run CMD, and fail if it took more than 100 MB.  Without GNU time, and
# in sanitizer builds (whose shadow memory is not the program's), CMD runs unmeasured and
# the bound is recorded as a skipped part.
test_mem() {
	if test_part GNU_TIME,!ASAN "the 100 MB bound of $1" >/dev/null; then
		/usr/bin/time -f %M -o "$T_DIR/mem.kb" "$@"
		t_st=$?
		[ "$(tail -n 1 "$T_DIR/mem.kb")" -le 102400 ] ||
			{ echo "$* took $(tail -n 1 "$T_DIR/mem.kb") KB" >&2; return 99; }
		return $t_st
	fi
	"$@"
}

# The chain lint: true when BODY, run after a failing command, runs nothing and keeps
# its status (117).  What a broken chain runs, runs here with its output discarded.
t_chain_ok() {
	[ "${STALL_TEST_CHAIN_LINT:-1}" = 0 ] && return 0
	t_lint=$( (eval "(exit 117) && $1${t_lf}${t_lf}echo OK-\$? >&3") 3>&1 >/dev/null 2>&1 </dev/null)
	[ "$t_lint" = OK-117 ]
}

# The body in a subshell, then what test_when_finished registered.
t_run_body() {
	(
		t_cleanup=; t_cleanup_failed=
		eval "$1"
		t_st=$?
		eval "$t_cleanup"
		if [ -n "$t_cleanup_failed" ]; then
			echo "test_when_finished: a cleanup failed" >&2
			[ "$t_st" -ne 0 ] || t_st=1
		fi
		exit "$t_st"
	)
}

test_expect_success() {
	if [ $# -eq 3 ]; then
		t_need=$1; shift
		if ! test_have_prereq "$t_need"; then
			t_count=$((t_count + 1))
			t_m=$(t_missing "$t_need")
			echo "ok $t_count # skip $1 (missing $t_m)"
			t_record_skip "$t_m" test "$1"
			return 0
		fi
	fi
	t_count=$((t_count + 1))
	desc=$1
	out="$T_DIR/log.$t_count"
	if ! t_chain_ok "$2"; then
		t_fail=$((t_fail + 1))
		echo "not ok $t_count - $desc"
		echo "#   broken && chain: run as '(exit 117) && BODY', the body ran on past a link:"
		printf '%s\n' "$2" | sed 's/^/#   | /' | head -60
		return 0
	fi
	if t_run_body "$2" > "$out" 2>&1; then
		echo "ok $t_count - $desc"
	else
		t_fail=$((t_fail + 1))
		echo "not ok $t_count - $desc"
		sed 's/^/#   /' "$out" | head -60
	fi
}

# test_skip_all 'why' [PREREQ]: the whole file skipped (TAP "1..0 # SKIP why").
test_skip_all() {
	t_record_skip "${2:--}" file "$1"
	echo "1..0 # SKIP $1"
	exit 0
}

# test_require PREREQ 'why': the whole file skipped, and recorded, without PREREQ.
test_require() {
	test_have_prereq "$1" || test_skip_all "$2 (missing $(t_missing "$1"))" "$(t_missing "$1")"
}

# code_of_words [-f N] MACH WORD...: an AMDGPU ELF64 (e_flags MACH) on stdout whose .text
# at 0x1000 is the kernel "k": the 32-bit little-endian WORDs given; with -f, after a
# function "filler" of N bytes of s_nop 0 (the shape of a library's object).  Each
# function has its symbol and size (needs python3).
code_of_words() {
	cw_filler=0
	if [ "$1" = -f ]; then cw_filler=$2; shift 2; fi
	python3 -c '
import struct, sys
nf = int(sys.argv[1]); mach = int(sys.argv[2], 0); words = [int(w, 0) for w in sys.argv[3:]]
k = b"".join(struct.pack("<I", w) for w in words)
filler = b"\x00\x00\x80\xbf" * (nf // 4)
text = filler + k
strtab = b"\0k\0filler\0"
syms = bytes(24) + struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0x1000 + len(filler), len(k))
if nf:
    syms += struct.pack("<IBBHQQ", 3, 0x12, 0, 1, 0x1000, len(filler))
names = b"\0.text\0.shstrtab\0.symtab\0.strtab\0"
off_text = 64; off_syms = off_text + len(text); off_str = off_syms + len(syms)
off_names = off_str + len(strtab); off_sh = off_names + len(names)
eh = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + bytes(7)
eh += struct.pack("<HHIQQQIHHHHHH", 3, 224, 1, 0, 0, off_sh, mach, 64, 0, 0, 64, 5, 2)
sh = bytes(64)
sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0x1000, off_text, len(text), 0, 0, 4, 0)
sh += struct.pack("<IIQQQQIIQQ", 7, 3, 0, 0, off_names, len(names), 0, 0, 1, 0)
sh += struct.pack("<IIQQQQIIQQ", 17, 2, 0, 0, off_syms, len(syms), 4, 1, 8, 24)
sh += struct.pack("<IIQQQQIIQQ", 25, 3, 0, 0, off_str, len(strtab), 0, 0, 1, 0)
sys.stdout.buffer.write(eh + text + syms + strtab + names + sh)' "$cw_filler" "$@"
}

# code_listing_is TARGET EXPECT MACH WORD...: build/codeobj_test's listing of the code
# object of the WORDs (code_of_words MACH WORD...), read for the stream target TARGET (-:
# none said), exits 0 and is EXPECT (a printf format, lines of "PC<tab>SIZE<tab>CLASS
# <tab>DEP<tab>TEXT" after "entry 0x1000").
code_listing_is() {
	cl_t=$1 cl_e=$2; shift 2
	code_of_words "$@" > words.elf &&
	if [ "$cl_t" = - ]; then "$TOP/build/codeobj_test" words.elf k > listing 2> listing.err
	else "$TOP/build/codeobj_test" -t "$cl_t" words.elf k > listing 2> listing.err; fi &&
	printf "entry 0x1000\n$cl_e" > listing.expect &&
	test_cmp listing.expect listing
}

need_shared() {
	test_require SHARED "the shared captures are not in $SHARED (STALL_SHARED)"
}

# Headless Chromium, for the tests of stall-table --html: need_chromium skips the test
# where there is none (Debian package chromium; .ci/run installs it).  chromium_run ARGS
# runs it without network, GPU or sandbox, its profile and its chatter in the test's dir.
need_chromium() {
	test_require CHROMIUM "chromium is not installed (Debian package chromium)"
	CHROMIUM=$(command -v chromium || command -v chromium-browser)
}
chromium_run() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T_DIR/chromium" --disable-background-networking \
		--proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
		--window-size=1280,900 --hide-scrollbars "$@" 2>>"$T_DIR/chromium.log"
}

# page_probe PAGE JS [FRAGMENT]: PAGE with the script JS run in it at its end, in Chromium;
# what JS wrote into a <pre id="probe"> it appended, unescaped, in ./probe (never empty).
page_probe() {
	awk -v js="$2" '
	/^<\/body>/ { print "<script>"; while ((getline l < js) > 0) print l; print "</script>" }
	{ print }' "$1" > probed.html &&
	chromium_run --virtual-time-budget=10000 --dump-dom "file://$T_DIR/probed.html${3:+#$3}" > dom.html &&
	sed -n '/<pre id="probe">/,/<\/pre>/p' dom.html |
		sed 's/.*<pre id="probe">//; s#</pre>.*##; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' > probe &&
	test -s probe
}

test_done() {
	echo "1..$t_count"
	[ "$t_fail" -eq 0 ]
}
