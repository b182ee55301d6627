# Helpers for guest test scripts: checks that count, and a closing summary.
# shellcheck shell=sh

_pass=0
_fail=0
_skip=0

section() {
	echo "# $*"
}

# check DESCRIPTION COMMAND [ARG...]: run it, print ok/not ok.
check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		_pass=$((_pass + 1))
		echo "ok - $_desc"
	else
		_fail=$((_fail + 1))
		echo "not ok - $_desc"
		[ -n "$_out" ] && echo "$_out" | head -n "${TEST_LINES:-5}" | sed 's/^/#   /'
	fi
	return 0
}

# skip DESCRIPTION: checks that cannot run here (no network, ...), said:
# never a silent pass. Counted apart, in finish's line.
skip() {
	_skip=$((_skip + 1))
	echo "skip - $1"
}

# same A B: A is not empty and equals B (a check of two outputs that both
# failed would otherwise pass as "" = ""); both shown when not.
same() {
	[ -n "$1" ] && [ "$1" = "$2" ] && return 0
	printf 'got:  %s\nwant: %s\n' "${1:-(empty)}" "${2:-(empty)}"
	return 1
}

dmesg_has() {
	dmesg | grep -qF -- "$1"
}

# The whole message of a kernel log line equals $1.
dmesg_has_line() {
	dmesg | sed 's/^\[[ 0-9.]*\] //' | grep -qxF -- "$1"
}

# finish NAME: the summary line (with ", N skipped" if any; naming the
# kernel in a guest, where tests/vm/run sets ABIDEP_OUT), and the exit
# status.
finish() {
	_s=
	[ "$_skip" -eq 0 ] || _s=", $_skip skipped"
	echo "$1: $_pass passed, $_fail failed$_s${ABIDEP_OUT:+ (kernel $(uname -r))}"
	[ "$_fail" -eq 0 ]
}

# SQL that takes a usage DB of today (schema 8) back to schema 7's tables,
# before a test takes it further back to an older schema's: what schema 8
# added (tools/lib/store_schema.c), dropped.
UNDO_SCHEMA8="DROP TABLE clock; ALTER TABLE usage DROP COLUMN first_bt;
	ALTER TABLE usage DROP COLUMN last_bt; ALTER TABLE usage_days DROP COLUMN bt;
	ALTER TABLE sessions DROP COLUMN started_bt; ALTER TABLE sessions DROP COLUMN first_sync_bt;
	ALTER TABLE sessions DROP COLUMN last_sync_bt; ALTER TABLE sessions DROP COLUMN lost_at_bt;
	ALTER TABLE sessions DROP COLUMN clock_offset; ALTER TABLE sessions DROP COLUMN seq;
	ALTER TABLE watched DROP COLUMN since_bt;
	ALTER TABLE watched DROP COLUMN last_sync_bt; PRAGMA user_version = 7;"
