#!/bin/sh
# Build the module and the examples with W=1 from clean against the Debian
# headers of every supported kernel (scripts/kernels), and the abidep command
# with -Werror; any warning fails; then the layers of tools/
# (scripts/layers.sh). Prints "build-check: N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$repo/build"
pass=0 fail=0
for kver in $("$repo/scripts/kver.sh" --all); do
	log="$repo/build/module-build-$kver.log"
	out="$repo/build/kmod/$kver"
	make -C "$repo/kmod" KVER="$kver" clean >/dev/null 2>&1
	if make -C "$repo/kmod" KVER="$kver" W=1 >"$log" 2>&1; then built=1; else built=0; fi
	warnings=$(grep -c -E 'warning:|error:' "$log")
	grep -E 'warning:|error:' "$log"
	for ko in abidep.ko examples/abidep_ir_example.ko examples/abidep_lamp.ko; do
		if [ "$built" = 1 ] && [ -f "$out/$ko" ]; then
			pass=$((pass + 1))
		else
			echo "build: $ko for $kver not built; see $log"
			fail=$((fail + 1))
		fi
	done
	if [ "$warnings" -eq 0 ]; then pass=$((pass + 1)); else
		echo "build: $warnings W=1 warnings or errors for $kver; see $log"
		fail=$((fail + 1))
	fi
done
# The abidep command, from clean, warnings as errors.
tlog="$repo/build/tools-build.log"
make -C "$repo/tools" clean >/dev/null 2>&1
if make -C "$repo/tools" EXTRA_CFLAGS=-Werror >"$tlog" 2>&1 && [ -x "$repo/build/abidep" ]; then
	pass=$((pass + 1))
else
	cat "$tlog"
	echo "build: build/abidep did not build cleanly; see $tlog"
	fail=$((fail + 1))
fi
# The layers of tools/: no include or call from the library up to the
# tracer or the commands, nor from the tracer up to the commands.
if "$repo/scripts/layers.sh"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
fi
echo "build-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
