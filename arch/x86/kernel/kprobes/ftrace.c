// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: x86 kprobes: the hit path of a site on an fentry call
 *
 * The call at the function's entry goes to ftrace, which saved a full
 * pt_regs, and ftrace calls this handler; no trap is taken.  To the
 * handlers it looks like a breakpoint hit: regs->ip is the site + 1
 * before, and the end of the 5-byte call (the "stepped" nop) for the post
 * handlers.
 *
 * Context: preemption enabled on entry; the site is looked up and the
 * handlers run with preemption disabled, which keeps the site alive (RCU).
 * Recursion needs no ftrace lock: a hit while any kprobe handler runs on
 * this CPU only counts a miss, like on the breakpoint path.
 */
#include <linux/kprobes_arch.h>
#include <linux/ftrace.h>
#include <linux/preempt.h>

void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct kprobe_site *s;
	struct kprobe *redirect;
	unsigned long resume_ip;
	u64 cost_t0;

	preempt_disable_notrace();
	s = kprobe_ftrace_hit_site(ip);
	if (!s)
		goto out;

	cost_t0 = kprobe_cost_begin(s);
	resume_ip = regs->ip;
	regs->ip = ip + INT3_INSN_SIZE;
	redirect = kprobe_site_call_pre(s, regs);
	if (!redirect) {
		regs->ip = ip + MCOUNT_INSN_SIZE;
		if (unlikely(READ_ONCE(s->has_post)))
			kprobe_site_call_post(s, regs);
		regs->ip = resume_ip;
	}
	/* Otherwise a handler chose where the function goes on. */
	__this_cpu_write(current_kprobe, NULL);
	kprobe_cost_end(s, cost_t0, redirect);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprobe_ftrace_handler);
