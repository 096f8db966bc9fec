// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel probes: what hits cost, sampled (KPROBE_COST_EVERY in
 * <linux/kprobes.h> says what is timed).
 *
 * The hit paths of the arch code start a sample of one hit in
 * kprobe_cost_every on each CPU (on average), and end it here, adding the time to the
 * per-CPU struct kprobe_cost of each enabled probe at the address that
 * has one.  A probe user reads the mean with kprobe_cost_per_hit().
 *
 * Invariants: a sample starts and ends on one CPU, with preemption off
 * all along (a step keeps interrupts off between its two traps), so the
 * probes of the site stay alive for it as they do for the handlers (RCU).
 * The adds are this_cpu ops, safe against an NMI that ends a sample of
 * its own on the same CPU.  A sample is never started while a handler
 * runs: a hit then is a reentry, which calls no handler.
 *
 * The clock is read with the CPU marked busy, so that a probe on the
 * clock's own code is a reentry (a miss), not a hit nested in this one.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>

#include "kprobes_internal.h"

unsigned int kprobe_cost_every = KPROBE_COST_EVERY;

static u64 kprobe_cost_clock(void)
{
	struct kprobe *prev = __this_cpu_read(current_kprobe);
	u64 t;

	__this_cpu_write(current_kprobe, &kprobe_busy);
	t = sched_clock();	/* what trace_clock_local() reads */
	__this_cpu_write(current_kprobe, prev);
	return t;
}
NOKPROBE_SYMBOL(kprobe_cost_clock);

/*
 * The countdown of @kcb ran out: draw the next gap (a linear congruence
 * is enough to break a rhythm, and safe in NMI), and start this sample.
 */
u64 kprobe_cost_start(struct kprobe_ctlblk *kcb)
{
	unsigned int every = READ_ONCE(kprobe_cost_every);

	if (!every) {
		/* off: look again later, so that turning it on takes */
		kcb->cost_left = KPROBE_COST_EVERY;
		return 0;
	}
	kcb->cost_rand = kcb->cost_rand * 1103515245 + 12345;
	kcb->cost_left = every / 2 + 1 + (kcb->cost_rand >> 8) % every;
	return kprobe_cost_clock();
}
NOKPROBE_SYMBOL(kprobe_cost_start);

static nokprobe_inline u64 kprobe_cost_since(u64 t0)
{
	u64 t = kprobe_cost_clock();

	return t > t0 ? t - t0 : 0;
}

/* A sampled hit of @s ends: charge it to the probes that want it. */
void kprobe_cost_add(struct kprobe_site *s, u64 t0)
{
	u64 d = kprobe_cost_since(t0);
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true) {
		if (kprobe_disabled(p) || !p->cost)
			continue;
		this_cpu_add(p->cost->ns, d);
		this_cpu_inc(p->cost->n);
	}
}
NOKPROBE_SYMBOL(kprobe_cost_add);

/* A sampled return of @p's kretprobe ends. */
void kprobe_cost_add_return(struct kprobe *p, u64 t0)
{
	u64 d = kprobe_cost_since(t0);

	if (!p->cost)
		return;
	this_cpu_add(p->cost->ret_ns, d);
	this_cpu_inc(p->cost->ret_n);
}
NOKPROBE_SYMBOL(kprobe_cost_add_return);

u64 kprobe_cost_per_hit(const struct kprobe_cost __percpu *cost, u64 *samples)
{
	u64 ns = 0, n = 0, ret_ns = 0, ret_n = 0, mean = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct kprobe_cost *c = per_cpu_ptr(cost, cpu);

		ns += READ_ONCE(c->ns);
		n += READ_ONCE(c->n);
		ret_ns += READ_ONCE(c->ret_ns);
		ret_n += READ_ONCE(c->ret_n);
	}
	if (n)
		mean += div64_u64(ns, n);
	if (ret_n)
		mean += div64_u64(ret_ns, ret_n);
	*samples = n;
	return mean;
}
EXPORT_SYMBOL_GPL(kprobe_cost_per_hit);
