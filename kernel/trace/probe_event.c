// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe events: the shared event layer and its lifecycle
 *
 * probe_event.c - the layer every probe-event front end stands on, above
 * the argument library (probe_arg) and below kprobe events (``kpev_``), uprobe
 * events (``upev_``), event probes (``epev_``) and fprobe/tracepoint probe events
 * (``fpev_``).  What is here is the logic those four had each written once;
 * a front end keeps what differs: its grammar, its probe object, its
 * hit path and its listing.
 *
 * What it owns::
 *
 *   - the trace_event_call of a probe event: names, the head fields
 *     (__probe_ip, or __probe_func and __probe_ret_ip) and the print_fmt
 *     around the layout's arguments, publication in tracefs with the
 *     one-name-for-all-kinds rule;
 *   - the lifetime of a kprobe, uprobe or fprobe event (struct
 *     probe_ev_event, embedded first in the front end's event): made with its
 *     first probe, which lends it the argument layout, joined by more
 *     probes of the same kind and layout, freed with its last; its
 *     users (trace files, each a probe_ev_link the hit path walks, and perf)
 *     and its class->reg, which arms the probes for the first user and
 *     disarms them after the last through the front end's
 *     struct probe_ev_event_ops (slow path only: a hit reads the event's
 *     fields, it calls none of the ops);
 *   - the walk over one front end's probes on the dyn_event list, the
 *     "-:GROUP/EVENT" name match, and the definition line's head
 *     ("KIND[MAXACTIVE]:GROUP/EVENT ") and arguments;
 *   - the [GROUP/|GROUP.][EVENT] name rule and its error codes
 *     (enum probe_ev_name_err), and error_log entries: the words joined by
 *     single spaces, the caret under byte @pos of word @word, or just
 *     past the end when the word is missing;
 *   - the drop rule of the hit paths (probe_ev_record_wanted(), inline in
 *     probe_event.h so that a hit makes no extra call);
 *   - the tracefs files that list a front end's probes (struct probe_ev_file:
 *     kprobe_events, uprobe_profile, fprobe_profile...): their file
 *     operations, O_TRUNC on a definitions file, the first column of the
 *     stat files (uprobe_misses, fprobe_profile, eprobe_profile):
 *     GROUP/EVENT in 44 columns after two blanks.
 *     kprobe_profile and uprobe_profile keep their older layout, which
 *     tools parse.
 *
 * Invariants::
 *
 *   - Nothing here knows a front end: it sees a trace_event_call, a
 *     parg_set, words and codes.  Error codes are the caller's: a name
 *     error is returned as an enum probe_ev_name_err, which the caller maps
 *     into its own table with probe_ev_err_code(), as it does probe_arg's.
 *   - A call's names and print_fmt are owned by it from probe_ev_call_init()
 *     until probe_ev_call_release(), which may be called on a half-made call.
 *
 * Locking: publication, the name check, an event's users and probes
 * need event_mutex (asserted; the ftrace and perf cores hold it around
 * class->reg);
 * error_log entries are made under dyn_event_ops_mutex or the front
 * end's own command lock, as tracing_log_err() wants.  Nothing here
 * runs at hit time but the header's inline.
 *
 * See Documentation/trace/kprobetrace.rst, uprobetracer.rst,
 * eprobetrace.rst and fprobetrace.rst for what users see.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_dynevent.h"
#include "trace_output.h"
#include "probe_event.h"

/* ------------------------------------------------------------ the event */

/* Name @call @group/@name; -ENOMEM leaves it for probe_ev_call_release(). */
int probe_ev_call_init(struct trace_event_call *call,
		  struct trace_event_class *class,
		  const char *group, const char *name)
{
	INIT_LIST_HEAD(&class->fields);
	class->system = kstrdup(group, GFP_KERNEL);
	call->name = kstrdup(name, GFP_KERNEL);
	call->class = class;
	return class->system && call->name ? 0 : -ENOMEM;
}

/* Free what probe_ev_call_init() and probe_ev_call_set_print_fmt() made. */
void probe_ev_call_release(struct trace_event_call *call,
		      struct trace_event_class *class)
{
	kfree(call->print_fmt);
	kfree(call->name);
	kfree(class->system);
}

/*
 * "\"(%lx) NAME=FMT...\", REC->__probe_ip, REC->NAME..."; a return head
 * has "(%lx <- %lx)" and __probe_func, __probe_ret_ip; no head has
 * nothing before the first " NAME=FMT".
 */
int probe_ev_call_set_print_fmt(struct trace_event_call *call,
			   struct parg_set *layout, enum probe_ev_head head)
{
	static const char * const fmt_heads[] = {
		[PROBE_EV_HEAD_ENTRY] = "(%lx)",
		[PROBE_EV_HEAD_RETURN] = "(%lx <- %lx)",
		[PROBE_EV_HEAD_NONE] = "",
	};
	static const char * const args_heads[] = {
		[PROBE_EV_HEAD_ENTRY] = ", REC->__probe_ip",
		[PROBE_EV_HEAD_RETURN] = ", REC->__probe_func, REC->__probe_ret_ip",
		[PROBE_EV_HEAD_NONE] = "",
	};
	size_t fmt_len, args_len;
	char *fmt, *args;
	int ret = -ENOMEM;

	parg_set_print_fmt_len(layout, &fmt_len, &args_len);
	fmt_len += strlen(fmt_heads[head]) + 1;
	args_len += strlen(args_heads[head]) + 1;
	fmt = kmalloc(fmt_len, GFP_KERNEL);
	args = kmalloc(args_len, GFP_KERNEL);
	if (!fmt || !args)
		goto out_free;
	strscpy(fmt, fmt_heads[head], fmt_len);
	strscpy(args, args_heads[head], args_len);
	ret = parg_set_print_fmt(layout, fmt, fmt_len, args, args_len);
	if (ret)
		goto out_free;
	call->print_fmt = kasprintf(GFP_KERNEL, "\"%s\"%s", fmt, args);
	if (!call->print_fmt)
		ret = -ENOMEM;
out_free:
	kfree(args);
	kfree(fmt);
	return ret;
}

static int probe_ev_head_field(struct trace_event_call *call, const char *name,
			  unsigned int offset)
{
	return trace_define_field(call, "unsigned long", name, offset,
				  sizeof(unsigned long), 0, FILTER_OTHER);
}

/*
 * The head fields of @call, laid out as kprobe events' heads are (every
 * front end's head struct has that layout).
 */
static int probe_ev_call_define_head(struct trace_event_call *call,
				enum probe_ev_head head)
{
	int ret;

	switch (head) {
	case PROBE_EV_HEAD_ENTRY:
		return probe_ev_head_field(call, "__probe_ip",
			offsetof(struct kprobe_trace_entry_head, ip));
	case PROBE_EV_HEAD_RETURN:
		ret = probe_ev_head_field(call, "__probe_func",
			offsetof(struct kretprobe_trace_entry_head, func));
		return ret ?: probe_ev_head_field(call, "__probe_ret_ip",
			offsetof(struct kretprobe_trace_entry_head, ret_ip));
	default:
		return 0;
	}
}

/* The fields of @call: its head's, then @layout's after @head_size bytes. */
int probe_ev_call_define_fields(struct trace_event_call *call, enum probe_ev_head head,
			   const struct parg_set *layout, unsigned int head_size)
{
	int ret = probe_ev_call_define_head(call, head);

	return ret ?: parg_set_define_fields(layout, call, head_size);
}

/* Is any event, of any kind, named @group/@name?  Under event_mutex. */
bool probe_ev_name_taken(const char *group, const char *name)
{
	struct trace_event_call *call;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		const char *n = trace_event_name(call);

		if (call->class->system && n &&
		    !strcmp(call->class->system, group) && !strcmp(n, name))
			return true;
	}
	return false;
}

/* events/GROUP/EVENT for @call: -EEXIST if the name is taken. */
int probe_ev_call_publish(struct trace_event_call *call)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (probe_ev_name_taken(call->class->system, trace_event_name(call)))
		return -EEXIST;
	if (!register_trace_event(&call->event))
		return -ENODEV;
	ret = trace_add_event_call(call);
	if (ret)
		unregister_trace_event(&call->event);
	return ret;
}

/* ---------------------------------------------- an event's lifetime */

/* The end of a record's line: ")", then " NAME=VALUE" for each argument. */
void probe_ev_print_args(struct trace_seq *s, const struct probe_ev_event *ev,
		    const struct trace_entry *ent)
{
	trace_seq_putc(s, ')');
	parg_set_print(ev->layout, s, ent, ev->head_size);
	trace_seq_putc(s, '\n');
}

/*
 * "NAME: (SITE) ARGS" for an entry record, "NAME: (RET_IP <- FUNC) ARGS"
 * for a return record, the addresses as symbols; a symbol that cannot be
 * printed ends the line there (trace_seq is full).
 */
static enum print_line_t probe_ev_print_sym(struct trace_iterator *iter, int flags,
				       struct trace_event *event)
{
	struct probe_ev_event *ev = container_of(event, struct probe_ev_event, call.event);
	struct kretprobe_trace_entry_head *ret = (void *)iter->ent;
	struct kprobe_trace_entry_head *entry = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	bool ok;

	trace_seq_printf(s, "%s: (", trace_event_name(&ev->call));
	if (ev->is_return) {
		ok = seq_print_ip_sym(s, ret->ret_ip, flags | TRACE_ITER(SYM_OFFSET));
		if (ok) {
			trace_seq_puts(s, " <- ");
			ok = seq_print_ip_sym(s, ret->func,
					      flags & ~TRACE_ITER(SYM_OFFSET));
		}
	} else {
		ok = seq_print_ip_sym(s, entry->ip, flags | TRACE_ITER(SYM_OFFSET));
	}
	if (ok)
		probe_ev_print_args(s, ev, iter->ent);
	return trace_handle_return(s);
}

static struct trace_event_functions probe_ev_sym_funcs = {
	.trace = probe_ev_print_sym,
};

static enum probe_ev_head probe_ev_event_head(const struct probe_ev_event *ev)
{
	return ev->is_return ? PROBE_EV_HEAD_RETURN : PROBE_EV_HEAD_ENTRY;
}

static int probe_ev_event_define_fields(struct trace_event_call *call)
{
	struct probe_ev_event *ev = probe_ev_event_of(call);

	return probe_ev_call_define_fields(call, probe_ev_event_head(ev), ev->layout,
				      ev->head_size);
}

static struct trace_event_fields probe_ev_event_fields[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = probe_ev_event_define_fields },
	{}
};

/*
 * A new, unpublished event of kind @ops named @group/@name: @ops->size
 * zeroed bytes, the struct probe_ev_event first.  It adopts @layout, the
 * argument set of its first probe, whose sibling node @first goes on
 * the event's probes.  NULL when out of memory, with nothing changed.
 */
struct probe_ev_event *probe_ev_event_new(const struct probe_ev_event_ops *ops,
				const char *group, const char *name,
				bool is_return, struct parg_set *layout,
				struct list_head *first)
{
	struct probe_ev_event *ev;

	ev = kzalloc(ops->size, GFP_KERNEL);
	if (!ev)
		return NULL;
	INIT_LIST_HEAD(&ev->links);
	INIT_LIST_HEAD(&ev->probes);
	ev->ops = ops;
	ev->is_return = is_return;
	ev->head_size = ops->head_size[is_return];
	if (probe_ev_call_init(&ev->call, &ev->class, group, name))
		goto out_free;
	ev->class.reg = probe_ev_event_reg;
	ev->class.fields_array = probe_ev_event_fields;
	ev->call.event.funcs = ops->funcs ?: &probe_ev_sym_funcs;
	ev->call.flags = ops->call_flags;
	ev->layout = layout;
	list_add(first, &ev->probes);
	if (probe_ev_call_set_print_fmt(&ev->call, layout, probe_ev_event_head(ev)))
		goto out_unlink;
	return ev;

out_unlink:
	list_del_init(first);
	ev->layout = NULL;
out_free:
	probe_ev_call_release(&ev->call, &ev->class);
	kfree(ev);
	return NULL;
}

/*
 * Free an unpublished, unused event with its layout and names; the front
 * end frees what it added first.  NULL is fine.
 */
void probe_ev_event_free(struct probe_ev_event *ev)
{
	if (!ev)
		return;
	WARN_ON_ONCE(ev->published || !list_empty(&ev->links));
	if (ev->ops->release)
		ev->ops->release(ev);
	parg_set_free(ev->layout);
	probe_ev_call_release(&ev->call, &ev->class);
	kfree(ev);
}

/* events/GROUP/EVENT for @ev; -EEXIST if any event has that name. */
int probe_ev_event_publish(struct probe_ev_event *ev)
{
	int ret = probe_ev_call_publish(&ev->call);

	if (!ret)
		ev->published = true;
	return ret;
}

/* Remove it again; -EBUSY if the ftrace or perf core still uses it. */
int probe_ev_event_unpublish(struct probe_ev_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = trace_remove_event_call(&ev->call);
	if (!ret)
		ev->published = false;
	return ret;
}

/* On, or held open (an event file, a perf event): not to be deleted. */
bool probe_ev_event_busy(struct probe_ev_event *ev)
{
	return READ_ONCE(ev->flags) || trace_event_dyn_busy(&ev->call);
}

/* Before the last probe of @ev goes: out of tracefs, unless in use. */
int probe_ev_event_withdraw(struct probe_ev_event *ev)
{
	return probe_ev_event_busy(ev) ? -EBUSY : probe_ev_event_unpublish(ev);
}

/*
 * Take the probe whose sibling node is @node off @ev.  Its argument set
 * *@args stays with the event when it is the event's layout (the fields
 * point into it): *@args is NULL then.  The last probe takes the event
 * with it: true when @ev is freed.  Under event_mutex.
 */
bool probe_ev_event_leave(struct probe_ev_event *ev, struct list_head *node,
		     struct parg_set **args)
{
	list_del_init(node);
	if (*args == ev->layout)
		*args = NULL;
	if (!list_empty(&ev->probes))
		return false;
	probe_ev_event_free(ev);
	return true;
}

/*
 * May the probe whose sibling node is @node, with the arguments @args,
 * join @ev (@other_kind: the front end found it of another kind)?  On a
 * refusal, *@word is the definition word at fault: 0 for the head, 2
 * and on for the arguments.
 */
enum probe_ev_join_err probe_ev_event_may_join(struct probe_ev_event *ev, bool other_kind,
				     const struct parg_set *args,
				     const struct list_head *node, int *word)
{
	const struct list_head *sib;
	int idx;

	*word = 0;
	if (other_kind)
		return PROBE_EV_JOIN_OTHER_KIND;
	idx = parg_set_mismatch(ev->layout, args);
	if (idx >= 0) {
		*word = idx + 2;
		return PROBE_EV_JOIN_OTHER_ARGS;
	}
	list_for_each(sib, &ev->probes)
		if (ev->ops->same_probe && ev->ops->same_probe(sib, node))
			return PROBE_EV_JOIN_SAME_PROBE;
	return PROBE_EV_JOIN_OK;
}

/*
 * Publish @ev, new with its first probe @nc, then arm the probe.  On a
 * failure, logged, the event is freed with the argument set it adopted
 * (*@nc->args is NULL then), and the front end frees the probe.
 */
int probe_ev_event_start(struct probe_ev_event *ev,
			 const struct probe_ev_newcomer *nc)
{
	int ret = probe_ev_event_publish(ev);

	if (ret == -EEXIST)
		probe_ev_words_error(nc->w, 0, 0, nc->w->errs->exist);
	else if (ret)
		pr_warn("%s: Failed to register probe event(%d)\n",
			nc->w->errs->subsys, ret);
	if (!ret && nc->arm) {
		ret = nc->arm(nc);
		if (ret)
			probe_ev_event_unpublish(ev);
	}
	if (ret) {
		probe_ev_event_leave(ev, nc->node, nc->args);
		return ret;
	}
	dyn_event_add(nc->dev, &ev->call);
	return 0;
}

/* May @nc join @ev (probe_ev_event_may_join())?  -EEXIST, logged, if not. */
int probe_ev_join_check(struct probe_ev_event *ev, bool other_kind,
			const struct probe_ev_newcomer *nc)
{
	enum probe_ev_join_err why;
	int word;

	static_assert(PROBE_EV_JOIN_OTHER_KIND == 1);
	why = probe_ev_event_may_join(ev, other_kind, *nc->args, nc->node, &word);
	if (!why)
		return 0;
	probe_ev_words_error(nc->w, word, 0,
			     probe_ev_err_code(nc->w->errs->join, why));
	return -EEXIST;
}

/* Add @nc to @ev, which it may join, and arm it; on a failure it is off. */
int probe_ev_event_add(struct probe_ev_event *ev,
		       const struct probe_ev_newcomer *nc)
{
	int ret;

	list_add_tail(nc->node, &ev->probes);
	ret = nc->arm ? nc->arm(nc) : 0;
	if (ret) {
		list_del_init(nc->node);
		return ret;
	}
	dyn_event_add(nc->dev, &ev->call);
	return 0;
}

/* The link to @file on the list @links of probe_ev_links, or NULL. */
struct probe_ev_link *probe_ev_link_find(struct list_head *links,
					 struct trace_event_file *file)
{
	struct probe_ev_link *link;

	list_for_each_entry(link, links, node)
		if (link->file == file)
			return link;
	return NULL;
}

/* A new user: a trace file, or perf when @file is NULL.  The first arms. */
static int probe_ev_event_enable(struct probe_ev_event *ev,
			    struct trace_event_file *file)
{
	unsigned int was = ev->flags, mine = file ? PROBE_EV_EV_TRACE : PROBE_EV_EV_PERF;
	struct probe_ev_link *link = NULL;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (ev->ops->users_exclusive && (was & ~mine))
		return -EINTR;
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
	ret = ev->ops->arm(ev, !file);
	if (ret) {
		WRITE_ONCE(ev->flags, was);
		if (link) {
			list_del_rcu(&link->node);
			kfree_rcu_mightsleep(link);
		}
	}
	return ret;
}

/* A user leaves; the last one disarms the probes. */
static int probe_ev_event_disable(struct probe_ev_event *ev,
			     struct trace_event_file *file)
{
	unsigned int flags = ev->flags;
	struct probe_ev_link *link;

	lockdep_assert_held(&event_mutex);
	if (file) {
		link = probe_ev_link_find(&ev->links, file);
		if (!link)
			return -ENOENT;
		list_del_rcu(&link->node);
		kfree_rcu_mightsleep(link);	/* a hit may still be reading it */
		if (list_empty(&ev->links))
			flags &= ~PROBE_EV_EV_TRACE;
	} else {
		flags &= ~PROBE_EV_EV_PERF;
	}
	WRITE_ONCE(ev->flags, flags);
	if (!flags)
		ev->ops->disarm(ev);
	return 0;
}

/* The event of @call if it is a probe event of kind @ops, else NULL. */
static struct probe_ev_event *probe_ev_call_of_kind(struct trace_event_call *call,
					       const struct probe_ev_event_ops *ops)
{
	struct probe_ev_event *ev;

	if (call->class->fields_array != probe_ev_event_fields)
		return NULL;
	ev = probe_ev_event_of(call);
	return ev->ops == ops ? ev : NULL;
}

/*
 * Turn off every trace file that has @ev on, as if their enables had
 * failed.  The last file off disarms, as on any disable.
 */
static void probe_ev_event_drop_files(struct probe_ev_event *ev)
{
	struct probe_ev_link *link, *next;

	pr_warn("%s/%s: its probes could not be armed: event turned off\n",
		ev->class.system, trace_event_name(&ev->call));
	list_for_each_entry_safe(link, next, &ev->links, node)
		trace_event_enable_disable(link->file, 0, 0);
	/* a file a trigger holds in soft mode keeps its enable */
	if (!list_empty(&ev->links))
		pr_warn("%s/%s: left enabled in soft mode, not armed\n",
			ev->class.system, trace_event_name(&ev->call));
}

/**
 * probe_ev_drop_refused() - turn off the events whose arming failed late
 * @ops: the front end's events
 * @refused: does this event, on for trace files, have a probe that could
 *	not be armed?
 *
 * A batch of enables arms the probes of its events when it ends, after
 * the event core set their enable flags.  Where that fails, the trace
 * files of every such event are turned off again, so that none says
 * enabled with nothing armed; the writer gets the batch's error.
 *
 * Context: process, under event_mutex.
 */
void probe_ev_drop_refused(const struct probe_ev_event_ops *ops,
			   bool (*refused)(struct probe_ev_event *ev))
{
	struct trace_event_call *call;
	struct probe_ev_event *ev;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		ev = probe_ev_call_of_kind(call, ops);
		if (ev && (ev->flags & PROBE_EV_EV_TRACE) && refused(ev))
			probe_ev_event_drop_files(ev);
	}
}

/*
 * class->reg of a probe event: called by the ftrace and perf cores, in
 * process context with event_mutex held.
 */
int probe_ev_event_reg(struct trace_event_call *call, enum trace_reg type,
		  void *data)
{
	struct probe_ev_event *ev = probe_ev_event_of(call);
	bool perf = IS_ENABLED(CONFIG_PERF_EVENTS);

	switch (type) {
	case TRACE_REG_REGISTER:
		return probe_ev_event_enable(ev, data);
	case TRACE_REG_UNREGISTER:
		return probe_ev_event_disable(ev, data);
	case TRACE_REG_PERF_REGISTER:
		return perf ? probe_ev_event_enable(ev, NULL) : -EOPNOTSUPP;
	case TRACE_REG_PERF_UNREGISTER:
		return perf ? probe_ev_event_disable(ev, NULL) : -EOPNOTSUPP;
	default:	/* perf open, close, add, del */
		return ev->ops->reg_perf ? ev->ops->reg_perf(ev, type, data) : 0;
	}
}

/*
 * May a kernel probe (kprobe, fprobe) be registered now?  Not twice (a
 * bug: -EBUSY), nor under lockdown.  Under event_mutex.
 */
int probe_ev_may_register(bool registered)
{
	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(registered))
		return -EBUSY;
	return security_locked_down(LOCKDOWN_KPROBES);
}

/* ------------------------------------------------------------ parsing */

/*
 * Split @text, "[GROUP/|GROUP.][EVENT]", into @group and @event (each
 * PROBE_EV_NAME_LEN bytes; "" when absent).  The separator is the first '/',
 * else the first '.'; "GROUP/" alone is fine (a made-up event name).
 * On a fault, *@at is the byte of @text the caret goes under: where the
 * group starts, or where the event starts after a group.
 */
enum probe_ev_name_err probe_ev_split_name(const char *text, char *group, char *event,
				 int *at)
{
	const char *sep = strchr(text, '/') ?: strchr(text, '.');
	size_t len;

	*at = 0;
	group[0] = event[0] = '\0';
	if (sep) {
		len = sep - text;
		if (!len)
			return PROBE_EV_NAME_NO_GROUP;
		if (len >= PROBE_EV_NAME_LEN)
			return PROBE_EV_NAME_GROUP_TOO_LONG;
		memcpy(group, text, len);
		group[len] = '\0';
		if (!is_good_system_name(group))
			return PROBE_EV_NAME_BAD_GROUP;
		*at = len + 1;
		text = sep + 1;
	}
	len = strlen(text);
	if (!len)
		return sep ? PROBE_EV_NAME_OK : PROBE_EV_NAME_NO_EVENT;
	if (len >= PROBE_EV_NAME_LEN)
		return PROBE_EV_NAME_EVENT_TOO_LONG;
	if (!is_good_name(text))
		return PROBE_EV_NAME_BAD_EVENT;
	strscpy(event, text, PROBE_EV_NAME_LEN);
	return PROBE_EV_NAME_OK;
}

/*
 * A return probe's MAXACTIVE, the @len bytes at @text: a number (base 0)
 * from 1 to @max, written in fewer than @room bytes (at most 64).  A bad
 * one, or one above @max, is logged with the caret at byte 1 of word 0
 * of @w: -EINVAL.
 */
int probe_ev_parse_maxactive(const struct probe_ev_words *w, const char *text,
			     size_t len, size_t room, unsigned int max,
			     int *maxactive)
{
	unsigned int n, code = w->errs->maxact;
	char buf[64];

	if (len >= min(room, sizeof(buf)))
		goto out_bad;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (kstrtouint(buf, 0, &n) || !n)
		goto out_bad;
	if (n > max) {
		code++;		/* too big */
		goto out_bad;
	}
	*maxactive = n;
	return 0;

out_bad:
	probe_ev_words_error(w, 0, 1, code);
	return -EINVAL;
}

/*
 * Log why the probes core refused to register a new probe (@ret, from
 * its word 1, the place); nothing for 0 or -ENOMEM.
 */
void probe_ev_log_refusal(const struct probe_ev_words *w, int ret)
{
	switch (ret) {
	case 0:
	case -ENOMEM:
		break;
	case -EILSEQ:
		probe_ev_words_error(w, 1, 0, w->errs->insn);
		break;
	case -ENOENT:
		probe_ev_words_error(w, 1, 0, w->errs->no_addr);
		break;
	default:
		probe_ev_words_error(w, 1, 0, w->errs->refused);
		break;
	}
}

/*
 * One error_log entry under @subsys: the @argc words joined by single
 * spaces, message @texts[@code], the caret under byte @pos of word
 * @word, or just past the end (after the last blank) if there is no
 * such word.
 */
void probe_ev_log_error(const char *subsys, int argc, const char **argv,
		   int word, int pos, const char **texts, unsigned int code)
{
	unsigned int len = 0, caret = 0;
	char *cmd, *s;
	int i;

	if (!argc)
		return;
	for (i = 0; i < argc; i++) {
		if (i == word)
			caret = len + pos;
		len += strlen(argv[i]) + 1;
	}
	if (word >= argc)
		caret = len;
	cmd = kmalloc(len, GFP_KERNEL);
	if (!cmd)
		return;
	for (i = 0, s = cmd; i < argc; i++)
		s += sprintf(s, "%s%s", i ? " " : "", argv[i]);
	tracing_log_err(NULL, subsys, cmd, texts, code, caret);
	kfree(cmd);
}

/* An error_log entry for @w, message @code of its front end's table. */
void probe_ev_words_error(const struct probe_ev_words *w, int word, int pos,
			  unsigned int code)
{
	if (WARN_ON_ONCE(code >= w->errs->n))
		return;
	probe_ev_log_error(w->errs->subsys, w->argc, w->argv, word, pos,
			   w->errs->texts, code);
}

/*
 * Split @raw into words and hand them to @run with @data (also when
 * there are none); errors on them go to @errs.  @run's result, or
 * -ENOMEM.
 */
int probe_ev_words_run(const char *raw, const struct probe_ev_errors *errs,
		       int (*run)(const struct probe_ev_words *w, void *data),
		       void *data)
{
	struct probe_ev_words w = { .errs = errs };
	char **argv;
	int ret;

	argv = argv_split(GFP_KERNEL, raw, &w.argc);
	if (!argv)
		return -ENOMEM;
	w.argv = (const char **)argv;
	ret = run(&w, data);
	argv_free(argv);
	return ret;
}

/*
 * Is @set, what parg_set_parse() made of the argument words of @w (from
 * word 2), good?  A fault in an argument, @err, is logged with the front
 * end's probe_arg codes.  @scratch: the hits need the scratch pool, which
 * is made ready here (else -ENOMEM, and @set is freed).  0 or an errno.
 */
int probe_ev_args_check(const struct probe_ev_words *w, struct parg_set *set,
			const struct parg_err *err, bool scratch)
{
	if (IS_ERR(set)) {
		if (PTR_ERR(set) == -EINVAL && err->code != PARG_OK)
			probe_ev_words_error(w, err->word + 2, err->pos,
					     probe_ev_err_code(w->errs->parg,
							       err->code));
		return PTR_ERR(set);
	}
	if (scratch && probe_ev_scratch_reserve()) {
		parg_set_free(set);
		return -ENOMEM;
	}
	return 0;
}

/*
 * "[GROUP/|GROUP.][EVENT]" from byte @at of word @word into @group_buf
 * and @event_buf; *@group and *@event point to those that were given
 * and are left as they were otherwise.  A fault is logged with the codes
 * of the front end's block from @first (PROBE_EV_NAME_CODES()): -EINVAL.
 */
int probe_ev_words_name(const struct probe_ev_words *w, int word, int at,
			unsigned int first, char *group_buf, char *event_buf,
			const char **group, const char **event)
{
	enum probe_ev_name_err err;
	int bad;

	err = probe_ev_split_name(w->argv[word] + at, group_buf, event_buf, &bad);
	if (err) {
		probe_ev_words_error(w, word, at + bad,
				     probe_ev_err_code(first, err));
		return -EINVAL;
	}
	if (group_buf[0])
		*group = group_buf;
	if (event_buf[0])
		*event = event_buf;
	return 0;
}

/* --------------------------------------------- the probes of a kind */

/*
 * The dyn_event of kind @dyn_ops after @dev on the dyn_event list (the
 * first one when @dev is NULL), or NULL.  Under event_mutex.
 */
struct dyn_event *probe_ev_dyn_after(const struct dyn_event_operations *dyn_ops,
				struct dyn_event *dev)
{
	struct list_head *node = dev ? &dev->list : &dyn_event_list;

	for (node = node->next; node != &dyn_event_list; node = node->next) {
		dev = list_entry(node, struct dyn_event, list);
		if (dev->ops == dyn_ops)
			return dev;
	}
	return NULL;
}

/* Is @ev named @group/@name?  An empty @name: any in @group; NULL @group: any. */
bool probe_ev_event_named(struct probe_ev_event *ev, const char *group,
		     const char *name)
{
	if (name[0] && strcmp(trace_event_name(&ev->call), name))
		return false;
	return !group || !strcmp(ev->class.system, group);
}

/*
 * A "-:" delete's match of a probe of @ev with the arguments @args: @ev
 * is named @system/@event (probe_ev_event_named()), and the @argc words
 * after the name, if any, repeat the listing from its place on.  The
 * place word, argv[0], is the front end's to check.
 */
bool probe_ev_dyn_match(struct probe_ev_event *ev, const char *system,
			const char *event, int argc, const char **argv,
			const struct parg_set *args)
{
	if (!probe_ev_event_named(ev, system, event))
		return false;
	return !argc || parg_set_match_words(args, argc - 1, argv + 1);
}

/* Is a probe of kind @dyn_ops in use (its ->is_busy)?  Under event_mutex. */
bool probe_ev_any_busy(const struct dyn_event_operations *dyn_ops)
{
	struct dyn_event *dev = NULL;

	while ((dev = probe_ev_dyn_after(dyn_ops, dev)))
		if (dyn_ops->is_busy(dev))
			return true;
	return false;
}

/*
 * The published event of kind @ops named @group/@name, or NULL.  Under
 * event_mutex.
 */
struct probe_ev_event *probe_ev_find_event(const struct probe_ev_event_ops *ops,
				 const char *group, const char *name)
{
	struct trace_event_call *call;
	struct probe_ev_event *ev;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		ev = probe_ev_call_of_kind(call, ops);
		if (ev && !strcmp(ev->class.system, group) &&
		    !strcmp(trace_event_name(call), name))
			return ev;
	}
	return NULL;
}

/* ------------------------------------------------------------ modules */

/* @pm's handler of @mod in @state, if it is the one @nb waits for. */
static int probe_ev_module_notify(struct probe_ev_modules *pm,
				  struct notifier_block *nb,
				  unsigned long state, struct module *mod)
{
	bool coming = nb == &pm->coming_nb;

	if (state != (coming ? MODULE_STATE_COMING : MODULE_STATE_GOING) ||
	    (pm->wants && !pm->wants(mod)))
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	(coming ? pm->coming : pm->going)(mod);
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static int probe_ev_module_comes(struct notifier_block *nb,
				 unsigned long state, void *mod)
{
	return probe_ev_module_notify(container_of(nb, struct probe_ev_modules,
						   coming_nb), nb, state, mod);
}

static int probe_ev_module_goes(struct notifier_block *nb,
				unsigned long state, void *mod)
{
	return probe_ev_module_notify(container_of(nb, struct probe_ev_modules,
						   going_nb), nb, state, mod);
}

/*
 * Run @pm's handlers for the modules that come and go from now on
 * (notifiers run by decreasing priority: see struct probe_ev_modules).
 */
int probe_ev_watch_modules(struct probe_ev_modules *pm)
{
	pm->coming_nb.notifier_call = probe_ev_module_comes;
	pm->coming_nb.priority = -1;
	pm->going_nb.notifier_call = probe_ev_module_goes;
	pm->going_nb.priority = 2;
	return register_module_notifier(&pm->coming_nb) ?:
	       register_module_notifier(&pm->going_nb);
}

/* --------------------------------------------------------- stat files */

/*
 * The sum over every possible CPU of a per-CPU count: the unsigned long
 * at byte @offset of @counts (offsetof() a field of the front end's
 * per-CPU counts).  Read while hits add to it: a moment's value.
 */
unsigned long probe_ev_count_sum(const void __percpu *counts, size_t offset)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(*(const unsigned long *)
			       (per_cpu_ptr(counts, cpu) + offset));
	return n;
}

/* "  GROUP/EVENT", the pair left-justified in 44 columns (at least one). */
void probe_ev_seq_event_name(struct seq_file *m, struct trace_event_call *call)
{
	const char *group = call->class->system;
	int width = 43 - (int)strlen(group);

	seq_printf(m, "  %s/%-*s", group, max(width, 1),
		   trace_event_name(call));
}

/* "KIND[MAXACTIVE]:GROUP/EVENT ", a definition's head as listed. */
void probe_ev_show_head(struct seq_file *m, char kind, int maxactive,
		   struct probe_ev_event *ev)
{
	seq_putc(m, kind);
	if (maxactive)
		seq_printf(m, "%d", maxactive);
	seq_printf(m, ":%s/%s ", ev->class.system, trace_event_name(&ev->call));
}

/* " NAME=TEXT..." and the end of a definition's line. */
void probe_ev_show_args(struct seq_file *m, const struct parg_set *args)
{
	parg_set_show(args, m);
	seq_putc(m, '\n');
	parg_set_show_dump(args, m);
}

/*
 * Every dynamic event, after the list head when the file has a header
 * line; event_mutex is held until dyn_event_seq_stop().
 */
static void *probe_ev_file_start(struct seq_file *m, loff_t *pos)
{
	const struct probe_ev_file *f = m->private;

	mutex_lock(&event_mutex);
	return f->header ? seq_list_start_head(&dyn_event_list, *pos) :
			   seq_list_start(&dyn_event_list, *pos);
}

static int probe_ev_file_show(struct seq_file *m, void *v)
{
	const struct probe_ev_file *f = m->private;
	struct dyn_event *dev = v;

	if (v == &dyn_event_list)
		return f->show(m, NULL);
	return dev->ops == f->dyn_ops ? f->show(m, dev) : 0;
}

static const struct seq_operations probe_ev_file_seq_ops = {
	.start = probe_ev_file_start,	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,	.show = probe_ev_file_show,
};

static int probe_ev_file_open(struct inode *inode, struct file *file)
{
	const struct probe_ev_file *f = inode->i_private;
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	if (ret)
		return ret;
	if (f->remove_all && (file->f_mode & FMODE_WRITE) &&
	    (file->f_flags & O_TRUNC)) {
		ret = f->remove_all();
		if (ret)
			return ret;
	}
	ret = seq_open(file, &probe_ev_file_seq_ops);
	if (!ret)
		((struct seq_file *)file->private_data)->private = (void *)f;
	return ret;
}

static ssize_t probe_ev_file_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	const struct probe_ev_file *f = file_inode(file)->i_private;

	return trace_parse_run_command(file, buf, count, ppos, f->run_command);
}

static const struct file_operations probe_ev_stats_fops = {
	.owner = THIS_MODULE,
	.open = probe_ev_file_open,		.release = seq_release,
	.read = seq_read,		.llseek = seq_lseek,
};

static const struct file_operations probe_ev_defs_fops = {
	.owner = THIS_MODULE,
	.open = probe_ev_file_open,		.release = seq_release,
	.read = seq_read,		.llseek = seq_lseek,
	.write = probe_ev_file_write,
};

/*
 * Make the @n files of @files in the tracing directory, if there is one:
 * a definitions file (with @run_command) is writable, the others are
 * read-only.
 */
void probe_ev_create_files(const struct probe_ev_file *files, unsigned int n)
{
	const struct probe_ev_file *f;

	if (tracing_init_dentry())
		return;
	for (f = files; f < files + n; f++)
		trace_create_file(f->name, f->run_command ? TRACE_MODE_WRITE :
				  TRACE_MODE_READ, NULL, (void *)f,
				  f->run_command ? &probe_ev_defs_fops :
				  &probe_ev_stats_fops);
}
