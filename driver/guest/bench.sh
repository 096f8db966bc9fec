#!/bin/sh
# make bench, in the guest: load the workload module and run kpbench.
echo "guest: $(uname -r), $(nproc) cpus"
insmod /guest/kpbench_mod.ko || { echo "@@BENCH-FAIL insmod"; exit 1; }
loops=$(sed -n 's/.*tkloops=\([0-9]*\).*/\1/p' /proc/cmdline)
keys=$(sed -n 's/.*tkbench=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
/guest/kpbench ${loops:-200000} "$keys" || echo "@@BENCH-FAIL kpbench exit $?"
