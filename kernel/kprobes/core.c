// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: registration, arming and the hit path
 *
 * A probe user registers a struct kprobe on an address.  The core keeps one
 * struct kprobe_site per probed address; every probe on that address hangs
 * on the site, which owns the breakpoint (or the ftrace hook) and the
 * out-of-line copy of the instruction::
 *
 *      kprobe_table[hash(addr)] -> site(addr) -> kp1 -> kp2 -> ...
 *      kprobe_gone_sites         -> site whose module was unloaded -> kp ...
 *
 * Invariants (all under kprobe_mutex)::
 *
 *   - a site is on kprobe_table iff its code exists; it is then armed iff
 *     kprobes are globally enabled and one of its probes is enabled;
 *   - a site always has at least one probe; the last unregister frees it,
 *     after an RCU grace period (the hit path reads sites under RCU);
 *   - a probe is registered iff it is on the probe list of a site, so its
 *     ::list is never empty while registered;
 *   - sites at fentry calls are hooked through ftrace, never with a
 *     breakpoint (KPROBE_SITE_FTRACE).
 *
 * Locking order: kprobe_mutex, cpus_read_lock, jump_label_lock, text_mutex.
 * The hit paths take no lock at all: see arch/<arch>/kernel/kprobes/.
 * Documentation/trace/kprobes.rst describes the whole mechanism.
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kprobes.h>
#include <linux/hash.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/freezer.h>
#include <linux/moduleloader.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/ftrace.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/static_call.h>
#include <linux/sysctl.h>
#include <linux/perf_event.h>
#include <linux/bug.h>
#include <linux/extable.h>
#include <linux/llist.h>
#include <linux/workqueue.h>
#include <asm/sections.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "internal.h"

DEFINE_MUTEX(kprobe_mutex);
struct hlist_head kprobe_table[KPROBE_TABLE_SIZE];
struct hlist_head kprobe_gone_sites;
bool kprobes_all_disarmed;
struct kprobe_switch_counts kprobe_switches;

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);
EXPORT_PER_CPU_SYMBOL_GPL(current_kprobe);

/* current_kprobe while a CPU is busy with kprobes but runs no handler. */
struct kprobe kprobe_busy = {
	.symbol_name = "kprobe_busy",
};

void kprobe_busy_begin(void)
{
	preempt_disable();
	__this_cpu_write(current_kprobe, &kprobe_busy);
}
NOKPROBE_SYMBOL(kprobe_busy_begin);

void kprobe_busy_end(void)
{
	__this_cpu_write(current_kprobe, NULL);
	preempt_enable();
}
NOKPROBE_SYMBOL(kprobe_busy_end);

/*
 * Batches defer the arming and disarming of sites.  While a batch is open,
 * kprobe_site_sync() only puts the site on kprobe_batch_sites, and a site
 * whose last probe went is put on kprobe_batch_dead; kprobe_batch_flush()
 * then switches all that need it, one call to ftrace or to the arch per
 * kind of site and direction.  Two kinds of batch:
 *  - a task's, from kprobe_batch_begin() to kprobe_batch_end(), over
 *    many holds of kprobe_mutex.  The outermost begin takes
 *    kprobe_batch_mutex and the outermost end releases it, so that lockdep
 *    sees one plain mutex held for the whole batch, taken before
 *    kprobe_mutex; the nested begins and ends only count, under that
 *    mutex, which they assert (kprobe_batch_depth);
 *  - an API call's own (kprobe_defer_begin() to kprobe_defer_end()), under
 *    one hold of kprobe_mutex; every unregistration is one, so that a
 *    dead site is disarmed before the grace period that precedes its free.
 *    Its flush switches whatever is pending, an open task batch's sites
 *    too; a site of those that cannot be armed is that batch's error.
 * A site is taken off both lists before it is freed or marked gone.
 */
static DEFINE_MUTEX(kprobe_batch_mutex);
/* Written under both mutexes; a task may read it to ask if it is the owner. */
static struct task_struct *kprobe_batch_owner;
static unsigned int kprobe_batch_depth;		/* kprobe_batch_mutex */
static bool kprobe_batch_inner;			/* kprobe_mutex */
static int kprobe_batch_err;	/* kept for the owner's end; kprobe_mutex */
static bool kprobes_switching_all;	/* in kprobes_set_all_armed(); kprobe_mutex */
static LIST_HEAD(kprobe_batch_sites);		/* kprobe_mutex */
static LIST_HEAD(kprobe_batch_dead);		/* kprobe_mutex */

/* Only this task sets the owner to itself, or clears it from itself. */
static bool kprobe_batch_mine(void)
{
	return READ_ONCE(kprobe_batch_owner) == current;
}

static bool kprobe_batching(void)
{
	return kprobe_batch_inner || kprobe_batch_mine();
}

kprobe_opcode_t *kprobe_lookup_name(const char *name, unsigned int offset)
{
	return (kprobe_opcode_t *)kallsyms_lookup_name(name);
}

/* ------------------------------------------------------------------ */
/* Where a probe goes, and whether it may go there                    */

/*
 * A probe that reads every register stays off an ftrace site that saves
 * only some (ARCH_KPROBE_FTRACE_REGS): an entry probe the architecture
 * moved onto the ftrace call goes back where it was asked for, and is hit
 * by a breakpoint.  One asked for on the ftrace call itself is refused.
 */
static int kprobe_keep_all_regs(struct kprobe_where *w)
{
	unsigned long a = (unsigned long)w->addr;

	if (ARCH_KPROBE_FTRACE_REGS == ~0ULL || ftrace_location(a) != a)
		return 0;
	if (w->asked == a)
		return -EOPNOTSUPP;
	w->addr = (kprobe_opcode_t *)w->asked;
	return 0;
}

/*
 * Find where a probe given as @addr or @sym, plus @offset, goes: the
 * symbol start plus the offset within that symbol, as the architecture
 * adjusts it (e.g. past an endbr64), and kept off a partial-register
 * ftrace site if @flags (the probe's) has KPROBE_FLAG_ALL_REGS.  The
 * symbol's name is looked at here and not kept.
 */
int kprobe_locate(kprobe_opcode_t *addr, const char *sym, unsigned long offset,
		  u32 flags, struct kprobe_where *w)
{
	unsigned long target, in_sym;
	char name[KSYM_NAME_LEN];

	if (!addr == !sym)
		return -EINVAL;
	if (sym) {
		addr = kprobe_lookup_name(sym, offset);
		if (!addr)
			return -ENOENT;
	}

	target = (unsigned long)addr + offset;
	if (!kallsyms_lookup(target, NULL, &in_sym, NULL, name))
		return -ENOENT;
	w->asked = target;
	w->func = target - in_sym;
	w->addr = arch_adjust_kprobe_addr(w->func, in_sym, &w->on_entry);
	if (!w->addr)
		return -EINVAL;
	if (flags & KPROBE_FLAG_ALL_REGS) {
		int ret = kprobe_keep_all_regs(w);

		if (ret)
			return ret;
	}
	/* compiler-made CFI preambles must stay untouched */
	w->cfi = str_has_prefix(name, "__cfi_") || str_has_prefix(name, "__pfx_");
	w->origin = kprobe_clone_origin(name);
	return 0;
}

/**
 * kprobe_on_func_entry() - is the probe point a function entry?
 * @addr: the address, or NULL when @sym is given
 * @sym: the symbol, or NULL when @addr is given
 * @offset: offset from @addr or @sym
 *
 * Return: 0 at a function entry, -EINVAL elsewhere, -ENOENT if the address
 * is not in a known symbol.
 */
int kprobe_on_func_entry(kprobe_opcode_t *addr, const char *sym, unsigned long offset)
{
	struct kprobe_where w;
	int ret;

	ret = kprobe_locate(addr, sym, offset, 0, &w);
	if (ret)
		return ret;
	return w.on_entry ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(kprobe_on_func_entry);

/**
 * kprobe_insn_around() - the instructions around an address inside one
 * @addr: a kernel text address that is no instruction's start
 * @start: set to the start of the instruction that holds @addr
 * @next: set to the start of the next instruction
 *
 * For the error message of a probe refused with -EILSEQ.
 *
 * Context: process; takes kprobe_mutex.
 * Return: 0; -EINVAL when @addr is an instruction's start, -EFAULT when it
 * is not kernel text, or another errno of the decoder.
 */
int kprobe_insn_around(unsigned long addr, unsigned long *start,
		       unsigned long *next)
{
	if (!kernel_text_address(addr))
		return -EFAULT;
	guard(mutex)(&kprobe_mutex);
	return arch_kprobe_insn_around(addr, start, next);
}
EXPORT_SYMBOL_GPL(kprobe_insn_around);

/* Code that other kernel subsystems patch or trap on. */
static bool kprobe_text_reserved(const struct kprobe_where *w)
{
	unsigned long a = (unsigned long)w->addr;

	return w->cfi || in_gate_area_no_mm(a) ||
	       kprobe_blacklisted(a, w->origin) ||
	       jump_label_text_reserved(w->addr, w->addr) ||
	       static_call_text_reserved(w->addr, w->addr) || find_bug(a);
}

/*
 * Check that @w is kernel or module text that may be probed.  On success,
 * *@modp holds a reference on the module of @w (or is NULL), which keeps
 * the module alive until the probe is in place.
 */
static int kprobe_check_address(const struct kprobe_where *w,
				struct module **modp)
{
	unsigned long a = (unsigned long)w->addr;
	struct module *mod = NULL;
	int ret = 0;

	jump_label_lock();
	preempt_disable();
	if (!core_kernel_text(a)) {
		mod = __module_text_address(a);
		if (!mod) {
			ret = -EINVAL;
			goto out;
		}
	}
	if (kprobe_text_reserved(w)) {
		ret = -EINVAL;
		mod = NULL;
		goto out;
	}
	if (mod && !try_module_get(mod)) {
		ret = -ENOENT;
		mod = NULL;
		goto out;
	}
	/* The init text of a live module is already freed. */
	if (mod && within_module_init(a, mod) && !module_is_coming(mod)) {
		module_put(mod);
		ret = -ENOENT;
		mod = NULL;
	}
out:
	preempt_enable();
	jump_label_unlock();
	*modp = mod;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Sites                                                              */

static bool kprobe_site_has(struct kprobe_site *s, struct kprobe *p)
{
	struct kprobe *q;

	list_for_each_entry(q, &s->probes, list) {
		if (q == p)
			return true;
	}
	return false;
}

/* The site @p is registered on, live or gone, or NULL. */
static struct kprobe_site *kprobe_site_of(struct kprobe *p)
{
	struct kprobe_site *s;

	lockdep_assert_held(&kprobe_mutex);
	s = kprobe_site_lookup(p->addr);
	if (s && kprobe_site_has(s, p))
		return s;
	hlist_for_each_entry(s, &kprobe_gone_sites, node) {
		if (s->addr == p->addr && kprobe_site_has(s, p))
			return s;
	}
	return NULL;
}

bool kprobe_is_registered(struct kprobe *p)
{
	return kprobe_site_of(p) != NULL;
}

/* Recompute what the site caches about its probes. */
static void kprobe_site_refresh(struct kprobe_site *s)
{
	struct kprobe *p;
	bool has_post = false, has_cost = false;

	list_for_each_entry(p, &s->probes, list) {
		has_post |= p->post_handler != NULL;
		has_cost |= p->cost != NULL;
	}
	WRITE_ONCE(s->has_post, has_post);
	WRITE_ONCE(s->has_cost, has_cost);
}

/* An ftrace site is allocated up to @free_rcu: what follows must be last. */
static_assert(offsetof(struct kprobe_site, free_node) >
	      offsetof(struct kprobe_site, free_rcu) &&
	      offsetof(struct kprobe_site, arch) >
	      offsetof(struct kprobe_site, free_node));

static struct kprobe_site *kprobe_site_create(kprobe_opcode_t *addr)
{
	unsigned long a = (unsigned long)addr;
	bool hooked = ftrace_location(a) == a;
	struct kprobe_site *s;
	int ret = 0;

	/*
	 * An ftrace site has no instruction of its own, and is freed without
	 * an RCU-tasks grace period: it has neither the free nor the arch part.
	 */
	s = kzalloc(hooked ? offsetof(struct kprobe_site, free_rcu) : sizeof(*s),
		    GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->addr = addr;
	INIT_LIST_HEAD(&s->probes);
	INIT_LIST_HEAD(&s->opt_node);
	INIT_LIST_HEAD(&s->batch_node);

	if (hooked) {
		if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
			ret = -EINVAL;
		s->state = KPROBE_SITE_FTRACE;
	} else {
		/* A jump over @addr would hide its breakpoint. */
		kprobe_opt_yield(a);
		cpus_read_lock();
		jump_label_lock();
		mutex_lock(&text_mutex);
		ret = arch_prepare_kprobe_site(s);
		mutex_unlock(&text_mutex);
		jump_label_unlock();
		cpus_read_unlock();
	}
	if (ret) {
		/* the jumps that made way for it may be written again */
		if (!hooked)
			kprobe_opt_retry(a);
		kfree(s);
		return ERR_PTR(ret);
	}
	hlist_add_head_rcu(&s->node, &kprobe_table[hash_ptr(addr, KPROBE_HASH_BITS)]);
	return s;
}

static void kprobe_site_free(struct kprobe_site *s)
{
	if (!(s->state & (KPROBE_SITE_FTRACE | KPROBE_SITE_GONE)))
		arch_release_kprobe_site(s);
	kfree(s);
}

/*
 * Sites whose copy a preempted task may still be running wait for an
 * RCU-tasks grace period, then for this work: releasing a slot sleeps.
 */
static LLIST_HEAD(kprobe_sites_to_free);

static void kprobe_sites_free_work(struct work_struct *work)
{
	struct llist_node *ln = llist_del_all(&kprobe_sites_to_free);

	while (ln) {
		struct kprobe_site *s = container_of(ln, struct kprobe_site, free_node);

		ln = ln->next;
		kprobe_site_free(s);
	}
}
static DECLARE_WORK(kprobe_sites_free, kprobe_sites_free_work);

static void kprobe_site_free_rcu_tasks(struct rcu_head *head)
{
	struct kprobe_site *s = container_of(head, struct kprobe_site, free_rcu);

	llist_add(&s->free_node, &kprobe_sites_to_free);
	schedule_work(&kprobe_sites_free);
}

/* Free a site that no CPU can see any more. */
static void kprobe_site_destroy(struct kprobe_site *s)
{
	if (!(s->state & (KPROBE_SITE_FTRACE | KPROBE_SITE_GONE)) &&
	    arch_kprobe_site_preemptible(s))
		call_rcu_tasks(&s->free_rcu, kprobe_site_free_rcu_tasks);
	else
		kprobe_site_free(s);
}

/*
 * Put the breakpoints (or ftrace hooks) of @sites in (@arm) or take them
 * out; all are of one kind, FTRACE or not.  A jump goes back to a
 * breakpoint first: the breakpoint is what is removed.  A KUnit test may
 * stand in for it, to make arming fail where a batch ends.
 */
VISIBLE_IF_KUNIT int kprobe_sites_set_armed(struct kprobe_site **sites,
					    unsigned int n, bool arm)
{
	unsigned int i;
	int ret;

	KUNIT_STATIC_STUB_REDIRECT(kprobe_sites_set_armed, sites, n, arm);
	if (sites[0]->state & KPROBE_SITE_FTRACE) {
		ret = arm ? kprobe_ftrace_arm(sites, n) :
			    kprobe_ftrace_disarm(sites, n);
		if (ret)
			return ret;
		kprobe_switches.ftrace_calls++;
		kprobe_switches.ftrace_sites += n;
	} else {
		for (i = 0; !arm && i < n; i++)
			kprobe_opt_stop(sites[i]);
		cpus_read_lock();
		mutex_lock(&text_mutex);
		kprobe_switches.text_calls += arm ?
			arch_arm_kprobe_sites(sites, n) :
			arch_disarm_kprobe_sites(sites, n);
		kprobe_switches.text_sites += n;
		mutex_unlock(&text_mutex);
		cpus_read_unlock();
	}
	for (i = 0; i < n; i++) {
		if (arm)
			sites[i]->state |= KPROBE_SITE_ARMED;
		else
			sites[i]->state &= ~KPROBE_SITE_ARMED;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_sites_set_armed);

static int kprobe_site_set_armed(struct kprobe_site *s, bool arm)
{
	return kprobe_sites_set_armed(&s, 1, arm);
}

static bool kprobe_site_wanted(struct kprobe_site *s)
{
	struct kprobe *p;

	if (kprobes_all_disarmed || (s->state & KPROBE_SITE_GONE))
		return false;
	list_for_each_entry(p, &s->probes, list) {
		if (!kprobe_disabled(p))
			return true;
	}
	return false;
}

/*
 * Arm or disarm @s so that it matches its probes and the global switch,
 * then let jump optimization follow.  In a batch, only note that @s is to
 * be looked at when the batch ends.  A KUnit test may stand in for it, to
 * make arming fail.
 */
VISIBLE_IF_KUNIT int kprobe_site_sync(struct kprobe_site *s)
{
	bool wanted;
	int ret = 0;

	KUNIT_STATIC_STUB_REDIRECT(kprobe_site_sync, s);
	lockdep_assert_held(&kprobe_mutex);
	if (kprobe_batching()) {
		if (list_empty(&s->batch_node))
			list_add_tail(&s->batch_node, &kprobe_batch_sites);
		return 0;
	}
	wanted = kprobe_site_wanted(s);
	if (wanted != !!(s->state & KPROBE_SITE_ARMED))
		ret = kprobe_site_set_armed(s, wanted);
	if (!ret)
		kprobe_opt_update(s);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_site_sync);

/* ------------------------------------------------------------------ */
/* Batches                                                            */

/* Does @s (on @dead: detached for good) need switching, and which way? */
static bool kprobe_batch_needs(struct kprobe_site *s, bool dead, bool *arm)
{
	*arm = !dead && kprobe_site_wanted(s);
	return *arm != !!(s->state & KPROBE_SITE_ARMED);
}

/*
 * The site could not be armed.  Its probes are disabled, and the owner of
 * the open batch (whose site it may be) hears of it.  kprobes/enabled
 * leaves them enabled instead: their owners asked for nothing, and the
 * next switch of the site tries again (it flushes what a batch queued
 * before, so that no batch's site is judged so).
 */
static void kprobe_batch_refused(struct kprobe_site *s, int err)
{
	struct kprobe *p;

	if (kprobes_switching_all) {
		pr_warn_ratelimited("could not arm %pS (%d)\n", s->addr, err);
		return;
	}
	list_for_each_entry(p, &s->probes, list)
		p->flags |= KPROBE_FLAG_DISABLED;
	if (kprobe_batch_owner && !kprobe_batch_err)
		kprobe_batch_err = err;
	pr_warn_ratelimited("could not arm %pS (%d): its probes are disabled\n",
			    s->addr, err);
}

/*
 * Switch the sites on @v[0..@n-1], all of one kind and one direction, as
 * one group; if the group fails, one at a time.  Returns 0 or the last
 * error.
 */
static int kprobe_batch_switch(struct kprobe_site **v, unsigned int n,
			       bool arm)
{
	unsigned int i;
	int err, ret = 0;

	if (!n || !kprobe_sites_set_armed(v, n, arm))
		return 0;
	for (i = 0; i < n; i++) {
		err = kprobe_site_set_armed(v[i], arm);
		if (err && arm)
			kprobe_batch_refused(v[i], err);
		if (err)
			ret = err;
	}
	return ret;
}

/* Put @s into @v[0..*@n], keeping the ftrace sites in front of the others. */
static void kprobe_batch_add(struct kprobe_site **v, unsigned int *n,
			     unsigned int *nf, struct kprobe_site *s)
{
	v[*n] = s;
	if (s->state & KPROBE_SITE_FTRACE) {
		swap(v[*n], v[*nf]);
		(*nf)++;
	}
	(*n)++;
}

/*
 * Collect into @v the sites of the batch that need switching towards
 * @arm: the ftrace sites first (*@nf of them), then breakpoint sites.
 */
static unsigned int kprobe_batch_collect(bool arm, struct kprobe_site **v,
					 unsigned int *nf)
{
	struct kprobe_site *s;
	unsigned int n = 0;
	bool want;

	*nf = 0;
	list_for_each_entry(s, &kprobe_batch_dead, batch_node)
		if (kprobe_batch_needs(s, true, &want) && want == arm)
			kprobe_batch_add(v, &n, nf, s);
	list_for_each_entry(s, &kprobe_batch_sites, batch_node)
		if (kprobe_batch_needs(s, false, &want) && want == arm)
			kprobe_batch_add(v, &n, nf, s);
	return n;
}

static unsigned int kprobe_batch_count(void)
{
	struct kprobe_site *s;
	unsigned int n = 0;

	list_for_each_entry(s, &kprobe_batch_sites, batch_node)
		n++;
	list_for_each_entry(s, &kprobe_batch_dead, batch_node)
		n++;
	return n;
}

/* Without memory for the groups: one site at a time. */
static int kprobe_batch_one_by_one(void)
{
	struct kprobe_site *s;
	int err, ret = 0;
	bool arm;

	list_for_each_entry(s, &kprobe_batch_dead, batch_node)
		if (kprobe_batch_needs(s, true, &arm))
			WARN_ON_ONCE(kprobe_site_set_armed(s, false));
	list_for_each_entry(s, &kprobe_batch_sites, batch_node) {
		if (!kprobe_batch_needs(s, false, &arm))
			continue;
		err = kprobe_site_set_armed(s, arm);
		if (err && arm)
			kprobe_batch_refused(s, err);
		if (err)
			ret = err;
	}
	return ret;
}

/*
 * Disarm, then arm, what the batch changed, then let jump optimization
 * follow: the sites that stay queue their jumps, the dead ones free the
 * neighbours they held back.
 */
static int kprobe_batch_flush(void)
{
	unsigned int n, nf, max = kprobe_batch_count();
	struct kprobe_site **v, *s, *tmp;
	int ret = 0, err;
	bool arm;

	lockdep_assert_held(&kprobe_mutex);
	if (!max)
		return 0;
	v = kvmalloc_array(max, sizeof(*v), GFP_KERNEL);
	if (!v)
		ret = kprobe_batch_one_by_one();
	for (arm = false; v; arm = true) {
		n = kprobe_batch_collect(arm, v, &nf);
		err = kprobe_batch_switch(v, nf, arm);
		err = kprobe_batch_switch(v + nf, n - nf, arm) ?: err;
		ret = err ?: ret;
		if (arm)
			break;
	}
	kvfree(v);

	list_for_each_entry_safe(s, tmp, &kprobe_batch_sites, batch_node) {
		list_del_init(&s->batch_node);
		kprobe_opt_update(s);
	}
	list_for_each_entry_safe(s, tmp, &kprobe_batch_dead, batch_node) {
		list_del_init(&s->batch_node);
		hlist_del_rcu(&s->node);
		if (!(s->state & KPROBE_SITE_GONE))
			kprobe_opt_retry((unsigned long)s->addr);
	}
	return ret;
}

/* An API call's own batch: under kprobe_mutex, until kprobe_defer_end(). */
void kprobe_defer_begin(void)
{
	lockdep_assert_held(&kprobe_mutex);
	WARN_ON_ONCE(kprobe_batch_inner);
	kprobe_batch_inner = true;
}

int kprobe_defer_end(void)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	kprobe_batch_inner = false;
	/* it may arm an open batch's sites: kprobe_batch_refused() tells */
	ret = kprobe_batch_flush();
	return ret;
}

/**
 * kprobe_batch_begin() - start arming and disarming in one batch
 *
 * Until kprobe_batch_end(), the registrations, unregistrations, enables
 * and disables of the calling task switch no site; the end switches them
 * all with one ftrace filter update and one text-patching batch.  Batches
 * nest; one task at a time has one open, the others wait here.
 *
 * Context: process, may sleep.
 */
void kprobe_batch_begin(void)
{
	if (!kprobe_batch_mine()) {
		mutex_lock(&kprobe_batch_mutex);
		mutex_lock(&kprobe_mutex);
		WRITE_ONCE(kprobe_batch_owner, current);
		mutex_unlock(&kprobe_mutex);
	}
	lockdep_assert_held(&kprobe_batch_mutex);
	kprobe_batch_depth++;
}
EXPORT_SYMBOL_GPL(kprobe_batch_begin);

/**
 * kprobe_batch_end() - end a batch: arm and disarm what it changed
 *
 * An inner end only counts down.  The outermost arms and disarms every
 * site the batch changed.
 *
 * Context: process, may sleep.
 * Return: 0, or the error of a site that could not be armed (the probes
 * of that site are left disabled); -EINVAL if the caller has no batch
 * open.
 */
int kprobe_batch_end(void)
{
	int ret;

	if (WARN_ON_ONCE(!kprobe_batch_mine()))
		return -EINVAL;
	lockdep_assert_held(&kprobe_batch_mutex);
	if (--kprobe_batch_depth)
		return 0;
	mutex_lock(&kprobe_mutex);
	WRITE_ONCE(kprobe_batch_owner, NULL);
	ret = kprobe_batch_flush() ?: kprobe_batch_err;
	kprobe_batch_err = 0;
	mutex_unlock(&kprobe_mutex);
	mutex_unlock(&kprobe_batch_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(kprobe_batch_end);

/* ------------------------------------------------------------------ */
/* Registration                                                       */

/* Put @p on the site of its address, creating and arming it if needed. */
static int kprobe_attach(struct kprobe *p)
{
	struct kprobe_site *s;
	bool created = false;
	int ret;

	s = kprobe_site_lookup(p->addr);
	if (!s) {
		s = kprobe_site_create(p->addr);
		if (IS_ERR(s))
			return PTR_ERR(s);
		created = true;
	}
	if (s->state & KPROBE_SITE_FTRACE)
		p->flags |= KPROBE_FLAG_FTRACE;
	/* A post handler needs the breakpoint: no jump from now on. */
	if (p->post_handler) {
		WRITE_ONCE(s->has_post, true);
		kprobe_opt_stop(s);
	}
	if (s->opt != KPROBE_OPT_NONE)
		p->flags |= KPROBE_FLAG_OPTIMIZED;
	if (p->cost)
		WRITE_ONCE(s->has_cost, true);

	list_add_tail_rcu(&p->list, &s->probes);
	kprobe_site_refresh(s);
	ret = kprobe_site_sync(s);
	if (!ret)
		return 0;

	/*
	 * Arming failed.  On a site that was live, a hit already under way
	 * (one from before a disarm) may have walked onto @p: it must be gone
	 * before @p's links are reset or @p is given back to its owner.
	 */
	list_del_rcu(&p->list);
	kprobe_site_refresh(s);
	if (created)
		hlist_del_rcu(&s->node);
	synchronize_rcu();
	if (created) {
		bool hooked = s->state & KPROBE_SITE_FTRACE;

		kprobe_site_destroy(s);
		if (!hooked)
			kprobe_opt_retry((unsigned long)p->addr);
	}
	INIT_LIST_HEAD(&p->list);
	return ret;
}

/* Register @p where kprobe_locate() found that it goes: @w. */
int kprobe_register_at(struct kprobe *p, const struct kprobe_where *w)
{
	kprobe_opcode_t *given = p->addr;
	struct module *mod;
	int ret;

	mutex_lock(&kprobe_mutex);
	/* Registering a registered probe is a bug of the caller. */
	if (WARN_ON_ONCE(p->addr && kprobe_is_registered(p))) {
		ret = -EINVAL;
		goto out_unlock;
	}

	p->addr = w->addr;
	p->flags &= KPROBE_FLAG_DISABLED | KPROBE_FLAG_ALL_REGS;
	if (w->on_entry)
		p->flags |= KPROBE_FLAG_ON_FUNC_ENTRY;
	p->nmissed = 0;
	p->nmissed_skipped = 0;
	p->nmissed_off = 0;
	INIT_LIST_HEAD(&p->list);

	ret = kprobe_check_address(w, &mod);
	if (!ret) {
		ret = kprobe_attach(p);
		module_put(mod);
	}
	/* A failed probe is left as it was given, to be registered again. */
	if (ret)
		p->addr = given;
out_unlock:
	mutex_unlock(&kprobe_mutex);
	return ret;
}

/**
 * register_kprobe() - place a probe
 * @p: the probe: @p->addr, or @p->symbol_name and @p->offset, and its
 *	handlers; see struct kprobe
 *
 * The probe is armed at once unless KPROBE_FLAG_DISABLED is set or a batch
 * is open (kprobe_batch_begin()).  A failed probe is left as it was given
 * and may be registered again.
 *
 * Context: process, may sleep.
 * Return: 0; -EINVAL for an address that cannot be probed (blacklisted,
 * not text), or when @p is registered already (with a warning);
 * -EILSEQ inside an instruction; -EOPNOTSUPP for an instruction that
 * cannot be probed; -ENOENT for an unknown symbol, or one whose module
 * is going away; -ENOMEM.
 */
int register_kprobe(struct kprobe *p)
{
	struct kprobe_where w;
	int ret;

	ret = kprobe_locate(p->addr, p->symbol_name, p->offset, p->flags, &w);
	return ret ? ret : kprobe_register_at(p, &w);
}
EXPORT_SYMBOL_GPL(register_kprobe);

/**
 * register_kprobes() - place several probes, all or none
 * @kps: the probes
 * @num: how many
 *
 * In one batch; if one fails, those already registered are unregistered.
 *
 * Context: process, may sleep.
 * Return: 0, or the error of the first probe that failed.
 */
int register_kprobes(struct kprobe **kps, int num)
{
	int done, ret = num > 0 ? 0 : -EINVAL;

	int err;

	kprobe_batch_begin();
	for (done = 0; !ret && done < num; done++)
		ret = register_kprobe(kps[done]);
	/* All or nothing: take back the ones registered, before they are armed. */
	if (ret && done > 1)
		unregister_kprobes(kps, done - 1);
	err = kprobe_batch_end();
	if (!ret && err)
		unregister_kprobes(kps, num);
	return ret ?: err;
}
EXPORT_SYMBOL_GPL(register_kprobes);

/**
 * kprobe_detach() - take @p off its site
 * @p: a probe, registered or not
 * @dead: list of sites to free, extended with the site of @p if @p was
 *	its last probe
 *
 * Called between kprobe_defer_begin() and kprobe_defer_end(), which
 * disarms the sites; the caller then calls kprobe_finish_detach() without
 * kprobe_mutex.
 * Return: whether @p was registered.
 */
bool kprobe_detach(struct kprobe *p, struct kprobe_site **dead)
{
	struct kprobe_site *s;

	lockdep_assert_held(&kprobe_mutex);
	s = kprobe_site_of(p);
	if (!s)
		return false;

	if (WARN_ON_ONCE(!kprobe_batch_inner))
		return false;
	list_del_rcu(&p->list);
	if (!list_empty(&s->probes)) {
		kprobe_site_refresh(s);
		WARN_ON_ONCE(kprobe_site_sync(s));
		return true;
	}
	/*
	 * kprobe_defer_end() disarms it, and only then takes it off
	 * kprobe_table: a hit in between finds a site with no probes.
	 */
	list_move_tail(&s->batch_node, &kprobe_batch_dead);
	s->dead_next = *dead;
	*dead = s;
	return true;
}

/**
 * kprobe_finish_detach() - end an unregistration
 * @dead: the sites kprobe_detach() collected
 *
 * Waits until no CPU can be in a handler of the detached probes or on a
 * @dead site, then frees the sites.  The caller may then reuse the probes
 * (after INIT_LIST_HEAD() of their ::list).
 */
void kprobe_finish_detach(struct kprobe_site *dead)
{
	synchronize_rcu();
	while (dead) {
		struct kprobe_site *s = dead;

		dead = s->dead_next;
		kprobe_site_destroy(s);
	}
}

/**
 * unregister_kprobes() - take several probes away
 * @kps: the probes; one that is not registered is passed over
 * @num: how many
 *
 * On return no handler of these probes runs or will run, on any CPU, and
 * their memory (and that of struct kprobe::cost) may be freed.
 *
 * Context: process, may sleep (it waits for an RCU grace period).
 */
void unregister_kprobes(struct kprobe **kps, int num)
{
	struct kprobe_site *dead = NULL;
	int i;

	if (num <= 0)
		return;
	mutex_lock(&kprobe_mutex);
	kprobe_defer_begin();
	for (i = 0; i < num; i++)
		kprobe_detach(kps[i], &dead);
	kprobe_defer_end();
	mutex_unlock(&kprobe_mutex);
	kprobe_finish_detach(dead);
	for (i = 0; i < num; i++)
		INIT_LIST_HEAD(&kps[i]->list);
}
EXPORT_SYMBOL_GPL(unregister_kprobes);

/**
 * unregister_kprobe() - take a probe away
 * @p: the probe; one that is not registered is passed over
 *
 * As unregister_kprobes() for one probe.
 *
 * Context: process, may sleep.
 */
void unregister_kprobe(struct kprobe *p)
{
	unregister_kprobes(&p, 1);
}
EXPORT_SYMBOL_GPL(unregister_kprobe);

/**
 * kprobe_hit_path() - how a hit of @p is handled now
 * @p: a probe
 *
 * For the KUnit tests, which import EXPORTED_FOR_KUNIT_TESTING: the
 * answer may change as soon as kprobe_mutex is released.
 *
 * Return: the path, KPROBE_PATH_NONE for a probe not registered.
 */
enum kprobe_hit_path kprobe_hit_path(struct kprobe *p)
{
	struct kprobe_site *s;

	guard(mutex)(&kprobe_mutex);
	s = kprobe_site_of(p);
	if (!s || (s->state & KPROBE_SITE_GONE))
		return KPROBE_PATH_NONE;
	if (s->state & KPROBE_SITE_FTRACE)
		return KPROBE_PATH_FTRACE;
	return arch_kprobe_site_path(s);
}
EXPORT_SYMBOL_IF_KUNIT(kprobe_hit_path);

/*
 * Set KPROBE_FLAG_DISABLED of a registered @kp to @disabled and make its
 * site follow; if the site cannot, the flag goes back.  A gone probe
 * cannot be enabled.
 */
static int kprobe_set_disabled(struct kprobe *kp, bool disabled)
{
	u32 was = kp->flags & KPROBE_FLAG_DISABLED;
	struct kprobe_site *s;
	int ret;

	guard(mutex)(&kprobe_mutex);
	s = kprobe_site_of(kp);
	if (!s || (!disabled && kprobe_gone(kp)))
		return -EINVAL;
	kp->flags &= ~KPROBE_FLAG_DISABLED;
	kp->flags |= disabled ? KPROBE_FLAG_DISABLED : 0;
	ret = kprobe_site_sync(s);
	if (ret)
		kp->flags = (kp->flags & ~KPROBE_FLAG_DISABLED) | was;
	return ret;
}

/**
 * enable_kprobe() - let a registered probe's handlers run again
 * @kp: the probe
 *
 * Context: process, may sleep.
 * Return: 0, -EINVAL if @kp is not registered or its code is gone, or the
 * error of arming its site (the probe then stays disabled).
 */
int enable_kprobe(struct kprobe *kp)
{
	return kprobe_set_disabled(kp, false);
}
EXPORT_SYMBOL_GPL(enable_kprobe);

/**
 * disable_kprobe() - keep a probe registered, but call none of its handlers
 * @kp: the probe
 *
 * The site is disarmed when no enabled probe is left on it.
 *
 * Context: process, may sleep.
 * Return: 0; -EINVAL if @kp is not registered; or the error of
 * disarming its site, the probe then staying enabled.
 */
int disable_kprobe(struct kprobe *kp)
{
	return kprobe_set_disabled(kp, true);
}
EXPORT_SYMBOL_GPL(disable_kprobe);

/**
 * kprobes_set_all_armed() - the kprobes/enabled switch
 * @armed: arm every site that has an enabled probe, or disarm them all
 *
 * Return: 0, or the last error of a site that could not be switched.
 */
int kprobes_set_all_armed(bool armed)
{
	struct kprobe_site *s;
	int i, ret = 0;

	mutex_lock(&kprobe_mutex);
	if (kprobes_all_disarmed != armed)
		goto out_unlock;
	/* what an open batch queued is switched first, refused as usual */
	kprobe_defer_begin();
	kprobe_defer_end();
	kprobes_all_disarmed = !armed;
	kprobe_opt_allow(armed);
	kprobes_switching_all = true;
	kprobe_defer_begin();
	for (i = 0; i < KPROBE_TABLE_SIZE; i++)
		hlist_for_each_entry(s, &kprobe_table[i], node)
			kprobe_site_sync(s);
	ret = kprobe_defer_end();
	kprobes_switching_all = false;
	if (ret)
		pr_warn("some probe sites could not be %s, see kprobes/list\n",
			armed ? "armed" : "disarmed");
	else
		pr_info("kprobes globally %s\n", armed ? "enabled" : "disabled");
out_unlock:
	mutex_unlock(&kprobe_mutex);
	return ret;
}

#ifdef CONFIG_OPTPROBES
/* debug.kprobes-optimization, 0 or 1: a change applies to every site. */
static int kprobe_opt_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *length, loff_t *ppos)
{
	struct kprobe_site *s;
	int i, ret;

	guard(mutex)(&kprobe_mutex);
	ret = proc_dointvec_minmax(table, write, buffer, length, ppos);
	if (ret || !write)
		return ret;
	for (i = 0; i < KPROBE_TABLE_SIZE; i++)
		hlist_for_each_entry(s, &kprobe_table[i], node)
			kprobe_opt_update(s);
	return 0;
}

static struct ctl_table kprobe_opt_sysctls[] = {
	{ .procname = "kprobes-optimization", .mode = 0644,
	  .data = &kprobes_optimization, .maxlen = sizeof(int),
	  .proc_handler = kprobe_opt_sysctl,
	  .extra1 = SYSCTL_ZERO, .extra2 = SYSCTL_ONE },
};

static int __init kprobe_opt_sysctl_init(void)
{
	register_sysctl_init("debug", kprobe_opt_sysctls);
	return 0;
}
subsys_initcall(kprobe_opt_sysctl_init);
#endif

/* ------------------------------------------------------------------ */
/* Code that goes away                                                 */

typedef bool (*kprobe_code_pred_t)(unsigned long addr, void *data);

/*
 * The code under the sites matching @gone is about to be freed: mark them
 * and their probes gone, and move them off kprobe_table.  Registered
 * probes stay registered until their owner unregisters them.  With
 * @may_run, that code may still run before it is freed (a module's async
 * __init work, after the module went live): its breakpoints and jumps are
 * taken out of the text first, since no site claims them any more.
 */
static void kprobes_kill_sites(kprobe_code_pred_t gone, void *data, bool may_run)
{
	struct kprobe_site *s, *dead = NULL;
	struct hlist_node *tmp;
	bool preemptible = false;
	struct kprobe *p;
	int i;

	lockdep_assert_held(&kprobe_mutex);
	for (i = 0; i < KPROBE_TABLE_SIZE; i++) {
		hlist_for_each_entry_safe(s, tmp, &kprobe_table[i], node) {
			if (!gone((unsigned long)s->addr, data))
				continue;
			if (may_run && (s->state & KPROBE_SITE_ARMED))
				WARN_ON_ONCE(kprobe_site_set_armed(s, false));
			/* ftrace still knows the site: unhook it.  Text is not rewritten. */
			if ((s->state & KPROBE_SITE_ARMED) && (s->state & KPROBE_SITE_FTRACE))
				kprobe_ftrace_disarm(&s, 1);
			kprobe_opt_forget(s);
			list_del_init(&s->batch_node);
			list_for_each_entry(p, &s->probes, list)
				p->flags |= KPROBE_FLAG_GONE;
			hlist_del_rcu(&s->node);
			if (!(s->state & KPROBE_SITE_FTRACE))
				preemptible |= arch_kprobe_site_preemptible(s);
			s->dead_next = dead;
			dead = s;
		}
	}
	if (!dead)
		return;

	synchronize_rcu();
	/*
	 * Code that may still run (@may_run) may have a task preempted in a
	 * copy of it: let it leave first.  Elsewhere the code itself is going,
	 * and a task in a copy would return into it anyway.
	 */
	if (may_run && preemptible)
		synchronize_rcu_tasks();
	while (dead) {
		s = dead;
		dead = s->dead_next;
		if (!(s->state & KPROBE_SITE_FTRACE))
			arch_release_kprobe_site(s);
		s->state = (s->state & ~KPROBE_SITE_ARMED) | KPROBE_SITE_GONE;
		hlist_add_head(&s->node, &kprobe_gone_sites);
	}
}

static bool kprobe_in_init_mem(unsigned long addr, void *data)
{
	return addr >= (unsigned long)__init_begin && addr < (unsigned long)__init_end;
}

/* Called once the kernel's init text is about to be freed. */
void kprobe_free_init_mem(void)
{
	mutex_lock(&kprobe_mutex);
	kprobes_kill_sites(kprobe_in_init_mem, NULL, false);
	mutex_unlock(&kprobe_mutex);
}

#ifdef CONFIG_MODULES
static bool kprobe_in_module_init(unsigned long addr, void *mod)
{
	return within_module_init(addr, mod);
}

static bool kprobe_in_module(unsigned long addr, void *mod)
{
	return within_module_init(addr, mod) || within_module_core(addr, mod);
}

static int kprobes_module_event(struct notifier_block *nb, unsigned long event,
				void *data)
{
	struct module *mod = data;

	mutex_lock(&kprobe_mutex);
	switch (event) {
	case MODULE_STATE_COMING:
		kprobe_blacklist_add_module(mod);
		break;
	case MODULE_STATE_LIVE:
		/* Its init text is freed soon, once its async __init work is done. */
		kprobes_kill_sites(kprobe_in_module_init, mod, true);
		break;
	case MODULE_STATE_GOING:
		kprobes_kill_sites(kprobe_in_module, mod, false);
		kprobe_blacklist_remove_module(mod);
		break;
	}
	mutex_unlock(&kprobe_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block kprobes_module_nb = {
	.notifier_call = kprobes_module_event,
};

static int __init kprobes_watch_modules(void)
{
	return register_module_notifier(&kprobes_module_nb);
}
#else
static int __init kprobes_watch_modules(void)
{
	return 0;
}
#endif /* CONFIG_MODULES */

static int __init init_kprobes(void)
{
	int i, err;

	for (i = 0; i < KPROBE_TABLE_SIZE; i++)
		INIT_HLIST_HEAD(&kprobe_table[i]);
	INIT_HLIST_HEAD(&kprobe_gone_sites);

	err = kprobe_blacklist_init();
	if (err)
		pr_err("blacklist incomplete (error %d): probe with care\n", err);
	return kprobes_watch_modules();
}
early_initcall(init_kprobes);
