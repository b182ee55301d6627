#!/bin/sh
# Guest tests of sweeps (bpf/abidep.h): the tracer tells the tools that read
# a whole sysfs directory (udevadm info -a, grep -r, find -exec cat, tar, a
# shell's glob) from the programs that read a deprecated file by name, also
# when both run in one script, and abidep report and check say which is
# which. Real clients on a real rc device
# (rc-loopback, with abidep.ko's current_protocol alias) and on cpuidle, in
# fexit and in kprobe mode. Each client runs in a cgroup of its own, so that
# its accesses are keys of their own. Run by `make check-vm`:
#	tests/vm/run tests/guest/sweep.sh
# Ends with "sweep: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
CPUIDLE=/sys/devices/system/cpu/cpuidle
CG=/sys/fs/cgroup

# Run "$2..." in the cgroup /$1 (made for it), and in a session and process
# group of its own: each client is a side of its own (bpf/abidep.h), as it
# would be when started apart, however soon after another it runs.
in_cg() {
	name=$1
	shift
	mkdir -p $CG/$name
	setsid -w sh -c 'echo $$ > '$CG/$name'/cgroup.procs; exec "$@"' sh "$@"
}

# The clients. Sweeps: they list the directory and open its files.
sweeps() {
	in_cg udevadm udevadm info -a "$RCDIR" >/dev/null 2>&1
	in_cg grep grep -r . "$RCDIR/" >/dev/null 2>&1
	in_cg find find "$RCDIR/" -maxdepth 1 -type f -exec cat {} \; >/dev/null 2>&1
	# The lister is not the opener's parent: a pipeline, and a helper's
	# child. Each is one process group.
	in_cg xargs sh -c 'find "$1/" -maxdepth 1 -type f -print0 | xargs -0 cat' sh "$RCDIR" >/dev/null 2>&1
	in_cg exec-sh find "$RCDIR/" -maxdepth 1 -type f -exec sh -c 'cat "$1"' sh {} \; >/dev/null 2>&1
	in_cg tar sh -c "tar -cf - '$RCDIR/' 2>/dev/null | wc -c" >/dev/null
	in_cg grep-cpuidle grep -r . $CPUIDLE/ >/dev/null 2>&1
	# A shell's glob, sorted by name: dash's bytewise, bash's as the
	# locale collates (C.UTF-8 here).
	in_cg glob-dash dash -c 'cat "$1"/*' sh "$RCDIR" >/dev/null 2>&1
	in_cg glob-bash bash -c 'cat "$1"/*' sh "$RCDIR" >/dev/null 2>&1
	# The same sweep twice in one process group: each listing starts a
	# sweep of its own.
	in_cg twice sh -c 'cat "$1"/*; cat "$1"/*' sh "$RCDIR" >/dev/null 2>&1
}

# A collector: lists the directory $1, reads each of its attributes, in
# the listing's order.
COLLECT='import os, sys
d = sys.argv[1]
for f in os.listdir(d):
    p = os.path.join(d, f)
    if os.path.isfile(p):
        try:
            open(p).read()
        except OSError:
            pass'

READ='import sys; open(sys.argv[1]).read()'

# A picker: lists the directory $1, then opens six of its attributes by
# name, current_protocol among them, in an order of its own: by name,
# backwards, which is in none of the directory's orders (checked: the
# listing's, by name, and by name as the locales collate).
PICK='import os, re, sys
d = sys.argv[1]
listed = [f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]
names = sorted(listed)
pick = [f for f in names if f != "uevent"][:6]
assert "current_protocol" in pick and len(pick) == 6, names
pick.reverse()
def coll(f):
    return (re.sub("[^0-9a-z]", "", f.lower()), f)
for order in (listed, names, sorted(listed, key=coll)):
    ranks = [order.index(f) for f in pick]
    assert ranks != sorted(ranks), (pick, order)
for f in pick:
    open(os.path.join(d, f)).read()'

# Scripts in one process group, as cron jobs, units' ExecStart scripts
# and udev RUN scripts are: a sweep, then a read by name of a file the
# sweep read, by the same program (executable).
scripts() {
	in_cg collector sh -c 'python3 -c "$2" "$1"; python3 -c "$3" "$1/current_protocol"' \
		sh "$RCDIR" "$COLLECT" "$READ"
	in_cg glob-then-cat sh -c 'cat "$1"/* >/dev/null 2>&1; cat "$1/current_protocol"' \
		sh "$RCDIR" >/dev/null
	# A listing, a read by name (by uid 65534: a key of its own), then
	# a sweep of that listing (no other) by the same program, which
	# opens the file again: the read stays by name, and so does the
	# sweep's open of it.
	in_cg reader-first sh -c 'files=$(echo "$1"/*); setpriv --reuid=65534 --regid=65534 \
		--clear-groups cat "$1/current_protocol"; cat $files' sh "$RCDIR" >/dev/null 2>&1
}

# By name: they open the deprecated file, listing nothing or nothing more.
by_name() {
	in_cg cat cat "$RCDIR/current_protocol" >/dev/null
	in_cg python python3 -c 'open("'"$RCDIR"'/current_protocol").read()'
	in_cg redirect sh -c 'read x < "$1"' sh "$RCDIR/current_protocol"
	in_cg lister python3 -c 'import os
d = "'"$RCDIR"'"
assert "current_protocol" in os.listdir(d)
open(d + "/current_protocol").read()'
	in_cg lister-cpuidle python3 -c 'import os
d = "'"$CPUIDLE"'"
assert "current_governor_ro" in os.listdir(d)
open(d + "/current_governor_ro").read()'
	# A script that sweeps the device, then reads the file by name with
	# another program, in the same process group, at once: the sweep is
	# udevadm's, the read by name cat's.
	in_cg script sh -c 'udevadm info -a "$1" >/dev/null 2>&1; cat "$1/current_protocol"' sh "$RCDIR" >/dev/null
	# Lists the device, then reads half of its attributes by name,
	# current_protocol among them: more than ABIDEP_SWEEP_FILES, less than
	# most of the directory.
	in_cg lister-half python3 -c 'import os
d = "'"$RCDIR"'"
names = sorted(f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))
assert "current_protocol" in names and len(names) >= 8, names
rest = [f for f in names if f != "current_protocol"]
for f in ["current_protocol"] + rest[:len(names) // 2 - 1]:
    try:
        open(os.path.join(d, f)).read()
    except OSError:
        pass'
	in_cg picker python3 -c "$PICK" "$RCDIR"
}

# The report's users of one file as "cgroup exe op how", sorted; with each
# user's swept count checked against its count: all of it (sweep) or none.
hows() {
	"$A" report -j -d "$1" | python3 -c '
import json, sys
out = []
for e in json.load(sys.stdin):
    if sys.argv[1] not in e["files"]:
        continue
    for u in e["users"]:
        whole = {"sweep": u["count"], "by-name": 0}[u["how"]]
        ok = "" if u["swept"] == whole else " (swept %d of %d)" % (u["swept"], u["count"])
        uid = " uid %d" % u["uid"] if u["uid"] else ""
        out.append("%s %s%s %s %s%s" % (u["cgroup"], u["exe"], uid, u["op"], u["how"], ok))
print("\n".join(sorted(out)))' "$2"
}

expect_rc="/cat /usr/bin/cat open by-name
/cat /usr/bin/cat read by-name
/exec-sh /usr/bin/cat open sweep
/exec-sh /usr/bin/cat read sweep
/find /usr/bin/cat open sweep
/find /usr/bin/cat read sweep
/glob-bash /usr/bin/cat open sweep
/glob-bash /usr/bin/cat read sweep
/glob-dash /usr/bin/cat open sweep
/glob-dash /usr/bin/cat read sweep
/grep /usr/bin/grep open sweep
/grep /usr/bin/grep read sweep
/lister /usr/bin/python3.11 open by-name
/lister /usr/bin/python3.11 read by-name
/lister-half /usr/bin/python3.11 open by-name
/lister-half /usr/bin/python3.11 read by-name
/picker /usr/bin/python3.11 open by-name
/picker /usr/bin/python3.11 read by-name
/python /usr/bin/python3.11 open by-name
/python /usr/bin/python3.11 read by-name
/redirect /usr/bin/dash open by-name
/redirect /usr/bin/dash read by-name
/script /usr/bin/cat open by-name
/script /usr/bin/cat read by-name
/script /usr/bin/udevadm open sweep
/script /usr/bin/udevadm read sweep
/tar /usr/bin/tar open sweep
/tar /usr/bin/tar read sweep
/twice /usr/bin/cat open sweep
/twice /usr/bin/cat read sweep
/udevadm /usr/bin/udevadm open sweep
/udevadm /usr/bin/udevadm read sweep
/xargs /usr/bin/cat open sweep
/xargs /usr/bin/cat read sweep"
expect_cpuidle="/grep-cpuidle /usr/bin/grep open sweep
/grep-cpuidle /usr/bin/grep read sweep
/lister-cpuidle /usr/bin/python3.11 open by-name
/lister-cpuidle /usr/bin/python3.11 read by-name"

# One round: pin with $1 (fexit: nothing), run the clients, sync, stop.
round() {
	mode=$1
	db=/tmp/sweep$mode.db
	check "trace --pin $mode" "$A" trace --pin $mode -d $db
	sweeps
	by_name
	check "trace --stop" "$A" trace --stop -d $db
	got=$(hows $db "$RCFILE")
	check "rc: the sweeps and the readers by name, each as it is" test "$got" = "$expect_rc"
	[ "$got" = "$expect_rc" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
	got=$(hows $db $CPUIDLE/current_governor_ro)
	check "cpuidle (4 files): grep -r is a sweep, a lister by name" test "$got" = "$expect_cpuidle"
	[ "$got" = "$expect_cpuidle" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
	scripts_round "$mode"
	collate_round "$mode"
}

# The scripts' uses of current_protocol: each script's reader by name
# shares its usage key with the sweep before it (one executable, uid and
# cgroup), which has accesses swept and one by name: by-name, swept 1 of 2.
# reader-first's cat by name read it before the sweep, whose open of it was
# again: none of either is swept.
expect_scripts="/collector /usr/bin/python3.11 open by-name (swept 1 of 2)
/collector /usr/bin/python3.11 read by-name (swept 1 of 2)
/glob-then-cat /usr/bin/cat open by-name (swept 1 of 2)
/glob-then-cat /usr/bin/cat read by-name (swept 1 of 2)
/reader-first /usr/bin/cat open by-name
/reader-first /usr/bin/cat read by-name
/reader-first /usr/bin/cat uid 65534 open by-name
/reader-first /usr/bin/cat uid 65534 read by-name"

# The scripts alone, with $1 (fexit: nothing), in a DB of their own: check
# names the readers by name, for they are all its uses.
scripts_round() {
	db=/tmp/scripts$1.db
	check "trace --pin $1 (scripts)" "$A" trace --pin $1 -d $db
	scripts
	check "trace --stop (scripts)" "$A" trace --stop -d $db
	got=$(hows $db "$RCFILE")
	check "scripts in one process group: the sweep, then a read by name by the same program" \
		test "$got" = "$expect_scripts"
	[ "$got" = "$expect_scripts" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
	got=$(judged $db current_protocol)
	want="blocked
/usr/bin/cat /usr/bin/cat(uid 65534) /usr/bin/python3.11"
	check "scripts: check blocks, naming the readers by name" test "$got" = "$want"
	[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
}

# A table of one entry, lo's addr_len: lo's attributes sort otherwise by
# bytes (addr_len, address) than as glibc's locales collate them (address,
# addr_len).
LOTABLES=/tmp/lotables
LOCALES=/tmp/locales
mkdir -p $LOTABLES $LOCALES
cat >$LOTABLES/sysfs-class-net-lo <<'EOF'
What:		/sys/class/net/lo/addr_len
Date:		January 2024
Contact:	abidep's tests
Status:		deprecated
Deprecated:	2024-01
Replaced-by:	none
Source:		tests/guest/sweep.sh
Description:
		A test entry: a file of a directory whose files sort otherwise
		by bytes than as the locales collate.
EOF

# bash's glob under en_US.UTF-8, with $1 (fexit: nothing): a sweep in the
# order the locale collates.
collate_round() {
	db=/tmp/collate$1.db
	check "trace --pin $1 (lo's addr_len)" "$A" trace --pin $1 -d $db -t $LOTABLES
	in_cg glob-en_US env LOCPATH=$LOCALES LC_ALL=en_US.UTF-8 \
		bash -c 'cat /sys/class/net/lo/*' >/dev/null 2>&1
	check "trace --stop (lo's addr_len)" "$A" trace --stop -d $db
	got=$(hows $db /sys/class/net/lo/addr_len)
	want="/glob-en_US /usr/bin/cat open sweep
/glob-en_US /usr/bin/cat read sweep"
	check "bash's glob, as en_US.UTF-8 collates, is a sweep" test "$got" = "$want"
	[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
}

section "setup"
check "abidep.ko loads" insmod "$KMOD/abidep.ko"
check "modprobe rc-loopback" modprobe rc-loopback
sleep 1
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
RCDIR=$(readlink -f "$RC")			# the device's own directory
RCFILE=$RC/current_protocol			# as the tracer names it
check "the rc device has the current_protocol alias" test -r "$RCDIR/current_protocol"
check "cpuidle has its 4 files" test "$(ls $CPUIDLE | wc -l)" = 4
n=$(find "$RCDIR/" -maxdepth 1 -type f | wc -l)
check "rc0 has $n regular files, at least 8 (half of them read by lister-half)" test "$n" -ge 8
check "localedef en_US.UTF-8" localedef -i en_US -f UTF-8 $LOCALES/en_US.UTF-8
got=$(LOCPATH=$LOCALES LC_ALL=en_US.UTF-8 bash -c 'echo /sys/class/net/lo/addr*')
want="/sys/class/net/lo/addr_assign_type /sys/class/net/lo/address /sys/class/net/lo/addr_len"
check "bash's glob, under en_US.UTF-8, puts address before addr_len" test "$got" = "$want"

# check -j's verdict on one entry ($2) of DB $1, then its blockers (with
# their uid, but root's) and the enumerators, each as "exe(why)", sorted,
# on one line each.
judged() {
	"$A" check -j -d "$1" -t /tmp/tables --entry "$2" ${3:-} | python3 -c '
import json, sys
e = json.load(sys.stdin)["entries"][0]
print(e["verdict"])
print(" ".join(sorted(b["exe"] + ("(uid %d)" % b["uid"] if b["uid"] else "")
                      for b in e["blockers"] if b["kind"] == "use")))
print(" ".join(sorted("%s(%s)" % (u["exe"], u["why"]) for u in e["enumerated"])))'
}

mkdir -p /tmp/tables
cp $ABIDEP_REPO/migration-tables/sysfs-* /tmp/tables/

section "fexit"
round ""
DB=/tmp/sweep.db

section "kprobes"
round --kprobe

# "NOW_NS JIFFIES" of the guest's kernel (/proc/timer_list), one line.
jiffies_at() {
	awk '/^now at / { ns = $3 } /^jiffies: / { print ns, $2; exit }' /proc/timer_list
}

# sweep_until (bpf/abidep.bpf.c, the map of its .data.sweep section).
sweep_until() {
	bpftool -j map show | python3 -c '
import json, subprocess, sys
m = [m["id"] for m in json.load(sys.stdin) if m.get("name", "").endswith(".data.sweep")]
d = json.loads(subprocess.check_output(["bpftool", "-j", "map", "dump", "id", str(m[0])]))
print(int.from_bytes(bytes(int(b, 16) for b in d[0]["value"][:8]), "little"))'
}

section "the sweep window, in the kernel's jiffies"
# HZ as the kernel's own clocks show it, a second apart.
# shellcheck disable=SC2046 # "NS JIFFIES"
set -- $(jiffies_at)
sleep 1
# shellcheck disable=SC2046 # "NS JIFFIES"
set -- "$@" $(jiffies_at)
hz=$(( ($4 - $2) * 1000000000 / ($3 - $1) ))
check "HZ measured ($hz) is one Linux has (10 to 1000, 10% of slack)" test "$hz" -ge 10 -a "$hz" -le 1100
"$A" trace --pin -d /tmp/window.db >/dev/null
# The jiffies just before the listing and just after it: the deadline is
# ABIDEP_SWEEP_WINDOW_NS (5 s) past a jiffy between them; 10% of slack for
# the HZ measured.
# shellcheck disable=SC2046 # "NS JIFFIES"
set -- $(jiffies_at)
ls $CPUIDLE >/dev/null
# shellcheck disable=SC2046 # "NS JIFFIES"
set -- "$@" $(jiffies_at)
until=$(sweep_until)
least=$(($2 + hz * 5 * 9 / 10)) most=$(($4 + hz * 5 * 11 / 10))
check "a listing arms the sweep test for 5 s of jiffies: $((until - $2)) after it, HZ $hz" \
	test "$until" -ge "$least" -a "$until" -le "$most"
check "trace --stop" "$A" trace --stop -d /tmp/window.db

section "report and check (the tables without their enumerators file: the tracer's signal alone)"
check "report's text says how" sh -c "'$A' report -d $DB | grep -q ' sweep '"
got=$(judged $DB current_protocol)
want="blocked
/usr/bin/cat /usr/bin/dash /usr/bin/python3.11
/usr/bin/cat(sweep) /usr/bin/grep(sweep) /usr/bin/tar(sweep) /usr/bin/udevadm(sweep)"
check "rc: check blocks on the readers by name only, and names the sweeps" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
# (its verdict is not-due until its Remove-after date: not compared)
got=$(judged $DB current_governor_ro | tail -n 2)
want="/usr/bin/python3.11
/usr/bin/grep(sweep)"
check "cpuidle: the lister blocks, grep -r does not" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
got=$(judged $DB current_protocol --count-sweeps)
want="blocked
/usr/bin/cat /usr/bin/dash /usr/bin/grep /usr/bin/python3.11 /usr/bin/tar /usr/bin/udevadm"
check "--count-sweeps: the sweeps block too" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "check's text (--by-host) names them 'enumerated by ... (swept its directory)'" \
	sh -c "'$A' check --by-host -d $DB -t /tmp/tables --entry current_protocol | grep -q '^  enumerated by /usr/bin/udevadm (swept its directory), not blocking'"

section "ranks: the watched directories' files, kept with the watched set"
# The ranks of the regular files of directory $2 in the ranks map (bpftool's
# JSON on stdin) against their places: in readdir order, by name and as the
# locales collate (as PICK has it); and none left of the inode numbers $3...
ranks_of() {
	python3 -c '
import json, os, re, sys
d, gone = sys.argv[1], set(int(x) for x in sys.argv[2:])
ranks = {}
for e in json.load(sys.stdin):
    f = e.get("formatted", e)
    ranks[int(f["key"])] = f["value"]["rank"]
listed = [f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]
orders = (listed, sorted(listed),
          sorted(listed, key=lambda f: (re.sub("[^0-9a-z]", "", f.lower()), f)))
bad = [f for f in listed if ranks.get(os.stat(os.path.join(d, f)).st_ino) !=
       [o.index(f) + 1 for o in orders]]
left = gone & set(ranks)
print("%d files, wrong: %s, left of the gone: %d" % (len(listed), bad, len(left)))' "$@"
}
check "trace --pin (ranks)" "$A" trace --pin -d /tmp/ranks.db
got=$(bpftool -j map dump pinned /sys/fs/bpf/abidep/ranks | ranks_of "$RCDIR")
check "ranks: rc0's files, each in its three orders ($got)" test "$got" = "8 files, wrong: [], left of the gone: 0"
# shellcheck disable=SC2046 # the inode numbers
set -- $(stat -c %i "$RCDIR"/* 2>/dev/null)
check "rmmod rc-loopback" rmmod rc-loopback
check "modprobe rc-loopback" modprobe rc-loopback
sleep 1
rcdir=$(readlink -f "$(ls -d /sys/class/rc/rc* | head -n 1)")
check "trace --sync" "$A" trace --sync -d /tmp/ranks.db
got=$(bpftool -j map dump pinned /sys/fs/bpf/abidep/ranks | ranks_of "$rcdir" "$@")
check "ranks after the device came back: its new files, none of the old ($got)" \
	test "$got" = "8 files, wrong: [], left of the gone: 0"
got=$(bpftool -j map dump pinned /sys/fs/bpf/abidep/ranks | ranks_of $CPUIDLE)
check "ranks: cpuidle's files ($got)" test "$got" = "4 files, wrong: [], left of the gone: 0"
check "trace --stop (ranks)" "$A" trace --stop -d /tmp/ranks.db

finish sweep
