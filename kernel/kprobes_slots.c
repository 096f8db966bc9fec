// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Executable slots for the out-of-line copies of probed instructions.
 *
 * A copy must run from executable memory within reach of the kernel text
 * (x86-64 fixes up %rip-relative operands with a 32-bit displacement), so
 * slots are carved out of pages from execmem_alloc(EXECMEM_KPROBES).  The
 * pages are read-only and executable; the arch code fills a slot with
 * text_poke().
 *
 * Each page is split into KPROBE_INSN_SLOT_SIZE slots tracked by a bitmap.
 * Pages sit on an RCU list: is_kprobe_insn_slot() (called by the unwinder
 * through kernel_text_address(), in any context) and /proc/kallsyms read
 * it locklessly; allocation and freeing hold kprobe_slot_lock.  Freeing a
 * slot is the caller's promise that no CPU runs in it any more.  The last
 * page stays around, so that a probe added later needs no new page.
 */
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/set_memory.h>
#include <linux/slab.h>

#include "kprobes_internal.h"

#define KPROBE_SLOTS_PER_PAGE	(PAGE_SIZE / KPROBE_INSN_SLOT_SIZE)
#define KPROBE_SLOT_PAGE_SYM	"kprobe_insn_page"

struct kprobe_slot_page {
	struct list_head	list;
	kprobe_opcode_t		*base;
	unsigned int		nr_used;
	DECLARE_BITMAP(used, KPROBE_SLOTS_PER_PAGE);
	struct rcu_head		rcu;
};

static LIST_HEAD(kprobe_slot_pages);
static DEFINE_MUTEX(kprobe_slot_lock);

static struct kprobe_slot_page *kprobe_slot_page_new(void)
{
	struct kprobe_slot_page *pg;

	pg = kzalloc(sizeof(*pg), GFP_KERNEL);
	if (!pg)
		return NULL;
	pg->base = execmem_alloc(EXECMEM_KPROBES, PAGE_SIZE);
	if (!pg->base) {
		kfree(pg);
		return NULL;
	}
	set_memory_rox((unsigned long)pg->base, 1);
	list_add_tail_rcu(&pg->list, &kprobe_slot_pages);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)pg->base,
			   PAGE_SIZE, false, KPROBE_SLOT_PAGE_SYM);
	return pg;
}

static void kprobe_slot_page_free(struct kprobe_slot_page *pg)
{
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)pg->base,
			   PAGE_SIZE, true, KPROBE_SLOT_PAGE_SYM);
	list_del_rcu(&pg->list);
	execmem_free(pg->base);
	kfree_rcu(pg, rcu);
}

/**
 * kprobe_insn_slot_alloc() - get a free slot
 *
 * Context: may sleep.
 * Return: the slot, or NULL when out of memory.
 */
kprobe_opcode_t *kprobe_insn_slot_alloc(void)
{
	struct kprobe_slot_page *pg;
	unsigned int idx;

	guard(mutex)(&kprobe_slot_lock);
	list_for_each_entry(pg, &kprobe_slot_pages, list) {
		if (pg->nr_used < KPROBE_SLOTS_PER_PAGE)
			goto found;
	}
	pg = kprobe_slot_page_new();
	if (!pg)
		return NULL;
found:
	idx = find_first_zero_bit(pg->used, KPROBE_SLOTS_PER_PAGE);
	if (WARN_ON_ONCE(idx >= KPROBE_SLOTS_PER_PAGE))
		return NULL;
	__set_bit(idx, pg->used);
	pg->nr_used++;
	return pg->base + idx * KPROBE_INSN_SLOT_SIZE;
}

static bool kprobe_slot_page_has(struct kprobe_slot_page *pg, unsigned long addr)
{
	return addr >= (unsigned long)pg->base &&
	       addr < (unsigned long)pg->base + PAGE_SIZE;
}

/**
 * kprobe_insn_slot_free() - give a slot back
 * @slot: a slot from kprobe_insn_slot_alloc(), or NULL
 *
 * Context: may sleep; no CPU may be executing in @slot.
 */
void kprobe_insn_slot_free(kprobe_opcode_t *slot)
{
	struct kprobe_slot_page *pg;
	unsigned int idx;

	if (!slot)
		return;
	guard(mutex)(&kprobe_slot_lock);
	list_for_each_entry(pg, &kprobe_slot_pages, list) {
		if (kprobe_slot_page_has(pg, (unsigned long)slot))
			goto found;
	}
	WARN_ONCE(1, "kprobes: freeing unknown slot %px\n", slot);
	return;
found:
	idx = (slot - pg->base) / KPROBE_INSN_SLOT_SIZE;
	if (WARN_ON_ONCE(!__test_and_clear_bit(idx, pg->used)))
		return;
	if (--pg->nr_used == 0 && !list_is_singular(&kprobe_slot_pages))
		kprobe_slot_page_free(pg);
}

/* Is @addr in a slot page?  Any context. */
bool is_kprobe_insn_slot(unsigned long addr)
{
	struct kprobe_slot_page *pg;

	guard(rcu)();
	list_for_each_entry_rcu(pg, &kprobe_slot_pages, list) {
		if (kprobe_slot_page_has(pg, addr))
			return true;
	}
	return false;
}

/**
 * kprobe_get_kallsym() - the @symnum-th symbol kprobes adds to kallsyms
 * @symnum: index, from 0
 * @value: the symbol's address
 * @type: its type ('t')
 * @sym: its name, KSYM_NAME_LEN bytes
 *
 * Each slot page shows as one symbol.  Return: 0, or -ERANGE past the end.
 */
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym)
{
	struct kprobe_slot_page *pg;

	guard(rcu)();
	list_for_each_entry_rcu(pg, &kprobe_slot_pages, list) {
		if (symnum--)
			continue;
		strscpy(sym, KPROBE_SLOT_PAGE_SYM, KSYM_NAME_LEN);
		*type = 't';
		*value = (unsigned long)pg->base;
		return 0;
	}
	return -ERANGE;
}
