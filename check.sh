#!/bin/sh
# Run every test script under prove (TAP); `make check` calls this after building.  After
# prove's summary, the tests skipped for want of a prerequisite, counted by prerequisite
# (tests/lib.sh records each skip in tests/out/NAME/skipped).  prove's exit status is
# this script's, whatever the count says.
cd "$(dirname "$0")" || exit 2
rm -f tests/out/*/skipped
prove -j2 ${PROVE_FLAGS:-} tests/t[0-9]*.sh
st=$?
sh tests/skips.sh || echo "check.sh: the skips could not be counted" >&2
exit $st
