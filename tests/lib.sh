# tests/lib.sh: a small sharness-style TAP harness.  Source it from tests/tNNNN-name.sh.
#   test_expect_success 'what' 'commands'   (commands run in the test's own scratch dir)
#   test_expect_success PREREQ 'what' 'commands'   (skipped, "ok N # skip", without PREREQ)
#   test_skip_all 'why'                      (exit 77 semantics, TAP "1..0 # SKIP")
#   test_done
# Helpers: test_cmp EXPECT ACTUAL, test_expect_code N cmd..., need_shared.
set -u
LC_ALL=C; export LC_ALL
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN="$TOP/bin"
PATH="$BIN:$PATH"; export PATH
SHARED="$TOP/../shared"
FIXTURES="$SHARED/fixtures/tinygrad"
GOLDEN="$SHARED/golden"
T_NAME=$(basename "$0" .sh)
T_DIR="$TOP/tests/out/$T_NAME"
rm -rf "$T_DIR" && mkdir -p "$T_DIR"
cd "$T_DIR" || exit 1
t_count=0
t_fail=0

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
# Lazy prerequisites: CLANG (clang-22 and ld.lld-22, or $CLANG and $LLD), OBJDUMP
# (llvm-objdump-22), ADDR2LINE (llvm-addr2line-22), PYTHON3, JQ, SHARED (../shared beside the project), CHROMIUM, CC.
t_prereq=" "
t_noprereq=" "
test_set_prereq() { t_prereq="$t_prereq$1 "; }
t_probe_prereq() {
	case $1 in
	CLANG) command -v "${CLANG:-clang-22}" && command -v "${LLD:-ld.lld-22}" ;;
	OBJDUMP) command -v "${OBJDUMP:-llvm-objdump-22}" ;;
	ADDR2LINE) command -v llvm-addr2line-22 ;;
	PYTHON3) command -v python3 && python3 -c 'import json' ;;
	JQ) command -v jq ;;
	SHARED) [ -d "$FIXTURES" ] && [ -d "$GOLDEN" ] ;;
	CHROMIUM) command -v chromium || command -v chromium-browser ;;
	CC) command -v cc ;;
	*) false ;;
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

test_expect_success() {
	if [ $# -eq 3 ]; then
		t_need=$1; shift
		if ! test_have_prereq "$t_need"; then
			t_count=$((t_count + 1))
			echo "ok $t_count # skip $1 (missing $t_need)"
			return 0
		fi
	fi
	t_count=$((t_count + 1))
	desc=$1
	out="$T_DIR/log.$t_count"
	if (eval "$2") > "$out" 2>&1; then
		echo "ok $t_count - $desc"
	else
		t_fail=$((t_fail + 1))
		echo "not ok $t_count - $desc"
		sed 's/^/#   /' "$out" | head -60
	fi
}

test_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

need_shared() {
	test_have_prereq SHARED || test_skip_all "../shared is not beside the project"
}

# Headless Chromium, for the tests of stall-table --html: need_chromium skips the test
# where there is none (Debian package chromium; .ci/run installs it).  chromium_run ARGS
# runs it without network, GPU or sandbox, its profile and its chatter in the test's dir.
need_chromium() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
		test_skip_all "chromium is not installed (Debian package chromium)"
}
chromium_run() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T_DIR/chromium" --disable-background-networking \
		--proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
		--window-size=1280,900 --hide-scrollbars "$@" 2>>"$T_DIR/chromium.log"
}

test_done() {
	echo "1..$t_count"
	[ "$t_fail" -eq 0 ]
}
