#!/usr/bin/env python3
"""causes-vs-amd.py BEFORE_BIN AFTER_BIN [CAPTURE...]: per cause, the cycles stall-attr
gives the rows of the captures with two builds (the cause view), beside AMD's stall and
idle for the same rows.

Each capture (default: ../shared/fixtures/tinygrad/*.pkl) is walked and costed by both
builds (sqtt-dump | sqtt-walk | stall-attr); AMD's walk is ../shared/golden/NAME.amd.tsv.gz.
A wave is (event, slot, WAVE_START time); its j-th row is AMD's j-th record, its WAVE_END
row AMD's last (s_endpgm).  For a row, AMD's stall is the record's stall (for WAVE_END:
stall + duration - 1, the drain), AMD's idle the rest of the row's delta (the gap before
the wave's first attempt to issue, as rocprofv3 calls it).  Rows are grouped by the AFTER
build's cause.  Prints one line per cause: cause, the cycles the BEFORE build gives it,
those the AFTER build gives it, the AFTER build's rows of it, and AMD's stall and idle on
those rows; then the cycles of the AFTER build's that are a second cause's part of a row
(columns cost2 and cause2, stall-attr(1): a row's cost less cost2 is its cause's), which
the cycles of both builds include (a build without those columns gives none).  A wave only
the AFTER build has, all untraced (another SIMD's, which a build that keeps them gives), is
counted in untraced's AFTER cycles."""
import glob, gzip, os, subprocess, sys
from collections import defaultdict

def rows(bindir, cap):
    dump = subprocess.run([os.path.join(bindir, "sqtt-dump"), cap], capture_output=True, check=True).stdout
    walk = subprocess.run([os.path.join(bindir, "sqtt-walk")], input=dump, capture_output=True, check=True).stdout
    attr = subprocess.run([os.path.join(bindir, "stall-attr")], input=walk, capture_output=True, check=True).stdout
    cols, out = None, []
    for line in attr.decode().splitlines():
        if line.startswith("##"):
            continue
        f = line.split("\t")
        if line.startswith("#"):
            cols = {c.lstrip("#"): i for i, c in enumerate(f)}
            continue
        out.append({k: f[i] for k, i in cols.items()})
    return out

def waves(rs):
    w, order = defaultdict(list), []
    for r in rs:
        k = (r["event"], r["wave"])
        if k not in w:
            order.append(k)
        w[k].append(r)
    return {(k[0], w[k][0]["slot"], str(int(w[k][0]["time"]) - int(w[k][0]["delta"]))): w[k] for k in order}

def amd(name):
    w = defaultdict(list)
    path = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "golden", name + ".amd.tsv.gz")
    with gzip.open(path, "rt") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")
            w[(f[0], f[2], f[3])].append(f)
    return w

def main():
    before, after = sys.argv[1], sys.argv[2]
    caps = sys.argv[3:] or sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..",
        "shared", "fixtures", "tinygrad", "*.pkl")))
    tot = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    bycause_before = defaultdict(int)
    for cap in caps:
        name = os.path.basename(cap)[:-4]
        a, b, g = waves(rows(after, cap)), waves(rows(before, cap)), amd(name)
        for k, ra in a.items():
            rb = b.get(k)
            recs = g.get(k)
            if rb is None and all(r["cause"] == "untraced" for r in ra):
                # a wave of another SIMD the AFTER build keeps (sqtt-walk(1)): no AMD record
                for r in ra:
                    tot["untraced"][0] += 1
                    tot["untraced"][2] += int(r["cost"])
                continue
            if rb is None or len(rb) != len(ra):
                sys.exit("causes-vs-amd: %s: wave %s walked differently by the two builds" % (name, k))
            for j, r in enumerate(ra):
                t = tot[r["cause"]]
                t[0] += 1
                b2, a2 = int(rb[j].get("cost2", 0)), int(r.get("cost2", 0))
                t[1] += int(rb[j]["cost"]) - b2
                t[2] += int(r["cost"]) - a2
                bycause_before[rb[j]["cause"]] += int(rb[j]["cost"]) - b2
                if b2:
                    bycause_before[rb[j]["cause2"]] += b2
                if a2:
                    tot[r["cause2"]][2] += a2
                    tot[r["cause2"]][5] += a2
                if recs and len(recs) == len(ra):
                    st = int(recs[j][7])
                    if r["token"] == "WAVE_END":
                        st += int(recs[j][8]) - 1
                    t[3] += st
                    t[4] += int(r["delta"]) - st
    print("cause\tbefore\tafter\trows\tamd_stall\tamd_idle\tafter_as_cause2")
    for c in sorted(set(tot) | set(bycause_before), key=lambda c: -tot[c][2]):
        t = tot[c]
        print("%s\t%d\t%d\t%d\t%d\t%d\t%d" % (c, bycause_before[c], t[2], t[0], t[3], t[4], t[5]))

main()
