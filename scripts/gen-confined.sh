#!/bin/sh
# scripts/gen-confined.sh [DIR]: check that a generation's vocabulary stays in its
# backends: no token type (TOK_*), INST op number (SQTT_OP_*) or generation-named
# identifier (gfx11_*, GFX12_*, ...) in the C of DIR (the tree: libcommon/ and cmd/)
# outside libcommon/gen/ and libcommon/trace/, where the generations' tables and the
# decoder and encoder that read them live.  Everything else asks them through
# generation-neutral accessors (token.h, isa.h, packet.h).  Prints each hit as
# "gen-confined: FILE:LINE: WORD"; exit 1 if any, 2 when DIR is not a tree.
#
# Not yet confined (issue 18): the gfx9 backend's walk sits in analysis/ (gfx9walk, and
# walk.c's rows of its records and its entry points, walk.h), above trace/gfx9 and
# code/codeobj that it reads, so it cannot move into gen/: their gfx9_* names are in
# ALLOW_GFX9.  Any other word in those files, and the same anywhere else, is refused.
# (Token types: none outside gen/ and trace/, the walk, occupancy, codeobj and the
# pipeline ask a token's kind, token.h; a stream without HEADER is found, walked and
# written through sqtt_stream_headerless, walk_headerless_buffer and the encoder.)
set -u
dir=${1:-.}
ALLOW_GFX9="libcommon/analysis/gfx9walk.c libcommon/analysis/gfx9walk.h
    libcommon/analysis/walk.c libcommon/analysis/walk.h"
ALLOW_GFX9=$(echo $ALLOW_GFX9)
[ -d "$dir/libcommon" ] && [ -d "$dir/cmd" ] ||
	{ echo "gen-confined: $dir: no libcommon/ and cmd/ in it" >&2; exit 2; }
cd "$dir" || exit 2
find libcommon cmd -name '*.[ch]' ! -path 'libcommon/gen/*' ! -path 'libcommon/trace/*' |
    sort | while read -r f; do
	grep -noE '\b(TOK_[A-Z0-9_]+|SQTT_OP_[A-Z0-9_]+|(gfx|GFX)[0-9]+_[A-Za-z0-9_]+)' "$f" |
	    while IFS=: read -r line word; do
		case " $ALLOW_GFX9 " in
		*" $f "*) case $word in gfx9_*) continue;; esac;;
		esac
		echo "gen-confined: $f:$line: $word"
	done
done | awk '{ print } END { exit NR > 0 }'
