// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: fprobe and tracepoint probe events: the event's own part of the lifecycle
 *
 * trace_fprobe_event.c - what is the fprobe or tracepoint probe event's
 * own in the life of its trace_event_call: making one, and switching its
 * fprobes on for its first user.  The fields, format, output, users and
 * links are probe_event.c's (struct probe_ev_event).
 *
 * Record layout (the event's "format" file)::
 *
 *   entry, t:   | trace_entry | __probe_ip                   | args ... |
 *   exit        | trace_entry | __probe_func | __probe_ret_ip | args ... |
 *                                                            ^ head_size
 *
 * Output lines::
 *
 *   EVENT: (SYM+OFFS/SIZE) NAME=VALUE ...              entry, tracepoint
 *   EVENT: (CALLER+OFFS/SIZE <- FUNC) NAME=VALUE ...   exit
 *
 * On and off: the first user of the event (a trace file, or perf) arms
 * every probe of it, all or none: registers its fprobe, and for a t:
 * probe attaches the tracepoint's stub.  The last user disarms them.  A
 * t: probe whose module is not loaded is armed when the module comes.
 * Trace files are kept on an RCU list the hit path walks.  class->reg
 * runs under event_mutex.
 */
#include <linux/slab.h>

#include "trace_fprobe_internal.h"

/* ---------------------------------------------------------- on and off */

/* Has @tp's event a user, so that @tp should be armed?  event_mutex. */
bool fpev_probe_in_use(const struct fpev_probe *tp)
{
	lockdep_assert_held(&event_mutex);
	return tp->event && READ_ONCE(tp->event->pev.flags);
}

/* The last user left: let every probe go. */
static void fpev_event_disarm(struct probe_ev_event *ev)
{
	struct fpev_probe *tp;

	list_for_each_entry(tp, &ev->probes, sibling)
		fpev_probe_disarm(tp);
}

/* The first user came: arm every probe, or, failing that, none. */
static int fpev_event_arm(struct probe_ev_event *ev, bool perf)
{
	struct fpev_probe *tp;
	int ret;

	list_for_each_entry(tp, &ev->probes, sibling) {
		ret = fpev_probe_arm(tp);
		if (ret)
			goto out_disarm;
	}
	return 0;

out_disarm:
	list_for_each_entry_continue_reverse(tp, &ev->probes, sibling)
		fpev_probe_disarm(tp);
	return ret;
}

/* The same SYM or TRACEPOINT, the same argument texts. */
static bool fpev_probe_same(const struct list_head *na,
			  const struct list_head *nb)
{
	const struct fpev_probe *a = list_entry(na, struct fpev_probe, sibling);
	const struct fpev_probe *b = list_entry(nb, struct fpev_probe, sibling);

	return !strcmp(a->symbol, b->symbol) &&
	       parg_set_same_text(a->args, b->args);
}

static const struct probe_ev_event_ops fpev_event_ops = {
	.arm = fpev_event_arm,
	.disarm = fpev_event_disarm,
	.same_probe = fpev_probe_same,
	.call_flags = TRACE_EVENT_FL_FPROBE,
	.size = PROBE_EV_EVENT_SIZE(struct fpev_event, pev),
	.head_size = { sizeof(struct fentry_trace_entry_head),
		       sizeof(struct fexit_trace_entry_head) },
};

/*
 * A new, unpublished event @group/@name whose first probe is @first; it
 * adopts @first's argument set as its layout.
 */
struct fpev_event *fpev_event_new(const char *group, const char *name,
			      struct fpev_probe *first)
{
	struct probe_ev_event *pev;
	struct fpev_event *ev;

	pev = probe_ev_event_new(&fpev_event_ops, group, name,
			    first->fp.exit_handler != NULL, first->args,
			    &first->sibling);
	if (!pev)
		return NULL;
	ev = container_of(pev, struct fpev_event, pev);
	ev->pev.kind_flags = first->is_tprobe ? FPEV_EV_TPROBE : 0;
	first->event = ev;
	return ev;
}

/* The event named @group/@name, or NULL.  Under event_mutex. */
struct fpev_event *fpev_find_event(const char *group, const char *name)
{
	return probe_ev_find_as(&fpev_event_ops, group, name, struct fpev_event, pev);
}
