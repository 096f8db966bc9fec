// SPDX-License-Identifier: GPL-2.0
/*
 * trace_kprobe_perf.c - kprobe events for perf and BPF.
 *
 * Two ways in:
 *   - perf_event_open() on a kprobe event of tracefs (PERF_TYPE_TRACEPOINT
 *     with the event's id): the event gets a perf user (TK_EV_PERF);
 *   - perf's kprobe PMU: create_local_trace_kprobe() makes a private event
 *     with one probe and no arguments, on no list and in no tracefs
 *     directory, which lives as long as its perf event.
 * On a hit, BPF programs attached to the event run first; a program may
 * drop the record, or (entry probes) change the return address, in which
 * case the probed instruction is skipped.  Then the record goes to the
 * perf events of this CPU.
 *
 * Context: the hit functions run in the kprobe handler (preemption off,
 * maybe NMI); the others in process context, under event_mutex where
 * noted.  Documentation/trace/kprobetrace.rst; perf_event_open(2).
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "trace_kprobe_internal.h"

/* Perf records are padded so that size + the u32 length word is 8-aligned. */
static __always_inline unsigned int tk_perf_size(unsigned int size)
{
	return ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
}

/*
 * Build the record in a perf buffer and hand it to this CPU's perf
 * events.  A record with strings is fetched with the whole buffer as its
 * room and then cut to the size it took.
 */
static __always_inline void tk_perf_record(struct tk_probe *tp,
					   unsigned long addr,
					   struct pt_regs *regs,
					   struct kretprobe_instance *ri,
					   struct hlist_head *head)
{
	struct trace_event_call *call = &tp->event->call;
	unsigned int size = tp->rec_size, padded;
	void *ent;
	int rctx;

	padded = tk_perf_size(tp->dynamic ? PERF_MAX_TRACE_SIZE - sizeof(u64) :
					    size);
	ent = perf_trace_buf_alloc(padded, NULL, &rctx);
	if (!ent) {		/* perf nested too deep on this CPU */
		raw_cpu_inc(tp->counts->dropped);
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
				      ent, tp->event->head_size,
				      tp->dynamic ? padded : size);
	if (tp->dynamic) {
		padded = tk_perf_size(size);
		memset(ent + size, 0, padded - size);	/* no stale bytes out */
	}
	perf_trace_buf_submit(ent, padded, rctx, call->event.type, 1, regs,
			      head, NULL);
}

/*
 * Entry probe.  Returns 1 when a BPF program moved the instruction
 * pointer, which tells the kprobes core not to run the probed instruction.
 */
int tk_perf_hit(struct tk_probe *tp, unsigned long addr, struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->call;
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
		tk_perf_record(tp, addr, regs, NULL, head);
	return 0;
}
NOKPROBE_SYMBOL(tk_perf_hit);

void tk_perf_ret_hit(struct tk_probe *tp, unsigned long addr,
		     struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct trace_event_call *call = &tp->event->call;
	struct hlist_head *head;

	if (bpf_prog_array_valid(call) && !trace_call_bpf(call, regs))
		return;
	head = this_cpu_ptr(call->perf_events);
	if (!hlist_empty(head))
		tk_perf_record(tp, addr, regs, ri, head);
}
NOKPROBE_SYMBOL(tk_perf_ret_hit);

/* class->reg for perf: under event_mutex. */
int bpf_get_kprobe_info(const struct perf_event *event, u32 *fd_type,
			const char **symbol, u64 *probe_offset,
			u64 *probe_addr, unsigned long *missed,
			bool perf_type_tracepoint)
{
	struct tk_probe *tp = tk_event_primary(tk_event_of(event->tp_event));

	if (!tp)
		return -EINVAL;
	*fd_type = tp->rp.handler ? BPF_FD_TYPE_KRETPROBE : BPF_FD_TYPE_KPROBE;
	*probe_offset = tp->rp.kp.offset;
	*probe_addr = kallsyms_show_value(current_cred()) ?
		      (unsigned long)tp->rp.kp.addr : 0;
	*symbol = tk_probe_symbol(tp);
	if (missed)
		*missed = tk_probe_missed(tp);
	return 0;
}

/* ------------------------------------------------------- local events */

/* The definition of a local probe: no name, no arguments. */
static int tk_local_def(struct tk_def *def, char *func, void *addr,
			unsigned long offs, bool is_return)
{
	def->is_return = is_return;
	def->offset = offs;
	if (!func) {
		def->addr = addr;
		return 0;
	}
	def->symbol = kstrdup(func, GFP_KERNEL);
	return def->symbol ? tk_check_symbol(func) : -ENOMEM;
}

struct trace_event_call *create_local_trace_kprobe(char *func, void *addr,
						   unsigned long offs,
						   bool is_return)
{
	struct parg_caps caps = { .is_return = is_return };
	struct parg_err err = {};
	struct tk_def def = {};
	struct parg_set *set;
	struct tk_probe *tp = NULL;
	struct tk_event *ev;
	int ret;

	ret = tk_local_def(&def, func, addr, offs, is_return);
	if (ret)
		goto out_release;
	set = parg_set_parse(&caps, 0, NULL, &err);
	if (IS_ERR(set)) {
		ret = PTR_ERR(set);
		goto out_release;
	}
	ret = -ENOMEM;
	tp = tk_probe_new(&def, set);
	if (!tp) {
		parg_set_free(set);
		goto out_release;
	}
	/* Never published, so the name needs not be unique. */
	ev = tk_event_new(TK_DEFAULT_GROUP, func ? func : "DUMMY_EVENT", tp);
	if (!ev)
		goto out_free_probe;

	mutex_lock(&event_mutex);
	ret = tk_probe_arm(tp);
	tk_event_injectable_update(ev);
	mutex_unlock(&event_mutex);
	if (ret)
		goto out_free_event;
	tk_def_release(&def);
	return &ev->call;

out_free_event:
	list_del_init(&tp->sibling);
	tk_event_free(ev);
	tp->event = NULL;
	tp->args = NULL;	/* it went with the event */
out_free_probe:
	tk_probe_free(tp);
out_release:
	tk_def_release(&def);
	return ERR_PTR(ret);
}

void destroy_local_trace_kprobe(struct trace_event_call *event_call)
{
	struct tk_event *ev = tk_event_of(event_call);
	struct tk_probe *tp = tk_event_primary(ev);

	if (WARN_ON_ONCE(!tp) || WARN_ON_ONCE(READ_ONCE(ev->flags)))
		return;
	mutex_lock(&event_mutex);
	tk_probe_disarm(tp);
	mutex_unlock(&event_mutex);
	list_del_init(&tp->sibling);
	tp->args = NULL;	/* the event's layout */
	tk_event_free(ev);
	tp->event = NULL;
	tk_probe_free(tp);
}
