#!/bin/sh
# tests/skips.sh: what the last run of the tests skipped, by prerequisite: whole test
# scripts, single tests and parts of tests (tests/lib.sh's records, tests/out/*/skipped).
cd "$(dirname "$0")/out" 2>/dev/null || { echo "No test has run."; exit 0; }
set -- */skipped
if [ ! -f "$1" ]; then
	echo "Skipped: nothing."
	exit 0
fi
for f in "$@"; do
	sed "s|^|${f%/skipped}	|" "$f"
done | awk -F'\t' -v shared="${STALL_SHARED:-../shared}" '
	{ n[$2, $3]++; if (!(($2, $1) in seen)) { seen[$2, $1]; who[$2] = who[$2] " " substr($1, 1, 5) }
	  if (!($2 in p)) { p[$2]; order[++np] = $2 } }
	END {
		for (i = 1; i <= np; i++) { q = order[i]; t += n[q, "test"]; f += n[q, "file"]; r += n[q, "part"] }
		printf "Skipped for want of a prerequisite: %d whole files, %d tests, %d parts of tests\n", f, t, r
		for (i = 1; i <= np; i++) {
			q = order[i]
			printf "  %s: %d files, %d tests, %d parts:%s%s\n", q, n[q, "file"], n[q, "test"],
				n[q, "part"], who[q], q == "SHARED" ? " (STALL_SHARED=" shared ")" : ""
		}
	}'
