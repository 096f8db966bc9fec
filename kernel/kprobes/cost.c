// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: sampling what hits cost
 *
 * What is timed is said in the design notes of <linux/kprobes.h>.
 *
 * The hit paths of the arch code count every hit down on a per-CPU
 * countdown; when it runs out, kprobe_cost_start() draws the next gap and,
 * if a probe at the address wants it (struct kprobe::cost), starts a
 * sample, which kprobe_cost_add() ends: the time goes to the per-CPU
 * struct kprobe_cost of each enabled probe there whose handler ran.  A
 * probe user reads the mean with kprobe_cost_per_hit().
 *
 * The gaps are drawn between N/2 and 3N/2 hits (N = kprobe_cost_every),
 * N on average, so that probes hit in a fixed rhythm are sampled in
 * proportion to their hits.  Each CPU draws its own.
 *
 * Invariants: a sample starts and ends on one CPU, with preemption off
 * all along (a step keeps interrupts off between its two traps), so the
 * probes of the site stay alive for it as they do for the handlers (RCU).
 * The adds are this_cpu ops, single instructions or atomic on the 64-bit
 * architectures the core supports, so an NMI that ends a sample of its
 * own on the same CPU loses nothing.  A sample is never started while a
 * handler runs: a hit then is a reentry, which calls no handler.
 *
 * The clock is read with the CPU marked busy, so that a probe on the
 * clock's own code is a reentry (a miss), not a hit nested in this one.
 */
#include <linux/kprobes_arch.h>
#include <linux/math.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <kunit/visibility.h>

#include "internal.h"

static unsigned int kprobe_cost_every = KPROBE_COST_EVERY;

/*
 * Set N (debugfs kprobes/cost_every, and the KUnit tests, which time
 * every hit); returns the old N, or -ERANGE.  A countdown in course runs
 * out first.
 */
int kprobe_cost_set_every(unsigned int every)
{
	unsigned int old;
	int cpu;

	if (every > KPROBE_COST_EVERY_MAX)
		return -ERANGE;
	old = xchg(&kprobe_cost_every, every);
	/* each CPU's next hit draws a gap of the new N (a race costs a count) */
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(kprobe_ctlblk, cpu).cost_left, 0);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_cost_set_every);

unsigned int kprobe_cost_get_every(void)
{
	return READ_ONCE(kprobe_cost_every);
}

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
 * The next gap: N/2 to 3N/2 hits, N on average, never 0.
 *
 * The gap only has to break a rhythm of hits, not to be unpredictable,
 * so a 32-bit linear congruence does, scaled by its high bits (its low
 * bits are the weak ones) with reciprocal_scale() rather than a divide.
 * It runs on the hit that ends a countdown, in the int3 handler or the
 * ftrace callback.  On x86_64 (gcc 12) the draw is 5 instructions
 * inline on one per-CPU word: imul, add and store of the congruence, imul
 * and shift of the scaling.  prandom_u32_state() would be a call to
 * 40 instructions (4 loads, 4 stores, 26 shifts, masks and xors) on a
 * 16-byte per-CPU state that also needs seeding; it is built for
 * statistical quality this use does not need.  Every CPU starts from its
 * own seed, so that CPUs hit in step do not draw the same gaps.  An NMI
 * that draws in the middle of a draw only reuses a value.
 */
static nokprobe_inline unsigned int kprobe_cost_gap(struct kprobe_ctlblk *kcb,
						    unsigned int every)
{
	if (!kcb->cost_rand)
		kcb->cost_rand = 2654435761U * (smp_processor_id() + 1);
	kcb->cost_rand = kcb->cost_rand * 1103515245 + 12345;
	return max(every / 2 + reciprocal_scale(kcb->cost_rand, every + 1), 1U);
}

/*
 * This CPU's countdown ran out on a hit: set the next one, and time this
 * hit if a probe at its address is @wanted its cost.
 */
u64 kprobe_cost_start(bool wanted)
{
	struct kprobe_ctlblk *kcb = this_cpu_ptr(&kprobe_ctlblk);
	unsigned int every = READ_ONCE(kprobe_cost_every);

	if (!every) {
		/* off: look again later, so that turning it on takes */
		kcb->cost_left = KPROBE_COST_EVERY;
		return 0;
	}
	kcb->cost_left = kprobe_cost_gap(kcb, every);
	return wanted ? kprobe_cost_clock() : 0;
}
NOKPROBE_SYMBOL(kprobe_cost_start);

static nokprobe_inline u64 kprobe_cost_since(u64 t0)
{
	u64 t = kprobe_cost_clock();

	return t > t0 ? t - t0 : 0;
}

/* Did the pre handlers of @s reach @stop (still on the site)? */
static nokprobe_inline bool kprobe_cost_stop_found(struct kprobe_site *s,
						   struct kprobe *stop)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true)
		if (p == stop)
			return true;
	return false;
}

/*
 * A sampled hit of @s ends: charge it to the probes that want it and whose
 * handlers ran.  When the pre handler of @stop redirected the CPU, those
 * after it were skipped (kprobe_site_skip_after()), and so were every
 * post handler; a @stop gone from the list meanwhile (unregistered on
 * another CPU) leaves no way to tell: the sample is dropped.
 */
void kprobe_cost_add(struct kprobe_site *s, u64 t0, struct kprobe *stop)
{
	u64 d = kprobe_cost_since(t0);
	struct kprobe *p;

	if (stop && !kprobe_cost_stop_found(s, stop))
		return;
	list_for_each_entry_rcu(p, &s->probes, list, true) {
		if (!kprobe_disabled(p) && p->cost && (!stop || p->pre_handler)) {
			this_cpu_add(p->cost->ns, d);
			this_cpu_inc(p->cost->n);
		}
		if (p == stop)
			break;
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

/**
 * kprobe_cost_per_hit() - what a hit of a probe costs, by its samples
 * @cost: the probe's struct kprobe::cost
 * @samples: set to the number of sampled entry hits
 *
 * Context: any; the sums of the CPUs are read without a lock, so a figure
 * read while hits go on may miss the latest sample.
 * Return: the mean time of a hit in ns: the entry's mean, plus the
 * return's for a kretprobe; 0 while nothing was sampled.
 */
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
