# lifetimes.awk PACKETS: "event slot lifetime" (WAVE_END - WAVE_START) for each wave whose
# WAVE_START and WAVE_END a packet stream (sqtt-dump's columns) has, on every SIMD of
# every unit: a wave is its buffer, unit (SA, WGP, SIMD) and slot from a WAVE_START to
# the next WAVE_END there.  These are the lifetimes the walk's rows add up to, one wave
# each (sqtt-walk(1): the traced SIMD's waves and, as untraced rows, the others').
# -v other=1: only the waves off the traced SIMD (its HEADER's SIMD, WGP, SA);
# -v count=1: only how many waves, one number.
BEGIN { FS = "\t" }
/^#/ { next }
$5 == "HEADER" { unit[$1] = $7 " " $8 " " $9; next }
$5 != "WAVE_START" && $5 != "WAVE_END" { next }
other && (!($1 in unit) || $7 " " $8 " " $9 == unit[$1]) { next }
{ k = $1 " " $6 " " $7 " " $8 " " $9 }
$5 == "WAVE_START" { start[k] = $4; next }
k in start {
	if (!count) print $1, $6, $4 - start[k]
	n++
	delete start[k]
}
END { if (count) print n + 0 }
