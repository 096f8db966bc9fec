// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
 *
 * trace_kprobe_event.c - the trace_event_call behind each kprobe event:
 * its fields, format and output, and turning it on and off.
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

#include "trace_output.h"
#include "trace_kprobe_internal.h"

/* ---------------------------------------------------------------- output */

/*
 * "NAME: (SITE) ARGS" for an entry record, "NAME: (RET_IP <- FUNC) ARGS"
 * for a return record; a symbol that cannot be printed ends the line
 * there (trace_seq is full).
 */
static enum print_line_t tk_print(struct trace_iterator *iter, int flags,
				  struct trace_event *event)
{
	struct tk_event *ev = container_of(event, struct tk_event, call.event);
	struct kretprobe_trace_entry_head *ret = (void *)iter->ent;
	struct kprobe_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	bool ok;

	trace_seq_printf(s, "%s: (", trace_event_name(&ev->call));
	if (ev->is_return) {
		ok = seq_print_ip_sym(s, ret->ret_ip, flags | TRACE_ITER_SYM_OFFSET);
		if (ok) {
			trace_seq_puts(s, " <- ");
			ok = seq_print_ip_sym(s, ret->func, flags & ~TRACE_ITER_SYM_OFFSET);
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

static struct trace_event_functions tk_event_funcs = {
	.trace = tk_print,
};

/* ---------------------------------------------------------------- fields */

static int tk_define_fields(struct trace_event_call *call)
{
	struct tk_event *ev = tk_event_of(call);

	return pev_call_define_fields(call, ev->is_return ? PEV_HEAD_RETURN :
					    PEV_HEAD_ENTRY, ev->layout,
				      ev->head_size);
}

static struct trace_event_fields tk_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tk_define_fields },
	{}
};

/* -------------------------------------------------------------- lifetime */

/*
 * A new, unpublished event named @group/@name whose first probe is
 * @first.  The event adopts @first's argument set as its layout.
 */
struct tk_event *tk_event_new(const char *group, const char *name,
			      struct tk_probe *first)
{
	bool is_return = first->rp.handler != NULL;
	struct tk_event *ev;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	INIT_LIST_HEAD(&ev->probes);
	ev->is_return = is_return;
	ev->head_size = is_return ? sizeof(struct kretprobe_trace_entry_head) :
				    sizeof(struct kprobe_trace_entry_head);

	if (pev_call_init(&ev->call, &ev->class, group, name))
		goto out_free;
	ev->class.reg = tk_event_reg;
	ev->class.fields_array = tk_fields;
	ev->call.event.funcs = &tk_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_KPROBE;

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

/* Free an unpublished event with its layout set.  NULL is fine. */
void tk_event_free(struct tk_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(ev->published || !list_empty(&ev->links));
	parg_set_free(ev->layout);
	pev_call_release(&ev->call, &ev->class);
	kfree(ev);
}

/* Add the event to tracefs and the event list: events/<group>/<name>. */
int tk_event_publish(struct tk_event *ev)
{
	int ret = pev_call_publish(&ev->call);

	if (!ret)
		ev->published = true;
	return ret;
}

/* Remove it again; -EBUSY if the ftrace or perf core still uses it. */
int tk_event_unpublish(struct tk_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = trace_remove_event_call(&ev->call);
	if (!ret)
		ev->published = false;
	return ret;
}

/* On, or held open (an event file, a perf event): not to be deleted. */
bool tk_event_busy(struct tk_event *ev)
{
	return READ_ONCE(ev->flags) || trace_event_dyn_busy(&ev->call);
}

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
static int tk_event_switch_probes(struct tk_event *ev, bool on)
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

static struct pev_link *tk_event_find_link(struct tk_event *ev,
					  struct trace_event_file *file)
{
	struct pev_link *link;

	list_for_each_entry(link, &ev->links, node)
		if (link->file == file)
			return link;
	return NULL;
}

/* A new user: a trace file, or perf when @file is NULL. */
static int tk_event_enable(struct tk_event *ev, struct trace_event_file *file)
{
	unsigned int was = ev->flags;
	struct pev_link *link = NULL;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = kmalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		link->file = file;
		list_add_tail_rcu(&link->node, &ev->links);
	}
	WRITE_ONCE(ev->flags, was | (file ? TK_EV_TRACE : TK_EV_PERF));
	if (was)
		return 0;

	ret = tk_event_switch_probes(ev, true);
	if (ret) {
		WRITE_ONCE(ev->flags, was);
		if (link) {
			list_del_rcu(&link->node);
			kfree_rcu_mightsleep(link);
		}
	}
	return ret;
}

/* A user leaves; the last one turns the probes off. */
static int tk_event_disable(struct tk_event *ev, struct trace_event_file *file)
{
	unsigned int flags = ev->flags;
	struct pev_link *link;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = tk_event_find_link(ev, file);
		if (!link)
			return -ENOENT;
		list_del_rcu(&link->node);
		/* A hit may still be reading it: free after a grace period. */
		kfree_rcu_mightsleep(link);
		if (list_empty(&ev->links))
			flags &= ~TK_EV_TRACE;
	} else {
		flags &= ~TK_EV_PERF;
	}
	WRITE_ONCE(ev->flags, flags);
	if (!flags)
		tk_event_switch_probes(ev, false);
	return 0;
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

#ifdef CONFIG_PERF_EVENTS
/* A perf event opened on, or closed from, the event. */
static int tk_event_reg_perf(struct tk_event *ev, enum trace_reg type)
{
	switch (type) {
	case TRACE_REG_PERF_REGISTER:
		return tk_event_enable(ev, NULL);
	case TRACE_REG_PERF_UNREGISTER:
		return tk_event_disable(ev, NULL);
	default:
		return 0;	/* open, close, add, del: nothing to do */
	}
}
#else
static int tk_event_reg_perf(struct tk_event *ev, enum trace_reg type)
{
	return 0;
}
#endif

/*
 * class->reg: called by the ftrace and perf cores, in process context
 * with event_mutex held.
 */
int tk_event_reg(struct trace_event_call *call, enum trace_reg type,
		 void *data)
{
	struct tk_event *ev = tk_event_of(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return tk_event_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return tk_event_disable(ev, data);
	default:
		return tk_event_reg_perf(ev, type);
	}
}
