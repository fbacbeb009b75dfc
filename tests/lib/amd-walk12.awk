# amd-walk12.awk ROWS AMD_TSV: compare sqtt-walk's rows of a gfx12 capture with AMD's
# decoder's walk (../shared/golden-gfx12/NAME.amd.tsv.gz, unzipped), as amd-walk.awk does
# for gfx11: AMD's records of a wave are our rows in order, same pc, same issue time, its
# last (s_endpgm) our WAVE_END at issue + duration.  What gfx12 adds, each a rule of AMD's
# stitcher (rocprof-trace-decoder, stitch/stitch.cpp: stitchWave and
# insert_gfx12_barrier_wait), modelled here exactly, never by a tolerance:
# * An s_barrier_wait that AMD takes as token-less (HEADER exclude_barrier_wait) gets a
#   record of its own: category IMMED, no stall, dated at the end of the wave's previous
#   record.  Where our walk has a "-" row for it, or none, that record is passed over.
# * Where that record begins when the next one does, and the next lasts more than a
#   cycle, AMD moves the next one a cycle later: its issue is the token's time + 1
#   ("moved").
# * An s_barrier_wait that did emit a token (the barrier was complete: custom_wave_sync)
#   is still taken as token-less whenever AMD's look-ahead finds nothing against it
#   (with s_nop and s_barrier_signal after it, nothing can be); AMD gives that token to
#   the next instruction, so from there its pcs are our rows' pcs shifted by one row
#   per such wait ("shifted"), with or without its own record for the wait (without
#   when an earlier wave's stitch had already rewritten that line's category: a line
#   that then fits no token is stepped over).  The shifted pcs are checked, row by row.
# * Shifted past our WAVE_END row, AMD meets only s_code_end padding (a SALU to it: no
#   immediate fits), steps over it to the end of the code and writes its records with pc
#   "raw:0x0" ("past_end"): allowed exactly there.
# * Where AMD's pc is otherwise lost ("raw:0x0" past a word LLVM cannot read, discover_ops;
#   it never finds it again) the times are compared, the pcs not, AMD's extra IMMED
#   records being its token-less waits, at most one for each s_barrier_wait our rows pass.
# A wave is (event, slot, WAVE_START time).  Prints one line per wave that differs, then
# "waves N matched M lost_pc L records R waits W shifted S moved V past_end P" and exits 1
# if any wave differs.  Our rows of the waves of other SIMDs (numbered from 2147483648,
# sqtt-walk(1)), which AMD does not walk, are passed over.
BEGIN { FS = "\t" }
FNR == 1 { file++ }
/^#/ { next }
file == 1 && $4 >= 2147483648 { next }
file == 1 {
	# ours: event se kernel wave slot pc time delta token inst class
	cls[$1, $6] = $11
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
	if (!(k in an)) { order[++nw] = k; an[k] = 0 }
	n = ++an[k]
	apc[k, n] = $6; atime[k, n] = $7; astall[k, n] = $8; adur[k, n] = $9
	acat[k, n] = $10; aev[k, n] = $1
}
# AMD's time of record j (its issue less its stall) and its end.
function abeg(k, j) { return atime[k, j] - astall[k, j] }
function aend(k, j) { return abeg(k, j) + adur[k, j] }
# Is AMD's record j one of its own token-less s_barrier_wait records?
function await(k, j) {
	return acat[k, j] == "IMMED" && astall[k, j] == 0 && cls[aev[k, j], apc[k, j]] == "barrier" &&
	    (j == 1 || abeg(k, j) == aend(k, j - 1))
}
# Is AMD's record j (after its wait record j - 1) our row r's token, moved a cycle later?
function moved(k, j, r) {
	return j > 1 && await(k, j - 1) && adur[k, j - 1] == 1 && abeg(k, j) == abeg(k, j - 1) + 1 &&
	    atime[k, j] == rtime[k, r] + 1
}
function time_ok(k, j, r) { return atime[k, j] == rtime[k, r] || moved(k, j, r) }
# The pc AMD gives our row r, its pcs shifted by s rows.
function want_pc(k, r, s) { return r + s <= rcount[k] ? rpc[k, r + s] : "raw:0x0" }
END {
	bad = 0; lost = 0
	for (i = 1; i <= nw; i++) {
		k = order[i]
		if (!(k in rcount)) { print "wave " k ": not walked"; bad++; continue }
		n = an[k]; nopc = n + 1; s = 0; waits = 0; extra = 0
		j = 1
		for (r = 1; r <= rcount[k]; r++) {
			if (j > n) { print "wave " k ": " rcount[k] " rows, AMD " n " records"; bad++; break }
			if (rcls[k, r] == "barrier") waits++
			while (j < n && j < nopc && await(k, j)) {
				if (apc[k, j] == rpc[k, r + s] && rcls[k, r + s] == "barrier" &&
				    !(atime[k, j] == rtime[k, r] && apc[k, j + 1] == want_pc(k, r + 1, s) &&
				    atime[k, j + 1] == rtime[k, r + 1])) {
					s++; nshift++	# our wait's token given to the next line
				} else if (apc[k, j] == rpc[k, r + s])
					break	# the wait's own token
				nwait++; j++
			}
			# a wait AMD stepped over with no record: its token on the next line
			if (j < nopc && r + s < rcount[k] && rcls[k, r + s] == "barrier" &&
			    apc[k, j] != rpc[k, r + s] && apc[k, j] == want_pc(k, r, s + 1) &&
			    time_ok(k, j, r)) {
				s++; nshift++
			}
			if (j < nopc && j < n && apc[k, j] !~ /^0x[0-9a-f]+$/ && want_pc(k, r, s) != "raw:0x0")
				nopc = j	# AMD lost the pc here, not past our WAVE_END
			if (j >= nopc) {	# times only; AMD's extra IMMED records are its waits
				while (j < n && rtime[k, r] != atime[k, j] && acat[k, j] == "IMMED" && extra < waits) {
					j++; extra++
				}
			}
			pc = want_pc(k, r, s)
			pcok = j >= nopc || apc[k, j] == pc
			if (pcok && j < nopc && pc == "raw:0x0") npast++
			if (j == n) {	# s_endpgm: our WAVE_END
				if (r != rcount[k]) {
					print "wave " k ": " rcount[k] " rows, AMD " n " records"; bad++
				} else if (rtok[k, r] != "WAVE_END" || rtime[k, r] != atime[k, j] + adur[k, j] || !pcok) {
					print "wave " k ": end " rpc[k, r] " " rtime[k, r] " " rtok[k, r] \
					    ", AMD " apc[k, j] " " atime[k, j] + adur[k, j]; bad++
				}
				break
			}
			if (!pcok || !time_ok(k, j, r)) {
				print "wave " k ": record " j ": " rpc[k, r] " " rtime[k, r] " " rtok[k, r] \
				    ", AMD " apc[k, j] " " atime[k, j] " (pc wanted " pc ")"
				bad++
				break
			}
			if (moved(k, j, r)) nmoved++
			j++
		}
		if (nopc <= n) lost++
		nrec += n
	}
	print "waves " nw + 0 " matched " (nw - bad) " lost_pc " lost " records " nrec + 0 \
	    " waits " nwait + 0 " shifted " nshift + 0 " moved " nmoved + 0 " past_end " npast + 0
	exit bad > 0
}
