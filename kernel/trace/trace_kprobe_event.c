// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: the event's own part of the lifecycle
 *
 * trace_kprobe_event.c - what is the kprobe event's own in the life of
 * its trace_event_call: making one, and arming its probes in the kprobes
 * core when it gets its first user.  The call's fields, format, output,
 * users and links are probe_event.c's (struct probe_ev_event).
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
static int kpev_probe_switch(struct kpev_probe *tp, bool on)
{
	unsigned int i;
	int ret;

	for (i = 0; i < kpev_probe_nplaces(tp); i++) {
		struct kprobe *kp = &kpev_probe_place(tp, i)->kp;

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
static int kpev_event_switch_probes(struct probe_ev_event *ev, bool on)
{
	struct kpev_probe *tp;
	int ret = 0, err;

	kprobe_batch_begin();
	list_for_each_entry(tp, &ev->probes, sibling) {
		if (!tp->registered)
			continue;
		ret = kpev_probe_switch(tp, on);
		if (ret)
			break;
	}
	err = kprobe_batch_end();
	if (!on)
		return 0;
	ret = ret ?: err;
	if (ret)
		kpev_event_switch_probes(ev, false);
	return ret;
}

/* Inside a batch of enables (set_event, a group's enable): event_mutex */
static bool kpev_batch_open;
static unsigned int kpev_batch_armed;	/* events armed in it */

static int kpev_event_arm(struct probe_ev_event *ev, bool perf)
{
	int ret = kpev_event_switch_probes(ev, true);

	if (!ret && kpev_batch_open) {
		WRITE_ONCE(ev->kind_flags, ev->kind_flags | KPEV_EV_BATCH_ARMED);
		kpev_batch_armed++;
	}
	return ret;
}

static void kpev_event_disarm(struct probe_ev_event *ev)
{
	kpev_event_switch_probes(ev, false);
}

/* Same place (symbol and offset, or address) and same argument texts. */
static bool kpev_probe_same(const struct list_head *na,
			  const struct list_head *nb)
{
	const struct kpev_probe *a = list_entry(na, struct kpev_probe, sibling);
	const struct kpev_probe *b = list_entry(nb, struct kpev_probe, sibling);

	if (!kpev_probe_symbol(a) != !kpev_probe_symbol(b) ||
	    !kpev_probe_pattern(a) != !kpev_probe_pattern(b))
		return false;
	if (a->many)
		return !strcmp(a->many->pattern, b->many->pattern) &&
		       parg_set_same_text(a->args, b->args);
	if (kpev_probe_symbol(a) ? strcmp(kpev_probe_symbol(a), kpev_probe_symbol(b)) ||
			a->rp.kp.offset != b->rp.kp.offset :
			kpev_probe_address(a) != kpev_probe_address(b))
		return false;
	return parg_set_same_text(a->args, b->args);
}

static const struct probe_ev_event_ops kpev_event_ops = {
	.arm = kpev_event_arm,
	.disarm = kpev_event_disarm,
	.same_probe = kpev_probe_same,
	.call_flags = TRACE_EVENT_FL_KPROBE,
	.size = PROBE_EV_EVENT_SIZE(struct kpev_event, pev),
	.head_size = { sizeof(struct kprobe_trace_entry_head),
		       sizeof(struct kretprobe_trace_entry_head) },
};

void trace_kprobe_batch_begin(void)
{
	lockdep_assert_held(&event_mutex);
	WARN_ON_ONCE(kpev_batch_open);	/* one batch of enables at a time */
	kpev_batch_open = true;
	kprobe_batch_begin();
}

/*
 * Was @ev armed in the batch that just ended, with a probe on a site the
 * kprobes core could not arm then?  The core disabled that site's probes.
 * Events armed before the batch are not asked: a place of theirs may be
 * disabled for another reason (a module's place that failed to arm on
 * its reload), and this write did not turn them on.  The flags of the
 * places are read without kprobe_mutex, as a hint the mutex would not
 * make truer: the core may mark a place gone meanwhile.
 */
static bool kpev_event_refused(struct probe_ev_event *ev)
{
	struct kpev_probe *tp;
	unsigned int i;

	if (!(ev->kind_flags & KPEV_EV_BATCH_ARMED))
		return false;
	list_for_each_entry(tp, &ev->probes, sibling) {
		for (i = 0; tp->registered && i < kpev_probe_nplaces(tp); i++) {
			struct kprobe *kp = &kpev_probe_place(tp, i)->kp;
			u32 flags = data_race(READ_ONCE(kp->flags));

			if (kp->addr && !(flags & KPROBE_FLAG_GONE) &&
			    (flags & KPROBE_FLAG_DISABLED))
				return true;
		}
	}
	return false;
}

/*
 * Where the batch could not arm a site, turn the trace files of the
 * events the batch armed on it off again, so that no enable file says 1
 * with nothing armed.  The writer gets the error.
 */
int trace_kprobe_batch_end(void)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = kprobe_batch_end();
	kpev_batch_open = false;
	if (!kpev_batch_armed)
		return ret;
	if (ret)
		probe_ev_drop_refused(&kpev_event_ops, kpev_event_refused);
	kpev_events_forget_batch();
	kpev_batch_armed = 0;
	return ret;
}

/*
 * A new, unpublished event named @group/@name whose first probe is
 * @first.  The event adopts @first's argument set as its layout.
 */
struct kpev_event *kpev_event_new(const char *group, const char *name,
			      struct kpev_probe *first)
{
	struct probe_ev_event *ev;

	ev = probe_ev_event_new(&kpev_event_ops, group, name, first->rp.handler != NULL,
			   first->args, &first->sibling);
	if (!ev)
		return NULL;
	first->event = container_of(ev, struct kpev_event, pev);
	return first->event;
}

/* The event named @group/@name, or NULL.  Under event_mutex. */
struct kpev_event *kpev_find_event(const char *group, const char *name)
{
	return probe_ev_find_as(&kpev_event_ops, group, name, struct kpev_event, pev);
}
