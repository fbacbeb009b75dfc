#!/bin/sh
# scripts/mutants.sh [NAME-PATTERN]: break the rules on purpose, one at a time, and check
# that the suite notices.  Each mutant is a sed edit of one source file: the programs are
# rebuilt and the whole suite runs against it, the test named beside the mutant first,
# then every other tests/t*.sh in order, stopping at the first that fails (the mutant is
# killed).  A mutant whose every test passes lives.  The file is put back after each (also
# on an interrupt).  A sed edit that changes nothing, or a mutant that does not build, is
# a failure of the run, said loudly: the code it named has moved, re-anchor it.
#
# NAME-PATTERN (a grep -E pattern) runs only the mutants whose name matches;
# MUTANTS_APPLY_ONLY=1 only checks that every edit still changes its file (seconds).  Exit 0 when
# every mutant was killed, 1 when one lived or could not be applied, 2 on trouble.  Run
# from a tree that builds (make all); `make mutants` runs it.
set -u
# built without link-time optimisation: a mutant's relink takes 2 s, not 24 (Makefile)
LTO=
export LTO
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
only=${1:-}
saved=$(mktemp "${TMPDIR:-/tmp}/mutant.XXXXXX")
list=$(mktemp "${TMPDIR:-/tmp}/mutants.XXXXXX")
file=
restore() {
	if [ -n "$file" ]; then
		cp "$saved" "$file" && touch "$file"
		file=
	fi
}
trap 'restore; rm -f "$saved" "$list"; make -s all >/dev/null 2>&1' EXIT
trap 'exit 2' HUP INT TERM

make -s all >/dev/null 2>&1 || { echo "mutants: the tree does not build before any mutant" >&2; exit 2; }
ls tests/t[0-9]*.sh > "$list"

# run_suite FIRST: FIRST, then the others; prints the test that failed, or nothing.
run_suite() {
	for t in "tests/$1.sh" $(grep -v -x "tests/$1.sh" "$list"); do
		# A mutant may make a program loop: each test gets 10 minutes and files of at most
		# 512 MiB (sh's ulimit -f counts 512-byte blocks), and its outputs are removed after
		# it, so that one mutant cannot fill the disk for the ones after it.
		if ! (ulimit -f 1048576; exec timeout 600 sh "$t") >/dev/null 2>&1; then
			rm -rf "tests/out/$(basename "$t" .sh)"
			basename "$t" .sh
			return 0
		fi
		rm -rf "tests/out/$(basename "$t" .sh)"
	done
}

start=$(date +%s)
total=0 killed=0 lived=0 broken=0
while IFS='|' read -r name test src expr; do
	[ -n "$name" ] || continue
	case $name in '#'*) continue ;; esac
	if [ -n "$only" ] && ! printf '%s\n' "$name" | grep -q -E -- "$only"; then
		continue
	fi
	total=$((total + 1))
	if [ ! -f "tests/$test.sh" ] || [ ! -f "$src" ]; then
		echo "mutant $name: NOT APPLIED: no tests/$test.sh or no $src" >&2
		broken=$((broken + 1)); continue
	fi
	file=$src
	cp "$src" "$saved"
	sed -i "$expr" "$src"
	if cmp -s "$src" "$saved"; then
		echo "mutant $name: NOT APPLIED: the edit changed nothing in $src (re-anchor it)" >&2
		restore; broken=$((broken + 1)); continue
	fi
	if [ -n "${MUTANTS_APPLY_ONLY:-}" ]; then
		echo "mutant $name: applies"
		restore; continue
	fi
	if ! make -s -j2 all >/dev/null 2>&1; then
		echo "mutant $name: NOT APPLIED: does not build (re-anchor it)" >&2
		restore; broken=$((broken + 1)); continue
	fi
	t0=$(date +%s)
	by=$(run_suite "$test")
	if [ -z "$by" ]; then
		echo "mutant $name: LIVES (the whole suite passes)"
		lived=$((lived + 1))
	else
		[ "$by" = "$test" ] && how="its test" || how="another test than $test"
		echo "mutant $name: killed by $by ($how, $(( $(date +%s) - t0 )) s)"
		killed=$((killed + 1))
	fi
	restore
done <<'EOF'
fetch rule without its taken-branch half|t0460-attr-rules|libcommon/analysis/attr.c|s/if (w->prev_taken || (r->pc_known/if ((r->pc_known/
cache line 128 bytes, not 64|t0460-attr-rules|libcommon/gen/isa.c|0,/\.fetch_line = 64,/s//.fetch_line = 128,/
image_store counted on vmcnt|t0460-attr-rules|libcommon/gen/isa.c|s/return pfx(mnemonic, "image_store") ? CNT_VS : CNT_VM;/return pfx(mnemonic, "image_store") ? CNT_VM : CNT_VM;/
waitcnt simm16 vmcnt 4 bits wide|t0460-attr-rules|libcommon/gen/isa.c|s/(v >> 10) \& 63/(v >> 10) \& 15/
waitcnt simm16 lgkmcnt 4 bits wide|t0460-attr-rules|libcommon/gen/isa.c|s/(v >> 4) \& 63/(v >> 4) \& 15/
s_clause not stepped over|t0350-walk-fits|libcommon/analysis/walk.c|s/if (!untraced(w->ev, in) \&\& in->cls != IC_CLAUSE)/if (!untraced(w->ev, in))/
lds_other_simd_6 not skipped|t0350-walk-fits|libcommon/gen/gfx11/gfx11-token.c|s/if ((op >= 80 \&\& op <= 101) || op == 119)/if ((op >= 80 \&\& op <= 101))/
trap token fits another instruction|t0350-walk-fits|libcommon/gen/isa.c|s/return pfx(mnemonic, "s_trap");/return c == IC_MESSAGE;/
resync across branches|t0350-walk-fits|libcommon/analysis/walk.c|s/if (in->cls == IC_ENDPGM || in->cls == IC_BRANCH || in->cls == IC_JUMP)/if (in->cls == IC_ENDPGM)/
wrong code object accepted|t0940-empty-results|libcommon/analysis/walk.c|s/e->misfit >= WRONG_MIN \&\& e->misfit > e->fit/0/
a walk of no row accepted|t0940-empty-results|libcommon/analysis/walk.c|s/if (wk->nrows > 0)/if (1)/
gfx942 code object accepted|t0210-codeobj|libcommon/gen/gfx11/gfx11.c|s/{ "gfx1153", 0x058, NULL },/{ "gfx1153", 0x04c, NULL },/
gen/isa: an unreadable FLAT word of SEG 3, not 2, taken for a global one|t0212-flat-unreadable|libcommon/gen/isa.c|s/	if (f == ENC_FLAT \&\& (w0 >> seg_lo \& 3) == 2)/	if (f == ENC_FLAT \&\& (w0 >> seg_lo \& 3) == 3)/
every target taken for the default|t0360-target|libcommon/gen/gen.c|s/\*said = !(value == NULL || strcmp(value, "-") == 0);/*said = 0;/
gfx1101 not in the model|t0360-target|libcommon/gen/gfx11/gfx11.c|s/ { "gfx1101", 0x046, NULL },//
target names matched by their prefix|t0360-target|libcommon/gen/gen.c|s/if (strcmp(name, m->targets\[j\].name) == 0)/if (strncmp(name, m->targets[j].name, 4) == 0)/
the stream's target not given to the walk|t0360-target|cmd/sqtt-walk.c|s/walk_target(wk, meta_target(t, 1));/(void)meta_target(t, 1);/
code object of another gfx11 processor taken|t0360-target|libcommon/code/codeobj.c|s/mach == 0 || mach == want->mach ||/mach == 0 || own ||/
HEADER written in another version|t0360-target|libcommon/trace/encode.c|s/7, 13, gen->version)/7, 13, gen->version + 1)/
disassembler always gfx1100's|t0360-target|libcommon/code/codeobj.c|s/if ((dc = disasm_for(b->cpu->name, 0)) == NULL) {/if ((dc = disasm_for("gfx1100", 0)) == NULL) {/
stall ignores its capture's target|t0360-target|libcommon/pipeline/pipeline.c|s/walk_target(wk->walker, pl->target_said ? pl->target : NULL);/walk_target(wk->walker, NULL);/
a 20-digit number past 2^64-1 accepted|t0160-tsv-reader|libcommon/base/tsv.c|s/if (v > (UINT64_MAX - d) \/ 100000000)/if (0)/
memo keyed by a name's first 8 bytes|t0160-tsv-reader|libcommon/base/tsv.c|s/w1 \&= (1ULL << (8 \* (n - 8))) - 1;/w1 = 0;/
--code given another letter|t0950-cli|libcommon/base/cli.c|s/{ "code", required_argument, 'c' },/{ "code", required_argument, 'C' },/
--dispatch selects nothing out|t0930-stall-inputs|libcommon/capture/capture.c|s/if (o->dispatch_set \&\& e->dispatch != o->dispatch)/if (0)/
codeobj disassembles every region when opened|t0210-codeobj|libcommon/code/codeobj.c|s/	choose_entry(co, co->b, kernel);/	(void)codeobj_insts(co, NULL); choose_entry(co, co->b, kernel);/
trace buffers not found again by their number|t0750-walk-hostile|libcommon/base/util.c|s/if (m->key\[h\] == key)/if (m->key[h] == key + 1)/
hex digit f read as 14|t0160-tsv-reader|libcommon/base/util.c|s/-1, 10, 11, 12, 13, 14, 15, -1,/-1, 10, 11, 12, 13, 14, 14, -1,/
# issue 19: gfx12
gfx12 fetch line 64 bytes, not 128|t0306-gfx12-programs|libcommon/gen/gfx12/gfx12-isa.c|s/m->fetch_line = 128;/m->fetch_line = 64;/
an s_barrier_wait's own token given to the next instruction, as AMD does|t0305-walk-gfx12|libcommon/analysis/walk.c|0,/if (fits(m, w, in, type, op))/s//if (!(w->ev->no_barrier_wait \&\& in->cls == IC_BARRIER) \&\& fits(m, w, in, type, op))/
gfx12 op 122 unnamed|t0306-gfx12-programs|libcommon/gen/gfx12/gfx12-token.c|s/{ 122, "barrier_signal" }/{ 123, "barrier_signal" }/
# the issue 24 survivors
NEW_PC's slot field one bit narrower|t0335-newpc-slot|libcommon/gen/token.c|s/\*slot = (unsigned)tok_bits(raw, 11, 16);/*slot = (unsigned)tok_bits(raw, 11, 15);/
issue_wait counts an issue at the previous row's own cycle|t0465-issue-wait|libcommon/analysis/attr.c|s/(uint64_t)b > from \&\&/(uint64_t)b >= from \&\&/g; s/if (e->ring_time\[i\] <= from)/if (e->ring_time[i] < from)/
the lds hint's threshold doubled|t0855-annotate-lds|libcommon/analysis/annotate.c|s/s->c.cyc\[CAUSE_LDS_QUEUE\] < 4 \* (int64_t)s->hits/s->c.cyc[CAUSE_LDS_QUEUE] < 8 * (int64_t)s->hits/
stall-diff: a move across several lines is one swap|t0515-diff-align|libcommon/analysis/align.c|s/if (ba - bb == 1)/if (ba - bb >= 1)/; s/else if (bb - ba == 1)/else if (bb - ba >= 1)/
stall-diff: the other of two equal instructions kept|t0515-diff-align|libcommon/analysis/align.c|s/if (s->sid\[r\] == s->sid\[q\] \&\& exact(s, r, o) >= exact(s, q, o))/if (s->sid[r] == s->sid[q] \&\& exact(s, r, o) > exact(s, q, o))/
stall-budget: > kept at equality|t0525-budget-edges|libcommon/analysis/budget.c|s/v.broken = !(v.measured > v.limit)/v.broken = !(v.measured >= v.limit)/
stall-budget: <= broken at equality|t0520-stall-budget|libcommon/analysis/budget.c|s/v.broken = !(v.measured <= v.limit)/v.broken = !(v.measured < v.limit)/
analysis/budget: a repetition of a repetition taken|t0525-budget-rules|libcommon/analysis/budget.c|s/if ((c == '\*' || c == '+' || c == '?') \&\& was_rep) {/if (0) {/
analysis/walk: the dispatch's entry ignored, the descriptor's walked|t0371-walk-entry|libcommon/analysis/walk.c|s/^\tif (addr == 0)$/\tif (1)/
analysis/walk: an entry that is no instruction walked all the same|t0371-walk-entry|libcommon/analysis/walk.c|s/if (addr < p->base || codeobj_at(code, pc) == NULL) {/if (addr < p->base) {/
JSON: U+2029 written raw|t0615-json-separators|libcommon/base/json.c|s/(s\[2\] == 0xa8 || s\[2\] == 0xa9)/(s[2] == 0xa8)/
JSON: U+2028 written raw|t0610-trace-json|libcommon/base/json.c|s/(s\[2\] == 0xa8 || s\[2\] == 0xa9)/(s[2] == 0xa9)/
rocprofv3 JSON numbers as strings read in decimal only|t0145-rocprof-strings|libcommon/capture/rocprof.c|s/\*out = strtoull(v->str, \&end, 0);/*out = strtoull(v->str, \&end, 10);/
pickle BININT read unsigned|t0115-pickle-ints|libcommon/base/pickle.c|s/new_int(L, (int32_t)(uint32_t)u)/new_int(L, (int64_t)(uint32_t)u)/
pickle LONG1/LONG4 not sign-extended|t0115-pickle-ints|libcommon/base/pickle.c|s/u |= (uint64_t)(i < n ? p\[i\] : ext) << (8 \* i);/u |= (uint64_t)(i < n ? p[i] : 0) << (8 * i);/
tinygrad dispatches not split where a shader engine repeats|t0170-capture-selects|libcommon/capture/capture.c|s/c->ev\[i\].se <= c->ev\[i - 1\].se/c->ev[i].se < c->ev[i - 1].se/
sqtt-dump -e N numbered per capture|t0170-capture-selects|libcommon/capture/capture.c|s/if (o->event_set \&\& offset + e->index != /if (o->event_set \&\& 0 * offset + e->index != /
-k NAME matches a prefix|t0170-capture-selects|libcommon/capture/capture.c|s/return p != NULL \&\& strcmp(p->name, o->select_kernel) == 0;/return p != NULL \&\& strncmp(p->name, o->select_kernel, strlen(o->select_kernel)) == 0;/
DWARF: the same line number in two files merged|t0859-annotate-files|libcommon/analysis/annotate.c|s/if ((c = strcmp(x->file, y->file)) != 0)/if ((c = 0) != 0)/
loops: a branch to itself is no loop|t0858-loops|libcommon/code/loops.c|s/(uint64_t)b->target > b->pc)/(uint64_t)b->target >= b->pc)/
loops: a loop that only compares is spin|t0858-loops|libcommon/code/loops.c|s/out\[i\].spin = only \&\& reads;/out[i].spin = only;/
the dominant cause on a tie: the later one|t0505-ties|libcommon/analysis/profile.c|s/(cyc\[i\] == cyc\[best\] \&\& hit\[i\] > hit\[best\])/(cyc[i] == cyc[best] \&\& hit[i] >= hit[best])/
registers: vcc is not s106-s107|t0857-regs|libcommon/code/regs.c|s/set(f, r, 0, f->vcc, f->vcc + 1);/set(f, r, 0, 124, 125);/
registers: exec is not s126-s127|t0857-regs|libcommon/code/regs.c|s/set(f, r, 0, f->exec, f->exec + 1);/set(f, r, 0, 124, 125);/
gen/isa: gfx11's vcc two SGPRs lower|t0857-regs|libcommon/gen/isa.c|s/\.vcc = 106,/.vcc = 104,/
timeline: the later of two equal rows colours the bar|t0505-ties|libcommon/report/timeline.c|s/if (b->longest > a->longest) {/if (b->longest >= a->longest) {/
# more, one or more in every module
the dominant cause on a tie of cycles: not the more rows|t0505-ties|libcommon/analysis/profile.c|s/(cyc\[i\] == cyc\[best\] \&\& hit\[i\] > hit\[best\])/(cyc[i] == cyc[best] \&\& hit[i] < hit[best])/
analysis/profile: a line's rows by cause not kept (a tie of cycles not to the more rows)|t0505-ties|libcommon/analysis/profile.c|s/			hit\[l->causes\[i\].cause\] = l->causes\[i\].hit;/			hit[l->causes[i].cause] = 0;/
base/util: the arena carves a block bigger than its chunks from one of them|t0420-stall-table|libcommon/base/util.c|s/csize = want > ARENA_CHUNK \/ 4 ? want : ARENA_CHUNK;/csize = ARENA_CHUNK;/
analysis/profile: the index of lines loses its first slot when it grows|t0420-stall-table|libcommon/analysis/profile.c|s/	for (i = 0; i < p->lsize; i++) {/	for (i = 1; i < p->lsize; i++) {/
analysis/profile: the index of lines takes a line of another tag|t0420-stall-table|libcommon/analysis/profile.c|s/if (p->ltab\[j\].tag != tag)/if (p->ltab[j].tag == tag)/
analysis/profile: the index of lines never grows past its first slots (the probe bound makes it fail, not hang)|t0420-stall-table|libcommon/analysis/profile.c|s/if (4 \* (p->nindexed + 1) > 3 \* p->lsize)$/if (p->lsize == 0)/
analysis/profile: a lookup by text does not first index the lines made without it|t0428-stall-lines|libcommon/analysis/profile.c|s/if (strcmp(pc, PROFILE_NO_PC) != 0)/if (0 \&\& strcmp(pc, PROFILE_NO_PC) != 0)/
pipeline: a kernel's lines made new though a second program made lines of it too|t0428-stall-lines|libcommon/pipeline/pipeline.c|s/	return wk->kprog\[k\] == prog + 1;/	return 1;/
pipeline: a run into a profile with lines makes its lines new|t0428-stall-lines|libcommon/pipeline/pipeline.c|s/	wk->lines_new = wk->prof->nall == 0;/	wk->lines_new = 1;/
cmd/stall-attr: the reader of a row stream lost when a bad row raises|t0701-bad-valgrind|cmd/stall-attr.c|s/	fatal_push(tsv_close_at, \&t);	\/\* a bad row/	\/\* a bad row/
cmd/sqtt-encode: the capture writer lost when a bad row raises|t0701-bad-valgrind|cmd/sqtt-encode.c|s/	fatal_push(free_writer, w);/	(void)free_writer;/
cmd/stall-annotate: the engine lost when a refused line raises|t0701-bad-valgrind|cmd/stall-annotate.c|s/	fatal_push(free_annotate, a);/	(void)free_annotate;/
analysis/profile: --top's heap keeps the line before, not after, those below it|t0420-stall-table|libcommon/analysis/profile.c|s/if (c < n \&\& cmp(\&h\[c\], \&h\[m\]) > 0)/if (c < n \&\& cmp(\&h[c], \&h[m]) < 0)/
analysis/profile: --top's heap not made whole at its root|t0420-stall-table|libcommon/analysis/profile.c|s/for (i = k \/ 2; i-- > 0;)/for (i = k \/ 2; i-- > 1;)/
analysis/profile: a line's first cause zeroed when its causes outgrow the line|t0505-ties|libcommon/analysis/profile.c|s/			memcpy(l->causes, c0, l->ncause \* sizeof(\*l->causes));/			memcpy(l->causes + 1, c0 + 1, (l->ncause - 1) * sizeof(*l->causes));/
capture-model: a file a capture names read outside its directory|t0720-captures|libcommon/capture/capture-model.c|s/if (!meta_path_within(path, c->path) || stat(/if (stat(/
code/codeload: a program found by its tag alone, any name|t0345-walk-identity|libcommon/code/codeload.c|s/if (strcmp(p->name, name) != 0)/if (name[0] == '\\0')/
base/out: the digits 02 written 03|t0420-stall-table|libcommon/base/out.c|s/"00010203040506070809/"00010303040506070809/
base/meta: a \x00 escape accepted|t0700-bad|libcommon/base/meta.c|s/(lo = hex_digit((unsigned char)s\[2\])) < 0 || (hi | lo) == 0)/(lo = hex_digit((unsigned char)s[2])) < 0)/
base/elfsym: a kernel's .kd symbol not taken|t0145-rocprof-strings|libcommon/base/elfsym.c|s/strcmp(name + n->len, ".kd") == 0)/strcmp(name + n->len, ".kd") == 1)/
gen/token: IMMEDIATE's wave mask one slot short|t0300-walk-golden|libcommon/gen/token.c|s/return (unsigned)tok_bits(raw, 8, 24);/return (unsigned)tok_bits(raw, 8, 23);/
gen/gen: HEADER's version one bit short|t0136-header-version|libcommon/gen/gen.c|s/h->version = (unsigned)tok_bits(raw, 7, 13);/h->version = (unsigned)tok_bits(raw, 7, 12);/
trace/sqtt: the shorter of two matching token patterns taken|t0107-decode-modes|libcommon/trace/sqtt.c|s/if (ti->plen > bestlen \&\&/if (ti->plen >= bestlen \&\&/
trace/sqtt: the counting loop steps one nibble too far over two short tokens|t0107-decode-modes|libcommon/trace/sqtt.c|s/pe->bits = (uint8_t)((2 + nibs_of/pe->bits = (uint8_t)((3 + nibs_of/
trace/sqtt: the counting loop counts a TIMESTAMP as flagging lost packets by the wrong bits|t0107-decode-modes|libcommon/trace/sqtt.c|s/(i \& ts_mask) == ts_lost/(i \& ts_mask) != ts_lost/
trace/sqtt: the counting loop leaves out the second token of a step|t0107-decode-modes|libcommon/trace/sqtt.c|s/local\[step\[i\].t2\] += h;/;/
trace/sqtt: the counting loop reads a token from past its window's first 52 bits|t0107-decode-modes|libcommon/trace/sqtt.c|s/(unsigned)(end - \*pos - 18) \* 4 : 52,/(unsigned)(end - *pos - 18) * 4 : 60,/
trace/sqtt: the counting loop keeps its second chain's counts where the halves never fell into step|t0107-decode-modes|libcommon/trace/sqtt.c|s/memset(hits2, 0, sizeof(hits2));/;/
trace/sqtt: the counting loop takes back one step of its second chain too few|t0107-decode-modes|libcommon/trace/sqtt.c|s/size_t upto = p == s\[k\].end ? k + 1 : k;/size_t upto = k;/
trace/sqtt: the counting loop drops the second token of the step its chains meet in|t0107-decode-modes|libcommon/trace/sqtt.c|s/local\[step\[s\[k\].idx\].t2\]++;/local[step[s[k].idx].t2] += 0;/
trace/sqtt: the counting loop counts again the tokens its first chain passed to meet the second|t0107-decode-modes|libcommon/trace/sqtt.c|s/\*pos = p;/;/
trace/sqtt: the counting loop's second chain starts a nibble past its first steps|t0107-decode-modes|libcommon/trace/sqtt.c|s/pos2 + 2 : 0, pos2 + bits \/ 4,/pos2 + 2 : 0, pos2 + bits \/ 4 + 1,/
trace/sqtt: a walk steps over the REG tokens that write the program address, takes the others|t0107-decode-modes|libcommon/trace/sqtt.c|s/(want\[t\] == SQTT_WANT_PGM \&\& sqtt_reg_is_pgm(raw));/(want[t] == SQTT_WANT_PGM \&\& !sqtt_reg_is_pgm(raw));/
trace/sqtt: the walk's decode steps over the first of two short tokens where it wants it|t0107-decode-modes|libcommon/trace/sqtt.c|s/pe->t2 != TOK_NTYPES \&\& want\[t\] == SQTT_WANT_NONE \&\&/pe->t2 != TOK_NTYPES \&\&/
trace/sqtt: the walk's decode drops the time of the first of two short tokens|t0107-decode-modes|libcommon/trace/sqtt.c|s/time += sqtt_delta(g, t, w \& 0xff);/;/
trace/sqtt: the walk's decode reads the second of two short tokens a nibble early|t0107-decode-modes|libcommon/trace/sqtt.c|s/w = pe->bits <= 64 ? w >> 8 :/w = pe->bits <= 64 ? w >> 4 :/
trace/sqtt: the walk's decode reads a pair's long second token from the first's window|t0107-decode-modes|libcommon/trace/sqtt.c|s/w = pe->bits <= 64 ? w >> 8 : window(data, pos);/w = w >> 8;/
analysis/attr: an LDS issue stall unexplained|t0410-stall-attr|libcommon/analysis/attr.c|s/		return CAUSE_LDS_QUEUE;/		return CAUSE_UNEXPLAINED;/
analysis/attr: a VMEM issue stall unexplained|t0410-stall-attr|libcommon/analysis/attr.c|s/		return CAUSE_VMEM_ISSUE;/		return CAUSE_UNEXPLAINED;/
analysis/attr: an instruction's execution left on the next row|t0476-attr-fetch-exec|libcommon/analysis/attr.c|s/if (busy > 1 \&\& !a->raw \&\& cause == CAUSE_ISSUE_CYCLE)/if (0)/
analysis/attr: the execution moved whole, the next row keeping nothing|t0476-attr-fetch-exec|libcommon/analysis/attr.c|s/move = w->prev_busy - 1;/move = w->prev_busy;/
analysis/attr: a straddle into a new block not fetch|t0476-attr-fetch-exec|libcommon/analysis/attr.c|s/} else if (w->prev_last \/ a->model->fetch_block != w->prev_pc \/ a->model->fetch_block)/} else if (0)/
gen/isa: a straddle of a 64-byte line fetch|t0476-attr-fetch-exec|libcommon/gen/isa.c|s/\.fetch_block = 256,/.fetch_block = 64,/
analysis/attr: a new line told by the previous row's first byte, not its last|t0476-attr-fetch-exec|libcommon/analysis/attr.c|s/!= w->prev_last \/ a->model->fetch_line/!= w->prev_pc \/ a->model->fetch_line/
analysis/attr: a store of what the VALU wrote not valu_dep|t0477-attr-valu-mem|libcommon/analysis/attr.c|s/if (regs_overlap(\&vdef, \&use) || /if (/
analysis/attr: a load into what the VALU read not valu_dep|t0477-attr-valu-mem|libcommon/analysis/attr.c|s/ || regs_overlap(\&vuse, \&def))/)/
analysis/attr: a first s_sleep all launch|t0478-attr-two-causes|libcommon/analysis/attr.c|s/if ((sleep = sleep_of(a, r)) > 0 \&\& cost > 0) {/if (0) {/
analysis/attr: issue_wait keeps the whole gap its others do not fill|t0478-attr-two-causes|libcommon/analysis/attr.c|s/		if (k < cost - 1) {/		if (0) {/
analysis/attr: issue_wait without its own issue cycle|t0478-attr-two-causes|libcommon/analysis/attr.c|s/\*cost2 = cost - 1 - k;/*cost2 = cost - k;/
analysis/profile: a row's second cause not given its part|t0478-attr-two-causes|libcommon/analysis/profile.c|s/	if (r->cost2 > 0) {/	if (0) {/
analysis/annotate: a row's second cause not given its part|t0478-attr-two-causes|libcommon/analysis/annotate.c|s/count(\&s->c, cause, cost - r->cost2);/count(\&s->c, cause, cost);/
gen/gfx9: CDNA given gfx11's VOPD forms|t0109-gfx9-programs|libcommon/gen/gfx9/gfx9-isa.c|s/	m->regs.vopd_ops = NULL;/	(void)0;/
gen/gfx12: gfx11's names v_max_f32, v_min_f32 in its VOPD list|t0316-gfx12-vopd|libcommon/gen/gfx12/gfx12-isa.c|s/"v_cndmask_b32", "v_max_num_f32", "v_min_num_f32",/"v_cndmask_b32", "v_max_f32", "v_min_f32",/
gen/gfx12: gfx11's VOPD list|t0316-gfx12-vopd|libcommon/gen/gfx12/gfx12-isa.c|s/	m->regs.vopd_ops = vopd_ops;/	(void)vopd_ops;/
analysis/dispatch: --dispatch keeps every dispatch's rows|t0900-rocprof-run|libcommon/analysis/dispatch.c|s/if (ds->only >= 0 \&\& d != ds->only)/if (0)/
analysis/dispatch: --by-dispatch -k counts every kernel's rows|t0480-report-rules|libcommon/analysis/dispatch.c|s/if (ds->kernel != NULL \&\& strcmp(kernel, ds->kernel) != 0)/if (0)/
report/timeline: --occupancy -k shows every kernel's SIMDs|t0480-report-rules|libcommon/report/timeline.c|s/if (kernel != NULL \&\& strcmp(kname, kernel) != 0)/if (kernel != NULL \&\& 0)/
analysis/cause: an old cause name read as other|t0455-cause-rename|libcommon/analysis/cause.c|s/		return cause_was\[i - NCAUSE\].cause;/		return CAUSE_OTHER;/
report/report: --sort hits sorts by cycles|t0506-sort-hits|libcommon/report/report.c|s/		\*k = REPORT_HITS;/		*k = REPORT_CYCLES;/
cmd/sqtt-walk: a ##source capture that cannot be opened not named with its line|t0700-bad|cmd/sqtt-walk.c|s/		if (source_where != NULL)/		if (0)/
trace/sqtt: a block's tokens begun in the block before lose their first bytes|t0427-stall-stages|libcommon/trace/sqtt.c|s/	memcpy(p - keep, tail, keep);/	memset(p - keep, 0, keep);/
capture: a stream read ahead says no read error|t0427-stall-stages|libcommon/capture/capture-model.c|s/		return s->pf->taken_all ? s->pf->error : NULL;/		return NULL;/
analysis/attr: a failed run's live waves not freed|t0427-stall-stages|libcommon/analysis/attr.c|s/^				free(w);$/				;/
capture: a read-ahead error said at the whole block before it|t0427-stall-stages|libcommon/capture/capture-model.c|s/	pf->taken_all = pf->done \&\& pf->tail == pf->head \&\& n < AHEAD_BLOCK;/	pf->taken_all = pf->done \&\& pf->tail == pf->head;/
report/tracejson: a slice one cycle longer than its row|t0610-trace-json|libcommon/report/tracejson.c|s/r->cause, start, r->cost, stable);/r->cause, start, r->cost + 1, stable);/
report/tracejson: a time's tens of cycles written as its units|t0610-trace-json|libcommon/report/tracejson.c|s/	p\[1\] = (char)('0' + frac \/ 10 % 10);/	p[1] = (char)('0' + frac % 10);/
report/tracejson: a string's kept JSON taken for another's in its slot|t0610-trace-json|libcommon/report/tracejson.c|s/	if (m->str == s) {/	if (m->str != NULL) {/
report/tracejson: a string's kept JSON one byte short|t0610-trace-json|libcommon/report/tracejson.c|s/	m->len = o->n - at;/	m->len = o->n - at - 1;/
report/tracejson: a row's second cause gets no slice of its own|t0479-two-cause-pictures|libcommon/report/tracejson.c|s/	if (r->cause2 == NULL) {/	if (1) {/
report/html: a row's second cause not drawn on its bar|t0479-two-cause-pictures|libcommon/report/html-page.html|s/if (c2) {	\/\* the second cause's part/if (0) {	\/* the second cause's part/
report/html: a row's second cause drawn over its whole bar|t0479-two-cause-pictures|libcommon/report/html-page.html|s/const xm = (b\[6 \* i\] + b\[6 \* i + 1\] - c2\[1\] - v0) \* sx;/const xm = x0;/
report/timeline: a row's second cause not kept on its bar|t0479-two-cause-pictures|libcommon/report/timeline.c|s/	b.len2 = r->cause2 != NULL ? r->cost2 : 0;/	b.len2 = 0;/
walk: the waves of other SIMDs dropped again where the traced SIMD has waves|t0310-walk-own|libcommon/analysis/walk.c|s/^\tkey = (uint64_t)(pk->sa/\tif (e->nwaves > 0)\n\t\treturn 0;\n&/
walk: the waves of other SIMDs numbered on from the traced ones|t0310-walk-own|libcommon/analysis/walk.c|s/	w.number = WALK_UNTRACED_WAVE + e->nuntraced++;/	w.number = e->nwaves++;/
walk: a wave of another SIMD kept twice|t0380-walk-other-waves|libcommon/analysis/walk.c|s/^\to->open = 0;$/\tif (o->start % 7)\n\t\tput_row(wk, e, \&w, slot, \&other_unit, o->pc, pk->time, "WAVE_END", ROW_WAVE_END);\n&/
slotwalk: a message dated at its own ISSUE, not the end of the record before|t0106-gfx9-walk|libcommon/analysis/slotwalk.c|s/			r->time = min64(w->rec\[idx - 1\].time + w->rec\[idx - 1\].duration, issue);/			r->time = issue;/
slotwalk: a message's duration to its INST token, not 4 cycles after its ISSUE|t0106-gfx9-walk|libcommon/analysis/slotwalk.c|s/		r->duration = sg->message_cycles + issue - r->time;/		r->duration = sg->message_cycles + max64(t - r->time, 0);/
gen/gfx9: AMD's issue phase counter starts at 0, not 15|t0106-gfx9-walk|libcommon/gen/gfx9/gfx9-slots.c|s/	g->start_phase = 15;/	g->start_phase = 0;/
slotwalk: no stall start taken from ISSUE stall states|t0106-gfx9-walk|libcommon/analysis/slotwalk.c|s/		r->stall = max64(r->time - from, 0);/		r->stall = 0;/
slotstream: a SAVE_CONTEXT MISC not a SAVE, the waves' tokens in the context save walked|t0108-gfx9-authored|libcommon/trace/slotstream.c|s/		s->kind = f.op == G9_MISC_SAVE_CONTEXT ? SQTT_K_SAVE : SQTT_K_OTHER;/		s->kind = SQTT_K_OTHER;/
slotwalk: an INST go_to_trap not a trap, the handler's tokens walked|t0108-gfx9-authored|libcommon/analysis/slotwalk.c|s/		w->trap = TRAP_WAIT_PC;/		w->trap = TRAP_NONE;/
slotwalk: a trap's record not ended at the INST pc that leaves it|t0108-gfx9-authored|libcommon/analysis/slotwalk.c|s/			w->rec\[w->nrec - 1\].duration = t + sg->cycle - w->rec\[w->nrec - 1\].time;/			(void)0;/
walk: an ISSUE-slot stream's wave of another CU not kept|t0109-gfx9-programs|libcommon/analysis/walk.c|s/		if (!slotwalk_is_traced(\&tok->f) \&\& slot_wave_packet(tok, event, se, \&pk)) {/		if (0) {/
pipeline: a gfx9 buffer's wave starts and ends not counted in the occupancy|t0109-gfx9-programs|libcommon/pipeline/pipeline.c|s/\treturn occupancy_packet(ctx, pk);/\treturn (void)ctx, (void)pk, 0;/
slotwalk: records issued the other way round not swapped|t0108-gfx9-authored|libcommon/analysis/slotwalk.c|s/			if (i + 1 < n \&\& as_line(rec\[i + 1\].cat) == (int)lc/			if (0 \&\& as_line(rec[i + 1].cat) == (int)lc/
gen/gfx9: a message 8 cycles after its ISSUE, not 4|t0106-gfx9-walk|libcommon/gen/gfx9/gfx9-slots.c|s/	g->message_cycles = 4;/	g->message_cycles = 8;/
gen/gfx9: the waves of CU 1 walked, not CU 0's|t0106-gfx9-walk|libcommon/gen/gfx9/gfx9-slots.c|s/	g->traced_wgp = 0;/	g->traced_wgp = 1;/
gen/gfx9: an LDS issue adds no issue phase|t0106-gfx9-walk|libcommon/gen/gfx9/gfx9-slots.c|s/	OP(T_LDS, SC_LDS, 1);/	OP(T_LDS, SC_LDS, 0);/
slotwalk: a replay lengthens no record|t0111-gfx9-replay-stitch|libcommon/analysis/slotwalk.c|s/		if (of >= 0) {	/		if (0 \&\& of >= 0) {	/
slotwalk: a replay's cycles not its op's stall (its issue time kept)|t0111-gfx9-replay-stitch|libcommon/analysis/slotwalk.c|s/				x->stall += x->duration - d;/				(void)d;/
slotwalk: a replay's removal leaves the later issued records' indices as they were|t0111-gfx9-replay-stitch|libcommon/analysis/slotwalk.c|s/		drop_record(w, idx);/		(void)drop_record;/
gen/gfx9: flat_rd_replay repeats no op|t0111-gfx9-replay-stitch|libcommon/gen/gfx9/gfx9-slots.c|s/	g->ops\[T_FLAT_RD_REPLAY\].replays = T_FLAT_RD;/	(void)0;/
slotwalk: the stitching stop rule never asked, a misfit line always stepped over|t0111-gfx9-replay-stitch|libcommon/analysis/slotwalk.c|s/			} else if (g->sg->stitch_stops(line->mnemonic))/			} else if (0 \&\& g->sg->stitch_stops(line->mnemonic))/
gen/gfx9: the stitching stop rule without waits|t0111-gfx9-replay-stitch|libcommon/gen/gfx9/gfx9-slots.c|s/	return pfx(mn, "s_waitcnt") || /	return /
gen/gfx9: the stitching stop rule without loads|t0111-gfx9-replay-stitch|libcommon/gen/gfx9/gfx9-slots.c|s/ || (strstr(mn, "_load_") \&\& !pfx(mn, "scratch_"));/;/
gen/gfx9: the stitching stop rule with scratch loads|t0111-gfx9-replay-stitch|libcommon/gen/gfx9/gfx9-slots.c|s/ \&\& !pfx(mn, "scratch_"))/)/
gfx9: an issue of 1 cycle, not 4|t0108-gfx9-authored|libcommon/gen/gfx9/gfx9-isa.c|s/	m->issue_cycles = 4;/	m->issue_cycles = 1;/
gfx9-encode: a token's delta bit left as it came|t0108-gfx9-authored|libcommon/trace/gfx9-encode.c|s/		raw = (raw \& ~(1ULL << 4)) | (uint64_t)(units > 0) << 4;/		(void)0;/
analysis/occupancy: a wave in flight at the buffer's start not counted|t0486-occupancy-simds|libcommon/analysis/occupancy.c|s/if (add_step(o, unit, o->first, 1) < 0)/if (0 \&\& add_step(o, unit, o->first, 1) < 0)/
analysis/annotate: --annotate lists the whole code object|t0822-annotate-range|libcommon/analysis/annotate.c|s/if (i < p->ninst \&\& (i < p->lo || i >= p->hi) \&\& s->hits == 0)/if (0)/
analysis/annotate: a kernel by its name alone|t0345-walk-identity|libcommon/analysis/annotate.c|s/if (strcmp(a->kernels\[i\]->name, name) == 0 \&\& strcmp(a->kernels\[i\]->tag, tag) == 0)/if (strcmp(a->kernels[i]->name, name) == 0)/
gen/gfx11: wave slots 16, not 32|t0300-walk-golden|libcommon/gen/gfx11/gfx11-token.c|s/g->wave_slots = 32;/g->wave_slots = 16;/
gen/gfx11: a jump not taken as moving the pc|t0330-walk-jump|libcommon/gen/gfx11/gfx11-token.c|s/g->op_jump = SQTT_OP_JUMP;/g->op_jump = -1;/
gen/isa: wait counters 8 deep, not 64|t0461-counter-depth|libcommon/gen/isa.c|s/\.counter_depth = 64,/.counter_depth = 8,/
trace/encode: a packed token's delta one cycle short|t0120-encode|libcommon/trace/encode.c|s/raw = setbits(raw, ti->dlo, ti->dhi, delta);/raw = setbits(raw, ti->dlo, ti->dhi, delta ? delta - 1 : 0);/
# the expectations worked out independently of the tools (a model of the walk, AMD's walk)
annotate: the oldest operation a wait retired charged its cycles|t0830-annotate-waits|libcommon/analysis/annotate.c|s/if (young == NULL || issue >= young_issue) {/if (young == NULL || issue < young_issue) {/
annotate: hidden cycles counted in the row's own cycle|t0830-annotate-waits|libcommon/analysis/annotate.c|s/hid = time > 0 ? issued_in(\&e->any, time - (uint64_t)delta, time - 1) : 0;/hid = issued_in(\&e->any, time - (uint64_t)delta, time);/
annotate: a retired pc or time past 2^64-1 read as if it fit|t0860-annotate-errors|libcommon/analysis/annotate.c|s/fits = 0;/fits = 1;/
analysis/attr: an s_waitcnt leaves one more operation outstanding|t0830-annotate-waits|libcommon/analysis/attr.c|s/while (f->n > n) {/while (f->n > n + 1) {/
annotate: a loop's entry not counted as an iteration|t0820-annotate-loops|libcommon/analysis/annotate.c|s/if (w->prev_idx == NONE || p->loop_of\[w->prev_idx\] != l)/if (0)/
code/loops: a loop's head one instruction late|t0820-annotate-loops|libcommon/code/loops.c|s/out\[nout\].head = j;/out[nout].head = j + 1;/
annotate: the hoist saving one cycle more per instruction|t0850-annotate-hints|libcommon/analysis/annotate.c|s/\*cycles += k->pc\[i\].cycles;/*cycles += k->pc[i].cycles + 1;/
annotate: the latency hint's saving all of the wait, hidden or not|t0850-annotate-hints|libcommon/analysis/annotate.c|s/int64_t exposed = s->cycles - s->hidden, lat = 0;/int64_t exposed = s->cycles, lat = 0;/
analysis/attr: the row after an s_barrier keeps 2 cycles|t0440-stall-fixtures|libcommon/analysis/attr.c|s/uint64_t keep = r->delta < 1 ? r->delta : 1;/uint64_t keep = r->delta < 2 ? r->delta : 2;/
gen/isa: s_sleep n sleeps 32 n cycles|t0440-stall-fixtures|libcommon/gen/isa.c|s/return 64 \* (long)(v \& 0x7f);/return 32 * (long)(v \& 0x7f);/
report/diffout: a row's percent of the new cycles|t0510-stall-diff|libcommon/report/diffout.c|s|return num(buf, len, 100.0 \* (b - a) / a, sign);|return num(buf, len, 100.0 * (b - a) / b, sign);|
analysis/align: a swapped pair not marked moved|t0510-stall-diff|libcommon/analysis/align.c|s/add_row(al, swapped\[i\] ? ALIGN_MOVED : eid/add_row(al, 0 ? ALIGN_MOVED : eid/
analysis/walk: a taken branch lands one word past its target|t0310-walk-own|libcommon/analysis/walk.c|s/w->pc = (uint64_t)in->target;/w->pc = (uint64_t)in->target + 4;/
analysis/budget: a baseline's cycles a wave with one wave more|t0520-stall-budget|libcommon/analysis/budget.c|s|v.limit = r->limit / 100.0 \* (double)base / (double)bp->kernels\[bi\].waves;|v.limit = r->limit / 100.0 * (double)base / (double)(bp->kernels[bi].waves + 1);|
pipeline: a worker's failed read taken for the end of its stream|t0989-worker-errors|libcommon/pipeline/pipeline.c|s/	if (capture_stream_error(\&src) != NULL) {/	if (0) {/
base/util: a die under a fatal_catch exits all the same|t0987-fatal-frees|libcommon/base/util.c|s/if (fc != NULL) {	\/\* returned/if (0) {	\/* returned/
trace/packet: an unknown token type raised, not returned|t0990-errors-returned|libcommon/trace/packet.c|s/return tsv_why(t, r->why, sizeof(r->why), "unknown token type '%s'",/tsv_fail(t, "unknown token type '%s'",/
capture/rgp: an RGP file of no trace buffer written, no error|t0990-errors-returned|libcommon/capture/rgp.c|s/		return fail_why(why, whysz, "%s: no trace buffer to write", c->path);/		(void)0;/
capture/rgp: rgp_write's error not caught, the writer run outside its catch|t0990-errors-returned|libcommon/capture/rgp.c|s/	n = write_rgp(c, path, selected, arg);/	fatal_disarm(\&fc); n = write_rgp(c, path, selected, arg); fatal_arm(\&fc, why, whysz);/
analysis/profile: a stream's error not caught, the reader run outside its catch|t0990-errors-returned|libcommon/analysis/profile.c|s/	r = read_tsv(p, t, why, whysz);/	fatal_disarm(\&fc); r = read_tsv(p, t, why, whysz); fatal_arm(\&fc, why, whysz);/
analysis/profile: a row's error not returned, the stream read on|t0990-errors-returned|libcommon/analysis/profile.c|s/} else if (read_row(p, t, \&rc, why, whysz) != 0)/} else if (read_row(p, t, \&rc, why, whysz) != 0 \&\& 0)/
analysis/profile: the kernel limit swallowed, the row dropped|t0990-errors-returned|libcommon/analysis/profile.c|s/		return profile_full_why(p, why, whysz);/		return 0;/
analysis/dispatch: a malformed ##event line above a row not returned|t0990-errors-returned|libcommon/analysis/dispatch.c|s/	    take_metas(ds, t, why, whysz) != 0)/	    take_metas(ds, t, why, whysz) != 0 \&\& 0)/
report: the clocks' malformed ##event line not said|t0990-errors-returned|libcommon/report/report.c|s/if (r->dispatches != NULL \&\& dispatch_error(r->dispatches) != NULL)/if (0)/
analysis/profile: a JSON kernel's error not returned|t0990-errors-returned|libcommon/analysis/profile.c|s/		if (jkernel(p, j, kj) != 0)/		if (jkernel(p, j, kj) != 0 \&\& 0)/
pipeline: a row handed over keeps the first buffer's event|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/				r.event = it->u.ev.event;/				(void)0;/
pipeline: the walk's last batch not handed over|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/	if (b->n > 0)$/	if (0)/
pipeline: a row's long delta handed over in 32 bits|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/	if (token == HAND_TOKENS || r->delta > UINT32_MAX || r->slot > UINT8_MAX ||/	if (token == HAND_TOKENS || r->slot > UINT8_MAX ||/
pipeline: a wide row's delta not taken from its HAND_WIDE|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/					r.delta = wide.delta;/					r.delta = it->u.row.delta;/
pipeline: a wide row's pc taken from its instruction|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/					r.pc = wide.pc;/					r.pc = r.in->pc;/
pipeline: a wide row's token taken from the numbered ones|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/					r.token = wide.token;/					r.token = token[0];/
pipeline: a row's se not handed over|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/				r.se = (int)it->wave;/				(void)0;/
pipeline: a row of a pc not its instruction's handed over narrow|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/	    r->pc != r->in->pc) {/	    0) {/
pipeline: a row's token not the one its number was given|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/				token\[it->token\] = it->u.token;/				token[it->token] = "VALU_INST";/
pipeline: the walk's error on two threads dropped|t0989-worker-errors|libcommon/pipeline/pipeline.c|s/		hand_message(wk, HAND_FAIL, msg);/		free(msg);/
report/timeline: a bar's instruction kept from another key of its memo slot|t0600-html|libcommon/report/timeline.c|s/		if (tl->imemo\[h\].key != r->key) {/		if (tl->imemo[h].key == NULL) {/
code/codeobj: a fault inside LLVM not caught|t0213-llvm-faults|libcommon/code/codeobj.c|s/	if (sigsetjmp(jb, 0) == 0) {/	if (1) {/
code/codeobj: a region read out of pc order is not sorted|t0210-codeobj|libcommon/code/codeobj.c|s/		if (w < b->nbi)$/		if (0)/
code/codeobj: a part taken from its first instruction past the sweep|t0210-codeobj|libcommon/code/codeobj.c|s/t->b.bi\[j\].pc - addr == o) {/t->b.bi[j].pc - addr >= o) {/
code/codeobj: a part's texts not moved with it|t0210-codeobj|libcommon/code/codeobj.c|s/		x->toff += base;/		x->toff += 0;/
code/codeobj: a region never read by threads|t0210-codeobj|libcommon/code/codeobj.c|s/	if (nparts <= 1)$/	if (1)/
code/codeobj: a range's last instruction not filled|t0210-codeobj|libcommon/code/codeobj.c|s/	for (size_t i = f->lo; i < f->hi; i++) {/	for (size_t i = f->lo; i + 1 < f->hi; i++) {/
report/timeline: bars merged once a bar, not while they pass the limit|t0601-html-workers|libcommon/report/timeline.c|s/	while (tl->nbar > tl->max_bars \&\& tl->nmulti > 0) {/	if (tl->nbar > tl->max_bars \&\& tl->nmulti > 0) {/
report/timeline: a lane's second bar not counted as one to merge|t0601-html-workers|libcommon/report/timeline.c|s/	tl->nmulti += l->nbar == 2;/	(void)0;/
report/timeline: lanes cut by kernel, not by kernel and event|t0601-html-workers|libcommon/report/timeline.c|s/		if (tl->keep_bars \&\& tl->proc\[p->id - 1\].lanes < tl->max_lanes)/		if (tl->keep_bars \&\& tl->kernel[ki].lanes < tl->max_lanes)/
report/timeline: things first seen ordered without their event|t0601-html-workers|libcommon/report/timeline.c|s/	if (a.event != b.event)$/	if (0)/
report/timeline: a merge keeps an instruction's later first sight|t0601-html-workers|libcommon/report/timeline.c|s/		if (imap\[i\] >= n || first_cmp(from->first, dst->insts\[imap\[i\]\]->first) < 0)/		if (imap[i] >= n)/
report/timeline: a merge leaves the finer lanes at their rows a bar|t0601-html-workers|libcommon/report/timeline.c|s/			lane_coarsen(dst->lane\[i\], src->rows_per_bar \/ dst->rows_per_bar);/			(void)0;/
analysis/occupancy: a merge puts the second's buffers after the first's|t0601-html-workers|libcommon/analysis/occupancy.c|s/(d == src->nbuf || dst->buf\[i\].event <= src->buf\[d\].event)/(d == src->nbuf)/
pipeline: a worker's drawing dropped, not merged|t0601-html-workers|libcommon/pipeline/pipeline.c|s/	if (wk->timeline != pl->timeline \&\& timeline_merge(pl->timeline, wk->timeline) != 0)/	if (wk->timeline != pl->timeline \&\& (timeline_free(wk->timeline), 0))/
pipeline: a worker's occupancy dropped, not merged|t0601-html-workers|libcommon/pipeline/pipeline.c|s/		if (occupancy_merge(pl->occ, wk->occ) != 0)/		if ((occupancy_free(wk->occ), 0))/
analysis/occupancy: a merge's steps taken by buffer the wrong way round|t0601-html-workers|libcommon/analysis/occupancy.c|s/dmap\[dst->step\[i\].buf\] < smap\[src->step\[d\].buf\]/dmap[dst->step[i].buf] > smap[src->step[d].buf]/
base/out: a full block of a picture's text dropped, not written|t0480-report-rules|libcommon/base/out.h|/o->n + need > o->cap/,/return o->buf/s/		out_block_flush(o);/		o->n = 0;/
analysis/annotate: costs summed past 2^63-1|t0988-fuzz-finds|libcommon/analysis/annotate.c|s/	if (__builtin_add_overflow(a->cost_total, cost, \&a->cost_total))/	if (0)/
analysis/annotate: retired latencies summed past 2^63-1|t0988-fuzz-finds|libcommon/analysis/annotate.c|s/		if (__builtin_add_overflow(lat_total, (int64_t)(time - issue), \&lat_total))/		if (0)/
analysis/annotate: a row's time past 2^63-1 taken|t0988-fuzz-finds|libcommon/analysis/annotate.c|s/	if (time > INT64_MAX)$/	if (0)/
analysis/walk: a gfx9 text line's time past 2^63-1 taken|t0988-fuzz-finds|libcommon/analysis/walk.c|s/	if (time > INT64_MAX) {/	if (0) {/
analysis/walk: a gfx9 text line's time going back taken|t0988-fuzz-finds|libcommon/analysis/walk.c|s/	if (time < e->line_time) {/	if (0) {/
analysis/walk: --packets counts a wave's rows, not the tokens it printed|t0988-fuzz-finds|libcommon/analysis/walk.c|s/w->said >= wk->dbg_n/w->rows >= wk->dbg_n/
base/errline: an error line's message printed as it came, controls and newlines too|t0988-fuzz-finds|libcommon/base/errline.c|s/	clean = msg != NULL ? text_printable(msg) : NULL;/	clean = msg != NULL ? strdup(msg) : NULL;/
analysis/budget: a pattern of any number of repetitions taken|t0988-fuzz-finds|libcommon/analysis/budget.c|s/	if (stars\[0\] > BUDGET_PATTERN_REPS) {/	if (0) {/
analysis/budget: the rules' patterns not counted together|t0988-fuzz-finds|libcommon/analysis/budget.c|s/		if ((b->pattern_reps += rc) > BUDGET_FILE_REPS)/		if (0)/
analysis/budget: a group's repetitions not counted where it is repeated|t0988-fuzz-finds|libcommon/analysis/budget.c|s/				stars\[depth\] += lstars\[depth\] \* (f - 1) + (n != m);/				stars[depth] += (n != m);/
analysis/attr: a wave's struct used again with its counters' entries|t0109-gfx9-programs|libcommon/analysis/attr.c|s/		w->cnt\[i\].head = w->cnt\[i\].n = 0;/		(void)0;/
pipeline: a full batch given over with the count it had before|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/	b->n = HAND_BATCH;/	b->n = HAND_BATCH - 1;/
pipeline: the last batch given over with none of its items|t0427-stall-stages|libcommon/pipeline/pipeline.c|s/	b->n = (size_t)(h->cur - b->item);/	b->n = h->cur > b->item;/
EOF
end=$(date +%s)
echo "mutants: $total run, $killed killed, $lived lived, $broken not applied; $((end - start)) s"
[ "$lived" -eq 0 ] && [ "$broken" -eq 0 ]
