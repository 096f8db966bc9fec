// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: return probes on rethook
 *
 * A kretprobe is a kprobe at a function entry whose pre handler takes a
 * kretprobe_instance from the kretprobe's rethook pool, lets the user's
 * entry_handler fill its data, and hooks the function's return.  On
 * return, the rethook trampoline calls kretprobe_on_return(), which runs
 * the user's handler with the same instance::
 *
 *   entry:  kprobe hit -> kretprobe_on_entry -> entry_handler(ri)
 *                                            -> rethook_hook(ri)
 *   return: arch_rethook_trampoline -> kretprobe_on_return -> handler(ri)
 *
 * maxactive instances exist; a call that finds none free is counted in
 * kretprobe::nmissed.  While a handler runs, current_kprobe is the
 * kretprobe's kprobe, so probes hit meanwhile count as missed and
 * bpf_get_func_ip() finds the function.  See Documentation/trace/kprobes.rst.
 */
#include <linux/kprobes_arch.h>
#include <linux/rethook.h>

#include "internal.h"

static int kretprobe_on_entry(struct kprobe *p, struct pt_regs *regs)
{
	struct kretprobe *rp = container_of(p, struct kretprobe, kp);
	struct kretprobe_instance *ri;
	struct rethook_node *node;

	node = rethook_try_get(rp->rh);
	if (likely(node)) {
		ri = container_of(node, struct kretprobe_instance, node);
		/* an entry handler's non-zero return skips this return */
		if (!rp->entry_handler || !rp->entry_handler(ri, regs))
			rethook_hook(node, regs, kprobe_ftrace(p));
		else
			rethook_recycle(node);
	} else if (!rethook_stopped(rp->rh)) {
		/* no free instance; being unregistered is no miss */
		rp->nmissed++;
	}
	return 0;
}
NOKPROBE_SYMBOL(kretprobe_on_entry);

static void kretprobe_on_return(struct rethook_node *node, void *data,
				unsigned long ret_addr, struct pt_regs *regs)
{
	struct kretprobe *rp = data;
	struct kprobe *prev;
	u64 cost_t0;

	if (!rp->handler)
		return;
	prev = __this_cpu_read(current_kprobe);
	/* a return while a handler runs is in that handler's time */
	cost_t0 = prev ? 0 : kprobe_cost_begin_return(&rp->kp);
	__this_cpu_write(current_kprobe, &rp->kp);
	rp->handler(container_of(node, struct kretprobe_instance, node), regs);
	__this_cpu_write(current_kprobe, prev);
	kprobe_cost_end_return(&rp->kp, cost_t0);
}
NOKPROBE_SYMBOL(kretprobe_on_return);

bool kprobe_is_return(struct kprobe *p)
{
	return p->pre_handler == kretprobe_on_entry;
}

bool __weak arch_kretprobe_blacklisted(unsigned long func)
{
	return false;
}

/**
 * register_kretprobe() - probe the returns of a function
 * @rp: the return probe: @rp->kp.addr or @rp->kp.symbol_name (a function
 *	entry), the handlers, @rp->data_size and @rp->maxactive; see struct
 *	kretprobe
 *
 * Context: process, may sleep.
 * Return: 0; -EINVAL if the place is not a function entry or the function
 * cannot have its return hooked, -E2BIG for too large a @data_size, or
 * the errors of register_kprobe().
 */
int register_kretprobe(struct kretprobe *rp)
{
	struct kprobe_where w;
	struct rethook *rh;
	bool registered;
	int ret;

	/* only a function's entry can have its return hooked */
	ret = kprobe_locate(rp->kp.addr, rp->kp.symbol_name, rp->kp.offset,
			    rp->kp.flags, &w);
	if (ret)
		return ret;
	if (!w.on_entry || arch_kretprobe_blacklisted(w.func))
		return -EINVAL;
	if (rp->kp.addr) {
		mutex_lock(&kprobe_mutex);
		registered = kprobe_is_registered(&rp->kp);
		mutex_unlock(&kprobe_mutex);
		if (WARN_ON_ONCE(registered))
			return -EINVAL;
	}
	if (rp->data_size > KRETPROBE_MAX_DATA_SIZE)
		return -E2BIG;
	if (rp->maxactive <= 0)
		rp->maxactive = max_t(unsigned int, 10, 2 * num_possible_cpus());

	rh = rethook_alloc(rp, kretprobe_on_return,
			   sizeof(struct kretprobe_instance) + rp->data_size,
			   rp->maxactive);
	if (IS_ERR(rh))
		return PTR_ERR(rh);

	rp->rh = rh;
	rp->nmissed = 0;
	rp->kp.pre_handler = kretprobe_on_entry;
	rp->kp.post_handler = NULL;
	ret = kprobe_register_at(&rp->kp, &w);
	if (ret) {
		rethook_free(rh);
		rp->rh = NULL;
	}
	return ret;
}
EXPORT_SYMBOL_GPL(register_kretprobe);

/**
 * register_kretprobes() - several return probes, all or none
 * @rps: the return probes
 * @num: how many
 *
 * Context: process, may sleep.
 * Return: 0, or the error of the first that failed.
 */
int register_kretprobes(struct kretprobe **rps, int num)
{
	int done, err, ret = num > 0 ? 0 : -EINVAL;

	kprobe_batch_begin();
	for (done = 0; !ret && done < num; done++)
		ret = register_kretprobe(rps[done]);
	/* All or nothing: take back the ones registered, before they are armed. */
	if (ret && done > 1)
		unregister_kretprobes(rps, done - 1);
	err = kprobe_batch_end();
	if (!ret && err)
		unregister_kretprobes(rps, num);
	return ret ?: err;
}
EXPORT_SYMBOL_GPL(register_kretprobes);

/**
 * unregister_kretprobes() - take several return probes away
 * @rps: the return probes
 * @num: how many
 *
 * On return no handler of theirs runs or will run: the calls still
 * pending return without calling them.
 *
 * Context: process, may sleep.
 */
void unregister_kretprobes(struct kretprobe **rps, int num)
{
	struct kprobe_site *dead = NULL;
	int i;

	if (num <= 0)
		return;
	mutex_lock(&kprobe_mutex);
	kprobe_defer_begin();
	for (i = 0; i < num; i++) {
		/* Pending returns find no handler from now on. */
		if (kprobe_detach(&rps[i]->kp, &dead))
			rethook_stop(rps[i]->rh);
	}
	kprobe_defer_end();
	mutex_unlock(&kprobe_mutex);

	/*
	 * A CPU that found the probe before it was detached may still be in
	 * kretprobe_on_entry(), reading rp->rh: free it only after the
	 * grace period that waits for such CPUs.
	 */
	kprobe_finish_detach(dead);
	for (i = 0; i < num; i++) {
		/* Only a registered kretprobe has a rethook. */
		if (rps[i]->rh)
			rethook_free(rps[i]->rh);
		rps[i]->rh = NULL;
		INIT_LIST_HEAD(&rps[i]->kp.list);
	}
}
EXPORT_SYMBOL_GPL(unregister_kretprobes);

/**
 * unregister_kretprobe() - take a return probe away
 * @rp: the return probe
 *
 * As unregister_kretprobes() for one.
 *
 * Context: process, may sleep.
 */
void unregister_kretprobe(struct kretprobe *rp)
{
	unregister_kretprobes(&rp, 1);
}
EXPORT_SYMBOL_GPL(unregister_kretprobe);
