#!/bin/sh
# dracut pre-mount hook (module-setup.sh): once udev has settled and the
# initramfs's modules are loaded, have the pinned tracer watch the files
# their devices added. Sourced by dracut's init: it never exits.
[ -x @LIBEXECDIR@/abidep-initramfs ] && @LIBEXECDIR@/abidep-initramfs refresh
:
