#!/bin/sh
# scripts/gen-confined.sh [DIR]: check that a generation's vocabulary stays in its
# backends: no token type (TOK_*, and a headerless stream's G9_*), INST op number
# (SQTT_OP_*) or generation-named identifier (gfx11_*, GFX12_*, gfx9walk_...) in the C of
# DIR (the tree: libcommon/ and cmd/) outside libcommon/gen/ and libcommon/trace/, where
# the generations' tables and the decoder and encoder that read them live.  Everything
# else asks them through generation-neutral accessors (token.h, isa.h, slots.h,
# packet.h, slotstream.h).  Prints each hit as "gen-confined: FILE:LINE: WORD"; exit 1
# if any, 2 when DIR is not a tree.
# (Token types: none outside gen/ and trace/, the walk, occupancy, codeobj and the
# pipeline ask a token's kind, token.h; a stream without HEADER is found, walked and
# written through sqtt_stream_headerless, walk_headerless_buffer and the encoder, its
# tokens read through trace/slotstream and its generation's facts from gen/slots.h.)
set -u
dir=${1:-.}
[ -d "$dir/libcommon" ] && [ -d "$dir/cmd" ] ||
	{ echo "gen-confined: $dir: no libcommon/ and cmd/ in it" >&2; exit 2; }
cd "$dir" || exit 2
find libcommon cmd -name '*.[ch]' ! -path 'libcommon/gen/*' ! -path 'libcommon/trace/*' |
    sort | while read -r f; do
	grep -noE '\b(TOK_[A-Z0-9_]+|SQTT_OP_[A-Z0-9_]+|G[0-9]+[A-Z]*_[A-Za-z0-9_]+|(gfx|GFX)[0-9]+[a-z]*_[A-Za-z0-9_]+)' "$f" |
	    while IFS=: read -r line word; do
		echo "gen-confined: $f:$line: $word"
	done
done | awk '{ print } END { exit NR > 0 }'
