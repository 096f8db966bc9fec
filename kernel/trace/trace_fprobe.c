// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: fprobe and tracepoint probe events: definitions and their lifetime
 *
 * trace_fprobe.c - fprobe events (f:) and tracepoint probes (t:): their
 * probes, registration with the fprobe core, creation and deletion
 * through dynamic_events, and fprobe_profile.
 *
 * User's guide: Documentation/trace/fprobetrace.rst.  Terms and the map
 * of this layer's files: trace_fprobe_internal.h.
 *
 * Life of a probe::
 *
 *   definition --parse--> fpev_def + parg_set --> fpev_probe
 *        |                                          |
 *        |            first probe of its name: a new fpev_event, published
 *        |            as events/<group>/<event>; else it joins the event
 *        v                                          v
 *   dynamic_events line             its place checked; registered with
 *                                   the fprobe core while its event has
 *                                   a user; a t: probe whose module is
 *                                   not loaded waits for it
 *
 * Invariants::
 *
 *   - Every probe on the dyn_event list belongs to a published event, and
 *     every event has at least one probe, all of one kind (f: entry,
 *     f: exit, t:) and one argument layout.
 *   - A probe's fprobe is registered iff @registered.  What a hit reads
 *     is set before registration and unchanged until unregistration,
 *     which waits for running handlers; only then is anything freed.
 *   - A probe is armed (registered; a t: probe's stub attached) only
 *     while its event has a user, and its place is known.
 *   - Deleting never leaves an event half-removed: an event in use (on,
 *     open, or used by perf) refuses, before anything is changed.  A
 *     probe leaving an event in use is unregistered before anything else
 *     goes; if the fprobe core refuses (ftrace has failed), the probe
 *     stays registered, the event stays listed, and the delete fails
 *     with the core's errno.
 *
 * fprobe_profile, read-only: "  GROUP/EVENT  HITS  MISSES" per probe,
 * as eprobe_profile has it.  MISSES counts every hit that made no record
 * where one was asked for: the fprobe core's misses (no room for an
 * exit probe's entry data) and the hit path's drops (fpev_counts::dropped).
 *
 * Locking: event_mutex covers all of the above; see the header.
 */
#define pr_fmt(fmt)	"trace_fprobe: " fmt

#include <linux/security.h>
#include <linux/slab.h>

#include "trace_fprobe_internal.h"

static struct dyn_event_operations fpev_dyn_ops;

static struct fpev_probe *fpev_probe_of(struct dyn_event *dev)
{
	return dev->ops == &fpev_dyn_ops ?
		container_of(dev, struct fpev_probe, devent) : NULL;
}

/* The probe after @tp on the dyn_event list (NULL: the first); event_mutex. */
struct fpev_probe *fpev_probe_after(struct fpev_probe *tp)
{
	return probe_ev_probe_next(tp, &fpev_dyn_ops, devent);
}

/* ------------------------------------------------------------ probes */

static bool fpev_probe_is_return(const struct fpev_probe *tp)
{
	return tp->fp.exit_handler != NULL;
}

static unsigned long fpev_probe_hits(const struct fpev_probe *tp)
{
	return probe_ev_count_sum(tp->counts, offsetof(struct fpev_counts, hits));
}

static unsigned long fpev_probe_missed(const struct fpev_probe *tp)
{
	unsigned long n = tp->missed_before;

	if (tp->registered)
		n += READ_ONCE(tp->fp.nmissed);
	return n + probe_ev_count_sum(tp->counts,
				 offsetof(struct fpev_counts, dropped));
}

static void fpev_probe_free(struct fpev_probe *tp);

/*
 * A probe for @def, owning @set (also when this fails); not on any list,
 * not registered.
 */
static struct fpev_probe *fpev_probe_new(const struct fpev_def *def,
				     struct parg_set *set)
{
	unsigned int head = def->is_return ?
			    sizeof(struct fexit_trace_entry_head) :
			    sizeof(struct fentry_trace_entry_head);
	struct fpev_probe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp) {
		parg_set_free(set);
		return NULL;
	}
	tp->args = set;
	tp->symbol = kstrdup(def->symbol, GFP_KERNEL);
	tp->counts = alloc_percpu(struct fpev_counts);
	if (!tp->symbol || !tp->counts) {
		fpev_probe_free(tp);
		return NULL;
	}
	tp->is_tprobe = def->is_tprobe;
	tp->rec_size = head + parg_set_size(set);
	tp->has_args = parg_set_count(set) > 0;
	tp->dynamic = parg_set_is_dynamic(set);
	if (def->is_return) {
		tp->fp.exit_handler = fpev_exit_hit;
		tp->fp.entry_data_size = parg_set_entry_size(set);
		if (tp->fp.entry_data_size)
			tp->fp.entry_handler = fpev_entry_save;
	} else {
		tp->fp.entry_handler = fpev_entry_hit;
	}
	INIT_LIST_HEAD(&tp->sibling);
	dyn_event_init(&tp->devent, &fpev_dyn_ops);
	return tp;
}

/*
 * Free an unregistered probe that is on no list.  NULL is fine.  One the
 * fprobe core still holds is leaked rather than freed under it.
 */
static void fpev_probe_free(struct fpev_probe *tp)
{
	if (!tp || WARN_ON_ONCE(tp->registered))
		return;
	parg_set_free(tp->args);
	free_percpu(tp->counts);
	kfree(tp->symbol);
	kfree(tp);
}

/*
 * Register @tp's fprobe: on the functions SYM names, or on the stub of
 * its attached tracepoint.  Its handlers run from then on.
 */
int fpev_probe_register(struct fpev_probe *tp)
{
	unsigned long stub;
	int ret;

	ret = probe_ev_may_register(tp->registered) ?:
	      parg_set_resolve(tp->args);
	if (ret)
		return ret;
	if (tp->is_tprobe) {
		stub = (unsigned long)tp->tpoint->tpoint->probestub;
		ret = register_fprobe_ips(&tp->fp, &stub, 1);
	} else {
		ret = register_fprobe(&tp->fp, tp->symbol, NULL);
	}
	if (!ret)
		tp->registered = true;
	return ret;
}

/*
 * Unregister; on success no handler of @tp runs any more.  The fprobe
 * core refuses only when ftrace itself has failed (ftrace_bug()) or the
 * fprobe is not registered: then @tp stays registered, as the core still
 * has it, and nothing of it may be freed.  Returns 0 or that errno.
 */
int fpev_probe_unregister(struct fpev_probe *tp)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (!tp->registered)
		return 0;
	ret = unregister_fprobe(&tp->fp);
	if (ret) {
		pr_warn("%s: cannot unregister the fprobe on %s (%d)\n",
			trace_event_name(&tp->event->pev.call), tp->symbol, ret);
		return ret;
	}
	/* the core restarts its count at the next registration */
	tp->missed_before += READ_ONCE(tp->fp.nmissed);
	tp->registered = false;
	return 0;
}

/*
 * Arm @tp now: register its fprobe, or for a t: probe attach it to its
 * tracepoint, unless that tracepoint's module is not loaded (it waits).
 * Returns 0 or an errno with nothing done.  event_mutex.
 */
int fpev_probe_arm(struct fpev_probe *tp)
{
	if (tp->registered)	/* a disarm the core refused: still armed */
		return 0;
	if (!tp->is_tprobe)
		return fpev_probe_register(tp);
	if (!tp->tpt || !fpev_module_live(tp->mod))
		return 0;
	return fpev_tp_attach(tp);
}

/* Undo fpev_probe_arm(); 0, or an errno with @tp still registered. */
int fpev_probe_disarm(struct fpev_probe *tp)
{
	if (tp->is_tprobe)
		return fpev_tp_detach(tp);
	return fpev_probe_unregister(tp);
}

/*
 * Where may @tp probe?  An f: probe needs a function its glob names that
 * ftrace can probe, and an exit probe's entry data must fit the fprobe
 * core's.  The @SYMBOLs its arguments read must exist, unless it waits
 * for a module.  -ENOENT, -E2BIG or 0.
 */
static int fpev_probe_check_place(struct fpev_probe *tp)
{
	if (tp->fp.entry_data_size > MAX_FPROBE_DATA_SIZE)
		return -E2BIG;
	if (tp->is_tprobe)
		return tp->tpt ? parg_set_resolve(tp->args) : 0;
	if (fprobe_count_ips_from_filter(tp->symbol, NULL) <= 0)
		return -ENOENT;
	return parg_set_resolve(tp->args);
}

/*
 * A new probe: check its place, and arm it if it joins an event in use.
 * Under lockdown a definition is refused, as an enable would be.
 */
static int fpev_probe_admit(struct fpev_probe *tp)
{
	int ret = security_locked_down(LOCKDOWN_KPROBES) ?:
		  fpev_probe_check_place(tp);

	if (ret || !fpev_probe_in_use(tp))
		return ret;
	return fpev_probe_arm(tp);
}

/* -------------------------------------------------------------- events */

/* Admit the new probe @tp; log what was refused. */
static int fpev_arm_new(const struct probe_ev_words *p, struct fpev_probe *tp,
			struct tracepoint *tpoint, struct module *mod)
{
	int ret;

	tp->tpt = tpoint;
	tp->mod = mod;
	ret = fpev_probe_admit(tp);
	if (ret) {
		tp->tpt = NULL;
		tp->mod = NULL;
	}
	if (ret != -EEXIST)
		probe_ev_log_refusal(p, ret);
	return ret;
}

/* A new probe, the definition it comes from, and its tracepoint. */
struct fpev_newcomer {
	struct probe_ev_newcomer nc;
	const struct probe_ev_words *p;
	struct fpev_probe *tp;
	struct tracepoint *tpoint;
	struct module *mod;
};

static int fpev_arm_newcomer(const struct probe_ev_newcomer *nc)
{
	const struct fpev_newcomer *fn = container_of(nc, struct fpev_newcomer, nc);

	return fpev_arm_new(fn->p, fn->tp, fn->tpoint, fn->mod);
}

/* Add the new probe to the existing event @ev, after the multiprobe checks. */
static int fpev_join_event(const struct fpev_newcomer *fn, struct fpev_event *ev)
{
	struct fpev_probe *tp = fn->tp;
	bool other_kind = ev->pev.is_return != fpev_probe_is_return(tp) ||
			  !!(ev->pev.kind_flags & FPEV_EV_TPROBE) != tp->is_tprobe;
	int ret;

	if (probe_ev_join_check(&ev->pev, other_kind, &fn->nc))
		return -EEXIST;
	tp->event = ev;
	ret = probe_ev_event_add(&ev->pev, &fn->nc);
	if (ret)
		tp->event = NULL;
	return ret;
}

/* Make the new probe the first of a new event, and publish the event. */
static int fpev_start_event(const struct fpev_newcomer *fn,
			  const struct fpev_def *def)
{
	struct fpev_event *ev = fpev_event_new(def->group, def->event, fn->tp);
	int ret = ev ? probe_ev_event_start(&ev->pev, &fn->nc) : -ENOMEM;

	if (ret)
		fn->tp->event = NULL;	/* @ev is gone */
	return ret;
}

/* ------------------------------------------------------------ creating */

/*
 * The tracepoint of a t: definition, held in *@mod if in a module.  Not
 * found: the probe waits for a module, or with no modules it is an error.
 */
static int fpev_lookup_tpoint(const struct probe_ev_words *p, const struct fpev_def *def,
			    struct tracepoint **tpoint, struct module **mod)
{
	*tpoint = fpev_tp_find(def->symbol, mod);
	if (*tpoint || IS_ENABLED(CONFIG_MODULES))
		return 0;
	fpev_parse_error(p, 1, 0, FPEV_ERR_NO_TRACEPOINT);
	return -ENOENT;
}

/* Build the argument set and the probe of a parsed definition. */
static struct fpev_probe *fpev_build_probe(const struct probe_ev_words *p,
				       const struct fpev_def *def,
				       struct tracepoint *tpoint,
				       struct module *mod)
{
	char stub[KSYM_NAME_LEN];
	struct parg_caps caps = {
		.is_return = def->is_return,
		.on_func_entry = !def->is_return,
		.func = def->symbol,
		.module = fpev_module_name(mod),
		.no_regs = true,
		.arg_shift = def->is_tprobe,
	};
	struct parg_err err = {};
	struct parg_set *set;
	int ret;

	if (tpoint) {	/* a t: probe reads the parameters of the stub */
		snprintf(stub, sizeof(stub), "__probestub_%s", tpoint->name);
		caps.func = stub;
	}
	set = parg_set_parse(&caps, def->nargs, def->args, &err);
	ret = probe_ev_args_check(p, set, &err,
				  !IS_ERR(set) && parg_set_is_dynamic(set));
	if (ret)
		return ERR_PTR(ret);
	return fpev_probe_new(def, set) ?: ERR_PTR(-ENOMEM);
}

/* fpev_create_once(): look again (positive, so never taken for an errno) */
#define FPEV_RETRY	1

/*
 * Look the tracepoint up, build the probe, and add it under event_mutex,
 * unless a module with tracepoints came or went meanwhile: then FPEV_RETRY
 * and nothing done, and the caller looks again (trace_fprobe_tp.c).
 */
static int fpev_create_once(const struct probe_ev_words *p, const struct fpev_def *def)
{
	struct fpev_newcomer fn = { .p = p };
	unsigned long seq = 0;
	struct fpev_event *ev;
	int ret;

	if (def->is_tprobe) {
		seq = fpev_tp_modules_seq();
		ret = fpev_lookup_tpoint(p, def, &fn.tpoint, &fn.mod);
		if (ret)
			return ret;
	}
	fn.tp = fpev_build_probe(p, def, fn.tpoint, fn.mod);
	if (IS_ERR(fn.tp)) {
		ret = PTR_ERR(fn.tp);
		goto out_put;
	}
	fn.nc = PROBE_EV_NEWCOMER(p, fn.tp, fpev_arm_newcomer);
	mutex_lock(&event_mutex);
	ev = fpev_find_event(def->group, def->event);
	if (def->is_tprobe && fpev_tp_modules_changed(seq))
		ret = FPEV_RETRY;
	else if (ev)
		ret = fpev_join_event(&fn, ev);
	else
		ret = fpev_start_event(&fn, def);
	mutex_unlock(&event_mutex);
	if (ret)
		fpev_probe_free(fn.tp);
out_put:
	module_put(fn.mod);
	return ret;
}

/*
 * The words of a line of dynamic_events; none: not ours (-ECANCELED).
 * Each retry follows a module load or unload, so this ends.
 */
static int fpev_create_words(const struct probe_ev_words *p, void *unused)
{
	struct fpev_def def = {};
	int ret;

	if (!p->argc)
		return -ECANCELED;
	ret = fpev_parse_def(p, &def);
	while (!ret) {
		ret = fpev_create_once(p, &def);
		if (ret != FPEV_RETRY)
			break;
		ret = 0;
		cond_resched();
	}
	return ret;
}

/* dyn_event .create: under dyn_event_ops_mutex; not ours: -ECANCELED. */
static int fpev_dyn_create(const char *raw)
{
	return probe_ev_words_run(raw, &fpev_errors, fpev_create_words, NULL);
}

/* ------------------------------------------------------------ deleting */

/*
 * Delete one probe; the last one of an event takes the event with it,
 * unless the event is in use.  event_mutex.
 */
static int fpev_probe_remove(struct fpev_probe *tp)
{
	struct fpev_event *ev = tp->event;
	bool last = list_is_singular(&ev->pev.probes);
	int ret;

	lockdep_assert_held(&event_mutex);
	if (last && probe_ev_event_busy(&ev->pev))
		return -EBUSY;
	/* first what can fail and be left as it was: the fprobe */
	ret = fpev_probe_disarm(tp);
	if (ret)
		return ret;
	if (last) {
		ret = probe_ev_event_unpublish(&ev->pev);
		if (ret)
			goto out_rearm;
	}
	dyn_event_remove(&tp->devent);
	probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args);
	tp->event = NULL;
	fpev_probe_free(tp);
	return 0;

out_rearm:
	/* tp->mod cannot go meanwhile: its notifier waits for event_mutex */
	if (fpev_probe_in_use(tp) && fpev_probe_arm(tp))
		pr_warn("%s: left unregistered on %s\n",
			trace_event_name(&ev->pev.call), tp->symbol);
	return ret;
}

/*
 * "-:[GROUP/]EVENT [PLACE [ARG...]]": an empty @event matches the whole
 * group, a NULL @system any group; PLACE must be SYM (or TRACEPOINT)
 * exactly as written, the ARGs the first " NAME=TEXT"s of the listing.
 */
static bool fpev_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *dev)
{
	struct fpev_probe *tp = fpev_probe_of(dev);

	return probe_ev_dyn_match(&tp->event->pev, system, event, argc, argv,
				  tp->args) &&
	       (!argc || !strcmp(argv[0], tp->symbol));
}

static bool fpev_dyn_is_busy(struct dyn_event *dev)
{
	return probe_ev_event_busy(&fpev_probe_of(dev)->event->pev);
}

static int fpev_dyn_free(struct dyn_event *dev)
{
	return fpev_probe_remove(fpev_probe_of(dev));
}

/* "f:GRP/EVENT SYM[%return] ARGS" or "t:GRP/EVENT TP ARGS" */
static int fpev_dyn_show(struct seq_file *m, struct dyn_event *dev)
{
	struct fpev_probe *tp = fpev_probe_of(dev);
	bool is_return = fpev_probe_is_return(tp);

	probe_ev_show_head(m, tp->is_tprobe ? 't' : 'f', 0, &tp->event->pev);
	seq_printf(m, "%s%s", tp->symbol, is_return ? "%return" : "");
	probe_ev_show_args(m, tp->args);
	return 0;
}

/* How dynamic_events sees our probes: all but .create under event_mutex. */
static struct dyn_event_operations fpev_dyn_ops = {
	.create = fpev_dyn_create,	.match = fpev_dyn_match,
	.show = fpev_dyn_show,		.free = fpev_dyn_free,
	.is_busy = fpev_dyn_is_busy,
};

/* ------------------------------------------------------- fprobe_profile */

static int fpev_profile_show(struct seq_file *m, struct dyn_event *dev)
{
	struct fpev_probe *tp = fpev_probe_of(dev);

	probe_ev_seq_event_name(m, &tp->event->pev.call);
	seq_printf(m, " %15lu %15lu\n", fpev_probe_hits(tp), fpev_probe_missed(tp));
	return 0;
}

static const struct probe_ev_file fpev_files[] = {
	{ .name = "fprobe_profile", .dyn_ops = &fpev_dyn_ops,
	  .show = fpev_profile_show },
};

/* ---------------------------------------------------------------- init */

/* Early, so that definitions work before tracefs is up. */
static __init int fpev_init_early(void)
{
	int ret = dyn_event_register(&fpev_dyn_ops);

	return ret ?: fpev_tp_init();
}
core_initcall(fpev_init_early);

probe_ev_files_initcall(fpev_files);
