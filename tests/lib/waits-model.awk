# waits-model.awk: what the s_waitcnt rows of a walk waited for, worked out from the walk
# alone (pcs, issue times, disassembly), not from stall-attr's cost, cause or retired
# columns nor from stall-annotate: the expectations of t0820, t0830 and t0850, by
# construction on the authored traces of fixtures/annotate and from AMD's walk on the
# real captures (tests/lib/records.sh makes both into records).
#
# Input, read twice (awk -f waits-model.awk -v view=V RECS RECS): records, one per issue
# in each wave's order, TSV: kernel event wave pc time prev inst end, prev the time of
# the wave's previous record (its WAVE_START for the first), end 1 for the wave's end.
#
# The counters as gfx11 keeps them (docs/sqtt-format.md): vmcnt counts vector memory
# loads (global_/buffer_/flat_/scratch_load, atomics that return), lgkmcnt scalar memory
# and LDS (s_load, s_buffer_load, ds_).  They return in issue order, so vmcnt(N) retires
# all but the N youngest outstanding; the wait's cycles (time - prev) are caused by the
# youngest it retires, the one that came back last.  A row's hidden cycles: the distinct
# issue times of the event (ends left out) strictly between prev and time, of other waves.
#
# view=rows:   kernel event wave wait time cost load issue latency caused hidden hidden_valu
# view=waits:  kernel wait load hits latency_min latency_mean latency_max caused
# view=loads:  kernel load waits retired caused latency_mean
# view=loops:  kernel head tail insts waves iterations min max cycles per_iteration spin
#              (a loop: a branch whose next issue is at or before it, its head the
#              branch's target; insts: the distinct pcs issued in it; iterations: the
#              tail's issues; spin: its body holds no instruction but loads, waits,
#              compares, sleeps and the branch)
# view=kernel: kernel cycles waves flight (cycles: the waves' lifetimes summed, ends minus
#              starts; flight: the most waves of one event in flight at once)
BEGIN { FS = OFS = "\t" }
function counter(inst) {
	if (inst ~ /^(global|buffer|flat|scratch)_load/ || inst ~ /^(global|buffer|flat)_atomic.* glc/)
		return "vm"
	if (inst ~ /^s_(buffer_)?load/ || inst ~ /^ds_/)
		return "lgkm"
	return ""
}
function wanted(inst, c,   m) {	# the count an s_waitcnt leaves outstanding on c, -1: none
	if (match(inst, c "cnt\\([0-9]+\\)"))
		return substr(inst, RSTART + length(c) + 4, RLENGTH - length(c) - 5) + 0
	return -1
}
function hidden(ev, lo, hi, valu,   t, n) {	# the wave itself has no issue inside
	n = 0
	for (t = lo + 1; t < hi; t++)
		if ((ev, t) in busy && (!valu || (ev, t, "valu") in busy))
			n++
	return n
}
FNR == 1 { pass++ }
pass == 1 {
	if ($8 == 1)
		next
	busy[$2, $5] = 1
	if ($7 ~ /^v_/)
		busy[$2, $5, "valu"] = 1
	next
}
{
	kern = $1; ev = $2; w = $3; pc = $4; t = $5; prev = $6; inst = $7
	wv = ev SUBSEP w
	if (!(wv in start)) {
		start[wv] = prev; wkern[wv] = kern; nwave[kern]++
	}
	if ($8 == 1) {
		life[kern] += t - start[wv]; wend[wv] = t
		next
	}
	# loops: a back edge from a branch to an earlier pc
	if ((wv in lastpc) && pc + 0 <= lastpc[wv] + 0 && lastinst[wv] ~ /^s_(cbranch|branch)/) {
		# the head: the branch's target, pc + 4 + 4 * simm16 (an s_delay_alu there issues nothing)
		head = pc
		if (split(lastinst[wv], op, " ") == 2 && op[2] ~ /^[0-9]+$/)
			head = lastpc[wv] + 4 + 4 * (op[2] >= 32768 ? op[2] - 65536 : op[2])
		lk = kern SUBSEP sprintf("0x%x", head) SUBSEP sprintf("0x%x", lastpc[wv])
		loop[lk] = 1
	}
	lastpc[wv] = pc; lastinst[wv] = inst
	rec[++nrec] = kern SUBSEP wv SUBSEP pc SUBSEP t SUBSEP prev SUBSEP inst

	c = counter(inst)
	if (c != "") {
		n = ++nout[wv, c]
		out[wv, c, n] = pc SUBSEP t
	}
	if (inst !~ /^s_waitcnt/ || inst ~ /^s_waitcnt_/)
		next
	cost = t - prev
	h = hidden(ev, prev, t, 0); hv = hidden(ev, prev, t, 1)
	m = 0
	for (ci = 1; ci <= 2; ci++) {
		c = ci == 1 ? "vm" : "lgkm"
		keep = wanted(inst, c)
		if (keep < 0)
			continue
		n = nout[wv, c]; r = n - keep
		if (r <= 0)
			continue
		for (i = 1; i <= r; i++)
			got[++m] = out[wv, c, i]
		for (i = 1; i <= keep; i++)
			out[wv, c, i] = out[wv, c, i + r]
		nout[wv, c] = keep
	}
	# the youngest retired: the latest issue
	y = 0
	for (i = 1; i <= m; i++) {
		split(got[i], g, SUBSEP)
		if (y == 0 || g[2] + 0 > yt) { y = i; yt = g[2] + 0 }
	}
	wpc = sprintf("0x%x", pc)
	if (m == 0) {
		print_row(kern, ev, w, wpc, t, cost, "-", "-", "-", cost, h, hv)
		wk = kern SUBSEP wpc SUBSEP "-"
		hits[wk]++; caused[wk] += cost
		next
	}
	for (i = 1; i <= m; i++) {
		split(got[i], g, SUBSEP)
		lpc = sprintf("0x%x", g[1]); lat = t - g[2]
		cz = i == y ? cost : 0
		print_row(kern, ev, w, wpc, t, cost, lpc, g[2], lat, cz, h, hv)
		wk = kern SUBSEP wpc SUBSEP lpc
		if (!(wk in hits) || lat < lmin[wk]) lmin[wk] = lat
		if (!(wk in hits) || lat > lmax[wk]) lmax[wk] = lat
		hits[wk]++; lsum[wk] += lat; caused[wk] += cz
		lk = kern SUBSEP lpc
		if (!((lk, wpc) in lwaits)) { lwaits[lk, wpc] = 1; nlw[lk]++ }
		lret[lk]++; lcaused[lk] += cz; llat[lk] += lat
	}
}
function print_row(k, e, w, wait, t, cost, load, issue, lat, cz, h, hv) {
	if (view == "rows")
		print k, e, w, wait, t, cost, load, issue, lat, cz, h, hv
}
END {
	if (view == "waits")
		for (wk in hits) {
			split(wk, a, SUBSEP)
			if (a[3] == "-")
				print a[1], a[2], "-", hits[wk], "-", "-", "-", caused[wk]
			else
				print a[1], a[2], a[3], hits[wk], lmin[wk], sprintf("%.1f", lsum[wk] / hits[wk]), lmax[wk], caused[wk]
		}
	if (view == "loads")
		for (lk in lret) {
			split(lk, a, SUBSEP)
			print a[1], a[2], nlw[lk], lret[lk], lcaused[lk], sprintf("%.1f", llat[lk] / lret[lk])
		}
	if (view == "kernel") {
		for (wa in wend)	# the most waves of one event in flight at once: at some wave's start
			for (wb in wend) {
				split(wa, xa, SUBSEP); split(wb, xb, SUBSEP)
				if (xa[1] == xb[1] && start[wb] <= start[wa] && start[wa] < wend[wb])
					n_at[wa]++
			}
		for (wa in n_at)
			if (n_at[wa] > most[wkern[wa]])
				most[wkern[wa]] = n_at[wa]
		for (k in life)
			print k, life[k], nwave[k], most[k]
	}
	if (view == "loops")
		for (lk in loop) {
			split(lk, a, SUBSEP)
			head = strtonum_(a[2]); tail = strtonum_(a[3])
			delete its; delete seen; cyc = 0; ni = 0; spin = 1
			for (r = 1; r <= nrec; r++) {
				split(rec[r], f, SUBSEP)
				if (f[1] != a[1] || f[4] + 0 < head || f[4] + 0 > tail)
					continue
				p = f[4] + 0
				cyc += f[5] - f[6]
				if (!(p in seen)) {
					seen[p] = 1; ni++
					if (f[7] !~ /^(s_waitcnt|s_sleep|s_cbranch|s_branch|v_cmp|s_cmp)/ && counter(f[7]) != "vm")
						spin = 0
				}
				if (p == tail)
					its[f[2] SUBSEP f[3]]++
			}
			nw = 0; tot = 0; mn = -1; mx = 0
			for (x in its) {
				nw++; tot += its[x]
				if (mn < 0 || its[x] < mn) mn = its[x]
				if (its[x] > mx) mx = its[x]
			}
			print a[1], a[2], a[3], ni, nw, tot, mn, mx, cyc, sprintf("%.2f", cyc / tot), spin ? "spin" : "-"
		}
}
function strtonum_(s,   i, v, d) {
	if (s !~ /^0x/)
		return s + 0
	v = 0
	for (i = 3; i <= length(s); i++) {
		d = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		v = v * 16 + d
	}
	return v
}
