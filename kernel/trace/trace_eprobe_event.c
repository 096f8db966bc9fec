// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
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

static struct tep_link *tep_find_link(struct tep_event *ev,
				      struct trace_event_file *file)
{
	struct tep_link *link;

	list_for_each_entry(link, &ev->links, node)
		if (link->file == file)
			return link;
	return NULL;
}

/* The filter of "if FILTER", compiled for @file's instance. */
static int tep_link_filter(struct tep_link *link)
{
	struct tep_event *ev = link->ev;
	struct event_filter *filter = NULL;
	int ret;

	if (!ev->filter)
		return 0;
	ret = create_event_filter(link->file->tr, ev->target, ev->filter,
				  false, &filter);
	if (ret) {
		free_event_filter(filter);
		return ret;
	}
	RCU_INIT_POINTER(link->trigger.filter, filter);
	return 0;
}

static int tep_enable(struct tep_event *ev, struct trace_event_file *file)
{
	struct trace_event_file *target;
	struct tep_link *link;
	int ret;

	lockdep_assert_held(&event_mutex);
	target = find_event_file(file->tr, ev->target_sys, ev->target_name);
	if (!target)
		return -ENOENT;
	if (ev->dynamic) {
		ret = pev_scratch_reserve();
		if (ret)
			return ret;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	link->ev = ev;
	link->file = file;
	link->target = target;
	link->trigger.cmd_ops = &tep_trigger_cmd;
	link->trigger.flags = EVENT_TRIGGER_FL_PROBE;
	link->trigger.count = -1;
	link->trigger.private_data = link;
	INIT_LIST_HEAD(&link->trigger.list);
	INIT_LIST_HEAD(&link->trigger.named_list);
	ret = tep_link_filter(link);
	if (ret)
		goto err_free_link;

	/* the record must be built for us before the first call */
	list_add_tail_rcu(&link->trigger.list, &target->triggers);
	update_cond_flag(target);
	ret = trace_event_trigger_enable_disable(target, 1);
	if (ret)
		goto err_unhook;
	link->hooked = true;
	list_add_tail(&link->node, &ev->links);
	return 0;

err_unhook:
	/* the trigger mode counts the attempt even when it fails */
	trace_event_trigger_enable_disable(target, 0);
	list_del_rcu(&link->trigger.list);
	update_cond_flag(target);
	tracepoint_synchronize_unregister();
	free_event_filter(rcu_access_pointer(link->trigger.filter));
err_free_link:
	kfree(link);
	return ret;
}

static int tep_disable(struct tep_event *ev, struct trace_event_file *file)
{
	struct tep_link *link;

	lockdep_assert_held(&event_mutex);
	link = tep_find_link(ev, file);
	if (!link)
		return -ENOENT;
	list_del(&link->node);
	if (link->hooked) {
		list_del_rcu(&link->trigger.list);
		trace_event_trigger_enable_disable(link->target, 0);
		update_cond_flag(link->target);
	}
	/* no hit runs on the link past this */
	tracepoint_synchronize_unregister();
	free_event_filter(rcu_access_pointer(link->trigger.filter));
	kfree(link);
	return 0;
}

/* class->reg, under event_mutex.  Perf may open an eprobe: it gets nothing. */
static int tep_reg(struct trace_event_call *call, enum trace_reg type,
		   void *data)
{
	struct tep_event *ev = tep_of_call(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		return tep_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return tep_disable(ev, data);
	default:
		return 0;
	}
}

/* "EVENT: (SYS.EVENT) NAME=VALUE ..." */
static enum print_line_t tep_print(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct tep_event *ev = container_of(event, struct tep_event, call.event);
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%s: (%s.%s)", trace_event_name(&ev->call),
			 ev->target_sys, ev->target_name);
	parg_set_print(ev->args, s, iter->ent, TEP_HEAD);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions tep_event_funcs = {
	.trace = tep_print,
};

static int tep_define_fields(struct trace_event_call *call)
{
	return pev_call_define_fields(call, PEV_HEAD_NONE,
				      tep_of_call(call)->args, TEP_HEAD);
}

static struct trace_event_fields tep_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tep_define_fields },
	{}
};

/* Free an event that is not (or no longer) published.  NULL is fine. */
void tep_event_free(struct tep_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(!list_empty(&ev->links));
	if (ev->target)
		trace_event_put_ref(ev->target);
	parg_set_free(ev->args);
	free_percpu(ev->counts);
	pev_call_release(&ev->call, &ev->class);
	kfree(ev->filter);
	kfree(ev->target_sys);
	kfree(ev->target_name);
	kfree(ev);
}

/* An event named @group/@name with nothing parsed into it yet, or NULL. */
struct tep_event *tep_event_alloc(const char *group, const char *name)
{
	struct tep_event *ev = kzalloc(sizeof(*ev), GFP_KERNEL);

	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	dyn_event_init(&ev->devent, &tep_dyn_ops);
	ev->counts = alloc_percpu(struct tep_counts);
	if (pev_call_init(&ev->call, &ev->class, group, name) || !ev->counts) {
		tep_event_free(ev);
		return NULL;
	}
	ev->class.reg = tep_reg;
	ev->class.fields_array = tep_fields;
	ev->call.event.funcs = &tep_event_funcs;
	ev->call.flags = TRACE_EVENT_FL_EPROBE;
	return ev;
}
