/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: probe events: the interface of the shared event layer
 *
 * probe_event.h - what the probe-event front ends (kprobe, uprobe, event
 * probe, fprobe/tracepoint probe) have in common above the argument
 * library.  probe_event.c has the design note.
 * Prefixes: ``probe_ev_`` (probe event), with the front ends' ``kpev_``,
 * ``upev_``, ``epev_`` and ``fpev_``.
 *
 * Layering: front ends call this and probe_arg; this calls probe_arg and
 * the trace core, never a front end.
 */
#ifndef _TRACE_PROBE_EVENT_H
#define _TRACE_PROBE_EVENT_H

#include <linux/cpumask.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/ring_buffer.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/trace_events.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "probe_arg.h"

/* ------------------------------------------------------------ the event */

/* The record head a probe event starts with, and its print_fmt shape. */
enum probe_ev_head {
	PROBE_EV_HEAD_ENTRY,		/* __probe_ip: "(%lx)" */
	PROBE_EV_HEAD_RETURN,	/* __probe_func, __probe_ret_ip: "(%lx <- %lx)" */
	PROBE_EV_HEAD_NONE,		/* trace_entry only (event probes) */
};

int probe_ev_call_init(struct trace_event_call *call,
		  struct trace_event_class *class,
		  const char *group, const char *name);
void probe_ev_call_release(struct trace_event_call *call,
		      struct trace_event_class *class);
int probe_ev_call_set_print_fmt(struct trace_event_call *call,
			   struct parg_set *layout, enum probe_ev_head head);
int probe_ev_call_define_fields(struct trace_event_call *call, enum probe_ev_head head,
			   const struct parg_set *layout, unsigned int head_size);
bool probe_ev_name_taken(const char *group, const char *name);
int probe_ev_call_publish(struct trace_event_call *call);

/*
 * Who wants an event's records: one trace file or more (each a probe_ev_link
 * on @links), perf events and BPF programs.  Written under event_mutex,
 * read by the hit paths.
 */
#define PROBE_EV_EV_TRACE	BIT(0)
#define PROBE_EV_EV_PERF	BIT(1)

struct probe_ev_event;

/*
 * What a front end's event does that the others' do not.  Every method
 * runs in process context under event_mutex and may sleep.
 */
struct probe_ev_event_ops {
	/* The first user came (@perf: it is perf): arm the probes, all or none. */
	int (*arm)(struct probe_ev_event *ev, bool perf);
	/* The last user left: disarm them. */
	void (*disarm)(struct probe_ev_event *ev);
	/* perf open, close, add, del (TRACE_REG_PERF_*); NULL: nothing to do. */
	int (*reg_perf)(struct probe_ev_event *ev, enum trace_reg type, void *data);
	/* Are the probes of sibling nodes @a and @b the same?  NULL: never. */
	bool (*same_probe)(const struct list_head *a, const struct list_head *b);
	/* Free what the front end added to the event; NULL: nothing. */
	void (*release)(struct probe_ev_event *ev);
	/* Output of a record: NULL prints the head with symbols (probe_ev_print_sym). */
	struct trace_event_functions *funcs;
	unsigned int call_flags;	/* TRACE_EVENT_FL_KPROBE, ... */
	size_t size;			/* PROBE_EV_EVENT_SIZE() of the front end's */
	unsigned int head_size[2];	/* record head of an entry, a return probe */
	/* Trace files and perf cannot use the event at once (-EINTR). */
	bool users_exclusive;
};

/*
 * The part of a kprobe, uprobe or fprobe event every front end has,
 * embedded first in the front end's event.  Allocated with the event's
 * first probe, freed with its last.  The call, class and layout are fixed
 * once the event is published.
 */
struct probe_ev_event {
	struct trace_event_call call;
	struct trace_event_class class;
	unsigned int flags;		/* PROBE_EV_EV_*; see above */
	/* probe_ev_link: written under event_mutex, walked by the hit path (RCU) */
	struct list_head links;
	/* the front end's probes (their sibling nodes); event_mutex */
	struct list_head probes;
	/*
	 * The argument set that defines fields and output, adopted from the
	 * first probe and freed with the event (the field list points into
	 * it, and may outlive that probe).
	 */
	struct parg_set *layout;
	unsigned int head_size;		/* record head: argument block offset */
	bool is_return;
	bool published;			/* in ftrace_events; event_mutex */
	u8 kind_flags;			/* the front end's own bits */
	const struct probe_ev_event_ops *ops;
};

/*
 * probe_ev_event_ops::size of a front end's event @type, which embeds its
 * struct probe_ev_event as @member, first: probe_ev_event_new() allocates the
 * whole, probe_ev_event_free() frees it.
 */
#define PROBE_EV_EVENT_SIZE(type, member)					\
	(sizeof(type) + BUILD_BUG_ON_ZERO(offsetof(type, member)))

static inline struct probe_ev_event *probe_ev_event_of(struct trace_event_call *call)
{
	return container_of(call, struct probe_ev_event, call);
}

struct probe_ev_event *probe_ev_event_new(const struct probe_ev_event_ops *ops,
				const char *group, const char *name,
				bool is_return, struct parg_set *layout,
				struct list_head *first);
void probe_ev_event_free(struct probe_ev_event *ev);
int probe_ev_event_publish(struct probe_ev_event *ev);
int probe_ev_event_unpublish(struct probe_ev_event *ev);
bool probe_ev_event_busy(struct probe_ev_event *ev);
void probe_ev_drop_refused(const struct probe_ev_event_ops *ops,
			   bool (*refused)(struct probe_ev_event *ev));
int probe_ev_event_withdraw(struct probe_ev_event *ev);
bool probe_ev_event_leave(struct probe_ev_event *ev, struct list_head *node,
		     struct parg_set **args);

/*
 * Why a probe may not join an event, in the order every front end's
 * error table lists them (from its *_DIFF_PROBE_TYPE on).
 */
enum probe_ev_join_err {
	PROBE_EV_JOIN_OK,
	PROBE_EV_JOIN_OTHER_KIND,	/* entry/return (and f/t) differ */
	PROBE_EV_JOIN_OTHER_ARGS,	/* an argument's name or type differs */
	PROBE_EV_JOIN_SAME_PROBE,	/* the event has this probe already */
};

enum probe_ev_join_err probe_ev_event_may_join(struct probe_ev_event *ev, bool other_kind,
				     const struct parg_set *args,
				     const struct list_head *node, int *word);

struct probe_ev_words;
struct dyn_event;

/*
 * A new probe on its way onto an event, as its front end describes it
 * to probe_ev_event_start() and probe_ev_event_add().  The front end
 * points the probe at the event first, and at none after a failure
 * (after a failed start the event is freed).
 */
struct probe_ev_newcomer {
	const struct probe_ev_words *w;	/* its definition, for error_log */
	struct list_head *node;		/* its sibling node */
	struct parg_set **args;		/* its argument set */
	struct dyn_event *dev;		/* added to dynamic_events once on */
	/* Register it: 0, or an errno with the reason logged.  NULL: none. */
	int (*arm)(const struct probe_ev_newcomer *nc);
};

/* The newcomer @tp (sibling, args, devent) of definition @words. */
#define PROBE_EV_NEWCOMER(words, tp, arm_fn)				\
	((struct probe_ev_newcomer){ .w = (words), .node = &(tp)->sibling,	\
	  .args = &(tp)->args, .dev = &(tp)->devent, .arm = (arm_fn) })

int probe_ev_event_start(struct probe_ev_event *ev,
			 const struct probe_ev_newcomer *nc);
int probe_ev_join_check(struct probe_ev_event *ev, bool other_kind,
			const struct probe_ev_newcomer *nc);
int probe_ev_event_add(struct probe_ev_event *ev,
		       const struct probe_ev_newcomer *nc);
int probe_ev_event_reg(struct trace_event_call *call, enum trace_reg type,
		  void *data);
int probe_ev_may_register(bool registered);
void probe_ev_print_args(struct trace_seq *s, const struct probe_ev_event *ev,
		    const struct trace_entry *ent);

/* ------------------------------------------------------------ parsing */

/*
 * A [GROUP/|GROUP.][EVENT] name's faults, in the order every front end's
 * error table lists them (from its *_NO_GROUP_NAME on).
 */
enum probe_ev_name_err {
	PROBE_EV_NAME_OK,
	PROBE_EV_NAME_NO_GROUP,
	PROBE_EV_NAME_GROUP_TOO_LONG,
	PROBE_EV_NAME_BAD_GROUP,
	PROBE_EV_NAME_NO_EVENT,
	PROBE_EV_NAME_EVENT_TOO_LONG,
	PROBE_EV_NAME_BAD_EVENT,
};

/* Group and event buffers are this long (with the NUL). */
#define PROBE_EV_NAME_LEN	MAX_EVENT_NAME_LEN

enum probe_ev_name_err probe_ev_split_name(const char *text, char *group, char *event,
				 int *at);

/*
 * Code @code of a block that starts at @first in a front end's error
 * table, for a block whose codes count from 1 (probe_arg's, and
 * enum probe_ev_name_err).
 */
static inline unsigned int probe_ev_err_code(unsigned int first, unsigned int code)
{
	return first + code - 1;
}

struct probe_ev_words;
int probe_ev_parse_maxactive(const struct probe_ev_words *w, const char *text,
			     size_t len, size_t room, unsigned int max,
			     int *maxactive);
void probe_ev_log_refusal(const struct probe_ev_words *w, int ret);
void probe_ev_log_error(const char *subsys, int argc, const char **argv,
		   int word, int pos, const char **texts, unsigned int code);

/*
 * A front end's error_log: the subsystem its entries go under, and its
 * messages by code (its own block, then probe_arg's).
 */
struct probe_ev_errors {
	const char *subsys;
	const char **texts;	/* tracing_log_err() takes them non-const */
	unsigned int n;
	unsigned int exist;	/* code of "another event has the name" */
	unsigned int join;	/* code of PROBE_EV_JOIN_OTHER_KIND (and on) */
	unsigned int parg;	/* where probe_arg's block starts */
	unsigned int maxact;	/* a bad MAXACTIVE; the next code: too big */
	/* the probes core refused a place: not found, not on an insn, other */
	unsigned int no_addr, insn, refused;
};

/* The words of one definition, as argv_split() cut them, and their log. */
struct probe_ev_words {
	int argc;
	const char **argv;
	const struct probe_ev_errors *errs;
};

void probe_ev_words_error(const struct probe_ev_words *w, int word, int pos,
			  unsigned int code);
int probe_ev_words_run(const char *raw, const struct probe_ev_errors *errs,
		       int (*run)(const struct probe_ev_words *w, void *data),
		       void *data);
int probe_ev_args_check(const struct probe_ev_words *w, struct parg_set *set,
			const struct parg_err *err, bool scratch);
int probe_ev_words_name(const struct probe_ev_words *w, int word, int at,
			unsigned int first, char *group_buf, char *event_buf,
			const char **group, const char **event);

/*
 * Is @first the code of PROBE_EV_NAME_NO_GROUP in a table where @last is
 * that of PROBE_EV_NAME_BAD_EVENT?  (probe_ev_words_name() maps the whole
 * block from @first.)
 */
#define PROBE_EV_NAME_CODES(first, last)					\
	static_assert((last) - (first) ==					\
		      PROBE_EV_NAME_BAD_EVENT - PROBE_EV_NAME_NO_GROUP)

/*
 * A trace_event_file an event writes to, on the event's RCU list of them.
 * Added and removed under event_mutex; freed with kfree_rcu_mightsleep()
 * (no rcu_head: 24 bytes, a 32-byte slab object), as a hit may still be
 * reading it.  The price: when the RCU code cannot get a page for its
 * batch (memory is short), that free waits for a grace period itself,
 * under event_mutex.
 */
struct probe_ev_link {
	struct list_head node;
	struct trace_event_file *file;
};

struct probe_ev_link *probe_ev_link_find(struct list_head *links,
					 struct trace_event_file *file);

/* ---------------------------------------------------------- hit paths */

/*
 * A ring buffer of @file refused a record: was one wanted?  Not while
 * recording is off or paused: tracing_on at 0, or one of the moments the
 * trace core stops the buffer on the user's behalf (a clear of "trace",
 * a resize, a tracer change, a read with pause-on-trace set), which
 * ring_buffer_record_is_on() reports with the same single load as the
 * OFF bit alone; nor on a CPU outside tracing_cpumask, nor when @file
 * filters this task out.  Then the refusal is no drop.  It is asked after
 * the refusal, so that a hit costs nothing more until one; a refusal at
 * the very moment a pause ends may still count (never a second
 * reservation: the ring buffer would count its own drop twice).
 */
static __always_inline bool probe_ev_record_wanted(struct trace_event_file *file)
{
	struct trace_array *tr = file->tr;

	return ring_buffer_record_is_on(tr->array_buffer.buffer) &&
	       cpumask_test_cpu(raw_smp_processor_id(), tr->tracing_cpumask) &&
	       !trace_event_ignore_this_pid(file);
}

/*
 * Copy a record of @len bytes out of a per-CPU scratch into the ring
 * buffer.  Most records are tens of bytes: those go two words at a time,
 * the last two overlapping those before them, where the kernel's memcpy()
 * may be a byte-wise string move (which the instruction count of
 * `make bench` counts per byte).  Longer ones, and the shortest, take
 * memcpy().  Neither side need be aligned.
 */
#define PROBE_EV_COPY_WORDS_MAX	256

static __always_inline void probe_ev_copy_rec(void *dst, const void *src,
					 unsigned int len)
{
	unsigned long i, last = len - 2 * sizeof(u64);
	u64 a, b;

	if (unlikely(len < 2 * sizeof(u64) || len > PROBE_EV_COPY_WORDS_MAX)) {
		memcpy(dst, src, len);
		return;
	}
	for (i = 0; i < last; i += 2 * sizeof(u64)) {
		a = get_unaligned((const u64 *)(src + i));
		b = get_unaligned((const u64 *)(src + i) + 1);
		put_unaligned(a, (u64 *)(dst + i));
		put_unaligned(b, (u64 *)(dst + i) + 1);
	}
	a = get_unaligned((const u64 *)(src + last));
	b = get_unaligned((const u64 *)(src + last) + 1);
	put_unaligned(a, (u64 *)(dst + last));
	put_unaligned(b, (u64 *)(dst + last) + 1);
}

/*
 * File states only the generic event buffer code (trace_event_buffer_*())
 * handles: triggers, soft disable, pid filters.  A file in none of them,
 * and with no event filter, needs no more than a ring buffer reserve and
 * commit, which is what the hit paths do for it.
 */
#define PROBE_EV_FILE_GENERIC	(EVENT_FILE_FL_TRIGGER_MODE |		\
				 EVENT_FILE_FL_SOFT_DISABLED |		\
				 EVENT_FILE_FL_PID_FILTER |		\
				 EVENT_FILE_FL_TRIGGER_COND)

/* Commit hooks only trace_event_buffer_commit() runs (tp_printk, exports). */
static __always_inline bool probe_ev_commit_hooks_on(void)
{
	return static_branch_unlikely(&tracepoint_printk_key) ||
	       static_branch_unlikely(&trace_event_exports_enabled);
}

/* --------------------------------------------- the probes of a kind */

struct dyn_event;
struct dyn_event_operations;

struct dyn_event *probe_ev_dyn_after(const struct dyn_event_operations *dyn_ops,
				struct dyn_event *dev);

/*
 * The probe after @pos (a pointer to a front end's probe, whose struct
 * dyn_event is @member) among those of kind @dyn_ops on the dyn_event
 * list; the first one when @pos is NULL.  Under event_mutex.
 */
#define probe_ev_probe_next(pos, dyn_ops, member)				\
({									\
	struct dyn_event *__dev = probe_ev_dyn_after(dyn_ops,		\
					(pos) ? &(pos)->member : NULL);	\
	__dev ? container_of(__dev, typeof(*(pos)), member) : NULL;	\
})

/* Every probe of kind @dyn_ops; @n: the next one (the body may free @pos). */
#define probe_ev_for_each_probe(pos, n, dyn_ops, member)			\
	for ((n) = NULL, (pos) = probe_ev_probe_next(n, dyn_ops, member);	\
	     (pos) && ((n) = probe_ev_probe_next(pos, dyn_ops, member), true); \
	     (pos) = (n))
struct probe_ev_event *probe_ev_find_event(const struct probe_ev_event_ops *ops,
				 const char *group, const char *name);

/*
 * probe_ev_find_event() as the front end's event @type, which embeds its
 * struct probe_ev_event as @member; NULL when there is none.
 */
#define probe_ev_find_as(ops, group, name, type, member)			\
({									\
	struct probe_ev_event *__ev = probe_ev_find_event(ops, group, name); \
	__ev ? container_of(__ev, type, member) : NULL;			\
})
bool probe_ev_event_named(struct probe_ev_event *ev, const char *group,
		     const char *name);
bool probe_ev_dyn_match(struct probe_ev_event *ev, const char *system,
			const char *event, int argc, const char **argv,
			const struct parg_set *args);
bool probe_ev_any_busy(const struct dyn_event_operations *dyn_ops);

/* ------------------------------------------------------------ modules */

struct module;

/*
 * A front end's handlers of a module that comes (MODULE_STATE_COMING)
 * and goes (MODULE_STATE_GOING), run under event_mutex for the modules
 * @wants (NULL: all).  Coming runs after jump labels (priority 1) and the
 * kprobes and tracepoint cores (0) know the module; going runs before
 * they forget it.  probe_ev_watch_modules() fills in the notifiers.
 */
struct probe_ev_modules {
	bool (*wants)(struct module *mod);
	void (*coming)(struct module *mod);
	void (*going)(struct module *mod);
	struct notifier_block coming_nb, going_nb;
};

int probe_ev_watch_modules(struct probe_ev_modules *pm);

/* --------------------------------------------------------- stat files */

unsigned long probe_ev_count_sum(const void __percpu *counts, size_t offset);

/*
 * A tracefs file that lists one front end's probes in the order of the
 * dyn_event list: kprobe_events, uprobe_profile, fprobe_profile...
 * Pass it to probe_ev_create_files(), which makes it the inode's data.
 */
struct probe_ev_file {
	const char *name;
	/* whose probes it lists */
	const struct dyn_event_operations *dyn_ops;
	/*
	 * The line(s) of the probe of @dev, or the header line when @dev
	 * is NULL; event_mutex held.
	 */
	int (*show)(struct seq_file *m, struct dyn_event *dev);
	bool header;			/* has a header line */
	/*
	 * A definitions file: opened with O_TRUNC it deletes every probe
	 * first (@remove_all: 0 or an errno, then nothing was deleted that
	 * was in use); a line written to it goes to @run_command.
	 */
	int (*remove_all)(void);
	int (*run_command)(const char *raw);
};

void probe_ev_create_files(const struct probe_ev_file *files, unsigned int n);

/* Make the files of the table @files once tracefs is up. */
#define probe_ev_files_initcall(files)					\
static __init int files##_init(void)					\
{									\
	probe_ev_create_files(files, ARRAY_SIZE(files));		\
	return 0;							\
}									\
fs_initcall(files##_init)
void probe_ev_show_head(struct seq_file *m, char kind, int maxactive,
		   struct probe_ev_event *ev);
void probe_ev_show_args(struct seq_file *m, const struct parg_set *args);
void probe_ev_seq_event_name(struct seq_file *m, struct trace_event_call *call);

/* ====================================================== scratch pool */
/*
 * The per-CPU scratch every front end builds a record in when its size
 * is known only after the fetch (strings) or when it is tested before it
 * is reserved (filters).  probe_event_scratch.c has the design note.
 *
 * One rule for every user: with preemption off, probe_ev_scratch_get() takes
 * the next level of this CPU and probe_ev_scratch_put() gives it back; each
 * get is paired with one put, also when the get returned NULL (nested
 * deeper than PROBE_EV_SCRATCH_LEVELS: the caller drops the record and counts
 * it).  Hits of any kind may nest on a CPU (an interrupt, an NMI, an
 * event fired from inside a fetch), so a level is never held across a
 * preemption point.
 */
/* two pages, but never more than the per-CPU allocator hands out (64K pages) */
#define PROBE_EV_SCRATCH_SIZE						\
	(2 * PAGE_SIZE < PCPU_MIN_UNIT_SIZE ? 2 * PAGE_SIZE : PCPU_MIN_UNIT_SIZE)
#define PROBE_EV_SCRATCH_LEVELS	5	/* task, softirq, irq, NMI, one more */

struct probe_ev_scratch_cpu {
	unsigned int depth;			/* levels taken on this CPU */
	void *level[PROBE_EV_SCRATCH_LEVELS];	/* this CPU's buffers */
};
DECLARE_PER_CPU(struct probe_ev_scratch_cpu, probe_ev_scratch_cpu);

int probe_ev_scratch_reserve(void);

/* This CPU's next free level, or NULL.  Preemption off; NMI-safe. */
static __always_inline void *probe_ev_scratch_get(void)
{
	unsigned int depth = __this_cpu_inc_return(probe_ev_scratch_cpu.depth) - 1;

	barrier();	/* the level is ours before we write to it */
	if (unlikely(depth >= PROBE_EV_SCRATCH_LEVELS))
		return NULL;
	return __this_cpu_read(probe_ev_scratch_cpu.level[depth]);
}

static __always_inline void probe_ev_scratch_put(void)
{
	barrier();	/* done with the level before it is given back */
	__this_cpu_dec(probe_ev_scratch_cpu.depth);
}
/* =================================================== end scratch pool */

/* ------------------------------------------ writing a hit's record */

/* The room a record may take in @buffer, strings and scratch included. */
static __always_inline unsigned int probe_ev_room(struct trace_buffer *buffer)
{
	return min_t(unsigned long, ring_buffer_max_event_size(buffer),
		     PROBE_EV_SCRATCH_SIZE);
}

/* Perf records are padded so that size + the u32 length word is 8-aligned. */
static __always_inline unsigned int probe_ev_perf_size(unsigned int size)
{
	return ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * The perf buffer to ask for a record of @size bytes or, with strings
 * (@dynamic), of a size known only once fetched: then all perf gives.
 */
static __always_inline unsigned int probe_ev_perf_room(unsigned int size,
						       bool dynamic)
{
	return probe_ev_perf_size(dynamic ? PERF_MAX_TRACE_SIZE - sizeof(u64) :
				  size);
}

/*
 * Hand @ent, a perf buffer of @room bytes (probe_ev_perf_room()), to
 * the perf events @head of @call.  A record with strings, @size bytes once fetched, is cut to its
 * padded size with no stale bytes in the pad.
 */
static __always_inline void probe_ev_perf_submit(struct trace_event_call *call,
						 void *ent, unsigned int size,
						 unsigned int room, bool dynamic,
						 int rctx, struct pt_regs *regs,
						 struct hlist_head *head)
{
	if (dynamic) {
		room = probe_ev_perf_size(size);
		memset(ent + size, 0, room - size);
	}
	perf_trace_buf_submit(ent, room, rctx, call->event.type, 1, regs,
			      head, NULL);
}
#endif

#endif /* _TRACE_PROBE_EVENT_H */
