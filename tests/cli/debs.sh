#!/bin/sh
# CLI tests of `abidep scan --packages` on real data: the Debian 12 packages
# of tests/debs/packages.list (fetched once by tests/debs/fetch into its
# cache) read in place, against the same packages unpacked with dpkg-deb -R
# and scanned as a root, grep -rlwF over them, and dpkg-deb -f's fields;
# the same repacked with gzip, zstd and none; rpmbuild's packages against
# rpm2archive's payload and rpm -qp; the cache (a second run reads nothing,
# changed tables make it read all again). Package by package, a check each
# (tests/debs/compare says what differs). Without the network or apt's
# lists the Debian part is skipped, and said so.
# Ends with "debs: N passed, N failed[, N skipped]". DEBS_KEEP=DIR: work in
# DIR (made empty first) and leave it, to look into a failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
A=${ABIDEP:-$PWD/build/abidep}
C=$PWD/tests/debs/compare
if [ -n "${DEBS_KEEP:-}" ]; then
	rm -rf "$DEBS_KEEP" && mkdir -p "$DEBS_KEEP" && T=$(cd "$DEBS_KEEP" && pwd) || exit 2
else
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
fi
# rpm and rpmbuild keep their own database in ~/.rpmdb: never the user's.
export HOME="$T/home"
mkdir -p "$HOME"

status() {
	"$@" >"$T/out" 2>"$T/err"
	echo $?
}

# ok FILE: a verdict of tests/debs/compare ("OK ..."), else what differs.
ok() {
	test -f "$1" || { echo "no verdict $1 (compare did not run)"; return 1; }
	head -n 1 "$1" | grep -q '^OK ' || { cat "$1"; return 1; }
}

# The files of a directory with their sizes and times, to see nothing change.
snapshot() {
	find "$1" -printf '%p %y %s %T@\n' | sort
}
unchanged() {
	snapshot "$1" | diff -u "$2" -
}

# jq-less JSON questions: python3 -c CODE FILE, d the document.
jsonq() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $1" "$2"
}

section "setup"
check "abidep is built ($A; make tools)" test -x "$A"
"$A" scan --print-patterns >"$T/pat" 2>/dev/null
check "scan --print-patterns" test -s "$T/pat"

section "the Debian packages (tests/debs/fetch)"
D=$(tests/debs/fetch)
rc=$?
if [ "$rc" = 77 ]; then
	echo "#"
	echo "# ***************************************************************"
	echo "# SKIPPED: the real Debian packages cannot be fetched here (no"
	echo "# network or apt lists; tests/debs/fetch said why above). Their"
	echo "# checks do not run: this is no pass."
	echo "# ***************************************************************"
	echo "#"
	skip "the Debian 12 packages of tests/debs/packages.list (tests/debs/fetch: exit 77)"
	D=
elif [ "$rc" != 0 ]; then
	check "tests/debs/fetch: exit 0 (not $rc)" false
	D=
else
	check "tests/debs/fetch: exit 0" test -d "$D"
	nlist=$(sed 's/#.*//' tests/debs/packages.list | awk 'NF' | wc -l)
	ndebs=$(find "$D" -maxdepth 1 -name '*.deb' | wc -l)
	check "... the cache holds a .deb for each of the list's $nlist names" test "$ndebs" = "$nlist"
	[ "$ndebs" -gt 0 ] || D=
fi

if [ -n "$D" ]; then
	W=$T/debs
	mkdir -p "$W/unp" "$W/root" "$W/grep" "$W/fields" "$W/sha" "$W/res"
	ln -s "$D" "$W/debs"
	snapshot "$D" >"$T/D.before"

	section "the packages unpacked (dpkg-deb -R), scanned as roots, searched with grep"
	bad=
	for f in "$D"/*.deb; do
		b=$(basename "$f" .deb)
		U=$W/unp/$b
		dpkg-deb -R "$f" "$U" || bad="$bad $b(dpkg-deb)"
		"$A" scan -j --weak "$U" >"$W/root/$b.json"
		[ $? -le 1 ] || bad="$bad $b(scan)"
		LC_ALL=C grep -rlwF -f "$T/pat" "$U" >"$W/grep/$b"
		[ $? -le 1 ] || bad="$bad $b(grep)"
		dpkg-deb -f "$f" Package Version Architecture Maintainer Source >"$W/fields/$b" ||
			bad="$bad $b(dpkg-deb -f)"
		sha256sum <"$f" >"$W/sha/$b"
	done
	check "each of the $ndebs packages unpacked, scanned and searched" test -z "$bad"
	[ -z "$bad" ] || echo "#   failed:$bad"

	section "scan --packages DIR"
	check "-j --weak: exit 1 (hits)" test "$(status "$A" scan --packages -j --weak "$D")" = 1
	cp "$T/out" "$W/pkg.json"
	check "... nothing on stderr" test ! -s "$T/err"
	check "... the top-level keys" jsonq '
assert isinstance(d["packages"], list) and isinstance(d["hits"], list), d.keys()
assert isinstance(d["unreadable"], list) and isinstance(d["files"], int) and isinstance(d["bytes"], int), d.keys()' "$W/pkg.json"
	check "... every package read, none unreadable" jsonq "
assert d['unreadable'] == [], d['unreadable'][:3]
assert len(d['packages']) == $ndebs, len(d['packages'])" "$W/pkg.json"
	check "... as many files as in the unpacked trees (data and control)" \
		same "$(jsonq 'print(d["files"])' "$W/pkg.json" 2>/dev/null)" \
		"$(cat "$W"/root/*.json | python3 -c '
import json, sys
print(sum(json.loads(l)["files"] for l in sys.stdin if l.strip()))')"
	# A hard link's data is once in a tar, and read once; unpacked, it is
	# two files, read twice: the second names' bytes, apart.
	mkdir -p "$T/links"
	i=0
	find "$W/unp" -type f -links +1 -printf '%i %p\n' | sort |
		awk 'seen[$1]++ { sub(/^[0-9]+ /, ""); print }' | while read -r f; do
		i=$((i + 1))
		mkdir -p "$T/links/$i" && cp "$f" "$T/links/$i/"
	done
	lbytes=$("$A" scan -j --weak "$T/links" | python3 -c 'import json, sys; print(json.load(sys.stdin)["bytes"])')
	check "... as many bytes read as from the unpacked trees (the same parts of ELF files), a hard link's once" \
		same "$(jsonq 'print(d["bytes"])' "$W/pkg.json" 2>/dev/null)" \
		"$(cat "$W"/root/*.json | python3 -c '
import json, sys
print(sum(json.loads(l)["bytes"] for l in sys.stdin if l.strip()) - int(sys.argv[1]))' "${lbytes:-0}")"
	check "--by-package -j --weak: exit 1" \
		test "$(status "$A" scan --packages --by-package -j --weak "$D")" = 1
	check "... a row per package with hits, as the hits of -j summed per package file" \
		python3 - "$T/out" "$W/pkg.json" <<'EOF'
import json, sys
got, hits = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["hits"]
want = {}
for h in hits:
    r = want.setdefault(h["archive"], [h["package"], h["package_version"], set(), 0, 0, 0, 0, set()])
    r[2].add(h["file"]); r[3] += 1; r[4 + ["strong", "medium", "weak"].index(h["confidence"])] += 1
    r[7].add(h["what"])
rows = {r["archive"]: [r["package"], r["package_version"], r["files"], r["hits"], r["strong"],
                       r["medium"], r["weak"], [w["what"] for w in r["whats"]]] for r in got["by_package"]}
want = {a: w[:2] + [len(w[2])] + w[3:7] + [sorted(w[7])] for a, w in want.items()}
assert len(rows) == len(got["by_package"]) == len(want) > 10 and rows == want, (len(rows), len(want))
EOF
	check "-l -j --weak --all-bytes: exit 1" \
		test "$(status "$A" scan --packages -l -j --weak --all-bytes "$D")" = 1
	cp "$T/out" "$W/list.json"
	check "... nothing on stderr" test ! -s "$T/err"
	check "tests/debs/compare runs" "$C" debs "$W" "$W/res"
	for f in "$D"/*.deb; do
		b=$(basename "$f" .deb)
		p=$(sed -n 's/^Package: //p' "$W/fields/$b")
		check "$p: the hits of the package file = those of it unpacked, file for file" ok "$W/res/hits.$b"
		check "$p: the files with hits (--all-bytes) = grep -rlwF's" ok "$W/res/files.$b"
		check "$p: package, version, architecture, source, maintainer = dpkg-deb -f's; sha256 = sha256sum's" \
			ok "$W/res/fields.$b"
	done

	check "perl-base: the hard link /usr/bin/perl5.36.0 has the hits of /usr/bin/perl" jsonq '
hits = lambda f: sorted((h["offset"], h["what"], h["match"]) for h in d["hits"]
                        if h["package"] == "perl-base" and h["file"] == f)
assert hits("/usr/bin/perl") and hits("/usr/bin/perl") == hits("/usr/bin/perl5.36.0"), \
	(len(hits("/usr/bin/perl")), len(hits("/usr/bin/perl5.36.0")))' "$W/pkg.json"

	section "other compressions: a real package repacked (dpkg-deb -b -Z)"
	# Debian 12's packages are all xz: ir-keytable's tree, as dpkg-deb -R
	# left it, packed again with gzip, zstd and none.
	b=$(awk '$1 == "ir-keytable" { sub(/\.deb$/, "", $3); print $3 }' "$D/MANIFEST")
	mkdir -p "$T/z"
	for z in gzip:.gz zstd:.zst none:; do
		check "dpkg-deb -Z${z%%:*} -b ir-keytable: data.tar${z#*:}" sh -c "
			dpkg-deb --root-owner-group -Z${z%%:*} -b '$W/unp/$b' '$T/z/$b-${z%%:*}.deb' >/dev/null &&
			ar t '$T/z/$b-${z%%:*}.deb' | grep -qx 'data.tar${z#*:}'"
	done
	check "scan --packages of the three: exit 1" test "$(status "$A" scan --packages -j --weak "$T/z")" = 1
	cp "$T/out" "$T/z.json"
	check "... each the hits and fields of the original (xz)" python3 - "$W/pkg.json" "$T/z.json" "$b" <<'EOF'
import json, os, sys
orig, new, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
key = lambda h: (h["file"], h["offset"], h["line"], h["what"], h["match"], h["confidence"], h["package"])
of = lambda h: os.path.basename(h["archive"])
want = {key(h) for h in orig["hits"] if of(h) == b + ".deb"}
assert want, "no hits of %s in the first scan" % b
fields = lambda p: {k: v for k, v in p.items() if k not in ("file", "sha256", "cached", "members")}
wantp = [fields(p) for p in orig["packages"] if os.path.basename(p["file"]) == b + ".deb"]
assert len(new["packages"]) == 3 and new["unreadable"] == [], (new["packages"], new["unreadable"])
for z in ("gzip", "zstd", "none"):
    got = {key(h) for h in new["hits"] if of(h) == "%s-%s.deb" % (b, z)}
    assert got == want, (z, len(got - want), len(want - got), sorted(got ^ want)[:3])
    p = [fields(p) for p in new["packages"] if os.path.basename(p["file"]) == "%s-%s.deb" % (b, z)]
    assert p == wantp, (z, p, wantp)
EOF

	section "the cache (--cache DIR)"
	K=$T/cache
	check "a first run: exit 1" test "$(status "$A" scan --packages -j --weak --cache "$K" "$D")" = 1
	cp "$T/out" "$T/c1.json"
	check "... nothing cached yet" jsonq 'assert not any(p["cached"] for p in d["packages"]), "cached"' "$T/c1.json"
	check "... the hits of the run without a cache" "$C" same "$W/pkg.json" "$T/c1.json"
	t0=$(date +%s%N)
	check "a second run: exit 1" test "$(status "$A" scan --packages -j --weak --cache "$K" "$D")" = 1
	t1=$(date +%s%N)
	cp "$T/out" "$T/c2.json"
	echo "#   (the cached run: $(((t1 - t0) / 1000000)) ms)"
	check "... every package cached" jsonq "
assert len(d['packages']) == $ndebs and all(p['cached'] is True for p in d['packages']), \
	[p['file'] for p in d['packages'] if p['cached'] is not True][:5]" "$T/c2.json"
	check "... the same hits" "$C" same "$T/c1.json" "$T/c2.json"
	check "... the same packages (but cached)" python3 -c '
import json, sys
a, b = (json.load(open(f))["packages"] for f in sys.argv[1:])
strip = lambda ps: sorted(sorted((k, str(v)) for k, v in p.items() if k != "cached") for p in ps)
assert strip(a) == strip(b)' "$T/c1.json" "$T/c2.json"
	cp -r migration-tables "$T/tables"
	check "the tables copied elsewhere, unchanged: still cached (keyed by content)" \
		sh -c "'$A' scan --packages -j --weak --cache '$K' -t '$T/tables' '$D' >'$T/c3.json'; test \$? = 1"
	check "... every package" jsonq 'assert all(p["cached"] is True for p in d["packages"])' "$T/c3.json"
	# An entry's Date: the tables' content changes, not what is searched.
	sed -i '0,/^Date:\t\tApril 2010$/s//Date:\t\tMay 2010/' "$T/tables/sysfs-class-rc"
	check "an entry's Date changed (the tables still valid)" sh -c "
		grep -qx 'Date:		May 2010' '$T/tables/sysfs-class-rc' && '$A' tables validate '$T/tables' >/dev/null"
	check "... scan: exit 1" \
		sh -c "'$A' scan --packages -j --weak --cache '$K' -t '$T/tables' '$D' >'$T/c4.json'; test \$? = 1"
	check "... no package cached (the cache is keyed by the tables' content)" jsonq \
		'assert not any(p["cached"] for p in d["packages"]), "%d of %d cached" % (sum(p["cached"] for p in d["packages"]), len(d["packages"]))' "$T/c4.json"
	check "... the same hits" "$C" same "$T/c1.json" "$T/c4.json"
	# Prose lines before the entries: the tables' lines shift; cached or
	# not, each hit names its entry's line in the tables now.
	sed -i '1s/$/\nA line of prose more.\nAnd another./' "$T/tables/sysfs-class-rc"
	check "two lines added to a table's prose (the tables still valid)" \
		"$A" tables validate "$T/tables"
	check "... scan with the cache, and without: exit 1" sh -c "
		'$A' scan --packages -j --weak --cache '$K' -t '$T/tables' '$D' >'$T/c6.json'; test \$? = 1 &&
		{ '$A' scan --packages -j --weak -t '$T/tables' '$D' >'$T/c7.json'; test \$? = 1; }"
	check "... the same hits, at the same table lines" "$C" same-tables "$T/c6.json" "$T/c7.json"
	check "... (the hits of rcN/protocol name its entry's new line, 35, not 33)" jsonq '
rc = {h["table_line"] for h in d["hits"] if h["what"] == "/sys/class/rc/rcN/protocol"}
assert rc == {35}, rc' "$T/c7.json"
	# A What more for an entry, a name no package has: searched for, so
	# every package is read again, and the hits are the same.
	sed -i 's|^What:\t\t/sys/class/rc/rcN/current_protocol$|&\nWhat:\t\t/sys/class/rc/rcN/abidep_test_never_seen|' \
		"$T/tables/sysfs-class-rc"
	check "a What added to an entry (the tables still valid)" sh -c "
		'$A' scan --print-patterns -t '$T/tables' 2>/dev/null | grep -qx abidep_test_never_seen &&
		'$A' tables validate '$T/tables' >/dev/null"
	check "... scan: exit 1" \
		sh -c "'$A' scan --packages -j --weak --cache '$K' -t '$T/tables' '$D' >'$T/c5.json'; test \$? = 1"
	check "... no package cached" jsonq \
		'assert not any(p["cached"] for p in d["packages"]), "%d of %d cached" % (sum(p["cached"] for p in d["packages"]), len(d["packages"]))' "$T/c5.json"
	check "... the same hits" "$C" same "$T/c1.json" "$T/c5.json"
	check "nothing written where the packages are" unchanged "$D" "$T/D.before"
	check "... in the cache directory, only the cache" \
		same "$(find "$K" -mindepth 1 -printf '%P\n' | sort | tr '\n' ' ')" "scan-cache.sqlite "
fi

section "rpm: rpmbuild's packages"
check "rpm, rpmbuild and rpm2archive are installed (make deps)" \
	sh -c "command -v rpm && command -v rpmbuild && command -v rpm2archive" </dev/null
mkdir -p "$T/rpmbuild/SPECS"
# An epoch, a packager, a %post that reads a deprecated attribute, two
# files (a script and a config); and one without epoch, whose %preun and
# %postun do.
cat >"$T/rpmbuild/SPECS/legacy-ir-reader.spec" <<'EOF'
Name:		legacy-ir-reader
Epoch:		2
Version:	1.2
Release:	3.fc40
Summary:	Reads the IR protocol the old way
License:	GPL-2.0-only
BuildArch:	noarch
Packager:	Jane Doe <jane@example.org>

%description
A test package of abidep's: scripts that read a deprecated attribute.

%install
mkdir -p %{buildroot}/usr/bin %{buildroot}/etc
printf '#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n' >%{buildroot}/usr/bin/legacy-ir-reader
printf '# the remote\nattr = rc0/current_protocol\n' >%{buildroot}/etc/legacy-ir.conf
chmod 755 %{buildroot}/usr/bin/legacy-ir-reader

%post
echo setting up
cat /sys/class/rc/rc0/current_protocol >/dev/null 2>&1 || :

%files
/usr/bin/legacy-ir-reader
%config /etc/legacy-ir.conf
EOF
cat >"$T/rpmbuild/SPECS/cpuidle-gov.spec" <<'EOF'
Name:		cpuidle-gov
Version:	0.3
Release:	1
Summary:	Shows the cpuidle governor
License:	GPL-2.0-only
BuildArch:	noarch
Packager:	Build System <build@example.org>

%description
A test package of abidep's.

%install
mkdir -p %{buildroot}/usr/share/cpuidle-gov
printf 'see /sys/devices/system/cpu/cpuidle/current_governor_ro\n' >%{buildroot}/usr/share/cpuidle-gov/notes

%preun
cat /sys/devices/system/cpu/cpuidle/current_governor_ro

%postun
# nothing here
test -e /sys/class/rc/rc0/current_protocol && echo nec >/sys/class/rc/rc0/current_protocol || :

%files
/usr/share/cpuidle-gov/notes
EOF
for s in legacy-ir-reader cpuidle-gov; do
	check "rpmbuild -bb $s (noarch, offline)" \
		sh -c "rpmbuild --define '_topdir $T/rpmbuild' -bb '$T/rpmbuild/SPECS/$s.spec' >'$T/build-$s.log' 2>&1"
done
R=$T/rpm
mkdir -p "$R/unp" "$R/root" "$R/scripts" "$R/qf" "$R/sha" "$R/res"
ln -s "$T/rpmbuild/RPMS/noarch" "$R/rpms"
cp "$T/pat" "$R/pat"
nrpm=0
for f in "$T"/rpmbuild/RPMS/noarch/*.rpm; do
	[ -f "$f" ] || continue
	nrpm=$((nrpm + 1))
	b=$(basename "$f" .rpm)
	# rpm2archive writes FILE.tgz beside FILE: a copy, away from the scan.
	cp "$f" "$T/$b.rpm"
	mkdir -p "$R/unp/$b"
	rpm2archive "$T/$b.rpm" && tar -xzf "$T/$b.rpm.tgz" -C "$R/unp/$b"
	"$A" scan -j --weak "$R/unp/$b" >"$R/root/$b.json"
	rpm -qp --scripts "$f" >"$R/scripts/$b" 2>/dev/null
	rpm -qp --qf '%{NAME}|%{EPOCH}|%{VERSION}-%{RELEASE}|%{ARCH}|%{PACKAGER}|%{SOURCERPM}' "$f" >"$R/qf/$b" 2>/dev/null
	sha256sum <"$f" >"$R/sha/$b"
done
check "two packages built" test "$nrpm" = 2
check "rpm2archive's payload = rpm2cpio | cpio's" sh -c "
	for f in '$T'/rpmbuild/RPMS/noarch/*.rpm; do
		b=\$(basename \"\$f\" .rpm)
		mkdir -p '$T/cpio'/\$b && (cd '$T/cpio'/\$b && rpm2cpio \"\$f\" | cpio -idm --quiet) &&
			diff -r '$R/unp'/\$b '$T/cpio'/\$b || exit 1
	done"
check "scan --packages -j --weak DIR: exit 1" \
	test "$(status "$A" scan --packages -j --weak "$T/rpmbuild/RPMS/noarch")" = 1
cp "$T/out" "$R/pkg.json"
check "... nothing on stderr" test ! -s "$T/err"
check "... both packages, none unreadable" jsonq \
	'assert len(d["packages"]) == 2 and d["unreadable"] == [], (d["packages"], d["unreadable"])' "$R/pkg.json"
check "tests/debs/compare runs" "$C" rpm "$R" "$R/res"
for f in "$T"/rpmbuild/RPMS/noarch/*.rpm; do
	b=$(basename "$f" .rpm)
	check "$b: the payload's hits = those of rpm2archive's tree, file for file" ok "$R/res/hits.$b"
	check "$b: the scriptlets' hits (file %post etc.) = the lines of rpm -qp --scripts with a name" \
		ok "$R/res/scripts.$b"
	check "$b: name, [epoch:]version-release, arch, packager, source = rpm -qp --qf's; sha256" \
		ok "$R/res/fields.$b"
done
check "legacy-ir-reader's %post hit: strong, line 2" jsonq '
h = [h for h in d["hits"] if h["file"] == "%post"]
assert [(h["line"], h["confidence"], h["match"]) for h in h] == [(2, "strong", "/sys/class/rc/rc0/current_protocol")], h' "$R/pkg.json"
check "cpuidle-gov: no epoch in its version, hits in %preun and %postun" jsonq '
p = [p for p in d["packages"] if p["package"] == "cpuidle-gov"][0]
assert p["version"] == "0.3-1", p
assert sorted({h["file"] for h in d["hits"] if h["package"] == "cpuidle-gov" and h["file"].startswith("%")}) == ["%postun", "%preun"], d["hits"]' "$R/pkg.json"

finish debs
