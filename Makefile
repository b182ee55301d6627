# abidep: top-level build and test entry points.
#
#   make            build kmod/abidep.ko, the example driver (W=1) and build/abidep
#   make deps       install the Debian packages everything needs (idempotent)
#   make test       builds, checkpatch, unit, CLI, fuzz, KUnit (UML), guest tests
#   make demo       the whole story in a QEMU guest, in under a minute
#   make bench      speed figures, side by side with the kernel's own tools
#   make tables     regenerate kmod/table_gen.h from migration-tables/
#
# V=1 shows the commands.

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
export KVER

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all deps module tools tables unit cli fuzz checkpatch kunit check-vm test \
	demo bench clean help

all: module tools

help:
	@sed -n '2,11p' Makefile | sed 's/^# \{0,1\}//'

deps:
	$(Q)scripts/deps.sh

# kbuild writes its objects into kmod/: one build at a time.
module:
	$(Q)mkdir -p build && flock build/.module.lock \
		$(MAKE) --no-print-directory -C kmod W=1 $(if $(filter 1,$(V)),V=1,-s)

tools:
	$(Q)$(MAKE) --no-print-directory -C tools $(if $(filter 1,$(V)),V=1)

tables: tools
	$(Q)build/abidep tables validate
	$(Q)build/abidep tables export --c -o kmod/table_gen.h

unit:
	$(Q)tests/unit/run

cli: tools
	$(Q)tests/cli/tables.sh
	$(Q)tests/cli/report.sh

fuzz:
	$(Q)tests/fuzz/run $${FUZZ_SECONDS:-600}

bench: deps tools
	$(Q)scripts/bench.sh

checkpatch:
	$(Q)scripts/checkpatch.sh

kunit:
	$(Q)tests/kunit/run

check-vm: module tools
	$(Q)tests/vm/run --timeout 600 tests/vm/module-tests.sh
	$(Q)tests/vm/run --timeout 600 tests/vm/trace-tests.sh

test: deps
	$(Q)scripts/run-tests.sh

demo: deps module tools
	$(Q)tests/vm/run --timeout 300 scripts/demo-guest.sh

clean:
	$(Q)$(MAKE) --no-print-directory -C kmod clean >/dev/null
	$(Q)$(MAKE) --no-print-directory -C tools clean
	$(Q)rm -rf build
