#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A fleet's abidep metrics over days, as Prometheus would have scraped
them (tests/cli/prom-backfill.sh, scripts/bench-prometheus.sh):

    gen-openmetrics.py --hosts H --days D --step S --end END --out FILE \
        --fill-dir DIR [--what RC --what GOV --what FOO --what BAR]

FILE: OpenMetrics text (families of /work/wt/prom-schema.md's series, one
sample a line with its timestamp in seconds, "# EOF" last) for
`promtool tsdb create-blocks-from openmetrics`: what each host's
`abidep report --format prometheus` would have said at each step from
END - D days to END, as one scrape target each (instance, job labels).
DIR/HOST.fill: the same hosts' usage DB at END, in tests/cli/fill.c's
input (rows, S| sessions, W| watched runs), so that the DB merged from
them says what the metrics say at END. Prints the expected verdict
drivers on stdout ("blocked WHAT", "ready WHAT", "no-data WHAT HOST").

The model, one host i of H (h0000 ...), all times from the same clock:
  - a tracer session from the start to END (its last sync a minute before
    each step); every 10th host (i % 10 == 3) reboots 20 to 50 days
    before END: two sessions, the second a boot of its own; every 20th
    (i % 20 == 5) is not scraped in the last 2 hours (its samples stop;
    its tracer's last sync is still within the day check allows);
  - a watched run per What per session, through the session; but host
    h0000's run of the third What (FOO) ends 20 days before END while its
    session goes on: FOO is no-data, naming h0000;
  - every 7th host: legacy-irctl (uid 1000) reads RC on some days up to 2
    days before END (blocked); h0001 also with a hostile name;
  - every 5th host: cat (uid 0) reads GOV on some days up to 35 days before
    END (before a 30-day window: ready);
  - BAR: never used (ready); the pinned gauge, 1.
"""
import argparse
import bisect
import os

DAY = 86400
HORIZON = 45 * DAY


def esc(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def pct(s):
    """fill.c's field: - is NULL, %XX any byte."""
    return "".join(c if c.isalnum() or c in "/._-:" else "%%%02X" % ord(c) for c in s)


class Host:
    def __init__(self, i, a):
        self.name = f"h{i:04d}"
        self.instance = f"10.0.{i // 250}.{i % 250 + 1}:9100"
        start = a.end - a.days * DAY + (i % 3600)
        # Silent for the last two hours (its node_exporter down): check
        # reads its last samples, from before the instant it asks about.
        self.stop = a.end - 2 * 3600 if i % 20 == 5 else a.end
        # [id, boot, started, last sync]: a live session's, a minute
        # before the last step, as at every step.
        self.sessions = []
        if i % 10 == 3:
            r = a.end - (20 + i % 31) * DAY
            self.sessions.append([f"b{i}a:1", f"b{i}a", start, r])
            self.sessions.append([f"b{i}b:1", f"b{i}b", r + 120, self.stop - 60])
        else:
            self.sessions.append([f"b{i}a:1", f"b{i}a", start, self.stop - 60])
        # runs: [session, what, since, end]
        self.runs = []
        for s in self.sessions:
            for w in a.what:
                end = s[3]
                if i == 0 and w == a.what[2]:
                    end = min(end, a.end - 20 * DAY)
                self.runs.append([s[0], w, s[2], end])
        # uses: (what, path, exe, uid, session, [times])
        self.uses = []
        last = self.sessions[-1]
        if i % 7 == 0:
            t = self.use_times(i, last[2], a.end - 2 * DAY, 9)
            self.uses.append((a.what[0], a.what[0].replace("rcN", "rc0"),
                              "/usr/local/bin/legacy-irctl", 1000, last[0], t))
        if i == 1:
            t = self.use_times(i, last[2], a.end - 3 * DAY, 11)
            self.uses.append((a.what[0], a.what[0].replace("rcN", "rc1"),
                              '/opt/we"ird\\exe\nname', 0, last[0], t))
        if i % 5 == 0:
            first = self.sessions[0]
            t = self.use_times(i, first[2], min(first[3], a.end - 35 * DAY), 6)
            self.uses.append((a.what[1], a.what[1], "/usr/bin/cat", 0, first[0], t))

    @staticmethod
    def use_times(i, since, until, every):
        """A use on each day d (since the start) with (d + i) % every == 0."""
        out = []
        d0 = since // DAY + 1
        for d in range(d0, until // DAY + 1):
            if (d + i) % every == 0:
                t = d * DAY + 3600 * ((i + d) % 20) + 17
                if since < t <= until:
                    out.append(t)
        if not out or out[-1] != until:
            out.append(until)
        return out

    @staticmethod
    def sync(s, t):
        """The session's last sync as of t (None: not begun): a minute
        before t, from its first sync (started + 5 s) to its end."""
        if t < s[2] + 5:
            return None
        return max(s[2] + 5, min(t - 60, s[3]))

    def exported(self, s, t):
        """Is session s in the export as of t: synced in the horizon, or the latest."""
        ls = self.sync(s, t)
        if ls is None:
            return False
        latest = max((x for x in self.sessions if self.sync(x, t) is not None),
                     key=lambda x: x[2])
        return ls >= t - HORIZON or latest is s


def write_metrics(a, hosts, out):
    all_steps = list(range(a.end - a.days * DAY, a.end + 1, a.step))

    def steps(h):
        return all_steps if h.stop >= a.end else [t for t in all_steps if t <= h.stop]
    lab = lambda h, extra: ",".join([f'{k}="{esc(str(v))}"' for k, v in extra] +
                                    [f'instance="{h.instance}"', 'job="abidep"'])

    count = {"series": 0, "samples": 0}

    def family(name, typ, series):
        out.write(f"# TYPE {name} {typ}\n")
        sample = name + ("_total" if typ == "counter" else "")
        for labels, values in series:
            pre = sample + "{" + labels + "} "
            out.write("".join(f"{pre}{v} {t}\n" for t, v in values))
            count["series"] += 1
            count["samples"] += len(values)

    def sessions_series(key):
        for h in hosts:
            for s in h.sessions:
                vals = [(t, key(h, s, t)) for t in steps(h) if h.exported(s, t)]
                if vals:
                    yield h, s, vals

    def use_series(key):
        for h in hosts:
            for u in h.uses:
                what, path, exe, uid, sess, times = u
                vals = []
                for t in steps(h):
                    n = bisect.bisect_right(times, t)
                    if n:
                        vals.append((t, key(u, times, n)))
                labels = lab(h, [("entry", what), ("file", path), ("exe", exe),
                                 ("package", ""), ("uid", uid), ("host", h.name),
                                 ("op", "read")])
                yield labels, vals

    family("abidep_deprecated_access", "counter", use_series(lambda u, ts, n: 3 * n))
    family("abidep_deprecated_access_errors", "counter", use_series(lambda u, ts, n: 0))
    family("abidep_deprecated_access_swept", "counter", use_series(lambda u, ts, n: 0))
    family("abidep_deprecated_access_last_seen_timestamp_seconds", "gauge",
           use_series(lambda u, ts, n: ts[n - 1]))
    family("abidep_deprecated_access_first_seen_timestamp_seconds", "gauge",
           use_series(lambda u, ts, n: ts[0] - 60))
    family("abidep_tracer_pinned", "gauge",
           ((lab(h, [("host", h.name)]), [(t, 1) for t in steps(h)]) for h in hosts))
    family("abidep_tracer_session_start_timestamp_seconds", "gauge",
           ((lab(h, [("host", h.name), ("session", s[0]), ("boot_id", s[1]),
                     ("stage", "early"), ("host_id", "machine-id")]), v)
            for h, s, v in sessions_series(lambda h, s, t: s[2])))
    family("abidep_tracer_session_first_sync_timestamp_seconds", "gauge",
           ((lab(h, [("host", h.name), ("session", s[0])]), v)
            for h, s, v in sessions_series(lambda h, s, t: s[2] + 5)))
    family("abidep_tracer_session_last_sync_timestamp_seconds", "gauge",
           ((lab(h, [("host", h.name), ("session", s[0])]), v)
            for h, s, v in sessions_series(lambda h, s, t: h.sync(s, t))))

    def watched():
        for h in hosts:
            for sid, what, since, end in h.runs:
                s = [x for x in h.sessions if x[0] == sid][0]
                vals = [(t, min(h.sync(s, t), end)) for t in steps(h)
                        if h.exported(s, t) and h.sync(s, t) >= since + 5]
                yield lab(h, [("host", h.name), ("session", sid), ("entry", what),
                              ("since", s[2] + 5), ("found", "1")]), vals
    family("abidep_tracer_watched_last_sync_timestamp_seconds", "gauge", watched())
    out.write("# EOF\n")
    return count


def write_fill(a, h, path):
    with open(path, "w") as f:
        for sid, boot, started, end in h.sessions:
            f.write(f"S|{h.name}|{sid}|{started}|{end}|0|0|-|machine-id|early|-|{started + 5}\n")
        for sid, what, since, end in h.runs:
            s = [x for x in h.sessions if x[0] == sid][0]
            f.write(f"W|{h.name}|{sid}|{pct(what)}|{s[2] + 5}|{end}|1\n")
        for what, path_, exe, uid, sess, times in h.uses:
            f.write("|".join([h.name, sess, pct(path_), pct(what), "test", "deprecated", "read",
                              str(uid), "5", "-", pct(exe), "x", "9", "1",
                              str(3 * len(times)), "0", str(times[0] - 60), str(times[-1])])
                    + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--hosts", type=int, required=True)
    p.add_argument("--days", type=int, required=True)
    p.add_argument("--step", type=int, required=True)
    p.add_argument("--end", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--fill-dir", required=True)
    p.add_argument("--what", action="append", required=True)
    a = p.parse_args()
    assert len(a.what) == 4, "four Whats: RC GOV FOO BAR"
    a.end -= a.end % a.step
    hosts = [Host(i, a) for i in range(a.hosts)]
    os.makedirs(a.fill_dir, exist_ok=True)
    with open(a.out, "w", buffering=1 << 20) as out:
        count = write_metrics(a, hosts, out)
    for h in hosts:
        write_fill(a, h, os.path.join(a.fill_dir, h.name + ".fill"))
    print(f"end {a.end}")
    print(f"series {count['series']}\nsamples {count['samples']}")
    print(f"blocked {a.what[0]}\nready {a.what[1]}\nno-data {a.what[2]} h0000\nready {a.what[3]}")


main()
