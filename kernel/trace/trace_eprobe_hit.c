// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: eprobe events: the hit path
 *
 * trace_eprobe_hit.c - what runs when the event an eprobe is attached to
 * fires in an instance where the eprobe is on::
 *
 *   attached event's record built (trace_event_buffer_reserve())
 *        |
 *   trigger core: the trigger's filter ("if FILTER"), then
 *   epev_hit(data, buffer, rec): count the hit
 *        +-- soft-disabled file: nothing
 *        +-- fixed-size record: reserve, fetch from @rec in place, commit
 *        +-- strings: fetch into a level of the shared scratch pool
 *            (probe_event_scratch.c), reserve the size it took, copy
 *        (a file with triggers, pid filters, an event filter or commit
 *        hooks goes through trace_event_buffer_*(), any other through
 *        the ring buffer directly)
 *
 * It runs inside the attached event's commit, with the attached record
 * reserved (which holds preemption off), and takes no lock; it keeps
 * preemption off itself while it holds a scratch level, not to depend
 * on the caller for that.  Its link lives until a tracepoint grace
 * period and an RCU one (the attached event may be an f: or t: event,
 * committed from the fprobe core with preemption off) after the trigger
 * left the attached event's list (epev_wait_hits()).  A
 * record the ring buffer refused while the instance records, or a hit
 * nested deeper than the scratch levels, counts as dropped.
 */
#include <linux/percpu.h>
#include <linux/ring_buffer.h>

#include "trace_eprobe_internal.h"

/*
 * A record the buffer refused: a drop, unless the instance does not
 * record now (tracing off or paused, a CPU or task it does not trace).
 */
static noinline void epev_refused(struct epev_event *ev,
				 struct trace_event_file *file)
{
	if (probe_ev_record_wanted(file))
		this_cpu_inc(ev->counts->dropped);
}

/* Any file: the record of one hit through trace_event_buffer_*(). */
static __always_inline void epev_write_generic(struct epev_event *ev,
					      struct trace_event_file *file,
					      void *rec, void *scratch)
{
	struct trace_event_buffer fb;
	unsigned int size = ev->rec_size;
	void *ent;

	if (scratch)
		size = parg_set_fetch(ev->args, NULL, rec, scratch, EPEV_HEAD,
				      probe_ev_room(file->tr->array_buffer.buffer));
	ent = trace_event_buffer_reserve(&fb, file, size);
	if (unlikely(!ent)) {
		epev_refused(ev, file);
		return;
	}
	if (scratch)
		probe_ev_copy_rec(ent + EPEV_HEAD, scratch + EPEV_HEAD, size - EPEV_HEAD);
	else
		parg_set_fetch(ev->args, NULL, rec, ent, EPEV_HEAD, size);
	trace_event_buffer_commit(&fb);
}

/*
 * A plain file (no PROBE_EV_FILE_GENERIC state, no event filter, no commit
 * hooks): reserve in the ring buffer, fill in place, commit.  The head
 * gets @trace_ctx, the context trace_event_buffer_reserve() would give it.
 */
static __always_inline void epev_write_plain(struct epev_event *ev,
					    struct trace_event_file *file,
					    void *rec, void *scratch,
					    unsigned int trace_ctx)
{
	struct trace_array *tr = file->tr;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	unsigned int size = ev->rec_size;
	struct ring_buffer_event *rbe;
	void *ent;

	if (scratch)
		size = parg_set_fetch(ev->args, NULL, rec, scratch, EPEV_HEAD,
				      probe_ev_room(file->tr->array_buffer.buffer));
	rbe = ring_buffer_lock_reserve(buffer, size);
	if (unlikely(!rbe)) {
		epev_refused(ev, file);
		return;
	}
	ent = ring_buffer_event_data(rbe);
	tracing_generic_entry_update(ent, ev->call.event.type, trace_ctx);
	if (scratch)
		probe_ev_copy_rec(ent + EPEV_HEAD, scratch + EPEV_HEAD, size - EPEV_HEAD);
	else
		parg_set_fetch(ev->args, NULL, rec, ent, EPEV_HEAD, size);
	trace_buffer_unlock_commit_regs(tr, buffer, rbe, trace_ctx, NULL);
}

/* @trace_ctx: the hit's context, for a plain file's record head. */
static __always_inline void epev_write(struct epev_event *ev,
				      struct trace_event_file *file,
				      void *rec, void *scratch,
				      unsigned int trace_ctx, bool plain)
{
	if (plain)
		epev_write_plain(ev, file, rec, scratch, trace_ctx);
	else
		epev_write_generic(ev, file, rec, scratch);
}

/*
 * The trigger: @rec is the attached event's record, about to be committed
 * (or discarded if that event is only soft-enabled).  A file in none of
 * the PROBE_EV_FILE_GENERIC states cannot be soft disabled.
 */
static void epev_hit(struct event_trigger_data *data, struct trace_buffer *buffer,
		    void *rec, struct ring_buffer_event *rbe)
{
	struct epev_link *link = container_of(data, struct epev_link, trigger);
	struct trace_event_file *file = link->pl.file;
	unsigned long eflags = READ_ONCE(file->flags);
	struct epev_event *ev = link->ev;
	unsigned int trace_ctx;
	void *scratch;
	bool plain;

	if (unlikely(!rec))
		return;
	if (unlikely(eflags & PROBE_EV_FILE_GENERIC) &&
	    trace_trigger_soft_disabled(file))
		return;
	this_cpu_inc(ev->counts->hits);
	plain = !(eflags & (PROBE_EV_FILE_GENERIC | EVENT_FILE_FL_FILTERED)) &&
		!probe_ev_commit_hooks_on();
	/* as trace_event_buffer_reserve() has it: less the reservation's */
	trace_ctx = tracing_gen_ctx_dec();
	if (!ev->dynamic) {
		epev_write(ev, file, rec, NULL, trace_ctx, plain);
		return;
	}
	/*
	 * Hits nest (an interrupt, or an event a fetch fires, such as a
	 * page fault's), each on a level of the shared scratch pool, which
	 * is this CPU's while preemption is off.  The attached record's
	 * reservation holds it off today, but tracepoints run preemptible
	 * (SRCU) since 7.0: the level is taken in a section of our own.
	 */
	preempt_disable_notrace();
	scratch = probe_ev_scratch_get();
	if (likely(scratch))
		epev_write(ev, file, rec, scratch, trace_ctx, plain);
	else
		this_cpu_inc(ev->counts->dropped);
	probe_ev_scratch_put();
	preempt_enable_notrace();
}

/*
 * The trigger core frees the triggers of an instance that is going away
 * (it has unhooked ours already, and a hit may still be running): leave
 * the link to epev_disable(), after a grace period.
 */
static void epev_trigger_free(struct event_trigger_data *data)
{
	struct epev_link *link = container_of(data, struct epev_link, trigger);

	link->hooked = false;
}

static int epev_trigger_print(struct seq_file *m, struct event_trigger_data *data)
{
	return 0;	/* EVENT_TRIGGER_FL_PROBE: the trigger file hides it */
}

/*
 * Hung on the attached event's file by epev_enable(), never registered
 * as a command of the trigger file: no .parse.  NEEDS_REC: the attached
 * event builds its record even where it is not enabled itself.
 */
struct event_command epev_trigger_cmd = {
	.trigger	= epev_hit,
	.free		= epev_trigger_free,
	.print		= epev_trigger_print,
	.name		= "eprobe",
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.trigger_type	= ETT_EVENT_EPROBE,
};
