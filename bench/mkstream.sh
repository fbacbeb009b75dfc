#!/bin/sh
# mkstream.sh CAPTURE MB OUT: a raw SQTT stream of at least MB megabytes made of the
# capture's own token mix: every buffer's tokens, one after another, repeated, times
# continued, packed by sqtt-encode (which recomputes every delta).  Writes OUT (.att) and
# OUT.code.hsaco, the capture's first program, for walking it.
set -e
cap=$1 mb=$2 out=$3
bin=$(cd "$(dirname "$0")/.." && pwd)/bin
"$bin/sqtt-dump" -x "$out.objs" "$cap" | awk -F'\t' -v OFS='\t' -v mb="$mb" '
BEGIN {
	split("NOP 4 TIME 8 REG 64 IMM_ONE 12 ALU_EXEC 8 VMEM_EXEC 8 INST 20 VALU_INST 12 IMMEDIATE 24 WAVE_READY 24 WAVE_START 32 WAVE_START_EXT 48 WAVE_ALLOC 20 WAVE_END 20 SHADER_DATA 52 SHADER_DATA_SHORT 28 TIMESTAMP 48 HEADER 64 NEW_PC 64 UTIL_COUNTER 48 MISC 24 REG_INIT 64 EVENT 24 EVENT_SYNC 32 UNKNOWN 4", a, " ")
	for (i = 1; i < 50; i += 2) bits[a[i]] = a[i + 1]
}
/^##code/ && !code { code = $2 }
/^#/ { next }
$5 == "HEADER" { if (!hdr) hdr = $0; base = span; next }
$5 == "TIMESTAMP" || $5 == "TIME" { next }	# re-made by sqtt-encode from the gaps
{
	n++; t[n] = base + $4; row[n] = $5 OFS $6 OFS $7 OFS $8 OFS $9 OFS $10 OFS $11
	if (t[n] > span) span = t[n]
	nib += bits[$5] / 4
}
END {
	print "#event", "se", "nib", "time", "type", "wave", "simd", "wgp", "sa", "op", "raw"
	split(hdr, h, "\t")
	print 0, 0, "-", 0, "HEADER", "-", h[7], h[8], h[9], "-", "-"
	reps = int(mb * 2 * 1048576 / nib) + 1
	for (r = 0; r < reps; r++) {
		off = r * (span + 100)
		for (i = 1; i <= n; i++)
			printf "0\t0\t-\t%.0f\t%s\n", off + t[i], row[i]
	}
}' | "$bin/sqtt-encode" -o "$out"
