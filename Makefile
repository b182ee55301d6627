# abidep: top-level build and test entry points.
#
#   make            build kmod/abidep.ko and the example driver (W=1)
#   make deps       install the Debian packages everything needs (idempotent)
#   make test       W=1 build, checkpatch, KUnit (UML), guest tests (QEMU)
#   make demo       the whole story in a QEMU guest, in under a minute
#
# V=1 shows the commands.

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
export KVER

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all deps module checkpatch kunit check-vm test demo clean help

all: module

help:
	@sed -n '2,9p' Makefile | sed 's/^# \{0,1\}//'

deps:
	$(Q)scripts/deps.sh

module:
	$(Q)$(MAKE) --no-print-directory -C kmod W=1 $(if $(filter 1,$(V)),V=1,-s)

checkpatch:
	$(Q)scripts/checkpatch.sh

kunit:
	$(Q)tests/kunit/run

check-vm: module
	$(Q)tests/vm/run --timeout 600 tests/vm/module-tests.sh

test: deps
	$(Q)scripts/run-tests.sh

demo: deps module
	$(Q)tests/vm/run --timeout 300 scripts/demo-guest.sh

clean:
	$(Q)$(MAKE) --no-print-directory -C kmod clean >/dev/null
	$(Q)rm -rf build
