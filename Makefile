# SPDX-License-Identifier: GPL-2.0
#
# irqcore - top-level Makefile.
#
#   make                 build irqcore.ko and irqcore_torture.ko for TARGET (default debian-6.1)
#   make KDIR=<tree>     build against any configured kernel tree
#   make run             the main job: build, boot 2 CPUs in QEMU, show the comparison
#   make check           the test suite (see docs/testing.md)
#   make bench           what one interrupt costs, per regime, the NIC and sound card figures (docs/benchmarks.md)
#   make cost            the same counted, not timed: instructions, atomics, transfers
#   make trace           a timeline of both regimes from trace events (docs/tracing.md)
#   make shell           a shell in the guest with irqcore loaded (ARGS=, MODULES=)
#   make example         build examples/first (or EXAMPLE=dir) against irqcore
#   make patches         build/patches/series/: irqcore as a patch series against linux-source-6.12
#   make deb             build/deb/irqcore-dkms_<version>_all.deb, lintian-checked (docs/intree.md)
#   make convert FILE=f  convert a 2002 driver's cli() exclusion to a spinlock, into build/convert/ (docs/convert.md)
#   make lint-irq [FILE=f] find interrupt-only exclusion (cli(), local_irq_save() on SMP) in FILE or the tree
#   make convert-corpus CORPUS=dir  convert and check every 2002 driver under dir, a table in build/convert/corpus/
#   make clean           remove build/ (the kernel cache stays)
#
# Module builds land in build/<target>/ (irqcore.ko, Module.symvers);
# kernels and images are cached in ~/.cache/irqcore (IRQCORE_CACHE).
# Nothing here ever loads the module on this machine: only the QEMU guest
# does, from its initramfs.

TARGET ?= debian-6.1
KDIR ?=

.PHONY: all module run check bench cost trace shell example patches deb convert convert-corpus lint-irq clean install modules_install load

all: module

module:
ifneq ($(KDIR),)
	tests/build-module --kdir $(KDIR)
else
	tests/build-module $(TARGET)
endif

run:
	tests/demo

check:
	tests/check

bench:
	tests/bench
	tests/bench-devices

cost:
	tests/cost

trace:
	tests/timeline

shell:
	tests/shell

example:
	tests/build-example $(EXAMPLE)

patches:
	tests/make-patches

deb:
	tests/build-deb

convert:
	tools/convert/run convert "$(FILE)"

convert-corpus:
	tests/convert-corpus "$(CORPUS)"

lint-irq:
	tools/convert/run lint $(if $(FILE),"$(FILE)")

clean:
	rm -rf build

# Loading irqcore on the host would replace nothing and risk everything:
# it is a test subject for a QEMU guest, not a driver for this machine.
install modules_install load:
	@echo "irqcore: refusing '$@': irqcore is only ever loaded inside the QEMU guest (make run / make check)" >&2
	@exit 1
