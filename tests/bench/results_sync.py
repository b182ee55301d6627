# SPDX-License-Identifier: GPL-2.0
"""make bench's sync part, for tests/bench/results.py: the raw lines of
tests/bench/sync.sh (RAW/sync-KERNEL-MODE/sync.txt, MODE icount or wall)
to figures (results.json's "sync") and a table per kernel and mode. No
target: figures only. A run with no figure, a wrong count or a failure is
a failure (results.py's fail()).

    results, doc = sync_results(raw, kernels, h)

h: results.py's helpers (parse, check_part, fail, stats, table, heading).
"""
import os

# Per mode: its heading, its unit, and the figure a sync's cost is judged
# on: under -icount the sync process's CPU time (user + system), which is
# its guest instructions (one virtual ns each); fork to wait there also
# counts idle time (the guest waiting for an RCU grace period when the
# map is replaced), which the clock advances at the host's real rate. In
# the wall run, fork to wait.
MODES = (("icount", "guest instructions, 1 vCPU", "instructions", "cpu"),
         ("wall", "wall time, 1 vCPU", "ms", "sync"))


def _fmt(x, unit):
    """A sync's cost: instructions as such, ns as ms."""
    return f"{x:,.0f}" if unit == "instructions" else f"{x / 1e6:,.1f}"


def _range(st, f, h):
    """One figure as such, several as median [min..max]."""
    return f(st["median"]) if st["n"] == 1 else h.fmt_range(st, f)


def _per_key(x, unit):
    return f"{x:,.0f}" if unit == "instructions" else f"{x / 1e3:,.1f}"


def _one(name, p, h, on):
    """One run's figures, or None (after fail())."""
    nchecks, bad = h.check_part(name, p)
    info = p["info"]
    rounds = int(info.get("rounds", 0))
    if rounds < 1:
        h.fail(f"{name}: no rounds")
        return None
    sizes = [int(n) for n in info.get("sizes", "").split()]
    mix = [int(x) for x in info.get("mix", "0 0 0").split()]
    s = p["samples"]

    def series(kind, n, want):
        vals = [v for v in s.get(kind, {}).get(str(n), {}).values() if v is not None]
        if len(vals) < want:
            h.fail(f"{name}: {kind} {n}: {len(vals)} of {want} figures")
        return vals

    r = {"kernel": info.get("kernel"), "rounds": rounds, "checks": nchecks,
         "wrong_counts": bad, "max_entries": int(info.get("max_entries", 0)),
         "file": info.get("file"), "judged_on": on, "sizes": {}}
    empty = {x: series(f"{x}_empty", 0, 3 * rounds) for x in ("sync", "cpu")}
    if not all(empty.values()):
        return None
    r["empty"] = {x: h.stats(v) for x, v in empty.items()}
    base = r["empty"][on]["median"]
    for n in sizes:
        d = r["sizes"][str(n)] = {"keys": n}
        for kind in ("new", "again"):
            t = {x: series(f"{x}_{kind}", n, rounds) for x in ("sync", "cpu")}
            g = series(f"grow_{kind}", n, rounds)
            if not all(t.values()) or not g:
                continue
            st = {x: h.stats(v) for x, v in t.items()}
            d[kind] = {"sync_ns": st["sync"], "cpu_ns": st["cpu"],
                       "per_key_ns": (st[on]["median"] - base) / n,
                       "db_growth_bytes": h.stats(g),
                       "db_growth_per_key": h.stats(g)["median"] / n}
    uses, keys, syncs = mix
    if uses and keys and syncs:
        t = {x: series(f"{x}_mix", keys, syncs) for x in ("sync", "cpu")}
        g = series("grow_mix", keys, syncs)
        if all(t.values()) and g:
            r["mix"] = {"uses": uses, "keys": keys, "syncs": syncs,
                        "sync_ns": h.stats(t["sync"]), "cpu_ns": h.stats(t["cpu"]),
                        "db_growth_bytes": sum(g),
                        "db_growth_first_sync": s["grow_mix"][str(keys)].get("1"),
                        "db_growth_per_1e6_uses": sum(g) * 1e6 / uses}
    return r


def _table(k, desc, unit, r, h):
    on = r["judged_on"]
    fig = "the sync process's CPU time" if on == "cpu" else "fork to wait"
    f = lambda x: _fmt(x, unit)  # noqa: E731
    doc = [h.heading(f"Sync, {r['kernel'] or k}: {desc}")]
    doc.append(f"``abidep trace --sync`` of a pinned tracer (``--max-entries "
               f"{r['max_entries']:,}``): the usage map replaced by an empty one and its "
               f"keys written to the DB. Keys made by distinct users (uid, executable, "
               f"cgroup) opening and reading ``{r['file']}`` in the guest; new: keys the DB "
               f"has not seen; again: the same keys in the next interval. Judged on {fig} "
               f"({unit}); per key: above the sync of no key ({f(r['empty'][on]['median'])} "
               f"{unit}: the tables, the watched files, the new hash of "
               f"{r['max_entries']:,} preallocated keys). {r['rounds']} "
               f"round{'s' if r['rounds'] > 1 else ''}; {r['checks']} counts checked (the "
               f"DB's keys and counts against those made), {r['wrong_counts']} wrong.\n")
    per = "instructions" if unit == "instructions" else "µs"
    rows = []
    for n, d in r["sizes"].items():
        for kind in ("new", "again"):
            e = d.get(kind)
            if not e:
                continue
            rows.append([f"{int(n):,}", kind, _range(e["cpu_ns"], f, h),
                         _range(e["sync_ns"], f, h), _per_key(e["per_key_ns"], unit),
                         f"{e['db_growth_bytes']['median']:,.0f}",
                         f"{e['db_growth_per_key']:,.0f}"])
    doc.append(h.table(["keys", "sync of", f"CPU: {unit}",
                        f"fork to wait{': virtual ns' if unit == 'instructions' else ': ms'}",
                        f"per key: {per}", "DB growth, bytes", "per key"], rows))
    m = r.get("mix")
    if m:
        doc.append(f"DB growth per million uses: {m['uses']:,} uses (accesses recorded) on "
                   f"{m['keys']:,} keys, Zipf-like over the users, in {m['syncs']} syncs "
                   f"of the same users: the DB grew by {m['db_growth_bytes']:,.0f} bytes "
                   f"({m['db_growth_per_1e6_uses']:,.0f} per 10^6 uses; "
                   f"{m['db_growth_first_sync']:,.0f} at the first sync, which adds the "
                   f"keys); a sync of them {_range(m[on + '_ns'], f, h)} {unit}.\n")
    return doc


def sync_results(raw, kernels, h):
    results, doc = {}, []
    for k in kernels:
        for mode, desc, unit, on in MODES:
            name = f"sync {k} {mode}"
            p = h.parse(os.path.join(raw, f"sync-{k}-{mode}", "sync.txt"))
            if p is None or not p["samples"]:
                h.fail(f"{name}: no figures (the guest run produced none)")
                continue
            r = _one(name, p, h, on)
            if r:
                results.setdefault(k, {})[mode] = r
                doc += _table(k, desc, unit, r, h)
    return results, doc
