// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: x86 kprobes: the breakpoint hit path
 *
 * An armed site has an int3 on the first byte of its instruction.  When a
 * CPU hits it, the int3 handler (NMI-like context, interrupts off) finds
 * the site, calls the pre handlers and then makes the instruction happen::
 *
 *   emulated (jmp, call, ret, jcc, ...)     stepped (anything else)
 *
 *   int3 -> pre handlers                    int3 -> pre handlers
 *        -> effect applied to pt_regs            -> IF cleared, ip = slot
 *        -> post handlers                   slot: insn copy, then int3
 *        -> resume at the new ip            int3 -> ip = addr + len, IF back
 *                                                -> post handlers
 *                                                -> resume after the insn
 *
 *   boosted (stepped, but no post handler on the site)
 *
 *   int3 -> pre handlers -> ip = slot + 16: insn copy, jmp addr + len
 *
 * A site on its way to or from jump optimization (jump.c) sends its hits
 * to the copy in its detour buffer instead.
 *
 * Between the two traps of a step the CPU runs the copy with interrupts
 * off, and current_kprobe stays set, so a trap in the copy is recognised
 * (a page fault by kprobe_fault_handler(), any other trap when
 * fixup_exception() finds no entry for the copy: kprobe_step_trap_rewind())
 * and handled at the original address, fixed up by its exception entry.
 * A probe hit while a handler runs (kprobe_running()) only counts a miss and makes
 * its instruction happen; such a step may nest inside another (NMI), which
 * is why steps are kept on a small per-CPU stack.
 *
 * Every function on this path is NOKPROBE; the decisions taken at
 * registration are in decode.c.  See Documentation/trace/kprobes.rst.
 */
#include <linux/kprobes_arch.h>
#include <linux/kallsyms.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <asm/sections.h>
#include <asm/switch_to.h>
#include <asm/text-patching.h>

#include "kprobes.h"


/*
 * Write one byte at each site, then make every CPU see all of them with
 * one serializing IPI.  A CPU sees either byte until then, and both are
 * valid: the int3 handler knows the sites before they are written, and a
 * site is freed only after a grace period.
 */
static void kpx86_poke_sites(struct kprobe_site **sites, unsigned int n,
			     bool arm)
{
	u8 int3 = INT3_INSN_OPCODE;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct kprobe_site *s = sites[i];

		if (!arm)
			perf_event_text_poke(s->addr, &int3, 1, &s->arch.opcode, 1);
		text_poke(s->addr, arm ? &int3 : &s->arch.opcode, INT3_INSN_SIZE);
	}
	smp_text_poke_sync_each_cpu();
	for (i = 0; arm && i < n; i++)
		perf_event_text_poke(sites[i]->addr, &sites[i]->arch.opcode, 1,
				     &int3, 1);
}

unsigned int arch_arm_kprobe_sites(struct kprobe_site **sites, unsigned int n)
{
	kpx86_poke_sites(sites, n, true);
	return 1;
}

unsigned int arch_disarm_kprobe_sites(struct kprobe_site **sites, unsigned int n)
{
	kpx86_poke_sites(sites, n, false);
	return 1;
}

/* Entry code runs before the kernel is ready to take a breakpoint. */
int __init arch_populate_kprobe_blacklist(void)
{
	return kprobe_add_area_blacklist((unsigned long)__entry_text_start,
					 (unsigned long)__entry_text_end);
}

/* __switch_to returns on another task's stack: its return can't be hooked. */
bool arch_kretprobe_blacklisted(unsigned long func)
{
	return func == (unsigned long)__switch_to;
}

/* ------------------------------------------------------------------ */
/* Emulation of the instructions that change ip or IF                 */

/* loop, loope, loopne (count cx down) and jcxz, at their address size. */
static nokprobe_inline bool kpx86_loop_taken(const struct arch_kprobe_site *a,
					     struct pt_regs *regs)
{
	unsigned long mask = a->asize == 64 ? ~0UL : (1UL << a->asize) - 1;
	unsigned long count = regs->cx & mask;
	bool zf = regs->flags & X86_EFLAGS_ZF;

	if (a->cond == 3)
		return count == 0;
	count = (count - 1) & mask;
	regs->cx = (regs->cx & ~mask) | count;
	if (!count)
		return false;
	if (a->cond == 0)
		return !zf;
	if (a->cond == 1)
		return zf;
	return true;
}

/* pushf and popf move the flags; cli and sti set IF to bit 0 of the opcode. */
static nokprobe_inline void kpx86_emulate_if(u8 opcode, struct pt_regs *regs)
{
	if (opcode == KPX86_OP_PUSHF)
		int3_emulate_push(regs, regs->flags);
	else if (opcode == KPX86_OP_POPF)
		regs->flags = int3_emulate_pop(regs);
	else if (opcode & 1)
		regs->flags |= X86_EFLAGS_IF;
	else
		regs->flags &= ~X86_EFLAGS_IF;
}

static void kpx86_emulate(struct kprobe_site *s, struct pt_regs *regs)
{
	const struct arch_kprobe_site *a = &s->arch;
	unsigned long next = (unsigned long)s->addr + a->len;
	unsigned long target;

	switch (a->op) {
	case KPX86_JMP:
		regs->ip = next + a->disp;
		break;
	case KPX86_CALL:
		int3_emulate_push(regs, next);
		regs->ip = next + a->disp;
		break;
	case KPX86_RET:
		regs->ip = int3_emulate_pop(regs);
		regs->sp += a->disp;
		break;
	case KPX86_JCC:
		int3_emulate_jcc(regs, a->cond, next, a->disp);
		break;
	case KPX86_LOOP:
		regs->ip = next + (kpx86_loop_taken(a, regs) ? a->disp : 0);
		break;
	case KPX86_JMP_REG:
		regs->ip = regs_get_register(regs, a->cond);
		break;
	case KPX86_CALL_REG:
		target = regs_get_register(regs, a->cond);
		int3_emulate_push(regs, next);
		regs->ip = target;
		break;
	case KPX86_IF:
		kpx86_emulate_if(a->cond, regs);
		regs->ip = next;
		break;
	}
}
NOKPROBE_SYMBOL(kpx86_emulate);

/* ------------------------------------------------------------------ */
/* Out-of-line steps                                                   */

/* Is the int3 at @addr the one that ends the innermost step? */
static nokprobe_inline bool kpx86_step_trap(struct kprobe_ctlblk *kcb, void *addr)
{
	const struct kprobe_site *s = kcb->steps[kcb->depth - 1].site;

	return addr == s->arch.slot + s->arch.len;
}

static nokprobe_inline void kpx86_step_begin(struct kprobe_site *s,
					     struct kprobe_ctlblk *kcb,
					     struct pt_regs *regs, bool quiet,
					     u64 cost_t0)
{
	kprobe_step_push(kcb, s, regs->flags & X86_EFLAGS_IF, quiet, cost_t0);
	regs->flags &= ~X86_EFLAGS_IF;
	regs->ip = (unsigned long)s->arch.slot;
}

/*
 * Boosted: the copy jumps back by itself, so no second trap and no step
 * state.  Interrupts stay as they were; the task may even be preempted in
 * the copy, which is why the slot is freed only after an RCU-tasks grace
 * period (arch_kprobe_site_preemptible()).
 */
static nokprobe_inline void kpx86_boost(struct kprobe_site *s, struct pt_regs *regs)
{
	regs->ip = (unsigned long)s->arch.slot + KPX86_BOOST_OFFSET;
}

bool arch_kprobe_site_preemptible(struct kprobe_site *s)
{
	return s->arch.boost || s->arch.detour;
}

enum kprobe_hit_path arch_kprobe_site_path(struct kprobe_site *s)
{
	if (s->opt == KPROBE_OPT_DONE)
		return KPROBE_PATH_OPTIMIZED;
	/* A trap, then the detour's copy jumps back: a boost of sorts. */
	if (s->arch.via_detour)
		return KPROBE_PATH_BOOST;
	if (s->arch.op != KPX86_STEP)
		return KPROBE_PATH_EMULATE;
	if (s->arch.boost && !s->has_post)
		return KPROBE_PATH_BOOST;
	return KPROBE_PATH_STEP;
}

/* The copy ran: go on after the original instruction. */
static void kpx86_step_done(struct kprobe_ctlblk *kcb, struct pt_regs *regs)
{
	struct kprobe_step st = kprobe_step_pop(kcb);
	struct kprobe_site *s = st.site;

	regs->ip = (unsigned long)s->addr + s->arch.len;
	regs->flags |= st.saved;
	if (st.quiet)
		return;
	kprobe_site_done(s, regs);
	kprobe_cost_end(s, st.cost_t0, NULL);
}
NOKPROBE_SYMBOL(kpx86_step_done);

/* ------------------------------------------------------------------ */
/* Breakpoint and fault entry points                                   */

/* Returns with the hit done, unless a step of the instruction goes on. */
static void kpx86_hit(struct kprobe_site *s, struct kprobe_ctlblk *kcb,
		      struct pt_regs *regs, u64 cost_t0)
{
	struct kprobe *redirect = kprobe_site_call_pre(s, regs);

	if (redirect) {
		/* A handler sent the CPU elsewhere: the instruction is skipped. */
		__this_cpu_write(current_kprobe, NULL);
	} else if (unlikely(READ_ONCE(s->arch.via_detour))) {
		regs->ip = (unsigned long)kpx86_detour_tail(s);
		__this_cpu_write(current_kprobe, NULL);
	} else if (s->arch.op != KPX86_STEP) {
		kpx86_emulate(s, regs);
		kprobe_site_done(s, regs);
	} else if (s->arch.boost && !READ_ONCE(s->has_post)) {
		kpx86_boost(s, regs);
		__this_cpu_write(current_kprobe, NULL);
	} else {
		kpx86_step_begin(s, kcb, regs, false, cost_t0);
		return;
	}
	kprobe_cost_end(s, cost_t0, redirect);
}
NOKPROBE_SYMBOL(kpx86_hit);

/* A hit while a handler runs on this CPU: no handler, just go past. */
static void kpx86_reenter(struct kprobe_site *s, struct kprobe_ctlblk *kcb,
			  struct pt_regs *regs)
{
	kprobe_site_missed(s);
	if (unlikely(READ_ONCE(s->arch.via_detour)))
		regs->ip = (unsigned long)kpx86_detour_tail(s);
	else if (s->arch.op != KPX86_STEP)
		kpx86_emulate(s, regs);
	else if (s->arch.boost)
		kpx86_boost(s, regs);
	else
		kpx86_step_begin(s, kcb, regs, true, 0);
}
NOKPROBE_SYMBOL(kpx86_reenter);

/*
 * No int3 of ours at @addr.  If there is no int3 there at all any more,
 * this CPU executed one that another CPU has taken away since (a site
 * removed, text patched): run the instruction now there.  If there is
 * one, it may be that of a text poke (ftrace arming an fentry site) that
 * began after the poke handler looked, which that handler now knows how
 * to step over.  Otherwise the int3 is someone else's.  (On hardware the
 * poking CPU's sync IPI waits for this trap to end, so neither case
 * happens there; under QEMU's TCG a CPU may run a stale translation of
 * the int3 after the text changed, and both do.)
 *
 * The re-run resumes with RF set, as any resumption after a trap may.
 * For hardware that changes nothing here, but QEMU's TCG keys its
 * translations on RF: without it a vCPU can keep running a stale
 * translation of an fentry site, int3 and all, long after the byte was
 * restored, so that every re-run traps again, for ever.  With RF set the
 * instruction is translated afresh from memory.
 */
static int kpx86_int3_vanished(void *addr, struct pt_regs *regs)
{
	/* the CPU just fetched an instruction there: it is mapped */
	if (READ_ONCE(*(u8 *)addr) == INT3_INSN_OPCODE)
		return smp_text_poke_int3_handler(regs);
	regs->ip = (unsigned long)addr;
	regs->flags |= X86_EFLAGS_RF;
	return 1;
}
NOKPROBE_SYMBOL(kpx86_int3_vanished);

/**
 * kprobe_int3_handler() - the int3 trap, for kprobes
 * @regs: the trapped context; regs->ip is after the int3
 *
 * Context: int3 exception, interrupts disabled.
 * Return: 1 if the breakpoint was a kprobe's, else 0.
 */
int kprobe_int3_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe_site *s;
	void *addr;

	if (user_mode(regs))
		return 0;

	addr = (void *)(regs->ip - INT3_INSN_SIZE);
	kcb = this_cpu_ptr(&kprobe_ctlblk);
	if (kcb->depth && kpx86_step_trap(kcb, addr)) {
		kpx86_step_done(kcb, regs);
		return 1;
	}

	s = kprobe_site_lookup(addr);
	/* None of ours here (an fentry site carries no int3 of ours). */
	if (!s || (s->state & KPROBE_SITE_FTRACE))
		return kpx86_int3_vanished(addr, regs);

	if (unlikely(kprobe_running()))
		kpx86_reenter(s, kcb, regs);
	else
		kpx86_hit(s, kcb, regs, kprobe_cost_begin(s));
	return 1;
}
NOKPROBE_SYMBOL(kprobe_int3_handler);

/*
 * If the copy of the innermost step trapped, end the step there and put
 * the CPU back on the original instruction.  A copy holds one instruction
 * (then the int3), and a fault leaves ip on the faulting instruction, so
 * a trap in the copy is always at the start of the slot.
 */
static bool kpx86_step_abort(struct kprobe_ctlblk *kcb, struct pt_regs *regs)
{
	struct kprobe_step st;

	if (!kcb->depth ||
	    regs->ip != (unsigned long)kcb->steps[kcb->depth - 1].site->arch.slot)
		return false;

	st = kprobe_step_pop(kcb);
	regs->ip = (unsigned long)st.site->addr;
	regs->flags |= st.saved;
	if (!st.quiet) {
		__this_cpu_write(current_kprobe, NULL);
		/* the hit ends here; the instruction's rerun is a hit of its own */
		kprobe_cost_end(st.site, st.cost_t0, NULL);
	}
	return true;
}
NOKPROBE_SYMBOL(kpx86_step_abort);

/**
 * kprobe_fault_handler() - a fault while kprobes runs on this CPU
 * @regs: the faulting context
 * @trapnr: the trap number
 *
 * If the out-of-line copy faulted, put the CPU back on the original
 * instruction, out of the step, so that the fault is handled (and fixed
 * up, if the instruction has an exception entry) as if there were no
 * probe.  Faults in handlers are left to the normal fixups.
 *
 * Context: exception, preemption disabled.
 * Return: 0 (not consumed).
 */
int kprobe_fault_handler(struct pt_regs *regs, int trapnr)
{
	kpx86_step_abort(this_cpu_ptr(&kprobe_ctlblk), regs);
	return 0;
}
NOKPROBE_SYMBOL(kprobe_fault_handler);

/**
 * kprobe_step_trap_rewind() - a trap that found no exception entry at ip
 * @regs: the trapped context
 *
 * The exception entry of a stepped instruction is that of its original
 * address, not of the copy.  A page fault gets there through
 * kprobe_fault_handler() before its fixup is looked up; every other trap
 * (#GP of an MSR access or a non-canonical address, #NP or #SS of a
 * segment load, #MF, #XM...) comes here from fixup_exception(), which
 * then looks the entry up again.  Without this, a trap that the
 * instruction expects to be fixed up would kill the kernel once probed.
 *
 * Context: exception; any preemption state.
 * Return: 0 if the trap was in a step's copy and @regs is now on the
 * original instruction, out of the step; -ENOENT otherwise.
 */
int kprobe_step_trap_rewind(struct pt_regs *regs)
{
	/* A step runs with interrupts off: a trap in it is not preemptible. */
	if (user_mode(regs) || preemptible())
		return -ENOENT;
	return kpx86_step_abort(this_cpu_ptr(&kprobe_ctlblk), regs) ? 0 : -ENOENT;
}
NOKPROBE_SYMBOL(kprobe_step_trap_rewind);
