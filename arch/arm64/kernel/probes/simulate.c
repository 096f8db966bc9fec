// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 kprobes: simulation of PC-relative instructions and branches
 *
 * Simulation of the A64 instructions that cannot run out of line: those
 * that read the PC (ADR, ADRP, literal loads) and the branches.  Each
 * function applies the effect of one instruction to pt_regs, as the CPU
 * would have, and leaves the PC on the next instruction or the target.
 *
 * Used by kprobes from the BRK exception (kernel registers), where
 * nothing a probe may sit on is called (a kernel literal is read inline),
 * and by uprobes in the task (user registers, where a literal is read
 * with copy_from_user()).  Register 31 is the zero register in every
 * form handled here.  Field layouts are those of the Arm ARM, C4.1.
 *
 * A user task may run with a guarded control stack (FEAT_GCS): then the
 * CPU pushes the return address of every BL and BLR there, and every RET
 * pops one and faults unless it is the RET's target.  A simulated call or
 * return must do the same, or the task's next real RET would fault.  The
 * kernel runs without one, so kprobes never takes that path.
 */
#include <kunit/visibility.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <asm/gcs.h>
#include <asm/insn.h>

#include "a64.h"

/* Go on at @pc.  A simulated branch lands with no BTI check pending. */
static nokprobe_inline void a64_jump(struct pt_regs *regs, unsigned long pc)
{
	regs->pstate &= ~PSR_BTYPE_MASK;
	instruction_pointer_set(regs, pc);
}

/* ADR Xd, label (op = 0) and ADRP Xd, label (op = 1): immhi:immlo. */
void a64_sim_adr(u32 insn, long addr, struct pt_regs *regs)
{
	s64 imm = a64_sfield(insn, 23, 5) * 4 + a64_field(insn, 30, 29);
	u64 val;

	if (insn & BIT(31))
		val = ((u64)addr & ~0xfffULL) + (imm << 12);
	else
		val = addr + imm;
	pt_regs_write_reg(regs, a64_field(insn, 4, 0), val);
	a64_jump(regs, addr + 4);
}
NOKPROBE_SYMBOL(a64_sim_adr);

static nokprobe_inline bool a64_user_gcs(struct pt_regs *regs)
{
	return user_mode(regs) && task_gcs_el0_enabled(current);
}

/*
 * The link of BL and BLR: x30, and the task's GCS if it has one.  When
 * the GCS cannot take the address the task gets SIGSEGV, the PC stays on
 * the call, and the error is returned: the call must not go on.
 */
static nokprobe_inline int a64_link(struct pt_regs *regs, unsigned long ret)
{
	int err = 0;

	if (a64_user_gcs(regs)) {
		push_user_gcs(ret, &err);
		if (err) {
			force_sig(SIGSEGV);
			return -EFAULT;
		}
	}
	regs->regs[30] = ret;
	return 0;
}

/*
 * May a RET go on to @target?  Not with a GCS whose top is not @target:
 * the top is popped only when it is.  On a mismatch the task gets the
 * signal of the CPU's own GCS fault (SEGV_CPERR, at the RET); an
 * unreadable GCS gets it SIGSEGV.
 */
static nokprobe_inline bool a64_gcs_return_ok(struct pt_regs *regs, u64 target)
{
	u64 gcspr, top;
	int err = 0;

	if (!a64_user_gcs(regs))
		return true;
	gcspr = read_sysreg_s(SYS_GCSPR_EL0);
	top = get_user_gcs((unsigned long __user *)gcspr, &err);
	if (err) {
		force_sig(SIGSEGV);
		return false;
	}
	if (top != target) {
		force_sig_fault(SIGSEGV, SEGV_CPERR,
				(void __user *)instruction_pointer(regs));
		return false;
	}
	write_sysreg_s(gcspr + sizeof(u64), SYS_GCSPR_EL0);
	return true;
}

/* B label, BL label (bit 31): imm26 words. */
void a64_sim_b(u32 insn, long addr, struct pt_regs *regs)
{
	if ((insn & BIT(31)) && a64_link(regs, addr + 4))
		return;
	a64_jump(regs, addr + a64_sfield(insn, 25, 0) * 4);
}
NOKPROBE_SYMBOL(a64_sim_b);

/*
 * B.cond and BC.cond label: imm19 words, condition in bits [3:0].  Bit 4
 * (BC.cond) only tells the branch predictor the branch is consistent.
 * The condition is the one table of the Arm ARM's ConditionHolds() that
 * the AArch64 encodings share with AArch32 (traps.c); its functions are
 * __kprobes, so none can be probed.
 */
void a64_sim_bcond(u32 insn, long addr, struct pt_regs *regs)
{
	long next = addr + 4;

	if (aarch32_opcode_cond_checks[a64_field(insn, 3, 0)](regs->pstate))
		next = addr + a64_sfield(insn, 23, 5) * 4;
	a64_jump(regs, next);
}
NOKPROBE_SYMBOL(a64_sim_bcond);
EXPORT_SYMBOL_IF_KUNIT(a64_sim_bcond);

/* CBZ/CBNZ (bit 24) Rt, label; bit 31 selects Xt over Wt. */
void a64_sim_cbz(u32 insn, long addr, struct pt_regs *regs)
{
	u64 val = pt_regs_read_reg(regs, a64_field(insn, 4, 0));
	bool nonzero = (insn & BIT(31)) ? val != 0 : (u32)val != 0;
	long next = addr + 4;

	if (nonzero == !!(insn & BIT(24)))
		next = addr + a64_sfield(insn, 23, 5) * 4;
	a64_jump(regs, next);
}
NOKPROBE_SYMBOL(a64_sim_cbz);

/* TBZ/TBNZ (bit 24) Rt, #b5:b40, label: imm14 words. */
void a64_sim_tbz(u32 insn, long addr, struct pt_regs *regs)
{
	unsigned int bit = a64_field(insn, 31, 31) << 5 | a64_field(insn, 23, 19);
	bool set = (pt_regs_read_reg(regs, a64_field(insn, 4, 0)) >> bit) & 1;
	long next = addr + 4;

	if (set == !!(insn & BIT(24)))
		next = addr + a64_sfield(insn, 18, 5) * 4;
	a64_jump(regs, next);
}
NOKPROBE_SYMBOL(a64_sim_tbz);

/*
 * A kernel literal is read inline: this runs in the BRK exception, where
 * a call of copy_from_kernel_nofault(), which may be probed itself, would
 * hit that probe from inside this one.  The pool is kernel text, mapped
 * and readable; the exception-table entry of the load catches the rest,
 * with page faults disabled as copy_from_kernel_nofault() has them.
 */
static nokprobe_inline int a64_read_kernel_literal(void *dst, unsigned long src,
						   size_t size)
{
	pagefault_disable();
	if (size == sizeof(u64))
		__get_kernel_nofault(dst, (const u64 *)src, u64, fault);
	else
		__get_kernel_nofault(dst, (const u32 *)src, u32, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

/*
 * Read @size (4 or 8) bytes of the literal at @src, from the probed
 * context's side.  A user literal is read in the task, where uprobes
 * simulates, and where copy_from_user() may sleep to fault it in.
 */
static nokprobe_inline int a64_read_literal(struct pt_regs *regs, void *dst,
					    unsigned long src, size_t size)
{
	if (user_mode(regs))
		return copy_from_user(dst, (const void __user *)src, size) ? -EFAULT : 0;
	return a64_read_kernel_literal(dst, src, size);
}

/*
 * Literal loads, by opc (bits [31:30]): 0 LDR Wt, 1 LDR Xt, 2 LDRSW Xt,
 * 3 PRFM (a hint: nothing to do).  An unreadable literal leaves the
 * register alone; the original instruction would have faulted there.
 */
void a64_sim_ldr_lit(u32 insn, long addr, struct pt_regs *regs)
{
	unsigned long src = addr + a64_sfield(insn, 23, 5) * 4;
	unsigned int opc = a64_field(insn, 31, 30), rt = a64_field(insn, 4, 0);
	u64 x;
	u32 w;

	if (opc == 1) {
		if (!a64_read_literal(regs, &x, src, sizeof(x)))
			pt_regs_write_reg(regs, rt, x);
	} else if (opc != 3) {
		if (!a64_read_literal(regs, &w, src, sizeof(w)))
			pt_regs_write_reg(regs, rt, opc == 2 ? (u64)(s64)(s32)w : w);
	}
	a64_jump(regs, addr + 4);
}
NOKPROBE_SYMBOL(a64_sim_ldr_lit);

/* BR Xn, BLR Xn (bit 21): the target is read before LR is set. */
void a64_sim_br(u32 insn, long addr, struct pt_regs *regs)
{
	u64 target = pt_regs_read_reg(regs, a64_field(insn, 9, 5));

	if (a64_field(insn, 22, 21) == 1 && a64_link(regs, addr + 4))
		return;
	a64_jump(regs, target);
}
NOKPROBE_SYMBOL(a64_sim_br);
EXPORT_SYMBOL_IF_KUNIT(a64_sim_br);

/* RET Xn: a branch to Xn that a GCS checks. */
void a64_sim_ret(u32 insn, long addr, struct pt_regs *regs)
{
	u64 target = pt_regs_read_reg(regs, a64_field(insn, 9, 5));

	if (a64_gcs_return_ok(regs, target))
		a64_jump(regs, target);
}
NOKPROBE_SYMBOL(a64_sim_ret);
EXPORT_SYMBOL_IF_KUNIT(a64_sim_ret);

void a64_sim_nop(u32 insn, long addr, struct pt_regs *regs)
{
	a64_jump(regs, addr + 4);
}
NOKPROBE_SYMBOL(a64_sim_nop);
