#!/bin/sh
# RGP files in and out.  The 7 files tinygrad's rgptool made of ../shared's captures walk
# as their pickles do (the two it wrote wrong: one line, exit 2; the gfx12 one the line
# of a gfx12 pickle); every fixture written with sqtt-dump --rgp and read back walks the
# same; the file is laid out as Mesa's writer lays one out (what RGP requires); hostile
# files are one line, exit 2.
. "$(dirname "$0")/lib.sh"

RGP="$SHARED/fixtures/rgp"
# tinygrad's own reader: RGPTOOL names extra/sqtt/rgptool.py of a tinygrad checkout
# whose python package imports
[ -n "${RGPTOOL:-}" ] && [ -f "$RGPTOOL" ] &&
	python3 -c 'import tinygrad.runtime.autogen.sqtt' >/dev/null 2>&1 &&
	test_set_prereq RGPTOOL

rows() {	# rows CAPTURE: the costed rows (no ## lines: their paths differ); stderr in rows.err
	sqtt-dump "$1" > rows.p 2> rows.err && sqtt-walk rows.p > rows.w 2>/dev/null &&
	stall-attr rows.w > rows.a && grep -v "^#" rows.a | awk -F"\t" -v OFS="\t" "{ NF--; print }"
}

if test_have_prereq SHARED; then
for f in "$RGP"/*.rgp; do
	b=$(basename "$f" .rgp)
	case $b in
	*.bad-codb-padding) continue ;;
	2026061*) continue ;;
	esac
	test_expect_success "$b.rgp walks as its pickle does" "
		rows '$FIXTURES/$b.pkl' > expect &&
		grep '^##event' rows.p | cut -f 2-4,6-9,11 > expect.ev &&
		grep '^##code' rows.p | cut -f 2,4,5 > expect.code &&
		rows '$f' > actual &&
		test_cmp /dev/null rows.err &&
		test_cmp expect actual &&
		grep '^##event' rows.p | cut -f 2-4,6-9,11 > actual.ev &&
		test_cmp expect.ev actual.ev &&
		grep '^##code' rows.p | cut -f 2,4,5 > actual.code &&
		test_cmp expect.code actual.code
	"
done
fi

test_expect_success SHARED 'the gfx1201 RGP file walks as its gfx12 pickle does' '
	b=20260610_profile_gemm_run_0_96202b2 &&
	rows "$SHARED/fixtures/tinygrad-gfx12/$b.pkl" > expect &&
	grep "^##target" rows.p > expect.target &&
	rows "$RGP/$b.rgp" > actual &&
	test_cmp /dev/null rows.err &&
	test_cmp expect actual && test "$(wc -l < actual)" -gt 100 &&
	grep "^##target" rows.p > actual.target &&
	test_cmp expect.target actual.target
'

test_expect_success SHARED 'the two files rgptool wrote wrong (a code object record declared longer than it is): one line, exit 2' '
	d=$(cd "$RGP" && pwd -P) &&
	f="$d/20260314_profile_ops_run_0_c2d10d8.bad-codb-padding.rgp" &&
	test_expect_code 2 sqtt-dump "$f" > out 2> err &&
	test_cmp /dev/null out &&
	echo "sqtt-dump: $f: the CODE_OBJECT_DATABASE chunk at offset 33832 declares 6844 bytes and holds 6843: a code object record declared longer than it is (tinygrad'\''s rgptool rounds a record'\''s size up to 4 bytes without padding it), so every chunk after it is misplaced" > expect &&
	test_cmp expect err &&
	f="$d/20260507_profile_sync_run_0_ccf76d9.bad-codb-padding.rgp" &&
	test_expect_code 2 stall "$f" > out 2> err &&
	echo "stall: $f: the CODE_OBJECT_DATABASE chunk at offset 57064 declares 5584 bytes and holds 5583: a code object record declared longer than it is (tinygrad'\''s rgptool rounds a record'\''s size up to 4 bytes without padding it), so every chunk after it is misplaced" > expect &&
	test_cmp expect err
'

test_expect_success SHARED 'stall reads an RGP file: the table of its pickle' '
	b=20260314_profile_gemm_run_0_7379d89 &&
	stall --plain "$FIXTURES/$b.pkl" > expect &&
	stall --plain "$RGP/$b.rgp" > actual &&
	test_cmp expect actual && test "$(wc -l < actual)" -gt 10
'

# Every fixture written to RGP and read back: fixtures/demo (a capture directory),
# the 9 tinygrad pickles, and a default rocprofv3 run (rocpd) made of one.  An RGP file
# has no dispatch ids (the n-th stream of an engine is dispatch n) and no program tags.
set -- "$TOP/fixtures/demo"
test_have_prereq SHARED && set -- "$@" "$FIXTURES"/*.pkl
n=0
for f in "$@"; do
	b=$(basename "$f" .pkl)
	n=$((n + 1))
	test_expect_success "$b written to RGP and read back: the same walk" "
		rows '$f' > expect &&
		grep '^##event' rows.p | cut -f 2-4,6-9 > expect.ev &&
		sqtt-dump --rgp out.$n.rgp '$f' > out 2> err &&
		test_cmp /dev/null out && test_cmp /dev/null err &&
		rows out.$n.rgp > actual &&
		test_cmp /dev/null rows.err &&
		test_cmp expect actual &&
		grep '^##event' rows.p | cut -f 2-4,6-9 > actual.ev &&
		test_cmp expect.ev actual.ev
	"
done

# the demo's 91 rows: 88 of its traced SIMD, 3 untraced of the waves on its SIMD 1
test_expect_success 'a rocprofv3 run (rocpd, no --kernel-trace) to RGP: the same walk' '
	sqtt-dump -a "$TOP/fixtures/demo" > demo.tsv &&
	sqtt-encode -d run --rocpd demo.tsv &&
	rows run > expect &&
	sqtt-dump --rgp run.rgp run &&
	rows run.rgp > actual &&
	test_cmp expect actual &&
	test "$(wc -l < actual)" -eq 91
'

# The layout, checked by a reader of the format's own rules (PYTHON3): chunks end to end
# exactly at the end of the file, 4-byte aligned; CPU_INFO 112, ASIC_INFO 768 (gfxip
# 0xc, nonzero clocks, as Mesa says RGP needs), API_INFO 560, SQTT_DESC 32 bytes;
# SQTT_DATA's offset is its bytes'; code object records padded to 4 and declared so;
# each load's hash the first 8 bytes of its object's MD5.
cat > layout.py <<'EOF'
import hashlib, struct, sys
b = open(sys.argv[1], 'rb').read()
magic, vmaj, vmin, flags, off = struct.unpack_from('<IIIIi', b, 0)
assert (magic, vmaj, vmin, off) == (0x50303042, 1, 5, 56), (magic, vmaj, vmin, off)
sizes = {0: 768, 1: 32, 3: 560, 7: 112}
codes, loads, kinds = [], [], []
while off < len(b):
    assert off % 4 == 0, off
    cid, minor, major, size, pad = struct.unpack_from('<iHHii', b, off)
    t, idx = cid & 0xff, (cid >> 8) & 0xff
    kinds.append(t)
    assert size >= 16 and off + size <= len(b), (off, size)
    if t in sizes:
        assert size == sizes[t], (t, size)
    if t == 0:
        gfxip, = struct.unpack_from('<I', b, off + 96)
        clk, mem = struct.unpack_from('<QQ', b, off + 24)
        assert gfxip == 0xc and clk and mem
    if t == 1:
        se, = struct.unpack_from('<i', b, off + 16)
        assert se == idx
    if t == 2:
        o, s = struct.unpack_from('<ii', b, off + 16)
        assert o == off + 24 and size == 24 + s and s % 32 == 0, (o, s)
    if t == 9:
        o, fl, s, n = struct.unpack_from('<IIII', b, off + 16)
        assert o == off and s == size
        j = off + 32
        while j < off + size:
            rs, = struct.unpack_from('<I', b, j)
            assert rs % 4 == 0
            codes.append(b[j + 4:j + 4 + rs])
            j += 4 + rs
        assert j == off + size and len(codes) == n
    if t == 10:
        o, fl, rs, n = struct.unpack_from('<IIII', b, off + 16)
        assert rs == 40 and size == 32 + 40 * n
        loads += [struct.unpack_from('<QQQ', b, off + 32 + 40 * k + 8) for k in range(n)]
    off += size
assert off == len(b)
assert kinds[:4] == [7, 0, 3, 9] and kinds[4:6] == [10, 11] and 2 in kinds, kinds
# the hash of each object, padding and all trimmed to its ELF's own extent (ELF64 e_shoff
# + e_shnum * e_shentsize is where its last byte is)
def extent(e):
    if e[:4] != b'\x7fELF': return len(e.rstrip(b'\0'))
    shoff, = struct.unpack_from('<Q', e, 40); shentsize, shnum = struct.unpack_from('<HH', e, 58)
    return max(shoff + shentsize * shnum, 64)
hashes = {struct.unpack_from('<Q', hashlib.md5(e[:extent(e)]).digest())[0] for e in codes}
for base, h0, h1 in loads:
    assert h0 == h1 and h0 in hashes, (hex(base), h0)
print(len(codes), len(loads), kinds.count(2))
EOF

test_expect_success PYTHON3 'the file is laid out as the format says: chunk sizes, offsets, padding, hashes' '
	python3 layout.py out.1.rgp > actual &&
	echo "1 1 2" > expect && test_cmp expect actual
'

test_expect_success SHARED,PYTHON3 'gemm: 3 code objects, 3 loads, an SQTT_DATA chunk per shader engine holding 3 streams' '
	sqtt-dump --rgp gemm.rgp "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" &&
	python3 layout.py gemm.rgp > actual &&
	echo "3 3 6" > expect && test_cmp expect actual &&
	sqtt-dump gemm.rgp > out &&
	grep "^##event" out | cut -f 3,11 | sort | uniq -c | wc -l > actual &&
	echo 18 > expect && test_cmp expect actual
'

test_expect_success RGPTOOL "tinygrad's rgptool reads every file written back, chunk for chunk, and writes it again byte for byte" '
	cat > roundtrip.py <<-\EOF &&
	import sys
	sys.path.insert(0, sys.argv[1])
	import rgptool
	for f in sys.argv[2:]:
	    b = open(f, "rb").read()
	    r = rgptool.RGP.from_bytes(b)
	    print(f, len(r.chunks), "same" if r.to_bytes() == b else "differs")
	EOF
	python3 roundtrip.py "$(dirname "$RGPTOOL")" out.1.rgp gemm.rgp > actual &&
	printf "out.1.rgp 10 same\ngemm.rgp 18 same\n" > expect && test_cmp expect actual
'

test_expect_success '--rgp: selections, one capture, no other output option' '
	sqtt-dump --rgp one.rgp -e 1 "$TOP/fixtures/demo" &&
	sqtt-dump one.rgp > out &&
	grep "^##event" out | cut -f 2,3 > actual &&
	printf "0\t1\n" > expect && test_cmp expect actual &&
	test_expect_code 2 sqtt-dump --rgp x.rgp -e 7 "$TOP/fixtures/demo" > out 2> err &&
	echo "sqtt-dump: $TOP/fixtures/demo: no trace buffer matches -e 7 (2 in all, numbered from 0)" > expect.abs &&
	sed "s|$(cd "$TOP" && pwd -P)|$TOP|" err > actual &&
	test_cmp expect.abs actual && ! test -e x.rgp &&
	test_expect_code 2 sqtt-dump --rgp x.rgp "$TOP/fixtures/demo" "$TOP/fixtures/demo" 2> err &&
	head -1 err | grep -q "^usage: sqtt-dump" &&
	test_expect_code 2 sqtt-dump --rgp x.rgp --counts "$TOP/fixtures/demo" 2> err &&
	head -1 err | grep -q "^usage: sqtt-dump" &&
	test_expect_code 2 sqtt-dump --rgp /dev/full "$TOP/fixtures/demo" 2> err &&
	echo "sqtt-dump: /dev/full: No space left on device" > expect && test_cmp expect err
'

# Hostile files, each from out.1.rgp (fixtures/demo's), one line and exit 2; an unknown
# chunk type is skipped by its size.
cat > edit.py <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
what = sys.argv[3]
def chunks():
    off = 56
    while off < len(b):
        cid, mi, ma, size, pad = struct.unpack_from('<iHHii', b, off)
        yield off, cid & 0xff, size
        off += size
if what == 'unknown':
    b += struct.pack('<iHHii', 99, 0, 0, 40, 0) + b'\x01' * 24
elif what == 'truncate':
    b = b[:len(b) - 5]
elif what == 'version':
    struct.pack_into('<I', b, 4, 2)
elif what == 'size0':
    off = [o for o, t, s in chunks() if t == 3][0]
    struct.pack_into('<i', b, off + 8, 0)
elif what == 'dataoff':
    off = [o for o, t, s in chunks() if t == 2][0]
    struct.pack_into('<i', b, off + 16, 1 << 30)
elif what == 'loadhash':
    off = [o for o, t, s in chunks() if t == 10][0]
    struct.pack_into('<Q', b, off + 32 + 16, 12345)
    struct.pack_into('<I', b, off + 28, 2)
elif what == 'records':
    off = [o for o, t, s in chunks() if t == 9][0]
    struct.pack_into('<I', b, off + 32, 0x7fffffff)
elif what == 'chunkoff':
    struct.pack_into('<i', b, 16, 1 << 30)
open(sys.argv[2], 'wb').write(b)
EOF

test_expect_success PYTHON3 'an unknown chunk type is skipped by its size' '
	rows out.1.rgp > expect &&
	python3 edit.py out.1.rgp unknown.rgp unknown &&
	rows unknown.rgp > actual &&
	test_cmp expect actual
'

test_expect_success PYTHON3 'hostile RGP files: one line, exit 2' '
	for w in truncate version size0 dataoff loadhash records chunkoff; do
		python3 edit.py out.1.rgp $w.rgp $w &&
		test_expect_code 2 sqtt-dump $w.rgp > out 2> err.abs &&
		sed "s|$(pwd -P)/||" err.abs > err.$w &&
		test "$(wc -l < err.$w)" -eq 1 || return 1
	done &&
	echo "sqtt-dump: truncate.rgp: the SQTT_DATA chunk at offset 4220 declares 88 bytes (83 left in the file)" > expect &&
	test_cmp expect err.truncate &&
	echo "sqtt-dump: version.rgp: RGP file version 2.5: only version 1 is read" > expect &&
	test_cmp expect err.version &&
	echo "sqtt-dump: size0.rgp: the API_INFO chunk at offset 936 declares 0 bytes (3372 left in the file)" > expect &&
	test_cmp expect err.size0 &&
	echo "sqtt-dump: dataoff.rgp: the SQTT_DATA chunk at offset 3844 places its 320 bytes at 1073741824, outside itself" > expect &&
	test_cmp expect err.dataoff &&
	echo "sqtt-dump: loadhash.rgp: the CODE_OBJECT_LOADER_EVENTS chunk holds no 2 records of 40 bytes" > expect &&
	test_cmp expect err.loadhash &&
	echo "sqtt-dump: records.rgp: a code object record at offset 1528 runs past its chunk'\''s end" > expect &&
	test_cmp expect err.records &&
	echo "sqtt-dump: chunkoff.rgp: the RGP header'\''s chunk offset 1073741824 is outside the file" > expect &&
	test_cmp expect err.chunkoff
'

test_done
