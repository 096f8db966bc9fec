/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * DOC: kprobes: the API for probe users
 *
 * Kernel probes: call a handler when the CPU reaches a kernel address, and
 * (kretprobes) when the function entered there returns.
 *
 * This is the API for probe users.  What the generic core
 * (kernel/kprobes/) and the architecture code share is in
 * <linux/kprobes_arch.h>, which only they include.  The mechanism is
 * explained in Documentation/trace/kprobes.rst.
 *
 * What hits cost (struct kprobe_cost): each CPU times one kprobe hit in
 * KPROBE_COST_EVERY (N) on average, whichever probe it is: the gaps are
 * drawn at random between half and one and a half times that, so that
 * probes hit in a fixed rhythm all get their share.  The clock is
 * sched_clock(), the one the ring buffer's default trace clock ("local")
 * reads.  A timed hit runs from when the arch code has found the probed
 * address (in the breakpoint handler, or the ftrace callback) to the end
 * of the hit (after the post handlers, after the step of the probed
 * instruction, or at a fault of that step); the trap's own entry and exit,
 * and ftrace's saving of the registers, are outside.  The time goes to the
 * struct kprobe_cost of every enabled probe at the address that has one
 * and whose handler ran; the return of a kretprobe is timed in the same
 * way and kept apart.  Sampling costs a per-CPU decrement on every hit,
 * and two clock reads on the timed one.  Only addresses with such a probe
 * are timed.  debugfs kprobes/cost_every changes N for measurement (0:
 * off).
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
 * @symbol_name: the probed symbol, or NULL to give @addr instead.  Set by
 *	the caller, as are the fields up to @cost.
 * @offset: offset into @symbol_name (or from @addr).
 * @addr: the probed address; registration sets it when @symbol_name is
 *	given.
 * @pre_handler: called before the probed instruction runs, with the
 *	instruction pointer after the breakpoint (x86: @addr + 1) or at
 *	@addr (arm64).  Returning non-zero says the handler redirected the
 *	instruction pointer itself: the probed instruction is then skipped,
 *	and so are the post handlers.
 * @post_handler: called after it ran, the instruction pointer after it.
 * @cost: where the core adds the time of the sampled hits of this probe
 *	(struct kprobe_cost), or NULL.  Per CPU, owned by the caller; it must
 *	not change while the probe is registered, and must stay valid until
 *	unregister_kprobe() returns.
 * @flags: KPROBE_FLAG_*; only KPROBE_FLAG_DISABLED and KPROBE_FLAG_ALL_REGS
 *	may be passed in.  kprobe_mutex once registered.
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
 *
 * The fields from @list on are the core's.  Handlers run with preemption
 * disabled, in the context that hit the probe (any context, NMI
 * included), and must not sleep.
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

/* N: one hit in N timed on each CPU, on average (see above). */
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

/*
 * The mean time of a hit of @cost's probe, in ns: entry and (kretprobe)
 * return together, each averaged over its own samples.  0 when nothing
 * was sampled; *@samples gets the number of entry samples.
 */
u64 kprobe_cost_per_hit(const struct kprobe_cost __percpu *cost, u64 *samples);

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

/* How the address of a probe is hit: kprobe_hit_path(), for KUnit tests. */
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
/* ftrace died: stop trusting the fentry sites. */
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
static inline u64 kprobe_cost_per_hit(const struct kprobe_cost __percpu *cost,
				      u64 *samples)
{
	*samples = 0;
	return 0;
}

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

#endif /* _LINUX_KPROBES_H */
