#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Documentation that runs: the walkthroughs' console blocks, as a test.

A page with any ``.. walk:`` comment is a walkthrough. Each console block
of it is preceded by one marker (an rst comment, so the rendered page does
not show it):

    .. walk: run [PLACE]          run the block's commands
    .. walk: skip REASON...       not meant to run, and why
    .. walk: file PATH [PLACE]    the next code block (any language) is
                                  written to PATH, relative to the run's
                                  working directory

Commands are the lines that start with "$ " or "# " (a trailing backslash
continues one); the lines after a command, up to the next, are its output
as the page shows it: each must occur in what the command prints, in that
order, with "..." in a line standing for any text and a line of only "..."
for lines left out. A command must exit 0.

    walkthrough.py lint PAGE...                 markers present and well formed
    walkthrough.py script PAGE [--place P]      a POSIX sh script running the
                                                blocks of PLACE P (default host),
                                                one tests/lib.sh check a command
    walkthrough.py match EXPECTED ACTUAL        the comparison (exit 0: matches)

Exit status: 0, 1 a comparison or lint failed, 2 bad usage or unreadable page.
"""
import re
import sys

MARK = re.compile(r"^\.\. walk:\s*(\S+)\s*(.*?)\s*$")
BLOCK = re.compile(r"^\.\. code-block::\s*(\S+)\s*$")
PROMPT = re.compile(r"^([$#]) (.*)$")


class PageError(Exception):
    pass


def indented_body(lines, i):
    """The body of the directive ending at line i: its options skipped,
    then the indented lines, dedented. Returns (first line number, lines,
    index after)."""
    i += 1
    # Options (":linenos:") and the blank line before the body.
    while i < len(lines) and (lines[i].strip() == "" or
                              re.match(r"^\s+:\w[\w-]*:", lines[i])):
        i += 1
    start = i
    body = []
    while i < len(lines) and (lines[i].strip() == "" or lines[i][:1] in " \t"):
        body.append(lines[i])
        i += 1
    while body and body[-1].strip() == "":
        body.pop()
    indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
    return start + 1, [l[indent:].rstrip() for l in body], i


def parse(path):
    """The page's steps, in order: ("run", place, line, commands) with
    commands [(line, text, expected lines)], ("file", place, line, path,
    text), ("skip", ...). Raises PageError for a console block without a
    marker, a marker without its block, or a malformed marker."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise PageError("%s: cannot read: %s" % (path, e.strerror))
    walkthrough = any(MARK.match(l) for l in lines)
    steps, pending, i = [], None, 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if m:
            if pending:
                raise PageError("%s:%d: marker without its code block" % (path, pending[2]))
            pending = (m.group(1), m.group(2), i + 1)
            i += 1
            continue
        b = BLOCK.match(lines[i])
        if b:
            lang = b.group(1)
            first, body, i = indented_body(lines, i)
            if pending is None:
                if walkthrough and lang == "console":
                    raise PageError("%s:%d: console block without a '.. walk:' marker"
                                    " (run, skip REASON or file PATH)" % (path, first - 1))
                continue
            steps.append(step(path, pending, lang, first, body))
            pending = None
            continue
        if pending and lines[i].strip() and not lines[i].startswith(".. "):
            raise PageError("%s:%d: marker without its code block" % (path, pending[2]))
        i += 1
    if pending:
        raise PageError("%s:%d: marker without its code block" % (path, pending[2]))
    return steps


def step(path, marker, lang, first, body):
    kind, arg, line = marker
    words = arg.split()
    if kind == "skip":
        if not words:
            raise PageError("%s:%d: 'walk: skip' needs its reason" % (path, line))
        return ("skip", None, line)
    if kind == "file":
        if len(words) not in (1, 2) or words[0].startswith("/") or ".." in words[0].split("/"):
            raise PageError("%s:%d: 'walk: file PATH [PLACE]', PATH relative" % (path, line))
        place = words[1] if len(words) == 2 else "host"
        return ("file", place, line, words[0], "\n".join(body) + "\n")
    if kind == "run":
        if len(words) > 1 or lang != "console":
            raise PageError("%s:%d: 'walk: run [PLACE]' goes before a console block" % (path, line))
        return ("run", words[0] if words else "host", line, commands(path, first, body))
    raise PageError("%s:%d: unknown marker 'walk: %s'" % (path, line, kind))


def commands(path, first, body):
    cmds, cur = [], None
    for n, text in enumerate(body, first):
        m = PROMPT.match(text)
        if cur and cur[1].endswith("\\"):
            cur[1] = cur[1] + "\n" + text
        elif m:
            cur = [n, m.group(2), []]
            cmds.append(cur)
        elif cur is None:
            if text.strip():
                raise PageError("%s:%d: output before any command" % (path, n))
        elif text.strip():
            cur[2].append(text)
    if not cmds:
        raise PageError("%s:%d: a run block without a command" % (path, first))
    return cmds


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def script(path, place):
    """The sh text: each file written, each command run in this shell
    (eval: cd and variables carry over) and checked by walk_expect."""
    me = quote(__file__)
    out = ["# %s, place %s: generated by scripts/walkthrough.py" % (path, place),
           "_walk_tmp=$(mktemp -d)",
           "walk_expect() {",
           "\t[ \"$1\" -eq 0 ] || { echo \"exited $1\"; cat \"$2\"; return 1; }",
           "\tprintf '%s' \"$3\" >\"$_walk_tmp/want\"",
           "\tpython3 " + me + " match \"$_walk_tmp/want\" \"$2\"",
           "}"]
    n = 0
    for s in parse(path):
        if s[1] != place:
            continue
        if s[0] == "file":
            d = s[3].rsplit("/", 1)[0] if "/" in s[3] else "."
            out.append("mkdir -p %s && printf '%%s' %s >%s" % (quote(d), quote(s[4]), quote(s[3])))
            out.append("check %s test -s %s" % (quote("%s:%d: file %s" % (path, s[2], s[3])),
                                                 quote(s[3])))
            continue
        for line, cmd, want in s[3]:
            n += 1
            desc = "%s:%d: %s" % (path, line, cmd.split("\n")[0][:100])
            out.append("{ eval %s; } >\"$_walk_tmp/out\" 2>&1 </dev/null; _walk_rc=$?" % quote(cmd))
            out.append("check %s walk_expect \"$_walk_rc\" \"$_walk_tmp/out\" %s" %
                       (quote(desc), quote("\n".join(want) + ("\n" if want else ""))))
            # WALK_SHOW=1: every output, for writing a page's expected lines.
            out.append("[ -z \"${WALK_SHOW:-}\" ] || sed 's/^/#   | /' \"$_walk_tmp/out\"")
    if n == 0:
        raise PageError("%s: no command for place '%s'" % (path, place))
    out.append("rm -rf \"$_walk_tmp\"")
    return "\n".join(out) + "\n"


def line_re(want):
    return re.compile("^" + ".*".join(re.escape(p) for p in want.split("...")) + "$")


def match(want_lines, got_lines):
    """None when each wanted line occurs in got, in order; else the first
    line not found (after the previous one's match)."""
    got = [g.rstrip() for g in got_lines]
    at = 0
    for w in (w.rstrip() for w in want_lines):
        if w.strip() in ("", "..."):
            continue
        r = line_re(w)
        while at < len(got) and not r.match(got[at]):
            at += 1
        if at == len(got):
            return w
        at += 1
    return None


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    try:
        if argv[1] == "lint" and len(argv) > 2:
            for p in argv[2:]:
                steps = parse(p)
                if not any(s[0] == "run" for s in steps):
                    raise PageError("%s: no 'walk: run' block" % p)
            return 0
        if argv[1] == "script" and len(argv) in (3, 5):
            place = "host"
            if len(argv) == 5:
                if argv[3] != "--place":
                    raise IndexError
                place = argv[4]
            sys.stdout.write(script(argv[2], place))
            return 0
        if argv[1] == "match" and len(argv) == 4:
            with open(argv[2], encoding="utf-8") as f:
                want = f.read().split("\n")
            with open(argv[3], encoding="utf-8", errors="replace") as f:
                got = f.read().split("\n")
            miss = match(want, got)
            if miss is None:
                return 0
            print("not in the output (in this order): %s" % miss)
            print("the output was:")
            sys.stdout.write("".join("  " + g + "\n" for g in got[:40]))
            return 1
    except PageError as e:
        print("walkthrough.py: %s" % e, file=sys.stderr)
        return 1 if argv[1] == "lint" else 2
    except (IndexError, OSError) as e:
        if isinstance(e, OSError):
            print("walkthrough.py: %s" % e, file=sys.stderr)
            return 2
    print("usage: walkthrough.py lint PAGE... | script PAGE [--place P] | match WANT GOT",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
