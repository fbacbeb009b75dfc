# amd-walk.awk AMD_TSV ROWS: compare sqtt-walk's rows with AMD's decoder's walk
# (../shared/golden/NAME.amd.tsv.gz, unzipped).  A wave is (event, slot, WAVE_START time);
# each of AMD's waves must be one of ours with the same number of records, the same issue
# times in order and the same pcs, its last record (s_endpgm) our WAVE_END row at AMD's pc
# and at issue + duration.  Where AMD lost the pc (0, or "raw:..."; it never finds it
# again) the times are still compared, the pcs not.  Prints one line per wave that differs,
# then "waves N matched M lost_pc L" (L: waves where AMD lost the pc) and exits 1 if any
# wave differs.  AMD walks only the traced SIMD: our rows of the waves of other SIMDs
# (numbered from 2147483648, sqtt-walk(1)) are passed over.
BEGIN { FS = "\t" }
FNR == 1 { file++ }
/^#/ { next }
file == 1 {
	k = $1 " " $3 " " $4
	if (!(k in an)) { order[++nw] = k; an[k] = 0 }
	n = ++an[k]
	apc[k, n] = $6; atime[k, n] = $7; aend[k, n] = $7 + $9
	next
}
$4 >= 2147483648 { next }
{
	# ours: event se kernel wave slot pc time delta token ...
	w = $1 " " $4
	if (!(w in rn)) { rn[w] = 0; rkey[w] = $1 " " $5 " " ($7 - $8) }
	n = ++rn[w]
	k = rkey[w]
	rpc[k, n] = $6; rtime[k, n] = $7; rtok[k, n] = $9; rcount[k] = n
}
END {
	bad = 0; lost = 0
	for (i = 1; i <= nw; i++) {
		k = order[i]
		if (!(k in rcount)) { print "wave " k ": not walked"; bad++; continue }
		n = an[k]; nopc = n + 1
		for (j = 1; j <= n; j++) if (apc[k, j] !~ /^0x[0-9a-f]+$/) { nopc = j; lost++; break }
		for (j = 1; j <= n; j++) {
			pcok = j >= nopc || rpc[k, j] == apc[k, j]
			if (j == n) {	# s_endpgm: our WAVE_END
				if (rtok[k, rcount[k]] != "WAVE_END" || rtime[k, rcount[k]] != aend[k, j] ||
				    !(j >= nopc || rpc[k, rcount[k]] == apc[k, j])) {
					print "wave " k ": end " rpc[k, rcount[k]] " " rtime[k, rcount[k]] " " rtok[k, rcount[k]] \
					    ", AMD " apc[k, j] " " aend[k, j]; bad++
				} else if (rcount[k] != n) {
					print "wave " k ": " rcount[k] " rows, AMD " n " records"; bad++
				}
				break
			}
			if (!pcok || rtime[k, j] != atime[k, j]) {
				print "wave " k ": record " j ": " rpc[k, j] " " rtime[k, j] " " rtok[k, j] ", AMD " apc[k, j] " " atime[k, j]
				bad++
				break
			}
		}
	}
	print "waves " nw + 0 " matched " (nw - bad) " lost_pc " lost
	exit bad > 0
}
