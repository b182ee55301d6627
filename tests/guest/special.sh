#!/bin/sh
# The deprecated files outside sysfs (migration-tables/sysctl-net-ipv6-neigh,
# procfs-oom_adj, cgroup-v1-memory), in the guest, with real clients:
# sysctl(8) -w and -a, a shell writing /proc/self/oom_adj, cat and echo in a
# cgroup v1 memory hierarchy mounted after the tracer started (6.1; Debian's
# 6.12 has no cgroup v1 memory controller, and the tracer must say so). In
# fexit and in kprobe mode, every count is checked exactly against what the
# clients did, the twins that are not deprecated must not count, and the
# kernel's own warnings show the files were the deprecated ones.
#	tests/vm/run --timeout 600 tests/guest/special.sh
# Ends with "special: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=$ABIDEP_REPO/build/abidep
TABLES="-t $ABIDEP_REPO/migration-tables"
W=/tmp/special
mkdir -p $W
ND=/proc/sys/net/ipv6/neigh
MEMCG1="kmem.limit_in_bytes kmem.tcp.limit_in_bytes soft_limit_in_bytes oom_control pressure_level move_charge_at_immigrate"
# Debian's 6.12: CONFIG_MEMCG_V1 is not set. The debug kernel has no IPv6.
case $KVER in 6.1.*) v1=yes ;; *) v1=no ;; esac
v6=no
[ -d $ND ] && v6=yes

# Counts in DB $1: "WHAT-SUFFIX EXE OP COUNT ERRORS" for every row, sorted.
counts() {
	"$A" report -j --db "$1" $TABLES | python3 -c '
import json, sys
rows = {}
for ent in json.load(sys.stdin):
    for u in ent["users"]:
        k = (ent["what"].rsplit("/", 1)[1], u["exe"].rsplit("/", 1)[1], u["op"])
        c = rows.setdefault(k, [0, 0])
        c[0] += u["count"]; c[1] += u["errors"]
for k in sorted(rows):
    print(*k, *rows[k])'
}

# The clients, in both modes; each appends what it did to $W/want.
clients() {
	: >$W/want
	[ $v6 = yes ] && neigh6
	oom_adj
	[ $v1 = yes ] && memcg1
	return 0
}

neigh6() {
	# sysctl -w: one open, one write of the deprecated file.
	sysctl -q -w net.ipv6.neigh.default.retrans_time=100
	echo "retrans_time sysctl open 1 0" >>$W/want
	echo "retrans_time sysctl write 1 0" >>$W/want
	# sysctl -a skips both names (procps's list of deprecated keys).
	sysctl -a >/dev/null 2>&1
	# ... --deprecated reads them, in every neigh directory.
	sysctl -a --deprecated >/dev/null 2>&1
	n=$(ls $ND | wc -l)
	for f in base_reachable_time retrans_time; do
		echo "$f sysctl open $n 0" >>$W/want.$f
		echo "$f sysctl read $n 0" >>$W/want.$f
	done
	# cat: an open and a read each (the read at the end returns 0: not counted).
	cat $ND/lo/base_reachable_time $ND/default/base_reachable_time >/dev/null
	echo "base_reachable_time cat open 2 0" >>$W/want
	echo "base_reachable_time cat read 2 0" >>$W/want
	# Not deprecated: the _ms twins and ipv4's files of the same name.
	cat $ND/default/retrans_time_ms /proc/sys/net/ipv4/neigh/default/retrans_time >/dev/null
}

oom_adj() {
	# Its reads and writes (it has no open of its own).
	sh -c 'echo 0 >/proc/self/oom_adj; echo 0 >/proc/self/oom_adj' 2>/dev/null
	echo "oom_adj dash write 2 0" >>$W/want
	cat /proc/self/oom_adj /proc/self/oom_score_adj >/dev/null
	echo "oom_adj cat read 1 0" >>$W/want
	# A write refused: an unprivileged user lowering it.
	setpriv --reuid=1000 --regid=1000 --clear-groups sh -c 'echo -5 >/proc/self/oom_adj' 2>/dev/null
	echo "oom_adj dash write 1 1" >>$W/want.nobody
}

memcg1() {
	# Mounted after the tracer started.
	mkdir -p $W/m && mount -t cgroup -o memory none $W/m && mkdir -p $W/m/t
	cat $W/m/t/memory.oom_control $W/m/t/memory.soft_limit_in_bytes >/dev/null
	echo 1G >$W/m/t/memory.kmem.limit_in_bytes
	echo 1G >$W/m/t/memory.kmem.tcp.limit_in_bytes
	echo 1 >$W/m/t/memory.move_charge_at_immigrate
	cat $W/m/t/memory.move_charge_at_immigrate $W/m/t/memory.limit_in_bytes >/dev/null
	for f in oom_control soft_limit_in_bytes; do
		echo "memory.$f cat open 1 0" >>$W/want
		echo "memory.$f cat read 1 0" >>$W/want
	done
	for f in kmem.limit_in_bytes kmem.tcp.limit_in_bytes move_charge_at_immigrate; do
		echo "memory.$f dash open 1 0" >>$W/want
		echo "memory.$f dash write 1 0" >>$W/want
	done
	echo "memory.move_charge_at_immigrate cat open 1 0" >>$W/want
	echo "memory.move_charge_at_immigrate cat read 1 0" >>$W/want
	rmdir $W/m/t
	umount $W/m
}

# want: the clients' rows merged (same what, exe and op: counts added).
want() {
	cat $W/want $W/want.* | awk '{ k = $1 " " $2 " " $3; c[k] += $4; e[k] += $5 }
		END { for (k in c) print k, c[k], e[k] }' | sort
}

for mode in fexit kprobe; do
	section "$mode"
	DB=$W/$mode.db
	rm -f $W/want*
	opt=
	[ $mode = kprobe ] && opt=--kprobe
	check "trace --pin $opt" sh -c "$A trace --pin $opt --db $DB $TABLES 2>$W/pin.err"
	check "a deprecated path it cannot watch is named, not fatal (/proc/i8k)" \
		grep -q '^abidep: /proc/i8k (.*procfs-i8k:[0-9]*): outside sysfs, and not a file the tracer knows there: not watched$' $W/pin.err
	if [ $v6 = no ]; then
		check "the neighbour sysctls: said to be absent from this kernel (no IPv6)" \
			test "$(grep -c 'neigh/<interface>/.*: not on this kernel (no IPv6): not watched' $W/pin.err)" = 2
	fi
	if [ $v1 = yes ]; then
		check "no special left unwatched" sh -c "! grep -q 'not on this kernel' $W/pin.err"
	else
		for f in $MEMCG1; do
			check "memory.$f: said to be absent from this kernel, not watched" \
				grep -q "memory.$f (.*): not on this kernel (no cgroup v1 memory controller (CONFIG_MEMCG_V1)): not watched" $W/pin.err
		done
		check "... and mounting cgroup v1 memory fails here" \
			sh -c "mkdir -p $W/m && ! mount -t cgroup -o memory none $W/m 2>/dev/null"
	fi
	clients
	check "trace --stop" "$A" trace --stop --db $DB $TABLES
	counts $DB >$W/got
	want >$W/wanted
	check "every count exact, the twins not counted" sh -c "diff $W/wanted $W/got >$W/diff || { tail -n 8 $W/diff; false; }"
done

section "the kernel's own warnings name the same files"
dmesg >$W/dmesg
[ $v6 = no ] || check "ICMPv6: sysctl is using the deprecated retrans_time" \
	grep -q "process \`sysctl' is using deprecated sysctl (syscall) net.ipv6.neigh.default.retrans_time" $W/dmesg
check "oom_adj is deprecated (a shell wrote it)" grep -q '^\[.*\] sh ([0-9]*): /proc/[0-9]*/oom_adj is deprecated' $W/dmesg
if [ $v1 = yes ]; then
	check "kmem.limit_in_bytes is deprecated" grep -q 'kmem.limit_in_bytes is deprecated' $W/dmesg
	check "move_charge_at_immigrate is deprecated" grep -q 'Cgroup memory moving (move_charge_at_immigrate) is deprecated' $W/dmesg
fi
check "the kernel log has no report" sh -c "! grep -qE 'BUG:|WARNING:|Oops' $W/dmesg"
finish special
