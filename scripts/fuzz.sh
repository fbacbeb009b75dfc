#!/bin/sh
# scripts/fuzz.sh [SECONDS | ci]: build the libFuzzer harnesses of tests/fuzz (token
# decoder, pickles, code objects, ## lines, stall-budget's rules files, the annotate views
# with DWARF lines and loops, ELF symbols, RGP files, rocprofv3 runs with a results JSON,
# rocpd databases) with ASan and UBSan, and run each for SECONDS
# (60), seeded with the project's own fixtures (and ../shared's captures when beside).
# "ci" runs each a fixed number of inputs from a fixed seed, about a minute each: the same
# inputs on every machine, so that CI repeats a run that passed here, and a crash it finds
# is a change's, not chance's.  Prints each harness's runs and findings; exit 1 if any
# found a crash.  Needs clang-22 with its fuzzer runtime (Debian: libclang-rt-22-dev).
# FUZZ="sqtt meta" runs only those; FUZZ_OUT=DIR builds and runs there (build/fuzz).
set -u
secs=${1:-60}
runs_of() {	# ci: the inputs each harness runs
	case $1 in sqtt) echo 200000 ;; pickle) echo 800000 ;; codeobj) echo 100000 ;; meta) echo 300000 ;; rules) echo 200000 ;;
	annotate) echo 30000 ;;
	elfsym) echo 400000 ;; rgp) echo 100000 ;; rocprof) echo 30000 ;; rocpd) echo 20000 ;; esac
}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${FUZZ_OUT:-$top/build/fuzz}
mkdir -p "$out" || exit 2
llvm=${LLVM_CONFIG:-llvm-config-22}
cflags="-std=c11 -D_GNU_SOURCE -DSTALL_VERSION=\"fuzz\" -DFUZZ_TOP=\"$top\" -g -O1 -fsanitize=fuzzer,address,undefined \
	$(find "$top/libcommon" -mindepth 1 -type d | sed "s/^/-I/") $(pkg-config --cflags libbsd-overlay) -I$($llvm --includedir)"
libs="$(pkg-config --libs libmd sqlite3) $(pkg-config --libs libbsd-overlay) -lz -lm -ldw -lelf -L$($llvm --libdir) \
	-Wl,-rpath,$($llvm --libdir) -lLLVM-22"
srcs=$(find "$top"/libcommon -name "*.c" | grep -v "/report/html\|/report/report\.c")
found=0
# seeds_of H DIR: several kernels and files each: RGP files (../shared's and the ones
# sqtt-dump --rgp writes of the fixtures), results JSONs and rocpd databases sqtt-encode
# -d writes of them (the programs of bin/, built first by make)
seeds_of() {
	b=$top/bin; n=0
	for f in "$top"/fixtures/demo "$top"/../shared/fixtures/tinygrad/*.pkl; do
		[ -e "$f" ] || continue
		n=$((n + 1)); s=$out/seed.$$
		rm -rf "$s" "$s.tsv"
		case $1 in
		rgp)	"$b/sqtt-dump" --rgp "$2/$n.rgp" "$f" 2>/dev/null ;;
		rocprof) "$b/sqtt-dump" -a "$f" > "$s.tsv" 2>/dev/null &&
			"$b/sqtt-encode" -d "$s" --no-index "$s.tsv" && cp "$s/stall_results.json" "$2/$n.json" ;;
		rocpd)	"$b/sqtt-dump" -a "$f" > "$s.tsv" 2>/dev/null &&
			"$b/sqtt-encode" -d "$s" --rocpd --kernel-trace "$s.tsv" && cp "$s"/*/*.db "$2/$n.db" ;;
		esac
		rm -rf "$s" "$s.tsv"
	done
	[ "$1" = rgp ] && for f in "$top"/../shared/fixtures/rgp/*.rgp; do [ -f "$f" ] && cp "$f" "$2"/; done
	[ "$1" = rocprof ] && printf '#1_2_shader_engine_0_9.att 1_2_shader_engine_3_1.att 1_gfx1100_code_object_id_4.out stats_x.csv\n{"code_objects": [{"code_object_id": 4, "load_base": 4096}]}\n' > "$2/names"
	return 0
}
# the readers whose errors end in die(): capture_open returns them itself (util.h,
# fatal_catch); a reader called directly (rgp_open, the annotate views' readers) exits,
# and that exit returns to the harness (tests/fuzz/fuzz_exit.h).  Either way what the
# reader held is freed by the error (fatal_push): leak detection stays on, a leak on an
# error path is a finding
wrap="-Wl,--wrap=exit,--wrap=err,--wrap=errx,--wrap=verrx"
for h in ${FUZZ:-sqtt pickle codeobj meta rules annotate elfsym rgp rocprof rocpd}; do
	case $h in rgp|rocprof|rocpd|annotate) extra=$wrap ;; *) extra= ;; esac
	clang-22 $cflags -o "$out/fuzz_$h" "$top/tests/fuzz/fuzz_$h.c" $srcs $libs $extra ||
		{ echo "fuzz: cannot build fuzz_$h" >&2; exit 2; }
	# ci: the seeds alone, fresh; otherwise a corpus that grows from run to run
	if [ "$secs" = ci ]; then corpus=$out/seeds-$h; rm -rf "$corpus"; else corpus=$out/corpus-$h; fi
	mkdir -p "$corpus"
	case $h in
	sqtt)	cp "$top"/fixtures/demo/*.att "$corpus"/ ;;
	pickle)	for f in "$top"/../shared/fixtures/tinygrad/*.pkl; do [ -f "$f" ] && cp "$f" "$corpus"/; done ;;
	codeobj) cp "$top"/fixtures/kernels/*.hsaco "$corpus"/ ;;
	meta)	head -c 4096 "$top"/fixtures/traces/demo.packets.tsv > "$corpus"/demo ;;
	annotate)	# rows of several kernels and files (a "##next" line between two
		# inputs), a view each; code objects ('D'); instructions ('L')
		for k in hot calm scale poll; do
			(cd "$top" && bin/sqtt-walk "fixtures/annotate/$k.packets.tsv" 2> /dev/null |
			    bin/stall-attr 2> /dev/null | grep -v "^##code\|^##target") > "$out/rows-$k"
		done
		v=0
		for pair in "hot calm" "calm scale" "poll hot" "scale poll"; do
			set -- $pair
			{ printf "\\$(printf %o $((48 + v)))"; cat "$out/rows-$1"; echo "##next";
			    cat "$out/rows-$2"; } > "$corpus/rows-$1-$2"
			v=$((v + 1))
		done
		for k in hot calm scale poll; do
			for v in 4 5 6 7; do
				{ printf "\\$(printf %o $((48 + v)))"; cat "$out/rows-$k"; } > "$corpus/rows-$k-$v"
			done
		done
		for f in "$top"/fixtures/annotate/*.hsaco; do
			{ printf D; cat "$f"; } > "$corpus/dwarf-$(basename "$f")"
		done
		{ printf L; head -c 4096 "$top"/fixtures/annotate/hot.hsaco; } > "$corpus/loops" ;;
	rules)	for f in "$top"/tests/bad/rules-*.rules; do head -c 4096 "$f" > "$corpus/${f##*/}"; done
		printf '%s\n' '# a budget' 'demo cycles <= 500' '* cause mem <= 70% # waits' \
		    'demo pc 0x1318 cause smem >= 10' 'demo inst /^s_waitcnt (vmcnt|lgkmcnt)[(]0[)]/ cycles < 900' \
		    'demo cycles <= 105% of base.json' > "$corpus"/budget.rules ;;
	elfsym)	cp "$top"/fixtures/kernels/*.hsaco "$top"/fixtures/demo/*.out "$corpus"/ ;;
	rgp|rocprof|rocpd) seeds_of $h "$corpus" ;;
	esac
	if [ "$secs" = ci ]; then
		how="-seed=1 -runs=$(runs_of $h)"
	else
		how="-max_total_time=$secs"
	fi
	(cd "$out" && FUZZ_TOP=$top "./fuzz_$h" $how -max_len=65536 -print_final_stats=1 \
	    "$corpus" > "fuzz_$h.log" 2>&1)
	st=$?
	# ci: the seeds removed (CI's disk is small); the harness, its log and what it found kept
	[ "$secs" = ci ] && rm -rf "$corpus" "$out"/rows-*
	runs=$(grep -a -o "stat::number_of_executed_units: *[0-9]*" "$out/fuzz_$h.log" | grep -o "[0-9]*$")
	if [ $st -ne 0 ]; then
		found=1
		echo "fuzz_$h: $runs runs, FOUND a crash: $out/fuzz_$h.log"
	else
		echo "fuzz_$h: ${runs:-?} runs ($secs), nothing found"
	fi
done
exit $found
