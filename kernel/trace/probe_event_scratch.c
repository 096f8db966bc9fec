// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe events: the per-CPU scratch pool of the hit paths
 *
 * probe_event_scratch.c - the scratch pool the probe-event hit paths
 * share.  A hit builds a record in it when the record's size is known
 * only once its arguments are fetched (strings: reserve the exact size
 * afterwards, then copy), or when the record must pass the event filter
 * before it takes room in a ring buffer, or, for uprobes, when the fetch
 * may have to be redone after paging user memory in.
 *
 * Shape: PROBE_EV_SCRATCH_LEVELS buffers of PROBE_EV_SCRATCH_SIZE bytes per CPU,
 * and a per-CPU depth.  A hit takes the level at the depth and raises
 * it; a hit that interrupts it (softirq, irq, NMI, or an event fired by
 * its own fetch, such as a page fault's) takes the next one.  The pool
 * is shared by kprobe, uprobe, fprobe/tracepoint probe and event probe
 * events, so the nesting of any of them with any other is covered by
 * the same depth.  A hit nested deeper than the levels gets NULL, drops
 * its record and counts it as a miss of its event.  Each get is paired
 * with a put, in the same preempt-off section.
 *
 * Cost at a hit: the inline get and put in probe_event.h, an
 * increment, a compare and a load, and a decrement; nothing for a
 * record with no strings and no filter, which never takes a level.
 *
 * Life: the buffers are allocated by the first probe that needs them,
 * from process context (probe_ev_scratch_reserve(), which may sleep), and
 * never freed, so a hit never sees them go.  Each level is its own
 * per-CPU allocation, since the per-CPU allocator serves at most
 * PCPU_MIN_UNIT_SIZE at once.
 *
 * See Documentation/trace/kprobetrace.rst for the hit path.
 */
#include <linux/mutex.h>
#include <linux/percpu.h>

#include "probe_event.h"

DEFINE_PER_CPU(struct probe_ev_scratch_cpu, probe_ev_scratch_cpu);

static DEFINE_MUTEX(probe_ev_scratch_lock);
static char __percpu *probe_ev_scratch_bufs[PROBE_EV_SCRATCH_LEVELS];	/* the lock */
static bool probe_ev_scratch_ready;	/* every level of every CPU is set */

/* Publish @buf as level @level of every possible CPU. */
static void probe_ev_scratch_publish(unsigned int level, char __percpu *buf)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(probe_ev_scratch_cpu, cpu).level[level],
			   per_cpu_ptr(buf, cpu));
}

/*
 * Make sure the pool exists; call before arming a probe that may take a
 * level.  Process context, may sleep.  Returns 0 or -ENOMEM; the levels
 * made before a failure stay for the next call.
 */
int probe_ev_scratch_reserve(void)
{
	char __percpu *buf;
	unsigned int i;

	if (smp_load_acquire(&probe_ev_scratch_ready))
		return 0;
	guard(mutex)(&probe_ev_scratch_lock);
	for (i = 0; i < PROBE_EV_SCRATCH_LEVELS; i++) {
		if (probe_ev_scratch_bufs[i])
			continue;
		buf = __alloc_percpu(PROBE_EV_SCRATCH_SIZE, sizeof(u64));
		if (!buf)
			return -ENOMEM;
		probe_ev_scratch_bufs[i] = buf;
		probe_ev_scratch_publish(i, buf);
	}
	/* the levels are seen before any probe armed after this returns */
	smp_store_release(&probe_ev_scratch_ready, true);
	return 0;
}
