#!/bin/sh
# Guest tests of the BPF usage tracer: abidep trace (pinned and live) and
# abidep report. Every access below is made on purpose and the report must
# hold exactly those: no more, no fewer. Run by `make check-vm`:
#	tests/vm/run tests/guest/trace.sh
# Ends with "trace: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
KMOD=$ABIDEP_REPO/build/kmod/$KVER
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
DB=/tmp/usage.db
PIN=/sys/fs/bpf/abidep

# The report's rows as "exe uid cgroup op count errors", sorted, for one file.
rows() {
	"$A" report -j --db "$1" | python3 -c '
import json, sys
want = sys.argv[1]
out = []
for e in json.load(sys.stdin):
    for u in e["users"]:
        if want in e["files"]:
            out.append("%s %d %s %s %d %d" % (u["exe"], u["uid"], u["cgroup"], u["op"], u["count"], u["errors"]))
print("\n".join(sorted(out)))' "$2"
}

# Every file the report names, one a line, sorted.
files() {
	"$A" report -j --db "$1" | python3 -c '
import json, sys
print("\n".join(sorted({f for e in json.load(sys.stdin) for f in e["files"]})))'
}

# The accesses to $F each pinned section makes, counted by hand: the 9 keys
# of $expect below, each once. Plus one to a file that is not watched.
access_f() {
	cat $F >/dev/null					# cat: open, read
	sh -c "exec 3< $F"					# sh: open only
	busybox cat $F >/dev/null				# busybox applet: open, read
	mkdir -p /sys/fs/cgroup/abidep-test			# another cgroup
	sh -c "echo \$\$ > /sys/fs/cgroup/abidep-test/cgroup.procs; exec cat $F" >/dev/null
	setpriv --reuid=65534 --regid=65534 --clear-groups cat $F >/dev/null
	cat /sys/devices/system/cpu/cpuidle/current_governor >/dev/null	# not deprecated
}

section "refusals, each with its own exit code"
check "not root: exit 3" sh -c "setpriv --reuid=65534 --regid=65534 --clear-groups $A trace --pin --db /tmp/x.db 2>/tmp/err; test \$? = 3"
check "... saying what it needs" grep -q 'needs root, or CAP_BPF and CAP_PERFMON' /tmp/err
umount /sys/fs/bpf
check "no bpffs: exit 5" sh -c "$A trace --pin --db /tmp/x.db 2>/tmp/err; test \$? = 5"
check "... saying how to mount it" grep -q 'mount -t bpf bpf /sys/fs/bpf' /tmp/err
mount -t bpf -o mode=700 bpf /sys/fs/bpf
check "unwritable DB: exit 6" sh -c "$A trace --pin --db /proc/no/such.db 2>/tmp/err; test \$? = 6"
check "... and nothing left pinned" test ! -e $PIN
check "--sync with nothing pinned: exit 8" sh -c "$A trace --sync --db $DB 2>/dev/null; test \$? = 8"
check "bad --interval: exit 2" sh -c "$A trace --interval -1 2>/dev/null; test \$? = 2"
for q in -1 16385 x ''; do
	check "bad --uid-quota '$q': exit 2, naming the range" sh -c "$A trace --pin --uid-quota '$q' --db $DB 2>/tmp/err; test \$? = 2 &&
		grep -q 'uid-quota takes a number of keys from 0 (no bound) to 16384' /tmp/err && test ! -e $PIN"
done
for m in 0 262145 x; do
	check "bad --max-entries '$m': exit 2, naming the range" sh -c "$A trace --pin --max-entries '$m' --db $DB 2>/tmp/err; test \$? = 2 &&
		grep -q 'max-entries takes a number of keys from 1 to 262144' /tmp/err && test ! -e $PIN"
done

section "hosts by machine id; an entry whose file never existed is never ready"
# Before abidep.ko is loaded: rc's current_protocol (an alias the module
# makes) does not exist, and a program opening it gets ENOENT, unseen.
APP=316a57bd6edc465e9a50369058c57416	# tools/lib/hostid.c's ABIDEP_APP_ID
KEY=abidep-vm/$(systemd-id128 machine-id --app-specific=$APP | cut -c1-16)
WT=/tmp/watch-tables
W=/tmp/watch.db
mkdir -p $WT
cp $ABIDEP_REPO/migration-tables/sysfs-* $WT/
# current_governor_ro made due, as rc's current_protocol is.
sed -i 's/^Deprecated:\t2020-04$/&\nRemove-after:\t2021-01/' $WT/sysfs-cpuidle
check "trace --pin, abidep.ko not loaded" "$A" trace --pin --db $W -t $WT
check "a legacy program's open of rc0/current_protocol fails: ENOENT" \
	sh -c "! cat /sys/class/rc/rc0/current_protocol 2>/tmp/enoent && grep -q 'No such file' /tmp/enoent"
check "trace --sync, trace --stop" sh -c "'$A' trace --sync --db $W && '$A' trace --stop --db $W"
check "the session's host: its name and machine id ($KEY)" \
	same "$(sqlite3 $W 'SELECT host, host_id FROM sessions')" "$KEY|machine-id"
check "... rc's alias recorded as looked for at each sync, no file" \
	same "$(sqlite3 $W "SELECT count(*), max(files) FROM watched WHERE what = '/sys/class/rc/rcN/current_protocol'")" "1|0"
check "... current_governor_ro as watched, 1 file" \
	same "$(sqlite3 $W "SELECT count(*), max(files) FROM watched WHERE what = '$F'")" "1|1"
"$A" check -j -d $W -t $WT --entry current_protocol --quiet-days 0 >/tmp/wc.json
st=$?
check "check of rc's current_protocol: no-data (exit 12), never ready" \
	sh -c "test $st = 12 && grep -q '\"verdict\": *\"no-data\"' /tmp/wc.json"
check "... the file did not exist on this host: load abidep.ko" \
	grep -q "the file did not exist (abidep.ko makes it: load the module with 'modprobe abidep'.* on 1 of 1 host: $KEY" /tmp/wc.json
"$A" check -d $W -t $WT --entry current_governor_ro --quiet-days 0 >/tmp/wc.txt
check "check of current_governor_ro, watched throughout and unread: ready (exit 0)" test $? = 0
cp /etc/machine-id /tmp/machine-id.saved
# A cloned image whose machine id was never set: the boot's id instead.
echo 00000000000000000000000000000000 >/etc/machine-id
BKEY=abidep-vm/$(systemd-id128 boot-id --app-specific=$APP | cut -c1-16)
check "an all-zero /etc/machine-id: trace --pin still works" sh -c "'$A' trace --pin --db /tmp/clone.db 2>/tmp/clone.err"
check "... warning that the host is keyed by its boot id" \
	grep -q '^abidep: warning: /etc/machine-id is empty or not set up: this host is keyed by its boot id' /tmp/clone.err
check "... and keyed so ($BKEY)" same "$(sqlite3 /tmp/clone.db 'SELECT host, host_id FROM sessions')" "$BKEY|boot-id"
check "trace --stop" "$A" trace --stop --db /tmp/clone.db
# Two machines of one name: each traced with its machine id, then merged.
for m in 1 2; do
	printf '%032d\n' $m$m$m >/etc/machine-id
	"$A" trace --pin --db /tmp/m$m.db && "$A" trace --stop --db /tmp/m$m.db
done
cp /tmp/machine-id.saved /etc/machine-id
check "two hosts named abidep-vm merged: kept apart, and said" sh -c "'$A' merge /tmp/m1.db /tmp/m2.db -o /tmp/m.db |
	grep -q '^2 hosts named abidep-vm, kept apart by machine id: abidep-vm/[0-9a-f]\{16\} abidep-vm/[0-9a-f]\{16\}\$'"
check "... two hosts in the fleet DB" same "$(sqlite3 /tmp/m.db 'SELECT count(DISTINCT host) FROM sessions')" 2

section "boot stages: --pin --early writes no DB; the first sync records the session from the pin"
E=/tmp/early.db
check "--early without --pin: exit 2" sh -c "$A trace --early --db $E 2>/tmp/err; test \$? = 2 && grep -q 'early goes with --pin only' /tmp/err"
check "trace --pin --early (no udev has run here: early)" "$A" trace --pin --early --db $E
check "... no DB yet" test ! -e $E
check "... the pin's stage recorded for the syncs, with its reading of the clocks" grep -q ' early [0-9]* [0-9]* [0-9]* [0-9]* [01]$' /run/abidep/pinned-stage
sleep 2
check "trace --sync writes the session" "$A" trace --sync --db $E
check "... stage early, started at the pin (before its first sync), seconds after boot" \
	same "$(sqlite3 $E 'SELECT stage, started < last_sync, boot_offset > 0 FROM sessions')" "early|1|1"
check "trace --stop forgets the record" sh -c "'$A' trace --stop --db $E && test ! -e /run/abidep/pinned-stage"
# systemd-udevd's control socket: udev has started, coldplug may have run.
mkdir -p /run/udev && touch /run/udev/control
check "pinned after udev started: stage late" sh -c "'$A' trace --pin --db $E && '$A' trace --stop --db $E &&
	test \"\$(sqlite3 $E 'SELECT stage FROM sessions ORDER BY started DESC LIMIT 1')\" = late"
rm -f /run/udev/control
check "check counts the window's sessions by stage" sh -c "'$A' check -j -d $E --quiet-days 1 --entry current_governor_ro |
	grep -q '\"sessions_by_stage\": *{\"initramfs\": *0, *\"early\": *1, *\"late\": *1, *\"unknown\": *0}'"

section "pinned: load, pin, exit; counting goes on"
check "abidep.ko loads (module aliases are watched too)" insmod "$KMOD/abidep.ko"
check "trace --pin exits 0" "$A" trace --pin --db $DB
check "programs, links and maps are pinned" test -e $PIN/usage -a -e $PIN/link_abidep_open -a -e $PIN/prog_abidep_read
check "pins are 0600, the directory 0700" sh -c "test \$(stat -c %a $PIN) = 700 && ! find $PIN -mindepth 1 ! -perm 600 | grep -q ."
check "bpftool shows readable keys (BTF)" sh -c "bpftool map dump pinned $PIN/watched | grep -q file_id"
check "a second --pin is refused: exit 8" sh -c "$A trace --pin --db $DB 2>/dev/null; test \$? = 8"

access_f
cat /sys/kernel/abidep/../../devices/system/cpu/online >/dev/null	# not deprecated

check "trace --sync" "$A" trace --sync --db $DB
expect="/usr/bin/busybox 0 / open 1 0
/usr/bin/busybox 0 / read 1 0
/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0
/usr/bin/cat 0 /abidep-test open 1 0
/usr/bin/cat 0 /abidep-test read 1 0
/usr/bin/cat 65534 / open 1 0
/usr/bin/cat 65534 / read 1 0
/usr/bin/dash 0 / open 1 0"
got=$(rows $DB $F)
check "exactly the 9 kinds of access made, each once" test "$got" = "$expect"
[ "$got" = "$expect" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "no file but the one accessed" test "$(files $DB)" = "$F"
check "the table entry is named" sh -c "$A report --db $DB | grep -q 'current_governor_ro'"
check "the package owning cat is named" sh -c "$A report -j --db $DB | grep -q '\"package\": *\"coreutils\"'"
check "status shows what was seen" sh -c "$A trace --status | grep -q 'accesses since the last sync, 0 not recorded'"
check "the usage hash a sync put in place has BTF, for bpftool's readable keys" \
	sh -c "bpftool map show pinned $PIN/usage_keys | grep -q 'btf_id'"

section "a device that appears after the tracer started"
check "modprobe rc-loopback (abidep adds current_protocol)" modprobe rc-loopback
sleep 1
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
check "the pinned tracer learns of it on --sync" "$A" trace --sync --db $DB
cat "$RC/current_protocol" >/dev/null		# cat: open, read via the alias
cat "$RC/protocols" >/dev/null			# the new name: not watched
check "trace --sync" "$A" trace --sync --db $DB
check "the alias read is recorded" test "$(rows $DB "$RC/current_protocol")" = "/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0"
check "the governor counts did not move" test "$(rows $DB $F)" = "$expect"

section "stop"
check "trace --stop" "$A" trace --stop --db $DB
check "nothing pinned any more" test ! -e $PIN
cat $F >/dev/null
check "accesses after --stop are not recorded" test "$(rows $DB $F)" = "$expect"

# Wait (30 s at most) for a live tracer's header in $1: it prints it once it
# watches (loading takes 1-3 s in the guest).
wait_header() {
	i=0
	while ! grep -q '^OP ' "$1" && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

section "live: a device plugged in later, and kill -9"
rmmod rc-loopback
DB2=/tmp/live.db
"$A" trace --db $DB2 --interval 1 >/tmp/live.out 2>&1 &
tracer=$!
wait_header /tmp/live.out
check "the live tracer watches (its header)" grep -q '^OP ' /tmp/live.out
check "the live tracer runs" kill -0 $tracer
modprobe rc-loopback
sleep 2						# uevent, then the alias, then a refresh
RC=$(ls -d /sys/class/rc/rc* | head -n 1)
cat "$RC/current_protocol" >/dev/null
write_err=0
echo bogus >"$RC/current_protocol" 2>/dev/null || write_err=1
check "a bad write through the alias fails" test $write_err = 1
sleep 3						# at least one sync
kill -9 $tracer
wait $tracer 2>/dev/null
check "after kill -9 the DB is intact" test "$(sqlite3 $DB2 'PRAGMA integrity_check')" = ok
check "the late device's alias was watched and recorded, the failed write too" \
	test "$(rows $DB2 "$RC/current_protocol")" = "/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0
/usr/bin/dash 0 / open 1 0
/usr/bin/dash 0 / write 1 1"
check "the live tracer left nothing pinned" test ! -e $PIN

section "the DB keeps history across tracer runs"
"$A" trace --db $DB2 --duration 4 --interval 1 >/tmp/live2.out 2>&1 &
tracer=$!
wait_header /tmp/live2.out
check "the second tracer started watching" grep -q '^OP ' /tmp/live2.out
cat "$RC/current_protocol" >/dev/null
wait $tracer
check "a second session adds up" test "$(rows $DB2 "$RC/current_protocol" | head -n 1)" = "/usr/bin/cat 0 / open 2 0"
# The tracer's syncs write the daily history through the store: each key
# and session's days add up to its row, uses and errors alike.
days_off() {
	sqlite3 "$1" "SELECT count(*) FROM usage u WHERE
		(u.count, u.errors, u.swept) IS NOT (SELECT sum(d.count), sum(d.errors), sum(d.swept)
		 FROM usage_days d WHERE (d.host, d.session, d.path, d.op, d.uid, d.cgroup_id, d.exe) =
		 (u.host, u.session, u.path, u.op, u.uid, u.cgroup_id, u.exe))"
}
check "the daily history has each session's days" \
	test "$(sqlite3 $DB2 'SELECT count(DISTINCT session) FROM usage_days')" = 2
check "... and they add up to every row, uses and errors" test "$(days_off $DB2)" = 0

section "kprobes (--kprobe, the fallback where fexit cannot attach): the same accounting"
DB3=/tmp/kprobe.db
check "trace --pin --kprobe exits 0" "$A" trace --pin --kprobe --db $DB3
check "the pinned programs are kprobes, not fexit" sh -c "bpftool prog show pinned $PIN/prog_abidep_kr_read | grep -q kprobe && test ! -e $PIN/prog_abidep_read"
access_f
cat "$RC/current_protocol" >/dev/null
echo bogus >"$RC/current_protocol" 2>/dev/null
check "trace --stop" "$A" trace --stop --db $DB3
got=$(rows $DB3 $F)
check "exactly the 9 kinds of access made, each once" test "$got" = "$expect"
[ "$got" = "$expect" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "the alias: reads counted, the failed write as an error" \
	test "$(rows $DB3 "$RC/current_protocol")" = "/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0
/usr/bin/dash 0 / open 1 0
/usr/bin/dash 0 / write 1 1"
check "no file but those accessed" test "$(files $DB3)" = "$(printf '%s\n' "$RC/current_protocol" $F | sort)"

section "one slot for all files (the watched hash behind it), a binary attribute"
# --slots 1: every watched file but one is found through the watched hash.
# The PCI host bridge's config is a binary attribute (sysfs_kf_bin_read()).
PCI=/sys/bus/pci/devices/0000:00:00.0/config
cat >/tmp/bin-table <<EOT
What:		$PCI
Date:		December 2026
Contact:	abidep tests
Status:		deprecated
Deprecated:	2026-01-01
Remove-after:	2027-01-01
Replaced-by:	/sys/bus/pci/devices/0000:00:00.0/vendor
Source:		tests/guest/trace.sh
Description:
		A binary attribute, watched for the test.
EOT
DB4=/tmp/slots.db
check "trace --pin --slots 1 exits 0" "$A" trace --pin --slots 1 --db $DB4 -t "$ABIDEP_REPO/migration-tables" -t /tmp/bin-table
check "its one slot says that more files share it" \
	sh -c "bpftool map dump pinned $PIN/slots | grep -q '\"more\": 1'"
# The syncs after it watch the tables it was pinned with: the timer's (no
# -t), and one given other tables, which is told so. The accesses below
# would not be counted were the PCI file's table dropped.
check "the pin remembers its tables" grep -qx /tmp/bin-table /run/abidep/pinned-tables
check "a sync with no -t (the timer's)" "$A" trace --sync --db $DB4
check "a sync with other tables (-t the default alone)" sh -c "$A trace --sync --db $DB4 -t '$ABIDEP_REPO/migration-tables' 2>/tmp/err"
check "... is told it watches the pinned ones" grep -qF "the pinned tracer watches the tables it was pinned with ($(realpath "$ABIDEP_REPO/migration-tables"), /tmp/bin-table), not those of -t" /tmp/err
access_f
cat "$RC/current_protocol" >/dev/null
cat $PCI >/dev/null				# cat: open, one read with data
dd if=$PCI of=/dev/null bs=64 count=2 status=none	# dd: open, two reads
check "trace --stop" "$A" trace --stop --db $DB4
check "... which forgets the tables" test ! -e /run/abidep/pinned-tables
got=$(rows $DB4 $F)
check "exactly the 9 kinds of access made, each once" test "$got" = "$expect"
[ "$got" = "$expect" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "the alias too" test "$(rows $DB4 "$RC/current_protocol")" = "/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0"
got=$(rows $DB4 $PCI)
want="/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0
/usr/bin/dd 0 / open 1 0
/usr/bin/dd 0 / read 2 0"
check "the binary attribute: each read with data" test "$got" = "$want"
[ "$got" = "$want" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
check "no file but those accessed" test "$(files $DB4)" = "$(printf '%s\n' "$RC/current_protocol" $F $PCI | sort)"

section "fexit cannot attach (its trampoline is full): kprobes, by themselves"
# A trampoline takes at most 38 programs on x86-64; tramp-fill attaches empty
# fentry programs to kernfs_fop_open until the kernel refuses one (E2BIG).
FILL=/sys/fs/bpf/abidep-test-fill
check "build the trampoline filler" make -s -C "$ABIDEP_REPO/tests" OUT=/tmp tramp-fill
check "kernfs_fop_open's trampoline is full" sh -c "/tmp/tramp-fill kernfs_fop_open $FILL | tee /tmp/fill.out | grep -q 'Argument list too long'"
sed 's/^/# /' /tmp/fill.out
DB5=/tmp/fallback.db
check "trace --pin exits 0" sh -c "$A trace --pin --db $DB5 2>/tmp/err"
check "... saying that fexit could not attach to kernfs_fop_open and kprobes are used" \
	grep -qx 'abidep: fexit cannot attach to kernfs_fop_open (Argument list too long): using kprobes' /tmp/err
check "the pinned programs are kprobes, not fexit" sh -c "bpftool prog show pinned $PIN/prog_abidep_kr_read | grep -q kprobe && test ! -e $PIN/prog_abidep_read"
access_f
check "trace --stop" "$A" trace --stop --db $DB5
got=$(rows $DB5 $F)
check "exactly the 9 kinds of access made, each once" test "$got" = "$expect"
[ "$got" = "$expect" ] || { echo "# got:"; echo "$got" | sed 's/^/#   /'; }
rm -rf $FILL
# bpffs frees an unlinked pin after an RCU grace period: give it 5 s.
check "the filler's programs are gone with their pins" sh -c "for i in \$(seq 50); do bpftool prog show | grep -q tramp_fill || exit 0; sleep 0.1; done; exit 1"

section "containers gone before a sync: one walk of /sys/fs/cgroup, not one each"
DB6=/tmp/gone.db
check "trace --pin" "$A" trace --pin --db $DB6
for i in $(seq 20); do
	mkdir /sys/fs/cgroup/abidep-gone-$i
	sh -c "echo \$\$ > /sys/fs/cgroup/abidep-gone-$i/cgroup.procs; exec cat $F" >/dev/null
	rmdir /sys/fs/cgroup/abidep-gone-$i
done
check "a sync names what it can" strace -f -e trace=openat -o /tmp/gone.strace "$A" trace --sync --db $DB6
walks=$(grep -c '"/sys/fs/cgroup", O_RDONLY' /tmp/gone.strace)
check "20 cgroups gone: /sys/fs/cgroup walked once ($walks)" test "$walks" = 1
check "their 40 accesses are all recorded" test "$(rows $DB6 $F | awk '{s += $5} END {print s}')" = 40
check "trace --stop" "$A" trace --stop --db $DB6

section "a container's own sysfs mount (another superblock, the same files)"
DB7=/tmp/netns.db
check "trace --pin" "$A" trace --pin --db $DB7
# A new network namespace mounts a sysfs superblock of its own.
unshare -n sh -c "mkdir -p /tmp/ns-sys && mount -t sysfs sysfs /tmp/ns-sys &&
	stat -c %d /tmp/ns-sys /sys >/tmp/ns-devs && exec cat /tmp/ns-sys/${F#/sys/}" >/dev/null
check "it is another superblock" test "$(sort -u /tmp/ns-devs | wc -l)" = 2
check "trace --stop" "$A" trace --stop --db $DB7
check "its open and its read are recorded" test "$(rows $DB7 $F)" = "/usr/bin/cat 0 / open 1 0
/usr/bin/cat 0 / read 1 0"

finish trace
