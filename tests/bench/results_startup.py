# SPDX-License-Identifier: GPL-2.0
"""make bench's tracer start-up part (tests/bench/startup.sh), judged for
tests/bench/results.py: abidep trace --pin --early against the floor's
load-and-attach (tests/bench/floor.c), exec to exit, per kernel, in guest
instructions (--icount: the CPU time it used, a thousand instructions a
microsecond) and in wall time (exec to exit). One entry, startup(): it fills results["startup"],
adds the targets, and returns the part's tables (RST)."""
import os

# Per mode: its heading, the unit, the series judged (its CPU time under
# --icount: the instructions the command ran; exec to exit includes what
# it waits for, a grace period, say, and the guest's clock runs at the
# host's pace while it is idle), and the scale from microseconds.
MODES = (("icount", "guest instructions, 1 vCPU", "instructions (its CPU)", "_cpu", 1000),
         ("wall", "wall time (us), 1 vCPU", "us (exec to exit)", "", 1))
SIDES = (("floor", "floor: six empty programs loaded, attached, pinned"),
         ("abidep", "abidep trace --pin --early"))
LIMIT = 2.0
MIN_ROUNDS = 5


def startup(raw, kernels, results, h):
    """h: results.py's helpers (parse, check_part, series_of, stats, paired,
    fmt_range, fmt_x, target, fail, table, heading), by name."""
    res = results["startup"] = {}
    for k in kernels:
        for mode, _, _, suffix, scale in MODES:
            name = f"startup {k} {mode}"
            p = h["parse"](os.path.join(raw, f"startup-{k}-{mode}", "startup.txt"))
            if p is None or not p["samples"]:
                h["fail"](f"{name}: no figures (the guest run produced none)")
                continue
            nchecks, bad = h["check_part"](name, p)
            rounds = int(p["info"].get("rounds", "0"))
            if rounds < MIN_ROUNDS:
                h["fail"](f"{name}: {rounds} rounds, fewer than {MIN_ROUNDS}")
            r = {"rounds": rounds, "kernel": p["info"].get("kernel"), "checks": nchecks,
                 "wrong_counts": bad, "sides": {}}
            data = {}
            for s, _ in SIDES:
                vals = h["series_of"](name, p, s + suffix, "pin", rounds)
                data[s] = {x: v * scale for x, v in vals.items()}
                if data[s]:
                    r["sides"][s] = {"start": h["stats"](data[s].values())}
            ratio = h["paired"](data["abidep"], data["floor"], lambda a, b: a / b)
            if ratio:
                r["over_floor"] = h["stats"](ratio)
            res.setdefault(k, {})[mode] = r
    for k in kernels:
        r = res.get(k, {}).get("icount", {}).get("over_floor")
        if r:
            h["target"](f"tracer start-up, {k}: abidep trace --pin over the floor's "
                        "load-and-attach", h["fmt_x"](r["median"]), f"at most {LIMIT:.0f}x",
                        r["median"] <= LIMIT, "guest instructions")
    return doc(kernels, res, h)


def doc(kernels, res, h):
    out = []
    for k in kernels:
        for mode, desc, unit, _, _ in MODES:
            r = res.get(k, {}).get(mode)
            if not r:
                continue
            out.append(h["heading"](f"Tracer start-up, {r['kernel'] or k}: {desc}"))
            out.append(f"{r['rounds']} rounds; each side's start, in {unit}; "
                       f"{r['checks']} link counts checked, {r['wrong_counts']} wrong.\n")
            rows = []
            for s, label in SIDES:
                st = r["sides"].get(s)
                if not st:
                    continue
                x = r.get("over_floor") if s == "abidep" else None
                rows.append([label, h["fmt_range"](st["start"]),
                             h["fmt_range"](x, h["fmt_x"]) if x else ""])
            out.append(h["table"](["side", unit, "vs floor"], rows))
    return "\n".join(out)
