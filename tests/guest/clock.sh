#!/bin/sh
# Guest tests of times on each boot's own clock (tools/lib/bootclock.h):
# the guest's wall clock stepped for real (date -s, which leaves the kernel
# clock unsynchronized; adjtimex(2) to say it is synchronized), before and
# after a sync, with and without a reader of a deprecated file, and the
# verdict of abidep check on each DB: blocked where a program read the
# file, never ready on a span the tracer did not run. One boot; the cases
# that need several boots are tests/boot/clock.sh's, which runs this
# script in each ("boot N"). Run by `make check-vm`:
#	tests/vm/run tests/guest/clock.sh
# Ends with "clock: N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"

A=${ABIDEP:-$ABIDEP_REPO/build/abidep}
KMOD=$ABIDEP_REPO/build/kmod/$KVER
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
T=/tmp/tables
DAY=86400

# The wall clock is right at boot (QEMU's RTC is the host's): real time is
# that plus the boot's own clock since, whatever the wall clock says later.
boottime() {
	cut -d' ' -f1 /proc/uptime | cut -d. -f1
}
W0=$(date +%s)
B0=$(boottime)
real() {
	echo $((W0 + $(boottime) - B0))
}

# Set the wall clock to real time plus $1 seconds: not synchronized (date
# -s clears the kernel's synchronized state), or synchronized with $2 = sync.
clock() {
	date -s @$(($(real) + $1)) >/dev/null
	[ "${2:-}" = sync ] || return 0
	# adjtimex(ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR): no STA_UNSYNC,
	# the error 0, as an NTP daemon leaves it; TIME_OK after.
	python3 -c '
import ctypes, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
struct.pack_into("I", buf, 0, 0x1c)
struct.pack_into("qq", buf, 24, 0, 0)
struct.pack_into("i", buf, 40, 0)
sys.exit(libc.adjtimex(buf) != 0)'
}

# check -j on $1's cpuidle entry (due in $T): "VERDICT|EXES|CLOCK" where
# EXES are the blockers' executables and CLOCK the host's clock reason
# (why its clock was wrong, "-" if none).
judge() {
	"$A" check -j -d "$1" -t $T --entry current_governor_ro --quiet-days 30 2>/dev/null |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
e = d["entries"][0]
u = d["db"]["uncovered_hosts"]
why = [h["clock"] for h in u if h["clock"]]
print("%s|%s|%s" % (e["verdict"], ",".join(sorted({b["exe"] for b in e["blockers"]})),
                    why[0] if why else "-"))'
}

# The last use of $F in $1, unix seconds.
last_use() {
	sqlite3 "$1" "SELECT max(last_seen) FROM usage WHERE path = '$F'"
}

# Within $3 seconds: $1 and $2.
near() {
	d=$(($1 - $2))
	[ "${d#-}" -le "$3" ] || { echo "$1 and $2 are $d s apart"; return 1; }
}

pin() {
	"$A" trace --pin -d "$1" >/dev/null 2>&1
}

sync_db() {
	"$A" trace --sync -d "$1" >/dev/null 2>&1
}

stop() {
	"$A" trace --stop -d "$1" >/dev/null 2>&1
}

read_f() {
	cat $F >/dev/null
}

# stepped DB FROM TO READ: the wall clock at real time + FROM seconds, the
# tracer pinned on DB, $F read if READ is "read", a sync; the clock at
# real time + TO, a sync, the tracer stopped; then the clock right again.
# FROM and TO may end in ":sync": the clock then synchronized.
stepped() {
	clock "${2%:sync}" "$(echo "$2" | sed -n 's/.*:sync$/sync/p')"
	pin "$1"
	[ "$4" != read ] || read_f
	sync_db "$1"
	clock "${3%:sync}" "$(echo "$3" | sed -n 's/.*:sync$/sync/p')"
	sync_db "$1"
	stop "$1"
	clock 0
}

section "setup"
mkdir -p $T
sed 's/^Deprecated:\t2020-04$/&\nRemove-after:\t2021-01/' "$ABIDEP_REPO/migration-tables/sysfs-cpuidle" >$T/sysfs-cpuidle
check "the cpuidle entry is due in the test's tables" grep -q '^Remove-after:' $T/sysfs-cpuidle
check "the guest's clock is unsynchronized after date -s" sh -c "date -s @$(real) >/dev/null &&
	python3 -c 'import ctypes, sys; sys.exit(ctypes.CDLL(None).adjtimex(ctypes.create_string_buffer(256)) != 5)'"

# The cases on one boot. Each its own DB and pin, the clock right at its start.
one_boot() {
	section "pinned 60 days behind; a reader; a sync; the clock corrected; a sync"
	db=/tmp/behind-read.db
	stepped $db $((-60 * DAY)) 0 read
	check "blocked by the reader, its clock stepped forward (no wrong clock)" \
		same "$(judge $db)" "blocked|/usr/bin/cat|-"
	check "... the use re-dated to when it was, not 60 days back" near "$(last_use $db)" "$(real)" 600
	check "... the step recorded with the session" \
		same "$(sqlite3 $db 'SELECT count(*), sum(synced) FROM clock')" "2|0"
	check "... report shows the step" sh -c "'$A' report -d $db | grep -q 'stepped +60 days at .* (not synchronized); the boot.s clock was never synchronized'"

	section "pinned early 60 days behind; the clock corrected before the first sync; no reader"
	db=/tmp/behind-quiet.db
	clock $((-60 * DAY))
	"$A" trace --pin --early >/dev/null 2>&1
	sleep 2
	clock 0
	"$A" trace --pin --adopt -d $db >/dev/null 2>&1
	stop $db
	check "no-data: the tracer ran for seconds, not through the window" \
		same "$(judge $db 2>/dev/null)" "no-data||-"
	check "... the reason: it did not run through the window" sh -c \
		"'$A' check -d $db -t $T --entry current_governor_ro 2>/dev/null | grep -q 'the tracer did not run through the quiet window'"
	check "... the session starts at the pin as its boot's clock places it" near \
		"$(sqlite3 $db 'SELECT started FROM sessions')" "$(real)" 600

	# The pin's record, refreshed by an adopt before the first sync (as
	# in a boot through an initramfs), is written again at every sync:
	# placed again with the rest, not beside it.
	section "pinned early; a device added, adopted (its record refreshed); a sync; the clock an hour on, synchronized; a sync"
	db=/tmp/refreshed.db
	if insmod "$KMOD/abidep.ko" 2>/dev/null || grep -q '^abidep ' /proc/modules; then
		rmmod rc-loopback 2>/dev/null
		"$A" trace --pin --early >/dev/null 2>&1
		modprobe rc-loopback
		sleep 1
		"$A" trace --pin --early --adopt >/dev/null 2>&1
		sync_db $db
		clock 3600 sync
		check "the sync after the step writes" "$A" trace --sync -d $db
		check "... the device's runs placed by the synchronized reading: two (none, then one file)" \
			same "$(sqlite3 $db "SELECT group_concat(files), min(since) >= $(real) + 3000 FROM
				(SELECT files, since FROM watched WHERE what LIKE '%/current_protocol' ORDER BY since)")" "0,1|1"
		stop $db
		rmmod rc-loopback
		clock 0
	else
		check "abidep.ko loads (for rc-loopback's current_protocol)" false
	fi

	section "right; a reader; a sync; set back 60 days; a sync"
	db=/tmp/back-read.db
	stepped $db 0 $((-60 * DAY)) read
	got=$(judge $db 2>/dev/null)
	check "blocked by the reader (it may have read now)" same "$(echo "$got" | cut -d'|' -f1-2)" "blocked|/usr/bin/cat"
	check "... the host's clock wrong: never synchronized, set back" \
		same "$(echo "$got" | cut -d'|' -f3-)" "boot $(cut -c1-8 /proc/sys/kernel/random/boot_id): its clock, never synchronized, was set back 60 days (which reading was right, nothing tells)"

	section "right; no reader; a sync; set back 60 days; a sync"
	db=/tmp/back-quiet.db
	stepped $db 0 $((-60 * DAY)) -
	check "no-data, naming the wall clock" sh -c "'$A' check -d $db -t $T --entry current_governor_ro |
		grep -q 'no-data): the wall clock was wrong in the quiet window'"

	section "pinned 60 days behind; a reader; a sync; corrected and synchronized; a sync"
	db=/tmp/synced.db
	stepped $db $((-60 * DAY)) 0:sync read
	check "blocked by the reader, the clock right" same "$(judge $db)" "blocked|/usr/bin/cat|-"
	check "... the use placed by the synchronized reading" near "$(last_use $db)" "$(real)" 600
	check "... the step synchronized" same "$(sqlite3 $db 'SELECT synced FROM clock ORDER BY boottime')" "$(printf '0\n1')"

	section "synchronized; a reader; a sync; set back 60 days (not synchronized); a sync"
	db=/tmp/synced-back.db
	stepped $db 0:sync $((-60 * DAY)) read
	check "blocked, the synchronized reading kept (no wrong clock)" same "$(judge $db)" "blocked|/usr/bin/cat|-"
	check "... the use where the synchronized clock put it" near "$(last_use $db)" "$(real)" 600

	section "right; a reader; a sync; set forward 60 days; a sync"
	db=/tmp/ahead.db
	stepped $db 0 $((60 * DAY)) read
	check "blocked by the reader (placed ahead: a use after now counts)" \
		same "$(judge $db 2>/dev/null | cut -d'|' -f1-2)" "blocked|/usr/bin/cat"
}

# tests/boot/clock.sh's boots: the DBs in $ABIDEP_OUT, copied in and out.
boot_part() {
	for d in overlap overlap-read behind; do
		[ -f "$ABIDEP_OUT/$d.db" ] && cp "$ABIDEP_OUT/$d.db" /tmp/$d.db
	done
	case $1 in
	1)
		section "boot 1: pinned right, synced, stopped (overlap, overlap-read); pinned 60 days behind, corrected, synced (behind)"
		for d in overlap overlap-read; do
			clock 0
			pin /tmp/$d.db
			sync_db /tmp/$d.db
			check "$d: boot 1 stopped" stop /tmp/$d.db
		done
		clock $((-60 * DAY))
		pin /tmp/behind.db
		clock 0
		sync_db /tmp/behind.db
		check "behind: boot 1 stopped" stop /tmp/behind.db
		;;
	2)
		section "boot 2: its RTC two hours behind (overlap, overlap-read: a reader); 60 days behind, a reader, never corrected (behind)"
		for d in overlap overlap-read; do
			clock $((-2 * 3600))
			pin /tmp/$d.db
			[ $d = overlap-read ] && read_f
			sync_db /tmp/$d.db
			check "$d: boot 2 stopped" stop /tmp/$d.db
		done
		clock $((-60 * DAY))
		pin /tmp/behind.db
		read_f
		sync_db /tmp/behind.db
		check "behind: boot 2 stopped" stop /tmp/behind.db
		clock 0
		;;
	esac
	for d in overlap overlap-read behind; do
		cp /tmp/$d.db "$ABIDEP_OUT/$d.db"
	done
}

case ${1:-} in
boot)
	boot_part "$2"
	finish "clock-boot$2"
	;;
*)
	one_boot
	finish clock
	;;
esac
