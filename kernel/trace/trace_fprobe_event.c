// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
 *
 * trace_fprobe_event.c - the trace_event_call behind each fprobe or
 * tracepoint probe event: fields, format, output, on and off.
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
 * On and off: the fprobes stay registered from definition to deletion;
 * the first user of the event (a trace file, or perf) clears their
 * soft-disable flag, the last one sets it again.  Trace files are kept
 * on an RCU list the hit path walks.  class->reg runs under event_mutex.
 */
#include <linux/slab.h>

#include "trace_output.h"
#include "trace_fprobe_internal.h"

/* ---------------------------------------------------------------- output */

static enum print_line_t tf_print(struct trace_iterator *iter, int flags,
				  struct trace_event *event)
{
	struct tf_event *ev = container_of(event, struct tf_event, call.event);
	struct fexit_trace_entry_head *ret = (void *)iter->ent;
	struct fentry_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	bool ok;

	trace_seq_printf(s, "%s: (", trace_event_name(&ev->call));
	if (ev->is_return) {
		ok = seq_print_ip_sym(s, ret->ret_ip, flags | TRACE_ITER_SYM_OFFSET);
		if (ok) {
			trace_seq_puts(s, " <- ");
			ok = seq_print_ip_sym(s, ret->func,
					      flags & ~TRACE_ITER_SYM_OFFSET);
		}
	} else {
		ok = seq_print_ip_sym(s, entry->ip, flags | TRACE_ITER_SYM_OFFSET);
	}
	if (ok) {
		trace_seq_putc(s, ')');
		parg_set_print(ev->layout, s, iter->ent, ev->head_size);
		trace_seq_putc(s, '\n');
	}
	return trace_handle_return(s);
}

static struct trace_event_functions tf_event_funcs = {
	.trace = tf_print,
};

/* ---------------------------------------------------------------- fields */

static int tf_define_fields(struct trace_event_call *call)
{
	struct tf_event *ev = tf_event_of(call);

	return pev_call_define_fields(call, ev->is_return ? PEV_HEAD_RETURN :
					    PEV_HEAD_ENTRY, ev->layout,
				      ev->head_size);
}

static struct trace_event_fields tf_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tf_define_fields },
	{}
};

/* -------------------------------------------------------------- lifetime */

static int tf_event_reg(struct trace_event_call *call, enum trace_reg type,
			void *data);

/*
 * A new, unpublished event @group/@name whose first probe is @first; it
 * adopts @first's argument set as its layout.
 */
struct tf_event *tf_event_new(const char *group, const char *name,
			      struct tf_probe *first)
{
	bool is_return = first->fp.exit_handler != NULL;
	struct tf_event *ev;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	INIT_LIST_HEAD(&ev->probes);
	ev->is_return = is_return;
	ev->is_tprobe = first->is_tprobe;
	ev->head_size = is_return ? sizeof(struct fexit_trace_entry_head) :
				    sizeof(struct fentry_trace_entry_head);
	if (pev_call_init(&ev->call, &ev->class, group, name))
		goto out_free;
	ev->class.reg = tf_event_reg;
	ev->class.fields_array = tf_fields;
	ev->call.event.funcs = &tf_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_FPROBE;

	ev->layout = first->args;
	first->event = ev;
	list_add(&first->sibling, &ev->probes);
	if (pev_call_set_print_fmt(&ev->call, ev->layout, is_return ?
				   PEV_HEAD_RETURN : PEV_HEAD_ENTRY))
		goto out_unlink;
	return ev;

out_unlink:
	list_del_init(&first->sibling);
	first->event = NULL;
	ev->layout = NULL;
out_free:
	pev_call_release(&ev->call, &ev->class);
	kfree(ev);
	return NULL;
}

/* Free an unpublished event and its layout set.  NULL is fine. */
void tf_event_free(struct tf_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(ev->published || !list_empty(&ev->links));
	parg_set_free(ev->layout);
	pev_call_release(&ev->call, &ev->class);
	kfree(ev);
}

/* events/<group>/<name>; -EEXIST if any event has that name. */
int tf_event_publish(struct tf_event *ev)
{
	int ret = pev_call_publish(&ev->call);

	if (!ret)
		ev->published = true;
	return ret;
}

/* -EBUSY if the ftrace or perf core still uses it. */
int tf_event_unpublish(struct tf_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = trace_remove_event_call(&ev->call);
	if (!ret)
		ev->published = false;
	return ret;
}

bool tf_event_busy(struct tf_event *ev)
{
	return READ_ONCE(ev->flags) || trace_event_dyn_busy(&ev->call);
}

/* ---------------------------------------------------------- on and off */

/* Soft-enable @tp's fprobe iff its event has a user.  event_mutex. */
void tf_probe_sync_enable(struct tf_probe *tp)
{
	lockdep_assert_held(&event_mutex);
	if (tp->event && READ_ONCE(tp->event->flags))
		enable_fprobe(&tp->fp);
	else
		disable_fprobe(&tp->fp);
}

static void tf_event_sync_probes(struct tf_event *ev)
{
	struct tf_probe *tp;

	list_for_each_entry(tp, &ev->probes, sibling)
		tf_probe_sync_enable(tp);
}

static struct pev_link *tf_event_find_link(struct tf_event *ev,
					  struct trace_event_file *file)
{
	struct pev_link *link;

	list_for_each_entry(link, &ev->links, node)
		if (link->file == file)
			return link;
	return NULL;
}

/* A new user: a trace file, or perf when @file is NULL. */
static int tf_event_enable(struct tf_event *ev, struct trace_event_file *file)
{
	struct pev_link *link;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = kmalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		link->file = file;
		list_add_tail_rcu(&link->node, &ev->links);
	}
	WRITE_ONCE(ev->flags, ev->flags | (file ? TF_EV_TRACE : TF_EV_PERF));
	tf_event_sync_probes(ev);
	return 0;
}

/* A user leaves; the last one soft-disables the probes. */
static int tf_event_disable(struct tf_event *ev, struct trace_event_file *file)
{
	unsigned int flags = ev->flags;
	struct pev_link *link;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = tf_event_find_link(ev, file);
		if (!link)
			return -ENOENT;
		list_del_rcu(&link->node);
		kfree_rcu_mightsleep(link);	/* a hit may still be reading it */
		if (list_empty(&ev->links))
			flags &= ~TF_EV_TRACE;
	} else {
		flags &= ~TF_EV_PERF;
	}
	WRITE_ONCE(ev->flags, flags);
	tf_event_sync_probes(ev);
	return 0;
}

/* class->reg: from the ftrace and perf cores, event_mutex held. */
static int tf_event_reg(struct trace_event_call *call, enum trace_reg type,
			void *data)
{
	struct tf_event *ev = tf_event_of(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return tf_event_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return tf_event_disable(ev, data);
	case TRACE_REG_PERF_REGISTER:
		return IS_ENABLED(CONFIG_PERF_EVENTS) ?
		       tf_event_enable(ev, NULL) : -EOPNOTSUPP;
	case TRACE_REG_PERF_UNREGISTER:
		return IS_ENABLED(CONFIG_PERF_EVENTS) ?
		       tf_event_disable(ev, NULL) : -EOPNOTSUPP;
	default:
		return 0;	/* perf open, close, add, del */
	}
}
