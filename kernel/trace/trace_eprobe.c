// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: eprobe events: dynamic_events, eprobe_profile and init
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
 * Files.  trace_eprobe_internal.h lists them: this one (dynamic_events,
 * eprobe_profile), trace_eprobe_parse.c (definitions, error_log),
 * trace_eprobe_event.c (enable, disable, output), trace_eprobe_hit.c
 * (the trigger).
 *
 * Objects.  One struct epev_event per definition: the trace_event_call,
 * the compiled arguments, a reference on the attached event (so that it
 * cannot go while an eprobe reads it) and the list of its enabled files.
 * Each enabled file has a struct epev_link that embeds the trigger.
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
 * marks the link unhooked, and epev_disable() frees it after a grace
 * period.  A trigger freed there may disable an eprobe whose link is on
 * the same list, which is why that loop takes the list's head each time
 * (patches/0025).
 */
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracefs.h>

#include "trace_eprobe_internal.h"

/* "e:GROUP/EVENT SYS.EVENT NAME=TEXT..." (the filter is not shown) */
static int epev_show(struct seq_file *m, struct dyn_event *dev)
{
	struct epev_event *ev = epev_of_devent(dev);

	seq_printf(m, "e:%s/%s %s.%s", ev->class.system, ev->call.name,
		   ev->target_sys, ev->target_name);
	probe_ev_show_args(m, ev->args);
	return 0;
}

static bool epev_busy(struct dyn_event *dev)
{
	struct epev_event *ev = epev_of_devent(dev);

	/* what epev_free() refuses, so that a truncation frees all or none */
	return !list_empty(&ev->links) || trace_event_dyn_busy(&ev->call);
}

/* Delete one eprobe (event_mutex held).  -EBUSY while it is on or open. */
static int epev_free(struct dyn_event *dev)
{
	struct epev_event *ev = epev_of_devent(dev);
	int ret;

	if (!list_empty(&ev->links) || trace_event_dyn_busy(&ev->call))
		return -EBUSY;
	ret = trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	dyn_event_remove(dev);
	epev_event_free(ev);
	return 0;
}

/*
 * "-:[GROUP/]EVENT [SYS.EVENT [ARGS...]]": the attached event, if given,
 * as SYS.EVENT or SYS/EVENT, then the first arguments as listed.
 */
static bool epev_match(const char *system, const char *event, int argc,
		      const char **argv, struct dyn_event *dev)
{
	struct epev_event *ev = epev_of_devent(dev);
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

struct dyn_event_operations epev_dyn_ops = {
	.create = epev_create,
	.show = epev_show,
	.is_busy = epev_busy,
	.free = epev_free,
	.match = epev_match,
};

/* "  GROUP/EVENT  hits  dropped" per eprobe. */
static int epev_profile_show(struct seq_file *m, struct dyn_event *dev)
{
	struct epev_event *ev = epev_of_devent(dev);

	probe_ev_seq_event_name(m, &ev->call);
	seq_printf(m, " %15lu %15lu\n",
		   probe_ev_count_sum(ev->counts, offsetof(struct epev_counts, hits)),
		   probe_ev_count_sum(ev->counts,
				 offsetof(struct epev_counts, dropped)));
	return 0;
}

static const struct probe_ev_file epev_files[] = {
	{ .name = "eprobe_profile", .dyn_ops = &epev_dyn_ops,
	  .show = epev_profile_show },
};

/* Early, so that boot-time definitions can use eprobes before tracefs. */
static __init int epev_init(void)
{
	return dyn_event_register(&epev_dyn_ops);
}
core_initcall(epev_init);

probe_ev_files_initcall(epev_files);
