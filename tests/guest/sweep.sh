#!/bin/sh
# Guest tests of sweeps (bpf/abidep.h): the tracer tells the tools that read
# a whole sysfs directory (udevadm info -a, grep -r, find -exec cat, tar)
# from the programs that read a deprecated file by name, and abidep report
# and check say which is which. Real clients on a real rc device
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
        out.append("%s %s %s %s%s" % (u["cgroup"], u["exe"], u["op"], u["how"], ok))
print("\n".join(sorted(out)))' "$2"
}

expect_rc="/cat /usr/bin/cat open by-name
/cat /usr/bin/cat read by-name
/exec-sh /usr/bin/cat open sweep
/exec-sh /usr/bin/cat read sweep
/find /usr/bin/cat open sweep
/find /usr/bin/cat read sweep
/grep /usr/bin/grep open sweep
/grep /usr/bin/grep read sweep
/lister /usr/bin/python3.11 open by-name
/lister /usr/bin/python3.11 read by-name
/lister-half /usr/bin/python3.11 open by-name
/lister-half /usr/bin/python3.11 read by-name
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

# check -j's verdict on one entry, then its blockers and the enumerators,
# each as "exe(why)", sorted, on one line each.
judged() {
	"$A" check -j -d $DB -t /tmp/tables --entry "$1" ${2:-} | python3 -c '
import json, sys
e = json.load(sys.stdin)["entries"][0]
print(e["verdict"])
print(" ".join(sorted(b["exe"] for b in e["blockers"] if b["kind"] == "use")))
print(" ".join(sorted("%s(%s)" % (u["exe"], u["why"]) for u in e["enumerated"])))'
}

section "report and check (the tables without their enumerators file: the tracer's signal alone)"
mkdir -p /tmp/tables
cp $ABIDEP_REPO/migration-tables/sysfs-* /tmp/tables/
check "report's text says how" sh -c "'$A' report -d $DB | grep -q ' sweep '"
got=$(judged current_protocol)
want="blocked
/usr/bin/cat /usr/bin/dash /usr/bin/python3.11
/usr/bin/cat(sweep) /usr/bin/grep(sweep) /usr/bin/tar(sweep) /usr/bin/udevadm(sweep)"
check "rc: check blocks on the readers by name only, and names the sweeps" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
# (its verdict is not-due until its Remove-after date: not compared)
got=$(judged current_governor_ro | tail -n 2)
want="/usr/bin/python3.11
/usr/bin/grep(sweep)"
check "cpuidle: the lister blocks, grep -r does not" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
got=$(judged current_protocol --count-sweeps)
want="blocked
/usr/bin/cat /usr/bin/dash /usr/bin/grep /usr/bin/python3.11 /usr/bin/tar /usr/bin/udevadm"
check "--count-sweeps: the sweeps block too" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "check's text (--by-host) names them 'enumerated by ... (swept its directory)'" \
	sh -c "'$A' check --by-host -d $DB -t /tmp/tables --entry current_protocol | grep -q '^  enumerated by /usr/bin/udevadm (swept its directory), not blocking'"

finish sweep
