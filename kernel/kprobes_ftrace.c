// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Arming of kprobe sites that sit on a function's fentry call.
 *
 * Such a site is not patched with a breakpoint: it is added to the filter
 * of one ftrace_ops shared by all of them, whose callback is the arch's
 * kprobe_ftrace_handler().  The ops asks for full pt_regs (the handlers
 * may read any register and may change regs->ip).  The ops is registered
 * while at least one site is armed.  Sites are armed and disarmed in
 * batches: one filter change, so one update of the call sites, per batch.
 * All of this runs under kprobe_mutex.
 *
 * When ftrace dies (ftrace_kill()), kprobe_ftrace_kill() stops the
 * handler; the sites are then considered unhooked.
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/slab.h>

#include "kprobes_internal.h"

bool kprobe_ftrace_disabled __read_mostly;

static struct ftrace_ops kprobe_ftrace_ops __read_mostly = {
	.func	= kprobe_ftrace_handler,
	.flags	= FTRACE_OPS_FL_SAVE_REGS,
};

/* Armed fentry sites; the ops is registered while non-zero. */
static unsigned int kprobe_ftrace_armed;

/*
 * Add the addresses of @sites to the ops' filter (@arm) or take them out,
 * with one update of the ftrace call sites for all of them.  The ops is
 * registered with the first armed site and unregistered with the last.
 */
static int kprobe_ftrace_filter(struct kprobe_site **sites, unsigned int n,
				bool arm)
{
	unsigned long one, *ips = &one;
	unsigned int i;
	int ret;

	if (n > 1) {
		ips = kmalloc_array(n, sizeof(*ips), GFP_KERNEL);
		if (!ips)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ips[i] = (unsigned long)sites[i]->addr;
	ret = ftrace_set_filter_ips(&kprobe_ftrace_ops, ips, n, !arm, 0);
	if (ips != &one)
		kfree(ips);
	return ret;
}

/**
 * kprobe_ftrace_arm() - hook fentry sites into ftrace
 * @sites: the sites, none of them armed
 * @n: how many
 *
 * Return: 0, or an errno with none of them hooked.
 */
int kprobe_ftrace_arm(struct kprobe_site **sites, unsigned int n)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	ret = kprobe_ftrace_filter(sites, n, true);
	if (ret < 0)
		return ret;
	if (kprobe_ftrace_armed == 0) {
		ret = register_ftrace_function(&kprobe_ftrace_ops);
		if (ret < 0) {
			kprobe_ftrace_filter(sites, n, false);
			return ret;
		}
	}
	kprobe_ftrace_armed += n;
	return 0;
}

/**
 * kprobe_ftrace_disarm() - unhook armed fentry sites
 * @sites: the sites
 * @n: how many
 *
 * Return: 0, or the errno of an ftrace failure (warned about).
 */
int kprobe_ftrace_disarm(struct kprobe_site **sites, unsigned int n)
{
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	/* ftrace is dead: there is nothing left to unhook. */
	if (unlikely(kprobe_ftrace_disabled))
		return 0;
	if (kprobe_ftrace_armed == n) {
		ret = unregister_ftrace_function(&kprobe_ftrace_ops);
		if (WARN(ret < 0, "kprobes: cannot unregister the ftrace ops (%d)\n", ret))
			return ret;
	}
	kprobe_ftrace_armed -= n;
	ret = kprobe_ftrace_filter(sites, n, false);
	WARN_ONCE(ret < 0, "kprobes: cannot unhook %u sites from ftrace (%d)\n",
		  n, ret);
	return ret;
}

void kprobe_ftrace_kill(void)
{
	kprobe_ftrace_disabled = true;
}
