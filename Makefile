# abidep: top-level build and test entry points.
#
#   make            build abidep.ko and the example driver (W=1) into
#                   build/kmod/$KVER/, and build/abidep (KVER=6.12: for 6.12)
#   make deps       install the Debian packages everything needs (idempotent)
#   make test       builds, checkpatch, htmldocs, unit, CLI, fuzz, KUnit (the default
#                   kernel's source), the runner's self-test, guest and upgrade tests
#                   (every kernel); about an hour cold on 2 cores
#   make test-full  make test, and the slowest suites (tests/suites-full): KUnit from
#                   every kernel's source and under KASAN, the Debian packages,
#                   the boots through an initramfs made by dracut
#   make test-debug the module, brownout, stress, fault, security and hostile-input
#                   guest suites on a 6.12 kernel with KASAN, lockdep, KFENCE, ...
#                   (~20 min; the kernel is built once, 13-24 min; not in make test)
#   make patches-check  the kernel series patches/linux-6.12/: git am, checkpatch,
#                   a W=1 build after each patch, its KUnit suite, the guest on the
#                   debug kernel carrying it (not in make test)
#   make demo       the whole story in a QEMU guest, in under a minute
#   make bench      speed figures, side by side with the kernel's own tools
#   make stress     STRESS_SECONDS (300) of load and churn in the guest
#   make tables     regenerate kmod/table_gen.h from migration-tables/
#   make install    [DESTDIR=...] [PREFIX=/usr/local]; make uninstall
#   make htmldocs   Documentation/ as HTML in build/htmldocs (Sphinx, -W)
#
# V=1 shows the commands.

# The kernel to build and test for: KVER=6.12 (a series in scripts/kernels)
# or an exact version; the default is the list's first.
# Resolved when a recipe runs, so after make deps has installed the headers.
KVER_ASKED := $(KVER)
override KVER = $(shell scripts/kver.sh $(KVER_ASKED) 2>/dev/null)
export KVER
# In the recipes that need the kernel: stop with kver.sh's own message.
need_kver = $(if $(KVER),,@scripts/kver.sh $(KVER_ASKED) >/dev/null; exit 1)

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all deps module tools tables unit cli fuzz checkpatch kunit check-vm test test-full \
	test-debug patches-check demo bench stress clean help man htmldocs install install-dkms uninstall

all: module tools

help:
	@sed -n '2,22p' Makefile | sed 's/^# \{0,1\}//'

deps:
	$(Q)scripts/deps.sh

# Into build/kmod/$(KVER)/ (kmod/Makefile); one build at a time per kernel.
module:
	$(need_kver)
	$(Q)mkdir -p build/kmod && flock build/kmod/.lock-$(KVER) \
		$(MAKE) --no-print-directory -C kmod W=1 $(if $(filter 1,$(V)),V=1,-s)

tools:
	$(Q)$(MAKE) --no-print-directory -C tools $(if $(filter 1,$(V)),V=1)

tables: tools
	$(Q)build/abidep tables validate
	$(Q)build/abidep tables export --c -o kmod/table_gen.h

# The narrower targets run groups of tests/suites, the list make test runs.
unit:
	$(Q)scripts/run-tests.sh unit

cli: tools
	$(Q)scripts/run-tests.sh cli

fuzz:
	$(Q)FUZZ_SECONDS=$${FUZZ_SECONDS:-600} scripts/run-tests.sh fuzz

# Not part of make test: figures, about half an hour (scripts/bench.sh).
bench: deps tools
	$(Q)for k in $$(scripts/kver.sh --all); do \
		$(MAKE) --no-print-directory module KVER=$$k || exit 1; done
	$(Q)scripts/bench.sh

checkpatch:
	$(Q)scripts/checkpatch.sh

# KVER=... for one kernel; every supported kernel by default.
kunit:
	$(Q)FULL=1 KERNELS=$(if $(KVER_ASKED),$(KVER)) scripts/run-tests.sh kunit

check-vm: tools
	$(Q)for k in $(if $(KVER_ASKED),$(KVER),$$(scripts/kver.sh --all)); do \
		$(MAKE) --no-print-directory module KVER=$$k || exit 1; done
	$(Q)KERNELS=$(if $(KVER_ASKED),$(KVER)) scripts/run-tests.sh guest

# STRESS_SECONDS (default 300) of load and churn in the guest
# (tests/guest/stress.sh); `make test` runs a 40 s version.
STRESS_SECONDS ?= 300
stress: module tools
	$(Q)tests/vm/run --timeout $$(($(STRESS_SECONDS) + 600)) \
		tests/guest/stress.sh $(STRESS_SECONDS)

test: deps
	$(Q)scripts/run-tests.sh

test-full: deps
	$(Q)FULL=1 scripts/run-tests.sh

# The debug guest kernel (scripts/debug-kernel.sh, tests/vm/debug.config):
# built once (cached in $$ABIDEP_CACHE/debug-kernel), abidep.ko built
# against its build directory; its checkers shown to report and fail a run
# (tests/guest/debug-selftest.sh), then these suites of tests/suites on it.
DEBUG_SUITES := module brownout stress fault security hostile
# A rebuilt kernel has new BTF: modules built before it do not load (their
# split BTF is against the old one), and kbuild does not see it for M=.
test-debug: deps tools
	$(Q)k=$$(scripts/debug-kernel.sh) && kdir=$$(scripts/debug-kernel.sh --kdir) && \
		{ [ -z "$$(find build/kmod/$$k -name '*.ko' ! -newer $$kdir/vmlinux 2>/dev/null)" ] || \
		  rm -rf build/kmod/$$k; } && \
		KDIR=$$kdir $(MAKE) --no-print-directory module KVER=$$k && \
		KVER=$$k SUITES=debug-selftest scripts/run-tests.sh debug && \
		KERNELS=$$k SUITES="$(DEBUG_SUITES)" scripts/run-tests.sh guest

# The tracer (build/abidep) watches the alias in the guest.
patches-check: deps tools
	$(Q)SUITES=patches-check scripts/run-tests.sh debug

demo: deps module tools
	$(need_kver)
	$(Q)tests/vm/run --timeout 300 scripts/demo-guest.sh

# ---- Installing (what the Debian packages are made of, see debian/rules) ----
# Keep VERSION equal to dkms.conf's PACKAGE_VERSION, debian/changelog and
# tools/main.c's ABIDEP_VERSION (tests/pkg/run checks).
VERSION := 0.1
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/abidep
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
UNITDIR ?= $(PREFIX)/lib/systemd/system
# udev reads rules from /lib (or /usr/lib) and /etc only, never /usr/local.
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/lib/udev/rules.d,/etc/udev/rules.d)
# systemd-modules-load reads /lib (or /usr/lib) and /etc, never /usr/local.
MODULESLOADDIR ?= $(if $(filter /usr,$(PREFIX)),/lib/modules-load.d,/etc/modules-load.d)
# initramfs-tools reads hooks and scripts from /usr/share and /etc only.
INITRAMFSDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/initramfs-tools,/etc/initramfs-tools)
# The hooks read /etc/default/abidep, whatever the prefix.
SYSCONFDIR ?= /etc
# dracut reads its modules from /usr/lib/dracut only.
DRACUTDIR ?= /usr/lib/dracut/modules.d
# abidep-initramfs, the initramfs hooks' one helper.
LIBEXECDIR ?= $(PREFIX)/lib/abidep
# dkms looks for sources in /usr/src, whatever the prefix.
DKMSDIR ?= /usr/src/abidep-$(VERSION)
RST2MAN ?= rst2man
# Installed files that name where others are installed.
SUBST := sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' \
	     -e 's|@TABLESDIR@|$(DATAROOTDIR)/abidep/migration-tables|g'
INITRAMFS_TOOLS := hooks/abidep scripts/init-top/abidep scripts/init-premount/abidep
DRACUT_MODULE := 90abidep/module-setup.sh 90abidep/abidep-pin.sh 90abidep/abidep-refresh.sh

MANS := $(patsubst Documentation/man/%.rst,build/man/%.8,$(wildcard Documentation/man/*.rst))
UNITS := abidep-trace-early.service abidep-trace.service abidep-sync.service \
	 abidep-sync.timer abidep-metrics.service abidep-metrics.timer
# The documents' source tree, as laid out in Documentation/ (make htmldocs
# renders it; install does not need Sphinx).
DOCS := $(wildcard Documentation/*.rst Documentation/*/*.rst Documentation/*/*.inc \
		  Documentation/ABI/testing/*)
# The module's sources without the KUnit tests and kbuild's generated files,
# typed attributes (kmod/typed/) in their own directory there too; the
# example driver (kmod/examples/) is a demo and is not installed.
KMOD_SRCS := $(filter-out %.mod.c %_test.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) kmod/Kbuild
KMOD_TYPED_SRCS := $(filter-out %.mod.c %_test.c,$(wildcard kmod/typed/*.c)) \
		   $(wildcard kmod/typed/*.h)

# Man pages: one source, Documentation/man/*.rst, rendered with rst2man.
man: $(MANS)

build/man/%.8: Documentation/man/%.rst
	$(Q)mkdir -p build/man
	$(Q)$(RST2MAN) --strict $< $@

# Documentation/ with Sphinx, warnings as errors (every :doc: link resolves,
# every kernel-doc comment is complete), every file read again (-E: a
# cached one would not warn again); conf.py says where the kernel's
# kernel-doc comes from.
SPHINXBUILD ?= sphinx-build
htmldocs:
	$(Q)$(SPHINXBUILD) -E -W --keep-going -q -b html -d build/htmldocs-doctrees \
		Documentation build/htmldocs

install: man
	$(Q)$(MAKE) --no-print-directory -C tools $(if $(filter 1,$(V)),V=1) \
		ABIDEP_DATADIR=$(DATAROOTDIR)/abidep
	$(Q)install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(DATAROOTDIR)/abidep/migration-tables \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(DOCDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(MODULESLOADDIR)
	$(Q)install -m 0755 build/abidep $(DESTDIR)$(SBINDIR)/abidep
	$(Q)install -m 0644 migration-tables/* migration-tables/.enumerators $(DESTDIR)$(DATAROOTDIR)/abidep/migration-tables/
	$(Q)install -D -m 0644 contrib/prometheus/abidep.rules.yml \
		$(DESTDIR)$(DATAROOTDIR)/abidep/prometheus/abidep.rules.yml
	$(Q)install -m 0644 $(MANS) $(DESTDIR)$(MANDIR)/man8/
	$(Q)install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	$(Q)install -D -m 0755 contrib/release-gate $(DESTDIR)$(DOCDIR)/examples/release-gate
	$(Q)for f in $(DOCS); do \
		install -D -m 0644 $$f $(DESTDIR)$(DOCDIR)/$${f#Documentation/} || exit 1; \
	done
	$(Q)install -m 0644 completion/abidep.bash $(DESTDIR)$(BASHCOMPDIR)/abidep
	$(Q)for u in $(UNITS); do \
		$(SUBST) systemd/$$u$$(test -f systemd/$$u.in && echo .in) \
			>$(DESTDIR)$(UNITDIR)/$$u && chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	$(Q)install -D -m 0755 initramfs/abidep-initramfs $(DESTDIR)$(LIBEXECDIR)/abidep-initramfs
	$(Q)for f in $(INITRAMFS_TOOLS); do \
		install -d $$(dirname $(DESTDIR)$(INITRAMFSDIR)/$$f) && \
		$(SUBST) initramfs/initramfs-tools/$$f >$(DESTDIR)$(INITRAMFSDIR)/$$f && \
		chmod 0755 $(DESTDIR)$(INITRAMFSDIR)/$$f || exit 1; \
	done
	$(Q)for f in $(DRACUT_MODULE); do \
		install -d $$(dirname $(DESTDIR)$(DRACUTDIR)/$$f) && \
		$(SUBST) initramfs/dracut/$$f >$(DESTDIR)$(DRACUTDIR)/$$f && \
		chmod 0755 $(DESTDIR)$(DRACUTDIR)/$$f || exit 1; \
	done
	$(Q)install -D -m 0644 initramfs/abidep.default $(DESTDIR)$(SYSCONFDIR)/default/abidep
	$(Q)install -m 0644 kmod/udev/60-abidep.rules $(DESTDIR)$(UDEVRULESDIR)/
	$(Q)install -m 0644 kmod/modules-load/abidep.conf $(DESTDIR)$(MODULESLOADDIR)/
	$(Q)$(MAKE) --no-print-directory install-dkms

# The DKMS sources alone (/usr/src/abidep-VERSION, the abidep-dkms package):
# tests/guest/walk-maintainer.sh installs them so in its guest.
install-dkms:
	$(Q)install -d $(DESTDIR)$(DKMSDIR)/typed
	$(Q)install -m 0644 $(KMOD_SRCS) dkms.conf $(DESTDIR)$(DKMSDIR)/
	$(Q)install -m 0755 dkms-post-build.sh $(DESTDIR)$(DKMSDIR)/
	$(Q)install -m 0644 $(KMOD_TYPED_SRCS) $(DESTDIR)$(DKMSDIR)/typed/

uninstall:
	$(Q)rm -f $(DESTDIR)$(SBINDIR)/abidep $(DESTDIR)$(BASHCOMPDIR)/abidep \
		$(DESTDIR)$(UDEVRULESDIR)/60-abidep.rules $(DESTDIR)$(MODULESLOADDIR)/abidep.conf \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MANS))) \
		$(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS)) \
		$(addprefix $(DESTDIR)$(INITRAMFSDIR)/,$(INITRAMFS_TOOLS)) \
		$(DESTDIR)$(LIBEXECDIR)/abidep-initramfs $(DESTDIR)$(SYSCONFDIR)/default/abidep
	$(Q)rm -rf $(DESTDIR)$(DRACUTDIR)/90abidep
	$(Q)rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null || true
	$(Q)rm -rf $(DESTDIR)$(DATAROOTDIR)/abidep $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DKMSDIR)

clean:
	$(Q)$(MAKE) --no-print-directory -C kmod clean >/dev/null
	$(Q)$(MAKE) --no-print-directory -C tools clean
	$(Q)rm -rf build
