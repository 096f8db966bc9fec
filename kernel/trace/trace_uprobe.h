/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: uprobe events: the interface to the rest of the kernel
 *
 * trace_uprobe.h - what the rest of the kernel calls in the uprobe event
 * layer.
 *
 * perf's uprobe PMU makes "local" events, which never show up in
 * uprobe_events (trace_event_perf.c).  While the BPF programs of a
 * uprobe event run, the task's utask->vaddr points at a
 * uprobe_dispatch_data on the handler's stack, so that bpf_get_func_ip()
 * can tell a BPF program which breakpoint fired (bpf_trace.c).
 * See Documentation/trace/uprobetracer.rst.
 */
#ifndef _KERNEL_TRACE_TRACE_UPROBE_H
#define _KERNEL_TRACE_TRACE_UPROBE_H

#include <linux/types.h>

struct trace_event_call;

/* Valid only during the handler that set utask->vaddr to it. */
struct uprobe_dispatch_data {
	unsigned long bp_addr;	/* the breakpoint's address in the task */
};

#ifdef CONFIG_PERF_EVENTS
/*
 * An event with one probe and no arguments for one perf event, on the
 * file @name at @offs (with a reference counter at @ref_ctr_offset, or
 * 0).  Process context; the event is on no list.  Returns the event
 * or an ERR_PTR.
 */
struct trace_event_call *create_local_trace_uprobe(char *name,
						   unsigned long offs,
						   unsigned long ref_ctr_offset,
						   bool is_return);
/* Undo create_local_trace_uprobe(), once perf no longer uses the event. */
void destroy_local_trace_uprobe(struct trace_event_call *event_call);
#endif

#endif /* _KERNEL_TRACE_TRACE_UPROBE_H */
