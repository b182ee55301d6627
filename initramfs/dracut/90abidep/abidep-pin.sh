#!/bin/sh
# dracut pre-udev hook (module-setup.sh): pin abidep's usage tracer before
# udev starts. Sourced by dracut's init: it never exits, and never stops the
# boot (abidep-initramfs says why).
[ -x @LIBEXECDIR@/abidep-initramfs ] && @LIBEXECDIR@/abidep-initramfs pin
:
