#!/bin/sh
# Guest half of tests/pkg/run: install the built packages into the guest's
# root (a throw-away overlay) and run what they installed, from the installed
# paths only. Prints ok/not ok lines; tests/pkg/run counts them.
#	tests/vm/run tests/pkg/guest.sh ABIDEP.deb ABIDEP-DKMS.deb ALLOWED-SYSCALLS
# ALLOWED-SYSCALLS: the names the units' SystemCallFilter= allows, one a line
# (expanded on the host: systemd-analyze is slow under TCG).
set -u
. "$ABIDEP_REPO/tests/lib.sh"
deb=$1
dkmsdeb=$2
allowed=$(cat "$3")
kver=$(uname -r)
version=$(dpkg-deb -f "$deb" Version)
F=/sys/devices/system/cpu/cpuidle/current_governor_ro
unit=/lib/systemd/system/abidep-trace.service
earlyunit=/lib/systemd/system/abidep-trace-early.service
syncunit=/lib/systemd/system/abidep-sync.service
log=$ABIDEP_OUT
mkdir -p "$log"
cd /	# nothing from the checkout by accident

# The guest's /lib/modules/$kver is a read-only share of the guest kernel's
# modules, without 'build': give it a writable layer and the headers (the
# host's, reachable through the read-only root), as an installed kernel has.
mkdir -p /tmp/km/u /tmp/km/w
mount -t overlay -o "lowerdir=/lib/modules/$kver,upperdir=/tmp/km/u,workdir=/tmp/km/w" \
	overlay "/lib/modules/$kver"
ln -sfn "/usr/src/linux-headers-$kver" "/lib/modules/$kver/build"

section "dpkg -i"
# abidep's initramfs hook activates update-initramfs: not in the guest (it
# would rebuild the images of the host's /boot).
echo update_initramfs=no >/etc/initramfs-tools/update-initramfs.conf
check "dpkg -i abidep abidep-dkms (DKMS builds the module for $kver)" \
	sh -c "dpkg -i '$deb' '$dkmsdeb' >'$log/dpkg-i.log' 2>&1"
tail -n 15 "$log/dpkg-i.log" | sed 's/^/# dpkg: /'
check "both packages installed" \
	sh -c "dpkg-query -W -f='\${Status}\n' abidep abidep-dkms | grep -c '^install ok installed\$' | grep -qx 2"

section "the installed command"
check "abidep is /usr/sbin/abidep" test "$(command -v abidep)" = /usr/sbin/abidep
check "abidep --version is the package's" test "$(abidep --version)" = "abidep $version"
check "it uses the installed tables" \
	sh -c "abidep --help | grep -qF '(now: /usr/share/abidep/migration-tables)'"
check "abidep tables validate" abidep tables validate -q
check "the installed tables are the checkout's" \
	same "$(abidep tables list)" "$(ABIDEP_TABLES=$ABIDEP_REPO/migration-tables abidep tables list)"

section "man pages, completion"
check "man -w abidep" test "$(man -w abidep)" = /usr/share/man/man8/abidep.8.gz
for s in tables trace report scan check merge brownout survey; do
	check "man -w abidep-$s" test "$(man -w abidep-$s)" = "/usr/share/man/man8/abidep-$s.8.gz"
done
check "man abidep renders" sh -c "MANWIDTH=80 man abidep 2>/dev/null | grep -q 'deprecated sysfs attributes: migration tables'"
check "bash completion is registered for abidep" \
	test "$(bash -c '. /usr/share/bash-completion/completions/abidep; complete -p abidep')" = \
	"complete -o filenames -F _abidep abidep"
check "... and completes objects" \
	test "$(bash -c '. /usr/share/bash-completion/completions/abidep; COMP_WORDS=(abidep tr); COMP_CWORD=1; _abidep; echo "${COMPREPLY[*]}"')" = trace

section "systemd units"
check "units verify (systemd-analyze verify)" \
	sh -c "systemd-analyze verify $earlyunit $unit $syncunit /lib/systemd/system/abidep-sync.timer \
		/lib/systemd/system/abidep-metrics.service /lib/systemd/system/abidep-metrics.timer \
		>'$log/verify.log' 2>&1 && ! grep -q . '$log/verify.log'"
sed 's/^/# verify: /' "$log/verify.log"
check "abidep-trace.service is enabled at boot (multi-user.target)" \
	test "$(readlink /etc/systemd/system/multi-user.target.wants/abidep-trace.service)" = "$unit"
check "abidep-trace-early.service is enabled at boot (sysinit.target)" \
	test "$(readlink /etc/systemd/system/sysinit.target.wants/abidep-trace-early.service)" = "$earlyunit"
check "abidep-sync.timer is enabled (timers.target)" \
	test "$(readlink /etc/systemd/system/timers.target.wants/abidep-sync.timer)" = /lib/systemd/system/abidep-sync.timer
check "abidep-metrics.timer is enabled (timers.target)" \
	test "$(readlink /etc/systemd/system/timers.target.wants/abidep-metrics.timer)" = /lib/systemd/system/abidep-metrics.timer

section "DKMS"
check "dkms status: installed for $kver" \
	sh -c "dkms status abidep/$version | grep -q '^abidep/$version, $kver, x86_64: installed'"
dkms status 2>&1 | sed 's/^/# dkms: /'
# dkms.conf's POST_BUILD: what a driver using abidep.ko's exports builds
# against (Documentation/driver-api/walkthrough-new-deprecation.rst).
check "DKMS kept the build's Module.symvers beside the module, with abidep's exports" \
	grep -q '	__abidep_entry_register	.*	EXPORT_SYMBOL_GPL' "/var/lib/dkms/abidep/$version/$kver/x86_64/Module.symvers"
check "modinfo finds it in updates/dkms" \
	sh -c "modinfo -n abidep | grep -q '^/lib/modules/$kver/updates/dkms/abidep.ko'"
check "modprobe abidep" modprobe abidep
check "the module is live (/sys/kernel/abidep)" test -d /sys/kernel/abidep
check "its udev rule is installed" test -f /lib/udev/rules.d/60-abidep.rules
check "modprobe -r abidep" modprobe -r abidep

section "the tracer, as the units run it"
# systemd is not PID 1 here: run each Exec line as systemd would, with what
# of the sandbox can be reproduced: the capability bounding set, no new
# privileges, the umask, the state directory made beforehand. strace records
# the system calls, checked against SystemCallFilter= below.
val() { sed -n "s/^$1=//p" "$2"; }
caps=$(val CapabilityBoundingSet $unit | tr '[:upper:]' '[:lower:]' | sed 's/cap_/+/g; s/ /,/g')
echo "# CapabilityBoundingSet -> setpriv --bounding-set -all,$caps"
run_unit() {	# run_unit NAME COMMAND...
	_n=$1
	shift
	(umask 077; setpriv --no-new-privs --inh-caps=-all --bounding-set "-all,$caps" \
		strace -f -qq -o "$log/strace-$_n" "$@" >"$log/$_n.log" 2>&1)
}
mkdir -p /var/lib/abidep && chmod 0700 /var/lib/abidep	# StateDirectory=abidep
mkdir -p /run/abidep	# RuntimeDirectory=abidep (the record of the pinned tables)
start=$(val ExecStart $unit)
stop=$(val ExecStop $unit)
syncc=$(val ExecStart $syncunit)
check "ExecStart is '/usr/sbin/abidep trace --pin --adopt'" test "$start" = "/usr/sbin/abidep trace --pin --adopt"
check "the early unit's ExecStart is '/usr/sbin/abidep trace --pin --early --adopt'" \
	test "$(val ExecStart $earlyunit)" = "/usr/sbin/abidep trace --pin --early --adopt"
check "ExecStop is '/usr/sbin/abidep trace --stop'" test "$stop" = "/usr/sbin/abidep trace --stop"
check "sync's ExecStart is '/usr/sbin/abidep trace --sync'" test "$syncc" = "/usr/sbin/abidep trace --sync"
# shellcheck disable=SC2086
check "ExecStart (pin) exits 0 with the unit's capabilities only" run_unit start $start
sed 's/^/# start: /' "$log/start.log"
check "the tracer is pinned" test -e /sys/fs/bpf/abidep/usage
check "trace --status reads it" sh -c "abidep trace --status >'$log/status.log' 2>&1"
cat "$F" >/dev/null
cat "$F" >/dev/null
# shellcheck disable=SC2086
check "abidep-sync.service's ExecStart exits 0" run_unit sync $syncc
check "the DB is /var/lib/abidep/usage.db, 0600" test "$(stat -c %a /var/lib/abidep/usage.db 2>&1)" = 600
rows=$(abidep report -j | python3 -c '
import json, sys
for e in json.load(sys.stdin):
    for u in e["users"]:
        print("%s %s %s %d" % (e["files"][0], u["exe"], u["op"], u["count"]))' | sort)
check "report: cat opened and read $F twice each" test "$rows" = "$F /usr/bin/cat open 2
$F /usr/bin/cat read 2"
[ "$rows" = "$F /usr/bin/cat open 2
$F /usr/bin/cat read 2" ] || echo "$rows" | sed 's/^/# report: /'
cat "$F" >/dev/null
# shellcheck disable=SC2086
check "ExecStop exits 0" run_unit stop $stop
sed 's/^/# stop: /' "$log/stop.log"
check "nothing is pinned after ExecStop" test ! -e /sys/fs/bpf/abidep
check "... nor a record of its tables" test ! -e /run/abidep/pinned-tables
check "ExecStop wrote the last counts first (3 opens)" \
	sh -c "abidep report -j | grep -q '\"count\": *3'"

# Every system call the three runs made must pass the unit's filter.
check "the filter tested is the unit's" \
	same "$(val SystemCallFilter $unit)" "$(sed -n 's/^# SystemCallFilter=//p' "$3")"
used=$(cat "$log"/strace-start "$log"/strace-sync "$log"/strace-stop 2>/dev/null |
	sed -n 's/^[0-9]* *\([a-z_0-9]*\)(.*/\1/p' | sort -u)
denied=$(echo "$used" | grep -vxF "$allowed")
check "strace saw the runs' system calls" test "$(echo "$used" | wc -l)" -gt 10
check "SystemCallFilter= allows every one${denied:+ (denied: $(echo "$denied" | tr "\n" " "))}" test -z "$denied"

section "removal"
check "dpkg -r abidep-dkms removes the module from DKMS" \
	sh -c "dpkg -r abidep-dkms >'$log/dpkg-r.log' 2>&1 && ! dkms status abidep | grep -q . &&
	       ! find /lib/modules/$kver -name 'abidep.ko*' | grep -q ."
check "dpkg --purge abidep removes the command and units" \
	sh -c "dpkg --purge abidep >>'$log/dpkg-r.log' 2>&1 && test ! -e /usr/sbin/abidep -a ! -e $unit &&
	       test ! -e /etc/systemd/system/multi-user.target.wants/abidep-trace.service"
exit 0
