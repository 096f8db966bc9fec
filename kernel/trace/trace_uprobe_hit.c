// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: uprobe events: the hit path
 *
 * trace_uprobe_hit.c - what runs when a uprobe event's probe is hit, and
 * perf's side of uprobe events (BPF programs, the mm filter)::
 *
 *   uprobes core, in the probed task (preemptible, may sleep)
 *        |
 *   upev_handler(uc, regs, cookie)   upev_ret_handler(uc, func, regs, cookie)
 *        |  count the hit; perf only:        |  (only after an entry
 *        |  not a wanted mm -> REMOVE        |   that returned 0)
 *        +-------------- upev_hit() -----------+
 *              perf: publish the hit address in current->utask->vaddr,
 *                run the BPF programs (they may sleep)
 *              preemption off (the RCU read side of the links too):
 *                fetch the arguments into this CPU's scratch
 *                a user read faulted? preemption on, page it in,
 *                  fetch again (at most UPEV_FAULT_TRIES times)
 *                trace files (RCU list): reserve, copy, commit; a file
 *                  with triggers, filters or commit hooks goes through
 *                  trace_event_buffer_*()
 *                perf: perf buffer, copy, submit
 *
 * The argument library reads user memory without faulting (probe_arg.h),
 * which keeps the record build in one preempt-off section on a per-CPU
 * scratch buffer, with no lock and no allocation.  A value or string on
 * a page the task has not touched yet (or one swapped out) would then
 * read as "(fault)"; but a uprobe handler runs in the probed task and
 * may sleep, so when the library reports user reads that faulted
 * (parg_set_fetch_user()), the hit leaves the section, pages them in
 * with fault_in_readable() and fetches again.  The scratch (a level of
 * the shared pool, probe_event_scratch.c) is given back while preemption
 * is on, so the retry fetches the whole record.  The
 * common case, nothing faulted, costs nothing more.  A read of memory
 * that is not mapped at all cannot be paged in: the record is fetched
 * once more, as the scratch was let go, and keeps its "(fault)".  A
 * string is paged in by strnlen_user(), up to its NUL (or the most it
 * may take), so no page after its end is touched.
 * Trace files and perf exclude each other (trace_uprobe_event.c), so
 * one fetch serves every record of a hit.
 *
 * A hit whose record a ring buffer or perf refuses is counted in
 * upev_counts::dropped (uprobe_misses shows it), once however many
 * buffers refused it; uprobe_profile counts hits, entry hits only for
 * return probes, as it always has.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/rcupdate_trace.h>
#include <linux/ring_buffer.h>
#include <linux/sched/mm.h>

#include "trace_uprobe_internal.h"

/* Fetches of one hit, at most, when user reads fault and are paged in. */
#define UPEV_FAULT_TRIES	3

/* Where the probe hit, as the record head wants it. */
struct upev_site {
	unsigned long addr;	/* hit address, or the function's entry */
	unsigned long ret_ip;	/* return probes: where it returns to */
};

/* ---------------------------------------------------------------- trace */

/*
 * A file with triggers, soft disable, pid or event filters, or with
 * commit hooks on: the generic event buffer code does it all.  True when
 * the ring buffer refused a record that was wanted (probe_ev_record_wanted()).
 */
static bool upev_write_generic(struct upev_probe *tp, const void *rec,
			     unsigned int size, struct trace_event_file *file)
{
	unsigned int skip = sizeof(struct trace_entry);
	struct trace_event_buffer fbuffer;
	void *ent;

	if (trace_trigger_soft_disabled(file))
		return false;
	ent = trace_event_buffer_reserve(&fbuffer, file, size);
	if (!ent)
		return probe_ev_record_wanted(file);
	/* (no fbuffer.regs: @regs are the task's user registers) */
	/* the reserve wrote the trace_entry; the rest is ours */
	probe_ev_copy_rec(ent + skip, rec + skip, size - skip);
	trace_event_buffer_commit(&fbuffer);
	return false;
}

/* Any other file: reserve, write the entry, copy the rest, commit. */
static bool upev_write_plain(struct upev_probe *tp, const void *rec,
			   unsigned int size, struct trace_event_file *file)
{
	unsigned int skip = sizeof(struct trace_entry);
	struct trace_array *tr = file->tr;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	unsigned int trace_ctx = tracing_gen_ctx_dec();	/* our preempt_disable() */
	struct ring_buffer_event *rbe;
	void *ent;

	rbe = ring_buffer_lock_reserve(buffer, size);
	if (!rbe)
		return probe_ev_record_wanted(file);
	ent = ring_buffer_event_data(rbe);
	tracing_generic_entry_update(ent, tp->event->pev.call.event.type, trace_ctx);
	probe_ev_copy_rec(ent + skip, rec + skip, size - skip);
	trace_buffer_unlock_commit_regs(tr, buffer, rbe, trace_ctx, NULL);
	return false;
}

/*
 * One record per trace file, copied from @rec (@size bytes).  True when
 * a ring buffer refused one that was wanted: a drop (not while the user
 * asked for none: recording off or paused, CPU masked out, task filtered
 * out; see probe_ev_record_wanted()).
 */
static bool upev_trace(struct upev_probe *tp, const void *rec, unsigned int size)
{
	struct probe_ev_link *link;
	bool dropped = false;

	list_for_each_entry_rcu(link, &tp->event->pev.links, node) {
		struct trace_event_file *file = link->file;
		unsigned long eflags = READ_ONCE(file->flags);

		if (unlikely(eflags & (PROBE_EV_FILE_GENERIC | EVENT_FILE_FL_FILTERED)) ||
		    probe_ev_commit_hooks_on())
			dropped |= upev_write_generic(tp, rec, size, file);
		else
			dropped |= upev_write_plain(tp, rec, size, file);
	}
	return dropped;
}

/* ----------------------------------------------------------------- perf */

/* Hand the record to this CPU's perf events; true when it was dropped. */
static bool upev_perf(struct upev_probe *tp, const void *rec, unsigned int size,
		    struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->pev.call;
	unsigned int padded = probe_ev_perf_size(size);
	struct hlist_head *head;
	void *ent;
	int rctx;

	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		return false;
	if (WARN_ONCE(padded > PERF_MAX_TRACE_SIZE,
		      "uprobe event record too big for perf\n"))
		return true;
	ent = perf_trace_buf_alloc(padded, NULL, &rctx);
	if (!ent)
		return true;
	memcpy(ent + sizeof(struct trace_entry),
	       rec + sizeof(struct trace_entry),
	       size - sizeof(struct trace_entry));
	memset(ent + size, 0, padded - size);
	perf_trace_buf_submit(ent, padded, rctx, call->event.type, 1, regs,
			      head, NULL);
	return false;
}

/* The BPF programs on the event; false when they drop the record. */
#ifdef CONFIG_BPF_EVENTS
static bool upev_run_bpf(struct upev_probe *tp, struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->pev.call;
	u32 keep;

	if (!bpf_prog_array_valid(call))
		return true;
	rcu_read_lock_trace();
	keep = bpf_prog_run_array_uprobe(rcu_dereference_check(call->prog_array,
						rcu_read_lock_trace_held()),
					 regs, bpf_prog_run);
	rcu_read_unlock_trace();
	return keep;
}
#else
static bool upev_run_bpf(struct upev_probe *tp, struct pt_regs *regs)
{
	return true;	/* no BPF programs without BPF events */
}
#endif

/* ----------------------------------------------------------- the hit */

/*
 * A record no larger fits in every ring buffer (a sub-buffer is a page at
 * least) and in a perf record (PERF_MAX_TRACE_SIZE, fixed whatever the
 * page size), whatever the event is on.
 */
#define UPEV_ROOM_ANY	min_t(unsigned long, PAGE_SIZE / 2,		\
			      PERF_MAX_TRACE_SIZE - sizeof(u64))

/*
 * The most a record may take: what every buffer it goes to accepts, so
 * that a long string is cut short rather than the record refused.
 * Under RCU (the links).  Only a record past UPEV_ROOM_ANY asks.
 */
static __always_inline unsigned int upev_room(struct upev_probe *tp,
					    unsigned int users)
{
	unsigned long room = UPEV_RECORD_MAX;
	struct probe_ev_link *link;

	if (users & PROBE_EV_EV_PERF)
		room = min_t(unsigned long, room,
			     PERF_MAX_TRACE_SIZE - sizeof(u64));
	if (users & PROBE_EV_EV_TRACE)
		list_for_each_entry_rcu(link, &tp->event->pev.links, node)
			room = min_t(unsigned long, room,
				     ring_buffer_max_event_size(link->file->tr->array_buffer.buffer));
	return room;
}

/* Build the record in this CPU's scratch; returns its size. */
static unsigned int upev_build(struct upev_probe *tp, const struct upev_site *site,
			     struct pt_regs *regs, void *rec, unsigned int room,
			     struct parg_ufaults *uf)
{
	struct upev_event *ev = tp->event;

	if (ev->pev.is_return) {
		struct upev_return_head *h = rec;

		h->func = site->addr;
		h->ret_ip = site->ret_ip;
	} else {
		((struct upev_entry_head *)rec)->ip = site->addr;
	}
	if (!tp->has_args)
		return tp->rec_size;
	return parg_set_fetch_user(tp->args, regs, (void *)&site->addr, rec,
				   ev->pev.head_size, room, uf);
}

/*
 * Page in the user memory the last fetch could not read; the task's own
 * context, preemption on.  True when some of it is now readable, so that
 * another fetch may do better; false when none of it is mapped.
 */
static bool upev_fault_in(const struct parg_ufaults *uf)
{
	unsigned int i, n = min_t(unsigned int, uf->nr, PARG_UFAULT_MAX);
	bool progress = false;

	might_fault();
	for (i = 0; i < n; i++) {
		const char __user *p = (const char __user *)uf->at[i].addr;
		unsigned int len = uf->at[i].len;

		/* a string: page in up to its NUL, not its most */
		if (uf->at[i].str ? strnlen_user(p, len) > 0 :
				    fault_in_readable(p, len) < len)
			progress = true;
	}
	return progress;
}

/*
 * @users: the event's flags, as the handler read them.  Preemption is off
 * while the record is built and written: that is also the RCU read side
 * of the event's links (they are freed after a grace period).
 */
static __always_inline void upev_hit(struct upev_probe *tp,
				   const struct upev_site *site,
				   struct pt_regs *regs, unsigned int users)
{
	struct uprobe_dispatch_data udd;
	struct parg_ufaults uf __uninitialized;	/* nr is set before use */
	int tries = UPEV_FAULT_TRIES;
	bool dropped = false;
	unsigned int size;
	void *rec;

	if (users & PROBE_EV_EV_PERF) {
		/* bpf_get_func_ip() reads bp_addr through utask->vaddr */
		udd.bp_addr = site->addr;
		current->utask->vaddr = (unsigned long)&udd;
		if (!upev_run_bpf(tp, regs))
			users &= ~PROBE_EV_EV_PERF;
	}
	if (!users)
		return;
	uf.nr = 0;	/* a record with no arguments does not fetch */
	uf.faulted = false;

again:
	preempt_disable();
	rec = probe_ev_scratch_get();
	if (unlikely(!rec)) {
		dropped = true;
		goto out_put;
	}
	size = upev_build(tp, site, regs, rec, UPEV_RECORD_MAX, &uf);
	if (unlikely(size > UPEV_ROOM_ANY)) {
		unsigned int room = upev_room(tp, users);

		if (size > room)	/* fetch again, cut to fit */
			size = upev_build(tp, site, regs, rec, room, &uf);
	}
	if (unlikely(uf.nr) && --tries > 0) {
		probe_ev_scratch_put();
		preempt_enable();
		if (!upev_fault_in(&uf))
			tries = 1;	/* nothing paged in: one last fetch */
		goto again;
	}
	if (unlikely(uf.faulted))
		parg_set_count_fault(tp->args);
	if (users & PROBE_EV_EV_TRACE)
		dropped = upev_trace(tp, rec, size);
	if (users & PROBE_EV_EV_PERF)
		dropped |= upev_perf(tp, rec, size, regs);
out_put:
	probe_ev_scratch_put();
	if (unlikely(dropped))
		this_cpu_inc(tp->counts->dropped);
	preempt_enable();
}

/*
 * The consumer's entry handler, for entry and return probes alike: a
 * return probe's consumer has both handlers, which makes it a session
 * consumer to the uprobes core.  The core then calls the return handler
 * for exactly the entries where this one returned 0, with the cookie
 * (unused) of that entry; returning UPROBE_HANDLER_REMOVE, for a task perf
 * does not want, also skips that task's return.
 */
int upev_handler(struct uprobe_consumer *uc, struct pt_regs *regs,
		 __u64 *cookie)
{
	struct upev_probe *tp = container_of(uc, struct upev_probe, consumer);
	struct upev_site site = { .addr = instruction_pointer(regs) };
	unsigned int users = READ_ONCE(tp->event->pev.flags);

	this_cpu_inc(tp->counts->hits);
	if ((users & PROBE_EV_EV_PERF) && !upev_perf_filter_mm(uc, current->mm))
		return UPROBE_HANDLER_REMOVE;
	if (!tp->is_return)
		upev_hit(tp, &site, regs, users);
	return 0;
}

/*
 * The return of an entry upev_handler() let through (session consumer):
 * perf's mm filter was asked then, and a perf user excludes trace users.
 */
int upev_ret_handler(struct uprobe_consumer *uc, unsigned long func,
		     struct pt_regs *regs, __u64 *cookie)
{
	struct upev_probe *tp = container_of(uc, struct upev_probe, consumer);
	struct upev_site site = {
		.addr = func,
		.ret_ip = instruction_pointer(regs),
	};

	upev_hit(tp, &site, regs, READ_ONCE(tp->event->pev.flags));
	return 0;
}

/* ------------------------------------------------------ the mm filter */

/* Is a task-bound perf event of @f on @mm?  @f->lock held. */
static bool upev_filter_has_mm(struct upev_perf_filter *f, struct mm_struct *mm)
{
	struct perf_event *event;

	list_for_each_entry(event, &f->events, hw.tp_list)
		if (event->hw.target->mm == mm)
			return true;
	return false;
}

/* uprobe_consumer.filter of perf's consumers: does perf want @mm? */
bool upev_perf_filter_mm(struct uprobe_consumer *uc, struct mm_struct *mm)
{
	struct upev_probe *tp = container_of(uc, struct upev_probe, consumer);
	struct upev_perf_filter *f = &tp->event->filter;
	bool want = READ_ONCE(f->nr_systemwide);	/* no lock for every mm */

	if (!want) {
		read_lock(&f->lock);
		want = upev_filter_has_mm(f, mm);
		read_unlock(&f->lock);
	}
	return want;
}

/*
 * Add @event to the filter.  True when the filter covered its target
 * already (nothing for the core to install): a system-wide event exists,
 * or the target's mm is wanted already, or the event is inherited or
 * enabled on exec (the new mm gets the breakpoints when it maps the file).
 */
static bool upev_filter_add(struct upev_perf_filter *f, struct perf_event *event)
{
	struct task_struct *target = event->hw.target;
	bool covered;

	write_lock(&f->lock);
	if (!target) {		/* every mm; covered if another took them */
		covered = f->nr_systemwide++ > 0;
	} else {
		covered = f->nr_systemwide || event->parent ||
			  event->attr.enable_on_exec ||
			  upev_filter_has_mm(f, target->mm);
		list_add(&event->hw.tp_list, &f->events);
	}
	write_unlock(&f->lock);
	return covered;
}

/* Take @event out; true when what it wanted is still wanted. */
static bool upev_filter_remove(struct upev_perf_filter *f, struct perf_event *event)
{
	struct task_struct *target = event->hw.target;
	bool covered;

	write_lock(&f->lock);
	if (!target) {		/* still covered if another takes every mm */
		covered = --f->nr_systemwide > 0;
	} else {
		list_del(&event->hw.tp_list);
		covered = f->nr_systemwide || (target->flags & PF_EXITING) ||
			  upev_filter_has_mm(f, target->mm);
	}
	write_unlock(&f->lock);
	return covered;
}

/* Let the core re-ask the filter about every mm, for each probe. */
static int upev_event_apply(struct upev_event *ev, bool add)
{
	struct upev_probe *tp;
	int ret = 0;

	list_for_each_entry(tp, &ev->pev.probes, sibling) {
		if (!tp->uprobe)
			continue;
		ret = uprobe_apply(tp->uprobe, &tp->consumer, add);
		if (ret)
			break;
	}
	return ret;
}

/* PERF_OPEN, PERF_CLOSE and the rest: event_mutex held. */
int upev_event_reg_perf(struct upev_event *ev, enum trace_reg type, void *data)
{
	struct perf_event *event = data;
	int ret;

	switch (type) {
	case TRACE_REG_PERF_OPEN:
		if (upev_filter_add(&ev->filter, event))
			return 0;
		ret = upev_event_apply(ev, true);
		if (ret && !upev_filter_remove(&ev->filter, event))
			upev_event_apply(ev, false);
		return ret;
	case TRACE_REG_PERF_CLOSE:
		if (!upev_filter_remove(&ev->filter, event))
			upev_event_apply(ev, false);
		return 0;
	default:
		return 0;	/* add, del: nothing to do */
	}
}
