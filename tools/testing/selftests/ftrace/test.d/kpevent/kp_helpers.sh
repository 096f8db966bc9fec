# SPDX-License-Identifier: GPL-2.0
# kp_helpers.sh - small helpers shared by the kpevent and kpcore tests.
#
# Sourced (not run) by those tests, which run in the tracefs directory:
#     . "$FTRACETEST_ROOT/test.d/kpevent/kp_helpers.sh"
#
#   hits EVENT         print the hit count of EVENT (2nd column of
#                      kprobe_profile); nothing if EVENT is not listed
#   misses EVENT       print the miss count of EVENT (3rd column of
#                      kprobe_profile); nothing if EVENT is not listed
#   check_error CMD    write CMD, with a ^ where the error is, to
#                      kprobe_events and check that error_log puts its
#                      caret there (ftrace_errlog_check of test.d/functions)
#   check_error_regs CMD
#                      the same, CMD's x86_64 argument registers named as
#                      on this machine first (kp_regs; source arch_regs.sh)
#   cause EVENT NAME   print EVENT's misses of cause NAME, a column of
#                      kprobe_misses: recursion no_instance buffer_full
#                      disabled skipped faults
#   KPTEST_KO          the tests' module, kptest_mod.ko (driver/testmod);
#                      kptest_load loads it, or ends the test unresolved
#                      when it is not there

hits() { # event -> its hit count in kprobe_profile
	awk -v e="$1" '$1 == e { print $2 }' kprobe_profile
}

misses() { # event -> its miss count in kprobe_profile
	awk -v e="$1" '$1 == e { print $3 }' kprobe_profile
}

check_error() { # command-with-error-pos-by-^
	ftrace_errlog_check 'trace_kprobe' "$1" 'kprobe_events'
}

check_error_regs() { # command-with-error-pos-by-^, x86_64 register names
	ftrace_errlog_check 'trace_kprobe' "$(kp_regs "$1")" 'kprobe_events'
}

cause() { # event cause -> its column of kprobe_misses
	awk -v e="$1" -v c="$2" '
		$1 == "#event" { for (i = 2; i <= NF; i++) col[$i] = i }
		$1 == e { print $(col[c]) }' kprobe_misses
}

KPTEST_KO=${KPTEST_KO:-/guest/kptest_mod.ko}

kptest_load() { # load kptest_mod afresh
	[ -f "$KPTEST_KO" ] || exit_unresolved
	rmmod kptest_mod 2>/dev/null || :
	insmod "$KPTEST_KO"
}
