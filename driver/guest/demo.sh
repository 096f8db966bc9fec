#!/bin/sh
# The classic kprobe event examples, run end to end (make demo).
T=/sys/kernel/tracing
cd $T || exit 1
step() { echo; echo "### $*"; }
run() { echo "# $*"; eval "$*" || { echo "(failed; error_log:)"; cat error_log; }; }

step "an entry probe: dfd and the user-space file name of every open"
run "echo 'p:myprobe do_sys_openat2 dfd=%di filename=+0(%si):ustring' > kprobe_events"
step "a return probe with the return value"
run "echo 'r:myret do_sys_openat2 \$retval' >> kprobe_events"
step "new processes: execve's file name and its first two argv strings"
# __x64_sys_execve gets the syscall's pt_regs: di (offset 112) holds the
# file name, si (offset 104) the user argv array, whose entries are user
# pointers again: argv[1] is read through a double dereference.
run "echo 'p:newproc __x64_sys_execve file=+0(+112(%di)):ustring argv0=+0(+u0(+104(%di))):ustring argv1=+0(+u8(+104(%di))):ustring' >> kprobe_events"
run "cat kprobe_events"
step "only opens by this shell (pid $$), through a filter on common_pid"
run "echo 'common_pid == $$' > events/kprobes/myprobe/filter"
run "echo 1 > events/kprobes/enable"
read -r host </etc/hostname
/bin/ls /guest >/dev/null
/bin/echo hello world >/dev/null
run "echo 0 > events/kprobes/enable"
step "the trace"
grep -v '^#' trace
step "kprobe_profile: hits and misses per event"
cat kprobe_profile
echo > kprobe_events
