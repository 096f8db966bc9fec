// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: eprobe events: the trace_event_call, enable and output
 *
 * trace_eprobe_event.c - an eprobe's trace_event_call: switched on and off
 * in an instance (class->reg) by hanging the trigger of
 * trace_eprobe_hit.c on the attached event's file of that instance, its
 * output line and fields, and its allocation and release.
 *
 * Locking: enable and disable run under event_mutex (asserted).  A link
 * is freed only after tracepoint_synchronize_unregister(), so that no
 * hit still reads it; the trigger core's .free (an instance going away)
 * only marks it unhooked.
 */
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "trace_output.h"
#include "trace_eprobe_internal.h"

static struct epev_link *epev_find_link(struct epev_event *ev,
				      struct trace_event_file *file)
{
	struct probe_ev_link *pl = probe_ev_link_find(&ev->links, file);

	return pl ? container_of(pl, struct epev_link, pl) : NULL;
}

/* The filter of "if FILTER", compiled for @file's instance. */
static int epev_link_filter(struct epev_link *link)
{
	struct epev_event *ev = link->ev;
	struct event_filter *filter = NULL;
	int ret;

	if (!ev->filter)
		return 0;
	ret = create_event_filter(link->pl.file->tr, ev->target, ev->filter,
				  false, &filter);
	if (ret) {
		free_event_filter(filter);
		return ret;
	}
	RCU_INIT_POINTER(link->trigger.filter, filter);
	return 0;
}

/*
 * Wait until no hit can run on a link whose trigger left the attached
 * event's list.  A tracepoint's callbacks are SRCU and tasks-trace RCU
 * readers; an attached f: or t: event commits from the fprobe core,
 * whose callbacks run with preemption off, which only synchronize_rcu()
 * is sure to wait for.  Only a disable pays it.
 */
static void epev_wait_hits(void)
{
	tracepoint_synchronize_unregister();
	synchronize_rcu();
}

static int epev_enable(struct epev_event *ev, struct trace_event_file *file)
{
	struct trace_event_file *target;
	struct epev_link *link;
	int ret;

	lockdep_assert_held(&event_mutex);
	target = find_event_file(file->tr, ev->target_sys, ev->target_name);
	if (!target)
		return -ENOENT;
	if (ev->dynamic) {
		ret = probe_ev_scratch_reserve();
		if (ret)
			return ret;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	link->ev = ev;
	link->pl.file = file;
	link->target = target;
	link->trigger.cmd_ops = &epev_trigger_cmd;
	link->trigger.flags = EVENT_TRIGGER_FL_PROBE;
	link->trigger.count = -1;
	link->trigger.private_data = link;
	INIT_LIST_HEAD(&link->trigger.list);
	INIT_LIST_HEAD(&link->trigger.named_list);
	ret = epev_link_filter(link);
	if (ret)
		goto err_free_link;

	/* the record must be built for us before the first call */
	list_add_tail_rcu(&link->trigger.list, &target->triggers);
	update_cond_flag(target);
	ret = trace_event_trigger_enable_disable(target, 1);
	if (ret)
		goto err_unhook;
	link->hooked = true;
	list_add_tail(&link->pl.node, &ev->links);
	return 0;

err_unhook:
	/* the trigger mode counts the attempt even when it fails */
	trace_event_trigger_enable_disable(target, 0);
	list_del_rcu(&link->trigger.list);
	update_cond_flag(target);
	epev_wait_hits();
	free_event_filter(rcu_access_pointer(link->trigger.filter));
err_free_link:
	kfree(link);
	return ret;
}

static int epev_disable(struct epev_event *ev, struct trace_event_file *file)
{
	struct epev_link *link;

	lockdep_assert_held(&event_mutex);
	link = epev_find_link(ev, file);
	if (!link)
		return -ENOENT;
	list_del(&link->pl.node);
	if (link->hooked) {
		list_del_rcu(&link->trigger.list);
		trace_event_trigger_enable_disable(link->target, 0);
		update_cond_flag(link->target);
	}
	epev_wait_hits();	/* no hit runs on the link past this */
	free_event_filter(rcu_access_pointer(link->trigger.filter));
	kfree(link);
	return 0;
}

/* class->reg, under event_mutex.  Perf may open an eprobe: it gets nothing. */
static int epev_reg(struct trace_event_call *call, enum trace_reg type,
		   void *data)
{
	struct epev_event *ev = epev_of_call(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return epev_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return epev_disable(ev, data);
	default:
		return 0;
	}
}

/* "EVENT: (SYS.EVENT) NAME=VALUE ..." */
static enum print_line_t epev_print(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct epev_event *ev = container_of(event, struct epev_event, call.event);
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (%s.%s)", trace_event_name(&ev->call),
			 ev->target_sys, ev->target_name);
	parg_set_print(ev->args, s, iter->ent, EPEV_HEAD);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions epev_event_funcs = {
	.trace = epev_print,
};

static int epev_define_fields(struct trace_event_call *call)
{
	return probe_ev_call_define_fields(call, PROBE_EV_HEAD_NONE,
				      epev_of_call(call)->args, EPEV_HEAD);
}

static struct trace_event_fields epev_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = epev_define_fields },
	{}
};

/* Free an event that is not (or no longer) published.  NULL is fine. */
void epev_event_free(struct epev_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(!list_empty(&ev->links));
	if (ev->target)
		trace_event_put_ref(ev->target);
	parg_set_free(ev->args);
	free_percpu(ev->counts);
	probe_ev_call_release(&ev->call, &ev->class);
	kfree(ev->filter);
	kfree(ev->target_sys);
	kfree(ev->target_name);
	kfree(ev);
}

/* An event named @group/@name with nothing parsed into it yet, or NULL. */
struct epev_event *epev_event_alloc(const char *group, const char *name)
{
	struct epev_event *ev = kzalloc(sizeof(*ev), GFP_KERNEL);

	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	dyn_event_init(&ev->devent, &epev_dyn_ops);
	ev->counts = alloc_percpu(struct epev_counts);
	if (probe_ev_call_init(&ev->call, &ev->class, group, name) || !ev->counts) {
		epev_event_free(ev);
		return NULL;
	}
	ev->class.reg = epev_reg;
	ev->class.fields_array = epev_fields;
	ev->call.event.funcs = &epev_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_EPROBE;
	return ev;
}
