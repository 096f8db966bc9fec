// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 kprobes: the BRK hit path
 *
 * arm64 kprobes: the BRK hit path.
 *
 * An armed site has BRK #KPROBES_BRK_IMM in place of its instruction.  The
 * BRK exception (interrupts masked, regs->pc on the BRK itself) finds the
 * site, calls the pre handlers, and then makes the instruction happen::
 *
 *   simulated (decode.c)                  stepped (anything else)
 *
 *   BRK -> pre handlers                   BRK -> pre handlers
 *       -> effect applied to pt_regs          -> DAIF masked, pc = slot
 *       -> post handlers                  slot: the copy, then BRK #SS_IMM
 *       -> resume at the new pc           BRK -> pc = addr + 4, DAIF back
 *                                             -> post handlers
 *                                             -> resume after the insn
 *
 * The copy runs with every exception masked, so only a fault of the copy
 * itself can come between the two BRKs.  No stepped instruction has an
 * exception-table entry (site.c refuses those), so such a fault is a bug
 * of the probed code, never fixed up.  current_kprobe stays set during
 * the step, so where the fault reaches kprobe_fault_handler() the step is
 * ended there and the fault is handled as one of the original
 * instruction, as if there were no probe.
 *
 * A probe hit while a handler runs (kprobe_running()) counts a miss and
 * only makes its instruction happen; its step may nest inside another
 * one, hence the small per-CPU stack of steps.
 *
 * Branch target identification: the slot is entered by an exception
 * return, and every resume point is reached the same way, so PSTATE.BTYPE
 * is cleared whenever the PC is moved.
 *
 * Every function here is NOKPROBE.  Registration is in site.c.  See
 * Documentation/trace/kprobes.rst.
 */
#include <linux/kprobes_arch.h>
#include <linux/ptrace.h>
#include <asm/debug-monitors.h>
#include <asm/insn.h>

#include "a64.h"


#define A64_DAIF	(PSR_D_BIT | PSR_A_BIT | PSR_I_BIT | PSR_F_BIT)

static nokprobe_inline void a64_set_pc(struct pt_regs *regs, unsigned long pc)
{
	regs->pstate &= ~PSR_BTYPE_MASK;
	instruction_pointer_set(regs, pc);
}

static nokprobe_inline void a64_simulate(struct kprobe_site *s, struct pt_regs *regs)
{
	s->arch.simulate(s->arch.insn, (long)s->addr, regs);
}

static void a64_step_begin(struct kprobe_site *s, struct kprobe_ctlblk *kcb,
			   struct pt_regs *regs, bool quiet, u64 cost_t0)
{
	kprobe_step_push(kcb, s, regs->pstate & A64_DAIF, quiet, cost_t0);
	regs->pstate |= A64_DAIF;
	a64_set_pc(regs, (unsigned long)s->arch.slot);
}
NOKPROBE_SYMBOL(a64_step_begin);

/* Leave the innermost step, at @pc, with the probed context's DAIF. */
static struct kprobe_step a64_step_end(struct kprobe_ctlblk *kcb,
				       struct pt_regs *regs, unsigned long pc)
{
	struct kprobe_step st = kprobe_step_pop(kcb);

	regs->pstate = (regs->pstate & ~A64_DAIF) | st.saved;
	a64_set_pc(regs, pc);
	return st;
}
NOKPROBE_SYMBOL(a64_step_end);

/*
 * The site of the innermost step if the CPU is at word @word of its slot
 * (0: the copy, 1: the BRK after it), else NULL.
 */
static struct kprobe_site *a64_stepping_at(struct kprobe_ctlblk *kcb,
					   struct pt_regs *regs, int word)
{
	struct kprobe_site *s;

	if (!kcb->depth)
		return NULL;
	s = kcb->steps[kcb->depth - 1].site;
	if (instruction_pointer(regs) != (unsigned long)(s->arch.slot + word))
		return NULL;
	return s;
}
NOKPROBE_SYMBOL(a64_stepping_at);

/* Returns with the hit done, unless a step of the instruction goes on. */
static void a64_hit(struct kprobe_site *s, struct kprobe_ctlblk *kcb,
		    struct pt_regs *regs, u64 cost_t0)
{
	struct kprobe *redirect = kprobe_site_call_pre(s, regs);

	if (redirect) {
		/* A handler sent the CPU elsewhere: the instruction is skipped. */
		__this_cpu_write(current_kprobe, NULL);
	} else if (!s->arch.simulate) {
		a64_step_begin(s, kcb, regs, false, cost_t0);
		return;
	} else {
		a64_simulate(s, regs);
		kprobe_site_done(s, regs);
	}
	kprobe_cost_end(s, cost_t0, redirect);
}
NOKPROBE_SYMBOL(a64_hit);

/* A hit while a handler runs on this CPU: no handler, just go past. */
static void a64_reenter(struct kprobe_site *s, struct kprobe_ctlblk *kcb,
			struct pt_regs *regs)
{
	kprobe_site_missed(s);
	if (s->arch.simulate)
		a64_simulate(s, regs);
	else
		a64_step_begin(s, kcb, regs, true, 0);
}
NOKPROBE_SYMBOL(a64_reenter);

/**
 * kprobe_brk_handler() - BRK #KPROBES_BRK_IMM: a probe was hit
 * @regs: the trapped context; regs->pc is the probed address
 * @esr: the exception syndrome
 *
 * Context: debug exception, interrupts masked.
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR if no site is there.
 */
int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	struct kprobe_ctlblk *kcb = this_cpu_ptr(&kprobe_ctlblk);
	struct kprobe_site *s;

	if (user_mode(regs))
		return DBG_HOOK_ERROR;
	s = kprobe_site_lookup((void *)instruction_pointer(regs));
	if (!s)
		return DBG_HOOK_ERROR;

	if (unlikely(kprobe_running()))
		a64_reenter(s, kcb, regs);
	else
		a64_hit(s, kcb, regs, kprobe_cost_begin(s));
	return DBG_HOOK_HANDLED;
}
NOKPROBE_SYMBOL(kprobe_brk_handler);

/**
 * kprobe_ss_brk_handler() - BRK #KPROBES_BRK_SS_IMM: a copy was stepped
 * @regs: the trapped context; regs->pc is the BRK after the copy
 * @esr: the exception syndrome
 *
 * Context: debug exception, interrupts masked.
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR if no step ends there.
 */
int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	struct kprobe_ctlblk *kcb = this_cpu_ptr(&kprobe_ctlblk);
	struct kprobe_site *s = a64_stepping_at(kcb, regs, 1);
	struct kprobe_step st;
	unsigned long next;

	if (user_mode(regs) || !s)
		return DBG_HOOK_ERROR;

	next = (unsigned long)s->addr + AARCH64_INSN_SIZE;
	st = a64_step_end(kcb, regs, next);
	if (!st.quiet) {
		kprobe_site_done(s, regs);
		kprobe_cost_end(s, st.cost_t0, NULL);
	}
	return DBG_HOOK_HANDLED;
}
NOKPROBE_SYMBOL(kprobe_ss_brk_handler);

/**
 * kprobe_fault_handler() - a fault while kprobes runs on this CPU
 * @regs: the faulting context
 * @fsr: the fault status
 *
 * If the out-of-line copy faulted, end the step and put the CPU back on
 * the original instruction, with the probed context's DAIF, so that the
 * fault is handled and reported at the address it belongs to and no step
 * is left pending on this CPU.  A stepped instruction has no
 * exception-table entry (site.c refuses those): there is no fixup to
 * reach, the fault is a bug of the probed code.  Faults in handlers are
 * left to the normal fixups.
 *
 * Context: exception, preemption disabled.  Called from do_page_fault(),
 * which user addresses and permission faults reach; a translation fault
 * on a kernel address is reported from the slot, without this handler.
 * Return: 0 (not consumed).
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr)
{
	struct kprobe_ctlblk *kcb = this_cpu_ptr(&kprobe_ctlblk);
	struct kprobe_site *s = a64_stepping_at(kcb, regs, 0);
	struct kprobe_step st;

	if (!s)
		return 0;
	st = a64_step_end(kcb, regs, (unsigned long)s->addr);
	if (!st.quiet) {
		__this_cpu_write(current_kprobe, NULL);
		/* the hit ends here; the instruction's rerun is a hit of its own */
		kprobe_cost_end(s, st.cost_t0, NULL);
	}
	return 0;
}
NOKPROBE_SYMBOL(kprobe_fault_handler);
