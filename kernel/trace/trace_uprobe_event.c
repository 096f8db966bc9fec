// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: uprobe events: the event's own part of the lifecycle
 *
 * trace_uprobe_event.c - what is the uprobe event's own in the life of
 * its trace_event_call: its output line, making one, and registering its
 * probes with the uprobes core for its first user.  The fields, format,
 * users and links are probe_event.c's (struct probe_ev_event).
 *
 * Record layout (the event's "format" file shows it)::
 *
 *   entry probe   | trace_entry | __probe_ip                | arguments |
 *   return probe  | trace_entry | __probe_func | __probe_ret_ip | args  |
 *                                                     ^ head_size (16/24)
 *
 * Output lines::
 *
 *   EVENT: (0xADDR) NAME=VALUE ...               entry probe
 *   EVENT: (0xRET_ADDR <- 0xFUNC) NAME=VALUE ... return probe
 *
 * On and off: the first user registers every probe of the event with
 * the uprobes core, the last one unregisters them (without waiting for
 * each, then once for all).  The users are trace files (PROBE_EV_EV_TRACE, one
 * probe_ev_link each) or perf (PROBE_EV_EV_PERF); the two exclude each other, since
 * perf asks the core to filter by mm and trace files want every task:
 * enabling one while the other is on fails with -EINTR.
 *
 * Lifetime of a consumer: the uprobes core calls the handlers of a
 * uprobe's consumers under tasks-trace RCU (a pending return holds the
 * uprobe, not the consumer, through uretprobe SRCU or a reference).
 * uprobe_unregister_nosync() takes the consumer off its uprobe and drops
 * the probe's reference on the uprobe: tp->uprobe is cleared with it.
 * Only after uprobe_unregister_sync(), which waits for both grace
 * periods, does no handler run on the consumer any more: then, and not
 * before, may the probe be freed or its consumer registered again.  A
 * registration gets a new consumer id from the core, so a return whose
 * entry was seen by an earlier one is not reported to a later one.
 *
 * Context: process, event_mutex held (the ftrace and perf cores call
 * class->reg with it).  Documentation/trace/uprobetracer.rst.
 */
#include <linux/slab.h>

#include "trace_output.h"
#include "trace_uprobe_internal.h"

/* ---------------------------------------------------------------- output */

static enum print_line_t upev_print(struct trace_iterator *iter, int flags,
				  struct trace_event *event)
{
	struct probe_ev_event *ev = container_of(event, struct probe_ev_event, call.event);
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", trace_event_name(&ev->call));
	if (ev->is_return) {
		const struct upev_return_head *h = (void *)iter->ent;

		trace_seq_printf(s, "0x%lx <- 0x%lx", h->ret_ip, h->func);
	} else {
		const struct upev_entry_head *h = (void *)iter->ent;

		trace_seq_printf(s, "0x%lx", h->ip);
	}
	probe_ev_print_args(s, ev, iter->ent);
	return trace_handle_return(s);
}

static struct trace_event_functions upev_event_funcs = {
	.trace = upev_print,
};

/* ---------------------------------------------------------- on and off */

/* Register @tp with the uprobes core; perf's consumers filter by mm. */
int upev_probe_arm(struct upev_probe *tp, bool perf)
{
	struct uprobe *u;

	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(tp->uprobe))
		return 0;
	tp->consumer.filter = perf ? upev_perf_filter_mm : NULL;
	u = uprobe_register(upev_probe_inode(tp), tp->offset, tp->ref_ctr_offset,
			    &tp->consumer);
	if (!IS_ERR(u))
		tp->uprobe = u;		/* armed: the handle to unregister */
	return PTR_ERR_OR_ZERO(u);
}

/*
 * Take @tp's consumer off its uprobe, if armed; true if it was.  Its
 * handlers may still run until uprobe_unregister_sync(), which the caller
 * owes before @tp is freed or armed again.
 */
bool upev_probe_unhook(struct upev_probe *tp)
{
	lockdep_assert_held(&event_mutex);
	if (!tp->uprobe)
		return false;
	uprobe_unregister_nosync(tp->uprobe, &tp->consumer);
	tp->uprobe = NULL;
	return true;
}

/* Unregister every registered probe of @ev; wait once for the handlers. */
static void upev_event_disarm(struct probe_ev_event *ev)
{
	struct upev_probe *tp;
	bool any = false;

	list_for_each_entry(tp, &ev->probes, sibling)
		any |= upev_probe_unhook(tp);
	if (any)
		uprobe_unregister_sync();
}

static int upev_event_arm(struct probe_ev_event *ev, bool perf)
{
	struct upev_probe *tp;
	int ret;

	ret = probe_ev_scratch_reserve();
	if (ret)
		return ret;
	list_for_each_entry(tp, &ev->probes, sibling) {
		ret = upev_probe_arm(tp, perf);
		if (ret) {
			upev_event_disarm(ev);
			return ret;
		}
	}
	return 0;
}

static int upev_event_perf(struct probe_ev_event *ev, enum trace_reg type, void *data)
{
	return upev_event_reg_perf(container_of(ev, struct upev_event, pev), type,
				 data);
}

/* Same file and offset, same argument texts. */
static bool upev_probe_same(const struct list_head *na,
			  const struct list_head *nb)
{
	const struct upev_probe *a = list_entry(na, struct upev_probe, sibling);
	const struct upev_probe *b = list_entry(nb, struct upev_probe, sibling);

	return upev_probe_inode(a) == upev_probe_inode(b) &&
	       a->offset == b->offset && parg_set_same_text(a->args, b->args);
}

static void upev_event_release(struct probe_ev_event *ev)
{
	kfree(container_of(ev, struct upev_event, pev)->bpf_filename);
}

/* Trace files want every task, perf its own: one kind of user at a time. */
static const struct probe_ev_event_ops upev_event_ops = {
	.arm = upev_event_arm, .disarm = upev_event_disarm,
	.reg_perf = upev_event_perf,
	.same_probe = upev_probe_same, .release = upev_event_release,
	.funcs = &upev_event_funcs,
	.call_flags = TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_CAP_ANY,
	.users_exclusive = true,
	.size = PROBE_EV_EVENT_SIZE(struct upev_event, pev),
	.head_size = { sizeof(struct upev_entry_head),
		       sizeof(struct upev_return_head) },
};

/*
 * A new, unpublished event @group/@name whose first probe is @first; it
 * adopts @first's argument set as its layout.
 */
struct upev_event *upev_event_new(const char *group, const char *name,
			      struct upev_probe *first)
{
	char *filename = kstrdup(first->filename, GFP_KERNEL);
	struct probe_ev_event *pev = NULL;
	struct upev_event *ev;

	if (filename)
		pev = probe_ev_event_new(&upev_event_ops, group, name,
				    first->is_return, first->args,
				    &first->sibling);
	if (!pev) {
		kfree(filename);
		return NULL;
	}
	ev = container_of(pev, struct upev_event, pev);
	rwlock_init(&ev->filter.lock);
	INIT_LIST_HEAD(&ev->filter.events);
	ev->bpf_filename = filename;
	ev->bpf_offset = first->offset;
	ev->bpf_ref_ctr_offset = first->ref_ctr_offset;
	first->event = ev;
	return ev;
}

/* The event named @group/@name, or NULL.  Under event_mutex. */
struct upev_event *upev_find_event(const char *group, const char *name)
{
	return probe_ev_find_as(&upev_event_ops, group, name, struct upev_event, pev);
}
