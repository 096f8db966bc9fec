/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly helpers for the code that builds a struct pt_regs by hand on the
 * current stack: the rethook trampoline and the kprobes detour buffers.
 * %rsp points at the base of the pt_regs; only the general registers are
 * moved, the caller fills the rest.
 */
#ifndef _X86_KERNEL_KPROBES_PTREGS_H
#define _X86_KERNEL_KPROBES_PTREGS_H

#ifdef __ASSEMBLY__
#include <asm/ptrace-abi.h>

.macro KPX86_SAVE_GPRS
	movq	%rdi, RDI(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%rax, RAX(%rsp)
	movq	%r8, R8(%rsp)
	movq	%r9, R9(%rsp)
	movq	%r10, R10(%rsp)
	movq	%r11, R11(%rsp)
	movq	%rbx, RBX(%rsp)
	movq	%rbp, RBP(%rsp)
	movq	%r12, R12(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r15, R15(%rsp)
.endm

.macro KPX86_RESTORE_GPRS
	movq	R15(%rsp), %r15
	movq	R14(%rsp), %r14
	movq	R13(%rsp), %r13
	movq	R12(%rsp), %r12
	movq	RBP(%rsp), %rbp
	movq	RBX(%rsp), %rbx
	movq	R11(%rsp), %r11
	movq	R10(%rsp), %r10
	movq	R9(%rsp), %r9
	movq	R8(%rsp), %r8
	movq	RAX(%rsp), %rax
	movq	RCX(%rsp), %rcx
	movq	RDX(%rsp), %rdx
	movq	RSI(%rsp), %rsi
	movq	RDI(%rsp), %rdi
.endm

#endif /* __ASSEMBLY__ */
#endif /* _X86_KERNEL_KPROBES_PTREGS_H */
