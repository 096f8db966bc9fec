// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
 *
 * trace_kprobe_event.c - what is the kprobe event's own in the life of
 * its trace_event_call: making one, and arming its probes in the kprobes
 * core when it gets its first user.  The call's fields, format, output,
 * users and links are probe_event.c's (struct pev_event).
 *
 * Record layout (the event's "format" file shows it)::
 *
 *   entry probe   | trace_entry | __probe_ip             | arguments ... |
 *   return probe  | trace_entry | __probe_func | __probe_ret_ip | args ... |
 *                                                  ^ head_size
 *
 * The argument block is the argument library's (probe_arg.h); every probe of a
 * multiprobe event has arguments of the same names and types, so the
 * block of any of them is read with the event's layout set.
 *
 * Output lines::
 *
 *   EVENT: (SYM+OFFS/SIZE) NAME=VALUE ...              entry probe
 *   EVENT: (CALLER+OFFS/SIZE <- FUNC) NAME=VALUE ...   return probe
 *
 * Enable and disable run under event_mutex (the ftrace and perf cores
 * call class->reg with it held).  The first user arms the probes of the
 * event in the kprobes core, the last one disarms them.  Trace files are
 * kept on an RCU list that the hit path walks.
 */
#include <linux/slab.h>

#include "trace_kprobe_internal.h"

/* ---------------------------------------------------------- on and off */

/*
 * Enable or disable every place of @tp the core has (a refused or gone
 * place is left alone).  Returns 0 or the first error of an enable.
 */
static int tk_probe_switch(struct tk_probe *tp, bool on)
{
	unsigned int i;
	int ret;

	for (i = 0; i < tk_probe_nplaces(tp); i++) {
		struct kprobe *kp = &tk_probe_place(tp, i)->kp;

		if (!kp->addr || kprobe_gone(kp))
			continue;
		if (!on) {
			disable_kprobe(kp);
			continue;
		}
		ret = enable_kprobe(kp);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Arm or disarm every registered probe of the event in the core, in one
 * batch: the sites are switched together when it ends.
 */
static int tk_event_switch_probes(struct pev_event *ev, bool on)
{
	struct tk_probe *tp;
	int ret = 0, err;

	kprobe_batch_begin();
	list_for_each_entry(tp, &ev->probes, sibling) {
		if (!tp->registered)
			continue;
		ret = tk_probe_switch(tp, on);
		if (ret)
			break;
	}
	err = kprobe_batch_end();
	if (!on)
		return 0;
	ret = ret ?: err;
	if (ret)
		tk_event_switch_probes(ev, false);
	return ret;
}

void trace_kprobe_batch_begin(void)
{
	lockdep_assert_held(&event_mutex);
	kprobe_batch_begin();
}

int trace_kprobe_batch_end(void)
{
	lockdep_assert_held(&event_mutex);
	return kprobe_batch_end();
}

static int tk_event_arm(struct pev_event *ev, bool perf)
{
	return tk_event_switch_probes(ev, true);
}

static void tk_event_disarm(struct pev_event *ev)
{
	tk_event_switch_probes(ev, false);
}

/* Same place (symbol and offset, or address) and same argument texts. */
static bool tk_probe_same(const struct list_head *na,
			  const struct list_head *nb)
{
	const struct tk_probe *a = list_entry(na, struct tk_probe, sibling);
	const struct tk_probe *b = list_entry(nb, struct tk_probe, sibling);

	if (!tk_probe_symbol(a) != !tk_probe_symbol(b) ||
	    !tk_probe_pattern(a) != !tk_probe_pattern(b))
		return false;
	if (a->many)
		return !strcmp(a->many->pattern, b->many->pattern) &&
		       parg_set_same_text(a->args, b->args);
	if (tk_probe_symbol(a) ? strcmp(tk_probe_symbol(a), tk_probe_symbol(b)) ||
			a->rp.kp.offset != b->rp.kp.offset :
			tk_probe_address(a) != tk_probe_address(b))
		return false;
	return parg_set_same_text(a->args, b->args);
}

static const struct pev_event_ops tk_event_ops = {
	.arm = tk_event_arm,
	.disarm = tk_event_disarm,
	.same_probe = tk_probe_same,
	.call_flags = TRACE_EVENT_FL_KPROBE,
	.size = PEV_EVENT_SIZE(struct tk_event, pev),
	.head_size = { sizeof(struct kprobe_trace_entry_head),
		       sizeof(struct kretprobe_trace_entry_head) },
};

/*
 * A new, unpublished event named @group/@name whose first probe is
 * @first.  The event adopts @first's argument set as its layout.
 */
struct tk_event *tk_event_new(const char *group, const char *name,
			      struct tk_probe *first)
{
	struct pev_event *ev;

	ev = pev_event_new(&tk_event_ops, group, name, first->rp.handler != NULL,
			   first->args, &first->sibling);
	if (!ev)
		return NULL;
	first->event = container_of(ev, struct tk_event, pev);
	return first->event;
}

/* The event named @group/@name, or NULL.  Under event_mutex. */
struct tk_event *tk_find_event(const char *group, const char *name)
{
	struct pev_event *ev = pev_find_event(&tk_event_ops, group, name);

	return ev ? container_of(ev, struct tk_event, pev) : NULL;
}
