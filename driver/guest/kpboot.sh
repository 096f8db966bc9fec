#!/bin/sh
# kpboot.sh - the kprobe_event= boot option, in a boot made with
#   kprobe_event=p:kprobes/kpboot_open,do_sys_openat2,dfd=%di;r:kprobes/kpboot_ret,do_sys_openat2,ret=$retval
# (dfd=%x0 on arm64)
# (driver/drive, make check).  Prints "@@RESULT PASS|FAIL boot:NAME" lines:
#   defined   both events are listed in kprobe_events as the option says
#             (commas stand for blanks);
#   enabled   the option enables them in the top-level instance;
#   recorded  they recorded the opens of the boot, before anyone asked.
TR=/sys/kernel/tracing
res() { # ok name why
	if [ "$1" = 0 ]; then echo "@@RESULT PASS boot:$2"; else echo "@@RESULT FAIL boot:$2 ($3)"; fi
}
if ! grep -q 'kprobe_event=' /proc/cmdline; then
	echo "@@RESULT FAIL boot:defined (no kprobe_event= on the command line)"
	exit 1
fi
cat /proc/cmdline
cat $TR/kprobe_events
grep -qE '^p:kprobes/kpboot_open do_sys_openat2 dfd=%(di|x0)$' $TR/kprobe_events &&
grep -q '^r[0-9]*:kprobes/kpboot_ret do_sys_openat2 ret=$retval$' $TR/kprobe_events
res $? defined "kprobe_events: $(cat $TR/kprobe_events | tr '\n' '|')"
test "$(cat $TR/events/kprobes/kpboot_open/enable 2>/dev/null)" = 1 &&
test "$(cat $TR/events/kprobes/kpboot_ret/enable 2>/dev/null)" = 1
res $? enabled "events/kprobes: $(ls $TR/events/kprobes | tr '\n' ' '), enable files: $(cat $TR/events/kprobes/kpboot_*/enable 2>&1 | tr '\n' ' ')"
cat /etc/hostname >/dev/null
grep -q 'kpboot_open: (do_sys_openat2+[0-9x]*/[0-9a-fx]*) dfd=' $TR/trace &&
grep -q 'kpboot_ret: (.* <- do_sys_openat2) ret=' $TR/trace
res $? recorded "$(grep -c kpboot $TR/trace) kpboot records"
grep -m4 kpboot $TR/trace
echo 0 > $TR/events/kprobes/enable
echo > $TR/kprobe_events
