// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: tracepoint probe events: finding and attaching to the tracepoint
 *
 * trace_fprobe_tp.c - tracepoint probes (t:): finding the tracepoint,
 * attaching its stub, and following the modules that bring tracepoints.
 *
 * A t: probe is an fprobe on the tracepoint's stub function
 * ``__probestub_<tp>(void *data, <tp args>)``.  For the stub to run, it is
 * attached to the tracepoint as one of its probes (data NULL).  The
 * tracepoint core refuses the same probe/data pair twice, so one
 * attachment (struct fpev_tpoint) serves every t: probe on the tracepoint:
 * the first probe attaches the stub, the last one to go detaches it.
 *
 * A probe is attached only while its event has a user (it is armed);
 * fpev_probe.tpt is the tracepoint it knows, fpev_probe.tpoint the
 * attachment it holds.
 *
 * Module tracepoints: a probe defined while its tracepoint's module is
 * not loaded waits (fpev_probe.tpt NULL).  When a module comes, the
 * waiting probes whose tracepoint it has learn it, and those whose event
 * is on are attached and registered before the module's code runs; when
 * it goes, its probes are unregistered and detached before the
 * tracepoint core checks that no probe is left on its tracepoints, and
 * they wait again.
 *
 * Locking: event_mutex for the attachment list and every probe change.
 * The module notifiers take it.  fpev_tp_find() takes the tracepoint
 * core's module list lock, which the core holds while it calls the
 * tracepoint module notifiers, and those may take event_mutex: so the
 * lookup runs before event_mutex,
 * never under it, and that lock order is never inverted.  That leaves
 * a window between the lookup and the moment the new probe is on the
 * list under event_mutex, and two interleavings to rule out::
 *
 *   creating t:TP                      module M (has TP) loading
 *   lookup: TP not found
 *                                      COMING: tracepoint core adds M;
 *                                      ours, under event_mutex, attaches
 *                                      the waiting probes (not this one)
 *   event_mutex: probe added, waiting  -> waits forever for M
 *
 *   lookup: TP found in M (COMING)
 *                                      M's init fails: GOING; ours, under
 *                                      event_mutex, detaches M's probes
 *                                      (not this one); M is freed
 *   event_mutex: attach to TP          -> use after free
 *
 * Both notifiers of ours bump fpev_tp_seq under event_mutex, for every
 * module with tracepoints.  The creator reads it (under event_mutex)
 * before the lookup and checks it again under event_mutex before adding
 * the probe; if it moved, it drops the probe and looks again.  If it did
 * not move, neither notifier of a module has run in the window: a module
 * the lookup missed has not had our COMING yet and will find the probe
 * on the list, and a module the lookup found (its reference taken while
 * it was not GOING) has not had our GOING yet, which will detach the
 * probe before the module is freed.  Our COMING runs after the core's
 * (a found tracepoint may be attached before our COMING; it skips
 * attached probes), our GOING before the core's, after the module is
 * marked GOING (a lookup then finds the tracepoint but cannot take the
 * module, so it waits).
 */
#define pr_fmt(fmt)	"trace_fprobe: " fmt

#include <linux/slab.h>

#include "trace_fprobe_internal.h"

/* Attached stubs: event_mutex. */
static LIST_HEAD(fpev_tpoints);

/* ------------------------------------------------------------- lookup */

struct fpev_tp_search {
	const char *name;
	struct tracepoint *found;
	struct module *mod;
};

static void fpev_tp_match_kernel(struct tracepoint *tpoint, void *priv)
{
	struct fpev_tp_search *s = priv;

	if (!s->found && !strcmp(tpoint->name, s->name))
		s->found = tpoint;
}

static void fpev_tp_match_module(struct tracepoint *tpoint, struct module *mod,
			       void *priv)
{
	struct fpev_tp_search *s = priv;

	if (s->found || strcmp(tpoint->name, s->name))
		return;
	/* a module on its way out is as good as not loaded */
	if (try_module_get(mod)) {
		s->found = tpoint;
		s->mod = mod;
	}
}

struct tracepoint *fpev_tp_find(const char *name, struct module **mod)
{
	struct fpev_tp_search s = { .name = name };

	for_each_kernel_tracepoint(fpev_tp_match_kernel, &s);
	if (!s.found && IS_ENABLED(CONFIG_MODULES))
		for_each_module_tracepoint(fpev_tp_match_module, &s);
	*mod = s.mod;
	return s.found;
}

/* Module notifications seen by ours, for the creators; event_mutex. */
static unsigned long fpev_tp_seq;

/* Where module notifications stand, before a lookup. */
unsigned long fpev_tp_modules_seq(void)
{
	unsigned long seq;

	mutex_lock(&event_mutex);
	seq = fpev_tp_seq;
	mutex_unlock(&event_mutex);
	return seq;
}

/* Did a module with tracepoints come or go since @seq?  event_mutex. */
bool fpev_tp_modules_changed(unsigned long seq)
{
	lockdep_assert_held(&event_mutex);
	return seq != fpev_tp_seq;
}

/* ----------------------------------------------------- shared stubs */

/* Attach @tpoint's stub, or take one more reference on it. */
static struct fpev_tpoint *fpev_tpoint_get(struct tracepoint *tpoint)
{
	struct fpev_tpoint *t;
	int ret;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(t, &fpev_tpoints, node) {
		if (t->tpoint == tpoint) {
			t->refs++;
			return t;
		}
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	ret = tracepoint_probe_register_prio_may_exist(tpoint,
						       tpoint->probestub,
						       NULL, 0);
	if (ret) {
		kfree(t);
		return ERR_PTR(ret);
	}
	t->tpoint = tpoint;
	t->refs = 1;
	list_add(&t->node, &fpev_tpoints);
	return t;
}

static void fpev_tpoint_put(struct fpev_tpoint *t)
{
	lockdep_assert_held(&event_mutex);
	if (--t->refs)
		return;
	tracepoint_probe_unregister(t->tpoint, t->tpoint->probestub, NULL);
	list_del(&t->node);
	kfree(t);
}

/*
 * Put @tp on its tracepoint tp->tpt: the stub attached, the fprobe on it
 * registered.  Returns 0 or an errno, with nothing done.
 */
int fpev_tp_attach(struct fpev_probe *tp)
{
	struct fpev_tpoint *t;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (WARN_ON_ONCE(tp->tpoint || !tp->tpt))
		return -EBUSY;
	t = fpev_tpoint_get(tp->tpt);
	if (IS_ERR(t))
		return PTR_ERR(t);
	tp->tpoint = t;
	ret = fpev_probe_register(tp);
	if (ret) {
		tp->tpoint = NULL;
		fpev_tpoint_put(t);
	}
	return ret;
}

/*
 * Undo fpev_tp_attach(); the probe keeps its tracepoint.  If the fprobe
 * cannot be unregistered, the probe stays attached and registered (its
 * stub keeps its place on the tracepoint) and the errno is returned.
 * A probe still registered after its module went (no stub any more, see
 * fpev_tp_module_going()) is unregistered here too.
 */
int fpev_tp_detach(struct fpev_probe *tp)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	ret = fpev_probe_unregister(tp);
	if (ret || !tp->tpoint)
		return ret;
	fpev_tpoint_put(tp->tpoint);
	tp->tpoint = NULL;
	return 0;
}

/* ------------------------------------------------------------ modules */

#ifdef CONFIG_MODULES
/* The tracepoint @name of @mod, which is coming in; event_mutex. */
static struct tracepoint *fpev_tp_in_module(struct module *mod,
					  const char *name)
{
	unsigned int i;

	if (trace_module_has_bad_taint(mod))
		return NULL;
	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tpoint;

		tpoint = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (!strcmp(tpoint->name, name))
			return tpoint;
	}
	return NULL;
}


static void fpev_tp_module_coming(struct module *mod)
{
	struct tracepoint *tpoint;
	struct fpev_probe *tp;
	int ret;

	for_each_tf_probe(tp) {
		if (!tp->is_tprobe || tp->tpt || tp->registered)
			continue;
		tpoint = fpev_tp_in_module(mod, tp->symbol);
		if (!tpoint)
			continue;
		tp->tpt = tpoint;
		tp->mod = mod;
		if (!fpev_probe_in_use(tp))
			continue;
		ret = fpev_tp_attach(tp);
		if (ret)
			pr_warn("%s: cannot attach to %s:%s (%d)\n",
				trace_event_name(&tp->event->pev.call), mod->name,
				tp->symbol, ret);
	}
}

/*
 * The probes on @mod's tracepoints forget them, and wait again.  A probe
 * whose fprobe the core will not let go stays registered
 * (fpev_tp_detach()), but it lets go of the module, which goes regardless:
 * its reference on the tracepoint's stub is put (the stub leaves the
 * tracepoint with the last one), so that nothing points into the freed
 * module, and a copy loaded later at the same address gets a stub of its
 * own.  Such a probe is not attached again (fpev_tp_module_coming()
 * skips a registered one); deleting its event tries the unregistration
 * again.
 */
static void fpev_tp_module_going(struct module *mod)
{
	struct fpev_probe *tp;

	for_each_tf_probe(tp) {
		if (!tp->is_tprobe || !tp->tpt || tp->mod != mod)
			continue;
		if (tp->tpoint && fpev_tp_detach(tp)) {
			pr_warn("%s: still registered as %s:%s goes\n",
				trace_event_name(&tp->event->pev.call),
				mod->name, tp->symbol);
			fpev_tpoint_put(tp->tpoint);
			tp->tpoint = NULL;
		}
		tp->tpt = NULL;
		tp->mod = NULL;
	}
}

/*
 * Both handlers bump fpev_tp_seq, for the modules with tracepoints.  The
 * tracepoint core (0) knows a coming module before fpev_tp_module_comes(),
 * and checks that a going module's tracepoints have no probes left after
 * fpev_tp_module_goes().
 */
static bool fpev_tp_module_has_tp(struct module *mod)
{
	return mod->num_tracepoints;
}

static void fpev_tp_module_comes(struct module *mod)
{
	fpev_tp_seq++;
	fpev_tp_module_coming(mod);
}

static void fpev_tp_module_goes(struct module *mod)
{
	fpev_tp_seq++;
	fpev_tp_module_going(mod);
}

static struct probe_ev_modules fpev_tp_modules = {
	.wants = fpev_tp_module_has_tp,
	.coming = fpev_tp_module_comes,
	.going = fpev_tp_module_goes,
};

#define fpev_tp_watch_modules()	probe_ev_watch_modules(&fpev_tp_modules)
#else
#define fpev_tp_watch_modules()	0	/* no tracepoint comes or goes */
#endif /* CONFIG_MODULES */

int __init fpev_tp_init(void)
{
	return fpev_tp_watch_modules();
}
