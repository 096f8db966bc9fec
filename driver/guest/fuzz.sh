#!/bin/sh
# make fuzz, in the guest: a long parser fuzzing run, then a kmemleak scan.
result() { echo "@@RESULT $1 $2"; }
n=$(sed -n 's/.*tkfuzz=\([0-9]*\).*/\1/p' /proc/cmdline)
seed=$(sed -n 's/.*tkseed=\([0-9a-fA-Fx]*\).*/\1/p' /proc/cmdline)
kinds=$(sed -n 's/.*tkkinds=\([a-z,]*\).*/\1/p' /proc/cmdline)
if /guest/kpfuzz -n "${n:-1000000}" ${seed:+-s $seed} -k "${kinds:-all}"; then
	result PASS "prog:kpfuzz (${n:-1000000} definitions, kinds ${kinds:-all})"
else
	result FAIL "prog:kpfuzz"
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	if [ -s /sys/kernel/debug/kmemleak ]; then
		result FAIL kmemleak
		head -n 200 /sys/kernel/debug/kmemleak
	else
		result PASS kmemleak
	fi
fi
echo "@@DONE"
