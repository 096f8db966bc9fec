// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
 *
 * trace_uprobe_event.c - the trace_event_call behind each uprobe event:
 * its fields, format and output, and turning it on and off.
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
 * each, then once for all).  The users are trace files (TU_EV_TRACE, one
 * pev_link each) or perf (TU_EV_PERF); the two exclude each other, since
 * perf asks the core to filter by mm and trace files want every task:
 * enabling one while the other is on fails with -EINTR.
 *
 * Context: process, event_mutex held (the ftrace and perf cores call
 * class->reg with it).  Documentation/trace/uprobetracer.rst.
 */
#include <linux/slab.h>

#include "trace_output.h"
#include "trace_uprobe_internal.h"

/* ---------------------------------------------------------------- output */

static enum print_line_t tu_print(struct trace_iterator *iter, int flags,
				  struct trace_event *event)
{
	struct tu_event *ev = container_of(event, struct tu_event, call.event);
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (", trace_event_name(&ev->call));
	if (ev->is_return) {
		const struct tu_return_head *h = (void *)iter->ent;

		trace_seq_printf(s, "0x%lx <- 0x%lx", h->ret_ip, h->func);
	} else {
		const struct tu_entry_head *h = (void *)iter->ent;

		trace_seq_printf(s, "0x%lx", h->ip);
	}
	trace_seq_putc(s, ')');
	parg_set_print(ev->layout, s, iter->ent, ev->head_size);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions tu_event_funcs = {
	.trace = tu_print,
};

/* ---------------------------------------------------------------- fields */

static int tu_define_fields(struct trace_event_call *call)
{
	struct tu_event *ev = tu_event_of(call);

	return pev_call_define_fields(call, ev->is_return ? PEV_HEAD_RETURN :
					    PEV_HEAD_ENTRY, ev->layout,
				      ev->head_size);
}

static struct trace_event_fields tu_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tu_define_fields },
	{}
};

/* -------------------------------------------------------------- lifetime */

/*
 * A new, unpublished event @group/@name whose first probe is @first; it
 * adopts @first's argument set as its layout.
 */
struct tu_event *tu_event_new(const char *group, const char *name,
			      struct tu_probe *first)
{
	struct tu_event *ev;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	INIT_LIST_HEAD(&ev->probes);
	rwlock_init(&ev->filter.lock);
	INIT_LIST_HEAD(&ev->filter.events);
	ev->is_return = first->is_return;
	ev->head_size = first->is_return ? sizeof(struct tu_return_head) :
					   sizeof(struct tu_entry_head);
	ev->bpf_filename = kstrdup(first->filename, GFP_KERNEL);
	ev->bpf_offset = first->offset;
	if (pev_call_init(&ev->call, &ev->class, group, name) ||
	    !ev->bpf_filename)
		goto out_free;
	ev->class.reg = tu_event_reg;
	ev->class.fields_array = tu_fields;
	ev->call.event.funcs = &tu_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_UPROBE | TRACE_EVENT_FL_CAP_ANY;

	ev->layout = first->args;
	first->event = ev;
	list_add(&first->sibling, &ev->probes);
	if (pev_call_set_print_fmt(&ev->call, ev->layout, ev->is_return ?
				   PEV_HEAD_RETURN : PEV_HEAD_ENTRY))
		goto out_unlink;
	return ev;

out_unlink:
	list_del_init(&first->sibling);
	first->event = NULL;
	ev->layout = NULL;
out_free:
	kfree(ev->bpf_filename);
	pev_call_release(&ev->call, &ev->class);
	kfree(ev);
	return NULL;
}

/* Free an unpublished event with its layout set.  NULL is fine. */
void tu_event_free(struct tu_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(ev->published || !list_empty(&ev->links));
	parg_set_free(ev->layout);
	pev_call_release(&ev->call, &ev->class);
	kfree(ev->bpf_filename);
	kfree(ev);
}

/* ---------------------------------------------------------- on and off */

/* Register @tp with the uprobes core; perf's consumers filter by mm. */
int tu_probe_arm(struct tu_probe *tp, bool perf)
{
	struct uprobe *u;

	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(tp->uprobe))
		return 0;
	tp->consumer.filter = perf ? tu_perf_filter_mm : NULL;
	u = uprobe_register(tu_probe_inode(tp), tp->offset, tp->ref_ctr_offset,
			    &tp->consumer);
	if (IS_ERR(u))
		return PTR_ERR(u);
	tp->uprobe = u;
	return 0;
}

/* Unregister every registered probe of @ev; wait once for the handlers. */
static void tu_event_disarm(struct tu_event *ev)
{
	struct tu_probe *tp;
	bool any = false;

	list_for_each_entry(tp, &ev->probes, sibling) {
		if (!tp->uprobe)
			continue;
		uprobe_unregister_nosync(tp->uprobe, &tp->consumer);
		tp->uprobe = NULL;
		any = true;
	}
	if (any)
		uprobe_unregister_sync();
}

static int tu_event_arm(struct tu_event *ev, bool perf)
{
	struct tu_probe *tp;
	int ret;

	list_for_each_entry(tp, &ev->probes, sibling) {
		ret = tu_probe_arm(tp, perf);
		if (ret) {
			tu_event_disarm(ev);
			return ret;
		}
	}
	return 0;
}

static struct pev_link *tu_event_find_link(struct tu_event *ev,
					  struct trace_event_file *file)
{
	struct pev_link *link;

	list_for_each_entry(link, &ev->links, node)
		if (link->file == file)
			return link;
	return NULL;
}

/* A new user: a trace file, or perf when @file is NULL. */
static int tu_event_enable(struct tu_event *ev, struct trace_event_file *file)
{
	unsigned int was = ev->flags, mine = file ? TU_EV_TRACE : TU_EV_PERF;
	struct pev_link *link = NULL;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (was & ~mine)
		return -EINTR;
	ret = pev_scratch_reserve();
	if (ret)
		return ret;
	if (file) {
		link = kmalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		link->file = file;
		list_add_tail_rcu(&link->node, &ev->links);
	}
	WRITE_ONCE(ev->flags, was | mine);
	if (was)
		return 0;
	ret = tu_event_arm(ev, !file);
	if (ret) {
		WRITE_ONCE(ev->flags, was);
		if (link) {
			list_del_rcu(&link->node);
			kfree_rcu_mightsleep(link);
		}
	}
	return ret;
}

/* A user leaves; the last one unregisters the probes. */
static int tu_event_disable(struct tu_event *ev, struct trace_event_file *file)
{
	unsigned int flags = ev->flags;
	struct pev_link *link;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = tu_event_find_link(ev, file);
		if (!link)
			return -ENOENT;
		list_del_rcu(&link->node);
		kfree_rcu_mightsleep(link);	/* a hit may still be reading it */
		if (list_empty(&ev->links))
			flags &= ~TU_EV_TRACE;
	} else {
		flags &= ~TU_EV_PERF;
	}
	WRITE_ONCE(ev->flags, flags);
	if (!flags)
		tu_event_disarm(ev);
	return 0;
}

/* class->reg: process context, event_mutex held. */
int tu_event_reg(struct trace_event_call *call, enum trace_reg type,
		 void *data)
{
	struct tu_event *ev = tu_event_of(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return tu_event_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return tu_event_disable(ev, data);
	case TRACE_REG_PERF_REGISTER:
		return tu_event_enable(ev, NULL);
	case TRACE_REG_PERF_UNREGISTER:
		return tu_event_disable(ev, NULL);
	default:
		return tu_event_reg_perf(ev, type, data);
	}
}
