// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: the perf and BPF hit path
 *
 * trace_kprobe_perf_hit.c - the perf and BPF side of a kprobe event hit.
 *
 * On a hit, BPF programs attached to the event run first; a program may
 * drop the record, or (entry probes) change the return address, in which
 * case the probed instruction is skipped.  Then the record goes to the
 * perf events of this CPU.  trace_kprobe_hit.c calls in here; the perf
 * and BPF attachment itself is trace_kprobe_perf.c's.
 *
 * Context: the kprobe handler: preemption off, maybe NMI.  Nothing here
 * allocates or sleeps.
 */
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "trace_kprobe_internal.h"

/*
 * Build the record in a perf buffer and hand it to this CPU's perf
 * events.  A record with strings is fetched with the whole buffer as its
 * room and then cut to the size it took.
 */
static __always_inline void kpev_perf_record(struct kpev_probe *tp,
					   unsigned long addr,
					   struct pt_regs *regs,
					   struct kretprobe_instance *ri,
					   struct hlist_head *head)
{
	struct trace_event_call *call = &tp->event->pev.call;
	unsigned int size = tp->rec_size, padded;
	void *ent;
	int rctx;

	padded = probe_ev_perf_room(size, tp->dynamic);
	ent = perf_trace_buf_alloc(padded, NULL, &rctx);
	if (!ent) {		/* perf nested too deep on this CPU */
		kpev_count_drop(tp);
		return;
	}
	if (ri) {
		struct kretprobe_trace_entry_head *h = ent;

		h->func = addr;
		h->ret_ip = get_kretprobe_retaddr(ri);
	} else {
		((struct kprobe_trace_entry_head *)ent)->ip = addr;
	}
	if (tp->has_args)
		size = parg_set_fetch(tp->args, regs, ri ? ri->data : NULL,
				      ent, tp->event->pev.head_size,
				      tp->dynamic ? padded : size);
	probe_ev_perf_submit(call, ent, size, padded, tp->dynamic, rctx, regs,
			     head);
}

/*
 * Entry probe.  Returns 1 when a BPF program moved the instruction
 * pointer, which tells the kprobes core not to run the probed instruction.
 */
int kpev_perf_hit(struct kpev_probe *tp, unsigned long addr, struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->pev.call;
	struct hlist_head *head;

	if (bpf_prog_array_valid(call)) {
		unsigned long ip = instruction_pointer(regs);
		unsigned int keep = trace_call_bpf(call, regs);

		if (ip != instruction_pointer(regs))
			return 1;
		if (!keep)
			return 0;
	}
	head = this_cpu_ptr(call->perf_events);
	if (!hlist_empty(head))
		kpev_perf_record(tp, addr, regs, NULL, head);
	return 0;
}
NOKPROBE_SYMBOL(kpev_perf_hit);

void kpev_perf_ret_hit(struct kpev_probe *tp, unsigned long addr,
		     struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->pev.call;
	struct hlist_head *head;

	if (bpf_prog_array_valid(call) && !trace_call_bpf(call, regs))
		return;
	head = this_cpu_ptr(call->perf_events);
	if (!hlist_empty(head))
		kpev_perf_record(tp, addr, regs, ri, head);
}
NOKPROBE_SYMBOL(kpev_perf_ret_hit);
