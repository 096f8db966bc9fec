# Kprobe event tracing series: build, boot and test it on the Debian base
# kernel.  See README.md.  Every target accepts BASE=1 (the unmodified base
# kernel, same config) and ICOUNT=1 (instruction-counting guest clock).
DRIVE := driver/drive
export ARCH BASE ICOUNT FLAVOR TESTS ONDEMAND JOBS BENCH_TREES BENCH_ICOUNT BENCH_LOOPS BENCH_KEYS FUZZ_COUNT FUZZ_SEED FUZZ_KINDS FUZZ_JOBS

.PHONY: all deps source kernel initramfs run check check-debug check-tools demo bench fuzz docs series series-check check-all clean distclean

all: check

deps source kernel initramfs run check check-debug check-tools demo bench fuzz docs series series-check:
	@$(DRIVE) $@

# The whole suite on x86_64, then on arm64 (cross-built, booted under TCG);
# fails if either run fails.
check-all:
	@rc=0; ARCH=x86_64 $(DRIVE) check || rc=1; ARCH=arm64 $(DRIVE) check || rc=1; exit $$rc

# The long stress test of the kprobes core, alone (make check runs it too).
stress:
	@TESTS='ftrace:kprobe/kprobes_stress.tc' $(DRIVE) check

clean:
	rm -rf build/obj build/initramfs build/logs build/src

distclean:
	rm -rf build
