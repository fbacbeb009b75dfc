#!/bin/sh
# Install the Debian packages the toolkit needs, only those missing.  Nothing at all
# when what the build needs is already there, whatever the distribution: LLVM 22's
# llvm-config (LLVM_CONFIG), the headers of libelf, libdw, zlib, libbsd, libmd (MD5) and
# libsqlite3, the sqlite3 program (tests), mandoc.
# --tests: also what the tests' prerequisites name (tests/lib.sh), so that none is
# skipped: jq, GNU time, strace, python3, chromium, clang-22 and lld-22, llvm-22's
# llvm-objdump and llvm-addr2line; and valgrind (make valgrind).
set -e
have() { command -v "$1" >/dev/null 2>&1; }
tests=
[ "${1:-}" = --tests ] && tests=1
build_ok() {
	have "${LLVM_CONFIG:-llvm-config-22}" && have pkg-config && have mandoc &&
	    pkg-config --exists libelf libdw zlib libbsd-overlay libzstd libmd sqlite3 &&
	    have sqlite3 &&
	    [ -d "$("${LLVM_CONFIG:-llvm-config-22}" --includedir)/llvm-c" ]
}
tests_ok() {
	have jq && [ -x /usr/bin/time ] && have strace && have python3 && have cc &&
	    { have chromium || have chromium-browser; } && have clang-22 && have ld.lld-22 &&
	    have llvm-objdump-22 && have llvm-addr2line-22 && have valgrind
}
if build_ok && { [ -z "$tests" ] || tests_ok; }; then
	exit 0
fi
if ! have dpkg-query || ! have apt-get; then
	echo "install-deps: not a Debian system: install LLVM 22 (set LLVM_CONFIG to its" \
	    "llvm-config), libelf, libdw (elfutils), zlib, libbsd, libmd, SQLite 3, mandoc and" \
	    "pkg-config, then run make NODEPS=1${tests:+; for the tests jq, GNU time, strace, python3, chromium}" >&2
	exit 2
fi
pkgs="libelf-dev libdw-dev zlib1g-dev libzstd-dev libbsd-dev libmd-dev libsqlite3-dev sqlite3 llvm-22-dev clang-22 lld-22 libclang-rt-22-dev mandoc pkg-config make gcc perl"
[ -z "$tests" ] || pkgs="$pkgs llvm-22 jq time strace python3 valgrind"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
# chromium: whichever package gives the command (Debian's chromium, or one already there)
[ -z "$tests" ] || have chromium || have chromium-browser || missing="$missing chromium"
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
