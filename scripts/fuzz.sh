#!/bin/sh
# scripts/fuzz.sh [SECONDS | ci]: build the libFuzzer harnesses of tests/fuzz (token
# decoder, pickles, code objects, ## lines, stall-budget's rules files) with ASan and UBSan, and run each for SECONDS
# (60), seeded with the project's own fixtures (and ../shared's captures when beside).
# "ci" runs each a fixed number of inputs from a fixed seed, about a minute each: the same
# inputs on every machine, so that CI repeats a run that passed here, and a crash it finds
# is a change's, not chance's.  Prints each harness's runs and findings; exit 1 if any
# found a crash.  Needs clang-22 with its fuzzer runtime (Debian: libclang-rt-22-dev).
# FUZZ="sqtt meta" runs only those; FUZZ_OUT=DIR builds and runs there (build/fuzz).
set -u
secs=${1:-60}
runs_of() {	# ci: the inputs each harness runs
	case $1 in sqtt) echo 200000 ;; pickle) echo 800000 ;; codeobj) echo 100000 ;; meta) echo 300000 ;; rules) echo 200000 ;; esac
}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${FUZZ_OUT:-$top/build/fuzz}
mkdir -p "$out" || exit 2
llvm=${LLVM_CONFIG:-llvm-config-22}
cflags="-std=c11 -D_GNU_SOURCE -DSTALL_VERSION=\"fuzz\" -g -O1 -fsanitize=fuzzer,address,undefined \
	$(find "$top/libcommon" -mindepth 1 -type d | sed "s/^/-I/") $(pkg-config --cflags libbsd-overlay) -I$($llvm --includedir)"
libs="$(pkg-config --libs libbsd-overlay) -lz -lm -ldw -lelf -L$($llvm --libdir) \
	-Wl,-rpath,$($llvm --libdir) -lLLVM-22"
srcs=$(find "$top"/libcommon -name "*.c" | grep -v "/report/html\|/report/report\.c")
found=0
for h in ${FUZZ:-sqtt pickle codeobj meta rules}; do
	clang-22 $cflags -o "$out/fuzz_$h" "$top/tests/fuzz/fuzz_$h.c" $srcs $libs ||
		{ echo "fuzz: cannot build fuzz_$h" >&2; exit 2; }
	# ci: the seeds alone, fresh; otherwise a corpus that grows from run to run
	if [ "$secs" = ci ]; then corpus=$out/seeds-$h; rm -rf "$corpus"; else corpus=$out/corpus-$h; fi
	mkdir -p "$corpus"
	case $h in
	sqtt)	cp "$top"/fixtures/demo/*.att "$corpus"/ ;;
	pickle)	for f in "$top"/../shared/fixtures/tinygrad/*.pkl; do [ -f "$f" ] && cp "$f" "$corpus"/; done ;;
	codeobj) cp "$top"/fixtures/kernels/*.hsaco "$corpus"/ ;;
	meta)	head -c 4096 "$top"/fixtures/traces/demo.packets.tsv > "$corpus"/demo ;;
	rules)	for f in "$top"/tests/bad/rules-*.rules; do head -c 4096 "$f" > "$corpus/${f##*/}"; done
		printf '%s\n' '# a budget' 'demo cycles <= 500' '* cause mem <= 70% # waits' \
		    'demo pc 0x1318 cause smem >= 10' 'demo inst /^s_waitcnt (vmcnt|lgkmcnt)[(]0[)]/ cycles < 900' \
		    'demo cycles <= 105% of base.json' > "$corpus"/budget.rules ;;
	esac
	if [ "$secs" = ci ]; then
		how="-seed=1 -runs=$(runs_of $h)"
	else
		how="-max_total_time=$secs"
	fi
	(cd "$out" && "./fuzz_$h" $how -max_len=65536 -print_final_stats=1 \
	    "$corpus" > "fuzz_$h.log" 2>&1)
	st=$?
	runs=$(grep -a -o "stat::number_of_executed_units: *[0-9]*" "$out/fuzz_$h.log" | grep -o "[0-9]*$")
	if [ $st -ne 0 ]; then
		found=1
		echo "fuzz_$h: $runs runs, FOUND a crash: $out/fuzz_$h.log"
	else
		echo "fuzz_$h: ${runs:-?} runs ($secs), nothing found"
	fi
done
exit $found
