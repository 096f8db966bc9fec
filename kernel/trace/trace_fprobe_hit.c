// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: fprobe and tracepoint probe events: the hit path
 *
 * trace_fprobe_hit.c - what runs when an fprobe event's function (or a
 * tracepoint probe's stub) is entered or returns::
 *
 *   ftrace (function entry)              function graph (return)
 *          |                                         |
 *   fprobe core: recursion guard, entry data on the shadow stack
 *          |        (struct ftrace_regs)             |
 *   fpev_entry_hit(), or fpev_entry_save()       fpev_exit_hit()
 *   for an exit probe reading entry values           |
 *          +--------------------+--------------------+
 *                               |  fpev_regs_get(): a pt_regs view
 *                               |  fpev_hit(): count, then
 *                               +-- each trace file (RCU list): reserve,
 *                               |   write head + arguments, commit
 *                               +-- perf: this CPU's perf events
 *
 * The fprobe core hands handlers a struct ftrace_regs: the argument
 * registers, the stack pointer and, on return, the return value; not
 * every register.  The argument library reads a struct pt_regs, which is
 * fine for what an fprobe lets a definition read ($argN, $stackN, $stack,
 * $retval: no %REG, parg_caps.no_regs).  Where ftrace_regs holds a
 * pt_regs (x86_64) the library reads it in place; elsewhere
 * ftrace_partial_regs() copies those registers into a per-CPU frame, one
 * for each level of handler nesting (fpev_regs_get()).
 *
 * Handlers run with preemption disabled, also on a tracepoint probe's
 * stub whose tracepoint calls it preemptibly: the fprobe core keeps
 * preemption off around every handler it calls, so the per-CPU counts,
 * frames and scratch stay this CPU's for the whole hit.
 *
 * Nothing is allocated and no lock is taken.  Records with strings are
 * fetched into a per-CPU scratch first (their size is known only after
 * the fetch) and copied into the reservation.  Unlike kprobe handlers,
 * fprobe handlers nest on a CPU: the fprobe core's recursion guard lets
 * one handler run per context (task, softirq, irq, NMI, and one
 * transition).  Each takes a level of the shared scratch pool
 * (probe_event_scratch.c), which has one per context; a hit nested
 * deeper than that is dropped and counted.
 *
 * Every hit that should have made a record but did not is counted in
 * fpev_counts::dropped (no room in a ring buffer, no scratch, no perf
 * buffer), once however many of its records were refused: the hit's
 * context notes a refusal and fpev_hit() counts it at the end, which
 * stays right when handlers nest.  With the fprobe core's own misses
 * (fp.nmissed: no room for entry data on the shadow stack) it is the misses column
 * of fprobe_profile.
 *
 * Every function here is NOKPROBE.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/ring_buffer.h>

#include "trace_fprobe_internal.h"

/* What a hit passes down: where it is, and its registers. */
struct fpev_hit_ctx {
	unsigned long ip;		/* entry: probed address; exit: function */
	unsigned long ret_ip;		/* exit: return address */
	struct pt_regs *regs;		/* what the argument library reads */
	struct ftrace_regs *fregs;	/* the fprobe core's, for perf */
	void *edata;			/* exit: saved entry values, or NULL */
	void *scratch;			/* dynamic sets only */
	bool dropped;			/* a record of this hit was refused */
};

static __always_inline void fpev_fill_head(const struct fpev_probe *tp,
					 const struct fpev_hit_ctx *c, void *ent)
{
	if (tp->event->pev.is_return) {
		struct fexit_trace_entry_head *head = ent;

		head->func = c->ip;
		head->ret_ip = c->ret_ip;
	} else {
		((struct fentry_trace_entry_head *)ent)->ip = c->ip;
	}
}

/* One record in @file, through the generic event buffer code. */
static void fpev_write(struct fpev_probe *tp, struct fpev_hit_ctx *c,
		     struct trace_event_file *file)
{
	unsigned int off = tp->event->pev.head_size, size = tp->rec_size;
	struct trace_event_buffer fbuffer;
	void *ent;

	if (trace_trigger_soft_disabled(file))
		return;
	if (c->scratch) {
		unsigned int room = ring_buffer_max_event_size(
					file->tr->array_buffer.buffer);

		size = parg_set_fetch(tp->args, c->regs, c->edata, c->scratch,
				      off, min_t(unsigned int, room,
						 PROBE_EV_SCRATCH_SIZE));
	}
	ent = trace_event_buffer_reserve(&fbuffer, file, size);
	if (!ent) {
		/* a drop unless recording is off, paused or filtered here */
		c->dropped |= probe_ev_record_wanted(file);
		return;
	}
	/* partial registers would mislead a stack trace: unwind from here */
	fbuffer.regs = NULL;
	fpev_fill_head(tp, c, ent);
	if (c->scratch)
		probe_ev_copy_rec(ent + off, c->scratch + off, size - off);
	else if (tp->has_args)
		parg_set_fetch(tp->args, c->regs, c->edata, ent, off, size);
	trace_event_buffer_commit(&fbuffer);
}
NOKPROBE_SYMBOL(fpev_write);

static void fpev_trace(struct fpev_probe *tp, struct fpev_hit_ctx *c)
{
	struct probe_ev_link *link;

	if (tp->dynamic) {
		c->scratch = probe_ev_scratch_get();
		if (unlikely(!c->scratch)) {
			c->dropped = true;
			goto out_put;
		}
	}
	list_for_each_entry_rcu(link, &tp->event->pev.links, node)
		fpev_write(tp, c, link->file);
out_put:
	if (tp->dynamic)
		probe_ev_scratch_put();
}
NOKPROBE_SYMBOL(fpev_trace);

#ifdef CONFIG_PERF_EVENTS
/* Build the record in a perf buffer; strings may take all of it. */
static void fpev_perf(struct fpev_probe *tp, struct fpev_hit_ctx *c)
{
	struct trace_event_call *call = &tp->event->pev.call;
	unsigned int size = tp->rec_size, padded;
	struct pt_regs *pregs;
	struct hlist_head *head;
	void *ent;
	int rctx;

	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head))
		return;
	padded = probe_ev_perf_room(size, tp->dynamic);
	ent = perf_trace_buf_alloc(padded, &pregs, &rctx);
	if (!ent) {		/* perf nested too deep on this CPU */
		c->dropped = true;
		return;
	}
	fpev_fill_head(tp, c, ent);
	if (tp->has_args)
		size = parg_set_fetch(tp->args, c->regs, c->edata, ent,
				      tp->event->pev.head_size,
				      tp->dynamic ? padded : size);
	probe_ev_perf_submit(call, ent, size, padded, tp->dynamic, rctx,
			     ftrace_fill_perf_regs(c->fregs, pregs), head);
}
NOKPROBE_SYMBOL(fpev_perf);
#else
static inline void fpev_perf(struct fpev_probe *tp, struct fpev_hit_ctx *c)
{
}
#endif

/*
 * pt_regs frames for the argument library where ftrace_regs does not hold
 * one: two levels per context a handler can nest in (task, softirq, irq,
 * NMI), since an exit handler runs outside ftrace's recursion guard and
 * its fetch may hit an entry probe, and one for the fprobe core's
 * transition allowance.
 */
#define FPEV_REGS_LEVELS	9

struct fpev_regs_frames {
	unsigned int depth;
	struct pt_regs frame[FPEV_REGS_LEVELS];
};

static DEFINE_PER_CPU(struct fpev_regs_frames, fpev_regs_frames);

static __always_inline bool fpev_regs_in_place(void)
{
	return IS_ENABLED(CONFIG_HAVE_FTRACE_REGS_HAVING_PT_REGS);
}

/*
 * The pt_regs view of @fregs for this hit, or NULL when the CPU's frames
 * are all taken (the hit is dropped).  Pair with fpev_regs_put().
 */
static __always_inline struct pt_regs *fpev_regs_get(struct ftrace_regs *fregs)
{
	struct fpev_regs_frames *f;
	unsigned int level;

	if (fpev_regs_in_place())
		return ftrace_partial_regs(fregs, NULL);
	f = this_cpu_ptr(&fpev_regs_frames);
	level = this_cpu_inc_return(fpev_regs_frames.depth) - 1;
	if (unlikely(level >= FPEV_REGS_LEVELS)) {
		this_cpu_dec(fpev_regs_frames.depth);
		return NULL;
	}
	return ftrace_partial_regs(fregs, &f->frame[level]);
}

static __always_inline void fpev_regs_put(void)
{
	if (!fpev_regs_in_place())
		this_cpu_dec(fpev_regs_frames.depth);
}

static __always_inline void fpev_hit(struct fpev_probe *tp, struct fpev_hit_ctx *c)
{
	unsigned int users = READ_ONCE(tp->event->pev.flags);

	this_cpu_inc(tp->counts->hits);
	c->regs = fpev_regs_get(c->fregs);
	if (unlikely(!c->regs)) {
		this_cpu_inc(tp->counts->dropped);
		return;
	}
	if (users & PROBE_EV_EV_TRACE)
		fpev_trace(tp, c);
	if (users & PROBE_EV_EV_PERF)
		fpev_perf(tp, c);
	fpev_regs_put();
	if (unlikely(c->dropped))
		this_cpu_inc(tp->counts->dropped);
}

/* fprobe entry handler of an entry probe: preemption off, maybe NMI. */
int fpev_entry_hit(struct fprobe *fp, unsigned long entry_ip,
		   unsigned long ret_ip, struct ftrace_regs *fregs, void *edata)
{
	struct fpev_hit_ctx c = { .ip = entry_ip, .fregs = fregs };

	fpev_hit(container_of(fp, struct fpev_probe, fp), &c);
	return 0;
}
NOKPROBE_SYMBOL(fpev_entry_hit);

/*
 * Entry handler of an exit probe: save what the exit reads of entry.  A
 * non-zero return skips the exit handler, uncounted by the core: count it.
 */
int fpev_entry_save(struct fprobe *fp, unsigned long entry_ip,
		    unsigned long ret_ip, struct ftrace_regs *fregs, void *edata)
{
	struct fpev_probe *tp = container_of(fp, struct fpev_probe, fp);
	struct pt_regs *regs;

	if (unlikely(!edata))
		goto out_missed;
	regs = fpev_regs_get(fregs);
	if (unlikely(!regs))
		goto out_missed;
	parg_set_save_entry(tp->args, regs, edata);
	fpev_regs_put();
	return 0;

out_missed:
	this_cpu_inc(tp->counts->dropped);
	return -ENOMEM;
}
NOKPROBE_SYMBOL(fpev_entry_save);

/* fprobe exit handler: the function returns to @ret_ip. */
void fpev_exit_hit(struct fprobe *fp, unsigned long entry_ip,
		   unsigned long ret_ip, struct ftrace_regs *fregs, void *edata)
{
	struct fpev_hit_ctx c = {
		.ip = entry_ip, .ret_ip = ret_ip, .fregs = fregs, .edata = edata,
	};

	fpev_hit(container_of(fp, struct fpev_probe, fp), &c);
}
NOKPROBE_SYMBOL(fpev_exit_hit);
