#!/bin/sh
# bench/run.sh [MB]: speed and memory of the pipeline on a large stream (default 64 MB)
# made by bench/mkstream.sh from a real capture's token mix.  Not a test: figures for
# the record, with the targets beside them.  Needs ../shared (else exits 77) and GNU time.
# RUNS=N (default 3): each figure is the best of N runs.  The streams, rows and tables
# it makes (about 2 GB for 64 MB) are removed at the end, the report kept as
# bench/out/report.txt; KEEP=1 keeps them all.  Where AMD's rocprof-trace-decoder library
# is (ROCPROF_TRACE_DECODER=PATH, /opt/rocm/lib, or ldconfig's), stall is timed against it
# on the same stream (build/amd_driver); where it is not, the report says so.
set -u
mb=${1:-64}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
cap=$top/../shared/fixtures/tinygrad/20260305_profile_gemm_run_0_b6d1936.pkl
out=$top/bench/out
[ -f "$cap" ] || { echo "bench: $cap is not there" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (Debian package time)" >&2; exit 77; }
mkdir -p "$out"
T=/usr/bin/time
cleanup() {
	[ "${KEEP:-0}" = 1 ] && return
	find "$out" -mindepth 1 -maxdepth 1 ! -name report.txt -exec rm -rf {} +
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

stream() {	# stream SIZE_MB FILE
	[ -f "$2" ] || sh "$top/bench/mkstream.sh" "$cap" "$1" "$2" || exit 2
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# measure LABEL CMD...: "LABEL wall user KB", stdout discarded; the best wall time of
# $RUNS runs (a shared machine's noise only ever adds time), the largest RSS.  The wall
# time to the millisecond from the clock around GNU time (whose own %e has 0.01 s: 12% of
# decoding the stream alone), less the clock's own cost; the user time and RSS from GNU
# time.
RUNS=${RUNS:-3}
now_ns() { date +%s%N; }
# the clock's own cost around a program (date, GNU time's start): the least of 5 runs of
# true, taken off each wall time
over=
for r in 1 2 3 4 5; do
	t0=$(now_ns); $T -f "%U %M" -o "$out/time.$$" true; t1=$(now_ns)
	[ -z "$over" ] || [ $((t1 - t0)) -lt "$over" ] && over=$((t1 - t0))
done
measure() {
	label=$1; shift
	best= bu= brss=0 r=0
	while [ $r -lt "$RUNS" ]; do
		t0=$(now_ns)
		$T -f "%U %M" -o "$out/time.$$" "$@" > /dev/null ||
			{ echo "bench: $label failed" >&2; exit 2; }
		t1=$(now_ns)
		read -r user rss < "$out/time.$$"
		wall=$(awk -v a="$t0" -v b="$t1" -v o="$over" 'BEGIN { w = b - a - o; printf "%.3f", (w > 0 ? w : 0) / 1e9 }')
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$wall bu=$user
		fi
		[ "$rss" -gt "$brss" ] && brss=$rss
		r=$((r + 1))
	done
	echo "$label $best $bu $brss"
}

big=$out/stream-$mb.att
small=$out/stream-16.att
stream "$mb" "$big"
stream 16 "$small"
size=$(wc -c < "$big")
mbs=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')
code=$big.objs/r_2_8_16_4_4_16_4.hsaco
kernel=r_2_8_16_4_4_16_4
# the program's load address in the capture the stream is made of: the trace's
# COMPUTE_PGM writes then give the waves' entry
base=$("$bin/sqtt-dump" --types HEADER "$cap" | awk -F'\t' '$1 == "##code" { print $4; exit }')
raw="--raw --code $code --base $base --name $kernel"
echo "stream: $big, $mbs MiB ($size bytes), $(ls "$big.objs")"

rate() { awk -v s="$size" -v t="$1" 'BEGIN { printf "%.0f", (t > 0) ? s / 1048576 / t : 0 }'; }

set -- $(measure counts "$bin/sqtt-dump" --counts --raw "$big")
c_wall=$2 c_user=$3 c_rss=$4
# decoding alone, and as the walk decodes (the tokens it takes made, the others' deltas
# only): build/decode_test, the same library calls without the programs around them
set -- $(measure decode "$top/build/decode_test" count "$big")
dc_wall=$2 dc_user=$3
set -- $(measure walkdecode "$top/build/decode_test" walk "$big")
wd_wall=$2 wd_user=$3
set -- $(measure tsv "$bin/sqtt-dump" --raw "$big")
t_wall=$2 t_user=$3 t_rss=$4
set -- $(measure tsv16 "$bin/sqtt-dump" --raw "$small")
s_rss=$4

types=HEADER,REG,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC
"$bin/sqtt-dump" --types $types $raw "$big" > "$out/packets.tsv"
set -- $(measure walk "$bin/sqtt-walk" "$out/packets.tsv")
w_wall=$2 w_user=$3 w_rss=$4
rows=$("$bin/sqtt-walk" "$out/packets.tsv" 2>/dev/null | tee "$out/rows.tsv" | grep -vc '^#')
"$bin/sqtt-dump" --types $types $raw "$small" > "$out/packets16.tsv"
set -- $(measure walk16 "$bin/sqtt-walk" "$out/packets16.tsv")
w16_rss=$4
set -- $(measure attr "$bin/stall-attr" "$out/rows.tsv")
a_wall=$2 a_user=$3 a_rss=$4
"$bin/stall-attr" "$out/rows.tsv" > "$out/attr.tsv"
set -- $(measure table "$bin/stall-table" --top 10 "$out/attr.tsv")
b_wall=$2 b_user=$3 b_rss=$4

# The whole pipeline as stall runs it, each stage timed where it stands; best of RUNS.
p_wall=
r=0
while [ $r -lt "$RUNS" ]; do
	start=$(date +%s.%N)
	$T -f "dump %e %U %M" -o "$out/q1" "$bin/sqtt-dump" --types $types $raw "$big" |
		$T -f "walk %e %U %M" -o "$out/q2" "$bin/sqtt-walk" |
		$T -f "attr %e %U %M" -o "$out/q3" "$bin/stall-attr" |
		$T -f "table %e %U %M" -o "$out/q4" "$bin/stall-table" --top 10 > "$out/table.tsv"
	end=$(date +%s.%N)
	w=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	if [ -z "$p_wall" ] || awk -v a="$w" -v b="$p_wall" 'BEGIN { exit !(a < b) }'; then
		p_wall=$w
		for i in 1 2 3 4; do mv "$out/q$i" "$out/p$i"; done
	fi
	r=$((r + 1))
done

# stall itself: the four stages in one process, on the stream as a capture directory
# (capture.tsv naming the stream and its code object; hard links, no copies).
capdir() {	# capdir STREAM DIR
	rm -rf "$2" && mkdir -p "$2" &&
	ln "$1" "$2/stall_shader_engine_0_0.att" &&
	cp "$code" "$2/stall_code_object_id_0.out" &&
	printf '##stall-capture\t1\n##target\tgfx1100\n##code\t%s\t1\t%s\t%s\tstall_code_object_id_0.out\n##event\t0\t0\t%s\t1\t1\t0\t0\t0\tstall_shader_engine_0_0.att\n' \
	    "$kernel" "$base" "$(wc -c < "$code")" "$kernel" > "$2/capture.tsv"
}
capdir "$big" "$out/cap-big" || exit 2
capdir "$small" "$out/cap-16" || exit 2
set -- $(measure stall "$bin/stall" --tsv "$out/cap-big")
st_wall=$2 st_user=$3 st_rss=$4
# and on one thread: a worker with a core to spare runs its walk and its costs on two
set -- $(measure stall1 "$bin/stall" --threads 1 --tsv "$out/cap-big")
st1_wall=$2 st1_user=$3 st1_rss=$4
set -- $(measure stall16 "$bin/stall" --tsv "$out/cap-16")
st16_rss=$4
"$bin/stall" --tsv "$out/cap-big" > "$out/stall.tsv" 2>/dev/null
# stall-annotate and stall-diff on the capture itself (the pipeline in process): their
# time over stall's; stall-diff runs two pipelines, so over twice stall's
set -- $(measure annotate "$bin/stall-annotate" --lines "$out/cap-big"); an_wall=$2 an_user=$3
set -- $(measure diff "$bin/stall-diff" "$out/cap-big" "$out/cap-big"); df_wall=$2 df_user=$3

# Six buffers of 9 MiB (one stream, six events): stall on one core and on two.
stream 9 "$out/stream-9.att"
rm -rf "$out/cap-6x9" && mkdir -p "$out/cap-6x9" &&
cp "$code" "$out/cap-6x9/stall_code_object_id_0.out" &&
{ printf '##stall-capture\t1\n##target\tgfx1100\n##code\t%s\t1\t%s\t%s\tstall_code_object_id_0.out\n' \
    "$kernel" "$base" "$(wc -c < "$code")"
  for e in 0 1 2 3 4 5; do
	ln "$out/stream-9.att" "$out/cap-6x9/stall_shader_engine_${e}_$e.att" || exit 2
	printf '##event\t%d\t%d\t%s\t1\t1\t0\t0\t0\tstall_shader_engine_%d_%d.att\n' $e $e "$kernel" $e $e
  done; } > "$out/cap-6x9/capture.tsv" || exit 2
set -- $(measure six1 "$bin/stall" --threads 1 --tsv "$out/cap-6x9")
six1_wall=$2 six1_user=$3
set -- $(measure six2 "$bin/stall" --threads 2 --tsv "$out/cap-6x9")
six2_wall=$2 six2_user=$3
speedup=$(awk -v a="$six1_wall" -v b="$six2_wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
# the same with the HTML page drawn too (issue 26: --html to scale with --threads as the
# table does; it was not measured)
set -- $(measure six1html "$bin/stall" --threads 1 --tsv --html "$out/six.html" "$out/cap-6x9")
six1h_wall=$2 six1h_user=$3 six1h_rss=$4
set -- $(measure six2html "$bin/stall" --threads 2 --tsv --html "$out/six.html" "$out/cap-6x9")
six2h_wall=$2 six2h_user=$3 six2h_rss=$4
speeduph=$(awk -v a="$six1h_wall" -v b="$six2h_wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
# and with the Chrome trace (1.4 GB of it here) written to /dev/null: its formatting, not
# the disk
set -- $(measure six1tj "$bin/stall" --threads 1 --tsv --trace-json /dev/null "$out/cap-6x9")
six1j_wall=$2 six1j_user=$3 six1j_rss=$4
set -- $(measure six2tj "$bin/stall" --threads 2 --tsv --trace-json /dev/null "$out/cap-6x9")
six2j_wall=$2 six2j_user=$3 six2j_rss=$4
if [ "$(grep -v '^##' "$out/stall.tsv" | cksum)" = "$(grep -v '^##' "$out/table.tsv" | cksum)" ]
then same="byte-identical to the pipeline's (but for the ## lines naming the input)"
else same="DIFFERS from the pipeline's"; fi
rm -f "$out/time.$$"

cat <<REPORT | tee "$out/report.txt"

stage                      wall s  user s  peak RSS KB   rate                 target
sqtt-dump --counts         $c_wall    $c_user    $c_rss         $(rate "$c_wall") MiB/s of stream   >= 300 MB/s, RSS <= 8 MB
sqtt-dump (TSV)            $t_wall    $t_user    $t_rss         $(rate "$t_wall") MiB/s of stream   >= 30 MB/s, RSS <= 8 MB
sqtt-dump (TSV), 16 MiB    -       -       $s_rss         (RSS does not grow with the stream)
sqtt-walk                  $w_wall    $w_user    $w_rss        $(awk -v r="$rows" -v t="$w_wall" 'BEGIN { printf "%.2f", r / t / 1e6 }') M rows/s ($rows rows)
sqtt-walk, 16 MiB stream   -       -       $w16_rss        (RSS: libLLVM's pages, the program, live waves)
stall-attr                 $a_wall    $a_user    $a_rss        $(awk -v r="$rows" -v t="$a_wall" 'BEGIN { printf "%.2f", r / t / 1e6 }') M rows/s
stall-table --top 10       $b_wall    $b_user    $b_rss
stall (one process)        $st_wall    $st_user    $st_rss        $(rate "$st_wall") MiB/s of stream   >= 80 MB/s, RSS <= 80 MB (the walk, the costs: 2 threads)
stall --threads 1          $st1_wall    $st1_user    $st1_rss        $(rate "$st1_wall") MiB/s of stream   <= 0.8 CPU-s; $(ratio "$st1_wall" "$st_wall")x the wall of 2 threads
stall, 16 MiB stream       -       -       $st16_rss        (RSS flat with the stream)
stall-annotate --lines     $an_wall    $an_user    $(awk -v a="$an_wall" -v b="$st_wall" -v c="$an_user" -v d="$st_user" 'BEGIN { printf "%.2fx stall wall, %.2fx its user s", a / b, c / d }')      <= 1.3x
stall-diff CAP CAP         $df_wall    $df_user    $(awk -v a="$df_wall" -v b="$st_wall" -v c="$df_user" -v d="$st_user" 'BEGIN { printf "%.2fx twice stall wall, %.2fx its user s", a / b / 2, c / d / 2 }') <= 1.3x
stall's table: $same
stall, 6 x 9 MiB, 1 thread $six1_wall    $six1_user
stall, 6 x 9 MiB, 2 threads $six2_wall   $six2_user         ${speedup}x faster on 2 cores                 >= 1.5x
stall --html, 6 x 9 MiB, 1 thread  $six1h_wall    $six1h_user    $six1h_rss
stall --html, 6 x 9 MiB, 2 threads $six2h_wall   $six2h_user    $six2h_rss  ${speeduph}x faster on 2 cores   as the table's (${speedup}x)
stall --trace-json, 6 x 9 MiB, 1 thread  $six1j_wall  $six1j_user  $six1j_rss  $(ratio "$six1j_wall" "$six1_wall")x the table's wall (to /dev/null)
stall --trace-json, 6 x 9 MiB, 2 threads $six2j_wall  $six2j_user  $six2j_rss  $(ratio "$six2j_wall" "$six2_wall")x the table's wall (one worker: the slices in order)
four-stage text pipeline   $p_wall s wall for $mbs MiB, $(awk -v w="$p_wall" -v m="$mbs" 'BEGIN { printf "%.2f", w * 64 / m }') s per 64 MiB                  <= 1.6 s per 64 MiB
$(cat "$out/p1" "$out/p2" "$out/p3" "$out/p4" | awk '{ printf "  %-24s %s s wall  %s s user  %s KB\n", $1, $2, $3, $4 }')
REPORT
# AMD's decoder (rocprof-trace-decoder) side by side where its library is installed
amd=
for f in ${ROCPROF_TRACE_DECODER:-} /opt/rocm/lib/librocprof-trace-decoder.so \
    $(ldconfig -p 2>/dev/null | awk '/librocprof-trace-decoder/ { print $NF }'); do
	[ -f "$f" ] && { amd=$f; break; }
done
cat <<REPORT | tee -a "$out/report.txt"

targets, each a ratio of figures of this run              measured   target
decode alone (decode_test count), $dc_wall s wall  $dc_user s user   $(rate "$dc_wall") MiB/s   >= 900 MiB/s
the walk's decode (decode_test walk), $wd_wall s wall  $wd_user s user   $(ratio "$wd_wall" "$dc_wall")x decode alone   <= 1.2x
stall (one process) against decode alone                  $(ratio "$st_wall" "$dc_wall")x       <= 2.5x (CPU: $(ratio "$st_user" "$dc_user")x)
REPORT
if [ -n "$amd" ]; then
	# the same job on the same stream: decode, walk, each instruction's stall summed
	# (build/amd_driver: its V1 interface through dlopen, the instructions from this
	# project's disassembly as it asks for them)
	set -- $(measure amd "$top/build/amd_driver" "$amd" "$code" "$base" "$big")
	am_wall=$2 am_user=$3 am_rss=$4
	cat <<REPORT | tee -a "$out/report.txt"
AMD's decoder ($amd), the same stream: $am_wall s wall  $am_user s user  $am_rss KB
stall (one process) against AMD's decoder                 $(ratio "$st_wall" "$am_wall")x       <= 0.45x (CPU: $(ratio "$st_user" "$am_user")x; RSS $st_rss against $am_rss KB)
REPORT
else
	echo "stall against AMD's decoder (<= 0.45x): skipped, its library (librocprof-trace-decoder.so) is not installed here" | tee -a "$out/report.txt"
fi
AMD_LIB=$amd sh "$top/bench/codeobj.sh" | tee -a "$out/report.txt"
sh "$top/bench/diff.sh" | tee -a "$out/report.txt"
