#!/bin/bash
# shellcheck disable=SC2016 # $... in single quotes are for the guest to expand
# Self-test of the QEMU guest runner tests/vm/run: boots the guest 20 times
# (about 3 minutes under TCG). Prints one line per check and ends with
# "vm-selftest: N passed, N failed"; exits non-zero if any check fails.
# Builds tests/vm/selftest/abidep_vm_warn.ko (loaded in the guest only) into
# build/vm/selftest/.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
repo=$(cd "$here/../.." && pwd -P)
cd "$repo" || exit 2
run=tests/vm/run
kver=$(scripts/kver.sh) || exit 2
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passes=0
pass() { printf 'PASS  %s\n' "$1"; passes=$((passes + 1)); }
fail() {
	printf 'FAIL  %s\n' "$1"
	[ -z "${2:-}" ] || printf '      %s\n' "${2//$'\n'/$'\n'      }"
	fails=$((fails + 1))
}
# check NAME WANT_RC WANT_STDOUT_REGEX -- RUN_ARGS...
check() {
	local name=$1 want_rc=$2 want_out=$3 rc out
	shift 4
	out=$("$run" "$@" 2>"$tmp/err")
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		fail "$name" "exit $rc, want $want_rc; stdout: $out; stderr: $(cat "$tmp/err")"
	elif [ "$want_rc" = 0 ] && [ -s "$tmp/err" ]; then
		fail "$name" "the runner printed on stderr: $(cat "$tmp/err")"
	elif ! [[ $out =~ $want_out ]]; then
		fail "$name" "stdout does not match /$want_out/: $out"
	else
		pass "$name"
	fi
}

t0=$(date +%s.%N)
check "uname -r is the guest kernel ($kver)" 0 "^$kver\$" -- uname -r
t1=$(date +%s.%N)
t2=$(date +%s.%N)
check "true" 0 '^$' -- true
t3=$(date +%s.%N)
check "exit status is passed through" 3 '^$' -- sh -c 'exit 3'
check "missing command gives 127" 127 'not found' -- no-such-command-abidep
check "arguments keep their quoting" 0 "^<a b><it's><x\"y><\\\$HOME><><\\*>\$" -- \
	printf '<%s>' 'a b' "it's" 'x"y' '$HOME' '' '*'
check "stdout and stderr both arrive" 0 $'^out\nerr$' -- sh -c 'echo out; echo err >&2'
check "environment" 0 "^$repo $repo /root $kver /usr/sbin:/usr/bin:/sbin:/bin 0 .+/out\$" -- \
	sh -c 'echo "$(pwd) $ABIDEP_REPO $HOME $KVER $PATH $(id -u) $ABIDEP_OUT"'
check "mounts" 0 '^ok$' -- sh -c '
	for m in /proc /sys /dev /dev/pts /sys/kernel/debug /sys/kernel/tracing \
		/sys/fs/bpf /sys/fs/cgroup /tmp /run; do
		mountpoint -q "$m" || { echo "not mounted: $m"; exit 1; }
	done
	ls /sys/kernel/debug /sys/fs/bpf >/dev/null && ls /sys/kernel/tracing/available_events >/dev/null &&
	echo ok'
check "modprobe rc-loopback gives rc0 protocols" 0 'nec' -- \
	sh -c 'modprobe rc-loopback && cat /sys/class/rc/rc0/protocols'
check "cpuidle governor readable" 0 '^[a-z_]+$' -- \
	cat /sys/devices/system/cpu/cpuidle/current_governor_ro

out="$tmp/out dir"
check "--out DIR is \$ABIDEP_OUT" 0 '^$' -- --out "$out" sh -c 'echo hi >"$ABIDEP_OUT/f"'
if [ "$(cat "$out/f" 2>/dev/null)" = hi ]; then pass "file written to \$ABIDEP_OUT is on the host"; else fail "file written to \$ABIDEP_OUT is on the host"; fi

check "writes outside \$ABIDEP_OUT are discarded" 0 '^$' -- sh -c 'echo x >"$ABIDEP_REPO/build/vm/.guest-write"'
if [ ! -e build/vm/.guest-write ]; then pass "host repo untouched"; else fail "host repo untouched"; rm -f build/vm/.guest-write; fi

out=$("$run" --timeout 15 --out "$tmp/timeout" sleep 100 2>"$tmp/err")
rc=$?
if [ "$rc" = 124 ] && grep -q timeout "$tmp/err" && ! pgrep -f "qemu-system-x86_64.*$tmp/timeout" >/dev/null; then
	pass "timeout gives 124 and leaves no qemu"
else
	fail "timeout gives 124 and leaves no qemu" "exit $rc; $(cat "$tmp/err")"
fi

# A real kernel WARNING from a throw-away module (loaded in the guest only).
mod=build/vm/selftest
mkdir -p "$mod"
cp tests/vm/selftest/abidep_vm_warn.c tests/vm/selftest/Kbuild "$mod/"
if make -s -C "/lib/modules/$kver/build" M="$repo/$mod" modules >"$tmp/make" 2>&1; then
	"$run" insmod "$mod/abidep_vm_warn.ko" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 125 ] && grep -q 'WARNING:.*abidep_vm_warn' "$tmp/err"; then
		pass "a kernel WARNING fails the run with 125"
	else
		fail "a kernel WARNING fails the run with 125" "exit $rc; $(cat "$tmp/err")"
	fi
	"$run" insmod "$mod/abidep_vm_warn.ko" report=dup >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 125 ] && grep -q 'cannot create duplicate filename' "$tmp/err"; then
		pass "sysfs's duplicate filename report (no WARNING:) fails the run with 125"
	else
		fail "sysfs's duplicate filename report (no WARNING:) fails the run with 125" \
			"exit $rc; $(cat "$tmp/err")"
	fi
else
	fail "build the WARNING test module" "$(cat "$tmp/make")"
fi

# Reports no test can make the kernel print on demand, in the kernel's words,
# through the kernel log.
while IFS='|' read -r what line; do
	"$run" sh -c "echo '$line' >/dev/kmsg" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 125 ]; then
		pass "$what fails the run with 125"
	else
		fail "$what fails the run with 125" "exit $rc; $(cat "$tmp/err")"
	fi
done <<'EOF'
an RCU stall|rcu: INFO: rcu_sched self-detected stall on CPU
a refcount report|refcount_t: underflow; use-after-free.
a list corruption|list_del corruption. prev->next should be ffff888000000000
a debug-objects report|ODEBUG: free active (active state 0) object: ffff888000000000 object type: timer_list
EOF

"$run" sh -c 'echo c >/proc/sysrq-trigger' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 125 ] && grep -q 'Kernel panic' "$tmp/err"; then
	pass "a kernel panic fails the run with 125"
else
	fail "a kernel panic fails the run with 125" "exit $rc; $(cat "$tmp/err")"
fi

printf 'time  tests/vm/run uname -r: %.1fs, tests/vm/run true: %.1fs\n' \
	"$(echo "$t1 - $t0" | bc)" "$(echo "$t3 - $t2" | bc)"
echo "vm-selftest: $passes passed, $fails failed"
[ "$fails" = 0 ]
