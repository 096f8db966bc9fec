/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: fprobe and tracepoint probe events: what the layer's files share
 *
 * trace_fprobe_internal.h - fprobe events (f:) and tracepoint probes (t:),
 * shared between the files of this layer.
 * Prefixes: ``fpev_`` (trace fprobe: this layer), ``parg_``, ``probe_ev_`` (the layers below).
 *
 * Terms (Documentation/trace/fprobetrace.rst has the user's view)::
 *
 *   definition  one line written to dynamic_events:
 *                 f[:[GRP/][EVENT]] SYM[%return] [ARGS]
 *                 t[:[GRP/][EVENT]] TRACEPOINT [ARGS]
 *   probe       what one definition arms: an fprobe (on the functions the
 *               ftrace glob SYM names, or on the tracepoint's stub) plus
 *               the compiled fetch arguments.  Struct fpev_probe; one line
 *               in dynamic_events.
 *   event       events/<grp>/<name>: one trace_event_call, owning one
 *               probe or more of the same kind and argument layout.
 *               Struct fpev_event.
 *   stub        a tracepoint probe does not hook the tracepoint's own
 *               code: the tracepoint's empty "__probestub_<tp>" function
 *               is attached to the tracepoint as an ordinary probe, and
 *               the fprobe sits on that stub, so its arguments are the
 *               tracepoint's (after a leading data pointer).  One stub
 *               attachment serves every t: probe on that tracepoint
 *               (struct fpev_tpoint, refcounted).
 *
 * The files::
 *
 *   trace_fprobe.c        probe lifetime, fprobe registration, dyn_event
 *                         ops, creation and removal, fprobe_profile
 *   trace_fprobe_parse.c  the grammar of a definition and error_log
 *   trace_fprobe_event.c  its trace_event_call (on probe_event.c): new,
 *                         enable/disable (arm and disarm the probes)
 *   trace_fprobe_hit.c    the fprobe handlers: ring buffer and perf
 *   trace_fprobe_tp.c     tracepoints: lookup, shared stub attachment,
 *                         module load and unload
 *
 * Lifetime: a definition only checks that its place exists; a probe is
 * registered with the fprobe core (and a t: probe's stub attached to its
 * tracepoint) when its event gets its first user, a trace file or perf,
 * and unregistered when the last one leaves, so that ftrace's
 * enabled_functions lists only what is being traced.  A t: probe on a
 * tracepoint of a module that is not loaded waits: it learns its
 * tracepoint when the module comes (and is armed then if its event is
 * on), and forgets it when the module goes.
 *
 * Locking: event_mutex serializes every change to probes, events and
 * stub attachments, and guards the dyn_event list; definitions are parsed
 * under dyn_event_ops_mutex (taken outside event_mutex).  The hit path
 * takes no lock: what it reads of a probe and its event is fixed before
 * the fprobe is registered, and the event's file links are walked under
 * RCU (fprobe handlers run with preemption disabled).
 */
#ifndef _KERNEL_TRACE_TRACE_FPROBE_INTERNAL_H
#define _KERNEL_TRACE_TRACE_FPROBE_INTERNAL_H

#include <linux/fprobe.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>

#include "trace.h"
#include "trace_dynevent.h"
#include "probe_arg.h"
#include "probe_event.h"

#define FPEV_FPROBE_GROUP		"fprobes"
#define FPEV_TPROBE_GROUP		"tracepoints"
#define FPEV_NAME_LEN		MAX_EVENT_NAME_LEN

/*
 * Errors of this layer (trace_fprobe_errors.h), then the argument library's:
 * probe_ev_err_code(FPEV_ERR_PARG_FIRST, code) maps a library code into the one
 * error_log table.
 */
#define FPEV_ERROR(code, msg)	FPEV_ERR_##code,
enum fpev_err_code {
#include "trace_fprobe_errors.h"
	FPEV_ERR_PARG_FIRST	/* PARG code c is FPEV_ERR_PARG_FIRST + c - 1 */
};

#undef FPEV_ERROR

/* error_log entry under "trace_fprobe", caret at byte @pos of word @word. */
extern const struct probe_ev_errors fpev_errors;
void fpev_parse_error(const struct probe_ev_words *p, int word, int pos,
		    enum fpev_err_code code);

/*
 * A definition parsed up to (not including) its arguments.  Strings
 * point into argv or into the buffers of the struct.
 */
struct fpev_def {
	bool is_tprobe;
	bool is_return;
	const char *group;
	const char *event;
	char symbol[KSYM_NAME_LEN];	/* SYM or TRACEPOINT, no %return */
	int nargs;
	const char **args;		/* the argument words, in argv */
	char group_buf[FPEV_NAME_LEN];
	char event_buf[FPEV_NAME_LEN];
};

/*
 * Fill @def from words 0 and 1, and check the argument words for
 * $retval.  Returns 0, -ECANCELED for a line that is not f: or t:
 * (nothing logged), or an errno with an error_log entry written.
 */
int fpev_parse_def(const struct probe_ev_words *p, struct fpev_def *def);

struct fpev_event {
	struct probe_ev_event pev;
};

/* pev.kind_flags of an fprobe event: its probes are t: probes */
#define FPEV_EV_TPROBE		BIT(0)

/* Per CPU, what the hit path counts. */
struct fpev_counts {
	unsigned long hits;
	unsigned long dropped;		/* no room: ring buffer, scratch, perf */
};

/* A tracepoint whose stub is attached for one t: probe or more. */
struct fpev_tpoint {
	struct list_head node;		/* event_mutex */
	struct tracepoint *tpoint;
	unsigned int refs;
};

struct fpev_probe {
	/* read by the hit path; fixed while the fprobe is registered */
	struct fprobe fp;
	struct fpev_event *event;
	struct parg_set *args;		/* may be @event->layout */
	unsigned int rec_size;		/* head + fixed block */
	bool has_args;
	bool dynamic;			/* strings follow the fixed block */
	struct fpev_counts __percpu *counts;

	/* control: event_mutex */
	struct dyn_event devent;
	struct list_head sibling;	/* in @event->probes */
	char *symbol;			/* SYM or TRACEPOINT, as written */
	bool is_tprobe;
	bool registered;		/* the fprobe core has @fp */
	struct tracepoint *tpt;		/* t: its tracepoint; NULL: waiting */
	struct module *mod;		/* t: module of @tpt, or NULL */
	struct fpev_tpoint *tpoint;	/* t: attached stub (armed), or NULL */
	unsigned long missed_before;	/* fp.nmissed of past registrations */
};

static inline struct fpev_event *fpev_event_of(struct trace_event_call *call)
{
	return container_of(call, struct fpev_event, pev.call);
}

/* trace_fprobe.c */
struct fpev_probe *fpev_probe_after(struct fpev_probe *tp);
#define for_each_tf_probe(tp)	\
	for (tp = fpev_probe_after(NULL); tp; tp = fpev_probe_after(tp))
int fpev_probe_register(struct fpev_probe *tp);
int fpev_probe_unregister(struct fpev_probe *tp);
int fpev_probe_arm(struct fpev_probe *tp);
int fpev_probe_disarm(struct fpev_probe *tp);

/* trace_fprobe_event.c */
struct fpev_event *fpev_event_new(const char *group, const char *name,
			      struct fpev_probe *first);
struct fpev_event *fpev_find_event(const char *group, const char *name);
bool fpev_probe_in_use(const struct fpev_probe *tp);

/* trace_fprobe_hit.c */
int fpev_entry_hit(struct fprobe *fp, unsigned long entry_ip,
		   unsigned long ret_ip, struct ftrace_regs *fregs, void *edata);
int fpev_entry_save(struct fprobe *fp, unsigned long entry_ip,
		    unsigned long ret_ip, struct ftrace_regs *fregs, void *edata);
void fpev_exit_hit(struct fprobe *fp, unsigned long entry_ip,
		   unsigned long ret_ip, struct ftrace_regs *fregs, void *edata);

/*
 * trace_fprobe_tp.c.  fpev_tp_find(): the tracepoint named @name, in vmlinux
 * or a loaded module (held in *@mod, NULL for vmlinux; module_put() it).
 */
struct tracepoint *fpev_tp_find(const char *name, struct module **mod);
unsigned long fpev_tp_modules_seq(void);
bool fpev_tp_modules_changed(unsigned long seq);
int fpev_tp_attach(struct fpev_probe *tp);
int fpev_tp_detach(struct fpev_probe *tp);
int fpev_tp_init(void);

/* A module that can be probed (NULL: vmlinux), and its name for BTF. */
#ifdef CONFIG_MODULES
static inline bool fpev_module_live(struct module *mod)
{
	return !mod || module_is_live(mod);
}

static inline const char *fpev_module_name(struct module *mod)
{
	return mod ? mod->name : NULL;
}
#else
static inline bool fpev_module_live(struct module *mod)
{
	return true;
}

static inline const char *fpev_module_name(struct module *mod)
{
	return NULL;
}
#endif

#endif /* _KERNEL_TRACE_TRACE_FPROBE_INTERNAL_H */
