#!/bin/sh
# make check-tools, inside the Debian root: drive kprobe events with the
# real, unmodified tools and check what each of them shows.  One
# "@@RESULT PASS|FAIL name" line per check.
T=/sys/kernel/tracing
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
result() { echo "@@RESULT $1 tools:$2"; }
check() { # name command...: PASS when the command succeeds
	n=$1; shift
	if out=$("$@" 2>&1); then
		result PASS "$n"
	else
		result FAIL "$n"
		echo "--- $n: $*"; echo "$out" | tail -n 40; echo "--- end"
	fi
}
# A workload that opens a known file in a new process, in the background,
# until stopped: tools attach at their own pace (bpftrace compiles first).
opener() { (while :; do cat /etc/hostname >/dev/null; sleep 0.2; done) & OPENER=$!; }
stop_opener() { kill $OPENER 2>/dev/null; wait $OPENER 2>/dev/null; }

cd /tmp
echo "tools: $(perf version 2>&1 | head -1); $(trace-cmd --version 2>&1 | grep -m1 version); $(bpftrace --version 2>&1)"

: perf probe: add, list, record, script, return probe, delete
check perf-probe-add perf probe -q -a do_sys_openat2
check perf-probe-add-return perf probe -q -a 'do_sys_openat2%return $retval'
check perf-probe-list sh -c 'perf probe -l | grep -q "probe:do_sys_openat2 " && perf probe -l | grep -q "probe:do_sys_openat2__return"'
check perf-record perf record -q -o /tmp/perf.data -e probe:do_sys_openat2 -e probe:do_sys_openat2__return -- cat /etc/hostname
check perf-script-entry sh -c 'perf script -i /tmp/perf.data | grep -q "probe:do_sys_openat2:"'
check perf-script-return sh -c 'perf script -i /tmp/perf.data | grep -E -q "probe:do_sys_openat2__return: .*arg1=(0x)?[0-9a-f]+"'
check perf-probe-delete sh -c 'perf probe -q -d "probe:*" && ! grep -q do_sys_openat2 $T/kprobe_events'

: trace-cmd record and report of our events
echo 'p:kprobes/tcmd do_sys_openat2 dfd=%di:s32 name=+0(%si):ustring' > $T/kprobe_events
check trace-cmd-record trace-cmd record -q -o /tmp/trace.dat -e kprobes:tcmd cat /etc/hostname
check trace-cmd-report sh -c 'trace-cmd report -i /tmp/trace.dat | grep -q "tcmd:.*dfd=-100 name=\"/etc/hostname\""'
echo > $T/kprobe_events

: perf-tools kprobe script
opener
check perf-tools-kprobe sh -c 'kprobe-perf -d 3 "p:do_sys_openat2 name=+0(%si):string" 2>&1 | grep -q "name=\"/etc/hostname\""'
stop_opener
echo > $T/kprobe_events 2>/dev/null

: bpftrace kprobe and kretprobe one-liners
# (bpftrace leaves on SIGINT; it does not act on the SIGTERM of timeout)
opener
check bpftrace-kprobe sh -c 'timeout -s INT -k 10 300 bpftrace -e "kprobe:do_sys_openat2 /comm == \"cat\"/ { printf(\"open by %s\\n\", comm); exit(); }" | grep -q "open by cat"' 
stop_opener
opener
check bpftrace-kretprobe sh -c 'timeout -s INT -k 10 300 bpftrace -e "kretprobe:do_sys_openat2 /comm == \"cat\"/ { printf(\"ret %d\\n\", retval); exit(); }" | grep -E -q "ret [0-9]+"' 
stop_opener

: bpftrace over a wildcard, many functions in one attachment
# (kprobe_multi, on 7.3 through fprobe, where bpftrace and the kernel have it)
opener
check bpftrace-kprobe-wildcard sh -c 'timeout -s INT -k 10 300 bpftrace -e "kprobe:vfs_rea* /comm == \"cat\"/ { printf(\"hit %s\\n\", probe); exit(); }" | grep -q "hit kprobe:vfs_rea"'
stop_opener

: bpftrace uprobe and uretprobe one-liners on libc, through the perf uprobe PMU
LIBC=$(ldd /bin/cat | awk '/libc.so/ { print $3 }')
opener
check bpftrace-uprobe sh -c 'timeout -s INT -k 10 300 bpftrace -e "uprobe:'"$LIBC"':open /comm == \"cat\" && str(arg0) == \"/etc/hostname\"/ { printf(\"open %s\\n\", str(arg0)); exit(); }" | grep -q "open /etc/hostname"'
stop_opener
opener
check bpftrace-uretprobe sh -c 'timeout -s INT -k 10 300 bpftrace -e "uretprobe:'"$LIBC"':open /comm == \"cat\" && (int32)retval >= 0/ { printf(\"fd %d\\n\", (int32)retval); exit(); }" | grep -E -q "fd [0-9]+"'
stop_opener
echo "@@DONE"
