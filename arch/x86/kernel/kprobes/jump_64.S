/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The head of a detour buffer (see jump.c): a template, copied into each
 * buffer and never run in place, hence kept with the read-only data.
 *
 * The jump at the probed address lands here with the probed context's
 * stack.  The head builds a struct pt_regs below it, calls
 * kpx86_detour_hit(site, regs) and restores every register, flags last:
 *
 *	%rsp at the jump ->  (the probed context's stack)
 *	       - 8       ->  pt_regs::ss slot: the flags, for the final popfq
 *	         ...         pt_regs (ip, cs, sp, ss, orig_ax filled in C)
 *	%rsp at the call ->  pt_regs::r15
 *
 * The buffer goes on with a copy of the instructions the jump covers and a
 * jump back after them.  jump.c patches the site address into the movabs
 * (at kpx86_detour_site + 2) and the displacement of the call.
 */
#include <linux/linkage.h>

#include "ptregs.h"

	.pushsection .rodata, "a"
	.globl	kpx86_detour_template, kpx86_detour_site, kpx86_detour_call
	.globl	kpx86_detour_template_end
kpx86_detour_template:
	pushfq
	subq	$SS, %rsp
	KPX86_SAVE_GPRS
	movq	%rsp, %rsi
kpx86_detour_site:
	movabsq	$0, %rdi
kpx86_detour_call:
	.byte	0xe8
	.long	0
	movq	EFLAGS(%rsp), %rax
	movq	%rax, SS(%rsp)
	KPX86_RESTORE_GPRS
	addq	$SS, %rsp
	popfq
kpx86_detour_template_end:
	.popsection
