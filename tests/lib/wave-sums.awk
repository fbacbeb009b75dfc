# wave-sums.awk ROWS: "event slot sum-of-deltas" for each wave of a row stream (event and
# wave number), to hold against lifetimes.awk's lifetimes.
BEGIN { FS = "\t" }
/^#/ { next }
!(($1, $4) in sum) { slot[$1, $4] = $5; key[++n] = $1 SUBSEP $4 }
{ sum[$1, $4] += $8 }
END { for (i = 1; i <= n; i++) { split(key[i], k, SUBSEP); print k[1], slot[key[i]], sum[key[i]] } }
