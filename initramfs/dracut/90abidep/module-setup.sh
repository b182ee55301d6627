#!/bin/bash
# dracut module: abidep's usage tracer in the initramfs, pinned before udev
# starts (the pre-udev hook), then made to watch the files the initramfs's
# devices added (the pre-mount hook): abidep-initramfs does both. Included
# when the administrator opted in (TRACE_INITRAMFS=yes in
# /etc/default/abidep, then dracut -f), or asked for it by name
# (add_dracutmodules+=" abidep ").

# called by dracut
check() {
	require_binaries @SBINDIR@/abidep @LIBEXECDIR@/abidep-initramfs || return 1
	@LIBEXECDIR@/abidep-initramfs wanted && return 0
	return 255
}

# called by dracut
depends() {
	return 0
}

# called by dracut
install() {
	local tables=@TABLESDIR@
	if [[ ! -d $tables ]]; then
		dwarn "abidep: no migration tables in $tables; the initramfs will not trace"
		return 0
	fi
	# Where the system has them: the pinned tracer's record names the
	# tables by path, the same in the initramfs and after switch_root.
	inst_binary @SBINDIR@/abidep
	# Loaded with dlopen() (the host key), which inst_binary cannot see.
	inst_libdir_file libsystemd.so.0
	inst_script @LIBEXECDIR@/abidep-initramfs
	inst_multiple cat cut grep mkdir mount sed tail
	inst_multiple "$tables"/*
	[[ -e $tables/.enumerators ]] && inst_simple "$tables/.enumerators"
	# What the helper runs at boot; without it, it does nothing.
	echo @SBINDIR@/abidep >"${initdir:?}/etc/abidep-initramfs"
	# shellcheck disable=SC2154 # moddir: dracut sets it
	inst_hook pre-udev 10 "$moddir/abidep-pin.sh"
	inst_hook pre-mount 10 "$moddir/abidep-refresh.sh"
}
