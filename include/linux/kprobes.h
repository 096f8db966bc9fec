/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel probes: call a handler when the CPU reaches a kernel address, and
 * (kretprobes) when the function entered there returns.
 *
 * The first half of this file is the API for probe users.  The second half
 * is the interface between the generic core (kernel/kprobes*.c) and the
 * architecture code (arch/<arch>/kernel/kprobes/), which only they use.
 * The mechanism is explained in Documentation/trace/kprobes.rst.
 */
#ifndef _LINUX_KPROBES_H
#define _LINUX_KPROBES_H

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/linkage.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/smp.h>
#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/objpool.h>
#include <linux/rethook.h>
#include <asm/kprobes.h>

#ifndef CONFIG_KPROBES
#include <asm-generic/kprobes.h>
typedef int kprobe_opcode_t;
#endif

struct pt_regs;
struct task_struct;

/**
 * struct kprobe - a probe on one kernel address
 *
 * Filled in by the caller before register_kprobe():
 * @symbol_name: the probed symbol, or NULL to give @addr instead.
 * @offset: offset into @symbol_name (or from @addr).
 * @addr: the probed address; registration sets it when @symbol_name is
 *	given.
 * @pre_handler: called before the probed instruction runs; regs->ip is
 *	@addr + the breakpoint size.  Returning non-zero says the handler
 *	redirected regs->ip itself: the probed instruction is then skipped,
 *	and so are the post handlers.
 * @post_handler: called after it ran, regs->ip pointing after it.
 * @cost: where the core adds the time of the sampled hits of this probe
 *	(struct kprobe_cost), or NULL.  Per CPU, owned by the caller; it
 *	must outlive the registration.
 *
 * Handlers run with preemption disabled, in the context that hit the probe
 * (any context, NMI included), and must not sleep.
 * @flags: KPROBE_FLAG_*; only KPROBE_FLAG_DISABLED and KPROBE_FLAG_ALL_REGS
 *	may be passed in.
 *	kprobe_mutex once registered.
 *
 * Kept by the core:
 * @list: link in the list of probes of the same address while registered;
 *	a registered probe never has an empty @list.  kprobe_mutex.
 * @nmissed: hits on which the handlers were not called: the CPU was
 *	already running a probe handler, or one of the causes below.
 *	Incremented on the hit path, like the counts of causes:
 * @nmissed_skipped: of those, hits skipped because the pre handler of
 *	another probe of the address redirected the CPU, or whose own
 *	redirect could not be followed (a jump-optimized site).
 * @nmissed_off: of those, hits while the path that calls the handlers
 *	was shut down (ftrace, after a fatal error of its own).
 * @hlist: not used; kept for callers that initialise it.  Stays unhashed.
 */
struct kprobe {
	const char *symbol_name;
	unsigned int offset;
	u32 flags;
	kprobe_opcode_t *addr;
	int (*pre_handler)(struct kprobe *p, struct pt_regs *regs);
	void (*post_handler)(struct kprobe *p, struct pt_regs *regs, unsigned long flags);
	struct kprobe_cost __percpu *cost;

	struct list_head list;
	unsigned long nmissed;
	unsigned long nmissed_skipped;
	unsigned long nmissed_off;
	struct hlist_node hlist;
};

/* The handler types, for callers that keep handlers elsewhere. */
typedef typeof_member(struct kprobe, pre_handler) kprobe_pre_handler_t;
typedef typeof_member(struct kprobe, post_handler) kprobe_post_handler_t;

#define KPROBE_FLAG_GONE	1	/* the probed code was freed */
#define KPROBE_FLAG_DISABLED	2	/* registered, but not called */
#define KPROBE_FLAG_OPTIMIZED	4	/* its jump is decided or written */
#define KPROBE_FLAG_FTRACE	8	/* its address is hit through ftrace */
#define KPROBE_FLAG_ON_FUNC_ENTRY 16	/* it sits at a function entry */
#define KPROBE_FLAG_ALL_REGS	32	/* its handlers read every register */

/*
 * The pt_regs words that the handlers of a probe hit through ftrace find
 * filled in, as a mask: bit n is the word at n * sizeof(long).  Every word
 * unless <asm/kprobes.h> says its ftrace saves fewer.  A probe whose
 * handlers need the others has KPROBE_FLAG_ALL_REGS: it is then kept off
 * such an ftrace site, and hit by a breakpoint.
 */
#ifndef ARCH_KPROBE_FTRACE_REGS
#define ARCH_KPROBE_FTRACE_REGS	(~0ULL)
#endif

/* The questions users ask of a probe's flags. */
static inline bool kprobe_gone(struct kprobe *p) { return p->flags & KPROBE_FLAG_GONE; }
static inline bool kprobe_optimized(struct kprobe *p) { return p->flags & KPROBE_FLAG_OPTIMIZED; }
static inline bool kprobe_ftrace(struct kprobe *p) { return p->flags & KPROBE_FLAG_FTRACE; }
/* A gone probe is disabled too: its handlers are never called again. */
static inline bool kprobe_disabled(struct kprobe *p)
{
	return p->flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_GONE);
}

/*
 * What hits cost.  Each CPU times one kprobe hit in KPROBE_COST_EVERY on
 * average, whichever probe it is (the gaps are drawn at random between
 * half and one and a half times that, so that probes hit in a fixed
 * rhythm all get their share), with sched_clock(), the clock that the ring
 * buffer's default trace clock ("local") reads: from the arch's first look at the hit (the breakpoint
 * handler, or the ftrace callback) to the end of the hit (after the
 * post handlers, or after the step of the probed instruction).  The
 * trap's own entry and exit, and ftrace's saving of the registers, are
 * outside.  The time of a sampled hit is added to the struct kprobe_cost
 * of every enabled probe at the address that has one; the return of a
 * kretprobe is sampled in the same way and kept apart.  Sampling costs
 * a per-CPU decrement on every hit, and two clock reads on the sampled
 * one.  debugfs kprobes/cost_every changes N for measurement (0: off).
 */
#define KPROBE_COST_EVERY	64

/**
 * struct kprobe_cost - the sampled time of a probe's hits, on one CPU
 * @ns: summed nanoseconds of the sampled hits of the probe's address.
 * @n: how many hits were sampled.
 * @ret_ns: the same for the returns of a kretprobe...
 * @ret_n: ...and their number.
 */
struct kprobe_cost {
	u64 ns;
	u64 n;
	u64 ret_ns;
	u64 ret_n;
};

/*
 * The mean time of a hit of @cost's probe, in ns: entry and (kretprobe)
 * return together, each averaged over its own samples.  0 when nothing
 * was sampled; *@samples gets the number of entry samples.
 */
u64 kprobe_cost_per_hit(const struct kprobe_cost __percpu *cost, u64 *samples);

struct kretprobe_instance;

/**
 * struct kretprobe - a probe on the return of a function
 *
 * Filled in by the caller before register_kretprobe():
 * @kp: the entry probe; give its @addr or @symbol_name (offset 0).
 * @entry_handler: called at the entry; a non-zero return drops this call
 *	(its @handler will not run).
 * @handler: called when the function returns, regs->ip being the real
 *	return address.
 * @data_size: bytes of kretprobe_instance::data given to both handlers.
 * @maxactive: how many calls may be pending at once (default: the
 *	larger of 10 and twice the number of CPUs).
 *
 * Kept by the core:
 * @nmissed: calls not probed because all @maxactive instances were in use.
 * @rh: the return hook.
 */
struct kretprobe {
	struct kprobe kp;
	int (*entry_handler)(struct kretprobe_instance *ri, struct pt_regs *regs);
	int (*handler)(struct kretprobe_instance *ri, struct pt_regs *regs);
	size_t data_size;
	int maxactive;

	int nmissed;
	struct rethook *rh;
};

typedef typeof_member(struct kretprobe, handler) kretprobe_handler_t;

#define KRETPROBE_MAX_DATA_SIZE	4096

/* One pending call of a kretprobe'd function. */
struct kretprobe_instance {
	struct rethook_node node;
	char data[];
};

/* The kretprobe @ri was taken for; constant while @ri is pending. */
static nokprobe_inline struct kretprobe *
get_kretprobe(struct kretprobe_instance *ri)
{
	return ri->node.rethook->data;
}

/* Where the call of @ri returns to (the trampoline stands in the frame). */
static nokprobe_inline unsigned long
get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return ri->node.ret_addr;
}

#ifdef CONFIG_KPROBES

DECLARE_PER_CPU(struct kprobe *, current_kprobe);

/* The kprobe whose handler runs on this CPU, or NULL.  Preemption off. */
static inline struct kprobe *kprobe_running(void)
{
	return __this_cpu_read(current_kprobe);
}

/* Make kprobe_running() true: probes hit in between count as missed. */
void kprobe_busy_begin(void);
void kprobe_busy_end(void);

/* Registration: process context; 0 or a negative errno. */
int register_kprobe(struct kprobe *p);
int register_kprobes(struct kprobe **kps, int num);
int register_kretprobe(struct kretprobe *rp);
int register_kretprobes(struct kretprobe **rps, int num);
int disable_kprobe(struct kprobe *kp);
int enable_kprobe(struct kprobe *kp);
/* On return no handler of the probe runs any more. */
void unregister_kprobe(struct kprobe *p);
void unregister_kprobes(struct kprobe **kps, int num);
void unregister_kretprobe(struct kretprobe *rp);
void unregister_kretprobes(struct kretprobe **rps, int num);

/*
 * Batches: between kprobe_batch_begin() and kprobe_batch_end(), the
 * registrations, unregistrations, enables and disables of the calling
 * task arm and disarm nothing; the end arms and disarms every site they
 * changed in one ftrace filter update and one text-patching batch.  A
 * probe registered or enabled in a batch on a site that is not armed yet
 * is not hit before the end, or before another task's unregistration,
 * which switches every pending site on its way.  Batches nest; one task
 * at a time has one open.  kprobe_batch_end() returns 0 or the error of a
 * site that could not be armed: the probes of that site are left
 * disabled.
 */
void kprobe_batch_begin(void);
int kprobe_batch_end(void);

/* How the address of a probe is hit: kprobe_hit_path(). */
enum kprobe_hit_path {
	KPROBE_PATH_NONE,	/* not registered, or its code is gone */
	KPROBE_PATH_FTRACE,	/* a call to ftrace at the function entry */
	KPROBE_PATH_EMULATE,	/* breakpoint; the instruction is emulated */
	KPROBE_PATH_STEP,	/* breakpoint; a copy runs, then traps back */
	KPROBE_PATH_BOOST,	/* breakpoint; a copy runs, then jumps back */
	KPROBE_PATH_OPTIMIZED,	/* a jump to a detour buffer */
};
enum kprobe_hit_path kprobe_hit_path(struct kprobe *p);

/*
 * For a probe refused with -EILSEQ: the starts of the instruction that
 * holds @addr and of the next one.  Returns 0, -EINVAL when @addr is an
 * instruction's start, -EFAULT when it is not text, or another errno.
 */
int kprobe_insn_around(unsigned long addr, unsigned long *start,
		       unsigned long *next);

kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset);
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym, unsigned long offset);
bool within_kprobe_blacklist(unsigned long addr);
bool within_kprobe_blacklist_sym(unsigned long addr, const char *name);

/* Hooks of the rest of the kernel. */
void kprobe_free_init_mem(void);
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym);
bool is_kprobe_insn_slot(unsigned long addr);

#ifdef CONFIG_KPROBES_ON_FTRACE
/* Set once ftrace died: the fentry sites can no longer be trusted. */
extern bool kprobe_ftrace_disabled __read_mostly;
void kprobe_ftrace_kill(void);
#else
static inline void kprobe_ftrace_kill(void) { }
#endif

#else /* !CONFIG_KPROBES */

/* Without kprobes nothing registers, and no address is probed. */
static inline int register_kprobe(struct kprobe *p) { return -EOPNOTSUPP; }
static inline int register_kretprobe(struct kretprobe *rp) { return -EOPNOTSUPP; }
static inline int register_kprobes(struct kprobe **kps, int num) { return -EOPNOTSUPP; }
static inline int register_kretprobes(struct kretprobe **rps, int num) { return -EOPNOTSUPP; }
static inline int enable_kprobe(struct kprobe *kp) { return -EOPNOTSUPP; }
static inline int disable_kprobe(struct kprobe *kp) { return -EOPNOTSUPP; }
static inline void unregister_kprobe(struct kprobe *p) { }
static inline void unregister_kretprobe(struct kretprobe *rp) { }
static inline void unregister_kprobes(struct kprobe **kps, int num) { }
static inline void unregister_kretprobes(struct kretprobe **rps, int num) { }
static inline void kprobe_batch_begin(void) { }
static inline int kprobe_batch_end(void) { return 0; }

static inline struct kprobe *kprobe_running(void) { return NULL; }
#define kprobe_busy_begin()	do {} while (0)
#define kprobe_busy_end()	do {} while (0)
static inline int kprobe_fault_handler(struct pt_regs *regs, int trapnr) { return 0; }
static inline bool within_kprobe_blacklist(unsigned long addr) { return true; }
static inline bool within_kprobe_blacklist_sym(unsigned long addr, const char *name)
{
	return true;
}
static inline int kprobe_insn_around(unsigned long addr, unsigned long *start,
				     unsigned long *next)
{
	return -EOPNOTSUPP;
}
static inline bool is_kprobe_insn_slot(unsigned long addr) { return false; }
static inline void kprobe_free_init_mem(void) { }
static inline void kprobe_ftrace_kill(void) { }
static inline int kprobe_get_kallsym(unsigned int symnum, unsigned long *value,
				     char *type, char *sym)
{
	return -ERANGE;
}

#endif /* CONFIG_KPROBES */

#ifdef CONFIG_OPTPROBES
/* Is @addr in a detour buffer of jump optimization?  Any context. */
bool is_kprobe_optinsn_slot(unsigned long addr);
/* Return once no site waits for its jump.  Process context, may sleep. */
void wait_for_kprobe_optimizer(void);
#else
static inline bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return false;
}
static inline void wait_for_kprobe_optimizer(void) { }
#endif

/* Tasks end their pending kretprobes through rethook_flush_task(). */
static inline void kprobe_flush_task(struct task_struct *tk) { }

static inline int disable_kretprobe(struct kretprobe *rp)
{
	return disable_kprobe(&rp->kp);
}
static inline int enable_kretprobe(struct kretprobe *rp)
{
	return enable_kprobe(&rp->kp);
}


/*
 * For unwinders.  Return addresses are replaced by the rethook trampoline,
 * so without kretprobes no address is one and none needs finding.
 */
static nokprobe_inline bool is_kretprobe_trampoline(unsigned long addr)
{
	return IS_ENABLED(CONFIG_KRETPROBES) && is_rethook_trampoline(addr);
}

static nokprobe_inline unsigned long
kretprobe_find_ret_addr(struct task_struct *tsk, void *fp, struct llist_node **cur)
{
	if (!IS_ENABLED(CONFIG_KRETPROBES))
		return 0;
	return rethook_find_ret_addr(tsk, (unsigned long)fp, cur);
}

/**
 * kprobe_page_fault() - let kprobes see a fault taken in probe context
 * @regs: the faulting context
 * @trap: the trap number
 *
 * Only a kernel fault taken while this CPU runs a probe handler can be
 * ours; kprobe_running() is only meaningful with preemption off.
 *
 * Return: true if kprobes handled the fault.
 */
static nokprobe_inline bool kprobe_page_fault(struct pt_regs *regs, unsigned int trap)
{
	return IS_ENABLED(CONFIG_KPROBES) && !user_mode(regs) && !preemptible() &&
	       kprobe_running() && kprobe_fault_handler(regs, trap);
}

#ifdef CONFIG_KPROBES
/*
 * ---------------------------------------------------------------------
 * Interface between the generic core and the architecture code.
 *
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

/* Jump optimization of a site, kprobe_site::opt: see kernel/kprobes_opt.c. */
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
 * draws the gaps (see kprobe_cost_begin()).
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
 * with current_kprobe naming the probe whose handler runs.  Returns true
 * if a pre handler redirected regs->ip: the rest are not called then.
 * @post is a constant at every call, so each use compiles to one loop.
 */
static nokprobe_inline bool kprobe_site_call(struct kprobe_site *s,
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
			return true;
		}
	}
	return false;
}

static nokprobe_inline bool kprobe_site_call_pre(struct kprobe_site *s,
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
 * kprobe_cost_begin() when a hit will call handlers, before the first,
 * and hand what it returned to kprobe_cost_end() of the site, or
 * kprobe_cost_end_return() of a kretprobe, where the hit ends; a step
 * carries it in between.  0 means the hit is not sampled.  Call both with
 * preemption disabled, on the same CPU.
 */
#define KPROBE_COST_EVERY_MAX	(1U << 20)
extern unsigned int kprobe_cost_every;	/* 0 (off) to KPROBE_COST_EVERY_MAX */
u64 kprobe_cost_start(struct kprobe_ctlblk *kcb);
void kprobe_cost_add(struct kprobe_site *s, u64 t0);
void kprobe_cost_add_return(struct kprobe *p, u64 t0);

static nokprobe_inline u64 kprobe_cost_begin(void)
{
	struct kprobe_ctlblk *kcb = this_cpu_ptr(&kprobe_ctlblk);

	if (likely(--kcb->cost_left > 0))
		return 0;
	return kprobe_cost_start(kcb);
}

static nokprobe_inline void kprobe_cost_end(struct kprobe_site *s, u64 t0)
{
	if (unlikely(t0))
		kprobe_cost_add(s, t0);
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
 * Jump optimization (kernel/kprobes_opt.c).  All hooks run with
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

#endif /* _LINUX_KPROBES_H */
