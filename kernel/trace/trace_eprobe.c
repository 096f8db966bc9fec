// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: Design notes
 *
 * trace_eprobe.c - event probes: an event made of the fields of another::
 *
 *   e[:[GROUP/][EVENT]] SYS.EVENT|SYS/EVENT [ARGS] [if FILTER]
 *
 * written to dynamic_events defines events/GROUP/EVENT (default group
 * "eprobes", default name the attached event's), whose records hold ARGS
 * fetched from each record of the attached event SYS/EVENT: $FIELD is a
 * field of that record, +OFFS($FIELD) a dereference of it, and so on, as
 * the argument library (probe_arg.h, caps.event) compiles them.  An eprobe may sit
 * on any event but kprobe, uprobe and event probe events, and on events
 * the ftrace core does not let users enable.
 *
 * Mechanism.  Enabling an eprobe in a trace instance hangs a trigger on
 * the attached event's file of that instance and turns on its trigger
 * mode: the attached event then builds its record (in the instance's
 * buffer, or only in the per-CPU scratch event if it is not enabled
 * itself), runs its triggers on it, and ours writes the eprobe's record
 * from it.  FILTER, compiled against the attached event, is the trigger's
 * filter, so the trigger core drops what does not match before we run.
 *
 * Objects.  One struct tep_event per definition: the trace_event_call,
 * the compiled arguments, a reference on the attached event (so that it
 * cannot go while an eprobe reads it) and the list of its enabled files.
 * Each enabled file has a struct tep_link that embeds the trigger.
 *
 * Locking.  Definitions are parsed under dyn_event_ops_mutex; events are
 * added, removed, enabled and disabled under event_mutex.  The hit path
 * runs inside the attached event's commit, with preemption off, and
 * takes no lock: its link lives until a tracepoint grace period after
 * the trigger left the attached event's list.
 *
 * Counting.  eprobe_profile shows, per eprobe, its hits (attached records
 * that passed the "if" filter while the eprobe was on in some instance)
 * and the drops among them: a record the ring buffer refused while the
 * instance was recording, or a hit nested deeper than the scratch levels.
 * A record the eprobe's own event filter discards is neither.  A hit is
 * one trigger run, in one instance, with one record to write: it counts
 * one drop at most, however many instances the eprobe is enabled in.
 *
 * Instances.  Removing an instance frees the triggers of its events
 * (clear_event_triggers()) before it disables its events: our .free only
 * marks the link unhooked, and tep_disable() frees it after a grace
 * period.  A trigger freed there may disable an eprobe whose link is on
 * the same list, which is why that loop takes the list's head each time
 * (patches/0025).
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_output.h"
#include "probe_arg.h"
#include "probe_event.h"

#define TEP_DEFAULT_GROUP	"eprobes"
#define TEP_NAME_LEN		MAX_EVENT_NAME_LEN
#define TEP_HEAD		sizeof(struct trace_entry)
/* one record of the default ring buffer fits; one per context level */
#define TEP_SCRATCH_SIZE	PAGE_SIZE
#define TEP_SCRATCH_LEVELS	4

/* ------------------------------------------------------------ errors */

/*
 * error_log entries under "event_probe": our codes, then the fetch
 * library's (probe_arg_errors.h), in one table.
 */
#define TEP_ERRORS							\
	E(BAD_CMD,		"Expected e[:[GROUP/][EVENT]]")		\
	E(NO_GROUP_NAME,	"Group name is empty")			\
	E(GROUP_TOO_LONG,	"Group name is too long")		\
	E(BAD_GROUP_NAME,	"Group name must be a C identifier")	\
	E(NO_EVENT_NAME,	"Event name is empty")			\
	E(EVENT_TOO_LONG,	"Event name is too long")		\
	E(BAD_EVENT_NAME,	"Event name must be a C identifier")	\
	E(NO_EVENT_INFO,	"Expected the attached event as SYSTEM.EVENT") \
	E(BAD_ATTACH_EVENT,	"No such event to attach to (or not one an eprobe can use)") \
	E(NO_EP_FILTER,		"Expected a filter after 'if'")		\
	E(EVENT_EXIST,		"Another event already has this group/name") \
	E(NO_SYMBOL,		"No such kernel symbol")

#define E(code, msg)	TEP_ERR_##code,
enum tep_err_code {
	TEP_ERRORS
	TEP_ERR_PARG_FIRST	/* PARG code c is TEP_ERR_PARG_FIRST + c - 1 */
};
#undef E

#define E(code, msg)		msg,
#define PARG_ERROR(code, msg)	msg,
static const char *tep_err_text[] = {
	TEP_ERRORS
#include "probe_arg_errors.h"
};
#undef PARG_ERROR
#undef E

/* The words of one definition, as error_log shows them. */
struct tep_parse {
	int argc;
	const char **argv;
};

/* One entry: the words joined by spaces, the caret at @pos of @word. */
static void tep_error(const struct tep_parse *p, int word, int pos,
		      unsigned int code)
{
	if (WARN_ON_ONCE(code >= ARRAY_SIZE(tep_err_text)))
		return;
	pev_log_error("event_probe", p->argc, p->argv, word, pos,
		      tep_err_text, code);
}

/* ------------------------------------------------------------ objects */

/* What the hits of one event came to, per CPU. */
struct tep_counts {
	unsigned long hits;
	unsigned long dropped;	/* records the ring buffer refused */
};

struct tep_event {
	struct trace_event_call call;
	struct trace_event_class class;
	struct dyn_event devent;
	/* read by the hit path; fixed while the event exists */
	struct parg_set *args;
	unsigned int rec_size;		/* head + fixed block */
	bool dynamic;			/* strings follow the fixed block */
	struct tep_counts __percpu *counts;
	/*
	 * The attached event, referenced (it cannot go while we exist), and
	 * its names, kept for listing and for finding it in an instance.
	 */
	struct trace_event_call *target;
	char *target_sys;
	char *target_name;
	char *filter;			/* the words after "if", or NULL */
	struct list_head links;		/* struct tep_link; event_mutex */
};

/* The eprobe is on in @file: a trigger on @target, @file's instance's. */
struct tep_link {
	struct event_trigger_data trigger;
	struct tep_event *ev;
	struct trace_event_file *file;
	struct trace_event_file *target;
	bool hooked;			/* on @target's trigger list */
	struct list_head node;		/* in ev->links */
};

static struct dyn_event_operations tep_dyn_ops;

static struct tep_event *tep_of_devent(struct dyn_event *dev)
{
	return container_of(dev, struct tep_event, devent);
}

static struct tep_event *tep_of_call(struct trace_event_call *call)
{
	return container_of(call, struct tep_event, call);
}

/* ----------------------------------------------------------- hit path */

static char __percpu *tep_scratch;
static DEFINE_PER_CPU(unsigned int, tep_nesting);
static DEFINE_MUTEX(tep_scratch_lock);

/* The scratch for strings exists once any eprobe with strings is on. */
static int tep_scratch_reserve(void)
{
	char __percpu *buf;

	guard(mutex)(&tep_scratch_lock);
	if (tep_scratch)
		return 0;
	buf = __alloc_percpu(TEP_SCRATCH_SIZE * TEP_SCRATCH_LEVELS,
			     sizeof(u64));
	if (!buf)
		return -ENOMEM;
	WRITE_ONCE(tep_scratch, buf);
	return 0;
}

/*
 * A scratch of this CPU for one hit, or NULL.  Hits nest: an interrupt,
 * or an event a fetch fires (a page fault's), may run an eprobe between
 * our fetch and our copy; each level has a scratch of its own, and a hit
 * nested deeper than TEP_SCRATCH_LEVELS is dropped (and counted).
 * Preemption is off: the attached event's record is reserved.
 */
static __always_inline void *tep_scratch_get(void)
{
	unsigned int level = __this_cpu_inc_return(tep_nesting) - 1;

	if (unlikely(level >= TEP_SCRATCH_LEVELS))
		return NULL;
	barrier();
	return this_cpu_ptr(tep_scratch) + level * TEP_SCRATCH_SIZE;
}

static __always_inline void tep_scratch_put(void)
{
	barrier();
	__this_cpu_dec(tep_nesting);
}

/*
 * A record the buffer refused: a drop, unless the instance does not
 * record now (tracing off or paused, a CPU or task it does not trace).
 */
static noinline void tep_refused(struct tep_event *ev,
				 struct trace_event_file *file)
{
	if (pev_record_wanted(file))
		this_cpu_inc(ev->counts->dropped);
}

/* The room a hit may fill in @file's buffer, strings included. */
static __always_inline unsigned int tep_room(struct trace_event_file *file)
{
	return min_t(unsigned long, TEP_SCRATCH_SIZE,
		     ring_buffer_max_event_size(file->tr->array_buffer.buffer));
}

/* Any file: the record of one hit through trace_event_buffer_*(). */
static __always_inline void tep_write_generic(struct tep_event *ev,
					      struct trace_event_file *file,
					      void *rec, void *scratch)
{
	struct trace_event_buffer fb;
	unsigned int size = ev->rec_size;
	void *ent;

	if (scratch)
		size = parg_set_fetch(ev->args, NULL, rec, scratch, TEP_HEAD,
				      tep_room(file));
	ent = trace_event_buffer_reserve(&fb, file, size);
	if (unlikely(!ent)) {
		tep_refused(ev, file);
		return;
	}
	if (scratch)
		pev_copy_rec(ent + TEP_HEAD, scratch + TEP_HEAD, size - TEP_HEAD);
	else
		parg_set_fetch(ev->args, NULL, rec, ent, TEP_HEAD, size);
	trace_event_buffer_commit(&fb);
}

/*
 * A plain file (no PEV_FILE_GENERIC state, no event filter, no commit
 * hooks): reserve in the ring buffer, fill in place, commit.  The head
 * gets the context trace_event_buffer_reserve() would give it.
 */
static __always_inline void tep_write_plain(struct tep_event *ev,
					    struct trace_event_file *file,
					    void *rec, void *scratch)
{
	struct trace_array *tr = file->tr;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	unsigned int size = ev->rec_size;
	struct ring_buffer_event *rbe;
	void *ent;

	if (scratch)
		size = parg_set_fetch(ev->args, NULL, rec, scratch, TEP_HEAD,
				      tep_room(file));
	rbe = ring_buffer_lock_reserve(buffer, size);
	if (unlikely(!rbe)) {
		tep_refused(ev, file);
		return;
	}
	ent = ring_buffer_event_data(rbe);
	tracing_generic_entry_update(ent, ev->call.event.type, trace_ctx);
	if (scratch)
		pev_copy_rec(ent + TEP_HEAD, scratch + TEP_HEAD, size - TEP_HEAD);
	else
		parg_set_fetch(ev->args, NULL, rec, ent, TEP_HEAD, size);
	trace_buffer_unlock_commit_regs(tr, buffer, rbe, trace_ctx, NULL);
}

static __always_inline void tep_write(struct tep_event *ev,
				      struct trace_event_file *file,
				      void *rec, void *scratch, bool plain)
{
	if (plain)
		tep_write_plain(ev, file, rec, scratch);
	else
		tep_write_generic(ev, file, rec, scratch);
}

/*
 * The trigger: @rec is the attached event's record, about to be committed
 * (or discarded if that event is only soft-enabled).  A file in none of
 * the PEV_FILE_GENERIC states cannot be soft disabled.
 */
static void tep_hit(struct event_trigger_data *data, struct trace_buffer *buffer,
		    void *rec, struct ring_buffer_event *rbe)
{
	struct tep_link *link = container_of(data, struct tep_link, trigger);
	struct trace_event_file *file = link->file;
	unsigned long eflags = READ_ONCE(file->flags);
	struct tep_event *ev = link->ev;
	void *scratch;
	bool plain;

	if (unlikely(!rec))
		return;
	if (unlikely(eflags & PEV_FILE_GENERIC) &&
	    trace_trigger_soft_disabled(file))
		return;
	this_cpu_inc(ev->counts->hits);
	plain = !(eflags & (PEV_FILE_GENERIC | EVENT_FILE_FL_FILTERED)) &&
		!pev_commit_hooks_on();
	if (!ev->dynamic) {
		tep_write(ev, file, rec, NULL, plain);
		return;
	}
	scratch = tep_scratch_get();
	if (likely(scratch))
		tep_write(ev, file, rec, scratch, plain);
	else
		this_cpu_inc(ev->counts->dropped);
	tep_scratch_put();
}

/*
 * The trigger core frees the triggers of an instance that is going away
 * (it has unhooked ours already, and a hit may still be running): leave
 * the link to tep_disable(), after a grace period.
 */
static void tep_trigger_free(struct event_trigger_data *data)
{
	struct tep_link *link = container_of(data, struct tep_link, trigger);

	link->hooked = false;
}

static int tep_trigger_print(struct seq_file *m, struct event_trigger_data *data)
{
	return 0;	/* EVENT_TRIGGER_FL_PROBE: the trigger file hides it */
}

static struct event_command tep_trigger_cmd = {
	.name		= "eprobe",
	.trigger_type	= ETT_EVENT_EPROBE,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.trigger	= tep_hit,
	.print		= tep_trigger_print,
	.free		= tep_trigger_free,
};

/* ------------------------------------------------------------- on/off */

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
		ret = tep_scratch_reserve();
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

/* ------------------------------------------------------------ the event */

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
static void tep_event_free(struct tep_event *ev)
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

static struct tep_event *tep_event_alloc(const char *group, const char *name)
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

/* ------------------------------------------------------------- parsing */

/* A definition up to its arguments; the strings point into the buffers. */
struct tep_def {
	const char *group;
	const char *event;		/* NULL: the attached event's name */
	char group_buf[TEP_NAME_LEN];
	char event_buf[TEP_NAME_LEN];
	char sys[TEP_NAME_LEN];		/* the attached event */
	char name[TEP_NAME_LEN];
	int nargs;			/* argument words, from word 2 */
	char *filter;			/* joined words after "if", or NULL */
};

/* Word 0, "e[...][:NAME]", and word 1, "SYS.EVENT" or "SYS/EVENT". */
static int tep_parse_names(const struct tep_parse *p, struct tep_def *def)
{
	const char *colon = strchr(p->argv[0], ':');
	enum pev_name_err err;
	int bad;

	static_assert(TEP_ERR_BAD_EVENT_NAME - TEP_ERR_NO_GROUP_NAME ==
		      PEV_NAME_BAD_EVENT - PEV_NAME_NO_GROUP);
	def->group = TEP_DEFAULT_GROUP;
	if (colon) {
		err = pev_split_name(colon + 1, def->group_buf, def->event_buf,
				     &bad);
		if (err) {
			tep_error(p, 0, colon + 1 - p->argv[0] + bad,
				  pev_err_code(TEP_ERR_NO_GROUP_NAME, err));
			return -EINVAL;
		}
		if (def->group_buf[0])
			def->group = def->group_buf;
		if (def->event_buf[0])
			def->event = def->event_buf;
	}
	err = pev_split_name(p->argv[1], def->sys, def->name, &bad);
	if (err || !def->sys[0] || !def->name[0]) {
		tep_error(p, 1, 0, TEP_ERR_NO_EVENT_INFO);
		return -EINVAL;
	}
	return 0;
}

/* "ARGS... if FILTER...": count the arguments, join the filter. */
static int tep_parse_filter(const struct tep_parse *p, struct tep_def *def)
{
	size_t len = 0;
	char *s;
	int i;

	for (i = 2; i < p->argc && strcmp(p->argv[i], "if"); i++)
		;
	def->nargs = i - 2;
	if (i == p->argc)
		return 0;
	if (i + 1 == p->argc) {
		tep_error(p, p->argc, 0, TEP_ERR_NO_EP_FILTER);
		return -EINVAL;
	}
	for (i++; i < p->argc; i++)
		len += strlen(p->argv[i]) + 1;
	def->filter = s = kmalloc(len, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	for (i = def->nargs + 3; i < p->argc; i++)
		s += sprintf(s, "%s%s", s == def->filter ? "" : " ", p->argv[i]);
	return 0;
}

#ifdef CONFIG_MODULES
static bool tep_module_live(struct module *mod)
{
	return module_is_live(mod);
}
#else
static bool tep_module_live(struct module *mod)
{
	return true;	/* no module events without modules */
}
#endif

/*
 * The event SYS/NAME an eprobe may attach to, with a reference taken, or
 * NULL.  Not kprobe, uprobe or event probe events, nor events users
 * cannot enable; not user events either, which their process may delete
 * whatever holds them, nor the events of a module that is not live (its
 * init may still fail, and free them).  Under event_mutex.
 */
static struct trace_event_call *tep_get_target(const char *sys,
					       const char *name)
{
	const unsigned int refused = TRACE_EVENT_FL_IGNORE_ENABLE |
		TRACE_EVENT_FL_KPROBE | TRACE_EVENT_FL_UPROBE |
		TRACE_EVENT_FL_EPROBE;
	struct trace_event_call *call;
	const char *n;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		if (call->flags & refused)
			continue;
		n = trace_event_name(call);
		if (!n || !call->class->system || strcmp(n, name) ||
		    strcmp(call->class->system, sys))
			continue;
		/* user events have no flag: their groups are user_events* */
		if (str_has_prefix(sys, "user_events") ||
		    (call->module && !tep_module_live(call->module)))
			return NULL;
		return trace_event_try_get_ref(call) ? call : NULL;
	}
	return NULL;
}

/* The filter must compile against the attached event (error_log says why). */
static int tep_check_filter(struct tep_event *ev)
{
	struct event_filter *filter = NULL;
	int ret;

	if (!ev->filter)
		return 0;
	ret = create_event_filter(top_trace_array(), ev->target, ev->filter,
				  true, &filter);
	free_event_filter(filter);
	return ret ? -EINVAL : 0;
}

/*
 * The word of the first @SYM among the @nargs arguments that names no
 * kernel symbol, and in *@pos the byte where its name starts; the first
 * argument, at its start, when none is found.
 */
static int tep_bad_symbol(const struct tep_parse *p, int nargs, int *pos)
{
	char name[KSYM_NAME_LEN];
	const char *at;
	size_t len;
	int i;

	for (i = 2; i < 2 + nargs; i++) {
		for (at = strchr(p->argv[i], '@'); at; at = strchr(at + 1, '@')) {
			/* @ADDR and a bitfield's b4@3/32 are no symbols */
			if (!isalpha(at[1]) && at[1] != '_')
				continue;
			len = strcspn(at + 1, "+-:)");
			if (len < sizeof(name)) {
				memcpy(name, at + 1, len);
				name[len] = '\0';
				if (kallsyms_lookup_name(name))
					continue;
			}
			*pos = at + 1 - p->argv[i];
			return i;
		}
	}
	*pos = 0;
	return 2;
}

/* Compile the arguments; an error is logged at its word and byte. */
static int tep_parse_args(const struct tep_parse *p, struct tep_def *def,
			  struct tep_event *ev)
{
	struct parg_caps caps = { .event = ev->target };
	struct parg_err err = {};
	struct parg_set *set;
	int ret;

	set = parg_set_parse(&caps, def->nargs, p->argv + 2, &err);
	if (IS_ERR(set)) {
		if (err.code)
			tep_error(p, err.word + 2, err.pos,
				  pev_err_code(TEP_ERR_PARG_FIRST, err.code));
		return PTR_ERR(set);
	}
	ev->args = set;
	ret = parg_set_resolve(set);
	if (ret) {
		int word, pos;

		word = tep_bad_symbol(p, def->nargs, &pos);
		tep_error(p, word, pos, TEP_ERR_NO_SYMBOL);
		return ret;
	}
	ev->dynamic = parg_set_is_dynamic(set);
	ev->rec_size = TEP_HEAD + parg_set_size(set);
	return pev_call_set_print_fmt(&ev->call, ev->args, PEV_HEAD_NONE);
}

/* Publish @ev: events/GROUP/EVENT and a line in dynamic_events. */
static int tep_publish(const struct tep_parse *p, struct tep_event *ev)
{
	int ret = pev_call_publish(&ev->call);

	if (ret == -EEXIST)
		tep_error(p, 0, 0, TEP_ERR_EVENT_EXIST);
	if (!ret)
		dyn_event_add(&ev->devent, &ev->call);
	return ret;
}

static int tep_create_parsed(const struct tep_parse *p, struct tep_def *def)
{
	struct tep_event *ev;
	int ret;

	ev = tep_event_alloc(def->group, def->event ?: def->name);
	if (!ev)
		return -ENOMEM;
	ev->filter = def->filter;
	def->filter = NULL;
	ev->target_sys = kstrdup(def->sys, GFP_KERNEL);
	ev->target_name = kstrdup(def->name, GFP_KERNEL);
	if (!ev->target_sys || !ev->target_name) {
		tep_event_free(ev);
		return -ENOMEM;
	}

	mutex_lock(&event_mutex);
	ev->target = tep_get_target(def->sys, def->name);
	if (!ev->target) {
		tep_error(p, 1, 0, TEP_ERR_BAD_ATTACH_EVENT);
		ret = -ENOENT;
		goto err_unlock;
	}
	ret = tep_check_filter(ev);
	if (!ret)
		ret = tep_parse_args(p, def, ev);
	if (!ret)
		ret = tep_publish(p, ev);
	if (ret)
		goto err_unlock;
	mutex_unlock(&event_mutex);
	return 0;

err_unlock:
	mutex_unlock(&event_mutex);
	tep_event_free(ev);
	return ret;
}

/*
 * dyn_event .create: a line of dynamic_events.  -ECANCELED when it is not
 * an eprobe definition, to let the next parser try.
 */
static int tep_create(const char *raw)
{
	struct tep_def def = {};
	struct tep_parse p;
	int ret;

	p.argv = (const char **)argv_split(GFP_KERNEL, raw, &p.argc);
	if (!p.argv)
		return -ENOMEM;
	ret = -ECANCELED;
	if (p.argc < 2 || p.argv[0][0] != 'e')
		goto out_free;
	ret = tep_parse_names(&p, &def);
	if (!ret)
		ret = tep_parse_filter(&p, &def);
	if (!ret && def.nargs > PARG_MAX_ARGS) {
		tep_error(&p, 2 + PARG_MAX_ARGS, 0,
			  pev_err_code(TEP_ERR_PARG_FIRST, PARG_ERR_TOO_MANY_ARGS));
		ret = -E2BIG;
	}
	if (!ret)
		ret = tep_create_parsed(&p, &def);
out_free:
	kfree(def.filter);
	argv_free((char **)p.argv);
	return ret;
}

/* ---------------------------------------------------------- dyn_event */

/* "e:GROUP/EVENT SYS.EVENT NAME=TEXT..." (the filter is not shown) */
static int tep_show(struct seq_file *m, struct dyn_event *dev)
{
	struct tep_event *ev = tep_of_devent(dev);

	seq_printf(m, "e:%s/%s %s.%s", ev->class.system, ev->call.name,
		   ev->target_sys, ev->target_name);
	parg_set_show(ev->args, m);
	seq_putc(m, '\n');
	return 0;
}

static bool tep_busy(struct dyn_event *dev)
{
	return !list_empty(&tep_of_devent(dev)->links);
}

/* Delete one eprobe (event_mutex held).  -EBUSY while it is on or open. */
static int tep_free(struct dyn_event *dev)
{
	struct tep_event *ev = tep_of_devent(dev);
	int ret;

	if (!list_empty(&ev->links) || trace_event_dyn_busy(&ev->call))
		return -EBUSY;
	ret = trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	dyn_event_remove(dev);
	tep_event_free(ev);
	return 0;
}

/*
 * "-:[GROUP/]EVENT [SYS.EVENT [ARGS...]]": the attached event, if given,
 * as SYS.EVENT or SYS/EVENT, then the first arguments as listed.
 */
static bool tep_match(const char *system, const char *event, int argc,
		      const char **argv, struct dyn_event *dev)
{
	struct tep_event *ev = tep_of_devent(dev);
	const char *sys = ev->target_sys;
	const char *name = ev->target_name;
	size_t len = strlen(sys);

	if (event[0] && strcmp(ev->call.name, event))
		return false;
	if (system && strcmp(ev->class.system, system))
		return false;
	if (argc < 1)
		return true;
	if (strncmp(argv[0], sys, len) ||
	    (argv[0][len] != '.' && argv[0][len] != '/') ||
	    strcmp(argv[0] + len + 1, name))
		return false;
	return parg_set_match_words(ev->args, argc - 1, argv + 1);
}

static struct dyn_event_operations tep_dyn_ops = {
	.create = tep_create,
	.show = tep_show,
	.is_busy = tep_busy,
	.free = tep_free,
	.match = tep_match,
};

/* -------------------------------------------------------- eprobe_profile */

/* "  GROUP/EVENT  hits  dropped" per eprobe. */
static int tep_profile_show(struct seq_file *m, struct dyn_event *dev)
{
	struct tep_event *ev = tep_of_devent(dev);

	pev_seq_event_name(m, &ev->call);
	seq_printf(m, " %15lu %15lu\n",
		   pev_count_sum(ev->counts, offsetof(struct tep_counts, hits)),
		   pev_count_sum(ev->counts,
				 offsetof(struct tep_counts, dropped)));
	return 0;
}

static const struct pev_file tep_files[] = {
	{ .name = "eprobe_profile", .dyn_ops = &tep_dyn_ops,
	  .show = tep_profile_show },
};

/* Early, so that boot-time definitions can use eprobes before tracefs. */
static __init int tep_init(void)
{
	return dyn_event_register(&tep_dyn_ops);
}
core_initcall(tep_init);

static __init int tep_init_files(void)
{
	int ret = tracing_init_dentry();

	if (ret)
		return 0;
	pev_create_files(tep_files, ARRAY_SIZE(tep_files));
	return 0;
}
fs_initcall(tep_init_files);
