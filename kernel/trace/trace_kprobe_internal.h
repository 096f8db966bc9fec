/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: Design notes
 *
 * trace_kprobe_internal.h - the kprobe event layer, shared between its files.
 * Prefixes: ``tk_`` (trace kprobe: this layer), ``parg_`` (the argument library
 * below it), ``pev_`` (the shared probe-event layer), ``kprobe_`` (the core).
 *
 * Terms (Documentation/trace/kprobetrace.rst has the user's view)::
 *
 *   definition  one line written to kprobe_events or dynamic_events,
 *               "p:grp/name place args..." or "-:grp/name".
 *   probe       what one definition arms: a kprobe (or kretprobe) plus
 *               the compiled fetch arguments that fill a record on a hit.
 *               Struct tk_probe.  Each is one line in kprobe_events.
 *   event       what tracefs shows as events/<grp>/<name>: one
 *               trace_event_call with its format, filter and triggers.
 *               Struct tk_event.  An event owns one probe or more
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

#define TK_DEFAULT_GROUP	"kprobes"
#define TK_MAXACTIVE_MAX	4096	/* kretprobe instances per probe */
#define TK_MAXACT_TEXT		16	/* digits of MAXACTIVE, with NUL */
/* Auto-generated names are cut to fit; user names must fit. */
#define TK_NAME_LEN		MAX_EVENT_NAME_LEN

/*
 * Errors of the event layer itself (trace_kprobe_errors.h).  The error_log
 * table is that list followed by the argument library's probe_arg_errors.h;
 * pev_err_code(TK_ERR_PARG_FIRST, code) maps a library code into it.
 */
#define TK_ERROR(code, msg)	TK_ERR_##code,
enum tk_err_code {
#include "trace_kprobe_errors.h"
	TK_ERR_PARG_FIRST	/* PARG code c is TK_ERR_PARG_FIRST + c - 1 */
};

#undef TK_ERROR


/*
 * Parse context: the words of one definition, as argv_split() cut them.
 * error_log shows them joined by single spaces, with the caret under
 * byte @pos of word @word.  @strict: the line was written to
 * kprobe_events, so every line is ours and every refusal is logged;
 * dynamic_events offers lines that are not kprobe definitions (uprobes
 * share 'p' and 'r') to the other parsers.
 */
struct tk_parse {
	int argc;
	const char **argv;
	bool strict;
};

void tk_parse_error(const struct tk_parse *p, int word, int pos,
		    enum tk_err_code code);
/* The same with a message made for this entry (which a later one may reuse). */
__printf(4, 5)
void tk_parse_note(const struct tk_parse *p, int word, int pos,
		   const char *fmt, ...);

/*
 * trace_kprobe_places.c: the functions a place word names ("vfs_*",
 * "vfs_read,vfs_write", "!vfs_foo", clones of a NAME).  @names holds
 * @n "[MOD:]SYM" strings one after another, in address order.
 */
struct tk_found {
	unsigned int n;
	unsigned int skipped;	/* matches that cannot be probed */
	char *names;		/* kvfree() */
	unsigned long *addrs;	/* where they were found; kvfree() */
	struct module *mod;	/* MOD: held, so that @addrs stay true */
};

/* Does the place word name many functions (wildcards, a list, a '!')? */
bool tk_place_is_pattern(const char *word);
/*
 * Fill @f with the functions @pattern names in @module (NULL: vmlinux).
 * Returns 0, -ENOENT (none that can be probed), -E2BIG (more than
 * TK_PLACES_MAX functions; or more than 64 items, *@bad at the first one
 * too many), -EINVAL (an empty item at byte *@bad), -ENOMEM.
 */
int tk_find_places(const char *module, const char *pattern,
		   struct tk_found *f, int *bad);
void tk_found_release(struct tk_found *f);
/* Zeroed memory for place arrays and names, freed with kvfree(). */
void *tk_places_alloc(size_t size);
/*
 * Would probing the function at @addr recurse into ftrace?  @size (of
 * the function starting at @addr) and @name are what the caller knows
 * of it: 0 and NULL are looked up.
 */
bool tk_notrace_sym(unsigned long addr, unsigned long size, const char *name);

/*
 * A definition, parsed up to (not including) its argument words.  The
 * string fields point into the buffers of the struct or into argv.
 */
struct tk_def {
	bool is_return;
	int maxactive;			/* kretprobe instances, 0: default */
	const char *group;
	const char *event;		/* NULL: make a name up */
	char *symbol;			/* "[MOD:]SYM" (kmalloc'ed) or NULL */
	char *pattern;			/* many places: as written, or NULL */
	struct tk_found found;		/* with @pattern: the places */
	unsigned long offset;		/* from @symbol */
	void *addr;			/* when @symbol is NULL */
	bool on_func_entry;		/* place is a function entry */
	int nargs;
	const char **args;		/* the argument words, in argv */
	char module[MODULE_NAME_LEN];	/* "" for vmlinux */
	char group_buf[TK_NAME_LEN];
	char event_buf[TK_NAME_LEN];
};

/*
 * Fill @def from the head and place words.  Returns 0, -ECANCELED when
 * the line is not a kprobe definition and @p is not strict (nothing is
 * logged then), or an errno with an error_log entry written.
 */
int tk_parse_def(const struct tk_parse *p, struct tk_def *def);
void tk_def_release(struct tk_def *def);	/* frees @def->symbol */

/* Count the kallsyms entries named @name in @module (NULL: everywhere). */
unsigned int tk_count_symbols(const char *module, const char *name);
/* Is the module @name loaded (or coming)? */
bool tk_module_loaded(const char *name);
/* 0 if "[MOD:]SYM" is one function or MOD is not loaded; else an errno. */
int tk_check_symbol(const char *symbol);

/*
 * One kprobe event: the shared part, and what only kprobe events have.
 * Allocated with its first probe and freed with its last.
 */
struct tk_event {
	struct pev_event pev;
	/* every probe's first place a function entry; event_mutex to write */
	bool on_entry;
	/* every place on the error-injection list; event_mutex to write */
	bool injectable;
};

/*
 * Hits a probe's event did not get, by cause, as kprobe_misses shows
 * them; their sum is the misses column of kprobe_profile.
 */
struct tk_misses {
	unsigned long recursion;	/* another probe handler was running */
	unsigned long no_instance;	/* every return instance was in use */
	unsigned long buffer_full;	/* the ring buffer refused the record */
	unsigned long disabled;		/* the path to the handlers was shut down */
	unsigned long skipped;		/* another probe's handler redirected */
};

/* What hits count, per CPU. */
struct tk_counts {
	unsigned long hits;
	unsigned long dropped;		/* hits with a record refused */
	unsigned long drop_mark;	/* @hits when @dropped last grew */
	struct kprobe_cost cost;	/* the kprobes core samples into it */
};

struct tk_probe;

/*
 * A place of a probe over many functions, past its first (which is the
 * probe's own @rp): a kretprobe, or its kprobe alone for an entry probe,
 * whose handlers find the probe through @tp.
 */
struct tk_place {
	struct kretprobe rp;
	struct tk_probe *tp;
};

/* Most places one definition may name (error_log says so past it). */
#define TK_PLACES_MAX		20000
/* Return instances of each place of a return probe, by default. */
#define TK_PLACE_MAXACTIVE	10

/*
 * What the kprobes core counted for a probe in its earlier registrations
 * (the core starts from zero at each): kprobe_misses' causes but the ring
 * buffer's, which the probe counts itself.
 */
struct tk_core_misses {
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
struct tk_many {
	char *pattern;			/* the place word as written */
	struct tk_place *more;		/* places 1..@nplaces-1 */
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
struct tk_probe {
	struct kretprobe rp;		/* rp.kp is the probe of both kinds */
	struct tk_event *event;
	struct parg_set *args;		/* may be @event->layout */
	unsigned int rec_size;		/* head + fixed block: exact size */
	bool has_args;
	bool dynamic;			/* strings follow the fixed block */
	bool registered;		/* the kprobes core has it; event_mutex */
	struct tk_counts __percpu *counts;

	/* control: event_mutex */
	struct dyn_event devent;	/* in kprobe_events unless local */
	struct list_head sibling;	/* in @event->probes */
	struct tk_many *many;		/* many places, or NULL */
	struct tk_core_misses before;
};

/*
 * "[MOD:]SYM" as defined (the probe's own copy, which its kprobe goes
 * by), or NULL for a probe by address.
 */
static inline const char *tk_probe_symbol(const struct tk_probe *tp)
{
	return tp->rp.kp.symbol_name;
}

static inline unsigned int tk_probe_nplaces(const struct tk_probe *tp)
{
	return tp->many ? tp->many->nplaces : 1;
}

/* The place word of a probe over many functions, or NULL. */
static inline const char *tk_probe_pattern(const struct tk_probe *tp)
{
	return tp->many ? tp->many->pattern : NULL;
}

/* Place @i of @tp: 0 is the probe's own @rp, then @more. */
static inline struct kretprobe *tk_probe_place(struct tk_probe *tp,
					       unsigned int i)
{
	return i ? &tp->many->more[i - 1].rp : &tp->rp;
}

static inline struct tk_probe *tk_event_primary(struct tk_event *ev)
{
	return list_first_entry_or_null(&ev->pev.probes, struct tk_probe, sibling);
}

static inline struct tk_event *tk_event_of(struct trace_event_call *call)
{
	return container_of(call, struct tk_event, pev.call);
}

/*
 * A record of the running hit of @tp was refused (a ring buffer, perf):
 * count the hit as dropped, once however many of its records were.
 * Kprobe handlers do not nest on a CPU (see trace_kprobe_hit.c), so
 * this CPU's hit count names the hit that runs, and @drop_mark says
 * whether it was counted already.  Called in the handler only.
 */
static __always_inline void tk_count_drop(struct tk_probe *tp)
{
	struct tk_counts *c = raw_cpu_ptr(tp->counts);

	if (c->drop_mark != c->hits) {
		c->drop_mark = c->hits;
		c->dropped++;
	}
}

/* trace_kprobe.c */
int tk_run_command(const char *raw);	/* a line as kprobe_events takes */
void tk_event_injectable_update(struct tk_event *ev);
void tk_probe_misses(const struct tk_probe *tp, struct tk_misses *m);
unsigned long tk_probe_missed(const struct tk_probe *tp);
unsigned long tk_probe_address(const struct tk_probe *tp);
struct tk_probe *tk_probe_new(struct tk_def *def, struct parg_set *set);
void tk_probe_free(struct tk_probe *tp);
int tk_probe_arm(struct tk_probe *tp);
void tk_probe_disarm(struct tk_probe *tp);

/* trace_kprobe_event.c */
struct tk_event *tk_event_new(const char *group, const char *name,
			      struct tk_probe *first);
struct tk_event *tk_find_event(const char *group, const char *name);

/*
 * dyn_event batch hooks (tk_dyn_ops): the event core enables or disables
 * many events at once under event_mutex; their probes are armed in one
 * kprobes batch, at the end, which returns 0 or the error of a probe
 * that could not be armed.
 */
void trace_kprobe_batch_begin(void);
int trace_kprobe_batch_end(void);

/* trace_kprobe_hit.c */
int tk_kprobe_hit(struct kprobe *kp, struct pt_regs *regs);
int tk_kretprobe_hit(struct kretprobe_instance *ri, struct pt_regs *regs);
int tk_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
int tk_place_hit(struct kprobe *kp, struct pt_regs *regs);
int tk_place_ret_hit(struct kretprobe_instance *ri, struct pt_regs *regs);
int tk_place_ret_entry(struct kretprobe_instance *ri, struct pt_regs *regs);

/* trace_kprobe_perf_hit.c */
#ifdef CONFIG_PERF_EVENTS
int tk_perf_hit(struct tk_probe *tp, unsigned long addr, struct pt_regs *regs);
void tk_perf_ret_hit(struct tk_probe *tp, unsigned long addr,
		     struct kretprobe_instance *ri, struct pt_regs *regs);
#else
static inline int tk_perf_hit(struct tk_probe *tp, unsigned long addr,
			      struct pt_regs *regs)
{
	return 0;
}

static inline void tk_perf_ret_hit(struct tk_probe *tp, unsigned long addr,
				   struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
}
#endif

#endif /* _KERNEL_TRACE_TRACE_KPROBE_INTERNAL_H */
