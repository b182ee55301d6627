#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check -j over a usage DB against check -j over Prometheus, from the
same fleet (tests/cli/prometheus.sh, prom-backfill.sh,
scripts/bench-prometheus.sh):

    compare.py DB.json PROM.json [WHAT=VERDICT[:HOST[:clock]]]... [uncovered=[HOST,...]]

The same entries with the same verdict and reason each (the reason names
the hosts that did not cover the window, and why: their tracer, their
losses, their boots, their clock); for each entry the same users (exe,
uid, host) among its blockers; the same hosts with uses, with sessions,
and that did not cover the window; the same summary. Names are compared
as a label carries them (label() below). Each WHAT=VERDICT (WHAT: an
entry's first What) is asserted of both, :HOST that the entry names HOST
(a blocker's host for blocked, the reason for no-data), :clock that the
reason names HOST among the hosts whose wall clock was wrong; and
uncovered= the hosts that did not cover the window, all of them (none:
empty). Prints each difference; exit 1 if any.
"""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def entries(d):
    return {e["what"][0]: e for e in d["entries"]}


def label(s):
    """A name as a Prometheus label carries it: check -j writes a byte that
    is not UTF-8 as \\udcXX (surrogateescape); report --format prometheus
    wrote U+FFFD for it (label values are UTF-8)."""
    if s is None:
        return None
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def users(e):
    return sorted({(label(b.get("exe")), b.get("uid"), label(b.get("host")))
                   for b in e.get("blockers", []) if b.get("kind") == "use"},
                  key=repr)


def uncovered(d):
    return sorted(h["host"] for h in d["db"]["uncovered_hosts"])


def names(e, host):
    if e["verdict"] == "blocked":
        return any(b.get("host") == host for b in e.get("blockers", []))
    return host in e.get("reason", "")


# check_eval.c's reason for the hosts whose clock was wrong, each named "HOST (boot...".
CLOCK_WRONG = "the wall clock was wrong in the quiet window"


def names_clock(e, host):
    reason = e.get("reason") or ""
    at = reason.find(CLOCK_WRONG)
    return at >= 0 and f"{host} (boot" in reason[at:]


def main():
    db, prom = load(sys.argv[1]), load(sys.argv[2])
    bad = []
    edb, epr = entries(db), entries(prom)
    if sorted(edb) != sorted(epr):
        bad.append(f"entries: DB {sorted(edb)}, Prometheus {sorted(epr)}")
    for w in sorted(set(edb) & set(epr)):
        a, b = edb[w], epr[w]
        if a["verdict"] != b["verdict"]:
            bad.append(f"{w}: DB {a['verdict']} ({a['reason']}), "
                       f"Prometheus {b['verdict']} ({b['reason']})")
        if a["reason"] != b["reason"]:
            bad.append(f"{w}: reason: DB {a['reason']!r}, Prometheus {b['reason']!r}")
        if users(a) != users(b):
            bad.append(f"{w}: users: DB {users(a)[:5]}, Prometheus {users(b)[:5]}"
                       f" ({len(users(a))} and {len(users(b))})")
    for what, key in (("hosts with uses", lambda d: sorted(d["db"]["hosts"])),
                      ("hosts with sessions",
                       lambda d: sorted(h["host"] for h in d["db"]["host_boots"]))):
        if key(db) != key(prom):
            a, b = set(key(db)), set(key(prom))
            bad.append(f"{what}: only in the DB {sorted(a - b)[:8]}, "
                       f"only in Prometheus {sorted(b - a)[:8]}")
    if uncovered(db) != uncovered(prom):
        bad.append(f"uncovered hosts: DB {uncovered(db)[:8]}, Prometheus {uncovered(prom)[:8]}")
    if db["summary"] != prom["summary"]:
        bad.append(f"summary: DB {db['summary']}, Prometheus {prom['summary']}")
    for want in sys.argv[3:]:
        w, _, rest = want.partition("=")
        if w == "uncovered":
            hosts = sorted(h for h in rest.split(",") if h)
            for side, d in (("DB", db), ("Prometheus", prom)):
                if uncovered(d) != hosts:
                    bad.append(f"{side}: uncovered hosts {uncovered(d)}, not {hosts}")
            continue
        verdict, _, host = rest.partition(":")
        host, _, clock = host.partition(":")
        for side, e in (("DB", edb.get(w)), ("Prometheus", epr.get(w))):
            if e is None:
                bad.append(f"{side}: no entry {w}")
            elif e["verdict"] != verdict:
                bad.append(f"{side}: {w}: {e['verdict']} ({e['reason']}), not {verdict}")
            elif host and not names(e, host):
                bad.append(f"{side}: {w}: {verdict} without naming {host}: {e['reason']}")
            elif clock and not names_clock(e, host):
                bad.append(f"{side}: {w}: {host} not named for its clock: {e['reason']}")
    for m in bad:
        print(m)
    return 1 if bad else 0


sys.exit(main())
