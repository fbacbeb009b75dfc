#!/bin/sh
# Install the Debian packages the toolkit needs, only those missing.
set -e
pkgs="libelf-dev libdw-dev zlib1g-dev libbsd-dev llvm-22-dev clang-22 lld-22 libclang-rt-22-dev mandoc pkg-config make gcc perl"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
