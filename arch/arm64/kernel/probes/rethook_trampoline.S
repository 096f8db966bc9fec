/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arm64 return trampoline of rethook.
 *
 * A hooked function returns here instead of to its caller (see
 * arch_rethook_prepare()), with a plain RET: no exception is taken.  The
 * trampoline stores the registers of the return in a pt_regs on the stack,
 * with a frame record of its own in pt_regs::stackframe (x29 of the
 * return, then the return address once it is known) so that stack traces
 * taken by the handlers pass through to the real caller.
 * arch_rethook_trampoline_callback() runs the handlers and puts the real
 * return address in regs->pc.  What a return hands to the caller, x0..x8
 * (a handler may change the return value) and x29, is reloaded from the
 * pt_regs; x19..x28 are preserved by the C code in between (x18 too, with
 * the shadow call stack), and x9..x17 carry nothing across a return.
 * Handler writes to the other registers and to sp are not seen.  The trampoline then returns to
 * regs->pc with x30 pointing there, as a direct return would leave it.
 *
 * Context: whatever the hooked function ran in; the callback disables
 * preemption while it looks at the task's rethook nodes.
 */
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>

	.text
SYM_CODE_START(arch_rethook_trampoline)
	/*
	 * The frame record first, so that an unwinder interrupting us finds
	 * the caller behind it at once.  x30 is this trampoline: the function
	 * returned here by it.
	 */
	sub	sp, sp, #PT_REGS_SIZE
	stp	x29, x30, [sp, #S_STACKFRAME]
	stp	x28, x29, [sp, #S_X28]
	add	x29, sp, #S_STACKFRAME

	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	stp	x8, x9, [sp, #S_X8]
	stp	x10, x11, [sp, #S_X10]
	stp	x12, x13, [sp, #S_X12]
	stp	x14, x15, [sp, #S_X14]
	stp	x16, x17, [sp, #S_X16]
	stp	x18, x19, [sp, #S_X18]
	stp	x20, x21, [sp, #S_X20]
	stp	x22, x23, [sp, #S_X22]
	stp	x24, x25, [sp, #S_X24]
	stp	x26, x27, [sp, #S_X26]

	/* x30 and pc: this trampoline, until the callback knows better */
	str	x30, [sp, #S_LR]
	add	x2, sp, #PT_REGS_SIZE
	stp	x2, x30, [sp, #S_SP]		// sp then pc; pstate in C

	mov	x0, sp
	bl	arch_rethook_trampoline_callback

	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldr	x8, [sp, #S_X8]
	ldr	x30, [sp, #S_PC]
	ldr	x29, [sp, #S_FP]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(arch_rethook_trampoline)
