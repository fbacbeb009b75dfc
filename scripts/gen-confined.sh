#!/bin/sh
# scripts/gen-confined.sh [DIR]: check that a generation's vocabulary stays in its
# backends: no token type (TOK_*), INST op number (SQTT_OP_*) or generation-named
# identifier (gfx11_*, GFX12_*, ...) in the C of DIR (the tree: libcommon/ and cmd/)
# outside libcommon/gen/ and libcommon/trace/, where the generations' tables and the
# decoder and encoder that read them live.  Everything else asks them through
# generation-neutral accessors (token.h, isa.h, packet.h).  Prints each hit as
# "gen-confined: FILE:LINE: WORD"; exit 1 if any, 2 when DIR is not a tree.
#
# Not yet confined (issue 18): the walker's token-type dispatch in analysis/walk.c; its
# TOK_* are listed in ALLOW and still refused anywhere else in the file's tree.
set -u
dir=${1:-.}
ALLOW="libcommon/analysis/walk.c"
[ -d "$dir/libcommon" ] && [ -d "$dir/cmd" ] ||
	{ echo "gen-confined: $dir: no libcommon/ and cmd/ in it" >&2; exit 2; }
cd "$dir" || exit 2
find libcommon cmd -name '*.[ch]' ! -path 'libcommon/gen/*' ! -path 'libcommon/trace/*' |
    sort | while read -r f; do
	grep -noE '\b(TOK_[A-Z0-9_]+|SQTT_OP_[A-Z0-9_]+|(gfx|GFX)[0-9]+_[A-Za-z0-9_]+)' "$f" |
	    while IFS=: read -r line word; do
		case " $ALLOW " in
		*" $f "*) case $word in TOK_*) continue;; esac;;
		esac
		echo "gen-confined: $f:$line: $word"
	done
done | awk '{ print } END { exit NR > 0 }'
