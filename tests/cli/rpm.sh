#!/bin/sh
# CLI tests of rpm package owners (tools/lib/rpmdb.c, owner.c): real rpm
# databases, made here with Debian's rpm (rpmbuild a tiny package whose
# script reads a deprecated attribute, rpm --root ROOT -i it) under both
# places rpm keeps them (var/lib/rpm, usr/lib/sysimage/rpm); the package's
# name and version in scan, report and check, its packager and source
# package in report and check; a root with a dpkg database
# too; a damaged and a foreign rpm database; a root without one; and that
# nothing is ever written under ROOT. Ends with "rpm: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-$PWD/build/abidep}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# rpm and rpmbuild keep their own database in ~/.rpmdb (Debian's macros):
# never the user's.
export HOME="$T/home"
mkdir -p "$HOME"

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

# The files under a root with their sizes and times, to see nothing change.
snapshot() {
	find "$1" -printf '%p %y %s %T@\n' | sort
}
unchanged() {
	snapshot "$1" | diff -u "$2" -
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
check "rpm and rpmbuild are installed (make deps)" \
	sh -c "command -v rpm && command -v rpmbuild" </dev/null
check "the DB helper builds (tests/build-helper fill)" sh -c "tests/build-helper fill && cp build/tests/fill '$T/fill'"

# The package: a legacy reader script, and a helper that dpkg also lists
# in the root with both databases. An epoch, as distributions use them.
mkdir -p "$T/rpmbuild/SPECS"
cat >"$T/rpmbuild/SPECS/legacy-ir-reader.spec" <<'EOF'
Name:		legacy-ir-reader
Epoch:		2
Version:	1.2
Release:	3.fc40
Packager:	IR Team <ir@abidep.example>
Summary:	Reads the IR protocol the old way
License:	GPL-2.0-only
BuildArch:	noarch

%description
A test package of abidep's: a script that reads a deprecated attribute.

%install
mkdir -p %{buildroot}/usr/bin %{buildroot}/usr/lib/legacy-ir
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >%{buildroot}/usr/bin/legacy-ir-reader
printf '#!/bin/sh\necho ir-nec >/sys/class/rc/rc1/current_protocol\n' >%{buildroot}/usr/lib/legacy-ir/helper
chmod 755 %{buildroot}/usr/bin/legacy-ir-reader %{buildroot}/usr/lib/legacy-ir/helper

%files
/usr/bin/legacy-ir-reader
/usr/lib/legacy-ir/helper
EOF
check "rpmbuild -bb the package (noarch, offline)" \
	sh -c "rpmbuild --define '_topdir $T/rpmbuild' -bb '$T/rpmbuild/SPECS/legacy-ir-reader.spec' >'$T/build.log' 2>&1"
RPMFILE=$T/rpmbuild/RPMS/noarch/legacy-ir-reader-1.2-3.fc40.noarch.rpm
check "... legacy-ir-reader-1.2-3.fc40.noarch.rpm" test -f "$RPMFILE"

# install ROOT DBPATH: the package into ROOT's database at DBPATH. rpm
# leaves an empty -wal and the -shm behind; they go, so that a file abidep
# would make there is seen (a real system's DB, closed, has none).
install_rpm() {
	rpm --root "$1" --dbpath "$2" --nodeps -i "$RPMFILE" >>"$T/install.log" 2>&1 &&
		test -s "$1$2/rpmdb.sqlite" && ! test -s "$1$2/rpmdb.sqlite-wal" &&
		rm -f "$1$2/rpmdb.sqlite-wal" "$1$2/rpmdb.sqlite-shm" "$1$2/.rpm.lock"
}
R=$T/rhel		# var/lib/rpm (RHEL 8, 9)
F=$T/fedora		# usr/lib/sysimage/rpm (Fedora 36+, openSUSE)
mkdir -p "$R" "$F"
check "rpm --root ROOT --dbpath /var/lib/rpm -i (as uid $(id -u))" install_rpm "$R" /var/lib/rpm
check "rpm --root ROOT --dbpath /usr/lib/sysimage/rpm -i" install_rpm "$F" /usr/lib/sysimage/rpm
check "rpm itself names the owner" \
	sh -c "rpm --root '$R' --dbpath /var/lib/rpm -qf /usr/bin/legacy-ir-reader 2>/dev/null | grep -qx 'legacy-ir-reader-1.2-3.fc40.noarch'"
check "... its packager and source rpm" \
	test "$(rpm --root "$R" --dbpath /var/lib/rpm -q --qf '%{PACKAGER}|%{SOURCERPM}' legacy-ir-reader 2>/dev/null)" = \
	"IR Team <ir@abidep.example>|legacy-ir-reader-1.2-3.fc40.src.rpm"
snapshot "$R" >"$T/R.before"
snapshot "$F" >"$T/F.before"

# The (package, package_version) of FILE's hits in scan -j's JSON on stdin.
owner_of_hits() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sorted({(h["package"], h["package_version"]) for h in d["hits"] if h["file"] == sys.argv[1]}))' "$1"
}

section "scan"
for root in "$R" "$F"; do
	check "scan ${root#"$T"/}: hits, exit 1" test "$(status "$A" scan -j "$root")" = 1
	check "... the reader's hit names the rpm package and version" \
		same "$(owner_of_hits /usr/bin/legacy-ir-reader <"$T/out")" "[('legacy-ir-reader', '2:1.2-3.fc40')]"
	check "... and the helper's" \
		same "$(owner_of_hits /usr/lib/legacy-ir/helper <"$T/out")" "[('legacy-ir-reader', '2:1.2-3.fc40')]"
	check "... nothing on stderr" test ! -s "$T/err"
done
check "scan text: the package in its column" \
	sh -c "'$A' scan '$R' | grep -q '^strong  *legacy-ir-reader  */usr/bin/legacy-ir-reader:2  */sys/class/rc/rcN/current_protocol '"
check "scan of a directory below the root: the root's rpm database" \
	sh -c "'$A' scan -j '$F/usr/bin' | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"root\"] == \"$F\" and d[\"scanned\"] == \"/usr/bin\", d
assert [(h[\"file\"], h[\"package\"]) for h in d[\"hits\"]] == [(\"/usr/bin/legacy-ir-reader\", \"legacy-ir-reader\")], d'"

section "report and check --root"
GOV=/sys/devices/system/cpu/cpuidle/current_governor_ro
RC=/sys/class/rc/rcN/current_protocol
t0=1719784800	# 2024-07-01
# host session path what table status op uid cgroup_id cgroup exe comm pid ppid count errors first last
sed 's/ *|/|/g' >"$T/rows" <<X
h1 |b1:1 |/sys/class/rc/rc0/current_protocol |$RC |sysfs-class-rc |deprecated |read |0 |10 |- |/usr/bin/legacy-ir-reader |legacy-ir-reade |100 |1 |3 |0 |$t0 |$((t0 + 60))
h1 |b1:1 |/sys/class/rc/rc1/current_protocol |$RC |sysfs-class-rc |deprecated |write |0 |10 |- |/usr/lib/legacy-ir/helper |helper |101 |1 |1 |0 |$t0 |$t0
h1 |b1:1 |/sys/class/rc/rc0/current_protocol |$RC |sysfs-class-rc |deprecated |read |0 |10 |- |/usr/local/bin/irctl |irctl |102 |1 |1 |0 |$t0 |$t0
X
check "the usage DB is written" sh -c "'$T/fill' '$T/u.db' <'$T/rows'"
# The (exe, package, package_version) of the users of report -j on stdin.
report_owners() {
	python3 -c '
import json, sys
print(sorted((u["exe"], u["package"], u["package_version"]) for e in json.load(sys.stdin) for u in e["users"]))'
}
WANT="[('/usr/bin/legacy-ir-reader', 'legacy-ir-reader', '2:1.2-3.fc40'), ('/usr/lib/legacy-ir/helper', 'legacy-ir-reader', '2:1.2-3.fc40'), ('/usr/local/bin/irctl', None, None)]"
check "report --root (var/lib/rpm): exit 0" test "$(status "$A" report -j --db "$T/u.db" --root "$R")" = 0
check "... names the rpm package and version of each exe" same "$(report_owners <"$T/out")" "$WANT"
check "... nothing on stderr" test ! -s "$T/err"
check "report --root (usr/lib/sysimage/rpm)" \
	same "$("$A" report -j --db "$T/u.db" --root "$F" | report_owners)" "$WANT"
# (exe, maintainer, source_package) of report -j's users on stdin.
report_maintainers() {
	python3 -c '
import json, sys
print(sorted((u["exe"], u["maintainer"], u["source_package"]) for e in json.load(sys.stdin) for u in e["users"]))'
}
MWANT="[('/usr/bin/legacy-ir-reader', 'IR Team <ir@abidep.example>', 'legacy-ir-reader'), ('/usr/lib/legacy-ir/helper', 'IR Team <ir@abidep.example>', 'legacy-ir-reader'), ('/usr/local/bin/irctl', None, None)]"
for root in "$R" "$F"; do
	check "report -j --root ${root#"$T"/}: the packager as maintainer, SOURCERPM's name as source_package" \
		same "$("$A" report -j --db "$T/u.db" --root "$root" | report_maintainers)" "$MWANT"
done
check "report --format html: the packager beside the package" \
	sh -c "'$A' report --format html --db '$T/u.db' --root '$R' | grep -qF '<td>legacy-ir-reader</td><td class=\"maintainer\">IR Team &lt;ir@abidep.example&gt;</td>'"
check "report text: the package column" \
	sh -c "'$A' report --db '$T/u.db' --root '$R' | grep -q '^  /usr/bin/legacy-ir-reader  *legacy-ir-reader  *0 '"
check "report --format prometheus: the package label" \
	sh -c "'$A' report --format prometheus --db '$T/u.db' --root '$R' | grep -q 'exe=\"/usr/bin/legacy-ir-reader\",package=\"legacy-ir-reader\",'"
ck() {
	"$A" check --db "$T/u.db" --now 2024-07-15 --entry current_protocol "$@"
}
check "check --root --by-host: blocked, exit 1" test "$(status ck --root "$R" --by-host)" = 1
check "... the blocker's package named" \
	grep -q '^  used by /usr/bin/legacy-ir-reader (package legacy-ir-reader, uid 0, host h1): 3 uses (read)' "$T/out"
check "check -j --root: the blockers' packages and versions" \
	sh -c "'$A' check -j --db '$T/u.db' --now 2024-07-15 --entry current_protocol --root '$F' | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"entries\"][0][\"blockers\"]
got = sorted((u[\"exe\"], u[\"package\"], u[\"package_version\"]) for u in b)
assert str(got) == sys.argv[1], got' \"$WANT\""
check "check -j --root: the blockers' packager and source package" \
	sh -c "'$A' check -j --db '$T/u.db' --now 2024-07-15 --entry current_protocol --root '$R' | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"entries\"][0][\"blockers\"]
got = sorted((u[\"exe\"], u[\"maintainer\"], u[\"source_package\"]) for u in b)
assert str(got) == sys.argv[1], got' \"$MWANT\""
check "check --scan: the references' rpm package" \
	sh -c "'$A' check -j --db '$T/u.db' --now 2024-07-15 --entry current_protocol --root '$R' --scan '$R' | python3 -c '
import json, sys
b = json.load(sys.stdin)[\"entries\"][0][\"blockers\"]
refs = sorted((r[\"file\"], r[\"package\"], r[\"package_version\"]) for r in b if r[\"kind\"] == \"reference\")
assert refs == [(\"/usr/bin/legacy-ir-reader\", \"legacy-ir-reader\", \"2:1.2-3.fc40\"),
                (\"/usr/lib/legacy-ir/helper\", \"legacy-ir-reader\", \"2:1.2-3.fc40\")], refs'"

section "nothing written under ROOT"
check "the var/lib/rpm root is as rpm left it (no -wal, -shm, lock)" unchanged "$R" "$T/R.before"
check "the usr/lib/sysimage/rpm root too" unchanged "$F" "$T/F.before"
cp -a "$R" "$T/ro"
chmod -R a-w "$T/ro"
check "a read-only root is read (its database too)" \
	sh -c "'$A' scan -j '$T/ro' 2>'$T/err' | grep -q '\"package\":\"legacy-ir-reader\"' && test ! -s '$T/err'"
chmod -R u+w "$T/ro"

section "a root with both databases: dpkg's first"
B=$T/both
cp -a "$R" "$B"
mkdir -p "$B/var/lib/dpkg/info" "$B/usr/sbin"
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >"$B/usr/sbin/ir-deb-tool"
printf '/.\n/usr/sbin/ir-deb-tool\n/usr/lib/legacy-ir/helper\n' >"$B/var/lib/dpkg/info/ir-deb.list"
printf 'Package: ir-deb\nStatus: install ok installed\nVersion: 0.5-1\nMaintainer: Deb IR <deb@abidep.example>\nSource: ir-tools\n' \
	>"$B/var/lib/dpkg/status"
check "scan: exit 1" test "$(status "$A" scan -j "$B")" = 1
check "... a file only rpm has: rpm's package" \
	same "$(owner_of_hits /usr/bin/legacy-ir-reader <"$T/out")" "[('legacy-ir-reader', '2:1.2-3.fc40')]"
check "... a file only dpkg has: dpkg's, with its version" \
	same "$(owner_of_hits /usr/sbin/ir-deb-tool <"$T/out")" "[('ir-deb', '0.5-1')]"
check "... a file both have: dpkg's" \
	same "$(owner_of_hits /usr/lib/legacy-ir/helper <"$T/out")" "[('ir-deb', '0.5-1')]"
check "report --root: the same owners" \
	same "$("$A" report -j --db "$T/u.db" --root "$B" | report_owners)" \
	"[('/usr/bin/legacy-ir-reader', 'legacy-ir-reader', '2:1.2-3.fc40'), ('/usr/lib/legacy-ir/helper', 'ir-deb', '0.5-1'), ('/usr/local/bin/irctl', None, None)]"
check "... and each owner's maintainer and source: rpm's header, dpkg's status" \
	same "$("$A" report -j --db "$T/u.db" --root "$B" | report_maintainers)" \
	"[('/usr/bin/legacy-ir-reader', 'IR Team <ir@abidep.example>', 'legacy-ir-reader'), ('/usr/lib/legacy-ir/helper', 'Deb IR <deb@abidep.example>', 'ir-tools'), ('/usr/local/bin/irctl', None, None)]"

section "a damaged rpm database"
D=$T/damaged
cp -a "$B" "$D"
db=$D/var/lib/rpm/rpmdb.sqlite
# Garbage of a fixed seed: random bytes can hold a short needle now and
# then, a hit in the damaged file itself (a failure once in many runs).
python3 -c 'import random, sys; r = random.Random(48); sys.stdout.buffer.write(r.randbytes(int(sys.argv[1])))' \
	"$(stat -c %s "$db")" >"$db"
check "scan goes on: exit 1, every hit" test "$(status "$A" scan -j "$D")" = 1
check "... as many hits as with a sound database" \
	sh -c "test \"\$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[\"hits\"]))' '$T/out')\" = \
	       \"\$('$A' scan -j '$B' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)[\"hits\"]))')\""
check "... rpm's files without a package" \
	same "$(owner_of_hits /usr/bin/legacy-ir-reader <"$T/out")" "[(None, None)]"
check "... dpkg's still named" \
	same "$(owner_of_hits /usr/sbin/ir-deb-tool <"$T/out")" "[('ir-deb', '0.5-1')]"
check "... reported once, by path, with what to do" \
	sh -c "test \"\$(wc -l <'$T/err')\" = 1 &&
	       grep -q \"^abidep: cannot read the rpm database $db (sqlite; librpm: .*not a database.*rpmdb --rebuilddb\" '$T/err'"
check "report --root: exit 0" test "$(status "$A" report -j --db "$T/u.db" --root "$D")" = 0
check "... the rpm exes without a package" same "$(report_owners <"$T/out")" \
	"[('/usr/bin/legacy-ir-reader', None, None), ('/usr/lib/legacy-ir/helper', 'ir-deb', '0.5-1'), ('/usr/local/bin/irctl', None, None)]"
check "... reported once" sh -c "test \"\$(grep -c 'cannot read the rpm database' '$T/err')\" = 1"
check "check --root: its exit status unchanged (1, blocked)" test "$(status ck --root "$D")" = 1
check "... reported once" sh -c "test \"\$(grep -c 'cannot read the rpm database' '$T/err')\" = 1"
check "check --root and --scan of it: exit 1" test "$(status ck --root "$D" --scan "$D")" = 1
check "... reported once for both" sh -c "test \"\$(grep -c 'cannot read the rpm database' '$T/err')\" = 1"
cp -a "$R" "$T/trunc"
truncate -s 8192 "$T/trunc/var/lib/rpm/rpmdb.sqlite"
check "a truncated database: scan goes on" test "$(status "$A" scan "$T/trunc")" = 1
check "... reported" grep -q "^abidep: cannot read the rpm database $T/trunc/var/lib/rpm/rpmdb.sqlite " "$T/err"

section "a foreign rpm database"
N=$T/suse
mkdir -p "$N/usr/lib/sysimage/rpm" "$N/usr/bin"
cp "$R/usr/bin/legacy-ir-reader" "$N/usr/bin/"
echo "not an ndb database" >"$N/usr/lib/sysimage/rpm/Packages.db"
check "ndb (Packages.db): scan goes on, exit 1" test "$(status "$A" scan -j "$N")" = 1
check "... without a package" same "$(owner_of_hits /usr/bin/legacy-ir-reader <"$T/out")" "[(None, None)]"
check "... reported once, naming the file and its format" \
	sh -c "test \"\$(wc -l <'$T/err')\" = 1 &&
	       grep -q \"^abidep: cannot read the rpm database $N/usr/lib/sysimage/rpm/Packages.db (ndb; \" '$T/err'"
check "... report --root accepts the root (a database, if unreadable)" \
	test "$(status "$A" report --db "$T/u.db" --root "$N")" = 0

section "a root without an rpm database: nothing said, librpm not used"
E=$T/debian
mkdir -p "$E/var/lib/rpm" "$E/usr/lib/sysimage/rpm" "$E/var/lib/dpkg/info" "$E/usr/bin"
cp "$R/usr/bin/legacy-ir-reader" "$E/usr/bin/"
printf '/usr/bin/legacy-ir-reader\n' >"$E/var/lib/dpkg/info/legacy-ir.list"
check "scan (empty rpm directories, as Debian's rpm package leaves): exit 1" \
	test "$(status "$A" scan -j "$E")" = 1
check "... dpkg's package" same "$(owner_of_hits /usr/bin/legacy-ir-reader <"$T/out")" "[('legacy-ir', None)]"
check "... nothing on stderr" test ! -s "$T/err"
if command -v strace >/dev/null; then
	strace -f -e trace=openat,open -o "$T/trace.deb" "$A" scan "$E" >/dev/null 2>&1
	strace -f -e trace=openat,open -o "$T/trace.rpm" "$A" scan "$R" >/dev/null 2>&1
	check "... librpm's configuration not even read (strace)" \
		sh -c "grep -q '/usr/lib/rpm/rpmrc' '$T/trace.rpm' && ! grep -q '/usr/lib/rpm/' '$T/trace.deb'"
fi
check "report --root of a root with neither database: exit 2" \
	test "$(status "$A" report --db "$T/u.db" --root "$T/home")" = 2
check "... named: neither dpkg nor rpm" \
	grep -q "^abidep: no dpkg or rpm database in $T/home (cannot read $T/home/var/lib/dpkg/info: .*; no rpm database in $T/home/usr/lib/sysimage/rpm or $T/home/var/lib/rpm)$" "$T/err"
check "check --root too" test "$(status ck --root "$T/home")" = 2
# (Its files are named below the host's root, whose database is dpkg's.)
check "scan of a root with neither: '-', nothing said" \
	sh -c "mkdir -p '$T/bare/usr/bin' && cp '$R/usr/bin/legacy-ir-reader' '$T/bare/usr/bin/' &&
	       '$A' scan '$T/bare' 2>'$T/err' | grep -q '^strong  *-  *$T/bare/usr/bin/legacy-ir-reader:2 ' && test ! -s '$T/err'"

finish rpm
