/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: kprobe events: the interface to the rest of the kernel
 *
 * trace_kprobe.h - what the rest of the kernel calls in the kprobe event
 * layer.
 *
 * perf's kprobe PMU makes "local" events, which never show up in
 * kprobe_events (trace_event_perf.c), and BPF asks whether a kprobe event
 * may override a function's return value (bpf_trace.c).  The in-kernel
 * generation API and bpf_get_kprobe_info() are declared in
 * <linux/trace_events.h>.  See Documentation/trace/kprobetrace.rst.
 */
#ifndef _KERNEL_TRACE_TRACE_KPROBE_H
#define _KERNEL_TRACE_TRACE_KPROBE_H

#include <linux/types.h>

struct trace_event_call;

/*
 * For BPF: does the event's first probe sit on a function entry, and does
 * every probe of the event sit on the entry of an error-injectable
 * function?  Without kprobe events, never.  BPF asks when it attaches a
 * program that overrides returns, under the mutex it attaches with.
 */
#if IS_ENABLED(CONFIG_KPROBE_EVENTS)
bool trace_kprobe_on_func_entry(struct trace_event_call *call);
bool trace_kprobe_error_injectable(struct trace_event_call *call);
#else
#define trace_kprobe_on_func_entry(call)	((void)(call), false)
#define trace_kprobe_error_injectable(call)	((void)(call), false)
#endif

/*
 * For the kprobe event layer, from bpf_trace.c: is a BPF program that
 * overrides returns (bpf_override_return()) attached to @call?  Process
 * context; looks under the mutex BPF attaches programs with.
 */
#ifdef CONFIG_BPF_EVENTS
bool trace_event_bpf_overrides(struct trace_event_call *call);
#else
static inline bool trace_event_bpf_overrides(struct trace_event_call *call)
{
	return false;
}
#endif

#ifdef CONFIG_PERF_EVENTS
/*
 * An event with one probe and no arguments for one perf event: on @func
 * (+@offs), or at @addr when @func is NULL.  Process context, takes
 * event_mutex.  Returns the event or an ERR_PTR.
 */
struct trace_event_call *create_local_trace_kprobe(char *func, void *addr,
						   unsigned long offs,
						   bool is_return);
/* Undo create_local_trace_kprobe(), once perf no longer uses the event. */
void destroy_local_trace_kprobe(struct trace_event_call *event_call);
#endif

#endif /* _KERNEL_TRACE_TRACE_KPROBE_H */
