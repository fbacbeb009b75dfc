#!/usr/bin/env python3
"""t0610: checks a stall-table --trace-json file against the trace event format and
against the row stream it was made from.  Usage: t0610-check-trace.py ROWS TRACE.
Time: ts and dur are cycles / 1000 (displayTimeUnit "ns", otherData.cycles_per_ts 1000);
the buffers of one dispatch (the ##event lines' last field) share a clock, and each
dispatch starts 1000 cycles after the end of all before it.
A row of two causes (columns cost2 and cause2, cost2 > 0) is a slice with args cause2 and
cycles2, and a slice of that part: named and filed (cat) by cause2, with args cause2,
cycles2 and issue, its last cost2 cycles, inside the row's.
Prints "processes P", "threads T", "slices S" (the rows' slices), and "second N" when N
rows have a second cause; a violation is one line on stderr, exit 1."""
import json
import sys


def fail(msg):
    print("check-trace: " + msg, file=sys.stderr)
    sys.exit(1)


def text(b):
    # stall-table writes each byte that is not UTF-8 as U+FFFD
    out, i = [], 0
    while i < len(b):
        for n in (4, 3, 2, 1):
            try:
                out.append(b[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


rows_path, trace_path = sys.argv[1], sys.argv[2]
cols, waves, order, dispatch = None, {}, [], {}
with open(rows_path, "rb") as f:
    for raw in f:
        line = raw.rstrip(b"\n")
        if line.startswith(b"##event\t"):
            fld = line.split(b"\t")
            if len(fld) > 10 and fld[10] != b"-":
                dispatch[int(fld[1])] = int(fld[10])
            continue
        if line.startswith(b"##"):
            continue
        if line.startswith(b"#"):
            cols = {c: i for i, c in enumerate(text(line[1:]).split("\t"))}
            continue
        fld = [text(x) for x in line.split(b"\t")]
        # without stall-attr's columns a row costs its delta and has no cause
        fld.append(fld[cols["cost"]] if "cost" in cols else fld[cols["delta"]])
        fld.append(fld[cols["cause"]] if "cause" in cols else "-")
        two = "cost2" in cols and "cause2" in cols and int(fld[cols["cost2"]]) > 0
        fld.append(int(fld[cols["cost2"]]) if two else 0)
        fld.append(fld[cols["cause2"]] if two else None)
        if fld[-3] == "untraced":
            continue
        key = (fld[cols["kernel"]], int(fld[cols["event"]]), int(fld[cols["wave"]]))
        if key not in waves:
            waves[key] = []
            order.append(key)
        waves[key].append(fld)

with open(trace_path, encoding="utf-8") as f:
    doc = json.load(f)
if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    fail("no traceEvents list")
if doc.get("displayTimeUnit") != "ns" or doc.get("otherData", {}).get("cycles_per_ts") != 1000:
    fail("the unit is not said: displayTimeUnit ns, otherData.cycles_per_ts 1000")


def cyc(v):
    # a ts or dur in cycles: it must be a whole number of cycles / 1000
    c = round(v * 1000)
    if abs(v * 1000 - c) > 1e-6:
        fail("%r is not a whole number of cycles / 1000" % v)
    return c
pname, tname, slices, seconds = {}, {}, {}, {}
for i, e in enumerate(doc["traceEvents"]):
    where = "event %d" % i
    for k in ("ph", "name", "pid", "tid"):
        if k not in e:
            fail("%s: no %s" % (where, k))
    if not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
        fail("%s: pid and tid are not integers" % where)
    if e["ph"] == "M":
        a = e.get("args")
        if not isinstance(a, dict):
            fail("%s: metadata without args" % where)
        if e["name"] == "process_name":
            if e["pid"] in pname:
                fail("%s: process %d named twice" % (where, e["pid"]))
            pname[e["pid"]] = a["name"]
        elif e["name"] == "thread_name":
            if (e["pid"], e["tid"]) in tname:
                fail("%s: thread named twice" % where)
            tname[(e["pid"], e["tid"])] = a["name"]
        elif e["name"] not in ("process_labels", "process_sort_index"):
            fail("%s: unknown metadata %s" % (where, e["name"]))
        continue
    if e["ph"] != "X":
        fail("%s: phase %r, not X or M" % (where, e["ph"]))
    for k in ("ts", "dur", "cat", "args"):
        if k not in e:
            fail("%s: slice without %s" % (where, k))
    if not isinstance(e["ts"], (int, float)) or not isinstance(e["dur"], (int, float)):
        fail("%s: ts or dur is not a number" % where)
    if e["ts"] < 0 or e["dur"] < 0:
        fail("%s: negative ts or dur" % where)
    e["ts"], e["dur"] = cyc(e["ts"]), cyc(e["dur"])
    if e["pid"] not in pname or (e["pid"], e["tid"]) not in tname:
        fail("%s: slice before its process and thread names" % where)
    if "cause" not in e["args"] and "cause2" in e["args"]:
        # a row's second cause's part
        if set(e["args"]) != {"cause2", "cycles2", "issue"}:
            fail("%s: a second cause's slice with args %r" % (where, sorted(e["args"])))
        seconds.setdefault((e["pid"], e["tid"]), []).append(e)
        continue
    # a launch (cause wave_start) or a drain has no pc and no instruction
    special = e["args"].get("cause") in ("wave_start", "drain")
    for k in ("cause", "cycles", "issue") if special else ("pc", "inst", "cause", "cycles", "issue"):
        if k not in e["args"]:
            fail("%s: no args.%s" % (where, k))
    if special and ("pc" in e["args"] or "inst" in e["args"]):
        fail("%s: a launch or drain with a pc or an instruction" % where)
    slices.setdefault((e["pid"], e["tid"]), []).append(e)

# threads are waves: name "slot S wave W", process "KERNEL SEn (event E[, dispatch D])"
seen, clocks, ends, starts = {}, {}, {}, {}
for (pid, tid), ss in slices.items():
    p, t = pname[pid], tname[(pid, tid)]
    kernel, rest = p.rsplit(" SE", 1)
    event = int(rest.split("(event ")[1].rstrip(")").split(",")[0])
    slot, wave = int(t.split()[1]), int(t.split()[3])
    key = (kernel, event, wave)
    if key not in waves:
        fail("thread %s of %s is no wave of the rows" % (t, p))
    if key in seen:
        fail("wave %r is two threads" % (key,))
    seen[key] = 1
    rows = waves[key]
    if len(rows) != len(ss):
        fail("wave %r: %d rows, %d slices" % (key, len(rows), len(ss)))
    for prev, cur in zip(ss, ss[1:]):
        if cur["ts"] < prev["ts"]:
            fail("wave %r: timestamps out of order" % (key,))
        # nesting: the next slice starts after the last ends, or lies inside it
        if cur["ts"] < prev["ts"] + prev["dur"] and cur["ts"] + cur["dur"] > prev["ts"] + prev["dur"]:
            fail("wave %r: slices overlap without nesting" % (key,))
    c = dict(cols, cost=len(cols), cause=len(cols) + 1, cost2=len(cols) + 2, cause2=len(cols) + 3)
    first = rows[0]
    # the wave's offset: its dispatch's clock in the file's
    off = ss[0]["ts"] - (int(first[c["time"]]) - int(first[c["delta"]]))
    d = dispatch.get(event, -1)
    if clocks.setdefault(d, off) != off:
        fail("wave %r: not on the clock of dispatch %d" % (key, d))
    ends.setdefault(d, []).append(ss[-1]["ts"] + ss[-1]["dur"])
    starts.setdefault(d, []).append(ss[0]["ts"])
    if ss[-1]["ts"] + ss[-1]["dur"] - off != int(rows[-1][c["time"]]):
        fail("wave %r: the last slice does not end at the last row" % (key,))
    for r, s in zip(rows, ss):
        special = {"wave_start": "(launch)", "drain": "(drain)"}.get(r[c["cause"]])
        want = (None if special else r[c["pc"]], None if special else r[c["inst"]], r[c["cause"]],
                int(r[c["cost"]]), int(r[c["time"]]), int(r[c["slot"]]))
        got = (s["args"].get("pc"), s["args"].get("inst"), s["args"]["cause"], s["args"]["cycles"],
               s["args"]["issue"], slot)
        if want != got or s["dur"] != s["args"]["cycles"] or s["name"] != (special or r[c["inst"]]):
            fail("wave %r: slice %r is not its row %r" % (key, got, want))
        if (s["args"].get("cause2"), s["args"].get("cycles2", 0)) != (r[c["cause2"]], r[c["cost2"]]):
            fail("wave %r: slice %r: cause2 %r, cycles2 %r, not its row's %r, %r" % (key, got,
                 s["args"].get("cause2"), s["args"].get("cycles2"), r[c["cause2"]], r[c["cost2"]]))
    # each second cause's part: the next one of the thread, at the end of its row's slice
    parts = seconds.pop((pid, tid), [])
    two = [s for s in ss if "cause2" in s["args"]]
    if len(parts) != len(two):
        fail("wave %r: %d rows of two causes, %d slices of a second cause" % (key, len(two), len(parts)))
    for s, p2 in zip(two, parts):
        n2 = s["args"]["cycles2"]
        if (p2["name"], p2["cat"], p2["args"]["cause2"], p2["args"]["cycles2"], p2["args"]["issue"],
                p2["ts"], p2["dur"]) != (s["args"]["cause2"],) * 3 + (n2, s["args"]["issue"],
                s["ts"] + s["dur"] - n2, n2):
            fail("wave %r: the second cause's slice %r is not the end of its row's %r" % (key, p2, s))
if seconds:
    fail("slices of a second cause on a thread of no wave: %r" % sorted(seconds))
if len(seen) != len(waves):
    fail("%d waves in the rows, %d threads" % (len(waves), len(seen)))
# the dispatches one after another, in the order their rows came, 1000 cycles apart
# (their clock starts where the one before ended, plus the gap: its cycle 0 is there)
order_d = sorted(clocks, key=lambda d: clocks[d])
for a, b in zip(order_d, order_d[1:]):
    if clocks[b] != max(ends[a]) + 1000:
        fail("dispatch %d: its clock starts at %d, not 1000 after dispatch %d ends at %d"
             % (b, clocks[b], a, max(ends[a])))
if order_d and clocks[order_d[0]] != 0:
    fail("the first dispatch's clock does not start at 0")
print("processes %d" % len(pname))
print("threads %d" % len(tname))
print("slices %d" % sum(len(s) for s in slices.values()))
nsecond = sum(1 for ss in slices.values() for s in ss if "cause2" in s["args"])
if nsecond:
    print("second %d" % nsecond)
