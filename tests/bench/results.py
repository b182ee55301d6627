#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's judge: reads the raw lines every part wrote (RAW/*.txt and
RAW/*/*.txt, the format of tests/bench/guest.sh: I info, S samples,
C count checks, M memory, F failures), checks that every side produced
every figure and counted what it should, computes medians with min and
max, and writes RAW/../results.json and RAW/../results.rst (the table
Documentation includes). Prints the table, then FAILED and each failure,
and exits 1, when a figure is missing or a count is wrong; a missed target
is not a failure (the table says MISSED).

    results.py RAW KERNEL...     (the series, e.g. 6.1 6.12)
"""
import json
import os
import statistics
import sys
import types

raw, kernels = sys.argv[1], sys.argv[2:]
out_dir = os.path.dirname(os.path.abspath(raw))
failures = []
targets = []


def fail(msg):
    failures.append(msg)


def parse(path):
    """The lines of one part: info, samples, checks, memory, failures."""
    p = {"info": {}, "samples": {}, "checks": [], "mem": {}, "orders": []}
    if not os.path.exists(path):
        return None
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "I" and len(w) >= 2:
            if w[1] == "order":
                p["orders"].append(w[2:])
            elif w[1] == "retry":
                p.setdefault("retries", []).append(" ".join(w[2:]))
            elif w[1] in ("-",) or (len(w) >= 3 and w[1] in kernels):
                p["info"].setdefault(w[1], {})[w[2]] = " ".join(w[3:])
            else:
                p["info"][w[1]] = " ".join(w[2:])
        elif w[0] == "S" and len(w) == 5:
            side, series, rnd, val = w[1:]
            try:
                v = float(val)
            except ValueError:
                v = None
            p["samples"].setdefault(side, {}).setdefault(series, {})[rnd] = v
        elif w[0] == "C" and len(w) >= 5:
            p["checks"].append((w[1], w[2], w[3], w[4], w[5] if len(w) > 5 else ""))
        elif w[0] == "M" and len(w) == 3:
            p["mem"][w[1]] = float(w[2])
        elif w[0] == "F":
            p.setdefault("failed", []).append(" ".join(w[1:]))
    return p


def check_part(name, p):
    for f in p.get("failed", []):
        fail(f"{name}: {f}")
    bad = 0
    for side, rnd, what, exp, got in p["checks"]:
        try:
            g = int(got)
            ok = g >= int(exp[2:]) if exp.startswith(">=") else g == int(exp)
        except ValueError:
            ok = False
        if not ok:
            bad += 1
            if bad <= 10:
                fail(f"{name}: {side}, round {rnd}: {what}: expected {exp}, got {got or 'nothing'}")
    if bad > 10:
        fail(f"{name}: {bad - 10} more wrong counts")
    return len(p["checks"]), bad


def stats(values):
    v = sorted(values)
    return {"median": statistics.median(v), "min": v[0], "max": v[-1], "n": len(v)}


def series_of(name, p, side, series, rounds):
    """The samples of one side and series by round, all present or failure."""
    s = p["samples"].get(side, {}).get(series, {})
    vals = {r: v for r, v in s.items() if v is not None and v > 0}
    if len(vals) < rounds:
        fail(f"{name}: {side} {series}: {len(vals)} of {rounds} figures")
    return vals


def paired(a, b, f):
    """f(a_r, b_r) over the rounds both have."""
    return [f(a[r], b[r]) for r in a if r in b]


def fmt_int(x):
    return f"{x:,.0f}"


def fmt_range(st, f=fmt_int, unit=""):
    return f"{f(st['median'])}{unit} [{f(st['min'])}..{f(st['max'])}]"


def fmt_pct_range(st):
    return fmt_range(st, lambda x: f"{x:+.1f}", "%")


def fmt_pt_range(st):
    return fmt_range(st, lambda x: f"{x:+.1f}", " pt")


def fmt_pct(x):
    return f"{x:+.1f}%"


def fmt_pt(x):
    return f"{x:+.1f} pt"


def fmt_x(x):
    return f"{x:.1f}x"


def target(what, figure, text, met, judged_on):
    targets.append({"what": what, "figure": figure, "target": text, "met": met,
                    "judged_on": judged_on})


results = {"kernels": kernels, "tracer": {}, "alias": {}, "scan": {}, "packages": {},
           "prometheus": {}, "tables": {}}
run = parse(os.path.join(raw, "run.txt")) or {"info": {}}
for f in run.get("failed", []):
    fail(f)
results["run"] = run["info"]
results["run"]["retries"] = run.get("retries", [])

# ---- tracer --------------------------------------------------------------
MODES = [("icount", "guest instructions, 1 vCPU"), ("wall", "wall time (ns), 1 vCPU"),
         ("2cpu", "wall time (ns), 2 vCPUs, 2 readers of the same files")]
# The sysfs files every side loops on, and the unwatched files outside
# sysfs (tests/bench/guest.sh) those of OTHER_SIDES loop on.
SYSFS_FILES = "uw"
OTHER_FILES = (("c", "cgroup v2 file", "cgroup v2"), ("s", "/proc/sys file", "/proc/sys"),
               ("p", "/proc/<pid> file", "/proc/<pid>"))
OTHER_SIDES = ("none", "floor", "abidep", "previous")
OTHER_LIMIT = 3.0
LABEL = {"none": "no tracer", "floor": "floor: empty programs", "abidep": "abidep",
         "previous": "abidep, previous release", "bt_inode": "bpftrace, inode filter",
         "bt_attr": "bpftrace, inode filter, by cgroup, uid, comm",
         "bt_name": "bpftrace, name compare"}
# The bpftrace sides, shown beside abidep; it is judged against bt_attr, the
# one that attributes each access as abidep does (the others count per inode
# or compare a name: reference rows, doing less per access).
PEERS = {"bt_inode": "inode", "bt_attr": "attributing", "bt_name": "name"}
for k in kernels:
    for mode, _ in MODES:
        name = f"tracer {k} {mode}"
        p = parse(os.path.join(raw, f"tracer-{k}-{mode}", "tracer.txt"))
        if p is None or not p["samples"]:
            fail(f"{name}: no figures (the guest run produced none)")
            continue
        nchecks, bad = check_part(name, p)
        rounds = int(p["info"].get("rounds", "0"))
        sides = p["info"].get("sides", "").split()
        if rounds < 5:
            fail(f"{name}: {rounds} rounds, fewer than 5")
        r = {"iters": int(p["info"].get("iters", 0)), "rounds": rounds,
             "readers": int(p["info"].get("readers", 1)), "kernel": p["info"].get("kernel"),
             "checks": nchecks, "wrong_counts": bad, "orders": p["orders"], "sides": {},
             "files": dict(x.split(":", 1) for x in p["info"].get("files", "").split()
                           if ":" in x)}
        files = {s: SYSFS_FILES + ("".join(f for f, _, _ in OTHER_FILES)
                                   if s in OTHER_SIDES else "") for s in sides}
        data = {s: {f: series_of(name, p, s, f, rounds) for f in files[s]} for s in sides}
        for s in sides:
            d = r["sides"][s] = {}
            for f in files[s]:
                if not data[s][f]:
                    continue
                d[f] = {"per_loop": stats(data[s][f].values())}
                if s != "none" and data["none"].get(f):
                    ov = paired(data[s][f], data["none"][f], lambda a, b: (a / b - 1) * 100)
                    if ov:
                        d[f]["vs_none_pct"] = stats(ov)
                if s not in ("none", "floor") and data.get("floor", {}).get(f) and data["none"].get(f):
                    pts = [(data[s][f][x] - data["floor"][f][x]) / data["none"][f][x] * 100
                           for x in data[s][f] if x in data["floor"][f] and x in data["none"][f]]
                    if pts:
                        d[f]["above_floor_pt"] = stats(pts)
        if p["mem"]:
            r["memory"] = p["mem"]
        results["tracer"].setdefault(k, {})[mode] = r

# Targets, judged in guest instructions.
for k in kernels:
    r = results["tracer"].get(k, {}).get("icount")
    if not r:
        continue
    s = r["sides"]
    for f, lim, fname in (("u", 1.0, "unwatched"), ("w", 3.0, "watched")):
        pt = s.get("abidep", {}).get(f, {}).get("above_floor_pt")
        if pt:
            target(f"tracer, {fname} file, {k}: abidep above the floor",
                   fmt_pt(pt["median"]), f"at most +{lim:.0f} pt", pt["median"] <= lim,
                   "guest instructions")
        mine = s.get("abidep", {}).get(f, {}).get("vs_none_pct")
        peers = {x: s.get(x, {}).get(f, {}).get("vs_none_pct") for x in PEERS}
        if mine and all(peers.values()):
            target(f"tracer, {fname} file, {k}: below the attributing peer",
                   f"abidep {fmt_pct(mine['median'])}; bpftrace " +
                   ", ".join(f"{fmt_pct(peers[x]['median'])} ({n})" for x, n in PEERS.items()),
                   "below bpftrace attributing", mine["median"] < peers["bt_attr"]["median"],
                   "guest instructions")
    for f, fname, _ in OTHER_FILES:
        mine = s.get("abidep", {}).get(f, {}).get("vs_none_pct")
        if mine:
            target(f"tracer, unwatched {fname}, {k}: abidep vs none", fmt_pct(mine["median"]),
                   f"at most +{OTHER_LIMIT:.0f}%", mine["median"] <= OTHER_LIMIT,
                   "guest instructions")
    mem = r.get("memory", {})
    if "tracer_rss_kib" in mem:
        target(f"tracer, resident memory, {k}", f"{mem['tracer_rss_kib'] / 1024:.1f} MiB",
               "at most 32 MiB", mem["tracer_rss_kib"] <= 32 * 1024, "VmHWM")

# ---- alias ----------------------------------------------------------------
for k in kernels:
    for mode in ("icount", "wall"):
        name = f"alias {k} {mode}"
        p = parse(os.path.join(raw, f"alias-{k}-{mode}", "alias.txt"))
        if p is None or not p["samples"]:
            fail(f"{name}: no figures (the guest run produced none)")
            continue
        nchecks, bad = check_part(name, p)
        rounds = int(p["info"].get("rounds", "0"))
        if rounds < 5:
            fail(f"{name}: {rounds} rounds, fewer than 5")
        r = {"iters": int(p["info"].get("iters", 0)), "rounds": rounds,
             "kernel": p["info"].get("kernel"), "checks": nchecks, "wrong_counts": bad,
             "pairs": {}}
        for pair in ("ex", "rc"):
            a = series_of(name, p, f"{pair}_alias", "ns", rounds)
            n = series_of(name, p, f"{pair}_new", "ns", rounds)
            if not a or not n:
                continue
            ov = paired(a, n, lambda x, y: (x / y - 1) * 100)
            r["pairs"][pair] = {"alias": stats(a.values()), "new": stats(n.values()),
                                "overhead_pct": stats(ov)}
        results["alias"].setdefault(k, {})[mode] = r
# The in-tree alias of patches/linux-6.12/, on the debug kernel (the one
# kernel carrying the series), in guest instructions: a figure, no target
# (KASAN and lockdep weigh on both sides).
name = "alias in-tree icount"
p = parse(os.path.join(raw, "alias-intree-icount", "alias.txt"))
if p is None or not p["samples"]:
    fail(f"{name}: no figures (the guest run on the debug kernel produced none)")
else:
    nchecks, bad = check_part(name, p)
    rounds = int(p["info"].get("rounds", "0"))
    if rounds < 5:
        fail(f"{name}: {rounds} rounds, fewer than 5")
    a = series_of(name, p, "in_alias", "ns", rounds)
    n = series_of(name, p, "in_new", "ns", rounds)
    if a and n:
        results["alias_intree"] = {
            "iters": int(p["info"].get("iters", 0)), "rounds": rounds,
            "kernel": p["info"].get("kernel"), "checks": nchecks, "wrong_counts": bad,
            "alias": stats(a.values()), "new": stats(n.values()),
            "overhead": stats(paired(a, n, lambda x, y: x - y)),
            "overhead_pct": stats(paired(a, n, lambda x, y: (x / y - 1) * 100))}
for k in kernels:
    r = results["alias"].get(k, {}).get("icount")
    for pair, what in (("ex", "the example's current_protocol (translate hook)"),
                       ("rc", "rc-loopback's current_protocol")):
        if r and pair in r["pairs"]:
            ov = r["pairs"][pair]["overhead_pct"]["median"]
            target(f"alias, {k}: {what}", fmt_pct(ov), "at most +3%", ov <= 3.0,
                   "guest instructions")

# ---- scan -----------------------------------------------------------------
p = parse(os.path.join(raw, "scan.txt"))
if p is None or not p["samples"]:
    fail("scan: no figures")
else:
    nchecks, bad = check_part("scan", p)
    info = p["info"]
    rounds = int(info.get("rounds", 0))
    sc = {"dir": info.get("dir"), "patterns": int(info.get("patterns", 0)),
          "threads": int(info.get("threads", 1)), "grep": info.get("grep"),
          "checks": nchecks, "wrong_counts": bad, "rounds": rounds, "sides": {}}
    for key in ("files_abidep", "files_grep", "bytes_all", "bytes_default", "files_with_hits",
                "files_with_hits_default", "hits_default", "files_read", "bytes_read"):
        sc[key] = int(info.get(key, 0))
    if rounds < 5:
        fail(f"scan: {rounds} rounds, fewer than 5")
    sides = info.get("sides", "").split()
    wall = {s: series_of("scan", p, s, "wall", rounds) for s in sides}
    cpu = {s: series_of("scan", p, s, "cpu", rounds) for s in sides}
    for s in sides:
        if not wall[s]:
            continue
        files = {"grep": sc["files_grep"], "read": sc["files_read"]}.get(s, sc["files_abidep"])
        nbytes = {"abidep1": sc["bytes_all"], "abidep": sc["bytes_all"],
                  "default1": sc["bytes_default"], "default": sc["bytes_default"],
                  "read": sc["bytes_read"]}.get(s)
        w = stats([v / 1e6 for v in wall[s].values()])
        d = sc["sides"][s] = {"wall_s": w, "cpu_s": stats([v / 1e6 for v in cpu[s].values()]),
                              "files_per_s": files / w["median"]}
        if nbytes:
            d["bytes"] = nbytes
            d["mb_per_s"] = nbytes / 1e6 / w["median"]
        # The floor: the same files read whole and dropped; scan's files/s
        # as a share of that rate (read's time over scan's), per round.
        if s not in ("grep", "read") and wall.get("read"):
            d["share_of_read"] = stats(paired(wall["read"], wall[s], lambda r, a: 100 * r / a))
        if s not in ("grep", "read") and wall.get("grep"):
            d["vs_grep_wall"] = stats(paired(wall["grep"], wall[s], lambda g, a: g / a))
            d["vs_grep_cpu"] = stats(paired(cpu["grep"], cpu[s], lambda g, a: g / a))
    results["scan"] = sc
    a1 = sc["sides"].get("abidep1", {}).get("vs_grep_wall")
    if a1:
        target("scan, equal work, one thread: grep's time over abidep's", fmt_x(a1["median"]),
               "at least 2x", a1["median"] >= 2.0, "wall time")

# ---- packages ---------------------------------------------------------------
p = parse(os.path.join(raw, "packages.txt"))
if p is None or not p["samples"]:
    fail("packages: no figures" + (f" ({p['failed'][0]})" if p and p.get("failed") else ""))
else:
    nchecks, bad = check_part("packages", p)
    info = p["info"]
    rounds = int(info.get("rounds", 0))
    pk = {"dir": info.get("dir"), "threads": int(info.get("threads", 1)), "checks": nchecks,
          "wrong_counts": bad, "rounds": rounds, "sides": {}}
    for key in ("packages", "compressed", "patterns", "files", "bytes", "files_with_hits"):
        pk[key] = int(info.get(key, 0))
    if rounds < 5:
        fail(f"packages: {rounds} rounds, fewer than 5")
    sides = info.get("sides", "").split()
    wall = {s: series_of("packages", p, s, "wall", rounds) for s in sides}
    cpu = {s: series_of("packages", p, s, "cpu", rounds) for s in sides}
    for s in sides:
        if not wall[s]:
            continue
        w = stats([v / 1e6 for v in wall[s].values()])
        d = pk["sides"][s] = {"wall_s": w, "cpu_s": stats([v / 1e6 for v in cpu[s].values()]),
                              "packages_per_s": pk["packages"] / w["median"]}
        if s != "unpack" and wall.get("unpack"):
            d["vs_unpack_wall"] = stats(paired(wall["unpack"], wall[s], lambda g, a: g / a))
            d["vs_unpack_cpu"] = stats(paired(cpu["unpack"], cpu[s], lambda g, a: g / a))
    results["packages"] = pk
    a1 = pk["sides"].get("abidep1", {}).get("vs_unpack_wall")
    if a1:
        target("scan --packages, equal work, one process: dpkg-deb -R + grep's time over "
               "abidep's", fmt_x(a1["median"]), "at least 3x", a1["median"] >= 3.0, "wall time")

# ---- prometheus -------------------------------------------------------------
p = parse(os.path.join(raw, "prometheus.txt"))
if p is None or not p["samples"]:
    fail("prometheus: no figures" + (f" ({p['failed'][0]})" if p and p.get("failed") else ""))
else:
    nchecks, bad = check_part("prometheus", p)
    info = p["info"]
    rounds = int(info.get("rounds", 0))
    pm = {"checks": nchecks, "wrong_counts": bad, "rounds": rounds, "sides": {},
          "end": info.get("end"), "prometheus": info.get("prometheus"),
          "verdicts": info.get("verdicts"), "memory_kib": p["mem"]}
    for key in ("hosts", "days", "step", "series", "samples", "openmetrics_bytes", "blocks",
                "tsdb_bytes", "db_bytes"):
        pm[key] = int(info.get(key, 0))
    for key in ("generate_s", "fill_merge_s", "backfill_s", "ready_s"):
        pm[key] = float(info.get(key, 0))
    if rounds < 3:
        fail(f"prometheus: {rounds} rounds, fewer than 3")
    for key in ("prom_hwm_kib", "prom_rss_kib"):
        if key not in p["mem"]:
            fail(f"prometheus: no {key}")
    sides = info.get("sides", "").split()
    wall = {s: series_of("prometheus", p, s, "wall", rounds) for s in sides}
    cpu = {s: series_of("prometheus", p, s, "cpu", rounds) for s in sides}
    for s in sides:
        if not wall[s]:
            continue
        pm["sides"][s] = {"wall_s": stats([v / 1e6 for v in wall[s].values()]),
                          "cpu_s": stats([v / 1e6 for v in cpu[s].values()])}
        if s != "db" and wall.get("db"):
            pm["sides"][s]["vs_db_wall"] = stats(paired(wall[s], wall["db"], lambda a, d: a / d))
    results["prometheus"] = pm

# ---- tables ---------------------------------------------------------------
p = parse(os.path.join(raw, "tables.txt"))
if p is None or not p["samples"]:
    fail("tables: no figures")
else:
    nchecks, bad = check_part("tables", p)
    tb = {"checks": nchecks, "wrong_counts": bad, "pattern": p["info"].get("-", {}).get("pattern")}
    for k in kernels:
        ki = p["info"].get(k, {})
        sides = ki.get("sides", "").split()
        if not sides:
            fail(f"tables {k}: no figures")
            continue
        rounds = int(p["info"].get("-", {}).get("rounds", 0))
        if rounds < 5:
            fail(f"tables {k}: {rounds} rounds, fewer than 5")
        wall = {s: series_of(f"tables {k}", p, f"{s}@{k}", "wall", rounds) for s in sides}
        t = tb[k] = {"source": ki.get("source"), "validate_summary": ki.get("validate_summary"),
                     "rounds": rounds, "sides": {}}
        for s in sides:
            if wall[s]:
                t["sides"][s] = {"wall_ms": stats([v / 1000 for v in wall[s].values()])}
        for job, a, g in (("validate", "abidep_validate", "getabi_validate"),
                          ("show", "abidep_show", "getabi_search")):
            if wall[a] and wall[g]:
                ratio = stats(paired(wall[g], wall[a], lambda x, y: x / y))
                t[job] = ratio
                target(f"tables, {k}: {job}: get_abi.pl's time over abidep's",
                       fmt_x(ratio["median"]), "at least 20x", ratio["median"] >= 20,
                       "wall time")
    results["tables"] = tb

results["targets"] = targets
results["failed"] = failures


# ---- the table --------------------------------------------------------------
def table(head, rows):
    """An RST simple table (also readable as text)."""
    rows = [[c if c else "-" for c in r] for r in rows]
    w = [max(len(x[i]) for x in [head] + rows) for i in range(len(head))]
    rule = "  ".join("=" * n for n in w)
    line = lambda r: "  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip()
    return "\n".join([rule, line(head), rule] + [line(r) for r in rows] + [rule, ""])


def heading(text, ch="-"):
    return f"{text}\n{ch * len(text)}\n"


# ---- tracer start-up (its own module) -----------------------------------------
import results_startup  # noqa: E402 (beside this script)
startup_doc = results_startup.startup(raw, kernels, results, globals())
# The sync part (tests/bench/results_sync.py): figures, no target.
from results_sync import sync_results  # noqa: E402
results["sync"], sync_doc = sync_results(raw, kernels, types.SimpleNamespace(
    parse=parse, check_part=check_part, fail=fail, stats=stats, table=table,
    heading=heading, fmt_range=fmt_range))

ri = run["info"]
doc = []
doc.append(f"Measured {ri.get('date', '?')} on {ri.get('cpu', '?')} ({ri.get('mem', '?')}), "
           f"{ri.get('os', '?')}, commit {ri.get('commit', '?')}; host load average "
           f"{ri.get('load_start', '?')} at the start, {ri.get('load_end', '?')} at the end; "
           f"``make bench`` took {ri.get('duration', '?')}. Medians, with [min..max] over the "
           "rounds; \"vs\" figures are medians of the ratios within each round. "
           "Wall times move with the host's load; guest instructions do not.\n")
if run.get("retries"):
    doc.append("Run again: " + "; ".join(run["retries"]) + ".\n")
if failures:
    doc.append("**FAILED**: " + "; ".join(failures) + "\n")

doc.append(heading("Targets, met or missed"))
doc.append(table(["target", "figure", "wanted", "verdict", "judged on"],
                 [[t["what"], t["figure"], t["target"], "met" if t["met"] else "MISSED",
                   t["judged_on"]] for t in targets]))

for k in kernels:
    for mode, desc in MODES:
        r = results["tracer"].get(k, {}).get(mode)
        if not r:
            continue
        unit = "instructions" if mode == "icount" else "ns"
        doc.append(heading(f"Tracer, {r['kernel'] or k}: {desc}"))
        doc.append(f"{r['rounds']} rounds of {r['iters']:,} open+read+close iterations per "
                   f"side and file{', per reader' if r['readers'] > 1 else ''}; {unit} per "
                   f"iteration; {r['checks']} counts checked, {r['wrong_counts']} wrong.\n")
        rows = []
        for s in r["sides"]:
            d = r["sides"][s]
            row = [LABEL.get(s, s)]
            for f in "uw":
                e = d.get(f)
                if not e:
                    row += ["", "", ""]
                    continue
                row.append(fmt_range(e["per_loop"]))
                row.append(fmt_pct_range(e["vs_none_pct"]) if "vs_none_pct" in e else "")
                row.append(fmt_pt_range(e["above_floor_pt"]) if "above_floor_pt" in e else "")
            rows.append(row)
        doc.append(table(["side", f"unwatched: {unit}", "vs none", "above floor",
                          f"watched: {unit}", "vs none", "above floor"], rows))
        rows = []
        for s in r["sides"]:
            d = r["sides"][s]
            if not any(d.get(f) for f, _, _ in OTHER_FILES):
                continue
            row = [LABEL.get(s, s)]
            for f, _, _ in OTHER_FILES:
                e = d.get(f)
                row.append(fmt_range(e["per_loop"]) if e else "")
                row.append(fmt_pct_range(e["vs_none_pct"]) if e and "vs_none_pct" in e else "")
            rows.append(row)
        if rows:
            named = ", ".join(f"``{r['files'][f]}``" for f, _, _ in OTHER_FILES
                              if f in r["files"])
            doc.append(f"The same loop on unwatched files outside sysfs ({named}), under "
                       f"the sides that run it; {unit} per iteration:\n")
            head = ["side"]
            for _, _, short in OTHER_FILES:
                head += [f"{short}: {unit}", "vs none"]
            doc.append(table(head, rows))

doc.append(startup_doc)

for k in kernels:
    for mode in ("icount", "wall"):
        r = results["alias"].get(k, {}).get(mode)
        if not r:
            continue
        unit = "instructions" if mode == "icount" else "ns"
        doc.append(heading(f"Alias, {r['kernel'] or k}: "
                           f"{'guest instructions' if mode == 'icount' else 'wall time (ns)'}, 1 vCPU"))
        doc.append(f"{r['rounds']} rounds of {r['iters']:,} iterations per file; {unit} per "
                   f"iteration; {r['checks']} counts checked, {r['wrong_counts']} wrong.\n")
        rows = []
        for pair, what in (("ex", "example: current_protocol vs protocol"),
                           ("rc", "rc-loopback: current_protocol vs protocols")):
            if pair in r["pairs"]:
                q = r["pairs"][pair]
                rows.append([what, fmt_range(q["alias"]), fmt_range(q["new"]),
                             fmt_pct_range(q["overhead_pct"])])
        doc.append(table(["alias", f"alias: {unit}", f"new: {unit}", "alias vs new"], rows))

r = results.get("alias_intree")
if r:
    doc.append(heading(f"In-tree alias (patches/linux-6.12/), {r['kernel']}: "
                       "guest instructions, 1 vCPU"))
    doc.append(f"The debug kernel, the one kernel that carries the series: KASAN, lockdep, "
               f"KFENCE, DEBUG_OBJECTS and UBSAN weigh on both sides. {r['rounds']} rounds of "
               f"{r['iters']:,} iterations per file; instructions per iteration; "
               f"{r['checks']} counts checked, {r['wrong_counts']} wrong.\n")
    doc.append(table(["alias", "alias: instructions", "new: instructions", "alias - new",
                      "alias vs new"],
                     [["cpuidle: current_governor_ro vs current_governor",
                       fmt_range(r["alias"]), fmt_range(r["new"]), fmt_range(r["overhead"]),
                       fmt_pct_range(r["overhead_pct"])]]))

doc += sync_doc

sc = results["scan"]
if sc.get("sides"):
    doc.append(heading(f"Scan: {sc['dir']}"))
    doc.append(f"{sc['files_abidep']:,} files ({sc['files_grep']:,} by grep's count), "
               f"{sc['bytes_read'] / 1e9:.2f} GB; abidep read {sc['bytes_all'] / 1e9:.2f} GB "
               f"with ``-l --all-bytes`` (a listed file's rest unread, as grep -l's), "
               f"{sc['bytes_default'] / 1e9:.2f} GB by default; {sc['patterns']} names; "
               f"page cache warm; {sc['rounds']} rounds. "
               f"``abidep scan --weak -l --all-bytes`` and ``grep -rlwF`` found the same "
               f"{sc['files_with_hits']:,} files"
               f"{'' if not sc['wrong_counts'] else ' (NOT: see FAILED)'}; the default "
               f"configuration lists {sc['hits_default']:,} hits in "
               f"{sc['files_with_hits_default']:,} files. {sc['grep']}; all threads: "
               f"{sc['threads']}.\n")
    names = {"grep": "grep -rlwF -f PATTERNS",
             "abidep1": "abidep scan --weak -l --all-bytes --threads 1",
             "abidep": f"abidep scan --weak -l --all-bytes (threads: {sc['threads']})",
             "default1": "abidep scan --threads 1 (default)",
             "default": f"abidep scan (default, threads: {sc['threads']})",
             "read": "read only: the same files read whole (tests/bench/readfiles.c)"}
    rows = []
    for s in ("grep", "abidep1", "abidep", "default1", "default", "read"):
        d = sc["sides"].get(s)
        if not d:
            continue
        rows.append([names[s], fmt_range(d["wall_s"], lambda x: f"{x:.2f}"),
                     fmt_range(d["cpu_s"], lambda x: f"{x:.2f}"),
                     f"{d['files_per_s']:,.0f}",
                     f"{d['mb_per_s']:,.0f}" if "mb_per_s" in d else "",
                     fmt_range(d["vs_grep_wall"], fmt_x) if "vs_grep_wall" in d else "",
                     fmt_x(d["vs_grep_cpu"]["median"]) if "vs_grep_cpu" in d else "",
                     fmt_range(d["share_of_read"], lambda x: f"{x:.0f}", "%")
                     if "share_of_read" in d else ""])
    doc.append(table(["command", "wall s", "CPU s", "files/s", "MB/s", "grep / this, wall",
                      "CPU", "files/s: share of read only"], rows))

pk = results["packages"]
if pk.get("sides"):
    doc.append(heading("Scan of package files: tests/debs/packages.list"))
    doc.append(f"{pk['packages']} Debian 12 packages ({pk['compressed'] / 1e6:.1f} MB), "
               f"{pk['files']:,} files and scripts, {pk['bytes'] / 1e6:.1f} MB unpacked; "
               f"{pk['patterns']} names; page cache warm; {pk['rounds']} rounds. "
               f"``abidep scan --packages --weak -l --all-bytes`` and ``dpkg-deb -R`` + "
               f"``grep -rlwF`` found the same {pk['files_with_hits']:,} files"
               f"{'' if not pk['wrong_counts'] else ' (NOT: see FAILED)'}; all threads: "
               f"{pk['threads']}.\n")
    names = {"unpack": "dpkg-deb -R, grep -rlwF, rm -r: a package at a time",
             "abidep1": "abidep scan --packages --weak -l --all-bytes --threads 1",
             "abidep": f"abidep scan --packages ... (threads: {pk['threads']})",
             "cached": "abidep scan --packages ... --cache DIR, second run"}
    rows = []
    for s in ("unpack", "abidep1", "abidep", "cached"):
        d = pk["sides"].get(s)
        if not d:
            continue
        rows.append([names[s], fmt_range(d["wall_s"], lambda x: f"{x:.2f}"),
                     fmt_range(d["cpu_s"], lambda x: f"{x:.2f}"),
                     f"{d['packages_per_s']:,.0f}",
                     fmt_range(d["vs_unpack_wall"], fmt_x) if "vs_unpack_wall" in d else "",
                     fmt_x(d["vs_unpack_cpu"]["median"]) if "vs_unpack_cpu" in d else ""])
    doc.append(table(["command", "wall s", "CPU s", "packages/s", "unpack / this, wall", "CPU"],
                     rows))

pm = results["prometheus"]
if pm.get("sides"):
    doc.append(heading(f"Check over Prometheus: {pm['hosts']:,} hosts, {pm['days']} days"))
    mem = pm["memory_kib"]
    doc.append(f"A fleet of {pm['hosts']:,} hosts' metrics over {pm['days']} days, a sample "
               f"every {pm['step']:,} s ({pm['series']:,} series, {pm['samples']:,} samples), "
               f"backfilled into Prometheus {pm['prometheus']} by promtool: {pm['blocks']} "
               f"blocks, {pm['tsdb_bytes'] / 1e6:.1f} MB on disk; the same hosts' DBs merged: "
               f"{pm['db_bytes'] / 1e6:.1f} MB. ``abidep check --prometheus`` and ``abidep "
               f"check --db`` over a 30-day window at the data's end found the same verdicts "
               f"({pm['verdicts']}), users and hosts"
               f"{'' if not pm['wrong_counts'] else ' (NOT: see FAILED)'}; {pm['rounds']} "
               f"rounds. Prometheus's resident memory after the queries: "
               f"{mem.get('prom_rss_kib', 0) / 1024:.0f} MiB (peak "
               f"{mem.get('prom_hwm_kib', 0) / 1024:.0f} MiB; "
               f"{mem.get('prom_rss_start_kib', 0) / 1024:.0f} MiB before them).\n")
    names = {"prom": "abidep check --prometheus URL --quiet-days 30",
             "db": "abidep check --db MERGED.db --quiet-days 30"}
    rows = []
    for s in ("prom", "db"):
        d = pm["sides"].get(s)
        if not d:
            continue
        rows.append([names[s], fmt_range(d["wall_s"], lambda x: f"{x:.3f}"),
                     fmt_range(d["cpu_s"], lambda x: f"{x:.3f}"),
                     fmt_range(d["vs_db_wall"], fmt_x) if "vs_db_wall" in d else ""])
    doc.append(table(["command", "wall s", "CPU s (abidep's)", "this / the DB's, wall"], rows))

tb = results["tables"]
for k in kernels:
    t = tb.get(k)
    if not t:
        continue
    doc.append(heading(f"Tables: Documentation/ABI of {t['source']}"))
    doc.append(f"abidep: {t['validate_summary']} (get_abi.pl parsed the same files and entries, "
               f"and warns about none); show and search of ``{tb.get('pattern')}`` found the same "
               f"entries; {t['rounds']} rounds; milliseconds per run, fork to wait.\n")
    rows = []
    for job, a, g in (("validate", "abidep_validate", "getabi_validate"),
                      ("show / search", "abidep_show", "getabi_search")):
        sa, sg = t["sides"].get(a), t["sides"].get(g)
        key = "validate" if job == "validate" else "show"
        if sa and sg and key in t:
            rows.append([job, fmt_range(sa["wall_ms"], lambda x: f"{x:.1f}"),
                         fmt_range(sg["wall_ms"], lambda x: f"{x:.1f}"), fmt_range(t[key], fmt_x)])
    doc.append(table(["job", "abidep ms", "get_abi.pl ms", "get_abi.pl / abidep"], rows))

rst = "\n".join(doc)
with open(os.path.join(out_dir, "results.rst"), "w") as f:
    f.write(rst)
with open(os.path.join(out_dir, "results.json"), "w") as f:
    json.dump(results, f, indent=1)
print(rst)
if failures:
    print("FAILED:")
    for m in failures:
        print(f"  {m}")
    sys.exit(1)
