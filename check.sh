#!/bin/sh
# Run every test script under prove (TAP); `make check` calls this after building.
cd "$(dirname "$0")" || exit 2
exec prove -j2 ${PROVE_FLAGS:-} tests/t[0-9]*.sh
