# amd-walk12.awk ROWS AMD_TSV: compare sqtt-walk's rows of a gfx12 capture with AMD's
# decoder's walk (../shared/golden-gfx12/NAME.amd.tsv.gz, unzipped), as amd-walk.awk does
# for gfx11, with what gfx12 adds:
# * AMD makes a record for an s_barrier_wait that emitted no token (HEADER
#   exclude_barrier_wait); the walk may make a row for it (token "-") or not: neither
#   side's is compared.
# * Where that s_barrier_wait did emit a token (an immediate: the barrier was complete,
#   custom_wave_sync), AMD gives the token to the next instruction (with or without its
#   record for the wait): its pcs are one instruction late from there, lost.
# * AMD's pc is lost where it is not an address ("raw:0x0", past a word LLVM cannot read)
#   and where AMD's category does not fit the instruction at its pc (it steps one
#   instruction per token whatever the token, custom_wave_sync); from there on the times
#   are compared, the pcs not.
# * Once AMD's pc is lost, its records for token-less waits cannot be told by their pc:
#   from there our rows' times must be AMD's in order, AMD's extra records being IMMED
#   ones (its waits), at most one for each s_barrier_wait our rows pass.
# A wave is (event, slot, WAVE_START time).  Prints one line per wave that differs, then
# "waves N matched M lost_pc L" and exits 1 if any wave differs.
BEGIN {
	FS = "\t"
	split("IMMED:imm,waitcnt,depctr,clause,barrier MESSAGE:message,barrier_signal " \
	    "SALU:salu,salu_exec SMEM:smem,smem_store JUMP:branch,jump NEXT:branch " \
	    "VALU:valu,valu_trans,valu_shift64,valu_mad64,valu_f64,valu_cmpx,vinterp " \
	    "VMEM:global_load,global_store,flat_load,flat_store,buf_load,buf_store,image " \
	    "LDS:lds_load,lds_store", cats, " ")
	for (i in cats) {
		split(cats[i], kv, ":"); n = split(kv[2], cl, ",")
		for (j = 1; j <= n; j++) fits[kv[1], cl[j]] = 1
	}
}
FNR == 1 { file++ }
/^#/ { next }
file == 1 {
	# ours: event se kernel wave slot pc time delta token inst class
	cls[$1, $6] = $11
	if ($11 == "barrier" && $9 != "-") waittok[$1, $6] = 1
	if ($9 == "-") next
	w = $1 " " $4
	if (!(w in rn)) { rn[w] = 0; rkey[w] = $1 " " $5 " " ($7 - $8) }
	n = ++rn[w]
	k = rkey[w]
	rpc[k, n] = $6; rtime[k, n] = $7; rtok[k, n] = $9; rcls[k, n] = $11; rcount[k] = n
	next
}
{
	# AMD: event se slot begin end pc issue stall duration category
	k = $1 " " $3 " " $4
	if ($10 == "IMMED" && cls[$1, $6] == "barrier") {	# its token-less s_barrier_wait
		if (waittok[$1, $6] && !(k in alost)) alost[k] = an[k] + 1
		next
	}
	if (!(k in an)) { order[++nw] = k; an[k] = 0 }
	n = ++an[k]
	apc[k, n] = $6; atime[k, n] = $7; aend[k, n] = $7 + $9; acat[k, n] = $10; aev[k, n] = $1
}
function amd_pc_ok(k, j,    c) {
	if (apc[k, j] !~ /^0x[0-9a-f]+$/) return 0
	c = cls[aev[k, j], apc[k, j]]
	if (c == "" || c == "unknown" || c == "endpgm" || j == an[k]) return 1
	return (acat[k, j], c) in fits
}
END {
	bad = 0; lost = 0
	for (i = 1; i <= nw; i++) {
		k = order[i]
		if (!(k in rcount)) { print "wave " k ": not walked"; bad++; continue }
		n = an[k]; nopc = n + 1
		for (j = 1; j <= n; j++) if (!amd_pc_ok(k, j)) { nopc = j; break }
		if ((k in alost) && alost[k] < nopc) nopc = alost[k]
		if (nopc <= n) lost++
		j = 1
		for (r = 1; r <= rcount[k]; r++) {
			if (j > n) { print "wave " k ": " rcount[k] " rows, AMD " n " records"; bad++; break }
			if (j >= nopc) {	# times only; AMD's extra IMMED records are its waits
				while (j < n && rtime[k, r] != atime[k, j] && acat[k, j] == "IMMED" && extra[k] < waits[k]) {
					j++; extra[k]++
				}
			}
			if (rcls[k, r] == "barrier") waits[k]++
			pcok = j >= nopc || rpc[k, r] == apc[k, j]
			if (!pcok && rcls[k, r] == "barrier") {	# AMD gave the wait's token on
				if (nopc > n) lost++
				nopc = j; pcok = 1
			}
			if (j == n) {	# s_endpgm: our WAVE_END
				if (r != rcount[k]) {
					print "wave " k ": " rcount[k] " rows, AMD " n " records"; bad++
				} else if (rtok[k, r] != "WAVE_END" || rtime[k, r] != aend[k, j] ||
				    !(j >= nopc || rpc[k, r] == apc[k, j])) {
					print "wave " k ": end " rpc[k, r] " " rtime[k, r] " " rtok[k, r] \
					    ", AMD " apc[k, j] " " aend[k, j]; bad++
				}
				break
			}
			if (!pcok || rtime[k, r] != atime[k, j]) {
				print "wave " k ": record " j ": " rpc[k, r] " " rtime[k, r] " " rtok[k, r] ", AMD " apc[k, j] " " atime[k, j]
				bad++
				break
			}
			j++
		}
	}
	print "waves " nw + 0 " matched " (nw - bad) " lost_pc " lost
	exit bad > 0
}
