/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arm64 return trampoline of rethook.
 *
 * A hooked function returns here instead of to its caller (see
 * arch_rethook_prepare()): RET branches to the BRK below, whose exception
 * saves every register in a pt_regs.  kretprobe_brk_handler() runs the
 * handlers and points regs->pc at the real return address; the exception
 * return goes there directly, so nothing after the BRK ever runs.
 */
#include <linux/linkage.h>
#include <asm/brk-imm.h>

	.text
SYM_CODE_START(arch_rethook_trampoline)
	brk	#KRETPROBES_BRK_IMM
SYM_CODE_END(arch_rethook_trampoline)
