# SPDX-License-Identifier: GPL-2.0
# The lines starting with "##" are what "make help" prints.
## make TARGET; what each needs (Debian package names)
##   make                 module/rvvstat.ko for the running kernel; needs build-essential and
##                        linux-headers-$(uname -r), or KDIR=/path/to/kernel/build
##   make ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- KDIR=...   the same, cross-built
##   make tools           build/tool/: rvvctl, rvvtop, rvvbench, rvvstat-exporter, each whose
##                        libraries are installed ("make -C tool packages" lists them all);
##                        names the Debian package of each one it skips
##   make rvvtop          one tool (rvvctl, rvvtop, rvvbench, rvvstat-exporter); fails naming
##                        the packages it lacks
##   make install         install-module and install-tools (root)
##   make install-module  the module under /lib/modules (modules_install), then depmod
##   make install-tools   the tools, their man pages, the udev rule, the systemd units and
##                        the Grafana dashboard (PREFIX=/usr/local, DESTDIR=)
##   make dkms-install    register the source with DKMS (dkms), which rebuilds it per kernel
##   make demo            a riscv64 V guest in QEMU running llama-server under the module
##                        and rvvtop; needs what "sudo tests/rig/install-deps" installs
##   make check           the whole test suite: host tests, lint, then QEMU guests (the same)
##   make check-unit      the host tests alone, no QEMU, into build/unit (UNIT_OUT=DIR);
##                        prints "ok - ..." lines; needs the same packages
##   make bench           what the module costs a context switch, and rvvtop a CPU, in QEMU
##                        guests (tests/bench/run; the same packages as make check)
##   make soak            the soak stage at full counts, within SOAK_MINUTES (60)
##   make board-check     the README's "On a board" commands, literally, in a riscv64 guest
##                        on Debian trixie's kernel and userland (tests/rig/board-check):
##                        most of an hour; needs the same packages
##   make clean           the module's objects and build/
##   make help            this text
VERSION := 0.1.0
KDIR ?= /lib/modules/$(shell uname -r)/build
DKMS_SRC := /usr/src/rvvstat-$(VERSION)
# What a build reads: of the module (DKMS copies it; so do the rig's chroot
# builds, through make sources-module) and of the tools (sources-tools).
MODULE_SOURCES := Kbuild Makefile module uapi include
TOOL_SOURCES := Makefile tool uapi include

.PHONY: all module tools rvvctl rvvtop rvvbench rvvstat-exporter install install-module install-tools dkms-install clean check check-unit demo bench soak board-check help sources-module sources-tools

all: module

# The compiler the kernel was built with, as its config names it (the first
# word of CONFIG_CC_VERSION_TEXT); checked unless CC is given.
KERNEL_CC = $(shell sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\).*/\1/p' "$(KDIR)/.config" 2>/dev/null)

module:
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR) does not exist: install the headers of your kernel (linux-headers-$$(uname -r)) or pass KDIR=/path/to/kernel/build" >&2; exit 1; }
ifneq ($(origin CC),command line)
	@cc="$(KERNEL_CC)"; [ -z "$$cc" ] || command -v "$$cc" > /dev/null || { \
		echo "the kernel in KDIR=$(KDIR) was built with $$cc, which is not installed:" \
		     "install it (on Debian: apt install $$(echo "$$cc" | sed -E 's/^(.*-linux-gnu)-gcc-([0-9]+)$$/gcc-\2-\1/; s/^gcc-([0-9]+)$$/gcc-\1/'))" \
		     "or pass CC= a compiler of the same major version" >&2; exit 1; }
endif
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules

tools:
	$(MAKE) -C tool

rvvctl rvvtop rvvbench rvvstat-exporter:
	$(MAKE) -C tool $@

install: install-module install-tools

install-module: module
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules_install
	depmod -a

install-tools:
	$(MAKE) -C tool install

dkms-install:
	rm -rf "$(DKMS_SRC)"
	mkdir -p "$(DKMS_SRC)"
	cp -r $(MODULE_SOURCES) "$(DKMS_SRC)/"
	sed 's/@VERSION@/$(VERSION)/' module/dkms.conf > "$(DKMS_SRC)/dkms.conf"
	dkms add -m rvvstat -v $(VERSION)
	dkms install -m rvvstat -v $(VERSION)

sources-module sources-tools:
	@echo $(if $(filter sources-module,$@),$(MODULE_SOURCES),$(TOOL_SOURCES))

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C "$(KDIR)" M="$(CURDIR)" clean; fi
	rm -rf build

check:
	tests/run

UNIT_OUT ?= build/unit
check-unit:
	tests/unit/run "$(UNIT_OUT)"

help:
	@sed -n 's/^## \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

demo:
	tests/demo

bench:
	tests/bench/run

# The soak stage at full counts (1000000 fuzzer calls, 200 load/unload
# cycles, 100000 threads), each phase stopping at its count or its share of
# SOAK_MINUTES, whichever comes first; the guest gets 15 minutes more to
# boot and report. make check runs it bounded.
SOAK_MINUTES ?= 60
soak:
	@case "$(SOAK_MINUTES)" in ''|*[!0-9]*|0*) \
		echo "make soak: SOAK_MINUTES=$(SOAK_MINUTES): want a whole number of minutes, e.g. SOAK_MINUTES=30" >&2; \
		exit 2;; esac
	RVVSTAT_SOAK_ARGS=-t,$$(($(SOAK_MINUTES) * 60)),-f,-n:1000000,-c,200,-n,100000 \
	RVVSTAT_SOAK_TIMEOUT=$$(($(SOAK_MINUTES) * 60 + 900)) tests/run --shape soak:256:2 --only soak

board-check:
	tests/rig/board-check
