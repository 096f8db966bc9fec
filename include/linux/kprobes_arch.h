/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * DOC: kprobes: the interface between the core and the architecture code
 *
 * The generic core is in kernel/kprobes/, the architecture code in
 * arch/x86/kernel/kprobes/ and arch/arm64/kernel/probes/.  Probe users
 * include <linux/kprobes.h> only; this header is for the core and the
 * arch code, as <linux/rbtree_augmented.h> is for the users who augment
 * an rbtree.
 *
 * Prefixes: kprobe_site_* (one probed address and its probes),
 * kprobe_step_* (single steps in flight), kprobe_cost_* (the sampling of
 * what hits cost), arch_* (what each architecture provides),
 * kprobe_insn_slot_* (executable memory for copies).
 */
#ifndef _LINUX_KPROBES_ARCH_H
#define _LINUX_KPROBES_ARCH_H

#include <linux/kprobes.h>

#ifdef CONFIG_KPROBES
/*
 * A probe site is one probed address.  All the probes registered on it
 * share the site, and so one breakpoint (or one ftrace hook) and one
 * out-of-line copy of the instruction.
 *
 *	kprobe_table[hash(addr)] --> site --> probes: kp1 --> kp2 --> ...
 *
 * The hit path looks the site up under RCU (it runs with preemption or
 * interrupts disabled) and calls the handlers of its enabled probes.
 * Writers hold kprobe_mutex and free a site only after a grace period.
 */

/* What the core tracks about a site; kprobe_site::state. */
#define KPROBE_SITE_ARMED	1	/* the breakpoint/hook is live */
#define KPROBE_SITE_FTRACE	2	/* hit through ftrace, not a breakpoint */
#define KPROBE_SITE_GONE	4	/* the code was freed (module unload) */

/* Jump optimization of a site, kprobe_site::opt: see kernel/kprobes/opt.c. */
enum kprobe_opt_state {
	KPROBE_OPT_NONE,	/* a breakpoint */
	KPROBE_OPT_QUEUED,	/* detour ready, waiting for the optimizer */
	KPROBE_OPT_DONE,	/* a jump to the detour */
};

/**
 * struct kprobe_site - everything about one probed address
 * @node: link in the kprobe_table bucket of @addr, or in the list of gone
 *	sites.  RCU readers, kprobe_mutex writers.
 * @probes: the probes on @addr (struct kprobe::list), in registration
 *	order.  RCU readers, kprobe_mutex writers.
 * @addr: the probed address.  Constant.
 * @state: KPROBE_SITE_*.  kprobe_mutex.
 * @has_post: some probe of the site has a post_handler.  kprobe_mutex;
 *	read on the hit path, where a stale value is harmless.
 * @has_cost: some probe of the site has a struct kprobe::cost: its hits
 *	are worth timing.  As @has_post.
 * @opt: enum kprobe_opt_state.  kprobe_mutex.
 * @opt_node: link in the optimizer's queue.  kprobe_mutex.
 * @dead_next: chains the sites that wait for a grace period before they
 *	are freed.  kprobe_mutex.
 * @batch_node: link in the list of sites whose arming waits for the end
 *	of a batch, or empty.  kprobe_mutex.
 * @free_rcu: frees the site after an RCU-tasks grace period...
 * @free_node: ...through the list of sites to free, in process context.
 *	Neither is allocated for a KPROBE_SITE_FTRACE site, which is freed
 *	at once (kprobe_site_destroy()).
 * @arch: the architecture's copy of the probed instruction.  Written by
 *	arch_prepare_kprobe_site() before the site is first armed, constant
 *	afterwards.  Last, and not allocated for a KPROBE_SITE_FTRACE site,
 *	which has no instruction of its own: nothing may touch it there.
 */
struct kprobe_site {
	struct hlist_node	node;
	struct list_head	probes;
	kprobe_opcode_t		*addr;
	unsigned int		state;
	bool			has_post;
	bool			has_cost;
	u8			opt;
	struct list_head	opt_node;
	struct kprobe_site	*dead_next;
	struct list_head	batch_node;
	struct rcu_head		free_rcu;
	struct llist_node	free_node;
	struct arch_kprobe_site	arch;
};

#define KPROBE_HASH_BITS	7
#define KPROBE_TABLE_SIZE	(1 << KPROBE_HASH_BITS)
extern struct hlist_head kprobe_table[KPROBE_TABLE_SIZE];

/* Marks the CPU busy while no particular probe is running on it. */
extern struct kprobe kprobe_busy;

/*
 * Single steps in flight on a CPU.  A site's copy of its instruction runs
 * with interrupts (arm64: every exception) masked; @saved is the probed
 * context's mask bits, put back when the step is done, and @quiet says
 * that the hit called no handler (it was a reentry).  @cost_t0 is the
 * start of the hit when it is sampled for its cost, else 0.  An NMI or a fault of
 * the stepped instruction can hit another probe, which then steps on its
 * own: steps nest, innermost last.  The arch code pushes and pops them.
 */
struct kprobe_step {
	struct kprobe_site	*site;
	unsigned long		saved;
	u64			cost_t0;
	bool			quiet;
};

/*
 * @cost_left: hits on this CPU until the next one is sampled; @cost_rand
 * draws the gaps (see kernel/kprobes/cost.c).
 */
#define KPROBE_STEP_DEPTH	3
struct kprobe_ctlblk {
	unsigned int		depth;
	int			cost_left;
	u32			cost_rand;
	struct kprobe_step	steps[KPROBE_STEP_DEPTH];
};

DECLARE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* Start a step of @s on this CPU; the caller then masks and jumps to the copy. */
static nokprobe_inline void kprobe_step_push(struct kprobe_ctlblk *kcb,
					     struct kprobe_site *s,
					     unsigned long saved, bool quiet,
					     u64 cost_t0)
{
	struct kprobe_step *st;

	if (kcb->depth >= KPROBE_STEP_DEPTH) {
		/* A probe on the step path itself: there is no way back. */
		pr_err("kprobes: steps nested too deep at %pS\n", s->addr);
		BUG();
	}
	st = &kcb->steps[kcb->depth++];
	st->site = s;
	st->saved = saved;
	st->quiet = quiet;
	st->cost_t0 = cost_t0;
	if (!quiet)
		__this_cpu_write(current_kprobe, &kprobe_busy);
}

/*
 * End the innermost step of this CPU: a copy of it, taken before the
 * slot is given back, since an NMI may start a step of its own in the
 * slot as soon as @depth is lowered.
 */
static nokprobe_inline struct kprobe_step kprobe_step_pop(struct kprobe_ctlblk *kcb)
{
	struct kprobe_step st = kcb->steps[kcb->depth - 1];

	barrier();
	kcb->depth--;
	return st;
}

/* The live site at @addr, or NULL.  Call under RCU (sched). */
static nokprobe_inline struct kprobe_site *kprobe_site_lookup(void *addr)
{
	struct hlist_head *head = &kprobe_table[hash_ptr(addr, KPROBE_HASH_BITS)];
	struct kprobe_site *s;

	hlist_for_each_entry_rcu(s, head, node, true) {
		if (s->addr == addr)
			return s;
	}
	return NULL;
}

/* The pre handler of @p redirected the CPU: the probes after it miss the hit. */
static nokprobe_inline void kprobe_site_skip_after(struct kprobe_site *s,
						   struct kprobe *p)
{
	list_for_each_entry_continue_rcu(p, &s->probes, list) {
		if (kprobe_disabled(p) || !p->pre_handler)
			continue;
		p->nmissed++;
		p->nmissed_skipped++;
	}
}

/*
 * Call the pre (@post false) or post handlers of the enabled probes of @s,
 * with current_kprobe naming the probe whose handler runs.  Returns the
 * probe whose pre handler redirected regs->ip, if one did: the rest are
 * not called then.  @post is a constant at every call, so each use
 * compiles to one loop.
 */
static nokprobe_inline struct kprobe *kprobe_site_call(struct kprobe_site *s,
						       struct pt_regs *regs, bool post)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true) {
		if (kprobe_disabled(p) || !(post ? !!p->post_handler : !!p->pre_handler))
			continue;
		__this_cpu_write(current_kprobe, p);
		if (post) {
			p->post_handler(p, regs, 0);
		} else if (p->pre_handler(p, regs)) {
			kprobe_site_skip_after(s, p);
			return p;
		}
	}
	return NULL;
}

/* The probe whose pre handler redirected the CPU, or NULL. */
static nokprobe_inline struct kprobe *kprobe_site_call_pre(struct kprobe_site *s,
							   struct pt_regs *regs)
{
	return kprobe_site_call(s, regs, false);
}

/* After the probed instruction ran. */
static nokprobe_inline void kprobe_site_call_post(struct kprobe_site *s,
						  struct pt_regs *regs)
{
	kprobe_site_call(s, regs, true);
}

/* The probed instruction has happened: post handlers, then the CPU is free. */
static nokprobe_inline void kprobe_site_done(struct kprobe_site *s,
					     struct pt_regs *regs)
{
	if (READ_ONCE(s->has_post))
		kprobe_site_call_post(s, regs);
	__this_cpu_write(current_kprobe, NULL);
}

/* A hit of @s while a handler was running: count it, call nothing. */
static nokprobe_inline void kprobe_site_missed(struct kprobe_site *s)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true)
		p->nmissed++;
}

/* A hit of @s while its path is shut down: count it, call nothing. */
static nokprobe_inline void kprobe_site_missed_off(struct kprobe_site *s)
{
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true) {
		if (kprobe_disabled(p))	/* not missed: not wanted either */
			continue;
		p->nmissed++;
		p->nmissed_off++;
	}
}

/*
 * Cost sampling (see KPROBE_COST_EVERY).  The arch's hit paths call
 * kprobe_cost_begin() when a hit of @s will call handlers, before the
 * first, and hand what it returned to kprobe_cost_end() where the hit
 * ends (a step carries it in between, and a fault of the step ends it),
 * with the probe that redirected the CPU if one did; the return of a
 * kretprobe goes from kprobe_cost_begin_return() to
 * kprobe_cost_end_return().  0 means the hit is not sampled: not its
 * turn, or no probe there wants it timed.  Call both ends with
 * preemption disabled, on the same CPU.
 */
u64 kprobe_cost_start(bool wanted);
void kprobe_cost_add(struct kprobe_site *s, u64 t0, struct kprobe *stop);
void kprobe_cost_add_return(struct kprobe *p, u64 t0);

/* Count the hit down; true when it is the one to sample. */
static nokprobe_inline bool kprobe_cost_due(void)
{
	return unlikely(__this_cpu_dec_return(kprobe_ctlblk.cost_left) <= 0);
}

static nokprobe_inline u64 kprobe_cost_begin(struct kprobe_site *s)
{
	return kprobe_cost_due() ? kprobe_cost_start(READ_ONCE(s->has_cost)) : 0;
}

static nokprobe_inline void kprobe_cost_end(struct kprobe_site *s, u64 t0,
					    struct kprobe *stop)
{
	if (unlikely(t0))
		kprobe_cost_add(s, t0, stop);
}

static nokprobe_inline u64 kprobe_cost_begin_return(struct kprobe *p)
{
	return kprobe_cost_due() ? kprobe_cost_start(p->cost != NULL) : 0;
}

static nokprobe_inline void kprobe_cost_end_return(struct kprobe *p, u64 t0)
{
	if (unlikely(t0))
		kprobe_cost_add_return(p, t0);
}

/*
 * Architecture hooks.  The prepare/arm/disarm hooks run with kprobe_mutex
 * and text_mutex held and may sleep; arch_release_kprobe_site() runs once
 * no CPU can execute the site's copy any more.  Arming and disarming take
 * @n breakpoint sites at once, so that one synchronization of the other
 * CPUs serves them all; they return how many synchronizations they made.
 */
int arch_prepare_kprobe_site(struct kprobe_site *s);
void arch_release_kprobe_site(struct kprobe_site *s);
/* May a task be preempted in the site's copy?  Then freeing waits for RCU-tasks. */
bool arch_kprobe_site_preemptible(struct kprobe_site *s);
/* The path a hit of a breakpoint site takes now.  kprobe_mutex. */
enum kprobe_hit_path arch_kprobe_site_path(struct kprobe_site *s);
unsigned int arch_arm_kprobe_sites(struct kprobe_site **sites, unsigned int n);
unsigned int arch_disarm_kprobe_sites(struct kprobe_site **sites, unsigned int n);
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr, unsigned long offset,
					 bool *on_func_entry);
/* kprobe_insn_around() of the architecture; kprobe_mutex is held. */
int arch_kprobe_insn_around(unsigned long addr, unsigned long *start,
			    unsigned long *next);
int arch_populate_kprobe_blacklist(void);
bool arch_kretprobe_blacklisted(unsigned long func);

/* For arch_populate_kprobe_blacklist(): never probe these functions. */
int kprobe_add_ksym_blacklist(unsigned long entry);
int kprobe_add_area_blacklist(unsigned long start, unsigned long end);

#ifdef CONFIG_KPROBES_ON_FTRACE
/* Set once ftrace died: the fentry sites can no longer be trusted. */
extern bool kprobe_ftrace_disabled __read_mostly;

/* The ftrace callback of fentry sites (arch code); preemption enabled. */
void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs);

/*
 * The start of every arch's kprobe_ftrace_handler(): the site of an ftrace
 * hit at @ip whose handlers are to run, or NULL when none are (no site, or
 * a miss counted: ftrace is dead, or a handler runs on this CPU).  Call
 * with preemption disabled.
 */
static nokprobe_inline struct kprobe_site *kprobe_ftrace_hit_site(unsigned long ip)
{
	struct kprobe_site *s = kprobe_site_lookup((void *)ip);

	if (unlikely(!s))
		return NULL;
	if (unlikely(kprobe_ftrace_disabled)) {
		kprobe_site_missed_off(s);
		return NULL;
	}
	if (unlikely(kprobe_running())) {
		kprobe_site_missed(s);
		return NULL;
	}
	return s;
}
#endif

/*
 * Executable slots near the kernel text for out-of-line copies,
 * KPROBE_INSN_SLOT_SIZE bytes each.  Written with text_poke() under
 * text_mutex.  A slot is freed only when no CPU can be running in it.
 */
kprobe_opcode_t *kprobe_insn_slot_alloc(void);
void kprobe_insn_slot_free(kprobe_opcode_t *slot);

#ifdef CONFIG_OPTPROBES
/*
 * Jump optimization (kernel/kprobes/opt.c).  All hooks run with
 * kprobe_mutex and text_mutex held.  prepare checks that the site can take
 * a jump, builds its detour buffer and makes breakpoint hits leave through
 * it; cancel undoes that before the jump was written; install writes the
 * jump, remove takes it back to a breakpoint.
 */
int arch_kprobe_opt_prepare(struct kprobe_site *s);
void arch_kprobe_opt_cancel(struct kprobe_site *s);
void arch_kprobe_opt_install(struct kprobe_site *s);
void arch_kprobe_opt_remove(struct kprobe_site *s);
/* Would the jump of @s (prepared) cover @addr? */
bool arch_kprobe_opt_covers(struct kprobe_site *s, unsigned long addr);

/* Detour buffers, KPROBE_DETOUR_SIZE bytes; same rules as the slots. */
kprobe_opcode_t *kprobe_detour_alloc(void);
void kprobe_detour_free(kprobe_opcode_t *buf);
#endif

#endif /* CONFIG_KPROBES */

#endif /* _LINUX_KPROBES_ARCH_H */
