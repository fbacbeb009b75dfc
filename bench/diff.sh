#!/bin/sh
# bench/diff.sh [N]: stall-diff on two kernels of N distinct instructions (default 100000)
# that differ at both ends (3 instructions changed in the prologue, 3 in the epilogue)
# and have every register of their second half renumbered, as a recompile does: the case
# the quadratic aligner refused past ~4096 instructions between the first and the last
# difference.  Prints one line: wall and CPU seconds (the wall of a loaded machine is not
# the program's), peak RSS and the rows as aligned, beside the
# target (< 1 s, < 100 MB); then the aligner alone on kernels of the same shape made in
# memory (build/align_test ends N), without the two profiles' memory.  Needs GNU time.  Not a test (t0515 checks the alignment).
set -u
n=${1:-100000}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$top/bench/out}
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (Debian package time)" >&2; exit 77; }
mkdir -p "$out" || exit 2
# one wave issuing every instruction once, at 4-byte pcs; side b: the ends edited and the
# registers of the second half renumbered (v and s numbers + 40)
rows() {	# rows SIDE
	awk -v n="$n" -v side="$1" 'BEGIN {
		OFS = "\t"
		print "#event", "se", "kernel", "wave", "slot", "pc", "time", "delta", "token", "inst", "class", "dep", "cost", "cause", "retired"
		x = 12345; t = 0
		for (i = 0; i < n; i++) {
			x = (x * 1103515245 + 12345) % 2147483648
			a = int(x / 65536) % 40; b = int(x / 256) % 40; f = x % 5
			r = (side == "b" && i >= n / 2) ? 40 : 0
			if (i < 3 || i >= n - 3) inst = "s_nop " (i % 7) " // " side
			else if (f == 0) inst = "v_fmac_f32_e32 v" (a + r) ", v" (b + r) ", v" ((a + b) % 40 + r)
			else if (f == 1) inst = "global_load_b128 v[" (a + r) ":" (a + r + 3) "], v" (b + r) ", off"
			else if (f == 2) inst = "s_waitcnt vmcnt(" (a % 8) ")"
			else if (f == 3) inst = "v_add_co_u32 v" (a + r) ", vcc_lo, v" (b + r) ", s" (a + r)
			else inst = "s_add_i32 s" (a + r) ", s" (b + r) ", -1"
			cost = 1 + x % 7; t += cost
			print 0, 0, "big", 0, 0, sprintf("0x%x", 4096 + 4 * i), t, cost, (i == n - 1 ? "WAVE_END" : "INST:valu"), inst, "valu", "-", cost, "unexplained", "-"
		}
	}'
}
rows a > "$out/diff-a.rows" && rows b > "$out/diff-b.rows" || exit 2
/usr/bin/time -f "%e %U %S %M" -o "$out/diff.time" "$top/bin/stall-diff" "$out/diff-a.rows" \
    "$out/diff-b.rows" > "$out/diff.tsv"
st=$?
[ $st -le 1 ] || { echo "bench: stall-diff failed ($st)" >&2; exit 2; }
read -r wall user sys rss <<EOT
$(tail -n 1 "$out/diff.time")
EOT
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
marks=$(grep -v '^#' "$out/diff.tsv" | awk -F'\t' '$3 != "TOTAL" && $3 != "WALL" && $3 != "CAUSE" { c[$2]++ } END { printf "%d =, %d r, %d -, %d +, %d m", c["="], c["r"], c["-"], c["+"], c["m"] }')
printf 'stall-diff, 2 x %d instructions, both ends  %s s wall  %s CPU-s  %s KB  (%s)   target < 1 s, < 100 MB\n' \
    "$n" "$wall" "$cpu" "$rss" "$marks"
# the aligner alone (build/align_test: the same shape of kernels, made in memory)
/usr/bin/time -f "%e %U %S %M" -o "$out/align.time" "$top/build/align_test" ends "$n" > "$out/align.out" ||
    { echo "bench: align_test ends $n failed" >&2; exit 2; }
read -r awall auser asys arss <<EOT
$(tail -n 1 "$out/align.time")
EOT
printf 'the aligner alone (align_test ends %d)         %s s wall  %s CPU-s  %s KB  (%s)\n' "$n" \
    "$awall" "$(awk -v u="$auser" -v s="$asys" 'BEGIN { printf "%.2f", u + s }')" "$arss" \
    "$(cut -d' ' -f1-13 "$out/align.out")"
rm -f "$out/align.time" "$out/align.out"
[ "${KEEP:-0}" = 1 ] || rm -f "$out/diff-a.rows" "$out/diff-b.rows" "$out/diff.tsv" "$out/diff.time"
