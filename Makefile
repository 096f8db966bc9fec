# Kprobe event tracing series: build, boot and test it on the Debian base
# kernel.  See README.md.  Every target accepts BASE=1 (the unmodified base
# kernel, same config) and ICOUNT=1 (instruction-counting guest clock).
DRIVE := driver/drive
export BASE ICOUNT FLAVOR TESTS JOBS BENCH_TREES BENCH_ICOUNT BENCH_LOOPS

.PHONY: all deps source kernel initramfs run check check-debug check-tools demo bench clean distclean

all: check

deps source kernel initramfs run check check-debug check-tools demo bench:
	@$(DRIVE) $@

clean:
	rm -rf build/obj build/initramfs build/logs build/src

distclean:
	rm -rf build
