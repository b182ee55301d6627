#!/bin/sh
# Guest tests of `abidep survey` on the real /sys of a supported kernel:
# the totals add up, the walk sees what find -mount sees, the word counts
# are wc -w's (on a copy of the values read, and on the live tree), the
# survey only ever opens read-only, debugfs and tracefs are refused, and a
# read that blocks is bounded (on a FUSE file system whose reads never
# answer). Run by `make check-vm`:
#	tests/vm/run --timeout 900 tests/guest/survey-guest.sh
# Leaves the census in $ABIDEP_OUT (survey.json, survey.txt, wc.txt): the
# figures of Documentation/admin-guide/survey.rst. Ends with "survey-guest: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
OUT=${ABIDEP_OUT:-/tmp}
W=/tmp/survey
mkdir -p $W
J=$OUT/survey.json

# A Python expression over the JSON file $1, printed: jv FILE EXPR
jv() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# Equality with both sides shown when it fails; an empty side (a key the
# JSON lacks) fails too.
eq() {
	[ -n "$1" ] && [ "$1" = "$2" ] || { echo "'$1' != '$2'"; return 1; }
}

section "the census of /sys"
# A bound well above any sysfs read here, so that none times out under TCG
# on a busy host; timeouts are tested on FUSE below.
check "survey -j /sys exits 0" sh -c "$A survey -j --timeout-ms 5000 /sys >$J"
"$A" survey --timeout-ms 5000 /sys >"$OUT/survey.txt"
uname -r >"$OUT/kernel.txt"
check "files = empty + one word + multi-word + unreadable + write-only + timed out" \
	eq "$(jv $J 'd["files"]')" "$(jv $J 'sum(d[k] for k in ("empty","one_word","multi_word","unreadable","write_only","timeouts"))')"
check "unreadable = permission + open + read" \
	eq "$(jv $J 'd["unreadable"]')" "$(jv $J 'sum(d["unreadable_by"].values())')"
check "the errors named add up to open + read failures" \
	eq "$(jv $J 'sum(d["errors"].values())')" "$(jv $J 'd["unreadable_by"]["open"] + d["unreadable_by"]["read"]')"
check "root: nothing refused by the permission bits" eq "$(jv $J 'd["unreadable_by"]["permission"]')" 0
check "the classes add up to multi-word" eq "$(jv $J 'sum(d["classes"].values())')" "$(jv $J 'd["multi_word"]')"
check "the groups hold every multi-word file" eq "$(jv $J 'sum(g["files"] for g in d["groups"])')" "$(jv $J 'd["multi_word"]')"
check "each group's classes add up to its files" eq "$(jv $J 'all(sum(g["classes"].values()) == g["files"] for g in d["groups"])')" True
check "attributes = groups listed <= base names <= multi-word" \
	eq "$(jv $J 'd["attributes"] == len(d["groups"]) and 0 < d["attributes"] <= d["base_names"] <= d["multi_word"]')" True
check "two-word files <= multi-word; the longest has more" \
	eq "$(jv $J 'd["two_words"] <= d["multi_word"] and d["max_words"] > 2')" True
check "multi-value candidates <= multi-word, their attributes <= attributes" \
	eq "$(jv $J 'd["candidates"]["multi_value_files"] <= d["multi_word"] and d["candidates"]["multi_value_attributes"] <= d["attributes"]')" True
check "unit candidates add up, and are one-word files" \
	eq "$(jv $J 'sum(u["files"] for u in d["candidates"]["unit"]) == d["candidates"]["unit_files"] <= d["one_word"]')" True
check "none timed out at 5 s, no reader abandoned" eq "$(jv $J '(d["timeouts"], d["abandoned_reads"])')" "(0, 0)"
check "the text says the same" grep -Eq "^files +$(jv $J 'd["files"]')\$" "$OUT/survey.txt"

section "the walk is find -mount's"
n=$(find /sys -mount -type f | wc -l)
check "files = find /sys -mount -type f ($n)" eq "$(jv $J 'd["files"]')" "$n"
n=$(find /sys -mount -type f ! -perm /444 | wc -l)
check "write-only = files without a read bit ($n)" eq "$(jv $J 'd["write_only"]')" "$n"
n=$(find /sys -mount -type l | wc -l)
check "symlinks skipped = find -type l ($n)" eq "$(jv $J 'd["not_surveyed"]["symlinks"]')" "$n"
# Mount points whose parent directory is on /sys's file system: the
# directories -mount does not enter (debugfs, tracefs, bpffs, cgroup2, ...).
sysdev=$(stat -c %d /sys)
n=0
for m in $(awk '$5 ~ "^/sys/" { print $5 }' /proc/self/mountinfo); do
	[ "$(stat -c %d "$(dirname "$m")")" = "$sysdev" ] && n=$((n + 1))
done
check "directories on other file systems = mount points on /sys ($n)" \
	eq "$(jv $J 'd["not_surveyed"]["other_fs_dirs"]')" "$n"
check "debugfs is among them (mounted at /sys/kernel/debug)" \
	sh -c "grep -q ' /sys/kernel/debug debugfs ' /proc/mounts"
check "survey /sys/kernel/debug is refused: exit 2" sh -c "$A survey /sys/kernel/debug >/dev/null 2>$W/err; test \$? = 2"
check "... saying why" grep -q 'is on debugfs or tracefs, which survey never reads' $W/err
check "survey /sys/kernel/tracing is refused: exit 2" sh -c "$A survey /sys/kernel/tracing >/dev/null 2>/dev/null; test \$? = 2"

section "the words are wc -w's"
# The same reads, copied: wc -w on the copy must agree exactly.
rm -rf $W/snap
check "survey --save exits 0" sh -c "$A survey -j --timeout-ms 5000 --save $W/snap /sys >$W/s.json"
S=$W/s.json
(cd $W/snap && find . -type f -print0 | LC_ALL=C wc -w --files0-from=- | sed '$d' |
	sed 's|^ *\([0-9]*\) \./|\1 /sys/|' | sort -k2) >$W/snap.wc
count_classes() {
	awk '{ if ($1 == 0) e++; else if ($1 == 1) o++; else m++ } END { print e+0, o+0, m+0 }' "$1"
}
check "wc -w on the copy: the same empty, one-word, multi-word counts" \
	eq "$(count_classes $W/snap.wc)" "$(jv $S '"%d %d %d" % (d["empty"], d["one_word"], d["multi_word"])')"
# The article's own pipeline on the live tree, as root (one wc, so that no
# file named "total" is lost: GNU wc's --files0-from, its total dropped).
find /sys -mount -type f -print0 | LC_ALL=C wc -w --files0-from=- 2>/dev/null | sed '$d' |
	sed 's|^ *||' | sort -k2 >$W/live.wc
python3 - $W/live.wc >"$OUT/wc.txt" <<'EOF'
import sys
e = o = m = 0
for line in open(sys.argv[1]):
    n = int(line.split(' ', 1)[0])
    e, o, m = e + (n == 0), o + (n == 1), m + (n > 1)
print("find /sys -mount -type f | xargs wc -w: %d files, %d empty, %d one word, %d multi-word" % (e + o + m, e, o, m))
EOF
check "find | wc -w lists what survey opened (read errors as 0 words)" \
	eq "$(wc -l <$W/live.wc)" "$(jv $S 'd["wc_method"]["files"]')"
# File by file, live wc against the copy. Values may differ only where they
# change between two reads: /sys/kernel/slab, whose counts move with every
# allocation (the survey's, find's and wc's own included); and the word
# count (not the class) of files larger than the page survey reads
# (ACPI tables, BTF), which wc reads whole.
python3 - $W/live.wc $W/snap.wc $W/snap >$W/diff <<'EOF'
import os, sys
def load(p):
    r = {}
    for line in open(p):
        n, path = line.rstrip('\n').split(' ', 1)
        r[path] = int(n)
    return r
def cls(n):
    return min(n, 2)
live, snap = load(sys.argv[1]), load(sys.argv[2])
bad = []
for path, n in snap.items():
    if path not in live:
        bad.append("%s: read by survey, not listed by wc" % path)
        continue
    if path.startswith("/sys/kernel/slab/"):
        continue
    full = os.path.getsize(sys.argv[3] + path[4:]) == 4096
    if cls(n) != cls(live[path]) or (n != live[path] and not full):
        bad.append("%s: survey %d words, wc %d" % (path, n, live[path]))
print("\n".join(bad))
EOF
check "file by file, outside /sys/kernel/slab: the same words ($(grep -c . $W/diff) differ)" sh -c "! grep -q . $W/diff"
check "... over thousands of files" test "$(grep -vc ' /sys/kernel/slab/' $W/snap.wc)" -gt 3000

section "read-only: every open the survey makes (bpftrace)"
# The survey as "abidep", and a --save run (which must write) as
# "abidep-save": the probes are shown to see writes where there are some.
cp "$A" /tmp/abidep-save
# bpftrace -c starts the commands once every probe is attached (its
# "Attaching" line comes before they all are).
printf '"%s" survey -j --timeout-ms 5000 /sys >%s/b.json\n/tmp/abidep-save survey --save %s/snap2 /sys/kernel/mm >/dev/null\n' \
	"$A" "$W" "$W" >$W/bt-run.sh
bpftrace -c "/bin/sh $W/bt-run.sh" -e '
BEGIN { @opens["abidep"] = 0; @writable["abidep"] = 0; @writes["abidep"] = 0; }
tracepoint:syscalls:sys_enter_openat /comm == "abidep" || comm == "abidep-save"/ {
	@opens[comm]++;
	if (args->flags & 0x243) { @writable[comm]++; }	/* O_WRONLY|O_RDWR|O_CREAT|O_TRUNC */
}
tracepoint:syscalls:sys_enter_write /(comm == "abidep" || comm == "abidep-save") && args->fd > 2/ { @writes[comm]++; }
tracepoint:syscalls:sys_enter_pwrite64 /comm == "abidep"/ { @writes[comm]++; }
tracepoint:syscalls:sys_enter_truncate /comm == "abidep"/ { @writes[comm]++; }
' >$W/bt 2>&1
# "@opens[abidep]: 9876" -> 9876
bt_val() {
	sed -n "s/^@$1\[$2\]: \([0-9]*\)\$/\1/p" $W/bt
}
reads=$(jv $W/b.json 'd["files"] - d["write_only"] - d["unreadable_by"]["permission"]')
check "bpftrace sees writes where there are some (--save)" test "$(bt_val writable abidep-save)" -gt 0
check "survey: no open for writing, creating or truncating" eq "$(bt_val writable abidep)" 0
check "survey: no write but to stdout and stderr" eq "$(bt_val writes abidep)" 0
opens=$(bt_val opens abidep)
check "survey: an open for each file read ($reads), and for directories" \
	sh -c "[ '${opens:-0}' -ge '$reads' ] || { echo 'bpftrace counted ${opens:-no} opens'; false; }"

section "a read that blocks is bounded (FUSE)"
# A FUSE server speaking the kernel protocol on /dev/fuse: "fast" answers
# "1\n"; "slow" does not answer a read until the kernel sends INTERRUPT (it
# does on a signal), then fails it with EINTR; "stuck" ignores INTERRUPT and
# answers (EIO) only once the test creates the file $2 (and then creates
# $3), so the reader, in a killable then an uninterruptible wait, must be
# abandoned. (A read never answered at all
# would keep the process from exiting: the kernel waits out a request the
# server has taken, even for SIGKILL.)
cat >$W/fusesrv.py <<'EOF'
import ctypes, os, select, struct, sys, time
mnt, release, answered = sys.argv[1:4]
fd = os.open("/dev/fuse", os.O_RDWR)
libc = ctypes.CDLL(None, use_errno=True)
opts = ("fd=%d,rootmode=40000,user_id=0,group_id=0" % fd).encode()
if libc.mount(b"surveytest", mnt.encode(), b"fuse", 6, opts):  # MS_NOSUID|MS_NODEV
    sys.exit("mount: %s" % os.strerror(ctypes.get_errno()))
if os.fork():
    os._exit(0)
nul = os.open("/dev/null", os.O_RDWR)
for i in (0, 1, 2):
    os.dup2(nul, i)
FILES = {b"fast": 2, b"slow": 3, b"stuck": 4}
def attr(ino):
    mode, size = (0o40755, 0) if ino == 1 else (0o100444, 4096)
    return struct.pack("<6Q10I", ino, size, 1, 0, 0, 0, 0, 0, 0, mode, 1, 0, 0, 0, 4096, 0)
def reply(unique, err=0, body=b""):
    os.write(fd, struct.pack("<IiQ", 16 + len(body), -err, unique) + body)
pending = {}  # unique of a read of "slow" -> waiting for INTERRUPT
stuck = []  # uniques of reads of "stuck", answered once release exists
while True:
    if stuck and os.path.exists(release):
        for u in stuck:
            reply(u, 5)
        stuck = []
        open(answered, "w").close()
    if not select.select([fd], [], [], 0.05 if stuck else 3600)[0]:
        continue
    try:
        req = os.read(fd, 1 << 20)
    except OSError:
        break
    ln, op, unique, node = struct.unpack_from("<IIQQ", req)
    body = req[40:ln]
    if op == 26:  # INIT
        reply(unique, 0, struct.pack("<IIIIHHIIHHI7I", 7, 31, 0, 0, 16, 12, 4096, 1, 1, 0, 0, *([0] * 7)))
    elif op == 1:  # LOOKUP
        ino = FILES.get(body.rstrip(b"\0"))
        if ino:
            reply(unique, 0, struct.pack("<QQQQII", ino, 0, 60, 60, 0, 0) + attr(ino))
        else:
            reply(unique, 2)
    elif op == 3:  # GETATTR
        reply(unique, 0, struct.pack("<QII", 60, 0, 0) + attr(node))
    elif op in (14, 27):  # OPEN (direct I/O: no page cache), OPENDIR
        reply(unique, 0, struct.pack("<QII", 0, op == 14, 0))
    elif op == 28:  # READDIR
        off = struct.unpack_from("<Q", body, 8)[0]
        out = b""
        for i, (name, ino) in enumerate(sorted(FILES.items(), key=lambda x: x[1])):
            if i < off:
                continue
            ent = struct.pack("<QQII", ino, i + 1, len(name), 8) + name
            out += ent + b"\0" * (-len(ent) % 8)
        reply(unique, 0, out)
    elif op == 15:  # READ
        if node == 2:
            off = struct.unpack_from("<Q", body, 8)[0]
            reply(unique, 0, b"1\n"[off:])
        elif node == 3:
            pending[unique] = True
        else:
            stuck.append(unique)
    elif op == 36:  # INTERRUPT
        target = struct.unpack_from("<Q", body)[0]
        if pending.pop(target, None):
            reply(target, 4)  # EINTR
    elif op in (2, 42):  # FORGET, BATCH_FORGET: no reply
        pass
    elif op in (18, 29, 25):  # RELEASE, RELEASEDIR, FLUSH
        reply(unique)
    else:
        reply(unique, 38)  # ENOSYS
EOF
F=$W/fuse
mkdir -p $F
check "the fuse module loads" modprobe fuse
check "the test FUSE server mounts" python3 $W/fusesrv.py $F $W/release $W/answered
check "... and serves (fast reads 1)" sh -c "test \"\$(cat $F/fast)\" = 1"
# Survey $F into $1 with options $2...: the census is out (stdout flushed,
# at exit()) before the process ends, which waits for the stuck read: it
# must be out while that read is still unanswered, however long that
# takes (it is small: one write(2) at exit). Then the server answers it.
# Prints the survey's status, then "early" if the census came first.
survey_fuse() {
	out=$1
	shift
	rm -f $W/release $W/answered
	"$A" survey "$@" $F >$out &
	sv=$!
	i=0
	until [ -s $out ] || [ $i -ge 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	early=$([ -s $out ] && [ ! -e $W/answered ] && echo early)
	touch $W/release
	wait $sv
	echo $? $early
}
rc=$(survey_fuse $W/f.json -j --timeout-ms 300)
check "the census is out while the stuck read is still unanswered" test "${rc#* }" = early
rc=${rc%% *}
check "survey of it with --timeout-ms 300 exits 0" eq "$rc" 0
check "3 files: 1 one word, 2 timed out" eq "$(jv $W/f.json '(d["files"], d["one_word"], d["timeouts"])')" "(3, 1, 2)"
check "the first timed out is named" eq "$(jv $W/f.json 'd["timeout_example"]')" "$F/slow"
check "slow was interrupted, stuck abandoned: 1 reader abandoned" eq "$(jv $W/f.json 'd["abandoned_reads"]')" 1
check "the text counts it too, as early" test "$(survey_fuse $W/f.txt --timeout-ms 300)" = "0 early"
check "... 2 timed out" sh -c "grep -Eq '^  timed out +2 .*\\($F/slow, \\.\\.\\.\\)\$' $W/f.txt"
umount -l $F

finish survey-guest
