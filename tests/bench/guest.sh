#!/bin/sh
# make bench, inside the guest: what the usage tracer costs a sysfs
# open+read+close loop (build/bench/sysfs_loop), against no tracer, the
# floor of its design and its peers, in one boot; and what it costs the
# same loop on unwatched files of the other file systems it now watches
# deprecated files in (the specials, tools/tracer/trace_special.c):
#
#   none      no tracer
#   floor     empty fentry/fexit programs on exactly abidep's attach points in
#             sysfs's path
#             (build/bench/floor, tests/bench/floor.c)
#   abidep    abidep trace --pin (this tree's build/abidep)
#   previous  the previous release's abidep trace --pin ($BENCH_BASE, when given)
#   bt_inode  bpftrace: opens and reads (kernfs open, sysfs show) of the
#             watched file's inode, counted in two maps
#   bt_attr   bpftrace: the same, each counted by who made it as abidep
#             attributes it (cgroup, uid, comm, inode): the fair peer
#   bt_name   bpftrace: the one-liner that counts opens by comm, the file
#             picked by a name compare
#
# BENCH_ROUNDS rounds; each round runs every side once, in an order rotated
# by one from the last round's, so that each side comes at each place as
# often as the others and drift falls on all of them alike. A side is
# attached, runs BENCH_ITERS iterations on an unwatched file
# (cpuidle/current_governor) and on a watched one (current_governor_ro), by
# BENCH_READERS processes at once, and is detached; then its counts are
# checked against the loop's own: abidep's and previous's `report -j` (the
# usage map synced to a DB of the round), the bpftrace maps, the number of
# tracing links each side attached, and the loop's own opens and reads.
#
# Under the sides in $OTHER_SIDES (not the bpftrace ones: they watch sysfs
# only), after those two loops, three more on unwatched files outside sysfs,
# each of a path one of abidep's special programs runs on:
#   c  a cgroup v2 file ($CGROUP2: its read runs cgroup_seqfile_show, whose
#      fexit serves the cgroup v1 memory files; its open kernfs_fop_open)
#   s  a sysctl ($SYSCTL: its open runs proc_sys_open, whose fentry serves
#      the ipv6 neighbour sysctls)
#   p  a /proc/<pid> file ($PROCPID, oom_adj's neighbour: no program runs)
# abidep's and previous's report must then show none of the loop's accesses
# but the watched file's (check "others": 0).
#
# BENCH_SIDES picks some of the sides (make bench's two-reader run: none,
# floor and abidep).
#
# Writes lines to $BENCH_OUT (default $ABIDEP_OUT/tracer.txt) for
# tests/bench/results.py, which judges them:
#   I KEY VALUE...                      what was run
#   S SIDE FILE ROUND VALUE             a sample: ns per iteration
#                                       (u|w|c|s|p)
#   C SIDE ROUND WHAT EXPECTED GOT      a count check (EXPECTED: N or >=N)
#   M KEY VALUE                         memory (BENCH_MEMORY=1)
#   F MESSAGE                           a side that could not run
# Exits non-zero only when it cannot go on at all.
set -eu
A=$ABIDEP_REPO/build/abidep
B=$ABIDEP_REPO/build/bench
LOOP=$B/sysfs_loop
N=${BENCH_ITERS:-2000}
ROUNDS=${BENCH_ROUNDS:-6}
READERS=${BENCH_READERS:-1}
BASE=${BENCH_BASE:-}
OUT=${BENCH_OUT:-$ABIDEP_OUT/tracer.txt}
UNWATCHED=/sys/devices/system/cpu/cpuidle/current_governor
WATCHED=/sys/devices/system/cpu/cpuidle/current_governor_ro
CGROUP2=/sys/fs/cgroup/cgroup.controllers
SYSCTL=/proc/sys/kernel/ostype
PROCPID=/proc/self/oom_score_adj
FLOOR=/sys/fs/bpf/bench-floor
INO=$(stat -c %i $WATCHED)
SIDES=${BENCH_SIDES:-none floor abidep${BASE:+ previous} bt_inode bt_attr bt_name}
OTHER_SIDES="none floor abidep previous"

: >"$OUT"
rec() { echo "$*" >>"$OUT"; }
fail() {
	rec F "$*"
	echo "guest.sh: $*" >&2
}

# The tracing links attached now (fentry/fexit programs), of every side.
links() { bpftool link show 2>/dev/null | grep -c '^[0-9]*: tracing ' || true; }

# The usage that `report -j` of DB $2 (by abidep $1) shows the loop made of
# the watched file, and of any other: "OPENS READS OTHERS".
report_counts() {
	"$1" report -j --db "$2" 2>/dev/null | python3 -c '
import json, sys
opens = reads = others = 0
for e in json.load(sys.stdin):
    mine = sys.argv[1] in e.get("files", [])
    for u in e["users"]:
        if (u.get("exe") or "").endswith("/sysfs_loop"):
            if not mine:
                others += u["count"]
            elif u["op"] == "open":
                opens += u["count"]
            elif u["op"] == "read":
                reads += u["count"]
print(opens, reads, others)' "$WATCHED" || echo "- - -"
}

BT_INODE="kfunc:kernfs_fop_open /args->inode->i_ino == $INO/ { @opens = count(); }
kretfunc:sysfs_kf_seq_show /args->sf->file->f_inode->i_ino == $INO/ { @reads = count(); }"
BT_ATTR="kfunc:kernfs_fop_open /args->inode->i_ino == $INO/ { @opens[cgroup, uid, comm, args->inode->i_ino] = count(); }
kretfunc:sysfs_kf_seq_show /args->sf->file->f_inode->i_ino == $INO/ { @reads[cgroup, uid, comm, args->sf->file->f_inode->i_ino] = count(); }"
BT_NAME='kfunc:kernfs_fop_open /str(args->file->f_path.dentry->d_name.name) == "current_governor_ro"/ { @[comm] = count(); }'

# bt_attr's count in map @$1 of the loop's accesses, under the loop's
# cgroup, uid and comm and the watched file's inode (lines
# "@opens[CGROUP, UID, COMM, INO]: N"); other users' are not the loop's.
bt_attr_count() {
	awk -v m="@$1[$(cgroup_id), $(id -u), sysfs_loop, $INO]:" \
		'index($0, m) == 1 { n += $NF } END { print n + 0 }' /tmp/bt.out
}

# The cgroup v2 id of this shell's cgroup (the loop runs in it): the inode
# number of its directory.
cgroup_id() { stat -c %i "/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)"; }

# Seconds since boot (of the guest's clock).
now() { cut -d. -f1 /proc/uptime; }

# bpftrace PROGRAM LINKS: start it in the background; back when its LINKS
# probes are attached (bpftrace prints "Attaching" before it attaches), or
# after 5 minutes.
bt=
bt_start() {
	bpftrace -e "$1" >/tmp/bt.out 2>&1 &
	bt=$!
	end=$(($(now) + 300))
	while [ "$(links)" -lt "$2" ]; do
		if [ "$(now)" -gt $end ] || ! kill -0 $bt 2>/dev/null; then
			fail "bpftrace did not attach: $(tr '\n' ' ' </tmp/bt.out)"
			return 0
		fi
		sleep 0.1
	done
}

# Stop it: it prints its maps as it exits. Killed after 2 minutes.
bt_stop() {
	kill -INT $bt 2>/dev/null || true
	end=$(($(now) + 120))
	while kill -0 $bt 2>/dev/null && [ "$(now)" -le $end ]; do
		sleep 0.2
	done
	if kill -0 $bt 2>/dev/null; then
		fail "bpftrace did not exit on SIGINT"
		kill -KILL $bt 2>/dev/null || true
	fi
	wait $bt || true
	bt=
}

start() {
	case $1 in
	none) ;;
	floor) "$B/floor" $FLOOR >/tmp/floor.out 2>&1 || fail "floor: $(tr '\n' ' ' </tmp/floor.out)" ;;
	abidep) "$A" trace --pin --db /tmp/abidep.$2.db >/dev/null || fail "abidep trace --pin failed" ;;
	previous) "$BASE" trace --pin --db /tmp/previous.$2.db >/dev/null || fail "previous trace --pin failed" ;;
	bt_inode) bt_start "$BT_INODE" 2 ;;
	bt_attr) bt_start "$BT_ATTR" 2 ;;
	bt_name) bt_start "$BT_NAME" 1 ;;
	esac
}

# stop SIDE ROUND OPENS READS: detach, and check the side's counts against
# the loop's OPENS and READS of the watched file.
stop() {
	case $1 in
	none) ;;
	floor) rm -rf $FLOOR ;;
	abidep | previous)
		bin=$A
		[ "$1" = abidep ] || bin=$BASE
		"$bin" trace --stop --db /tmp/$1.$2.db >/dev/null || fail "$1 trace --stop failed"
		# shellcheck disable=SC2046 # three numbers
		set -- "$1" "$2" "$3" "$4" $(report_counts "$bin" /tmp/$1.$2.db)
		rec C "$1" "$2" opens "$3" "$5"
		rec C "$1" "$2" reads "$4" "$6"
		rec C "$1" "$2" others 0 "$7"
		;;
	bt_inode)
		bt_stop
		rec C "$1" "$2" opens "$3" "$(sed -n 's/^@opens: //p' /tmp/bt.out | grep . || echo 0)"
		rec C "$1" "$2" reads "$4" "$(sed -n 's/^@reads: //p' /tmp/bt.out | grep . || echo 0)"
		;;
	bt_attr)
		bt_stop
		rec C "$1" "$2" opens "$3" "$(bt_attr_count opens)"
		rec C "$1" "$2" reads "$4" "$(bt_attr_count reads)"
		;;
	bt_name)
		bt_stop
		rec C "$1" "$2" opens "$3" "$(sed -n 's/^@\[sysfs_loop\]: //p' /tmp/bt.out | grep . || echo 0)"
		;;
	esac
}

expected_links() {
	case $1 in
	none) echo 0 ;;
	floor) echo 6 ;;
	# Its 6 on sysfs, and those of the specials it watches here (the
	# files outside sysfs, tools/tracer/trace_special.c): each one it pinned.
	abidep) ls /sys/fs/bpf/abidep | grep -c '^link_' ;;
	previous) echo '>=1' ;;
	bt_inode | bt_attr) echo 2 ;;
	bt_name) echo 1 ;;
	esac
}

# loop FILE: one loop; "NS OPENS READS BYTES", or "- 0 0 0" if it failed.
loop() {
	"$LOOP" "$1" "$N" "$READERS" || echo "- 0 0 0"
}

rec I kernel "$(uname -r)"
rec I cpus "$(nproc)"
rec I iters "$N"
rec I rounds "$ROUNDS"
rec I readers "$READERS"
rec I sides $SIDES
rec I files u:$UNWATCHED w:$WATCHED c:$CGROUP2 s:$SYSCTL p:$PROCPID
rec I bpftrace "$(bpftrace --version)"
"$LOOP" $UNWATCHED 500 >/dev/null	# warm up
"$LOOP" $WATCHED 500 >/dev/null
for f in $CGROUP2 $SYSCTL $PROCPID; do
	"$LOOP" "$f" 500 >/dev/null || fail "the loop cannot read $f"
done
[ "$(links)" = 0 ] || fail "tracing links attached before the first round: $(links)"

# Round r: the sides in the order of the list rotated left by r - 1.
nsides=$(echo $SIDES | wc -w)
for r in $(seq "$ROUNDS"); do
	order=$(echo $SIDES $SIDES | tr ' ' '\n' | sed -n "$(((r - 1) % nsides + 1)),+$((nsides - 1))p" | tr '\n' ' ')
	rec I order "$r" $order
	for s in $order; do
		start "$s" "$r"
		rec C "$s" "$r" links "$(expected_links "$s")" "$(links)"
		# shellcheck disable=SC2046 # the loop's four numbers
		set -- $(loop $UNWATCHED)
		rec S "$s" u "$r" "$1"
		rec C "$s" "$r" loop_opens_u $((N * READERS)) "$2"
		rec C "$s" "$r" loop_reads_u $((N * READERS)) "$3"
		# shellcheck disable=SC2046
		set -- $(loop $WATCHED)
		rec S "$s" w "$r" "$1"
		rec C "$s" "$r" loop_opens_w $((N * READERS)) "$2"
		rec C "$s" "$r" loop_reads_w $((N * READERS)) "$3"
		wopens=$2 wreads=$3
		case " $OTHER_SIDES " in *" $s "*)
			for f in c:$CGROUP2 s:$SYSCTL p:$PROCPID; do
				# shellcheck disable=SC2046
				set -- $(loop "${f#*:}")
				rec S "$s" "${f%%:*}" "$r" "$1"
				rec C "$s" "$r" "loop_opens_${f%%:*}" $((N * READERS)) "$2"
				# Each file is one read(2) of data: less than the
				# loop's buffer.
				rec C "$s" "$r" "loop_reads_${f%%:*}" $((N * READERS)) "$3"
			done
			;;
		esac
		stop "$s" "$r" "$wopens" "$wreads"
		[ "$(links)" = 0 ] || fail "$s left $(links) tracing links attached"
	done
done

# The floor's programs ran at every access: their run counts, with the
# kernel's BPF statistics on (not during the rounds: they cost).
sysctl -qw kernel.bpf_stats_enabled=1
"$B/floor" $FLOOR >/dev/null || fail "floor: the check's attach failed"
# shellcheck disable=SC2046
set -- $(loop $WATCHED)
runs() { bpftool -j prog show pinned $FLOOR/prog_$1 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin).get("run_cnt", 0))' || echo 0; }
rec C floor check run_cnt_open ">=$2" "$(runs kernfs_fop_open)"
rec C floor check run_cnt_show ">=$3" "$(runs sysfs_kf_seq_show)"
rm -rf $FLOOR
sysctl -qw kernel.bpf_stats_enabled=0

# The tracer's memory: the live tracer's peak resident set, watching all
# the tables resolve to, and the kernel memory its maps are charged (the
# hashes preallocate their entries, usage and pending too: all of it, with
# no access counted yet).
if [ "${BENCH_MEMORY:-0}" = 1 ]; then
	"$A" trace --pin --db /tmp/mem.db >/dev/null
	mem=$(bpftool -j map show | python3 -c '
import json, sys
names = {"watched", "usage", "files", "stats", "scratch", "events", "slots", "pending", "dirs", "ranks",
         "listings"}
print(sum(m.get("bytes_memlock", 0) for m in json.load(sys.stdin) if m.get("name") in names))')
	"$A" trace --stop --db /tmp/mem.db >/dev/null
	rec M map_memlock_bytes "$mem"
	"$A" trace -q --db /tmp/rss.db --interval 1 &
	tr=$!
	sleep 4
	"$LOOP" $WATCHED 2000 >/dev/null
	sleep 2
	rec M tracer_rss_kib "$(awk '/VmHWM/ {print $2}' /proc/$tr/status)"
	kill -INT $tr
	wait $tr || true
fi
echo "guest.sh: done, $(grep -c '^S ' "$OUT") samples, $(grep -c '^C ' "$OUT") checks"
