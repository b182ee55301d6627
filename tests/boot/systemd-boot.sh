#!/bin/sh
# Guest half of tests/boot/run: a real boot, systemd as PID 1
# (tests/vm/run --systemd runs this twice, see tests/vm/systemd-init.sh).
#
#   setup   installs the abidep package (its units enabled by its
#           maintainer scripts, as on a distribution), the checkout's
#           abidep.ko with what abidep-dkms installs beside it (its udev
#           rule, its modules-load.d file: DKMS itself is tested by the pkg
#           suite), rc-loopback loaded at boot, and two readers of the
#           deprecated rc0/current_protocol: a udev rule's program (run at
#           coldplug) and an early oneshot unit's;
#   booted  checks that abidep-trace-early.service pinned the tracer before
#           systemd-udevd started, that abidep-trace.service adopted it,
#           and that the report names both readers with their boot stage;
#           and that abidep-metrics.service writes nothing through the
#           prometheus user's symlink in place of its textfile directory.
#
#	tests/vm/run --systemd tests/boot/systemd-boot.sh ABIDEP.deb [initramfs]
#
# initramfs: booted through tests/boot/mkinitrd.sh's initramfs (--initrd),
# where abidep's hook pinned the tracer and the test's reader read the
# file: the session's stage is initramfs, the system's units keep its pin,
# and the report names the initramfs's reader too.
set -u
. "$ABIDEP_REPO/tests/lib.sh"
. "$ABIDEP_REPO/tests/boot/lib.sh"
deb=$1
mode=${2:-early}
kver=$(uname -r)
libexec=/usr/local/libexec/abidep-vm
db=/var/lib/abidep/usage.db
F=/sys/class/rc/rc0/current_protocol

setup() {
	section "setup (before systemd): the package, the module, the readers"
	boot_install_package "$deb"
	for u in abidep-trace-early.service abidep-trace.service abidep-sync.timer; do
		check "the package enabled $u" systemctl is-enabled -q "$u"
	done
	boot_install_kmod /run/km
	cp "$ABIDEP_REPO/kmod/udev/60-abidep.rules" /lib/udev/rules.d/
	printf 'abidep\nrc-loopback\n' >/etc/modules-load.d/abidep-vm.conf
	mkdir -p $libexec
	cp /bin/cat $libexec/udev-reader
	cp /bin/cat $libexec/unit-reader
	# After 60-abidep.rules' RUN (its rescan makes rc0's alias): RUN
	# programs run in order, in the event's worker.
	cat >/etc/udev/rules.d/70-abidep-vm-reader.rules <<-EOF
	ACTION=="add", SUBSYSTEM=="rc", RUN+="$libexec/udev-reader /sys%p/current_protocol"
	EOF
	# Early, as a unit reading sysfs for its setup would be: before
	# sysinit.target, after udev's coldplug was triggered; not ordered
	# after abidep's units (their own ordering must put them first).
	cat >/etc/systemd/system/abidep-vm-early-reader.service <<-EOF
	[Unit]
	Description=abidep test guest: an early unit reading a deprecated file
	DefaultDependencies=no
	After=systemd-udev-trigger.service systemd-modules-load.service
	Before=sysinit.target

	[Service]
	Type=oneshot
	ExecStart=/bin/sh -c 'i=0; while [ ! -e $F ] && [ \$\$i -lt 600 ]; do sleep 0.1; i=\$\$((i+1)); done; exec $libexec/unit-reader $F'

	[Install]
	WantedBy=sysinit.target
	EOF
	check "the early reader unit enabled" systemctl enable -q abidep-vm-early-reader.service
	finish boot-setup
}

# The monotonic time (us) a unit's property gives.
mono() { systemctl show -P "$2" "$1"; }

booted() {
	section "booted: the units, in their order"
	# abidep-trace.service, like this command, comes after multi-user.target
	# (and waits for udev's queue): let its start job end.
	i=0
	while [ $i -lt 300 ] && systemctl list-jobs --no-legend | grep -q abidep-trace.service; do
		sleep 1
		i=$((i + 1))
	done
	# Their journal, for whoever reads a failure.
	journalctl -b -q -o cat -u abidep-trace-early.service -u abidep-trace.service \
		-u abidep-vm-early-reader.service | tail -n 30 | sed 's/^/# journal: /'
	check "abidep-trace-early.service is active (exited)" systemctl is-active -q abidep-trace-early.service
	check "abidep-trace.service is active" systemctl is-active -q abidep-trace.service
	check "the early reader ran and read the file" \
		same "$(systemctl show -P Result,ExecMainStatus abidep-vm-early-reader.service | tr '\n' ' ')" "success 0 "
	early=$(mono abidep-trace-early.service ExecMainExitTimestampMonotonic)
	udevd=$(mono systemd-udevd-control.socket ActiveEnterTimestampMonotonic)
	check "the tracer was pinned ($early us) before udev's socket listened ($udevd us)" \
		test "${early:-0}" -gt 0 -a "${early:-0}" -lt "${udevd:-0}"
	check "no ordering cycle was broken at boot" \
		sh -c "! journalctl -b -q | grep -iE 'ordering cycle|job .* deleted to break'"
	check "abidep-trace.service adopted the pin: one session this boot, $mode" \
		same "$(sqlite3 $db 'SELECT count(*), stage FROM sessions')" "1|$mode"
	if [ "$mode" = initramfs ]; then
		check "abidep-trace-early.service kept the initramfs's pin" \
			sh -c "journalctl -b -q -o cat -u abidep-trace-early.service | grep -q 'kept the tracer pinned already'"
		check "the pins came across switch_root (the initramfs's session)" \
			sh -c "journalctl -b -q -o cat -u abidep-trace-early.service | grep -q 'pinned initramfs'"
	fi

	section "booted: the report names the readers, with their stage"
	check "abidep-sync.service (the timer's sync) runs" systemctl start abidep-sync.service
	abidep report -d $db >/tmp/report.txt 2>&1
	abidep report -d $db -j >/tmp/report.json 2>&1
	sed 's/^/# /' /tmp/report.txt
	sqlite3 $db "SELECT what, since - s.started, w.last_sync - s.started, files FROM watched w JOIN sessions s USING (host, session) WHERE what LIKE '%current_protocol'" | sed 's/^/# watched (since, last_sync, files): /'
	sqlite3 $db "SELECT exe, u.first_seen - s.started FROM usage u JOIN sessions s USING (host, session)" | sed 's/^/# first seen after the pin: /'
	check "the report names the udev rule's program" grep -q "$libexec/udev-reader" /tmp/report.txt
	check "the report names the early unit's program" grep -q "$libexec/unit-reader" /tmp/report.txt
	readers="udev-reader unit-reader"
	if [ "$mode" = initramfs ]; then
		readers="initramfs-reader $readers"
		check "the report names the initramfs's reader" grep -q "$libexec/initramfs-reader" /tmp/report.txt
	fi
	want=$(for r in $readers; do echo "$libexec/$r|$mode"; done)
	check "the readers were counted in the $mode session" \
		same "$(sqlite3 $db "SELECT DISTINCT u.exe || '|' || s.stage FROM usage u JOIN sessions s USING (host, session) WHERE u.exe LIKE '$libexec/%' ORDER BY 1")" \
		"$want"
	# report -j: each user's "boot" (null: not during boot).
	check "report -j: each reader's use was during boot, stage $mode" \
		same "$(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    for u in e["users"]:
        b = u.get("boot") or {}
        print("%s|%s" % (u["exe"], b.get("stage")))' /tmp/report.json | grep "$libexec/" | sort -u)" "$want"

	# The units ask the kernel whether the wall clock is synchronized
	# (tools/lib/bootclock.c): their sandbox must let adjtimex(2) through.
	# No NTP here: set the kernel's state as a daemon would.
	section "booted: the sandboxed sync reads the clock's synchronization"
	check "the wall clock stepped an hour and said synchronized (adjtimex ADJ_STATUS)" python3 -c '
import ctypes, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
t = (ctypes.c_long * 2)(int(time.time()) + 3600, 0)
if libc.clock_settime(0, t): sys.exit(1)
buf = ctypes.create_string_buffer(256)
struct.pack_into("I", buf, 0, 0x1c)
struct.pack_into("qq", buf, 24, 0, 0)
struct.pack_into("i", buf, 40, 0)
sys.exit(libc.adjtimex(buf) != 0)'
	check "abidep-sync.service: a reading of the clocks, synchronized, an hour on" sh -c "
		{ systemctl start abidep-sync.service ||
		  { journalctl -b -q -o cat -u abidep-sync.service | tail -n 6; false; }; } &&
		test \"\$(sqlite3 $db 'SELECT synced FROM clock ORDER BY boottime DESC LIMIT 1')\" = 1"
	check "... the boot's times placed by it (its session's last sync after the clock's step)" \
		test "$(sqlite3 $db 'SELECT max(last_sync) FROM sessions')" -ge "$(($(date +%s) - 120))"

	metrics_swap

	[ "$mode" = early ] && walk_fleet

	section "booted: stop flushes and unpins; a restart pins again, late"
	check "systemctl stop abidep-trace.service" systemctl stop abidep-trace.service
	check "... unpinned" test ! -e /sys/fs/bpf/abidep/usage
	check "systemctl start abidep-trace.service (no pin to adopt: pins)" \
		systemctl start abidep-trace.service
	check "... a second session of this boot, late" \
		same "$(sqlite3 $db 'SELECT group_concat(stage) FROM (SELECT stage FROM sessions ORDER BY started)')" "$mode,late"
	finish boot-booted
}

# abidep-metrics.service against the prometheus user, who owns
# /var/lib/prometheus (Debian's package chowns it) and so can put a symlink
# in place of node-exporter, root's: the unit's assertion stops it before
# its sandbox makes the symlink's target writable (ReadWritePaths= follows
# it); with the assertion reset, that sandbox does, and abidep itself
# refuses (tools/lib/safedir.c). Nothing is written where the symlink points.
metrics_swap() {
	ne=/var/lib/prometheus/node-exporter
	x=/srv/abidep-vm-elsewhere
	dropin=/run/systemd/system/abidep-metrics.service.d
	section "booted: abidep-metrics.service, and the prometheus user's symlink in place of $ne"
	if ! id -u prometheus >/dev/null 2>&1 || [ ! -d $ne ]; then
		skip "no prometheus user or no $ne (prometheus-node-exporter not installed)"
		return
	fi
	check "abidep-metrics.service writes $ne/abidep.prom" \
		sh -c "systemctl start abidep-metrics.service && grep -q '^# TYPE abidep_' $ne/abidep.prom"
	mkdir -p $x
	# The prometheus user may rename node-exporter (it writes its parent),
	# but the guest's root is an overlay, where a directory of the lower
	# layer is renamed by copying it (EXDEV), which only root can do here:
	# root moves it aside, the prometheus user puts the symlink in.
	mv $ne $ne.moved
	check "the prometheus user puts a symlink to $x (root's) in place of $ne" \
		runuser -u prometheus -- ln -s $x $ne
	check "... its own" same "$(stat -c %U $ne)" prometheus
	check "abidep-metrics.service fails" sh -c "! systemctl start abidep-metrics.service 2>/dev/null"
	check "... on its assertion (AssertPathIsSymbolicLink=!)" \
		same "$(systemctl show -P AssertResult abidep-metrics.service)" no
	check "... nothing written in $x" same "$(ls -A $x | wc -l)" 0
	mkdir -p $dropin
	printf '[Unit]\nAssertPathIsSymbolicLink=\n' >$dropin/no-assert.conf
	systemctl daemon-reload
	check "the assertion reset: abidep-metrics.service fails all the same" \
		sh -c "! systemctl start abidep-metrics.service 2>/dev/null"
	journalctl --sync
	check "... abidep refused, naming the symlink and its directory's owner" sh -c \
		"journalctl -b -q -o cat -u abidep-metrics.service | grep -qF 'abidep: refusing to write $ne/abidep.prom: $ne is a symlink in /var/lib/prometheus, a directory of uid $(id -u prometheus) (prometheus):'"
	check "... nothing written in $x, writable in its sandbox as it was" same "$(ls -A $x | wc -l)" 0
	journalctl -b -q -o cat -u abidep-metrics.service | tail -n 5 | sed 's/^/# journal: /'
	rm -r $dropin
	systemctl daemon-reload
	rm $ne
	mv $ne.moved $ne
	check "the directory back: abidep-metrics.service writes again" systemctl start abidep-metrics.service
}

# The fleet walkthrough's commands, on this booted system: its own summary
# line, which tests/boot/systemd.sh requires. In a directory of its own, in
# a subshell (the page's cd and variables stay there).
walk_fleet() {
	page=Documentation/admin-guide/walkthrough-fleet.rst
	section "walkthrough: $page (as root, in a new directory)"
	if ! s=$(cd "$ABIDEP_REPO" && python3 scripts/walkthrough.py script $page --place guest); then
		check "the page's guest blocks extract" false
		return
	fi
	w=$(mktemp -d)
	(cd "$w" && eval "$s"; finish walk-fleet)
	rm -rf "$w"
}

case ${ABIDEP_BOOT:-} in
setup) setup ;;
booted) booted ;;
*) echo "tests/boot/systemd-boot.sh: run by tests/vm/run --systemd (ABIDEP_BOOT unset)" >&2; exit 2 ;;
esac
