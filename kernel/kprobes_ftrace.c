// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Arming of kprobe sites that sit on a function's fentry call.
 *
 * Such a site is not patched with a breakpoint: it is added to the filter
 * of one ftrace_ops shared by all of them, whose callback is the arch's
 * kprobe_ftrace_handler().  The ops asks for full pt_regs (the handlers
 * may read any register and may change regs->ip).  The ops is registered
 * while at least one site is armed.  All of this runs under kprobe_mutex.
 *
 * When ftrace dies (ftrace_kill()), kprobe_ftrace_kill() stops the
 * handler; the sites are then considered unhooked.
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>

#include "kprobes_internal.h"

bool kprobe_ftrace_disabled __read_mostly;

static struct ftrace_ops kprobe_ftrace_ops __read_mostly = {
	.func	= kprobe_ftrace_handler,
	.flags	= FTRACE_OPS_FL_SAVE_REGS,
};

/* Armed fentry sites; the ops is registered while non-zero. */
static unsigned int kprobe_ftrace_armed;

int kprobe_ftrace_arm(struct kprobe_site *s)
{
	unsigned long ip = (unsigned long)s->addr;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 0, 0);
	if (ret < 0)
		return ret;
	if (kprobe_ftrace_armed == 0) {
		ret = register_ftrace_function(&kprobe_ftrace_ops);
		if (ret < 0) {
			ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 1, 0);
			return ret;
		}
	}
	kprobe_ftrace_armed++;
	return 0;
}

int kprobe_ftrace_disarm(struct kprobe_site *s)
{
	unsigned long ip = (unsigned long)s->addr;
	int ret;

	lockdep_assert_held(&kprobe_mutex);
	/* ftrace is dead: there is nothing left to unhook. */
	if (unlikely(kprobe_ftrace_disabled))
		return 0;
	if (kprobe_ftrace_armed == 1) {
		ret = unregister_ftrace_function(&kprobe_ftrace_ops);
		if (WARN(ret < 0, "kprobes: cannot unregister the ftrace ops (%d)\n", ret))
			return ret;
	}
	kprobe_ftrace_armed--;
	ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, ip, 1, 0);
	WARN_ONCE(ret < 0, "kprobes: cannot unhook %pS from ftrace (%d)\n",
		  s->addr, ret);
	return ret;
}

void kprobe_ftrace_kill(void)
{
	kprobe_ftrace_disabled = true;
}
