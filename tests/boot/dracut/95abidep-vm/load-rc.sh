#!/bin/sh
# dracut pre-trigger hook: the modules of the deprecated file the reader
# reads, loaded after abidep's pre-udev hook pinned the tracer (as a
# driver loaded at the initramfs's coldplug would be): the file is watched
# only if abidep's pre-mount hook refreshes the pinned tracer's set.
modprobe abidep && modprobe rc-loopback ||
	echo "<4>abidep-vm: cannot load abidep and rc-loopback in the initramfs" >/dev/kmsg
:
