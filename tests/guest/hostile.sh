#!/bin/sh
# Hostile input to abidep.ko, in the guest: malformed bytes (NUL, non-ASCII,
# control characters, only whitespace, empty, a page and more, numbers too
# long, negative, in other bases) and random bytes from a fixed seed,
# written to every writable file under /sys/kernel/abidep/, to the module's
# parameters and to every alias (rc-loopback's three, the example driver's
# one), as root and as nobody. An input that is refused changes nothing (the
# state file, the parameter, the attribute behind the alias, compared before
# and after); what is accepted is what the file's documentation says it
# takes; nobody is refused at open(2) with EACCES exactly where the file's
# mode says so. tests/vm/run fails the run on any kernel report.
#	tests/vm/run --timeout 600 tests/guest/hostile.sh
# HOSTILE_SEED (default 16) seeds the random inputs, HOSTILE_RANDOM (40) is
# how many there are per file. Ends with "hostile: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

KMOD=$ABIDEP_REPO/build/kmod/$KVER
STATE=/sys/kernel/debug/abidep/state
CTL=/sys/kernel/abidep
PARAMS=/sys/module/abidep/parameters
EX=/sys/devices/platform/abidep-ir-example
SEED=${HOSTILE_SEED:-16}
NRAND=${HOSTILE_RANDOM:-40}
W=/tmp/hostile
mkdir -p $W

# The writer: every input, one write(2) each, into one file; prints a line
# per input, "NAME RESULT ...", where RESULT is ok-N (N bytes taken), an
# errno name, or open-ERRNO when open(2) itself failed.
cat >$W/hostile.py <<'EOF'
import errno, os, random, sys

def inputs(kind, seed, nrand):
    yield "empty", b""
    yield "nul", b"\0"
    yield "nuls", b"\0" * 64
    yield "newline", b"\n"
    yield "spaces", b"   "
    yield "whitespace", b" \t\n\r\v\f"
    yield "utf8", "\u00e9 \u00fc \u65e5\u672c".encode()
    yield "high-bytes", bytes(range(0x80, 0x100))
    yield "control", bytes(range(1, 32))
    yield "negative", b"-1"
    yield "negative-long", b"-99999999999999999999"
    yield "long-number", b"9" * 100
    yield "u32-max+1", b"4294967296"
    yield "u64-max+1", b"18446744073709551616"
    yield "float", b"1.5"
    yield "exponent", b"1e3"
    yield "leading-space", b" 5"
    yield "trailing-space", b"5 "
    yield "two-newlines", b"5\n\n"
    yield "crlf", b"5\r\n"
    yield "nul-then-junk", b"5\0junk"
    yield "page-1", b"x" * 4095
    yield "page", b"x" * 4096
    yield "page+1", b"x" * 4097
    yield "64k", b"x" * 65536
    yield "word-nul-junk", b"nec\0junk"
    yield "old-spelling-nul-junk", b"rc5\0junk"
    yield "word-crlf", b"nec\r\n"
    if kind == "brownout":
        yield "no-such-entry", b"no_such_name 5"
        yield "ambiguous", b"current_protocol 5"
        yield "empty-qualifier", b"/supported_protocols 5"
        yield "empty-qualifier-off", b"/supported_protocols off"
        yield "empty-old-name", b"rc/ 5"
        yield "two-slashes", b"rc/rc/supported_protocols 5"
        yield "zero-seconds", b"rc/supported_protocols 0"
        yield "too-long-window", b"rc/supported_protocols 86401"
        yield "wrapping-seconds", b"rc/supported_protocols 4294967301"
        yield "negative-seconds", b"rc/supported_protocols -5"
        yield "unknown-mode", b"rc/supported_protocols 5 sideways"
        yield "double-space", b"rc/supported_protocols  5"
        yield "nul-before-mode", b"rc/supported_protocols 5\0hide"
        yield "off-and-more", b"rc/supported_protocols off 5"
        yield "long-name", b"a" * 300 + b" 5"
        yield "overlong-line", b"a" * 600 + b" 5"
    if kind == "rc":
        yield "protocol", b"nec"
        yield "protocol-changes", b"+rc-5 -lirc"
        yield "no-protocol", b"none"
        yield "protocol-case", b"NEC\n"
    if kind == "number":
        yield "u32-max", b"4294967295"
        yield "hex", b"0x10"
        yield "octal", b"010"
        yield "plus", b"+7"
        yield "decimal-newline", b"42\n"
        yield "nul-after-number", b"9\0"
    rnd = random.Random(seed)
    for i in range(nrand):
        n = rnd.choice([1, 2, 3, 8, 64, 255, 1000, 4095, 4096, 4097, 8192])
        yield "random-%02d-%d" % (i, n), rnd.randbytes(n)

def attempt(path, data):
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return "open-" + errno.errorcode[e.errno]
    try:
        return "ok-%d" % os.write(fd, data)
    except OSError as e:
        return errno.errorcode[e.errno]
    finally:
        os.close(fd)

def value(path):
    with open(path, "rb") as f:
        return f.read().strip().decode("latin-1").replace(" ", "_") or "(empty)"

# A write reaches the attribute's store() unless it is empty (sysfs returns
# 0 itself); kernfs hands store() at most a page of it.
def reached(r):
    return r != "ok-0"

mode, kind, seed, nrand = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
args = sys.argv[5:]
reach = fail = 0
if mode == "ctl":
    # ctl KIND SEED N FILE [RESTORE]: each input into FILE: "NAME LENGTH
    # RESULT"; with RESTORE, FILE's value after the write too, and RESTORE
    # written back.
    path = args[0]
    for name, data in inputs(kind, seed, nrand):
        r = attempt(path, data)
        if len(args) > 1:
            print(name, len(data), r, value(path))
            attempt(path, args[1].encode())
        else:
            print(name, len(data), r)
elif mode == "alias":
    # alias KIND SEED N NEW OLD RESET: each input into NEW and, from the
    # same state (RESET written to NEW), into OLD: "NAME LENGTH NEW-RESULT
    # OLD-RESULT same|differ kept|changed", whether the states after the
    # two are the same, and whether OLD's write left the state as it was.
    new, old, reset = args
    for name, data in inputs(kind, seed, nrand):
        attempt(new, reset.encode())
        base = value(new)
        r_new = attempt(new, data)
        s_new = value(new)
        attempt(new, reset.encode())
        r_old = attempt(old, data)
        s_old = value(new)
        if reached(r_old):
            reach += 1
            fail += not r_old.startswith("ok-")
        print(name, len(data), r_new, r_old,
              "same" if s_new == s_old else "differ:" + s_new + "/" + s_old,
              "kept" if s_old == base else "changed:" + s_old)
    print("#reached", reach, fail)
elif mode == "xlate":
    # xlate KIND SEED N OLD NEW RESET: each input into OLD, from RESET
    # written to NEW: "NAME LENGTH RESULT kept|changed".
    old, new, reset = args
    for name, data in inputs(kind, seed, nrand):
        attempt(new, reset.encode())
        base = value(new)
        r = attempt(old, data)
        s = value(new)
        if reached(r):
            reach += 1
            fail += not r.startswith("ok-")
        print(name, len(data), r, "kept" if s == base else "changed:" + s)
    print("#reached", reach, fail)
elif mode == "write":
    # write KIND SEED N FILE...: each input into each file, as whoever runs
    # it: "FILE RESULTS", the distinct results.
    for path in args:
        print(path, ",".join(sorted({attempt(path, d) for _, d in inputs(kind, seed, nrand)})))
elif mode == "read":
    # read - 0 0 FILE...: "FILE RESULT" of reading each.
    for path in args:
        try:
            with open(path, "rb") as f:
                f.read()
            print(path, "ok")
        except OSError as e:
            print(path, errno.errorcode[e.errno])
EOF

hostile() { python3 $W/hostile.py "$@"; }

# Field $3 (default 3, the result) of input $2's line in output file $1.
res() { awk -v n="$2" -v f="${3:-3}" '$1 == n { print $f }' "$1"; }

# The lines of output file $1 that awk condition $2 selects; fails if any.
none() {
	awk "$2" "$1" >$W/bad
	[ ! -s $W/bad ] && return 0
	head -n 5 $W/bad
	return 1
}

# The distinct results of the random inputs in output file $1 (field $2).
random_results() { awk -v f="${2:-3}" '/^random-/ { print $f }' "$1" | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }'; }

# All a write to the controls could change: the state file, the module's
# parameters and the attributes behind the aliases (alias reads would be
# counted: not these).
snapshot() {
	cat $STATE
	grep -r . $PARAMS
	cat $RC/protocols $EX/protocol
}
unchanged() { snapshot | diff $W/before - | head -n 5; snapshot | cmp -s $W/before -; }
changed() { ! snapshot | cmp -s $W/before -; }

# Entry (old=$1 new=$2)'s field $3 in the state file.
state_field() {
	grep "^old=$1 new=$2 " $STATE | tr ' ' '\n' | sed -n "s/^$3=//p"
}

abidep_lines() { dmesg | grep -c 'abidep: '; }

section "setup"
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "rc-loopback loads" modprobe rc-loopback
check "the example driver loads" insmod "$KMOD/examples/abidep_ir_example.ko"
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
# Every file the module or its parameters let anyone write.
find $CTL $PARAMS -type f -perm /222 | sort >$W/files
check "the writable files are the two controls and log_interval: none is missed below" \
	same "$(tr '\n' ' ' <$W/files)" "$CTL/brownout $CTL/rescan $PARAMS/log_interval "
ALIASES="$RC/current_protocol $RC/protocol $RC/supported_protocols $EX/current_protocol"
check "the four aliases are there" sh -c "for a in $ALIASES; do test -f \$a || exit 1; done"
snapshot >$W/before
lines0=$(abidep_lines)

section "as root: brownout (random inputs: seed $SEED)"
hostile ctl brownout "$SEED" "$NRAND" $CTL/brownout >$W/brownout
check "$(wc -l <$W/brownout) inputs written" test "$(wc -l <$W/brownout)" -gt "$NRAND"
check "an empty write takes nothing (sysfs returns 0 itself)" test "$(res $W/brownout empty)" = ok-0
check "nothing else is taken" none $W/brownout '$1 != "empty" && $3 ~ /^ok-/'
# Past a page, kernfs hands store() the first page: too long a line too.
for n in nul nuls newline spaces whitespace utf8 high-bytes control negative \
	 nul-then-junk word-nul-junk page-1 page page+1 64k zero-seconds \
	 too-long-window wrapping-seconds negative-seconds unknown-mode \
	 double-space nul-before-mode off-and-more overlong-line; do
	check "'$n': EINVAL" test "$(res $W/brownout $n)" = EINVAL
done
for n in no-such-entry empty-qualifier empty-qualifier-off empty-old-name two-slashes long-name; do
	check "'$n': ENOENT (names no entry)" test "$(res $W/brownout $n)" = ENOENT
done
check "'ambiguous': ENOTUNIQ (rc's and the example's current_protocol)" \
	test "$(res $W/brownout ambiguous)" = ENOTUNIQ
check "every random input: EINVAL ($(random_results $W/brownout))" \
	none $W/brownout '/^random-/ && $3 != "EINVAL"'
check "no window started: the state file and attributes as before" unchanged
check "... and nothing logged" test "$(abidep_lines)" = "$lines0"

section "as root: rescan takes anything (documented: what is written is ignored)"
hostile ctl rescan "$SEED" "$NRAND" $CTL/rescan >$W/rescan
check "every write returns its length, or a page past a page (kernfs cuts it) ($(random_results $W/rescan))" \
	none $W/rescan '$3 != "ok-" ($2 > 4096 ? 4096 : $2)'
check "nothing changed" unchanged
check "... and nothing logged" test "$(abidep_lines)" = "$lines0"

section "as root: log_interval takes an unsigned int as the kernel parses one (kstrtouint)"
LI=$PARAMS/log_interval
check "log_interval is 3600" test "$(cat $LI)" = 3600
hostile ctl number "$SEED" "$NRAND" $LI 3600 >$W/param
# Decimal, 0x hex, 0 octal, a leading +, one trailing newline, and (as for
# every module parameter: kernel/params.c reads up to the first NUL) what
# comes before a NUL.
for nv in "u32-max 4294967295" "hex 16" "octal 8" "plus 7" "decimal-newline 42" \
	  "nul-after-number 9" "nul-then-junk 5"; do
	set -- $nv
	check "'$1': taken whole, log_interval = $2" \
		test "$(res $W/param $1) $(res $W/param $1 4)" = "ok-$(res $W/param $1 2) $2"
done
check "an empty write takes nothing" test "$(res $W/param empty) $(res $W/param empty 4)" = "ok-0 3600"
for n in u32-max+1 u64-max+1 long-number; do
	check "'$n': ERANGE, unchanged" test "$(res $W/param $n) $(res $W/param $n 4)" = "ERANGE 3600"
done
for n in nul nuls newline spaces whitespace utf8 high-bytes control negative negative-long \
	 float exponent leading-space trailing-space two-newlines crlf word-nul-junk \
	 page-1 page page+1 64k; do
	check "'$n': EINVAL, unchanged" test "$(res $W/param $n) $(res $W/param $n 4)" = "EINVAL 3600"
done
check "every random input refused, unchanged ($(random_results $W/param))" \
	none $W/param '/^random-/ && ($3 !~ /^(EINVAL|ERANGE)$/ || $4 != 3600)'
check "log_interval 3600 again: the state file as before" unchanged

section "as root: rc-loopback's aliases behave as protocols, input for input"
for old in current_protocol protocol supported_protocols; do
	w0=$(state_field $old protocols writes)
	e0=$(state_field $old protocols errors)
	hostile alias rc "$SEED" "$NRAND" $RC/protocols $RC/$old lirc >$W/alias-$old
	check "$old: the same result as protocols for each of $(grep -vc '^#' $W/alias-$old) inputs" \
		none $W/alias-$old '!/^#/ && $3 != $4'
	check "$old: the same state after each" none $W/alias-$old '!/^#/ && $5 != "same"'
	check "$old: every refused write left protocols as it was" \
		none $W/alias-$old '!/^#/ && $4 !~ /^ok-/ && $6 != "kept"'
	check "$old: every random input refused ($(random_results $W/alias-$old 4))" \
		none $W/alias-$old '/^random-/ && $4 ~ /^ok-/'
	set -- $(grep '^#reached' $W/alias-$old)
	check "$old: its writes counted exactly ($2 reached store, $3 of them failed)" \
		test "$(($(state_field $old protocols writes) - w0)) $(($(state_field $old protocols errors) - e0))" = "$2 $3"
done
check "'nec', a NUL and junk: taken by both names (rc-core reads up to the NUL)" \
	none $W/alias-current_protocol '$1 == "word-nul-junk" && !($3 == "ok-8" && $4 == "ok-8" && $6 ~ /^changed:.*\[nec\]/)'
check "valid protocol changes are taken by both names, and change protocols" \
	none $W/alias-current_protocol '/^(protocol|protocol-changes|protocol-case) / && !($4 ~ /^ok-/ && $5 == "same" && $6 ~ /^changed:/)'
echo lirc >$RC/protocols

section "as root: the example's current_protocol (its translate hook)"
w0=$(state_field current_protocol protocol writes)
e0=$(state_field current_protocol protocol errors)
hostile xlate protocol "$SEED" "$NRAND" $EX/current_protocol $EX/protocol pulse-distance >$W/xlate
check "no input here is an old protocol name: none is taken, but the empty write" \
	none $W/xlate '!/^#/ && $1 != "empty" && $3 ~ /^ok-/'
check "'rc5', a NUL and junk: EINVAL (the write does not end at the NUL)" \
	test "$(res $W/xlate old-spelling-nul-junk)" = EINVAL
check "'nec', a NUL and junk: EINVAL" test "$(res $W/xlate word-nul-junk)" = EINVAL
check "more than a page: EINVAL (store() has the first page)" test "$(res $W/xlate 64k)" = EINVAL
check "every write left protocol as it was" none $W/xlate '!/^#/ && $4 != "kept"'
set -- $(grep '^#reached' $W/xlate)
check "its writes counted exactly ($2 reached store, $3 of them failed)" \
	test "$(($(state_field current_protocol protocol writes) - w0)) $(($(state_field current_protocol protocol errors) - e0))" = "$2 $3"

section "positive controls: a valid write does change what the checks compare"
check "'rc5' through the example's alias sets rc-5" \
	sh -c "echo rc5 >$EX/current_protocol && test \"\$(cat $EX/protocol)\" = '[rc-5] pulse-distance nec'"
echo pulse-distance >$EX/protocol
snapshot >$W/before
check "a brownout window shows in the state file" sh -c "
	echo 'rc/supported_protocols 60' >$CTL/brownout &&
	grep -q '^old=supported_protocols new=protocols class=rc .* brownout=fail ' $STATE"
check "... which the comparison sees" changed
echo 'rc/supported_protocols off' >$CTL/brownout
check "log_interval 60 shows in the parameter and the state file" sh -c "
	echo 60 >$LI && test \"\$(cat $LI)\" = 60 && grep -q '^# abidep state v1 log_interval=60 ' $STATE"
echo 3600 >$LI

section "as nobody: refused at open(2), exactly where the modes say"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
snapshot >$W/before
lines0=$(abidep_lines)
# shellcheck disable=SC2046
nobody python3 $W/hostile.py write brownout "$SEED" "$NRAND" $(cat $W/files) $ALIASES >$W/nobody-w
for f in $(cat $W/files) $ALIASES; do
	m=$(stat -c '%a %U' "$f")
	want=open-EACCES
	[ $((0${m% *} & 2)) = 2 ] && want="ok (world-writable)"
	check "$f ($m): every write $want" test "$(awk -v f="$f" '$1 == f { print $2 }' $W/nobody-w)" = "$want"
done
check "never EPERM" sh -c "! grep -q EPERM $W/nobody-w"
check "nothing changed (the state file, parameters and attributes byte for byte)" unchanged
check "... and nothing logged" test "$(abidep_lines)" = "$lines0"
# shellcheck disable=SC2046
nobody python3 $W/hostile.py read - 0 0 $(cat $W/files) $ALIASES >$W/nobody-r
for f in $(cat $W/files) $ALIASES; do
	m=$(stat -c '%a %U' "$f")
	want=EACCES
	[ $((0${m% *} & 4)) = 4 ] && want=ok
	check "$f ($m): a read $want (the positive control of the mode)" \
		test "$(awk -v f="$f" '$1 == f { print $2 }' $W/nobody-r)" = "$want"
done

section "after all that"
check "the aliases still read as their attributes" sh -c "
	test \"\$(cat $RC/current_protocol)\" = \"\$(cat $RC/protocols)\" && test \"\$(cat $EX/current_protocol)\" = Pulse/distance"
check "rmmod the example, rc-loopback and abidep" sh -c "rmmod abidep_ir_example && rmmod rc-loopback && rmmod abidep"
reports=$(dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|UBSAN:|KASAN:|kernel BUG at|refcount_t:|list_(add|del) corruption|cannot create duplicate filename')
check "the kernel log has no report" test -z "$reports"
finish hostile
