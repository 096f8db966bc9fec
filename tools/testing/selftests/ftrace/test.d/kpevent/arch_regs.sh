# SPDX-License-Identifier: GPL-2.0
# arch_regs.sh - the argument registers of the machine the test runs on.
#
# Sourced (not run) by kpevent tests whose definitions read the first
# arguments of a function from registers.  Those definitions are written
# with the x86_64 names of the first four argument registers, %di %si %dx
# %cx; kp_regs TEXT prints TEXT with each of them replaced by the register
# that holds the same argument on this machine (%x0 %x1 %x2 %x3 on arm64).
# The names have the same length on both, so every offset and column the
# tests compare stays where it was.  Only definitions and the listings
# that echo them go through kp_regs, never print formats.
#
# Also set, for tests that read a system call's arguments through the
# pt_regs its wrapper gets:
#   KP_SYSCALL   prefix of the syscall wrappers (__x64_sys_, __arm64_sys_)
#   KP_REGS_ARG2 offset in struct pt_regs of the second argument register
#
# Any other machine: the test is unsupported.

case $(uname -m) in
x86_64)
	KP_REGS_SED=''
	KP_SYSCALL=__x64_sys_
	KP_REGS_ARG2=104	# pt_regs::si
	;;
aarch64)
	KP_REGS_SED='s/%di/%x0/g; s/%si/%x1/g; s/%dx/%x2/g; s/%cx/%x3/g'
	KP_SYSCALL=__arm64_sys_
	KP_REGS_ARG2=8		# pt_regs::regs[1]
	;;
*)
	exit_unsupported
	;;
esac

kp_regs() { # TEXT...
	printf '%s\n' "$*" | sed "$KP_REGS_SED"
}
