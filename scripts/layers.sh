#!/bin/sh
# The layers of tools/: the commands (tools/*.c) over the tracer's loader
# (tools/tracer/) over the library (tools/lib/). A layer includes only its
# own headers and those below it (plus kmod/'s shared parsers and bpf/'s
# map layouts). Prints the include graph, one line a file and the local
# headers it includes, then any include or call that goes up; exits 1 on
# one.
#	scripts/layers.sh [--graph]
set -u
cd "$(dirname "$0")/../tools" || exit 2
graph=${1:-}
bad=0
# where HEADER lives: lib, tracer, cmd, kmod, bpf, build (generated) or ?
where() {
	case $1 in
	bpf/*) echo bpf; return ;;
	*.skel.h) echo build; return ;;
	esac
	[ -f "lib/$1" ] && { echo lib; return; }
	[ -f "tracer/$1" ] && { echo tracer; return; }
	[ -f "$1" ] && { echo cmd; return; }
	[ -f "../kmod/$1" ] && { echo kmod; return; }
	echo '?'
}
for f in lib/*.[ch] tracer/*.[ch] *.[ch]; do
	case $f in lib/*) layer=lib ;; tracer/*) layer=tracer ;; *) layer=cmd ;; esac
	incs=$(sed -n 's/^#include "\(.*\)"/\1/p' "$f")
	line=""
	for h in $incs; do
		w=$(where "$h")
		line="$line $w:$h"
		case "$layer:$w" in
		lib:lib | lib:kmod | lib:bpf | tracer:lib | tracer:tracer | tracer:kmod | \
		tracer:bpf | tracer:build | cmd:*) ;;
		*) echo "layers: $f ($layer) includes $h ($w)"; bad=1 ;;
		esac
	done
	[ "$graph" = --graph ] && echo "$f:$line"
done
# Calls: no symbol a lower layer's objects use may be defined above it
# (build/tools/ from make tools; skipped, and said, when not built).
obj=../build/tools
if ls "$obj"/lib/*.o >/dev/null 2>&1; then
	defs() { nm --defined-only -g "$@" | awk 'NF == 3 { print $3 }' | sort -u; }
	uses() { nm -u "$@" | awk '{ print $NF }' | sort -u; }
	for pair in "lib:$obj/*.o $obj/tracer/*.o" "tracer:$obj/*.o"; do
		low=${pair%%:*}
		# shellcheck disable=SC2086
		up=$(comm -12 "$(uses "$obj"/"$low"/*.o >"$obj/.uses"; echo "$obj/.uses")" \
			"$(defs ${pair#*:} >"$obj/.defs"; echo "$obj/.defs")")
		for sym in $up; do
			echo "layers: $low/ calls $sym, defined above it"
			bad=1
		done
	done
	rm -f "$obj/.uses" "$obj/.defs"
else
	echo "layers: build/tools not built (make tools): calls not checked"
fi
[ $bad -eq 0 ] && echo "layers: no include or call goes up (lib < tracer < commands)"
exit $bad
