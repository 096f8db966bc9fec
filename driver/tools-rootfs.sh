#!/bin/bash
# tools-rootfs.sh IMAGE: a Debian 12 root file system image holding the real
# tools that drive kprobe events (perf, trace-cmd, bpftrace, perf-tools'
# kprobe script), for `make check-tools`.  Built with debootstrap from
# Debian's mirror, then packed into an ext4 image that QEMU opens as a
# read-only-in-effect (snapshot) virtio disk.
set -euo pipefail
IMG=$1
DIR=$IMG.d
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PKGS=linux-perf,trace-cmd,bpftrace,perf-tools-unstable,kmod,procps,busybox,coreutils

rm -rf "$DIR" "$IMG"
debootstrap --variant=minbase --include="$PKGS" bookworm "$DIR" "$MIRROR"
rm -rf "$DIR"/var/cache/apt/archives/*.deb "$DIR"/var/lib/apt/lists/*
size=$(du -sm "$DIR" | cut -f1)
mkfs.ext4 -q -F -L tkroot -d "$DIR" "$IMG" $((size + size / 2 + 512))M
rm -rf "$DIR"
ls -la "$IMG"
