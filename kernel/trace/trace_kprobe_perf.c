// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events for perf and BPF
 *
 * trace_kprobe_perf.c - kprobe events for perf and BPF.
 *
 * Two ways in::
 *
 *   - perf_event_open() on a kprobe event of tracefs (PERF_TYPE_TRACEPOINT
 *     with the event's id): the event gets a perf user (PROBE_EV_EV_PERF);
 *   - perf's kprobe PMU: create_local_trace_kprobe() makes a private event
 *     with one probe and no arguments, on no list and in no tracefs
 *     directory, which lives as long as its perf event.
 *
 * What a hit does for perf and BPF is trace_kprobe_perf_hit.c's.
 *
 * Context: process, under event_mutex where noted.
 * Documentation/trace/kprobetrace.rst; perf_event_open(2).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "trace_kprobe_internal.h"

/* BPF's query of the probe behind a perf event (BPF_TASK_FD_QUERY). */
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, unsigned long *missed,
			bool perf_type_tracepoint)
{
	struct kpev_probe *tp = kpev_event_primary(kpev_event_of(event->tp_event));

	if (!tp)
		return -EINVAL;
	*fd_type = tp->rp.handler ? BPF_FD_TYPE_KRETPROBE : BPF_FD_TYPE_KPROBE;
	*probe_offset = tp->rp.kp.offset;
	*probe_addr = kallsyms_show_value(current_cred()) ?
		      (unsigned long)tp->rp.kp.addr : 0;
	*symbol = kpev_probe_symbol(tp);
	if (missed)
		*missed = kpev_probe_missed(tp);
	return 0;
}

/* ------------------------------------------------------- local events */

/* The definition of a local probe: no name, no arguments. */
static int kpev_local_def(struct kpev_def *def, char *func, void *addr,
			unsigned long offs, bool is_return)
{
	def->is_return = is_return;
	def->offset = offs;
	if (!func) {
		def->addr = addr;
		return 0;
	}
	def->symbol = kstrdup(func, GFP_KERNEL);
	return def->symbol ? kpev_check_symbol(func) : -ENOMEM;
}

struct trace_event_call *create_local_trace_kprobe(char *func, void *addr,
						   unsigned long offs,
						   bool is_return)
{
	struct parg_caps caps = { .is_return = is_return };
	struct parg_err err = {};
	struct kpev_def def = {};
	struct parg_set *set;
	struct kpev_probe *tp = NULL;
	struct kpev_event *ev;
	int ret;

	ret = kpev_local_def(&def, func, addr, offs, is_return);
	if (ret)
		goto out_release;
	set = parg_set_parse(&caps, 0, NULL, &err);
	if (IS_ERR(set)) {
		ret = PTR_ERR(set);
		goto out_release;
	}
	ret = -ENOMEM;
	tp = kpev_probe_new(&def, set);
	if (!tp)
		goto out_release;
	/* Never published, so the name needs not be unique. */
	ev = kpev_event_new(KPEV_DEFAULT_GROUP, func ? func : "DUMMY_EVENT", tp);
	if (!ev)
		goto out_free_probe;

	mutex_lock(&event_mutex);
	ret = kpev_probe_arm(tp);
	kpev_event_injectable_update(ev);
	mutex_unlock(&event_mutex);
	if (ret)
		goto out_free_event;
	kpev_def_release(&def);
	return &ev->pev.call;

out_free_event:
	probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args);
	tp->event = NULL;
out_free_probe:
	kpev_probe_free(tp);
out_release:
	kpev_def_release(&def);
	return ERR_PTR(ret);
}

void destroy_local_trace_kprobe(struct trace_event_call *event_call)
{
	struct kpev_event *ev = kpev_event_of(event_call);
	struct kpev_probe *tp = kpev_event_primary(ev);

	if (WARN_ON_ONCE(!tp) || WARN_ON_ONCE(READ_ONCE(ev->pev.flags)))
		return;
	kpev_local_probe_disarm(tp);
	probe_ev_event_leave(&ev->pev, &tp->sibling, &tp->args);
	tp->event = NULL;
	kpev_probe_free(tp);
}
