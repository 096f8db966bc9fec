#!/bin/sh
# The classic kprobe event examples, run end to end (make demo).
T=/sys/kernel/tracing
cd $T || exit 1
step() { echo; echo "### $*"; }
run() { echo "# $*"; eval "$*" || { echo "(failed; error_log:)"; cat error_log; }; }

# The machine's registers: the first two arguments, and the system call
# wrapper, which gets the syscall's pt_regs with the file name and the user
# argv array at offsets FILE and ARGV.
case $(uname -m) in
aarch64) A1=%x0 A2=%x1 SYS=__arm64_sys_execve FILE=0 ARGV=8 ;;
*) A1=%di A2=%si SYS=__x64_sys_execve FILE=112 ARGV=104 ;;
esac

step "an entry probe: dfd and the user-space file name of every open"
run "echo 'p:myprobe do_sys_openat2 dfd=$A1 filename=+0($A2):ustring' > kprobe_events"
step "a return probe with the return value"
run "echo 'r:myret do_sys_openat2 \$retval' >> kprobe_events"
step "new processes: execve's file name and its first two argv strings"
# The execve wrapper gets the syscall's pt_regs (in the first argument
# register): the file name, and the user argv array, whose entries are user
# pointers again: argv[1] is read through a double dereference.
run "echo 'p:newproc $SYS file=+0(+$FILE($A1)):ustring argv0=+0(+u0(+$ARGV($A1))):ustring argv1=+0(+u8(+$ARGV($A1))):ustring' >> kprobe_events"
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
