// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: executable slots for copies and detours
 *
 * Executable slots for the code kprobes generates: the out-of-line copies
 * of probed instructions, and the detour buffers of optimized sites.
 *
 * That code must run from executable memory within reach of the kernel
 * text (x86-64 fixes up RIP-relative operands and jumps back with 32-bit
 * displacements), so slots are carved out of pages from
 * execmem_alloc(EXECMEM_KPROBES).  The pages are read-only and executable;
 * the arch code fills a slot with text_poke().
 *
 * There is one pool per slot size.  Each page of a pool is split into
 * slots tracked by a bitmap; slot sizes count bytes, whatever the size of
 * kprobe_opcode_t.  Pages sit on an RCU list: is_kprobe_insn_slot()
 * and is_kprobe_optinsn_slot() (called by the unwinder through
 * kernel_text_address(), in any context) and /proc/kallsyms read it
 * locklessly; allocation and freeing hold the pool's mutex.  Freeing a slot
 * is the caller's promise that no CPU runs in it any more.  The last page
 * of a pool stays around, so that a probe added later needs no new page.
 */
#include <linux/execmem.h>
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/set_memory.h>
#include <linux/slab.h>

#include "internal.h"

#define KPROBE_MAX_SLOTS_PER_PAGE	(PAGE_SIZE / KPROBE_INSN_SLOT_SIZE)

struct kprobe_slot_page {
	struct list_head	list;
	kprobe_opcode_t		*base;
	unsigned int		nr_used;
	DECLARE_BITMAP(used, KPROBE_MAX_SLOTS_PER_PAGE);
	struct rcu_head		rcu;
};

/**
 * struct kprobe_slot_pool - slots of one size
 * @sym: the name of its pages in kallsyms
 * @slot_size: bytes per slot, a divisor of PAGE_SIZE
 * @pages: struct kprobe_slot_page; RCU readers, @lock writers
 * @lock: serialises allocation and freeing
 */
struct kprobe_slot_pool {
	const char		*sym;
	unsigned int		slot_size;
	struct list_head	pages;
	struct mutex		lock;	/* see @lock above */
};

#define KPROBE_SLOT_POOL(name, symbol, size) {			\
	.sym = symbol,						\
	.slot_size = size,					\
	.pages = LIST_HEAD_INIT(name.pages),			\
	.lock = __MUTEX_INITIALIZER(name.lock),			\
}

static struct kprobe_slot_pool kprobe_insn_pool =
	KPROBE_SLOT_POOL(kprobe_insn_pool, "kprobe_insn_page", KPROBE_INSN_SLOT_SIZE);

static unsigned int kprobe_slots_per_page(struct kprobe_slot_pool *pool)
{
	return PAGE_SIZE / pool->slot_size;
}

static struct kprobe_slot_page *kprobe_slot_page_new(struct kprobe_slot_pool *pool)
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
	list_add_tail_rcu(&pg->list, &pool->pages);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)pg->base,
			   PAGE_SIZE, false, pool->sym);
	return pg;
}

static void kprobe_slot_page_free(struct kprobe_slot_pool *pool,
				  struct kprobe_slot_page *pg)
{
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, (unsigned long)pg->base,
			   PAGE_SIZE, true, pool->sym);
	list_del_rcu(&pg->list);
	execmem_free(pg->base);
	kfree_rcu(pg, rcu);
}

static kprobe_opcode_t *kprobe_slot_alloc(struct kprobe_slot_pool *pool)
{
	unsigned int idx, nr = kprobe_slots_per_page(pool);
	struct kprobe_slot_page *pg;

	guard(mutex)(&pool->lock);
	list_for_each_entry(pg, &pool->pages, list) {
		if (pg->nr_used < nr)
			goto found;
	}
	pg = kprobe_slot_page_new(pool);
	if (!pg)
		return NULL;
found:
	idx = find_first_zero_bit(pg->used, nr);
	if (WARN_ON_ONCE(idx >= nr))
		return NULL;
	__set_bit(idx, pg->used);
	pg->nr_used++;
	return (void *)pg->base + idx * pool->slot_size;
}

static bool kprobe_slot_page_has(struct kprobe_slot_page *pg, unsigned long addr)
{
	return addr >= (unsigned long)pg->base &&
	       addr < (unsigned long)pg->base + PAGE_SIZE;
}

static void kprobe_slot_free(struct kprobe_slot_pool *pool, kprobe_opcode_t *slot)
{
	struct kprobe_slot_page *pg;
	unsigned int idx;

	if (!slot)
		return;
	guard(mutex)(&pool->lock);
	list_for_each_entry(pg, &pool->pages, list) {
		if (kprobe_slot_page_has(pg, (unsigned long)slot))
			goto found;
	}
	WARN_ONCE(1, "kprobes: freeing unknown slot %px\n", slot);
	return;
found:
	idx = ((void *)slot - (void *)pg->base) / pool->slot_size;
	if (WARN_ON_ONCE(!__test_and_clear_bit(idx, pg->used)))
		return;
	if (--pg->nr_used == 0 && !list_is_singular(&pool->pages))
		kprobe_slot_page_free(pool, pg);
}

/* Is @addr in a page of @pool?  Any context. */
static bool kprobe_slot_pool_has(struct kprobe_slot_pool *pool, unsigned long addr)
{
	struct kprobe_slot_page *pg;

	guard(rcu)();
	list_for_each_entry_rcu(pg, &pool->pages, list) {
		if (kprobe_slot_page_has(pg, addr))
			return true;
	}
	return false;
}

/* The @*symnum-th page of @pool as a kallsyms symbol; counts *@symnum down. */
static int kprobe_slot_pool_kallsym(struct kprobe_slot_pool *pool,
				    unsigned int *symnum, unsigned long *value,
				    char *type, char *sym)
{
	struct kprobe_slot_page *pg;

	guard(rcu)();
	list_for_each_entry_rcu(pg, &pool->pages, list) {
		if ((*symnum)--)
			continue;
		strscpy(sym, pool->sym, KSYM_NAME_LEN);
		*type = 't';
		*value = (unsigned long)pg->base;
		return 0;
	}
	return -ERANGE;
}

/**
 * kprobe_insn_slot_alloc() - get a slot for an out-of-line copy
 *
 * Context: may sleep.
 * Return: the slot, KPROBE_INSN_SLOT_SIZE bytes, or NULL.
 */
kprobe_opcode_t *kprobe_insn_slot_alloc(void)
{
	return kprobe_slot_alloc(&kprobe_insn_pool);
}

/**
 * kprobe_insn_slot_free() - give a slot back
 * @slot: a slot from kprobe_insn_slot_alloc(), or NULL
 *
 * Context: may sleep; no CPU may be executing in @slot.
 */
void kprobe_insn_slot_free(kprobe_opcode_t *slot)
{
	kprobe_slot_free(&kprobe_insn_pool, slot);
}

bool is_kprobe_insn_slot(unsigned long addr)
{
	return kprobe_slot_pool_has(&kprobe_insn_pool, addr);
}

#ifdef CONFIG_OPTPROBES
static struct kprobe_slot_pool kprobe_detour_pool =
	KPROBE_SLOT_POOL(kprobe_detour_pool, "kprobe_optinsn_page", KPROBE_DETOUR_SIZE);

/**
 * kprobe_detour_alloc() - get a detour buffer, KPROBE_DETOUR_SIZE bytes
 *
 * Context: may sleep.
 * Return: the buffer, or NULL when no memory is left.
 */
kprobe_opcode_t *kprobe_detour_alloc(void)
{
	return kprobe_slot_alloc(&kprobe_detour_pool);
}

/**
 * kprobe_detour_free() - give a detour buffer back
 * @buf: a buffer from kprobe_detour_alloc(), or NULL
 *
 * Context: may sleep; no task may be running in @buf any more.
 */
void kprobe_detour_free(kprobe_opcode_t *buf)
{
	kprobe_slot_free(&kprobe_detour_pool, buf);
}

bool is_kprobe_optinsn_slot(unsigned long addr)
{
	return kprobe_slot_pool_has(&kprobe_detour_pool, addr);
}

static int kprobe_detour_kallsym(unsigned int *symnum, unsigned long *value,
				 char *type, char *sym)
{
	return kprobe_slot_pool_kallsym(&kprobe_detour_pool, symnum, value, type, sym);
}
#else
static int kprobe_detour_kallsym(unsigned int *symnum, unsigned long *value,
				 char *type, char *sym)
{
	return -ERANGE;
}
#endif /* CONFIG_OPTPROBES */

/**
 * kprobe_get_kallsym() - the @symnum-th symbol kprobes adds to kallsyms
 * @symnum: index, from 0
 * @value: the symbol's address
 * @type: its type ('t')
 * @sym: its name, KSYM_NAME_LEN bytes
 *
 * Each page of slots shows as one symbol.
 *
 * Return: 0, or -ERANGE past the end.
 */
int kprobe_get_kallsym(unsigned int symnum, unsigned long *value, char *type,
		       char *sym)
{
	if (!kprobe_slot_pool_kallsym(&kprobe_insn_pool, &symnum, value, type, sym))
		return 0;
	return kprobe_detour_kallsym(&symnum, value, type, sym);
}
