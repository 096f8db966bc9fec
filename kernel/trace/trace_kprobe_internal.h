/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: kprobe events: what the layer's files share
 *
 * trace_kprobe_internal.h - the kprobe event layer, shared between its files.
 * Prefixes: ``kpev_`` (trace kprobe: this layer), ``parg_`` (the argument library
 * below it), ``probe_ev_`` (the shared probe-event layer), ``kprobe_`` (the core).
 *
 * Terms (Documentation/trace/kprobetrace.rst has the user's view)::
 *
 *   definition  one line written to kprobe_events or dynamic_events,
 *               "p:grp/name place args..." or "-:grp/name".
 *   probe       what one definition arms: a kprobe (or kretprobe) plus
 *               the compiled fetch arguments that fill a record on a hit.
 *               Struct kpev_probe.  Each is one line in kprobe_events.
 *   event       what tracefs shows as events/<grp>/<name>: one
 *               trace_event_call with its format, filter and triggers.
 *               Struct kpev_event.  An event owns one probe or more
 *               ("multiprobe"); all of them have the same argument names
 *               and types, so they write records of the same shape.
 *   record      what a hit writes: a head (trace_entry, then the probed
 *               address or the function and return addresses) followed
 *               by the argument block the argument library fills.
 *
 * The files::
 *
 *   trace_kprobe.c        probe and event lifetime, registration with the
 *                         kprobes core, dyn_event ops, kprobe_events,
 *                         kprobe_profile, modules, deleting in batches
 *   trace_kprobe_parse.c  the definition grammar and error_log entries
 *   trace_kprobe_event.c  its trace_event_call (on probe_event.c): new,
 *                         arming the probes for its first user
 *   trace_kprobe_hit.c    the hit path: dispatchers and trace records
 *   trace_kprobe_perf.c   perf and BPF attachment (CONFIG_PERF_EVENTS)
 *   trace_kprobe_perf_hit.c  a hit, for perf and BPF (CONFIG_PERF_EVENTS)
 *   trace_kprobe_gen.c    the in-kernel generation API, kprobe_event=
 *
 * Locking: event_mutex serializes every change to probes and events and
 * guards the dyn_event list; definitions are parsed under
 * dyn_event_ops_mutex (taken by the dyn_event core, outside
 * event_mutex).  The hit path takes no lock: it reads what it needs from
 * the probe and event, which only change while the probe is not armed,
 * and walks the event's file links under RCU (kprobe handlers run with
 * preemption disabled).
 */
#ifndef _KERNEL_TRACE_TRACE_KPROBE_INTERNAL_H
#define _KERNEL_TRACE_TRACE_KPROBE_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_arg.h"
#include "probe_event.h"
#include "trace_kprobe.h"

#define KPEV_DEFAULT_GROUP	"kprobes"
#define KPEV_MAXACTIVE_MAX	4096	/* kretprobe instances per probe */
#define KPEV_MAXACT_TEXT		16	/* digits of MAXACTIVE, with NUL */
/* Auto-generated names are cut to fit; user names must fit. */
#define KPEV_NAME_LEN		MAX_EVENT_NAME_LEN

/*
 * Errors of the event layer itself (trace_kprobe_errors.h).  The error_log
 * table is that list followed by the argument library's probe_arg_errors.h;
 * probe_ev_err_code(KPEV_ERR_PARG_FIRST, code) maps a library code into it.
 */
#define KPEV_ERROR(code, msg)	KPEV_ERR_##code,
enum kpev_err_code {
#include "trace_kprobe_errors.h"
	KPEV_ERR_PARG_FIRST	/* PARG code c is KPEV_ERR_PARG_FIRST + c - 1 */
};

#undef KPEV_ERROR


/*
 * Parse context: the words of one definition, as argv_split() cut them.
 * error_log shows them joined by single spaces, with the caret under
 * byte @pos of word @word.  @strict: the line was written to
 * kprobe_events, so every line is ours and every refusal is logged;
 * dynamic_events offers lines that are not kprobe definitions (uprobes
 * share 'p' and 'r') to the other parsers.
 */
struct kpev_parse {
	struct probe_ev_words w;
	bool strict;
};

extern const struct probe_ev_errors kpev_errors;
void kpev_parse_error(const struct kpev_parse *p, int word, int pos,
		    enum kpev_err_code code);
/* The same with a message made for this entry (which a later one may reuse). */
__printf(4, 5)
void kpev_parse_note(const struct kpev_parse *p, int word, int pos,
		   const char *fmt, ...);

/*
 * trace_kprobe_places.c: the functions a place word names ("vfs_*",
 * "vfs_read,vfs_write", "!vfs_foo", clones of a NAME).  @names holds
 * @n "[MOD:]SYM" strings one after another, in address order.
 */
struct kpev_found {
	unsigned int n;
	unsigned int skipped;	/* matches that cannot be probed */
	char *names;		/* kvfree() */
	unsigned long *addrs;	/* where they were found; kvfree() */
	struct module *mod;	/* MOD: held, so that @addrs stay true */
};

/* Does the place word name many functions (wildcards, a list, a '!')? */
bool kpev_place_is_pattern(const char *word);
/*
 * Fill @f with the functions @pattern names in @module (NULL: vmlinux).
 * Returns 0, -ENOENT (none that can be probed), -E2BIG (more than
 * KPEV_PLACES_MAX functions; or more than 64 items, *@bad at the first one
 * too many), -EINVAL (an empty item at byte *@bad), -ENOMEM.
 */
int kpev_find_places(const char *module, const char *pattern,
		   struct kpev_found *f, int *bad);
void kpev_found_release(struct kpev_found *f);
/* Zeroed memory for place arrays and names, freed with kvfree(). */
void *kpev_places_alloc(size_t size);
/*
 * Would probing the function at @addr recurse into ftrace?  @size (of
 * the function starting at @addr) and @name are what the caller knows
 * of it: 0 and NULL are looked up.
 */
bool kpev_notrace_sym(unsigned long addr, unsigned long size, const char *name);

/*
 * A definition, parsed up to (not including) its argument words.  The
 * string fields point into the buffers of the struct or into argv.
 */
struct kpev_def {
	bool is_return;
	int maxactive;			/* kretprobe instances, 0: default */
	const char *group;
	const char *event;		/* NULL: make a name up */
	char *symbol;			/* "[MOD:]SYM" (kmalloc'ed) or NULL */
	char *pattern;			/* many places: as written, or NULL */
	struct kpev_found found;		/* with @pattern: the places */
	unsigned long offset;		/* from @symbol */
	void *addr;			/* when @symbol is NULL */
	bool on_func_entry;		/* place is a function entry */
	int nargs;
	const char **args;		/* the argument words, in argv */
	char module[MODULE_NAME_LEN];	/* "" for vmlinux */
	char group_buf[KPEV_NAME_LEN];
	char event_buf[KPEV_NAME_LEN];
};

/*
 * Fill @def from the head and place words.  Returns 0, -ECANCELED when
 * the line is not a kprobe definition and @p is not strict (nothing is
 * logged then), or an errno with an error_log entry written.
 */
int kpev_parse_def(const struct kpev_parse *p, struct kpev_def *def);
void kpev_def_release(struct kpev_def *def);	/* frees @def->symbol */

/* Count the kallsyms entries named @name in @module (NULL: everywhere). */
unsigned int kpev_count_symbols(const char *module, const char *name);
/* Is the module @name loaded (or coming)? */
bool kpev_module_loaded(const char *name);
/* 0 if "[MOD:]SYM" is one function or MOD is not loaded; else an errno. */
int kpev_check_symbol(const char *symbol);

/*
 * One kprobe event: the shared part, and what only kprobe events have.
 * Allocated with its first probe and freed with its last.
 */
struct kpev_event {
	struct probe_ev_event pev;
};

/*
 * pev.kind_flags of a kprobe event, written under event_mutex, so that
 * the event stays one kmalloc-256 object.  Read without it by BPF:
 * every probe's first place is a function entry; every place is on the
 * error-injection list.  Read under it: the event was armed in the
 * batch of enables now open (trace_kprobe_batch_begin()).
 */
#define KPEV_EV_ON_ENTRY	BIT(0)
#define KPEV_EV_INJECTABLE	BIT(1)
#define KPEV_EV_BATCH_ARMED	BIT(2)

/*
 * Hits a probe's event did not get, by cause, as kprobe_misses shows
 * them; their sum is the misses column of kprobe_profile.
 */
struct kpev_misses {
	unsigned long recursion;	/* another probe handler was running */
	unsigned long no_instance;	/* every return instance was in use */
	unsigned long buffer_full;	/* the ring buffer refused the record */
	unsigned long disabled;		/* the path to the handlers was shut down */
	unsigned long skipped;		/* another probe's handler redirected */
};

/* What hits count, per CPU. */
struct kpev_counts {
	unsigned long hits;
	unsigned long dropped;		/* hits with a record refused */
	unsigned long drop_mark;	/* @hits when @dropped last grew */
	struct kprobe_cost cost;	/* the kprobes core samples into it */
};

struct kpev_probe;

/*
 * A place of a probe over many functions, past its first (which is the
 * probe's own @rp): a kretprobe, or its kprobe alone for an entry probe,
 * whose handlers find the probe through @tp.
 */
struct kpev_place {
	struct kretprobe rp;
	struct kpev_probe *tp;
};

/* Most places one definition may name (error_log says so past it). */
#define KPEV_PLACES_MAX		20000
/* Return instances of each place of a return probe, by default. */
#define KPEV_PLACE_MAXACTIVE	10

/*
 * What the kprobes core counted for a probe in its earlier registrations
 * (the core starts from zero at each): kprobe_misses' causes but the ring
 * buffer's, which the probe counts itself.
 */
struct kpev_core_misses {
	unsigned long recursion;
	unsigned long no_instance;
	unsigned long disabled;
	unsigned long skipped;
};

/*
 * The places of a probe whose place word is a pattern or a list
 * ("p:grp/ev vfs_*"), past its first; NULL for a probe on one symbol or
 * address.  A pattern that found one function has one, with no @more.
 */
struct kpev_many {
	char *pattern;			/* the place word as written */
	struct kpev_place *more;		/* places 1..@nplaces-1 */
	char *names;			/* their "[MOD:]SYM"s, one after another */
	unsigned long *addrs;		/* until first armed: their addresses */
	struct module *addrs_mod;	/* held as long as @addrs, or NULL */
	unsigned int nplaces;		/* how many the pattern found */
	unsigned int skipped;		/* matches that cannot be probed */
};

/*
 * One probe.  The fields above @devent are what a hit reads; they do not
 * change while the kprobe is registered (@registered aside: event_mutex,
 * read with an acquire by BPF's link info).  A definition over many
 * functions is one probe with many places: @rp and then @many->more.
 * 256 bytes on 64-bit: one kmalloc-256 object.
 */
struct kpev_probe {
	struct kretprobe rp;		/* rp.kp is the probe of both kinds */
	struct kpev_event *event;
	struct parg_set *args;		/* may be @event->layout */
	unsigned int rec_size;		/* head + fixed block: exact size */
	bool has_args;
	bool dynamic;			/* strings follow the fixed block */
	bool registered;		/* the kprobes core has it; event_mutex */
	struct kpev_counts __percpu *counts;

	/* control: event_mutex */
	struct dyn_event devent;	/* in kprobe_events unless local */
	struct list_head sibling;	/* in @event->probes */
	struct kpev_many *many;		/* many places, or NULL */
	struct kpev_core_misses before;
};

/*
 * "[MOD:]SYM" as defined (the probe's own copy, which its kprobe goes
 * by), or NULL for a probe by address.
 */
static inline const char *kpev_probe_symbol(const struct kpev_probe *tp)
{
	return tp->rp.kp.symbol_name;
}

static inline unsigned int kpev_probe_nplaces(const struct kpev_probe *tp)
{
	return tp->many ? tp->many->nplaces : 1;
}

/* The place word of a probe over many functions, or NULL. */
static inline const char *kpev_probe_pattern(const struct kpev_probe *tp)
{
	return tp->many ? tp->many->pattern : NULL;
}

/* Place @i of @tp: 0 is the probe's own @rp, then @more. */
static inline struct kretprobe *kpev_probe_place(struct kpev_probe *tp,
					       unsigned int i)
{
	return i ? &tp->many->more[i - 1].rp : &tp->rp;
}

static inline struct kpev_probe *kpev_event_primary(struct kpev_event *ev)
{
	return list_first_entry_or_null(&ev->pev.probes, struct kpev_probe, sibling);
}

static inline struct kpev_event *kpev_event_of(struct trace_event_call *call)
{
	return container_of(call, struct kpev_event, pev.call);
}

/*
 * A record of the running hit of @tp was refused (a ring buffer, perf):
 * count the hit as dropped, once however many of its records were.
 * Kprobe handlers do not nest on a CPU (see trace_kprobe_hit.c), so
 * this CPU's hit count names the hit that runs, and @drop_mark says
 * whether it was counted already.  Called in the handler only.
 */
static __always_inline void kpev_count_drop(struct kpev_probe *tp)
{
	struct kpev_counts *c = raw_cpu_ptr(tp->counts);

	if (c->drop_mark != c->hits) {
		c->drop_mark = c->hits;
		c->dropped++;
	}
}

/* trace_kprobe.c */
int kpev_run_command(const char *raw);	/* a line as kprobe_events takes */
void kpev_event_injectable_update(struct kpev_event *ev);
void kpev_event_not_injectable(struct kpev_event *ev);
void kpev_events_forget_batch(void);
void kpev_probe_misses(const struct kpev_probe *tp, struct kpev_misses *m);
unsigned long kpev_probe_missed(const struct kpev_probe *tp);
unsigned long kpev_probe_address(const struct kpev_probe *tp);
struct kpev_probe *kpev_probe_new(struct kpev_def *def, struct parg_set *set);
void kpev_probe_free(struct kpev_probe *tp);
int kpev_probe_arm(struct kpev_probe *tp);
void kpev_probe_disarm(struct kpev_probe *tp);
void kpev_local_probe_disarm(struct kpev_probe *tp);

/* trace_kprobe_event.c */
struct kpev_event *kpev_event_new(const char *group, const char *name,
			      struct kpev_probe *first);
struct kpev_event *kpev_find_event(const char *group, const char *name);

/*
 * dyn_event batch hooks (kpev_dyn_ops): the event core enables or disables
 * many events at once under event_mutex; their probes are armed in one
 * kprobes batch, at the end, which returns 0 or the error of a probe
 * that could not be armed; the events of such probes are turned off.
 */
void trace_kprobe_batch_begin(void);
int trace_kprobe_batch_end(void);

/* trace_kprobe_hit.c */
void kpev_set_handlers(struct kpev_probe *tp, struct kretprobe *rp,
		       bool is_return, bool place);

/* trace_kprobe_perf_hit.c */
#ifdef CONFIG_PERF_EVENTS
int kpev_perf_hit(struct kpev_probe *tp, unsigned long addr, struct pt_regs *regs);
void kpev_perf_ret_hit(struct kpev_probe *tp, unsigned long addr,
		     struct kretprobe_instance *ri, struct pt_regs *regs);
#else
static inline int kpev_perf_hit(struct kpev_probe *tp, unsigned long addr,
			      struct pt_regs *regs)
{
	return 0;
}

static inline void kpev_perf_ret_hit(struct kpev_probe *tp, unsigned long addr,
				   struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
}
#endif

#endif /* _KERNEL_TRACE_TRACE_KPROBE_INTERNAL_H */
