# SPDX-License-Identifier: GPL-2.0
#
#   make                 module/rvvstat.ko for the running kernel (KDIR=... to choose)
#   make tools           build/tool/: rvvctl, rvvtop, rvvbench, rvvstat-exporter, each whose
#                        libraries are installed; names the Debian package of the others
#   make rvvtop          one tool (rvvctl, rvvtop, rvvbench, rvvstat-exporter); fails naming
#                        the packages it lacks
#   make ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- KDIR=...   cross-build
#   make install         install-module and install-tools
#   make install-module  install the module (modules_install) and run depmod
#   make install-tools   the tools, their man pages and the udev rule (PREFIX, DESTDIR)
#   make dkms-install    register the source with DKMS, which rebuilds it per kernel
#   make demo            boot the riscv64 V guest and show a real summary
#   make check           the whole test suite in QEMU guests
#   make bench           what the module costs a context switch, and rvvtop a CPU, in QEMU guests
VERSION := 0.1.0
KDIR ?= /lib/modules/$(shell uname -r)/build
DKMS_SRC := /usr/src/rvvstat-$(VERSION)

.PHONY: all module tools rvvctl rvvtop rvvbench rvvstat-exporter install install-module install-tools dkms-install clean check demo bench soak

all: module

module:
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR) does not exist: install the headers of your kernel (linux-headers-$$(uname -r)) or pass KDIR=/path/to/kernel/build" >&2; exit 1; }
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
	cp -r Kbuild Makefile module uapi "$(DKMS_SRC)/"
	sed 's/@VERSION@/$(VERSION)/' module/dkms.conf > "$(DKMS_SRC)/dkms.conf"
	dkms add -m rvvstat -v $(VERSION)
	dkms install -m rvvstat -v $(VERSION)

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C "$(KDIR)" M="$(CURDIR)" clean; fi
	rm -rf build

check:
	tests/run

demo:
	tests/demo

bench:
	tests/bench

# The soak stage at full counts: up to 1000000 fuzzer calls (or an hour),
# 200 load/unload cycles, 100000 threads; hours under TCG with KASAN.
# make check runs it bounded.
soak:
	RVVSTAT_SOAK_ARGS=-f,-n:1000000:-t:3600,-c,200,-n,100000 \
	RVVSTAT_SOAK_TIMEOUT=43200 tests/run --shape soak:256:2 --only soak
