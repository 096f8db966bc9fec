// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: probes, registration and the tracefs files
 *
 * trace_kprobe.c - kprobe-based trace events: probes, their registration
 * with the kprobes core, and the files that define and list them.
 *
 * User's guide: Documentation/trace/kprobetrace.rst.  The terms (probe,
 * event, record) and the map of the other files of this layer are in
 * trace_kprobe_internal.h.
 *
 * Life of a probe::
 *
 *   definition --parse--> kpev_def + parg_set --> kpev_probe
 *        |                                         |
 *        |             first probe of its name: a new kpev_event,
 *        |             published as events/<group>/<event>;
 *        |             otherwise it joins the existing event (multiprobe)
 *        v                                         v
 *   kprobe_events line                   armed: registered with the kprobes
 *                                        core, disabled until the event is
 *                                        enabled; or pending while its
 *                                        module is not loaded
 *
 * Invariants::
 *
 *   - Every probe on the dyn_event list belongs to a published event, and
 *     every event has at least one probe.  Local (perf) probes are on no
 *     list and their event is never published.
 *   - A probe is registered with the kprobes core iff @registered; only
 *     then can it be hit.  What a hit reads of the probe and its event is
 *     set before registration and not changed until after unregistration.
 *   - A probe whose module goes away is unregistered before the module
 *     text is freed, and registered again when the module comes back.
 *   - Deleting never leaves an event half-removed: an event in use (on,
 *     open, or used by perf) refuses, before anything is changed.
 *
 * Locking: event_mutex covers all of the above.  Unregistering waits for
 * running handlers (an RCU grace period inside the kprobes core); to
 * delete many probes at once this file unregisters them in one batch, so
 * that the wait is paid once per batch rather than once per probe.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/error-injection.h>
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "trace_kprobe_internal.h"

/* Defined with its methods below; probes point at it from creation on. */
static struct dyn_event_operations kpev_dyn_ops;

static struct kpev_probe *kpev_probe_of(struct dyn_event *dev)
{
	return dev->ops == &kpev_dyn_ops ?
		container_of(dev, struct kpev_probe, devent) : NULL;
}

/* Every probe on the dyn_event list (the body may free @tp); event_mutex. */
#define for_each_kpev_probe(tp, next)					\
	probe_ev_for_each_probe(tp, next, &kpev_dyn_ops, devent)

/* ------------------------------------------------------------ probes */

/* A probe is one kmalloc-256 object (struct kpev_probe's comment). */
static_assert(!IS_ENABLED(CONFIG_64BIT) || sizeof(struct kpev_probe) <= 256);

static bool kpev_probe_kind_return(const struct kpev_probe *tp)
{
	return tp->rp.handler != NULL;
}

/* Add to @m what the core counts for one place. */
static void kpev_place_core_misses(const struct kretprobe *rp, bool is_return,
				 struct kpev_misses *m)
{
	const struct kprobe *kp = &rp->kp;
	unsigned long n = READ_ONCE(kp->nmissed);
	unsigned long skipped = READ_ONCE(kp->nmissed_skipped);
	unsigned long off = READ_ONCE(kp->nmissed_off);

	/* read apart from the total: never let a cause go below zero */
	m->skipped += skipped;
	m->disabled += off;
	m->recursion += n - min(n, skipped + off);
	if (is_return)	/* an int in the core's struct */
		m->no_instance += (unsigned int)READ_ONCE(rp->nmissed);
}

/* Add to @m what the kprobes core counts for the registration in force. */
static void kpev_probe_core_misses(const struct kpev_probe *tp, struct kpev_misses *m)
{
	bool is_return = kpev_probe_kind_return(tp);
	unsigned int i;

	kpev_place_core_misses(&tp->rp, is_return, m);
	/* a place the core refused keeps stale counts: not ours */
	for (i = 1; i < kpev_probe_nplaces(tp); i++)
		if (tp->many->more[i - 1].rp.kp.addr)
			kpev_place_core_misses(&tp->many->more[i - 1].rp, is_return, m);
}

/*
 * Every miss of @tp since it was defined, by cause.  Under event_mutex;
 * a reader without it (BPF's link info) may see a probe being disarmed
 * counted twice for that moment, never less than it had (@registered is
 * read before @before, and cleared after it grew).
 */
void kpev_probe_misses(const struct kpev_probe *tp, struct kpev_misses *m)
{
	bool registered = smp_load_acquire(&tp->registered);

	*m = (struct kpev_misses) {
		.recursion = tp->before.recursion,
		.no_instance = tp->before.no_instance,
		.disabled = tp->before.disabled,
		.skipped = tp->before.skipped,
	};
	if (registered)
		kpev_probe_core_misses(tp, m);
	m->buffer_full = probe_ev_count_sum(tp->counts,
				       offsetof(struct kpev_counts, dropped));
}

unsigned long kpev_probe_missed(const struct kpev_probe *tp)
{
	struct kpev_misses m;

	kpev_probe_misses(tp, &m);
	return m.recursion + m.no_instance + m.buffer_full + m.disabled +
	       m.skipped;
}

static unsigned long kpev_probe_hits(const struct kpev_probe *tp)
{
	return probe_ev_count_sum(tp->counts, offsetof(struct kpev_counts, hits));
}

/* The probed address as the user gave it (0 if the symbol is unknown). */
unsigned long kpev_probe_address(const struct kpev_probe *tp)
{
	unsigned long addr;

	if (!kpev_probe_symbol(tp))
		return (unsigned long)tp->rp.kp.addr;
	addr = kallsyms_lookup_name(kpev_probe_symbol(tp));
	return addr ? addr + tp->rp.kp.offset : 0;
}

/*
 * The places of a pattern past the first, which is @tp->rp: each a copy
 * of the first with its own symbol.  Takes the names from @def->found.
 */
static int kpev_probe_add_places(struct kpev_probe *tp, struct kpev_def *def)
{
	unsigned int i, n = def->found.n;
	const char *name = def->found.names;

	struct kpev_many *many;

	/* each return place has its own instances: a small default */
	if (kpev_probe_kind_return(tp) && !tp->rp.maxactive && n > 1)
		tp->rp.maxactive = KPEV_PLACE_MAXACTIVE;
	many = kzalloc(sizeof(*many), GFP_KERNEL);
	if (!many)
		return -ENOMEM;
	tp->many = many;
	many->pattern = kstrdup(def->pattern, GFP_KERNEL);
	if (n > 1)
		many->more = kpev_places_alloc(array_size(n - 1, sizeof(*many->more)));
	if (!many->pattern || (n > 1 && !many->more))
		return -ENOMEM;		/* kpev_probe_free() takes @many */
	for (i = 0; i + 1 < n; i++) {
		struct kpev_place *pl = &many->more[i];

		name += strlen(name) + 1;
		pl->tp = tp;
		pl->rp.kp.symbol_name = name;
		pl->rp.kp.cost = tp->rp.kp.cost;
		pl->rp.maxactive = tp->rp.maxactive;
		pl->rp.data_size = tp->rp.data_size;
		kpev_set_handlers(tp, &pl->rp, kpev_probe_kind_return(tp), true);
	}
	many->names = def->found.names;
	def->found.names = NULL;
	many->addrs = def->found.addrs;
	def->found.addrs = NULL;
	many->addrs_mod = def->found.mod;
	def->found.mod = NULL;
	many->nplaces = n;
	many->skipped = def->found.skipped;
	return 0;
}

/* A probe for @def; it owns @set from now on, also when this fails. */
struct kpev_probe *kpev_probe_new(struct kpev_def *def, struct parg_set *set)
{
	unsigned int head = def->is_return ?
		sizeof(struct kretprobe_trace_entry_head) :
		sizeof(struct kprobe_trace_entry_head);
	struct kpev_probe *tp;

	tp = kzalloc(sizeof(*tp), GFP_KERNEL);
	if (!tp)
		goto out_free_set;
	tp->counts = alloc_percpu(struct kpev_counts);
	if (!tp->counts)
		goto out_free;
	tp->rp.kp.cost = &tp->counts->cost;
	if (def->symbol) {
		tp->rp.kp.symbol_name = kstrdup(def->symbol, GFP_KERNEL);
		if (!tp->rp.kp.symbol_name)
			goto out_free;
		tp->rp.kp.offset = def->offset;
	} else {
		tp->rp.kp.addr = def->addr;
	}

	if (def->is_return) {
		tp->rp.maxactive = def->maxactive;
		tp->rp.data_size = parg_set_entry_size(set);
	}
	tp->args = set;
	tp->rec_size = head + parg_set_size(set);
	tp->has_args = parg_set_count(set) > 0;
	tp->dynamic = parg_set_is_dynamic(set);
	kpev_set_handlers(tp, &tp->rp, def->is_return, false);
	INIT_LIST_HEAD(&tp->sibling);
	dyn_event_init(&tp->devent, &kpev_dyn_ops);
	if (def->pattern && kpev_probe_add_places(tp, def)) {
		kpev_probe_free(tp);	/* and @set */
		return NULL;
	}
	return tp;

out_free:
	kfree(kpev_probe_symbol(tp));
	free_percpu(tp->counts);
	kfree(tp);
out_free_set:
	parg_set_free(set);
	return NULL;
}

/*
 * The addresses the walk found serve the first registration only; later
 * ones (a module reload) go by name.  Lets the module go.
 */
static void kpev_probe_drop_addrs(struct kpev_probe *tp)
{
	if (!tp->many)
		return;
	kvfree(tp->many->addrs);
	tp->many->addrs = NULL;
	module_put(tp->many->addrs_mod);
	tp->many->addrs_mod = NULL;
}

/* Frees the probe and its argument set (NULL once its event adopted it). */
void kpev_probe_free(struct kpev_probe *tp)
{
	if (!tp)
		return;
	WARN_ON_ONCE(tp->registered);
	parg_set_free(tp->args);
	kpev_probe_drop_addrs(tp);
	if (tp->many) {
		kvfree(tp->many->more);
		kvfree(tp->many->names);
		kfree(tp->many->pattern);
		kfree(tp->many);
	}
	kfree(kpev_probe_symbol(tp));
	free_percpu(tp->counts);
	kfree(tp);
}

static bool kpev_in_notrace_func(const struct kpev_probe *tp)
{
	return kpev_notrace_sym(kpev_probe_address(tp), 0, NULL);
}

/*
 * The flags every place of @tp is registered with: disabled unless the
 * event is on somewhere, and kept off a partial-register ftrace entry when
 * an argument names a register that such an entry does not fill in.
 */
static u32 kpev_probe_kp_flags(const struct kpev_probe *tp)
{
	u32 flags = READ_ONCE(tp->event->pev.flags) ? 0 : KPROBE_FLAG_DISABLED;

	if (!kpev_probe_kind_return(tp) &&
	    (parg_set_regs(tp->args) & ~ARCH_KPROBE_FTRACE_REGS))
		flags |= KPROBE_FLAG_ALL_REGS;
	return flags;
}

/*
 * Register the places past the first, in one batch, enabled as the first
 * is.  A place the core refuses stays out, its kprobe.addr NULL
 * (kprobe_places marks it); the others go on.
 */
static void kpev_probe_arm_places(struct kpev_probe *tp)
{
	u32 flags = tp->rp.kp.flags & (KPROBE_FLAG_DISABLED | KPROBE_FLAG_ALL_REGS);
	unsigned int i, refused = 0;

	kprobe_batch_begin();
	for (i = 1; i < kpev_probe_nplaces(tp); i++) {
		struct kretprobe *rp = kpev_probe_place(tp, i);
		const char *name = rp->kp.symbol_name;
		int ret;

		rp->kp.addr = NULL;
		rp->kp.flags = flags;
		/* the first time, where the walk found it: no name lookup */
		if (tp->many->addrs) {
			rp->kp.symbol_name = NULL;
			rp->kp.addr = (kprobe_opcode_t *)tp->many->addrs[i];
		}
		ret = kpev_probe_kind_return(tp) ? register_kretprobe(rp) :
						 register_kprobe(&rp->kp);
		rp->kp.symbol_name = name;
		if (ret) {
			rp->kp.addr = NULL;
			refused++;
		}
	}
	if (kprobe_batch_end())
		pr_warn("%s: some places could not be armed\n", tp->many->pattern);
	if (refused)
		pr_info("%s: %u of %u places refused by the kprobes core\n",
			tp->many->pattern, refused, tp->many->nplaces);
}

/*
 * Register with the kprobes core, enabled only if the event is: a probe
 * added to an event that is on starts firing at once.
 */
static int kpev_probe_register(struct kpev_probe *tp)
{
	int ret;

	ret = probe_ev_may_register(tp->registered);
	if (ret)
		return ret;
	if (kpev_in_notrace_func(tp)) {
		pr_warn("Could not probe notrace function %ps\n",
			(void *)kpev_probe_address(tp));
		return -EINVAL;
	}
	ret = parg_set_resolve(tp->args);
	if (ret)
		return ret;

	tp->rp.kp.flags = kpev_probe_kp_flags(tp);
	ret = kpev_probe_kind_return(tp) ? register_kretprobe(&tp->rp) :
					 register_kprobe(&tp->rp.kp);
	WRITE_ONCE(tp->registered, !ret);
	/* A later attempt looks the symbol up again. */
	if (ret && kpev_probe_symbol(tp))
		tp->rp.kp.addr = NULL;
	if (!ret && kpev_probe_nplaces(tp) > 1)
		kpev_probe_arm_places(tp);
	return ret;
}

int kpev_probe_arm(struct kpev_probe *tp)
{
	int ret = kpev_probe_register(tp);

	kpev_probe_drop_addrs(tp);
	return ret;
}

/*
 * After unregistering: keep what the core counted (it starts from zero at
 * the next registration), and be ready to be registered again by symbol.
 */
static void kpev_probe_mark_disarmed(struct kpev_probe *tp)
{
	struct kpev_misses m = {};
	unsigned int i;

	kpev_probe_core_misses(tp, &m);
	tp->before.recursion += m.recursion;
	tp->before.no_instance += m.no_instance;
	tp->before.disabled += m.disabled;
	tp->before.skipped += m.skipped;
	smp_store_release(&tp->registered, false);	/* kpev_probe_misses() */
	if (kpev_probe_symbol(tp))
		tp->rp.kp.addr = NULL;
	for (i = 1; i < kpev_probe_nplaces(tp); i++)
		kpev_probe_place(tp, i)->kp.addr = NULL;
}

/* Without memory for the batch: one place after the other. */
static void kpev_disarm_one_by_one(struct kpev_probe *tp)
{
	unsigned int i;

	for (i = 0; i < kpev_probe_nplaces(tp); i++) {
		if (kpev_probe_kind_return(tp))
			unregister_kretprobe(kpev_probe_place(tp, i));
		else
			unregister_kprobe(&kpev_probe_place(tp, i)->kp);
	}
}

/*
 * Unregister the registered probes among @tps[0..@n-1], all their places,
 * paying the wait for running handlers once per kind instead of once per
 * place.  A place that was never registered is skipped by the core.
 */
static void kpev_unregister_batch(struct kpev_probe **tps, int n)
{
	unsigned int total = 0, nk = 0, nr = 0, j;
	struct kretprobe **rps;
	struct kprobe **kps;
	int i;

	for (i = 0; i < n; i++)
		total += tps[i]->registered ? kpev_probe_nplaces(tps[i]) : 0;
	kps = kvmalloc_array(total, sizeof(*kps), GFP_KERNEL);
	rps = kvmalloc_array(total, sizeof(*rps), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		struct kpev_probe *tp = tps[i];

		if (!tp->registered)
			continue;
		if (!kps || !rps) {
			kpev_disarm_one_by_one(tp);
			continue;
		}
		for (j = 0; j < kpev_probe_nplaces(tp); j++) {
			if (kpev_probe_kind_return(tp))
				rps[nr++] = kpev_probe_place(tp, j);
			else
				kps[nk++] = &kpev_probe_place(tp, j)->kp;
		}
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(rps, nr);
	kvfree(rps);
	kvfree(kps);
	for (i = 0; i < n; i++)
		if (tps[i]->registered)
			kpev_probe_mark_disarmed(tps[i]);
}

/* The probes of dynamic_events: event_mutex orders them with the walks. */
static void kpev_disarm_batch(struct kpev_probe **tps, int n)
{
	lockdep_assert_held(&event_mutex);
	kpev_unregister_batch(tps, n);
}

void kpev_probe_disarm(struct kpev_probe *tp)
{
	kpev_disarm_batch(&tp, 1);
}

/*
 * A perf-local probe, on no list but its event's: no walk can meet it,
 * so it is unregistered with event_mutex held or not (perf_kprobe_init()
 * holds it on its failure path, perf_kprobe_destroy() does not).
 */
void kpev_local_probe_disarm(struct kpev_probe *tp)
{
	kpev_unregister_batch(&tp, 1);
}

/* "MOD:SYM" with MOD not loaded: the probe waits for the module. */
static bool kpev_probe_module_pending(const struct kpev_probe *tp)
{
	const char *sym = kpev_probe_symbol(tp);
	const char *colon = sym ? strchr(sym, ':') : NULL;
	char name[MODULE_NAME_LEN];

	if (!colon || colon - sym >= MODULE_NAME_LEN)
		return false;
	strscpy(name, sym, colon - sym + 1);
	return !kpev_module_loaded(name);
}

/* -------------------------------------------------------------- events */

/*
 * SYM+OFFS is inside an instruction: name the nearest offsets that are
 * not, before and after, in the error_log entry.  On a boundary, the
 * instruction there is one the core cannot step or decode.
 */
static void kpev_log_boundary(const struct kpev_parse *p, struct kpev_probe *tp)
{
	unsigned long addr = kpev_probe_address(tp), start, next;
	unsigned long base = addr - tp->rp.kp.offset;
	int ret;

	ret = addr ? kprobe_insn_around(addr, &start, &next) : -ENOENT;
	if (ret == -EINVAL) {
		kpev_parse_error(p, 1, 0, KPEV_ERR_FAIL_REG_PROBE);
		return;
	}
	if (!kpev_probe_symbol(tp) || ret || start < base) {
		kpev_parse_error(p, 1, 0, KPEV_ERR_BAD_INSN_BNDRY);
		return;
	}
	kpev_parse_note(p, 1, 0,
		      "Address is not on an instruction boundary (nearest: +%lu and +%lu)",
		      start - base, next - base);
}

/* Arm a new probe; a module that is not loaded yet is not an error. */
static int kpev_arm_new(const struct kpev_parse *p, struct kpev_probe *tp)
{
	int ret = kpev_probe_arm(tp);

	if (ret == -ENOENT && kpev_probe_module_pending(tp)) {
		pr_info("%s: waiting for its module to load\n", kpev_probe_symbol(tp));
		return 0;
	}
	if (ret == -EILSEQ)
		kpev_log_boundary(p, tp);
	else
		probe_ev_log_refusal(&p->w, ret);
	return ret;
}

static bool kpev_probe_injectable(struct kpev_probe *tp);

/*
 * Whether @tp may join @ev: an overriding BPF program attached to @ev
 * would run on it too, and BPF checked the event only when the program
 * attached.  So while one is attached, only a probe it may override joins
 * (a function entry on the error-injection list).  BPF checks
 * trace_kprobe_error_injectable() under the mutex it attaches programs
 * with, and trace_event_bpf_overrides() looks under that mutex, after the
 * flag is down: a program that attaches meanwhile sees the flag down and
 * is refused, or is attached before the look and seen.  event_mutex.
 */
static int kpev_join_override_check(const struct kpev_parse *p,
				  struct kpev_event *ev, struct kpev_probe *tp)
{
	lockdep_assert_held(&event_mutex);
	if (kpev_probe_injectable(tp))
		return 0;
	kpev_event_not_injectable(ev);
	if (!trace_event_bpf_overrides(&ev->pev.call))
		return 0;
	kpev_event_injectable_update(ev);		/* @tp is not on it */
	kpev_parse_error(p, 1, 0, KPEV_ERR_OVERRIDE_JOIN);
	return -EBUSY;
}

/* A new probe and the definition it comes from. */
struct kpev_newcomer {
	struct probe_ev_newcomer nc;
	const struct kpev_parse *p;
	struct kpev_probe *tp;
};

static int kpev_arm_newcomer(const struct probe_ev_newcomer *nc)
{
	const struct kpev_newcomer *kn = container_of(nc, struct kpev_newcomer, nc);

	return kpev_arm_new(kn->p, kn->tp);
}

/* Add the new probe to the existing event @ev, after the multiprobe checks. */
static int kpev_join_event(const struct kpev_newcomer *kn, struct kpev_event *ev)
{
	struct kpev_probe *tp = kn->tp;
	int ret;

	ret = probe_ev_join_check(&ev->pev,
				  ev->pev.is_return != kpev_probe_kind_return(tp),
				  &kn->nc);
	if (!ret)
		ret = kpev_join_override_check(kn->p, ev, tp);
	if (ret)
		return ret;
	tp->event = ev;
	ret = probe_ev_event_add(&ev->pev, &kn->nc);
	if (ret)
		tp->event = NULL;
	kpev_event_injectable_update(ev);
	return ret;
}

/* Make the new probe the first of a new event, and publish the event. */
static int kpev_start_event(const struct kpev_newcomer *kn,
			  const struct kpev_def *def)
{
	struct kpev_event *ev = kpev_event_new(def->group, def->event, kn->tp);
	int ret = ev ? probe_ev_event_start(&ev->pev, &kn->nc) : -ENOMEM;

	if (ret)
		kn->tp->event = NULL;	/* @ev is gone */
	else
		kpev_event_injectable_update(ev);
	return ret;
}

/*
 * The argument set of a definition over many places.  Words that mean
 * the same at every function (registers, $argN, $retval, $comm, memory)
 * parse without naming a function.  Words that need the function's BTF
 * are parsed for each place, and every place must give the same
 * compiled set, or the definition is refused at the first word that
 * differs.
 */
static struct parg_set *kpev_places_args(const struct kpev_parse *p,
				       const struct kpev_def *def,
				       struct parg_caps *caps,
				       struct parg_err *err)
{
	const char *name = def->found.names;
	struct parg_set *set, *other;
	unsigned int i;
	int idx;

	caps->func = NULL;
	set = parg_set_parse(caps, def->nargs, def->args, err);
	if (!IS_ERR(set) || PTR_ERR(set) != -EINVAL)
		return set;
	*err = (struct parg_err){};
	for (i = 0, set = NULL; i < def->found.n; i++) {
		caps->func = def->module[0] ? strchr(name, ':') + 1 : name;
		name += strlen(name) + 1;
		other = parg_set_parse(caps, def->nargs, def->args, err);
		if (IS_ERR(other) || !set) {
			if (IS_ERR(other))
				parg_set_free(set);
			set = other;
			if (IS_ERR(set))
				return set;
			continue;
		}
		idx = parg_set_differs(set, other);
		parg_set_free(other);
		if (idx >= 0) {
			parg_set_free(set);
			kpev_parse_error(p, idx + 2, 0, KPEV_ERR_DIFF_ARG_TYPE);
			return ERR_PTR(-EINVAL);
		}
		cond_resched();
	}
	return set;
}

/* Build the argument set and the probe of a parsed definition. */
static struct kpev_probe *kpev_build_probe(const struct kpev_parse *p,
				       struct kpev_def *def)
{
	struct parg_caps caps = {
		.is_return = def->is_return,
		.on_func_entry = def->on_func_entry && !def->is_return,
		.module = def->module[0] ? def->module : NULL,
	};
	struct parg_err err = {};
	struct parg_set *set;
	int ret;

	if (def->symbol)
		caps.func = caps.module ? strchr(def->symbol, ':') + 1 :
					  def->symbol;
	if (def->pattern)
		set = kpev_places_args(p, def, &caps, &err);
	else
		set = parg_set_parse(&caps, def->nargs, def->args, &err);
	/* Strings and filters are fetched into the scratch first. */
	ret = probe_ev_args_check(&p->w, set, &err, true);
	if (ret)
		return ERR_PTR(ret);
	return kpev_probe_new(def, set) ?: ERR_PTR(-ENOMEM);
}

/* Create one probe from the words of a definition. */
static int kpev_create_words(const struct kpev_parse *p)
{
	struct kpev_newcomer kn = { .p = p };
	struct kpev_def def = {};
	struct kpev_event *ev;
	struct kpev_probe *tp;
	int ret;

	ret = kpev_parse_def(p, &def);
	if (ret)
		goto out;
	tp = kpev_build_probe(p, &def);
	if (IS_ERR(tp)) {
		ret = PTR_ERR(tp);
		goto out;
	}

	kn.tp = tp;
	kn.nc = PROBE_EV_NEWCOMER(&p->w, tp, kpev_arm_newcomer);
	mutex_lock(&event_mutex);
	ev = kpev_find_event(def.group, def.event);
	ret = ev ? kpev_join_event(&kn, ev) : kpev_start_event(&kn, &def);
	mutex_unlock(&event_mutex);
	if (ret)
		kpev_probe_free(tp);
out:
	kpev_def_release(&def);
	return ret;
}

static int kpev_delete_words(const struct kpev_parse *p);

/*
 * The words of a line: a definition, or (@strict only) a "-:" delete.
 * Empty lines do nothing.
 */
static int kpev_run_words(const struct probe_ev_words *w, void *strict)
{
	struct kpev_parse p = { .w = *w, .strict = *(bool *)strict };

	if (!w->argc)
		return 0;
	if (p.strict && w->argv[0][0] == '-')
		return kpev_delete_words(&p);
	return kpev_create_words(&p);
}

static int kpev_run_line(const char *raw, bool strict)
{
	return probe_ev_words_run(raw, &kpev_errors, kpev_run_words, &strict);
}

/*
 * dyn_event .create, for dynamic_events: under dyn_event_ops_mutex.
 * Lines of other parsers are declined with -ECANCELED.
 */
static int kpev_dyn_create(const char *raw)
{
	return kpev_run_line(raw, false);
}

/*
 * One line as kprobe_events takes it: a definition or a "-:" delete.
 * Every line is ours, so every refusal is logged.  The parser keeps no
 * state outside its parse context, so dyn_event_ops_mutex is not needed.
 */
int kpev_run_command(const char *raw)
{
	return kpev_run_line(raw, true);
}

/* ------------------------------------------------------------ deleting */

/*
 * Unregister and free the probes on @doomed (linked by devent.list, off
 * the dyn_event list already; their events unpublished when they are the
 * last probes), and the events they leave empty.
 */
static void kpev_retire(struct list_head *doomed, int n)
{
	struct kpev_probe *tp, *next, **tps;
	int i = 0;

	tps = kmalloc_array(n, sizeof(*tps), GFP_KERNEL);
	list_for_each_entry(tp, doomed, devent.list) {
		if (tps)
			tps[i++] = tp;
		else
			kpev_probe_disarm(tp);
	}
	if (tps)
		kpev_disarm_batch(tps, i);
	kfree(tps);

	list_for_each_entry_safe(tp, next, doomed, devent.list) {
		struct kpev_event *ev = tp->event;

		list_del(&tp->devent.list);
		if (probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args))
			tp->event = NULL;
		kpev_probe_free(tp);
	}
}

/* Take @tp off the dyn_event list, onto @doomed. */
static void kpev_doom(struct kpev_probe *tp, struct list_head *doomed)
{
	dyn_event_remove(&tp->devent);
	list_add_tail(&tp->devent.list, doomed);
}

/*
 * Delete one probe; the last probe of an event takes the event with it,
 * unless the event is in use.
 */
static int kpev_probe_remove(struct kpev_probe *tp)
{
	struct kpev_event *ev = tp->event;
	bool last = list_is_singular(&ev->pev.probes);
	LIST_HEAD(doomed);
	int ret;

	lockdep_assert_held(&event_mutex);
	if (last) {
		ret = probe_ev_event_withdraw(&ev->pev);
		if (ret)
			return ret;
	}
	kpev_doom(tp, &doomed);
	kpev_retire(&doomed, 1);
	if (!last)		/* @ev is gone with its last probe */
		kpev_event_injectable_update(ev);
	return 0;
}

/* Does @word name the place of @tp, as kprobe_events shows it? */
static bool kpev_place_matches(const struct kpev_probe *tp, const char *word)
{
	char buf[KSYM_NAME_LEN + 16];

	if (tp->many)
		return !strcmp(word, tp->many->pattern);
	if (!kpev_probe_symbol(tp))
		snprintf(buf, sizeof(buf), "0x%p", tp->rp.kp.addr);
	else if (tp->rp.kp.offset)
		snprintf(buf, sizeof(buf), "%s+%u", kpev_probe_symbol(tp),
			 tp->rp.kp.offset);
	else
		return !strcmp(word, kpev_probe_symbol(tp));
	return !strcmp(word, buf);
}

/*
 * "-:[GROUP/]EVENT [PLACE [ARG...]]": an empty @event matches the whole
 * group, a NULL @system any group; the words after the name, if any,
 * must repeat the start of the probe's definition.
 */
static bool kpev_dyn_match(const char *system, const char *event,
			 int argc, const char **argv, struct dyn_event *dev)
{
	struct kpev_probe *tp = kpev_probe_of(dev);

	return probe_ev_dyn_match(&tp->event->pev, system, event, argc, argv,
				  tp->args) &&
	       (!argc || kpev_place_matches(tp, argv[0]));
}

/*
 * "-:[GROUP/]EVENT [PLACE [ARG...]]" written to kprobe_events: delete the
 * matching probes (an empty EVENT after "GROUP/": the whole group), until
 * one cannot go.  Every refusal is logged with the caret on the name.
 */
static int kpev_delete_words(const struct kpev_parse *p)
{
	char name[2 * KPEV_NAME_LEN + 2];
	const char *group = NULL, *event = name;
	struct kpev_probe *tp, *next;
	char *slash;
	int ret = -ENOENT;

	if (p->w.argv[0][1] != ':') {
		kpev_parse_error(p, 0, 1, KPEV_ERR_BAD_DELETE);
		return -EINVAL;
	}
	if (strscpy(name, p->w.argv[0] + 2, sizeof(name)) < 0)
		goto out_log;			/* too long to name anything */
	slash = strchr(name, '/');
	if (slash) {
		*slash = '\0';
		group = name;
		event = slash + 1;
	} else if (!name[0]) {
		kpev_parse_error(p, 0, 2, KPEV_ERR_NO_EVENT_NAME);
		return -EINVAL;
	}

	mutex_lock(&event_mutex);
	for_each_kpev_probe(tp, next) {
		if (!kpev_dyn_match(group, event, p->w.argc - 1, p->w.argv + 1,
				  &tp->devent))
			continue;
		ret = kpev_probe_remove(tp);
		if (ret)
			break;
	}
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	if (!ret || ret == -ENOMEM)
		return ret;
out_log:
	kpev_parse_error(p, 0, 2, ret == -ENOENT ? KPEV_ERR_NO_SUCH_EVENT :
						 KPEV_ERR_EVENT_BUSY);
	return ret;
}

/*
 * Delete every kprobe event (kprobe_events opened with O_TRUNC).  Nothing
 * is deleted if any event is in use.  All probes are unregistered in one
 * batch.
 */
static int kpev_remove_all(void)
{
	struct kpev_probe *tp, *next;
	LIST_HEAD(doomed);
	int ret = 0, n = 0;

	mutex_lock(&event_mutex);
	if (probe_ev_any_busy(&kpev_dyn_ops)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	for_each_kpev_probe(tp, next) {
		struct kpev_event *ev = tp->event;

		if (ev->pev.published && tp == kpev_event_primary(ev)) {
			int err = probe_ev_event_unpublish(&ev->pev);

			if (err) {
				ret = err;	/* keep it, delete the others */
				continue;
			}
		}
		if (!ev->pev.published) {
			kpev_doom(tp, &doomed);
			n++;
		}
	}
	if (n)
		kpev_retire(&doomed, n);
	tracing_reset_all_online_cpus();
out_unlock:
	mutex_unlock(&event_mutex);
	return ret;
}

/* ---------------------------------------------------------- dyn_event */

static bool kpev_dyn_is_busy(struct dyn_event *dev)
{
	return probe_ev_event_busy(&kpev_probe_of(dev)->event->pev);
}

static int kpev_dyn_free(struct dyn_event *dev)
{
	return kpev_probe_remove(kpev_probe_of(dev));
}

/* The place as kprobe_events shows it. */
static void kpev_show_place(struct seq_file *m, const struct kpev_probe *tp)
{
	if (tp->many)
		seq_puts(m, tp->many->pattern);
	else if (!kpev_probe_symbol(tp))
		seq_printf(m, "0x%p", tp->rp.kp.addr);
	else if (tp->rp.kp.offset)
		seq_printf(m, "%s+%u", kpev_probe_symbol(tp), tp->rp.kp.offset);
	else
		seq_puts(m, kpev_probe_symbol(tp));
}

static int kpev_dyn_show(struct seq_file *m, struct dyn_event *dev)
{
	struct kpev_probe *tp = kpev_probe_of(dev);
	bool is_return = kpev_probe_kind_return(tp);

	probe_ev_show_head(m, is_return ? 'r' : 'p',
		      is_return ? tp->rp.maxactive : 0, &tp->event->pev);
	kpev_show_place(m, tp);
	probe_ev_show_args(m, tp->args);
	return 0;
}

/*
 * How dynamic_events sees our probes.  All methods but .create run under
 * event_mutex.  A change of many events at once arms their probes in one
 * kprobes batch (.batch_begin/.batch_end).
 */
static struct dyn_event_operations kpev_dyn_ops = {
	.create = kpev_dyn_create,	.match = kpev_dyn_match,
	.show = kpev_dyn_show,		.free = kpev_dyn_free,
	.is_busy = kpev_dyn_is_busy,
	.batch_begin = trace_kprobe_batch_begin,
	.batch_end = trace_kprobe_batch_end,
};

/* ------------------------------------------------------------- tracefs */

/* kprobe_profile: "  EVENT  HITS  MISSES", one line per probe. */
static int kpev_profile_show(struct seq_file *m, struct dyn_event *dev)
{
	struct kpev_probe *tp = kpev_probe_of(dev);

	seq_printf(m, "  %-44s %15lu %15lu\n",
		   trace_event_name(&tp->event->pev.call),
		   kpev_probe_hits(tp), kpev_probe_missed(tp));
	return 0;
}

/*
 * kprobe_misses: the misses of kprobe_profile by cause, one line per
 * probe in the same order, and the records that hold a (fault).
 */
static int kpev_misses_show(struct seq_file *m, struct dyn_event *dev)
{
	struct kpev_probe *tp;
	struct kpev_misses c;

	if (!dev) {
		seq_printf(m, "#%-45s %11s %11s %11s %11s %11s %11s\n", "event",
			   "recursion", "no_instance", "buffer_full",
			   "disabled", "skipped", "faults");
		return 0;
	}
	tp = kpev_probe_of(dev);
	kpev_probe_misses(tp, &c);
	seq_printf(m, "  %-44s %11lu %11lu %11lu %11lu %11lu %11lu\n",
		   trace_event_name(&tp->event->pev.call), c.recursion,
		   c.no_instance, c.buffer_full, c.disabled, c.skipped,
		   parg_set_faults(tp->args));
	return 0;
}

/*
 * kprobe_places: the functions each probe is on, one line each, after a
 * comment line for a probe over many functions that says what its
 * pattern found and skipped.  A place the core refused, or whose code
 * is gone, is marked so.
 */
static int kpev_places_show(struct seq_file *m, struct dyn_event *dev)
{
	struct kpev_probe *tp = kpev_probe_of(dev);
	const char *grp, *ev, *name, *names;
	unsigned int i;

	grp = tp->event->pev.call.class->system;
	ev = trace_event_name(&tp->event->pev.call);
	if (tp->many)
		seq_printf(m, "#%s/%s %s: %u places, %u skipped\n", grp, ev,
			   tp->many->pattern, tp->many->nplaces,
			   tp->many->skipped);
	names = tp->many ? tp->many->names : NULL;
	name = names ?: kpev_probe_symbol(tp);
	for (i = 0; i < kpev_probe_nplaces(tp); i++) {
		struct kprobe *kp = &kpev_probe_place(tp, i)->kp;

		seq_printf(m, "%s/%s ", grp, ev);
		if (name)
			seq_puts(m, name);
		else
			seq_printf(m, "0x%p", kp->addr);
		if (tp->rp.kp.offset)
			seq_printf(m, "+%u", tp->rp.kp.offset);
		if (tp->registered && !kp->addr)
			seq_puts(m, " [REFUSED]");
		else if (tp->registered && kprobe_gone(kp))
			seq_puts(m, " [GONE]");
		else if (tp->registered && READ_ONCE(tp->event->pev.flags) &&
			 kprobe_disabled(kp))
			seq_puts(m, " [DISABLED]");	/* could not be armed */
		seq_putc(m, '\n');
		if (names)
			name += strlen(name) + 1;
	}
	return 0;
}

/*
 * kprobe_cost: what a hit of each probe costs, from the kprobes core's
 * sampling (KPROBE_COST_EVERY): the hits of kprobe_profile, the hits
 * sampled, their mean in ns (entry and return together for a return
 * probe), and the estimated total in microseconds.  "-" until a hit was
 * sampled.
 */
static int kpev_cost_show(struct seq_file *m, struct dyn_event *dev)
{
	struct kpev_probe *tp;
	unsigned long hits;
	u64 ns, samples;

	if (!dev) {
		seq_printf(m, "#%-45s %15s %11s %11s %15s\n", "event", "hits",
			   "sampled", "ns/hit", "total_us");
		return 0;
	}
	tp = kpev_probe_of(dev);
	hits = kpev_probe_hits(tp);
	ns = kprobe_cost_per_hit(&tp->counts->cost, &samples);
	seq_printf(m, "  %-44s %15lu %11llu ", trace_event_name(&tp->event->pev.call),
		   hits, samples);
	if (samples)
		seq_printf(m, "%11llu %15llu\n", ns,
			   mul_u64_u64_div_u64(ns, hits, 1000));
	else
		seq_printf(m, "%11s %15s\n", "-", "-");
	return 0;
}

/* The files in the tracing directory. */
static const struct probe_ev_file kpev_files[] = {
	{ .name = "kprobe_events", .dyn_ops = &kpev_dyn_ops,
	  .show = kpev_dyn_show, .remove_all = kpev_remove_all,
	  .run_command = kpev_run_command },
	{ .name = "kprobe_profile", .dyn_ops = &kpev_dyn_ops,
	  .show = kpev_profile_show },
	{ .name = "kprobe_misses", .dyn_ops = &kpev_dyn_ops,
	  .show = kpev_misses_show, .header = true },
	{ .name = "kprobe_cost", .dyn_ops = &kpev_dyn_ops,
	  .show = kpev_cost_show, .header = true },
	{ .name = "kprobe_places", .dyn_ops = &kpev_dyn_ops,
	  .show = kpev_places_show },
};

/* ------------------------------------------------------------- modules */

#ifdef CONFIG_MODULES
/* Is @tp placed by name in @mod ("MOD:SYM")? */
static bool kpev_probe_names_module(const struct kpev_probe *tp,
				  const struct module *mod)
{
	size_t len = strlen(mod->name);

	return kpev_probe_symbol(tp) && !strncmp(kpev_probe_symbol(tp), mod->name, len) &&
	       kpev_probe_symbol(tp)[len] == ':';
}


/*
 * Arm @tp, unless an overriding BPF program is attached to its event and
 * may not override where @tp now lands: the module that came back may no
 * longer list the function for error injection, or have other code there.
 */
static int kpev_probe_arm_checked(struct kpev_probe *tp)
{
	if (trace_event_bpf_overrides(&tp->event->pev.call) &&
	    !kpev_probe_injectable(tp))
		return -EBUSY;
	return kpev_probe_arm(tp);
}

/*
 * Arm the probes that name @mod as it comes in, before its code runs.
 * The symbol must be unique in the module, as for a loaded one.
 */
static void kpev_module_coming(struct module *mod)
{
	struct kpev_probe *tp, *next;
	int ret;

	for_each_kpev_probe(tp, next) {
		unsigned int n;

		if (tp->registered || !kpev_probe_names_module(tp, mod))
			continue;
		n = kpev_count_symbols(mod->name, strchr(kpev_probe_symbol(tp), ':') + 1);
		if (n == 1)
			ret = kpev_probe_arm_checked(tp);
		else
			ret = n ? -EADDRNOTAVAIL : -ENOENT;
		if (ret)
			pr_warn("Failed to re-register probe %s on %s: %d\n",
				trace_event_name(&tp->event->pev.call), mod->name,
				ret);
		/* the module brought its own error-injection list */
		kpev_event_injectable_update(tp->event);
	}
}

/*
 * Is registered @tp in @mod's text?  A probe on its init text was marked
 * gone by the kprobes core once the module went live, and that text is no
 * longer within the module: such a probe is known by its name.
 */
static bool kpev_probe_in_module(struct kpev_probe *tp, struct module *mod)
{
	if (within_module((unsigned long)tp->rp.kp.addr, mod))
		return true;
	return kprobe_gone(&tp->rp.kp) && kpev_probe_names_module(tp, mod);
}

/*
 * Disarm every probe in @mod's text before it is freed, in one batch, so
 * that the next load of the module arms them all again.
 */
static void kpev_module_going(struct module *mod)
{
	struct kpev_probe *tp, *next, **tps;
	int n = 0;

	for_each_kpev_probe(tp, next)
		n += tp->registered;
	tps = kmalloc_array(n, sizeof(*tps), GFP_KERNEL);
	n = 0;
	for_each_kpev_probe(tp, next) {
		if (!tp->registered || !kpev_probe_in_module(tp, mod))
			continue;
		/* its functions go: until they come back, nothing to inject */
		kpev_event_not_injectable(tp->event);
		if (tps)
			tps[n++] = tp;
		else
			kpev_probe_disarm(tp);
	}
	if (n)
		kpev_disarm_batch(tps, n);
	kfree(tps);
}

/*
 * A coming module's probes are armed after the kprobes core knows its
 * code, the core's blacklist of the module included; a going module's
 * probes are disarmed before the core forgets it.
 */
static struct probe_ev_modules kpev_modules = {
	.coming = kpev_module_coming,
	.going = kpev_module_going,
};

static __init int kpev_modules_init(void)
{
	return probe_ev_watch_modules(&kpev_modules);
}
#else
static __init int kpev_modules_init(void)
{
	return 0;
}
#endif

/* --------------------------------------------------- for BPF and perf */

/* Is the first place of @tp a function entry? */
static bool kpev_probe_on_entry(struct kpev_probe *tp)
{
	if (kpev_probe_symbol(tp))
		return !kprobe_on_func_entry(NULL, kpev_probe_symbol(tp),
					     tp->rp.kp.offset);
	return !kprobe_on_func_entry(tp->rp.kp.addr, NULL, 0);
}

/* Forget which events the batch of enables now ended armed.  event_mutex. */
void kpev_events_forget_batch(void)
{
	struct kpev_probe *tp, *next;

	lockdep_assert_held(&event_mutex);
	for_each_kpev_probe(tp, next)
		WRITE_ONCE(tp->event->pev.kind_flags,
			   tp->event->pev.kind_flags & ~KPEV_EV_BATCH_ARMED);
}

/* Nothing to inject into @ev for now.  event_mutex. */
void kpev_event_not_injectable(struct kpev_event *ev)
{
	lockdep_assert_held(&event_mutex);
	WRITE_ONCE(ev->pev.kind_flags,
		   ev->pev.kind_flags & ~KPEV_EV_INJECTABLE);
}

/* BPF asks of the events its programs attach to; only kprobe events have these. */
static struct kpev_event *kpev_event_for_bpf(struct trace_event_call *call)
{
	if (WARN_ON_ONCE(!(call->flags & TRACE_EVENT_FL_KPROBE)))
		return NULL;
	return kpev_event_of(call);
}

/*
 * Read without event_mutex, which BPF does not hold (the probe list may
 * change meanwhile): one flag, worked out with the injectable one.
 */
bool trace_kprobe_on_func_entry(struct trace_event_call *call)
{
	struct kpev_event *ev = kpev_event_for_bpf(call);

	return ev && (READ_ONCE(ev->pev.kind_flags) & KPEV_EV_ON_ENTRY);
}

/*
 * May BPF override the return wherever @tp fires: is every place a
 * function entry on the error-injection list?  The places of a probe over
 * many functions past its first are function entries by their grammar.
 * event_mutex.
 */
static bool kpev_probe_injectable(struct kpev_probe *tp)
{
	unsigned int i;

	if (!kpev_probe_on_entry(tp) ||
	    !within_error_injection_list(kpev_probe_address(tp)))
		return false;
	for (i = 1; i < kpev_probe_nplaces(tp); i++) {
		struct kprobe *kp = &kpev_probe_place(tp, i)->kp;
		unsigned long addr = (unsigned long)kp->addr;

		if (!addr)
			addr = kallsyms_lookup_name(kp->symbol_name);
		if (!within_error_injection_list(addr))
			return false;
	}
	return true;
}

/*
 * Whether BPF may override the return of every function the event
 * probes, worked out when its probes change (under event_mutex), so that
 * BPF, which asks without that lock, reads one flag.  Every probe counts,
 * not only the first: a program runs on all of them.
 */
void kpev_event_injectable_update(struct kpev_event *ev)
{
	bool all = !list_empty(&ev->pev.probes), entries = all;
	struct kpev_probe *tp;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(tp, &ev->pev.probes, sibling) {
		entries = entries && kpev_probe_on_entry(tp);
		all = all && entries && kpev_probe_injectable(tp);
	}
	WRITE_ONCE(ev->pev.kind_flags,
		   (ev->pev.kind_flags & ~(KPEV_EV_ON_ENTRY | KPEV_EV_INJECTABLE)) |
		   (entries ? KPEV_EV_ON_ENTRY : 0) |
		   (all ? KPEV_EV_INJECTABLE : 0));
}

bool trace_kprobe_error_injectable(struct trace_event_call *call)
{
	struct kpev_event *ev = kpev_event_for_bpf(call);

	return ev && (READ_ONCE(ev->pev.kind_flags) & KPEV_EV_INJECTABLE);
}

/* ---------------------------------------------------------------- init */

/* Early, so that kprobe_event= and the gen API work before tracefs. */
static __init int kpev_init_early(void)
{
	int ret = dyn_event_register(&kpev_dyn_ops);

	if (ret)
		return ret;
	return kpev_modules_init();
}
core_initcall(kpev_init_early);

probe_ev_files_initcall(kpev_files);
