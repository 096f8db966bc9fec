/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_eprobe_internal.h - what the files of the event probe layer
 * share: its objects and the calls between them.  trace_eprobe.c has the
 * design note.
 *
 *   trace_eprobe.c         dynamic_events (show, match, delete),
 *                          eprobe_profile, init
 *   trace_eprobe_parse.c   a definition line to a published event,
 *                          error_log (trace_eprobe_errors.h)
 *   trace_eprobe_event.c   the event: enable/disable in an instance (the
 *                          trigger on the attached event), its output,
 *                          its fields, alloc and free
 *   trace_eprobe_hit.c     the trigger that writes the records
 *
 * Nothing here is seen outside kernel/trace/trace_eprobe*.c.
 */
#ifndef _KERNEL_TRACE_TRACE_EPROBE_INTERNAL_H
#define _KERNEL_TRACE_TRACE_EPROBE_INTERNAL_H

#include <linux/list.h>
#include <linux/percpu.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_arg.h"
#include "probe_event.h"

#define TEP_DEFAULT_GROUP	"eprobes"
#define TEP_NAME_LEN		MAX_EVENT_NAME_LEN
#define TEP_HEAD		sizeof(struct trace_entry)

/*
 * Errors of the layer itself (trace_eprobe_errors.h).  The error_log
 * table is that list followed by the argument library's
 * probe_arg_errors.h; pev_err_code(TEP_ERR_PARG_FIRST, code) maps a
 * library code into it.
 */
#define TEP_ERROR(code, msg)	TEP_ERR_##code,
enum tep_err_code {
#include "trace_eprobe_errors.h"
	TEP_ERR_PARG_FIRST	/* PARG code c is TEP_ERR_PARG_FIRST + c - 1 */
};
#undef TEP_ERROR

/* The words of one definition, as error_log shows them. */
struct tep_parse {
	int argc;
	const char **argv;
};

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

extern struct dyn_event_operations tep_dyn_ops;

static inline struct tep_event *tep_of_devent(struct dyn_event *dev)
{
	return container_of(dev, struct tep_event, devent);
}

static inline struct tep_event *tep_of_call(struct trace_event_call *call)
{
	return container_of(call, struct tep_event, call);
}

/* trace_eprobe_parse.c */
int tep_create(const char *raw);

/* trace_eprobe_event.c */
struct tep_event *tep_event_alloc(const char *group, const char *name);
void tep_event_free(struct tep_event *ev);

/* trace_eprobe_hit.c: the trigger command of an enabled eprobe */
extern struct event_command tep_trigger_cmd;

#endif /* _KERNEL_TRACE_TRACE_EPROBE_INTERNAL_H */
