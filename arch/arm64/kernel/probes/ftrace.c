// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 kprobes on ftrace: the hit path of a function-entry site
 *
 * arm64 kprobes on ftrace: the hit path of a site on a function's ftrace
 * call, taken with a call instead of a BRK exception.
 *
 * With DYNAMIC_FTRACE_WITH_ARGS a traceable function opens with two
 * instructions that belong to ftrace, "mov x9, x30" and "bl ftrace_caller"
 * (after a BTI landing pad when there is one).  A probe on the function
 * (offset 0) is placed on that bl by arch_adjust_kprobe_addr() and armed
 * through the ftrace_ops of kernel/kprobes/ftrace.c; ftrace calls
 * kprobe_ftrace_handler() with the address of the bl as its ip.
 *
 * ftrace_caller keeps only what a call carries (struct ftrace_regs): x0..x8,
 * the frame pointer, the link register, sp, and the pc after the bl.  The
 * handlers get a pt_regs built from it on this stack, as a BRK on the site
 * would show it, except for what ftrace did not save::
 *
 *   x0..x8, x29, x30, sp   their values at the function's first instruction
 *   pc                     the site (the bl); the site + 4 for post handlers
 *   pstate                 the kernel's EL on SP_ELx and this CPU's DAIF
 *                          (PMR too, with pseudo-NMI); the flags read 0
 *   x9..x28                0.  At an entry x9..x17 carry nothing, x18 is
 *                          the platform register and x19..x28 are the
 *                          caller's; a probe further in (sym+N, a BRK)
 *                          sees them.
 *
 * Back in ftrace_regs after the handlers: x0..x8, x29 and x30 (a kretprobe
 * puts its trampoline in x30), and the pc when a pre handler moved it (a
 * function override).  ftrace_caller restores those and returns to the pc;
 * changes to sp and to the other registers are not seen.  The handlers run
 * with interrupts as the function had them, not masked as on a BRK.
 *
 * Context: called by ftrace with preemption enabled and interrupts as the
 * function had them.  The lookup and the handlers run with preemption
 * disabled, which keeps the site alive (RCU-sched).  A hit while any kprobe
 * handler runs on this CPU counts a miss and calls nothing, as on a BRK;
 * the ftrace_ops asks ftrace for no recursion guard of its own.
 */
#include <linux/ftrace.h>
#include <linux/kprobes_arch.h>
#include <linux/preempt.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#include "a64.h"

static nokprobe_inline void a64_ftrace_regs_in(struct pt_regs *regs,
					       const struct __arch_ftrace_regs *fr,
					       unsigned long ip)
{
	memset(regs, 0, sizeof(*regs));
	memcpy(regs->regs, fr->regs, sizeof(fr->regs));
	regs->regs[29] = fr->fp;
	regs->regs[30] = fr->lr;
	regs->sp = fr->sp;
	regs->pc = ip;
	a64_kernel_context(regs);
}

static nokprobe_inline void a64_ftrace_regs_out(struct __arch_ftrace_regs *fr,
						const struct pt_regs *regs)
{
	memcpy(fr->regs, regs->regs, sizeof(fr->regs));
	fr->fp = regs->regs[29];
	fr->lr = regs->regs[30];
}

void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct __arch_ftrace_regs *fr = arch_ftrace_regs(fregs);
	struct kprobe_site *s;
	/* Zeroed once, and only on a hit, by a64_ftrace_regs_in(). */
	struct pt_regs regs __uninitialized;
	struct kprobe *redirect;
	u64 cost_t0;

	preempt_disable_notrace();
	s = kprobe_ftrace_hit_site(ip);
	if (!s)
		goto out;

	cost_t0 = kprobe_cost_begin(s);
	a64_ftrace_regs_in(&regs, fr, ip);
	redirect = kprobe_site_call_pre(s, &regs);
	if (redirect) {
		/*
		 * A handler chose where the function goes on.  Back to the bl
		 * would skip "mov x9, x30" and lose the return address: the
		 * function goes on as if nothing was chosen.
		 */
		if (!WARN_ON_ONCE(regs.pc == ip))
			fr->pc = regs.pc;
	} else if (unlikely(READ_ONCE(s->has_post))) {
		regs.pc = ip + AARCH64_INSN_SIZE;
		kprobe_site_call_post(s, &regs);
	}
	a64_ftrace_regs_out(fr, &regs);
	__this_cpu_write(current_kprobe, NULL);
	kprobe_cost_end(s, cost_t0, redirect);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprobe_ftrace_handler);
