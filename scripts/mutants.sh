#!/bin/sh
# scripts/mutants.sh: break the rules on purpose, one at a time, and check that a test
# notices.  Each mutant is a sed edit of one source file; the program is rebuilt, the test
# named beside it must fail, and the file is put back (also on an interrupt).  Exit 1 when
# a mutant lives.  About a minute; run it from a clean tree (make all).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
saved=$(mktemp "${TMPDIR:-/tmp}/mutant.XXXXXX")
file=
restore() {
	if [ -n "$file" ]; then
		cp "$saved" "$file" && touch "$file"
		file=
	fi
}
trap 'restore; rm -f "$saved"' EXIT
trap 'exit 2' HUP INT TERM

lived=0
while IFS='|' read -r name test src expr; do
	[ -n "$name" ] || continue
	[ -f "tests/$test.sh" ] || { echo "mutant $name: no test $test" >&2; lived=1; continue; }
	file=$src
	cp "$src" "$saved"
	sed -i "$expr" "$src"
	if cmp -s "$src" "$saved"; then
		echo "mutant $name: the edit changed nothing in $src" >&2
		restore; lived=1; continue
	fi
	if ! make -s all >/dev/null 2>&1; then
		echo "mutant $name: does not build" >&2
		restore; lived=1; continue
	fi
	if sh "tests/$test.sh" >/dev/null 2>&1; then
		echo "mutant $name: LIVES ($test passes)"
		lived=1
	else
		echo "mutant $name: caught by $test"
	fi
	restore
done <<'EOF'
fetch rule without its taken-branch half|t0460-attr-rules|libcommon/analysis/attr.c|s/if (w->prev_taken || (r->pc_known/if ((r->pc_known/
cache line 128 bytes, not 64|t0460-attr-rules|libcommon/analysis/attr.c|s|r->pc / 64 != w->prev_pc / 64|r->pc / 128 != w->prev_pc / 128|
image_store counted on vmcnt|t0460-attr-rules|libcommon/gen/isa.c|s/return pfx(mnemonic, "image_store") ? CNT_VS : CNT_VM;/return pfx(mnemonic, "image_store") ? CNT_VM : CNT_VM;/
waitcnt simm16 vmcnt 4 bits wide|t0460-attr-rules|libcommon/gen/isa.c|s/(v >> 10) \& 63/(v >> 10) \& 15/
waitcnt simm16 lgkmcnt 4 bits wide|t0460-attr-rules|libcommon/gen/isa.c|s/(v >> 4) \& 63/(v >> 4) \& 15/
s_clause not stepped over|t0350-walk-fits|libcommon/analysis/walk.c|s/if (!untraced(in) \&\& in->cls != IC_CLAUSE)/if (!untraced(in))/
lds_other_simd_6 not skipped|t0350-walk-fits|libcommon/gen/token.c|s/|| op == 119)/)/
trap token fits another instruction|t0350-walk-fits|libcommon/gen/isa.c|s/return pfx(mnemonic, "s_trap");/return c == IC_MESSAGE;/
resync across branches|t0350-walk-fits|libcommon/analysis/walk.c|s/if (in->cls == IC_ENDPGM || in->cls == IC_BRANCH || in->cls == IC_JUMP)/if (in->cls == IC_ENDPGM)/
wrong code object accepted|t0940-empty-results|libcommon/analysis/walk.c|s/e->misfit >= WRONG_MIN \&\& e->misfit > e->fit/0/
a walk of no row accepted|t0940-empty-results|libcommon/analysis/walk.c|s/if (wk->nrows > 0)/if (1)/
gfx942 code object accepted|t0210-codeobj|libcommon/gen/isa.c|s/{ "gfx1153", 0x058, \&gfx11 },/{ "gfx1153", 0x04c, \&gfx11 },/
every target taken for the default|t0360-target|libcommon/gen/isa.c|s/\*said = !(value == NULL || strcmp(value, "-") == 0);/*said = 0;/
gfx1101 not in the model|t0360-target|libcommon/gen/isa.c|s/ { "gfx1101", 0x046, \&gfx11 },//
target names matched by their prefix|t0360-target|libcommon/gen/isa.c|s/if (strcmp(name, models\[i\]->targets\[j\].name) == 0)/if (strncmp(name, models[i]->targets[j].name, 4) == 0)/
the stream's target not given to the walk|t0360-target|cmd/sqtt-walk.c|s/walk_target(wk, meta_target(t, 1));/(void)meta_target(t, 1);/
code object of another gfx11 processor taken|t0360-target|libcommon/code/codeobj.c|s/mach == 0 || mach == want->mach ||/mach == 0 || own ||/
HEADER written in another version|t0360-target|cmd/sqtt-encode.c|s/7, 13, model->sqtt_version)/7, 13, model->sqtt_version + 1)/
disassembler always gfx1100's|t0360-target|libcommon/code/codeobj.c|s/if ((dc = disasm_for(b->cpu->name)) == NULL) {/if ((dc = disasm_for("gfx1100")) == NULL) {/
stall ignores its capture's target|t0360-target|cmd/stall.c|s/walk_target(wk->walker, target_said ? target : NULL);/walk_target(wk->walker, NULL);/
a 20-digit number past 2^64-1 accepted|t0160-tsv-reader|libcommon/base/tsv.c|s/if (v > (UINT64_MAX - d) \/ 100000000)/if (0)/
memo keyed by a name's first 8 bytes|t0160-tsv-reader|libcommon/base/tsv.c|s/w1 \&= (1ULL << (8 \* (n - 8))) - 1;/w1 = 0;/
--code given another letter|t0950-cli|libcommon/base/cli.c|s/{ "code", required_argument, 'c' },/{ "code", required_argument, 'C' },/
--dispatch selects nothing out|t0930-stall-inputs|libcommon/capture/capture.c|s/if (o->dispatch_set \&\& e->dispatch != o->dispatch)/if (0)/
a library's code object refused|t0210-codeobj|libcommon/code/codeobj.c|s/if (all > CODEOBJ_CODE_MAX \&\& kernel != NULL) {/if (0) {/
trace buffers not found again by their number|t0750-walk-hostile|libcommon/base/util.c|s/if (m->key\[h\] == key)/if (m->key[h] == key + 1)/
hex digit f read as 14|t0160-tsv-reader|libcommon/base/util.c|s/-1, 10, 11, 12, 13, 14, 15, -1,/-1, 10, 11, 12, 13, 14, 14, -1,/
EOF
make -s all >/dev/null 2>&1
exit $lived
