#!/bin/sh
# dracut cmdline hook: root=abidep9p is the test guest's (mount-abidep9p.sh).
# shellcheck disable=SC2034 # dracut's init reads rootok
[ "${root:-}" = abidep9p ] && rootok=1
:
