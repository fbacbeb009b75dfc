#!/bin/sh
# scripts/layers.sh [DIR]: check that the library's includes point down.  The layers of
# DIR (libcommon) in order, lowest first; a module (NAME.c and NAME.h) may include the
# headers of its own layer and of the layers below it, never one above, and the includes
# between modules close no circle.  Prints each offence as "layers: FILE: includes
# HEADER (LAYER above LAYER)" or "layers: circle: A -> B -> A"; exit 1 if any, 2 when DIR
# is not laid out in the layers.
set -u
dir=${1:-libcommon}
layers="base gen trace capture code analysis report pipeline"
[ -d "$dir" ] || { echo "layers: $dir: no such directory" >&2; exit 2; }
for f in "$dir"/*; do
	n=$(basename "$f")
	case " $layers " in *" $n "*) ;; *) echo "layers: $f: not a layer (the layers: $layers)" >&2; exit 2 ;; esac
done
# A layer may keep its modules in folders of its own (gen/gfx11/...).
# module TAB layer-rank, then each include edge as "from TAB to"
tab=$(printf '\t')
mods=$(i=0; for l in $layers; do
	[ -d "$dir/$l" ] && find "$dir/$l" -name '*.[ch]' | while read -r f; do
		m=$(basename "$f"); echo "${m%.*}$tab$i$tab$l"
	done
	i=$((i + 1))
done | sort -u)
edges=$(find "$dir" -mindepth 2 -name '*.[ch]' | sort | while read -r f; do
	m=$(basename "$f"); m=${m%.*}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	    while read -r h; do h=$(basename "$h"); echo "$m$tab${h%.*}$tab$f$tab$h"; done
done)
printf '%s\n' "$mods" > "${TMPDIR:-/tmp}/layers.$$.mods"
printf '%s\n' "$edges" | awk -F'\t' -v modsfile="${TMPDIR:-/tmp}/layers.$$.mods" '
BEGIN { while ((getline l < modsfile) > 0) { split(l, a, "\t"); rank[a[1]] = a[2]; layer[a[1]] = a[3]; order[++nmod] = a[1] } }
$1 == "" { next }
{
	if (!($2 in rank)) next	# a generated or outside header
	if ($1 == $2) next
	if (rank[$2] > rank[$1]) {
		printf "layers: %s: includes %s (%s above %s)\n", $3, $4, layer[$2], layer[$1]
		bad = 1
	}
	if (!(($1, $2) in seen)) { seen[$1, $2] = 1; adj[$1] = adj[$1] " " $2 }
}
function dfs(u,    n, vs, i, v, j, path, nc, m) {
	state[u] = 1; stack[++sp] = u
	n = split(adj[u], vs, " ")
	for (i = 1; i <= n; i++) {
		v = vs[i]
		if (state[v] == 1) {
			# the circle from its least name, whichever module the search began at
			for (j = 1; j <= sp; j++) if (stack[j] == v) break
			nc = 0
			for (; j <= sp; j++) cyc[++nc] = stack[j]
			m = 1
			for (j = 2; j <= nc; j++) if (cyc[j] < cyc[m]) m = j
			path = ""
			for (j = 0; j < nc; j++) path = path cyc[(m - 1 + j) % nc + 1] " -> "
			printf "layers: circle: %s%s\n", path, cyc[m]
			bad = 1
		} else if (state[v] == 0) dfs(v)
	}
	sp--; state[u] = 2
}
END {
	for (i = 1; i <= nmod; i++) state[order[i]] = 0
	for (i = 1; i <= nmod; i++) if (state[order[i]] == 0) dfs(order[i])
	exit bad
}'
rc=$?
rm -f "${TMPDIR:-/tmp}/layers.$$.mods"
exit $rc
