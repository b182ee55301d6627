#!/bin/sh
# Print the exact Debian kernel version (e.g. 6.1.0-57-amd64) of a supported
# kernel, from the one list in scripts/kernels, so nothing else names one.
#
#   scripts/kver.sh            $KVER if set (a series such as 6.12 is resolved),
#                              else the default kernel (the list's first line)
#   scripts/kver.sh SERIES     that series' kernel, e.g. 6.12
#   scripts/kver.sh --all      every supported kernel, one a line, default first
#   scripts/kver.sh --series K the series of kernel K (6.12.118+deb12-amd64 -> 6.12)
#   scripts/kver.sh --packages the headers and source packages of every kernel
#                              (for make deps: the newest versions apt offers)
#
# KVER=debug (or `scripts/kver.sh debug`) is the debug guest kernel
# scripts/debug-kernel.sh built (6.12.N-abidep-debug, not a supported kernel
# of its own: --all and --packages leave it out); its exact version is taken
# as given, like any other, and its series is 6.12.
#
# A kernel is found among the installed headers; with --packages, among those
# apt can install. Exit 1 with a message saying what to run when it is not.
set -eu
list=$(dirname "$0")/kernels

kernels() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list"; }

# series_of KVER: the supported series KVER belongs to, or nothing
series_of() {
	kernels | while read -r s _; do
		case $1 in "$s" | "$s".* | "$s"-*) echo "$s" && break ;; esac
	done
}

# headers_pkg SERIES [available]: the headers package naming SERIES' kernel
headers_pkg() {
	pat=$(kernels | awk -v s="$1" '$1 == s {print $2}')
	case $pat in
	*'*'*)
		if [ "${2:-}" = available ]; then
			apt-cache search --names-only "^$(echo "$pat" | sed 's/\./\\./g; s/\*/.*/')\$" 2>/dev/null |
				awk '{print $1}'
		else
			dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$pat" 2>/dev/null |
				awk '$1 == "ii" {print $2}'
		fi | sort -V | tail -n 1
		;;
	*) echo "$pat" ;;
	esac
}

# kver_of SERIES: the exact kernel version of SERIES, from installed headers
kver_of() {
	pkg=$(headers_pkg "$1")
	case $pkg in
	'') ;;
	linux-headers-[0-9]*)
		dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^ii' &&
			echo "${pkg#linux-headers-}"
		;;
	*)
		dpkg-query -W -f='${Depends}' "$pkg" 2>/dev/null |
			sed -n 's/.*linux-headers-\([0-9][^ ,]*\).*/\1/p' | head -n 1
		;;
	esac
}

# debug_kver: the version of the debug kernel scripts/debug-kernel.sh built
debug_kver() {
	f=${ABIDEP_CACHE:-/var/cache/abidep}/debug-kernel/kver
	[ -s "$f" ] && cat "$f" && return
	echo "kver: the debug kernel is not built ($f is missing); run 'scripts/debug-kernel.sh' (or 'make test-debug')" >&2
	exit 1
}

resolve() {
	[ "$1" != debug ] || { debug_kver; return; }
	s=$(series_of "$1")
	if [ -z "$s" ]; then
		echo "kver: kernel '$1' is not supported; supported: $(kernels | awk '{printf "%s%s", sep, $1; sep=", "}') (scripts/kernels)" >&2
		exit 1
	fi
	# An exact version is taken as given; a series is looked up.
	[ "$1" != "$s" ] && echo "$1" && return
	k=$(kver_of "$s")
	if [ -z "$k" ]; then
		echo "kver: no headers for kernel $s are installed ($(headers_pkg "$s" available || true)); run 'make deps'" >&2
		exit 1
	fi
	echo "$k"
}

case ${1:-} in
--all)
	kernels | while read -r s _; do resolve "$s"; done
	;;
--series)
	k=${2:?kver: --series needs a kernel version}
	[ "$k" != debug ] || k=$(debug_kver)
	s=$(series_of "$k")
	[ -n "$s" ] || { echo "kver: kernel '$2' is not supported (scripts/kernels)" >&2; exit 1; }
	echo "$s"
	;;
--packages)
	kernels | while read -r s _; do
		p=$(headers_pkg "$s" available)
		[ -n "$p" ] || { echo "kver: apt offers no headers package for kernel $s; run 'apt-get update'" >&2; exit 1; }
		echo "$p linux-source-$s"
	done
	;;
-*)
	echo "kver: unknown option '$1' (see the comment at the top of $0)" >&2
	exit 2
	;;
'')
	resolve "${KVER:-$(kernels | awk 'NR == 1 {print $1}')}"
	;;
*)
	resolve "$1"
	;;
esac
