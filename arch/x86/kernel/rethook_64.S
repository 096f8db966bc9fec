/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86-64 return trampoline of rethook.
 *
 * A hooked function returns here instead of to its caller (see
 * arch_rethook_prepare()).  The trampoline lays out a struct pt_regs right
 * below the emptied return-address slot, which it first fills with its own
 * address so that the frame looks like a normal call frame to the unwinder:
 *
 *	frame + 8  ->  the caller's stack (regs->sp)
 *	frame      ->  return slot: the trampoline, then the real address
 *	frame - 8  ->  pt_regs::ss: the flags, for the final popfq
 *	   ...         pt_regs (ip, cs, sp and orig_ax are filled in C)
 *	%rsp       ->  pt_regs::r15
 *
 * arch_rethook_trampoline_callback() runs the handlers and writes the real
 * return address in the return slot, so the RET at the end goes there.
 * Every general register is restored: the hooked function may have a
 * caller that relies on more than the C calling convention.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/unwind_hints.h>

#include "kprobes/ptregs.h"

	.text
SYM_CODE_START(arch_rethook_trampoline)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR		/* entered by RET only */
	pushq	$arch_rethook_trampoline
	UNWIND_HINT_FUNC
	pushfq
	subq	$SS, %rsp
	KPX86_SAVE_GPRS

	movq	%rsp, %rdi
	call	arch_rethook_trampoline_callback

	/* A handler may have changed the flags: popfq takes them from ss. */
	movq	EFLAGS(%rsp), %rax
	movq	%rax, SS(%rsp)
	KPX86_RESTORE_GPRS
	addq	$SS, %rsp
	popfq
	RET
SYM_CODE_END(arch_rethook_trampoline)
