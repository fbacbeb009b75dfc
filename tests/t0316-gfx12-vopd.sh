#!/bin/sh
# t0316-gfx12-vopd: stall-annotate --hints suggests a v_dual pair on gfx12 (RDNA4) only
# with operations gfx12 has a v_dual form of, under RDNA4's names (v_max_num_f32,
# v_min_num_f32: gfx11's v_max_f32, v_min_f32), on a gfx1200 kernel built for it
# (fixtures/gfx12/vopd12.s: three pairs of adjacent independent VALUs, each pair's
# destinations one odd and one even VGPR, its sources in different banks; the trace
# fixtures/gfx12/vopd12.packets.tsv issues them one cycle apart).  And the list of
# gen/gfx12 checked against LLVM's assembler for gfx1200.
. "$(dirname "$0")/lib.sh"

K="$TOP/fixtures/gfx12"

test_expect_success 'the rows of vopd12' '
	(cd "$TOP" && sqtt-walk fixtures/gfx12/vopd12.packets.tsv) > walk &&
	sed "s|	fixtures/gfx12/|	$K/|" walk > rows &&
	stall-attr rows > attr &&
	grep -c "^0	" attr > n && echo 9 > expect && test_cmp expect n
'

# The cycles of a pair: the two rows' cost (the first VALU carries the wave's launch,
# 200 cycles after WAVE_START; every other instruction issues 1 cycle after the one
# before).  v_max_i32 has no v_dual form on gfx12: its pair with v_mov_b32 gets no hint.
test_expect_success 'two hints: max_num + mul and min_num + add, not max_i32 + mov' '
	stall-annotate --hints --hint-min 0 attr > out &&
	awk -F"\t" "/^#/ { next } { c[\$6] = \$13 } END { print c[\"0x1300\"] + c[\"0x1304\"], c[\"0x1318\"] + c[\"0x131c\"] }" attr > pairs &&
	read first second < pairs &&
	tr "|" "\t" > expect <<-EOF &&
	##stall-annotate|hints
	#kernel|rule|pc|cycles|advice
	vopd12|vopd|0x1300|$first|v_max_num_f32_e32 and v_mul_f32_e32 (0x1304) are independent and both have a v_dual form: one VOPD issue instead of two, 1 time
	vopd12|vopd|0x1318|$second|v_min_num_f32_e32 and v_add_f32_e32 (0x131c) are independent and both have a v_dual form: one VOPD issue instead of two, 1 time
	EOF
	test_cmp expect out &&
	echo "201 2" > expect && test_cmp expect pairs
'

test_expect_success CLANG 'vopd12.hsaco is what vopd12.s assembles to for gfx1200' '
	clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1200 -nogpulib -c -o vopd12.o "$K/vopd12.s" 2> /dev/null &&
	ld.lld-22 -shared -o vopd12.hsaco vopd12.o &&
	cmp vopd12.hsaco "$K/vopd12.hsaco"
'

# gen/gfx12's list (gfx12-isa.c): each has a v_dual form as LLVM assembles it for
# gfx1200 (as the X half beside a v_dual_mov_b32, or the Y half for the Y-only ones);
# gfx11's v_dual_max_f32, v_dual_min_f32 and gfx1250's v_dual_max_i32 are refused.
dual() {
	case $1 in
	mov_b32) echo "v_dual_$1 v$2, v$3" ;;
	fmaak_f32) echo "v_dual_$1 v$2, v$3, v$4, 0x40000000" ;;
	fmamk_f32) echo "v_dual_$1 v$2, v$3, 0x40000000, v$4" ;;
	*) echo "v_dual_$1 v$2, v$3, v$4" ;;
	esac
}
asm1200() {
	clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1200 -x assembler -c -o /dev/null - 2> /dev/null
}
test_expect_success CLANG 'the gfx12 v_dual list is what LLVM assembles for gfx1200' '
	for op in fmac_f32 fmaak_f32 fmamk_f32 mul_f32 add_f32 sub_f32 subrev_f32 mul_dx9_zero_f32 mov_b32 cndmask_b32 max_num_f32 min_num_f32; do
		printf "%s :: v_dual_mov_b32 v1, v7\n" "$(dual $op 0 1 2)" | asm1200 || { echo "X: $op refused" >&2; return 1; }
	done &&
	for op in add_nc_u32 lshlrev_b32 and_b32; do
		printf "v_dual_mov_b32 v0, v7 :: %s\n" "$(dual $op 1 2 3)" | asm1200 || { echo "Y: $op refused" >&2; return 1; }
	done &&
	for op in max_f32 min_f32 max_i32; do
		! printf "%s :: v_dual_mov_b32 v1, v7\n" "$(dual $op 0 1 2)" | asm1200 || { echo "X: $op accepted" >&2; return 1; }
	done
'

test_done
