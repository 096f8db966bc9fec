/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: uprobe events: what the layer's files share
 *
 * trace_uprobe_internal.h - the uprobe event layer, shared between its files.
 * Prefixes: ``upev_`` (trace uprobe: this layer), ``parg_``, ``probe_ev_`` (the layers below).
 *
 * Terms (Documentation/trace/uprobetracer.rst has the user's view)::
 *
 *   definition  one line written to uprobe_events or dynamic_events,
 *               "p:grp/name PATH:OFFS[(REFCTR)] args..." or "-:grp/name".
 *   probe       what one definition arms: a consumer on the uprobe at
 *               (inode, offset), plus the compiled fetch arguments.
 *               Struct upev_probe; one line in uprobe_events.
 *   event       events/<grp>/<name>: one trace_event_call, with one probe
 *               or more of the same argument names and types.  Struct
 *               upev_event.
 *   record      a head (trace_entry, then the hit address, or the
 *               function and return addresses) and the argument block
 *               the argument library fills.
 *
 * The files::
 *
 *   trace_uprobe.c        definitions, lifetime, dyn_event ops, the tracefs
 *                         files, local events for perf's uprobe PMU
 *   trace_uprobe_event.c  its trace_event_call (on probe_event.c): output,
 *                         new, registering with the uprobes core on enable
 *   trace_uprobe_hit.c    the uprobe consumer handlers, trace records, perf
 *                         and BPF, the perf mm filter, local perf events
 *
 * Locking: event_mutex serializes every change to probes and events and
 * guards the dyn_event list.  Nothing a hit reads changes while the probe
 * is registered with the uprobes core, except the event's flags and file
 * links (RCU) and the perf filter (its own rwlock).  The handlers run in
 * the probed task, preemptible; they hold no lock but RCU and keep
 * preemption off only while they use this CPU's scratch buffer.
 */
#ifndef _KERNEL_TRACE_TRACE_UPROBE_INTERNAL_H
#define _KERNEL_TRACE_TRACE_UPROBE_INTERNAL_H

#include <linux/list.h>
#include <linux/namei.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/uprobes.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "trace_uprobe.h"
#include "probe_arg.h"
#include "probe_event.h"

#define UPEV_DEFAULT_GROUP	"uprobes"
#define UPEV_NAME_LEN		MAX_EVENT_NAME_LEN
/* Largest record: one page, as the ABI allows. */
#define UPEV_RECORD_MAX		PAGE_SIZE
static_assert(UPEV_RECORD_MAX <= PROBE_EV_SCRATCH_SIZE);	/* built in the scratch */

/* Record heads. */
struct upev_entry_head {
	struct trace_entry ent;
	unsigned long ip;		/* where the probe hit */
};

struct upev_return_head {
	struct trace_entry ent;
	unsigned long func;		/* the probed function */
	unsigned long ret_ip;		/* where it returned to */
};

/*
 * Which tasks perf wants records from: any, when a perf event counts
 * system-wide, else the mms of the tasks of @events.  @lock guards both;
 * the consumer filter reads them under it.
 */
struct upev_perf_filter {
	rwlock_t lock;
	unsigned int nr_systemwide;
	struct list_head events;	/* perf_event.hw.tp_list */
};

/* One event.  Allocated with its first probe, freed with its last. */
struct upev_event {
	struct probe_ev_event pev;
	struct upev_perf_filter filter;
	/*
	 * The first probe's file, offset and reference counter offset, for
	 * bpf_get_uprobe_info(): it runs with no lock, and that probe may
	 * be deleted meanwhile.
	 */
	char *bpf_filename;
	unsigned long bpf_offset;
	unsigned long bpf_ref_ctr_offset;
};

/* What hits count, per CPU. */
struct upev_counts {
	unsigned long hits;
	unsigned long dropped;	/* records a ring or perf buffer refused */
};

/*
 * One probe.  The fields above @devent are what a hit reads; they do not
 * change while the consumer is registered.
 */
struct upev_probe {
	struct uprobe_consumer consumer;
	struct upev_event *event;
	struct parg_set *args;		/* may be @event->layout */
	unsigned int rec_size;		/* head + fixed block */
	bool has_args;
	unsigned long offset;		/* in the file */
	struct upev_counts __percpu *counts;

	/* control: event_mutex */
	struct dyn_event devent;	/* on the dyn_event list unless local */
	struct list_head sibling;	/* in @event->probes */
	char *filename;			/* as the user wrote it */
	struct path path;		/* holds the inode */
	unsigned long ref_ctr_offset;	/* 0: none */
	bool is_return;
	struct uprobe *uprobe;		/* registered, or NULL */
};

static inline struct upev_event *upev_event_of(struct trace_event_call *call)
{
	return container_of(call, struct upev_event, pev.call);
}

static inline struct upev_probe *upev_event_primary(struct upev_event *ev)
{
	return list_first_entry_or_null(&ev->pev.probes, struct upev_probe, sibling);
}

static inline struct inode *upev_probe_inode(const struct upev_probe *tp)
{
	return d_real_inode(tp->path.dentry);
}

/* trace_uprobe.c */
struct upev_probe *upev_probe_new(const char *filename, struct path *path,
			      unsigned long offset, unsigned long ref_ctr,
			      bool is_return, struct parg_set *set);
void upev_probe_free(struct upev_probe *tp);

/* trace_uprobe_event.c */
struct upev_event *upev_event_new(const char *group, const char *name,
			      struct upev_probe *first);
struct upev_event *upev_find_event(const char *group, const char *name);
int upev_probe_arm(struct upev_probe *tp, bool perf);
bool upev_probe_unhook(struct upev_probe *tp);

/* trace_uprobe_hit.c */
int upev_handler(struct uprobe_consumer *uc, struct pt_regs *regs,
		 __u64 *cookie);
int upev_ret_handler(struct uprobe_consumer *uc, unsigned long func,
		     struct pt_regs *regs, __u64 *cookie);
bool upev_perf_filter_mm(struct uprobe_consumer *uc, struct mm_struct *mm);
int upev_event_reg_perf(struct upev_event *ev, enum trace_reg type, void *data);

#endif /* _KERNEL_TRACE_TRACE_UPROBE_INTERNAL_H */
