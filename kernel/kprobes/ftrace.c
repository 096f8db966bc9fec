// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: sites on a function's fentry call
 *
 * Such a site is not patched with a breakpoint: it is added to the filter
 * of one ftrace_ops shared by all of them, whose callback is the arch's
 * kprobe_ftrace_handler().  Where ftrace can save a full pt_regs
 * (DYNAMIC_FTRACE_WITH_REGS, x86) the ops asks for it: the handlers may
 * read any register and may change regs->ip.  Elsewhere (arm64) the
 * handler builds its pt_regs from the ftrace_regs of
 * DYNAMIC_FTRACE_WITH_ARGS; its file header says which registers that
 * pt_regs lacks.  The ops is
 * registered while at least one site is armed.  Sites are armed and disarmed in
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

#include "internal.h"

bool kprobe_ftrace_disabled __read_mostly;

static struct ftrace_ops kprobe_ftrace_ops __read_mostly = {
	.func	= kprobe_ftrace_handler,
	.flags	= IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) ?
		  FTRACE_OPS_FL_SAVE_REGS : 0,
};

/* Armed fentry sites; the ops is registered while non-zero. */
static unsigned int kprobe_ftrace_armed;

/* The addresses of @sites, in @one or in a kvmalloc'ed array. */
static unsigned long *kprobe_ftrace_ips(struct kprobe_site **sites,
					unsigned int n, unsigned long *one)
{
	unsigned long *ips = one;
	unsigned int i;

	if (n > 1)
		ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	for (i = 0; ips && i < n; i++)
		ips[i] = (unsigned long)sites[i]->addr;
	return ips;
}

static void kprobe_ftrace_ips_free(unsigned long *ips, unsigned long *one)
{
	if (ips != one)
		kvfree(ips);
}

/**
 * kprobe_ftrace_arm() - hook fentry sites into ftrace
 * @sites: the sites, none of them armed
 * @n: how many
 *
 * All of them go in one filter change, so one update of the call sites.
 * The ops is registered with the first armed site.
 *
 * Return: 0, or an errno with none of them hooked.
 */
int kprobe_ftrace_arm(struct kprobe_site **sites, unsigned int n)
{
	unsigned long one, *ips;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	ips = kprobe_ftrace_ips(sites, n, &one);
	if (!ips)
		return -ENOMEM;
	ret = ftrace_set_filter_ips(&kprobe_ftrace_ops, ips, n, 0, 0);
	if (!ret && kprobe_ftrace_armed == 0) {
		ret = register_ftrace_function(&kprobe_ftrace_ops);
		if (ret < 0)
			ftrace_set_filter_ips(&kprobe_ftrace_ops, ips, n, 1, 0);
	}
	if (!ret)
		kprobe_ftrace_armed += n;
	kprobe_ftrace_ips_free(ips, &one);
	return ret < 0 ? ret : 0;
}

/**
 * kprobe_ftrace_disarm() - unhook armed fentry sites
 * @sites: the sites
 * @n: how many
 *
 * The ops is unregistered with the last armed site.  Once anything has
 * changed, the sites count as disarmed: a filter entry that could not be
 * removed only sends hits to a handler that finds no enabled probe.
 *
 * Return: 0, or an errno (warned about) with nothing changed.
 */
int kprobe_ftrace_disarm(struct kprobe_site **sites, unsigned int n)
{
	unsigned long one, *ips;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	/* ftrace is dead: there is nothing left to unhook. */
	if (unlikely(kprobe_ftrace_disabled))
		return 0;
	ips = kprobe_ftrace_ips(sites, n, &one);
	if (!ips)
		return -ENOMEM;
	if (kprobe_ftrace_armed == n) {
		ret = unregister_ftrace_function(&kprobe_ftrace_ops);
		if (WARN(ret < 0, "kprobes: cannot unregister the ftrace ops (%d)\n", ret)) {
			kprobe_ftrace_ips_free(ips, &one);
			return ret;
		}
	}
	kprobe_ftrace_armed -= n;
	ret = ftrace_set_filter_ips(&kprobe_ftrace_ops, ips, n, 1, 0);
	WARN_ONCE(ret < 0, "kprobes: cannot unhook %u sites from ftrace (%d)\n",
		  n, ret);
	kprobe_ftrace_ips_free(ips, &one);
	return 0;
}

void kprobe_ftrace_kill(void)
{
	kprobe_ftrace_disabled = true;
}
