// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: jump optimization of breakpoint sites
 *
 * An armed breakpoint site costs a trap per hit.  Where the code allows it
 * (the architecture decides: arch_kprobe_opt_prepare()), the breakpoint is
 * replaced by a jump to a detour buffer that saves the registers, calls
 * the handlers, runs a copy of the instructions that the jump covers, and
 * jumps back after them.
 *
 * The jump covers more than the probed instruction, so it may only be
 * written once no task can be inside the covered instructions: one that
 * was interrupted or preempted there would resume in the middle of the
 * jump.  Hence the states of a site (kprobe_site::opt, kprobe_mutex)::
 *
 *      KPROBE_OPT_NONE         breakpoint only
 *         | prepare: detour built, breakpoint hits already leave through
 *         v the detour's copy, so no new task enters the covered bytes
 *      KPROBE_OPT_QUEUED       on kprobe_opt_queue; its probes show
 *         |                    [OPTIMIZED] from here on (kprobes/list tells
 *         |                    the decision, as it always has, not the
 *         |                    moment the jump lands)
 *         | the optimizer: an RCU-tasks grace period, then the jump
 *         v
 *      KPROBE_OPT_DONE         jump written
 *
 * Any change that makes the site unfit (a post handler, a probe inside the
 * covered bytes, disarming, debug.kprobes-optimization=0) takes it back to
 * NONE at once; the detour stays allocated until the site is freed, after
 * another RCU-tasks grace period (a task may be preempted in its copy).
 *
 * See Documentation/trace/kprobes.rst ("Jump optimization").
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/memory.h>
#include <linux/workqueue.h>

#include "internal.h"

/* debug.kprobes-optimization (its handler is in core.c); kprobe_mutex. */
int kprobes_optimization = 1;

/* Cleared while kprobes are globally disarmed (kprobe_opt_allow()). */
static bool kprobe_opt_allowed = true;

static LIST_HEAD(kprobe_opt_queue);

static void kprobe_optimizer(struct work_struct *work);
static DECLARE_DELAYED_WORK(kprobe_opt_work, kprobe_optimizer);

/* Gather registrations that come in a burst into one grace period. */
#define KPROBE_OPT_DELAY	5

static void kprobe_opt_set_flag(struct kprobe_site *s, bool optimized)
{
	struct kprobe *p;

	list_for_each_entry(p, &s->probes, list) {
		if (optimized)
			p->flags |= KPROBE_FLAG_OPTIMIZED;
		else
			p->flags &= ~KPROBE_FLAG_OPTIMIZED;
	}
}

static bool kprobe_opt_wanted(struct kprobe_site *s)
{
	return kprobes_optimization && kprobe_opt_allowed &&
	       (s->state & KPROBE_SITE_ARMED) && !s->has_post &&
	       !(s->state & (KPROBE_SITE_FTRACE | KPROBE_SITE_GONE));
}

/* Back to a plain breakpoint site, now. */
static void kprobe_opt_stop_locked(struct kprobe_site *s)
{
	switch (s->opt) {
	case KPROBE_OPT_QUEUED:
		list_del_init(&s->opt_node);
		arch_kprobe_opt_cancel(s);
		break;
	case KPROBE_OPT_DONE:
		arch_kprobe_opt_remove(s);
		break;
	}
	kprobe_opt_set_flag(s, false);
	s->opt = KPROBE_OPT_NONE;
}

/**
 * kprobe_opt_stop() - make @s a plain breakpoint site again
 * @s: a site
 *
 * Called before the breakpoint of @s is removed, and before anything that
 * needs the breakpoint (a post handler).  Takes text_mutex.
 */
void kprobe_opt_stop(struct kprobe_site *s)
{
	lockdep_assert_held(&kprobe_mutex);
	if (s->opt == KPROBE_OPT_NONE)
		return;
	cpus_read_lock();
	mutex_lock(&text_mutex);
	kprobe_opt_stop_locked(s);
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/**
 * kprobe_opt_update() - queue @s for optimization, or stop it, as fits
 * @s: a site whose probes, arming or surroundings changed
 */
void kprobe_opt_update(struct kprobe_site *s)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	if (!kprobe_opt_wanted(s)) {
		kprobe_opt_stop(s);
		return;
	}
	if (s->opt != KPROBE_OPT_NONE)
		return;

	cpus_read_lock();
	jump_label_lock();
	mutex_lock(&text_mutex);
	ret = arch_kprobe_opt_prepare(s);
	mutex_unlock(&text_mutex);
	jump_label_unlock();
	cpus_read_unlock();
	if (ret)
		return;
	s->opt = KPROBE_OPT_QUEUED;
	kprobe_opt_set_flag(s, true);
	list_add_tail(&s->opt_node, &kprobe_opt_queue);
	schedule_delayed_work(&kprobe_opt_work, KPROBE_OPT_DELAY);
}

/* @s is going away with its code (module unload): forget it, text untouched. */
void kprobe_opt_forget(struct kprobe_site *s)
{
	lockdep_assert_held(&kprobe_mutex);
	if (s->opt == KPROBE_OPT_QUEUED)
		list_del_init(&s->opt_node);
	if (s->opt == KPROBE_OPT_DONE)
		kprobe_opt_set_flag(s, false);
	s->opt = KPROBE_OPT_NONE;
}

/*
 * A site is coming to @addr (@coming) or the one there is gone: look at
 * the sites up to KPROBE_OPT_MAX_LEN - 1 bytes before it, the only ones
 * whose jump can cover @addr.  A coming site sends a jump that covers it
 * back to a breakpoint, so that @addr is executed in place again; a gone
 * one lets the sites it kept from being optimized try again.
 */
static void kprobe_opt_recheck_before(unsigned long addr, bool coming)
{
	struct kprobe_site *s;
	int back;

	lockdep_assert_held(&kprobe_mutex);
	for (back = 1; back < KPROBE_OPT_MAX_LEN; back++) {
		s = kprobe_site_lookup((void *)(addr - back));
		if (!s)
			continue;
		if (coming && s->opt != KPROBE_OPT_NONE && arch_kprobe_opt_covers(s, addr))
			kprobe_opt_stop(s);
		else if (!coming && s->opt == KPROBE_OPT_NONE)
			kprobe_opt_update(s);
	}
}

/* kprobe_opt_yield() - a site is about to be created at @addr */
void kprobe_opt_yield(unsigned long addr)
{
	kprobe_opt_recheck_before(addr, true);
}

/* kprobe_opt_retry() - the site at @addr is gone */
void kprobe_opt_retry(unsigned long addr)
{
	kprobe_opt_recheck_before(addr, false);
}

/*
 * Write the jumps of the queued sites.  Sites that left the queue while the
 * grace period ran (list_del_init() under kprobe_mutex) are simply not on
 * @batch any more.
 */
static void kprobe_optimizer(struct work_struct *work)
{
	struct kprobe_site *s, *tmp;
	LIST_HEAD(batch);

	mutex_lock(&kprobe_mutex);
	list_splice_init(&kprobe_opt_queue, &batch);
	mutex_unlock(&kprobe_mutex);
	if (list_empty(&batch))
		return;

	/* Whoever was inside the covered bytes has left them now. */
	synchronize_rcu_tasks();

	mutex_lock(&kprobe_mutex);
	cpus_read_lock();
	mutex_lock(&text_mutex);
	list_for_each_entry_safe(s, tmp, &batch, opt_node) {
		list_del_init(&s->opt_node);
		arch_kprobe_opt_install(s);
		s->opt = KPROBE_OPT_DONE;
	}
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
	mutex_unlock(&kprobe_mutex);
}

/**
 * wait_for_kprobe_optimizer() - wait until no site waits for its jump
 *
 * For tests, which want to know the outcome of a registration: the
 * optimizer runs now rather than after its delay.  A batch in progress
 * has already left the queue, so the work is flushed before the queue is
 * looked at.
 *
 * Context: process, may sleep.
 */
void wait_for_kprobe_optimizer(void)
{
	bool queued;

	do {
		flush_delayed_work(&kprobe_opt_work);
		mutex_lock(&kprobe_mutex);
		queued = !list_empty(&kprobe_opt_queue);
		mutex_unlock(&kprobe_mutex);
	} while (queued);
}
EXPORT_SYMBOL_GPL(wait_for_kprobe_optimizer);

/*
 * kprobe_opt_allow() - kprobes were globally armed (@allowed) or disarmed
 *
 * The core then syncs every site, which lets each follow.
 */
void kprobe_opt_allow(bool allowed)
{
	lockdep_assert_held(&kprobe_mutex);
	kprobe_opt_allowed = allowed;
}
