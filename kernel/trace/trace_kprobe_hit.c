// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: the hit path
 *
 * trace_kprobe_hit.c - what runs when a kprobe event's probe is hit::
 *
 *   kprobes core (int3, ftrace, jump)        rethook trampoline
 *            |                                       |
 *     kpev_kprobe_hit(kp, regs)              kpev_kretprobe_hit(ri, regs)
 *            |   count the hit; read the event's users once
 *            |
 *            +-- trace files (RCU list), for each one:
 *            |     plain     reserve the exact size in the ring buffer,
 *            |               write the head, let the argument library write
 *            |               the arguments in place, commit
 *            |     strings   fetch into a scratch level, reserve the
 *            |               size it took, copy once, commit
 *            |     filtered  build the record in the scratch, test the
 *            |               filter, and only if it passes reserve + copy
 *            |     other     triggers, soft-disable, pid filters, printk
 *            |               and export hooks: trace_event_buffer_*()
 *            |
 *            +-- perf: BPF programs, perf buffers (trace_kprobe_perf.c)
 *
 * Everything that can be computed before a hit is computed when the probe
 * is defined (record size, head size, whether strings follow) and only
 * read here; nothing is allocated, no lock is taken.
 *
 * Every hit becomes a record in each buffer the event is on, or a miss:
 * a hit with a record that a ring buffer (or perf) refused is counted
 * in kpev_counts::dropped, per CPU, once however many buffers refused it
 * (kpev_count_drop()).  kprobe_profile adds it to the misses of the
 * kprobes core; such a hit ran the handler, so it is a hit too.
 *
 * The scratch: records with strings, and records of a filtered file, are
 * built in a level of the shared scratch pool (probe_event_scratch.c),
 * taken and given back around the one write that uses it.  kprobe
 * handlers do not nest on a CPU (the core counts a hit inside a handler
 * as missed), but other probe kinds' hits may interrupt ours (an fprobe
 * or event probe in an NMI), and they take the next level.
 *
 * Every function here is NOKPROBE: probing it would recurse.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>

#include "trace_kprobe_internal.h"

static __always_inline void *kpev_edata(struct kretprobe_instance *ri)
{
	return ri ? ri->data : NULL;
}

/*
 * The record head: the probed address @addr (the place that was hit), or
 * the function and the return address.
 */
static __always_inline void kpev_fill_head(unsigned long addr, void *ent,
					 struct kretprobe_instance *ri)
{
	if (ri) {
		struct kretprobe_trace_entry_head *head = ent;

		head->func = addr;
		head->ret_ip = get_kretprobe_retaddr(ri);
	} else {
		struct kprobe_trace_entry_head *head = ent;

		head->ip = addr;
	}
}

/* Fetch the arguments into the scratch; returns the record size. */
static __always_inline unsigned int kpev_fetch_scratch(struct kpev_probe *tp,
						     struct pt_regs *regs,
						     struct kretprobe_instance *ri,
						     void *scratch,
						     unsigned int room)
{
	return parg_set_fetch(tp->args, regs, kpev_edata(ri), scratch,
			      tp->event->pev.head_size, room);
}

/*
 * The argument block of @ent: a copy from @scratch when the arguments were
 * fetched there, else fetched in place.
 */
static __always_inline void kpev_fill_args(struct kpev_probe *tp,
					 struct pt_regs *regs,
					 struct kretprobe_instance *ri,
					 void *ent, const void *scratch,
					 unsigned int size)
{
	unsigned int off = tp->event->pev.head_size;

	if (scratch)
		probe_ev_copy_rec(ent + off, scratch + off, size - off);
	else if (tp->has_args)
		parg_set_fetch(tp->args, regs, kpev_edata(ri), ent, off, size);
}

/*
 * The ring buffer of @file refused a record (full and not overwriting,
 * the record too big, or a reservation nested too deep): a miss.  Not
 * when recording is off or paused, for the buffer or for this CPU
 * (tracing_cpumask), or when the file filters this task out: then the
 * user asked for no record (probe_ev_record_wanted()).
 */
static noinline void kpev_refused(struct kpev_probe *tp,
				struct trace_event_file *file)
{
	if (probe_ev_record_wanted(file))
		kpev_count_drop(tp);
}
NOKPROBE_SYMBOL(kpev_refused);

/* A file with triggers, soft-disable, pid filter, or commit hooks. */
static noinline void kpev_write_generic(struct kpev_probe *tp,
				unsigned long addr,
				      struct pt_regs *regs,
				      struct kretprobe_instance *ri,
				      struct trace_event_file *file)
{
	struct trace_event_buffer fbuffer;
	unsigned int size = tp->rec_size;
	void *scratch = NULL, *ent;

	if (trace_trigger_soft_disabled(file))
		return;
	if (tp->dynamic) {
		scratch = probe_ev_scratch_get();
		if (unlikely(!scratch)) {
			kpev_count_drop(tp);
			goto out_put;
		}
		size = kpev_fetch_scratch(tp, regs, ri, scratch,
					probe_ev_room(file->tr->array_buffer.buffer));
	}
	ent = trace_event_buffer_reserve(&fbuffer, file, size);
	if (!ent) {
		kpev_refused(tp, file);
		goto out_put;
	}
	fbuffer.regs = regs;
	kpev_fill_head(addr, ent, ri);
	kpev_fill_args(tp, regs, ri, ent, scratch, size);
	trace_event_buffer_commit(&fbuffer);
out_put:
	if (tp->dynamic)
		probe_ev_scratch_put();
}
NOKPROBE_SYMBOL(kpev_write_generic);

/*
 * A filtered file: the whole record is built in the scratch and tested
 * there, so a rejected hit costs no ring buffer reservation at all.
 */
static noinline void kpev_write_filtered(struct kpev_probe *tp,
				unsigned long addr,
				       struct pt_regs *regs,
				       struct kretprobe_instance *ri,
				       struct trace_event_file *file)
{
	struct trace_array *tr = file->tr;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	unsigned int room = probe_ev_room(buffer), size = tp->rec_size;
	struct ring_buffer_event *rbe;
	void *scratch;

	if (unlikely(size > room)) {
		kpev_refused(tp, file);
		return;
	}
	scratch = probe_ev_scratch_get();
	if (unlikely(!scratch)) {
		kpev_count_drop(tp);
		goto out_put;
	}
	tracing_generic_entry_update(scratch, tp->event->pev.call.event.type,
				     trace_ctx);
	kpev_fill_head(addr, scratch, ri);
	if (tp->has_args)
		size = kpev_fetch_scratch(tp, regs, ri, scratch, room);
	if (!filter_match_preds(rcu_dereference_raw(file->filter), scratch))
		goto out_put;

	rbe = ring_buffer_lock_reserve(buffer, size);
	if (!rbe) {
		kpev_refused(tp, file);
		goto out_put;
	}
	probe_ev_copy_rec(ring_buffer_event_data(rbe), scratch, size);
	trace_buffer_unlock_commit_regs(tr, buffer, rbe, trace_ctx, regs);
out_put:
	probe_ev_scratch_put();
}
NOKPROBE_SYMBOL(kpev_write_filtered);

/*
 * Reserve @size bytes in @file's ring buffer, write the record (its
 * arguments copied from @scratch, or fetched in place when it is NULL),
 * commit.
 */
static __always_inline void kpev_write_ring(struct kpev_probe *tp,
					  unsigned long addr,
					  struct pt_regs *regs,
					  struct kretprobe_instance *ri,
					  struct trace_event_file *file,
					  const void *scratch,
					  unsigned int size)
{
	struct trace_array *tr = file->tr;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	struct ring_buffer_event *rbe;
	void *ent;

	rbe = ring_buffer_lock_reserve(buffer, size);
	if (unlikely(!rbe)) {
		kpev_refused(tp, file);
		return;
	}
	ent = ring_buffer_event_data(rbe);
	tracing_generic_entry_update(ent, tp->event->pev.call.event.type,
				     trace_ctx);
	kpev_fill_head(addr, ent, ri);
	kpev_fill_args(tp, regs, ri, ent, scratch, size);
	trace_buffer_unlock_commit_regs(tr, buffer, rbe, trace_ctx, regs);
}

/*
 * A plain file and a record with strings: fetch into a scratch level,
 * reserve the size the fetch took, copy.  Only the handlers of probes
 * with strings inline it (kpev_set_handlers()).
 */
static __always_inline void kpev_write_strings(struct kpev_probe *tp,
					      unsigned long addr,
					      struct pt_regs *regs,
					      struct kretprobe_instance *ri,
					      struct trace_event_file *file)
{
	void *scratch = probe_ev_scratch_get();
	unsigned int size;

	if (likely(scratch)) {
		size = kpev_fetch_scratch(tp, regs, ri, scratch,
					probe_ev_room(file->tr->array_buffer.buffer));
		kpev_write_ring(tp, addr, regs, ri, file, scratch, size);
	} else {
		kpev_count_drop(tp);
	}
	probe_ev_scratch_put();
}

/* A plain file and a fixed-size record: fetched in place. */
static __always_inline void kpev_write_plain(struct kpev_probe *tp,
					   unsigned long addr,
					   struct pt_regs *regs,
					   struct kretprobe_instance *ri,
					   struct trace_event_file *file)
{
	kpev_write_ring(tp, addr, regs, ri, file, NULL, tp->rec_size);
}

/* One record per trace file the event is enabled in. */
static __always_inline void kpev_trace(struct kpev_probe *tp,
				     unsigned long addr,
				     struct pt_regs *regs,
				     struct kretprobe_instance *ri,
				     bool strings)
{
	struct probe_ev_link *link;

	list_for_each_entry_rcu(link, &tp->event->pev.links, node) {
		struct trace_event_file *file = link->file;
		unsigned long eflags = READ_ONCE(file->flags);

		if (unlikely(eflags & PROBE_EV_FILE_GENERIC) || probe_ev_commit_hooks_on())
			kpev_write_generic(tp, addr, regs, ri, file);
		else if (unlikely(eflags & EVENT_FILE_FL_FILTERED))
			kpev_write_filtered(tp, addr, regs, ri, file);
		else if (strings)
			kpev_write_strings(tp, addr, regs, ri, file);
		else
			kpev_write_plain(tp, addr, regs, ri, file);
	}
}

/*
 * Both handlers end here: count the hit, then feed the ring buffers and
 * perf.  @ri is NULL for an entry probe, @strings is @tp->dynamic; both
 * are known in each handler that inlines it, and the tests on them fold
 * away.
 */
static __always_inline int kpev_hit(struct kpev_probe *tp, unsigned long addr,
				  struct pt_regs *regs,
				  struct kretprobe_instance *ri,
				  bool strings)
{
	unsigned int users = READ_ONCE(tp->event->pev.flags);

	raw_cpu_inc(tp->counts->hits);
	if (users & PROBE_EV_EV_TRACE)
		kpev_trace(tp, addr, regs, ri, strings);
	if (!(users & PROBE_EV_EV_PERF))
		return 0;
	if (!ri)
		return kpev_perf_hit(tp, addr, regs);
	kpev_perf_ret_hit(tp, addr, ri, regs);
	return 0;
}

/*
 * The handlers, chosen when the probe is defined (kpev_set_handlers()).
 * A probe's first place is its own kretprobe (rp.kp for an entry probe);
 * the others of a multi-place probe are struct kpev_place.  Each kind of
 * place, entry or return, with strings or without, has its own handler,
 * so that a hit tells none of them apart.
 */
static __always_inline struct kpev_probe *kpev_kp_probe(struct kprobe *kp)
{
	return container_of(kp, struct kpev_probe, rp.kp);
}

static __always_inline struct kpev_probe *kpev_kp_place(struct kprobe *kp)
{
	return container_of(kp, struct kpev_place, rp.kp)->tp;
}

static __always_inline struct kpev_probe *kpev_rp_probe(struct kretprobe *rp)
{
	return container_of(rp, struct kpev_probe, rp);
}

static __always_inline struct kpev_probe *kpev_rp_place(struct kretprobe *rp)
{
	return container_of(rp, struct kpev_place, rp)->tp;
}

/* kprobe pre_handlers: run with preemption off, maybe in NMI. */
#define KPEV_ENTRY_HANDLER(name, probe_of, strings)			\
static int name(struct kprobe *kp, struct pt_regs *regs)		\
{									\
	return kpev_hit(probe_of(kp), (unsigned long)kp->addr, regs,	\
			NULL, strings);					\
}									\
NOKPROBE_SYMBOL(name)

/*
 * kretprobe handlers: the function returns; preemption off.  The
 * kretprobe is NULL while it is being unregistered on another CPU.
 */
#define KPEV_RETURN_HANDLER(name, probe_of, strings)			\
static int name(struct kretprobe_instance *ri, struct pt_regs *regs)	\
{									\
	struct kretprobe *rp = get_kretprobe(ri);			\
									\
	if (likely(rp))							\
		kpev_hit(probe_of(rp), (unsigned long)rp->kp.addr, regs,\
			 ri, strings);					\
	return 0;							\
}									\
NOKPROBE_SYMBOL(name)

KPEV_ENTRY_HANDLER(kpev_kprobe_hit, kpev_kp_probe, false);
KPEV_ENTRY_HANDLER(kpev_kprobe_hit_str, kpev_kp_probe, true);
KPEV_ENTRY_HANDLER(kpev_place_hit, kpev_kp_place, false);
KPEV_ENTRY_HANDLER(kpev_place_hit_str, kpev_kp_place, true);
KPEV_RETURN_HANDLER(kpev_kretprobe_hit, kpev_rp_probe, false);
KPEV_RETURN_HANDLER(kpev_kretprobe_hit_str, kpev_rp_probe, true);
KPEV_RETURN_HANDLER(kpev_place_ret_hit, kpev_rp_place, false);
KPEV_RETURN_HANDLER(kpev_place_ret_hit_str, kpev_rp_place, true);

/* kretprobe entry handlers: save what the return side reads of entry. */
static __always_inline int kpev_save_entry(struct kpev_probe *tp,
					   struct kretprobe_instance *ri,
					   struct pt_regs *regs)
{
	parg_set_save_entry(tp->args, regs, ri->data);
	return 0;
}

static int kpev_kretprobe_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? kpev_save_entry(kpev_rp_probe(rp), ri, regs) : -ENOENT;
}
NOKPROBE_SYMBOL(kpev_kretprobe_entry);

static int kpev_place_ret_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return rp ? kpev_save_entry(kpev_rp_place(rp), ri, regs) : -ENOENT;
}
NOKPROBE_SYMBOL(kpev_place_ret_entry);

/*
 * Give @rp, the kretprobe of @tp itself or of one of its other places
 * (@place), the handlers of its kind: entry or return (@is_return), with
 * strings or without (@tp->dynamic, set before), saving entry data or
 * not (@rp->data_size, set before).
 */
void kpev_set_handlers(struct kpev_probe *tp, struct kretprobe *rp,
		       bool is_return, bool place)
{
	bool strings = tp->dynamic;

	if (!is_return) {
		if (place)
			rp->kp.pre_handler = strings ? kpev_place_hit_str :
						       kpev_place_hit;
		else
			rp->kp.pre_handler = strings ? kpev_kprobe_hit_str :
						       kpev_kprobe_hit;
		return;
	}
	if (place)
		rp->handler = strings ? kpev_place_ret_hit_str : kpev_place_ret_hit;
	else
		rp->handler = strings ? kpev_kretprobe_hit_str : kpev_kretprobe_hit;
	if (rp->data_size)
		rp->entry_handler = place ? kpev_place_ret_entry :
					    kpev_kretprobe_entry;
}
