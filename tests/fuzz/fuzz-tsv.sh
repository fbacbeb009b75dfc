#!/bin/sh
# fuzz-tsv.sh [N [SEED]]: mutate the project's own streams N times (default 2000) and run
# every TSV reader on each mutant, built with ASan and UBSan in a scratch copy of the
# tree.  A reader must end with status 0 or 2, within 10 seconds, with no sanitizer
# report; a mutant that breaks one is kept in tests/data/tsv-crash-*.tsv (t0150 replays
# them).  Needs clang-free tools only: cc, perl, timeout.
set -u
n=${1:-2000}
seed=${2:-1}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-tsv.XXXXXX")
trap 'rm -rf "$work"' EXIT

git -C "$top" ls-files -z | (cd "$top" && xargs -0 tar cf -) | (mkdir "$work/tree" && cd "$work/tree" && tar xf -)
make -s -C "$work/tree" all CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all" >/dev/null || exit 2
bin=$work/tree/bin
export ASAN_OPTIONS=detect_leaks=0

cd "$work/tree" || exit 2
"$bin/sqtt-dump" fixtures/demo > seed.packets
"$bin/sqtt-walk" seed.packets > seed.rows
"$bin/stall-attr" seed.rows > seed.attr
"$bin/stall-table" seed.attr > seed.table
"$bin/stall-table" --json seed.attr > seed.json
cp tests/data/authored.packets.tsv seed.authored
"$bin/sqtt-walk" fixtures/annotate/hot.packets.tsv | "$bin/stall-attr" > seed.annotate

found=0
i=0
while [ $i -lt "$n" ]; do
	for s in seed.packets seed.rows seed.attr seed.authored seed.table seed.json seed.annotate; do
		perl -e '
			srand($ARGV[0]); local $/; open my $f, "<", $ARGV[1] or die; my $d = <$f>;
			my @ops = (
				sub { substr($d, int rand length $d, 1) = chr int rand 256 },
				sub { substr($d, int rand length $d, 1 + int rand 40) = "" },
				sub { my $p = int rand length $d; substr($d, $p, 0) = substr($d, int rand length $d, 1 + int rand 80) },
				sub { $d =~ s/\t/"\t" x int rand 3/e for 1 .. 1 + int rand 3 },
				sub { my @n = ("-", "0", "-1", "18446744073709551616", "0x", "9" x 30, "", "x"); my @f = split /\t/, $d, -1; $f[int rand @f] = $n[int rand @n]; $d = join "\t", @f },
				sub { $d = substr($d, 0, int rand length $d) },
			);
			$ops[int rand @ops]->() for 1 .. 1 + int rand 4;
			print $d' "$seed$i" "$s" > mutant
		for cmd in "sqtt-encode -o /dev/null" "sqtt-walk" "stall-attr" "stall-attr --raw" "stall-table" "stall-table --json" "stall-table --by-dispatch" "stall-table --dispatch 1" \
		    "stall-table --html /dev/null --trace-json /dev/null" "stall-budget -w /dev/null" \
		    "stall-annotate --annotate" "stall-annotate --waits" "stall-annotate --hidden" "stall-annotate --hints"; do
			timeout 10 "$bin"/$cmd mutant > /dev/null 2> err
			st=$?
			if { [ $st -ne 0 ] && [ $st -ne 2 ]; } || grep -q "Sanitizer\|runtime error" err; then
				found=$((found + 1))
				keep="$top/tests/data/tsv-crash-$(cksum < mutant | cut -d' ' -f1).tsv"
				cp mutant "$keep"
				echo "fuzz-tsv: $cmd: status $st on $keep" >&2
				head -3 err >&2
			fi
		done
	done
	i=$((i + 1))
done
[ "$found" -eq 0 ]
