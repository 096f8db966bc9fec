/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: Design notes
 *
 * trace_fprobe_internal.h - fprobe events (f:) and tracepoint probes (t:),
 * shared between the files of this layer.
 * Prefixes: ``tf_`` (trace fprobe: this layer), ``parg_``, ``pev_`` (the layers below).
 *
 * Terms (Documentation/trace/fprobetrace.rst has the user's view)::
 *
 *   definition  one line written to dynamic_events:
 *                 f[MAXACTIVE][:[GRP/][EVENT]] SYM[%return] [ARGS]
 *                 t[:[GRP/][EVENT]] TRACEPOINT [ARGS]
 *   probe       what one definition arms: an fprobe (on the functions the
 *               ftrace glob SYM names, or on the tracepoint's stub) plus
 *               the compiled fetch arguments.  Struct tf_probe; one line
 *               in dynamic_events.
 *   event       events/<grp>/<name>: one trace_event_call, owning one
 *               probe or more of the same kind and argument layout.
 *               Struct tf_event.
 *   stub        a tracepoint probe does not hook the tracepoint's own
 *               code: the tracepoint's empty "__probestub_<tp>" function
 *               is attached to the tracepoint as an ordinary probe, and
 *               the fprobe sits on that stub, so its arguments are the
 *               tracepoint's (after a leading data pointer).  One stub
 *               attachment serves every t: probe on that tracepoint
 *               (struct tf_tpoint, refcounted).
 *
 * The files::
 *
 *   trace_fprobe.c        probe lifetime, fprobe registration, dyn_event
 *                         ops, creation and removal, fprobe_profile
 *   trace_fprobe_parse.c  the grammar of a definition and error_log
 *   trace_fprobe_event.c  its trace_event_call (on probe_event.c): new,
 *                         enable/disable (soft: the fprobe flag)
 *   trace_fprobe_hit.c    the fprobe handlers: ring buffer and perf
 *   trace_fprobe_tp.c     tracepoints: lookup, shared stub attachment,
 *                         module load and unload
 *
 * Lifetime: a probe is registered with the fprobe core when it is
 * defined and stays registered until it is deleted, soft-disabled while
 * its event is off (an fprobe handler checks the flag first).  The one
 * exception is a t: probe on a tracepoint of a module that is not
 * loaded: it waits, unregistered, and is attached when the module comes
 * and detached when it goes (tf_probe.registered says which).
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

#define TF_FPROBE_GROUP		"fprobes"
#define TF_TPROBE_GROUP		"tracepoints"
#define TF_MAXACTIVE_MAX	4096	/* return instances per probe */
#define TF_NAME_LEN		MAX_EVENT_NAME_LEN
#define TF_MAXACT_TEXT		64	/* digits of MAXACTIVE, with NUL */

/*
 * Errors of this layer (trace_fprobe_errors.h), then the argument library's:
 * pev_err_code(TF_ERR_PARG_FIRST, code) maps a library code into the one
 * error_log table.
 */
#define TF_ERROR(code, msg)	TF_ERR_##code,
enum tf_err_code {
#include "trace_fprobe_errors.h"
	TF_ERR_PARG_FIRST	/* PARG code c is TF_ERR_PARG_FIRST + c - 1 */
};

#undef TF_ERROR

/* The words of one definition, as argv_split() cut them. */
struct tf_parse {
	int argc;
	const char **argv;
};

/* error_log entry under "trace_fprobe", caret at byte @pos of word @word. */
void tf_parse_error(const struct tf_parse *p, int word, int pos,
		    enum tf_err_code code);

/*
 * A definition parsed up to (not including) its arguments.  Strings
 * point into argv or into the buffers of the struct.
 */
struct tf_def {
	bool is_tprobe;
	bool is_return;
	int maxactive;			/* 0: the fprobe core's default */
	const char *group;
	const char *event;
	char symbol[KSYM_NAME_LEN];	/* SYM or TRACEPOINT, no %return */
	int nargs;
	const char **args;		/* the argument words, in argv */
	char group_buf[TF_NAME_LEN];
	char event_buf[TF_NAME_LEN];
};

/*
 * Fill @def from words 0 and 1, and check the argument words for
 * $retval.  Returns 0, -ECANCELED for a line that is not f: or t:
 * (nothing logged), or an errno with an error_log entry written.
 */
int tf_parse_def(const struct tf_parse *p, struct tf_def *def);

struct tf_event {
	struct pev_event pev;
	bool is_tprobe;			/* its probes are t: probes */
};

/* Per CPU, what the hit path counts. */
struct tf_counts {
	unsigned long hits;
	unsigned long dropped;		/* no room: ring buffer, scratch, perf */
};

/* A tracepoint whose stub is attached for one t: probe or more. */
struct tf_tpoint {
	struct list_head node;		/* event_mutex */
	struct tracepoint *tpoint;
	unsigned int refs;
};

struct tf_probe {
	/* read by the hit path; fixed while the fprobe is registered */
	struct fprobe fp;
	struct tf_event *event;
	struct parg_set *args;		/* may be @event->layout */
	unsigned int rec_size;		/* head + fixed block */
	bool has_args;
	bool dynamic;			/* strings follow the fixed block */
	struct tf_counts __percpu *counts;

	/* control: event_mutex */
	struct dyn_event devent;
	struct list_head sibling;	/* in @event->probes */
	char *symbol;			/* SYM or TRACEPOINT, as written */
	bool is_tprobe;
	bool registered;		/* the fprobe core has @fp */
	struct tf_tpoint *tpoint;	/* t: attached stub, or NULL */
	struct module *mod;		/* t: module of @tpoint, or NULL */
	unsigned long missed_before;	/* fp.nmissed of past registrations */
};

static inline struct tf_event *tf_event_of(struct trace_event_call *call)
{
	return container_of(call, struct tf_event, pev.call);
}

/* trace_fprobe.c */
struct tf_probe *tf_probe_after(struct tf_probe *tp);
#define for_each_tf_probe(tp)	\
	for (tp = tf_probe_after(NULL); tp; tp = tf_probe_after(tp))
int tf_probe_register(struct tf_probe *tp);
int tf_probe_unregister(struct tf_probe *tp);

/* trace_fprobe_event.c */
struct tf_event *tf_event_new(const char *group, const char *name,
			      struct tf_probe *first);
struct tf_event *tf_find_event(const char *group, const char *name);
void tf_probe_sync_enable(struct tf_probe *tp);

/* trace_fprobe_hit.c */
int tf_entry_hit(struct fprobe *fp, unsigned long entry_ip,
		 unsigned long ret_ip, struct pt_regs *regs, void *edata);
int tf_entry_save(struct fprobe *fp, unsigned long entry_ip,
		  unsigned long ret_ip, struct pt_regs *regs, void *edata);
void tf_exit_hit(struct fprobe *fp, unsigned long entry_ip,
		 unsigned long ret_ip, struct pt_regs *regs, void *edata);

/*
 * trace_fprobe_tp.c.  tf_tp_find(): the tracepoint named @name, in vmlinux
 * or a loaded module (held in *@mod, NULL for vmlinux; module_put() it).
 */
struct tracepoint *tf_tp_find(const char *name, struct module **mod);
unsigned long tf_tp_modules_seq(void);
bool tf_tp_modules_changed(unsigned long seq);
int tf_tp_attach(struct tf_probe *tp, struct tracepoint *tpoint,
		 struct module *mod);
int tf_tp_detach(struct tf_probe *tp);
int tf_tp_init(void);

/* A module that can be probed (NULL: vmlinux), and its name for BTF. */
#ifdef CONFIG_MODULES
static inline bool tf_module_live(struct module *mod)
{
	return !mod || module_is_live(mod);
}

static inline const char *tf_module_name(struct module *mod)
{
	return mod ? mod->name : NULL;
}
#else
static inline bool tf_module_live(struct module *mod)
{
	return true;
}

static inline const char *tf_module_name(struct module *mod)
{
	return NULL;
}
#endif

#endif /* _KERNEL_TRACE_TRACE_FPROBE_INTERNAL_H */
