#!/bin/sh
# compare-commit.sh BASE: build commit BASE in a temporary git worktree and compare what
# every program writes (stdout, stderr, exit status) for every format and view on every
# capture of fixtures/ and ../shared/fixtures (tinygrad, tinygrad-gfx12, tinygrad-gfx950,
# rgp; CAPTURES="..." names others) against the build of this tree
# (bin/, made first).  Row streams are compared without their `tag` column when BASE's
# have none (a column appended since); the warnings of stall-diff and stall-budget on a
# capture are compared without the program's name (they came from a `stall` they ran,
# now from the pipeline in process), those of --threads 4 and of a shell pipeline in any
# order (the workers and the stages say them as they come).  Prints one line per difference and a count;
# exit 0 when there is none, 1 when there are, 2 on trouble.
set -u
BASE=${1:?usage: compare-commit.sh BASE}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/compare-commit.XXXXXX") || exit 2
cleanup() {
	git -C "$ROOT" worktree remove --force "$TMP/base" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

git worktree add --detach "$TMP/base" "$BASE" >/dev/null 2>&1 ||
	{ echo "compare-commit: cannot check out $BASE" >&2; exit 2; }
make -C "$TMP/base" -j2 NODEPS=1 all >"$TMP/base-build.log" 2>&1 ||
	{ echo "compare-commit: $BASE does not build (see $TMP/base-build.log)" >&2; exit 2; }
make -j2 NODEPS=1 all >"$TMP/new-build.log" 2>&1 ||
	{ echo "compare-commit: this tree does not build" >&2; exit 2; }
OLD=$TMP/base/bin
NEW=$ROOT/bin

CAPTURES=${CAPTURES:-$(for f in fixtures/*/capture.tsv; do dirname "$f"; done
	ls ../shared/fixtures/tinygrad/*.pkl ../shared/fixtures/tinygrad-gfx12/*.pkl \
	    ../shared/fixtures/tinygrad-gfx950/*.pkl ../shared/fixtures/rgp/*.rgp 2>/dev/null)}
[ -n "$CAPTURES" ] || { echo "compare-commit: no captures" >&2; exit 2; }

# The `tag` column left out of a TSV stream: its header names it, its rows follow.
untag() {
	awk -F'\t' -v OFS='\t' '
	/^##/ { print; next }
	/^#/ { n = 0; for (i = 1; i <= NF; i++) if ($i == "tag" || $i == "#tag") t = i
		if (!t) { print; next } }
	t { s = ""; for (i = 1; i <= NF; i++) if (i != t) s = s (s == "" ? "" : OFS) $i
		print s; next }
	{ print }' "$1"
}

ndiff=0 nrun=0
# run NAME CMD CAPTURE: sh -c CMD with $0 the capture and B each build's bin/, in a
# directory of its own.
run() {
	name=$1 cmdline=$2 cap=$3
	for side in old new; do
		d=$TMP/run/$side
		rm -rf "$d" && mkdir -p "$d"
		if [ $side = old ]; then B=$OLD; else B=$NEW; fi
		(cd "$d" && B=$B ROOT=$ROOT sh -c "$cmdline" "$cap" >"$TMP/$side.out" 2>"$TMP/$side.err"
		 echo $? >"$TMP/$side.rc")
		# files a command wrote (pages, traces, directories) compared too
		(cd "$d" && find . -type f | sort | while read -r f; do
			printf '== %s\n' "$f"; cat "$f"; done) >"$TMP/$side.files"
		sed "s|$B|BIN|g; s|$TMP/run/$side|DIR|g" "$TMP/$side.err" >"$TMP/$side.err2"
		case $name in
		stall-diff*|stall-budget*)
			sed -E 's/^(stall|stall-diff|stall-budget): /PROG: /' "$TMP/$side.err2" \
			    >"$TMP/$side.e" && mv "$TMP/$side.e" "$TMP/$side.err2";;
		*--threads\ 4*|*\|*)
			sort "$TMP/$side.err2" >"$TMP/$side.e" && mv "$TMP/$side.e" "$TMP/$side.err2";;
		esac
	done
	nrun=$((nrun + 1))
	untag "$TMP/old.out" >"$TMP/old.cmp"
	untag "$TMP/new.out" >"$TMP/new.cmp"
	for part in cmp err2 rc files; do
		if ! cmp -s "$TMP/old.$part" "$TMP/new.$part"; then
			ndiff=$((ndiff + 1))
			echo "differs ($part): $name"
			diff "$TMP/old.$part" "$TMP/new.$part" | head -5 | sed 's/^/    /'
		fi
	done
}

for c in $CAPTURES; do
	C=$ROOT/$c
	run "sqtt-dump $c" '$B/sqtt-dump "$0"' "$C"
	run "sqtt-dump -a $c" '$B/sqtt-dump -a "$0"' "$C"
	run "sqtt-dump --counts $c" '$B/sqtt-dump --counts "$0"' "$C"
	run "sqtt-dump -x $c" '$B/sqtt-dump -x x "$0" >/dev/null' "$C"
	run "sqtt-dump | sqtt-walk $c" '$B/sqtt-dump "$0" | $B/sqtt-walk' "$C"
	run "sqtt-dump | sqtt-walk | stall-attr $c" \
	    '$B/sqtt-dump "$0" | $B/sqtt-walk | $B/stall-attr' "$C"
	run "... | stall-attr --deltas $c" \
	    '$B/sqtt-dump "$0" | $B/sqtt-walk | $B/stall-attr --deltas' "$C"
	for o in "" -a -j -p --plain -H "-s hits" "-s pc" --untraced --by-dispatch \
	    "--html p.html --trace-json t.json"; do
		run "... | stall-table $o $c" \
		    "\$B/sqtt-dump \"\$0\" | \$B/sqtt-walk | \$B/stall-attr | \$B/stall-table $o" "$C"
	done
	for o in "" -a -j -p --plain -H "-s hits" --rows --deltas "--rows --deltas" \
	    --untraced --by-dispatch "--threads 1" "--threads 4" \
	    "--html p.html --trace-json t.json"; do
		run "stall $o $c" "\$B/stall $o \"\$0\"" "$C"
	done
	for o in "" --lines --annotate --loops --waits --wait-rows --loads --hidden --hints \
	    --untraced; do
		run "stall --rows | stall-annotate $o $c" \
		    "\$B/stall --rows \"\$0\" | \$B/stall-annotate $o" "$C"
	done
	run "stall-diff $c $c" '$B/stall-diff "$0" "$0"' "$C"
	run "stall-diff -p $c fixtures/demo" '$B/stall-diff -p "$0" "$ROOT/fixtures/demo"' "$C"
	run "stall-budget $c" 'printf "* cycles <= 1000\n* cause mem <= 50%%\n" >r &&
	    $B/stall-budget r "$0"' "$C"
	run "sqtt-dump | sqtt-encode $c" '$B/sqtt-dump "$0" | $B/sqtt-encode | od -An -tx1' "$C"
	run "sqtt-dump | sqtt-encode -d $c" '$B/sqtt-dump "$0" | $B/sqtt-encode -d d' "$C"
done
echo "compare-commit: $nrun commands on $(echo "$CAPTURES" | wc -l) captures, $ndiff differences against $BASE"
[ $ndiff -eq 0 ]
