#!/bin/bash
# initramfs.sh SRC OBJ ROOTDIR ARCH: pack the guest's root file system.
#
# It holds a static busybox, the guest scripts of driver/guest, the modules
# of the build, the ftrace selftests (the base kernel's, with this repo's
# files and patches on top, for both trees so BASE=1 runs our tests too) and
# the static programs built from driver/guest/*.c,
# tools/testing/selftests/ftrace/*.c and tools/testing/selftests/kprobes/*.c.
set -euo pipefail
SRC=$1 OBJ=$2 ROOT=$3 KARCH=$4
TOP=$(cd "$(dirname "$0")/.." && pwd)
BASESRC=$(ls -d "$TOP"/build/base/linux-source-* | head -1)

rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,lib,guest}

# The applet list comes from the host's busybox (the same Debian version),
# which can run here whatever the guest's architecture.
if [ "$KARCH" = arm64 ]; then
	cp "$TOP/build/busybox-arm64/bin/busybox" "$ROOT/bin/busybox"
else
	cp /bin/busybox "$ROOT/bin/busybox"
fi
for a in $(/bin/busybox --list-full); do
	[ -e "$ROOT/$a" ] || ln -s /bin/busybox "$ROOT/$a"
done

# /bin/sh is a copy, not a link: a probe on the shell's own code needs a
# mapping named like a shell (dynevent/add_remove_uprobe.tc probes the
# "r-xp .../sh" line of /proc/self/maps).
rm -f "$ROOT/bin/sh"
cp "$ROOT/bin/busybox" "$ROOT/bin/sh"

cp "$TOP"/driver/guest/init "$ROOT/init"
cp "$TOP"/driver/guest/*.sh "$ROOT/guest/"
chmod +x "$ROOT/init" "$ROOT"/guest/*.sh
echo "root:x:0:0:root:/root:/bin/sh" >"$ROOT/etc/passwd"
echo "root:x:0:" >"$ROOT/etc/group"
echo tkguest >"$ROOT/etc/hostname"

# static programs: the guest's helpers in /guest; the kselftests' in a
# kselftest install's layout, /ftrace beside /kprobes (the ftrace tests
# find their programs there), with a link in /guest for the suite runner
cc_static() { # source output
	"${CROSS}gcc" -static -O2 -Wall -I "$BASESRC/tools/testing/selftests" \
		-o "$2" "$1"
}
for c in "$TOP"/driver/guest/*.c; do
	[ -e "$c" ] || continue
	cc_static "$c" "$ROOT/guest/$(basename "$c" .c)"
done
# the selftests find readelf in PATH (busybox has none)
ln -sf ../../guest/readelf "$ROOT/usr/bin/readelf"
mkdir -p "$ROOT/kprobes"
for c in "$TOP"/tools/testing/selftests/kprobes/*.c; do
	[ -e "$c" ] || continue
	cc_static "$c" "$ROOT/kprobes/$(basename "$c" .c)"
	ln -s "../kprobes/$(basename "$c" .c)" "$ROOT/guest/$(basename "$c" .c)"
done

# kernel modules (already stripped by modules_install)
if [ -d "$OBJ/modroot/lib/modules" ]; then
	cp -a "$OBJ/modroot/lib/modules" "$ROOT/lib/"
	rm -f "$ROOT"/lib/modules/*/build "$ROOT"/lib/modules/*/source
	# a distribution's config builds thousands of modules: keep those of
	# the core, the libraries, tracing and the samples (the tests' own)
	if [ "${FLAVOR:-}" = distro ]; then
		rm -rf "$ROOT"/lib/modules/*/kernel/{drivers,net,fs,sound,crypto,security,block,virt,mm,io_uring}
	fi
fi

# the benchmark's workload module
if [ -f "$OBJ/kpbench/kpbench_mod.ko" ]; then
	"${CROSS}strip" --strip-debug -o "$ROOT/guest/kpbench_mod.ko" "$OBJ/kpbench/kpbench_mod.ko"
fi

# ftrace selftests as the series has them, for both trees: the base's,
# ours on top, then the series' patches to them (each touches only files
# of tools/testing/selftests/ftrace, whose 5 components -p5 strips)
cp -a "$BASESRC/tools/testing/selftests/ftrace" "$ROOT/ftrace"
cp -a "$TOP/tools/testing/selftests/ftrace/." "$ROOT/ftrace/" 2>/dev/null || true
for p in "$TOP"/patches/*.patch; do
	[ -e "$p" ] || continue
	grep -q '^+++ b/tools/testing/selftests/ftrace/' "$p" || continue
	if awk '/^\+\+\+ / && !/^\+\+\+ b\/tools\/testing\/selftests\/ftrace\// { bad = 1 }
		END { exit !bad }' "$p"; then
		echo "$p: touches files outside tools/testing/selftests/ftrace" >&2
		exit 1
	fi
	patch -d "$ROOT/ftrace" -p5 -F3 -s --no-backup-if-mismatch <"$p"
done
for c in "$TOP"/tools/testing/selftests/ftrace/*.c; do
	[ -e "$c" ] || continue
	cc_static "$c" "$ROOT/ftrace/$(basename "$c" .c)"
done
cp "$TOP/driver/suite.list" "$ROOT/guest/suite.list"

# our documentation, whose examples a test runs
mkdir -p "$ROOT/docs"
cp "$TOP"/Documentation/trace/*.rst "$ROOT/docs/" 2>/dev/null || true

(cd "$ROOT" && find . | sort | cpio -o -H newc --quiet) >"$ROOT.cpio"
du -sh "$ROOT.cpio"
