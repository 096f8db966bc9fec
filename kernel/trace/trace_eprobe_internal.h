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

#define EPEV_DEFAULT_GROUP	"eprobes"
#define EPEV_NAME_LEN		MAX_EVENT_NAME_LEN
#define EPEV_HEAD		sizeof(struct trace_entry)

/*
 * Errors of the layer itself (trace_eprobe_errors.h).  The error_log
 * table is that list followed by the argument library's
 * probe_arg_errors.h; probe_ev_err_code(EPEV_ERR_PARG_FIRST, code) maps a
 * library code into it.
 */
#define EPEV_ERROR(code, msg)	EPEV_ERR_##code,
enum epev_err_code {
#include "trace_eprobe_errors.h"
	EPEV_ERR_PARG_FIRST	/* PARG code c is EPEV_ERR_PARG_FIRST + c - 1 */
};
#undef EPEV_ERROR

/* What the hits of one event came to, per CPU. */
struct epev_counts {
	unsigned long hits;
	unsigned long dropped;	/* records the ring buffer refused */
};

struct epev_event {
	struct trace_event_call call;
	struct trace_event_class class;
	struct dyn_event devent;
	/* read by the hit path; fixed while the event exists */
	struct parg_set *args;
	unsigned int rec_size;		/* head + fixed block */
	bool dynamic;			/* strings follow the fixed block */
	struct epev_counts __percpu *counts;
	/*
	 * The attached event, referenced (it cannot go while we exist), and
	 * its names, kept for listing and for finding it in an instance.
	 */
	struct trace_event_call *target;
	char *target_sys;
	char *target_name;
	char *filter;			/* the words after "if", or NULL */
	struct list_head links;		/* struct epev_link; event_mutex */
};

/* The eprobe is on in @file: a trigger on @target, @file's instance's. */
struct epev_link {
	struct event_trigger_data trigger;
	struct epev_event *ev;
	struct probe_ev_link pl;	/* @file, in ev->links (event_mutex) */
	struct trace_event_file *target;
	bool hooked;			/* on @target's trigger list */
};

extern struct dyn_event_operations epev_dyn_ops;

static inline struct epev_event *epev_of_devent(struct dyn_event *dev)
{
	return container_of(dev, struct epev_event, devent);
}

static inline struct epev_event *epev_of_call(struct trace_event_call *call)
{
	return container_of(call, struct epev_event, call);
}

/* trace_eprobe_parse.c */
int epev_create(const char *raw);

/* trace_eprobe_event.c */
struct epev_event *epev_event_alloc(const char *group, const char *name);
void epev_event_free(struct epev_event *ev);

/* trace_eprobe_hit.c: the trigger command of an enabled eprobe */
extern struct event_command epev_trigger_cmd;

#endif /* _KERNEL_TRACE_TRACE_EPROBE_INTERNAL_H */
