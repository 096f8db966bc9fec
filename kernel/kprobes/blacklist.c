// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: addresses that must never be probed
 *
 * The kprobes blacklist: code that must never be probed, because the probe
 * machinery itself runs through it (a probe there would recurse) or
 * because nothing may trap there (entry code, noinstr).
 *
 * Sources::
 *
 *   - the _kprobe_blacklist section, filled by NOKPROBE_SYMBOL(fn);
 *   - every function in .kprobes.text (__kprobes) and .noinstr.text;
 *   - what the architecture adds (arch_populate_kprobe_blacklist());
 *   - the same three sections of each loaded module.
 *
 * Each entry is the extent of one function.  The built-in entries are an
 * array sorted by address, built once at boot and searched by bisection;
 * module entries live on an RCU list, added when a module comes and
 * removed when it goes.  within_kprobe_blacklist() is lockless.
 */
#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/bsearch.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "internal.h"

struct kprobe_bl_range {
	unsigned long start;
	unsigned long end;
};

/* The built-in entries, sorted by start; constant after boot. */
static struct kprobe_bl_range *kprobe_bl_builtin;
static unsigned int kprobe_bl_nr, kprobe_bl_cap;
static bool kprobe_bl_sealed;

/* A module's entry: RCU readers, kprobe_mutex writers. */
struct kprobe_bl_mod_entry {
	struct list_head	list;
	struct kprobe_bl_range	range;
	struct module		*mod;
	struct rcu_head		rcu;
};
static LIST_HEAD(kprobe_bl_modules);

static int kprobe_bl_builtin_add(unsigned long start, unsigned long end)
{
	if (kprobe_bl_nr == kprobe_bl_cap) {
		unsigned int cap = kprobe_bl_cap ? 2 * kprobe_bl_cap : 512;
		struct kprobe_bl_range *r;

		r = krealloc_array(kprobe_bl_builtin, cap, sizeof(*r), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		kprobe_bl_builtin = r;
		kprobe_bl_cap = cap;
	}
	kprobe_bl_builtin[kprobe_bl_nr].start = start;
	kprobe_bl_builtin[kprobe_bl_nr].end = end;
	kprobe_bl_nr++;
	return 0;
}

static int kprobe_bl_module_add(unsigned long start, unsigned long end)
{
	struct kprobe_bl_mod_entry *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return -ENOMEM;
	e->range.start = start;
	e->range.end = end;
	scoped_guard(preempt)
		e->mod = __module_text_address(start);
	list_add_tail_rcu(&e->list, &kprobe_bl_modules);
	return 0;
}

/**
 * kprobe_add_ksym_blacklist() - blacklist the function at @entry
 * @entry: the start of a function
 *
 * Return: the size of the function, or a negative errno.
 */
int kprobe_add_ksym_blacklist(unsigned long entry)
{
	unsigned long size = 0, offset = 0;
	int ret;

	if (!kernel_text_address(entry) ||
	    !kallsyms_lookup_size_offset(entry, &size, &offset))
		return -EINVAL;

	if (kprobe_bl_sealed)
		ret = kprobe_bl_module_add(entry, entry + size);
	else
		ret = kprobe_bl_builtin_add(entry, entry + size);
	return ret ? ret : (int)size;
}

/**
 * kprobe_add_area_blacklist() - blacklist every function in [@start, @end)
 * @start: start of a text area
 * @end: its end
 *
 * Return: 0 or a negative errno.
 */
int kprobe_add_area_blacklist(unsigned long start, unsigned long end)
{
	unsigned long addr = start;
	int size;

	while (addr < end) {
		size = kprobe_add_ksym_blacklist(addr);
		if (size < 0)
			return size;
		/* An alias has no size: step over it. */
		addr += size ? size : 1;
	}
	return 0;
}

int __init __weak arch_populate_kprobe_blacklist(void)
{
	return 0;
}

static int kprobe_bl_cmp(const void *a, const void *b)
{
	const struct kprobe_bl_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static int kprobe_bl_find(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	const struct kprobe_bl_range *r = elt;

	if (addr < r->start)
		return -1;
	return addr >= r->end ? 1 : 0;
}

int __init kprobe_blacklist_init(void)
{
	unsigned long *entry;
	int ret;

	for (entry = __start_kprobe_blacklist; entry < __stop_kprobe_blacklist; entry++) {
		unsigned long fn = (unsigned long)dereference_symbol_descriptor((void *)*entry);

		ret = kprobe_add_ksym_blacklist(fn);
		/* A symbol the kernel does not know: nothing to protect. */
		if (ret < 0 && ret != -EINVAL)
			goto out_seal;
	}
	ret = kprobe_add_area_blacklist((unsigned long)__kprobes_text_start,
					(unsigned long)__kprobes_text_end);
	if (!ret)
		ret = kprobe_add_area_blacklist((unsigned long)__noinstr_text_start,
						(unsigned long)__noinstr_text_end);
	if (!ret)
		ret = arch_populate_kprobe_blacklist();
out_seal:
	sort(kprobe_bl_builtin, kprobe_bl_nr, sizeof(*kprobe_bl_builtin),
	     kprobe_bl_cmp, NULL);
	/* pairs with the acquire in lookups: they see the sorted table */
	smp_store_release(&kprobe_bl_sealed, true);
	return ret;
}

/* Ranges overlap only through aliases; any hit counts. */
static bool kprobe_bl_builtin_has(unsigned long addr)
{
	const struct kprobe_bl_range *r;

	/* Before the array is sorted, nothing can be registered anyway. */
	if (!smp_load_acquire(&kprobe_bl_sealed))
		return false;
	r = bsearch(&addr, kprobe_bl_builtin, kprobe_bl_nr,
		    sizeof(*kprobe_bl_builtin), kprobe_bl_find);
	return r != NULL;
}

static bool kprobe_bl_has(unsigned long addr)
{
	struct kprobe_bl_mod_entry *e;

	if (addr >= (unsigned long)__kprobes_text_start &&
	    addr < (unsigned long)__kprobes_text_end)
		return true;
	if (kprobe_bl_builtin_has(addr))
		return true;

	guard(rcu)();
	list_for_each_entry_rcu(e, &kprobe_bl_modules, list) {
		if (addr >= e->range.start && addr < e->range.end)
			return true;
	}
	return false;
}

/*
 * The function a compiler clone was made from: for "foo.cold",
 * "foo.isra.0" and the like, the address of "foo"; 0 when @name is no
 * clone's name or foo is unknown.  Cuts @name at its first dot.
 */
unsigned long kprobe_clone_origin(char *name)
{
	char *dot = strchr(name, '.');

	if (!dot || dot == name)
		return 0;
	*dot = '\0';
	return kallsyms_lookup_name(name);
}

/* Is @addr listed, or @origin, the function @addr is a clone of (or 0)? */
bool kprobe_blacklisted(unsigned long addr, unsigned long origin)
{
	return kprobe_bl_has(addr) || (origin && kprobe_bl_has(origin));
}

/**
 * within_kprobe_blacklist() - may @addr never be probed?
 * @addr: a text address
 *
 * A clone of a function inherits the verdict of the function.
 *
 * Return: true if it may not.
 */
bool within_kprobe_blacklist(unsigned long addr)
{
	char name[KSYM_NAME_LEN];

	if (kprobe_bl_has(addr))
		return true;
	if (lookup_symbol_name(addr, name))
		return false;
	return kprobe_blacklisted(addr, kprobe_clone_origin(name));
}

/**
 * within_kprobe_blacklist_sym() - within_kprobe_blacklist(), by name
 * @addr: a text address
 * @name: the name of the symbol that holds @addr
 *
 * The same verdict without looking the symbol up, for a caller that walks
 * the symbols: a lookup of a module address scans the module's table.
 *
 * Return: true if @addr may not be probed.
 */
bool within_kprobe_blacklist_sym(unsigned long addr, const char *name)
{
	char buf[KSYM_NAME_LEN];

	if (kprobe_bl_has(addr))
		return true;
	if (!strchr(name, '.'))
		return false;
	strscpy(buf, name, sizeof(buf));
	return kprobe_blacklisted(addr, kprobe_clone_origin(buf));
}

#ifdef CONFIG_MODULES
/* What a module section holds, as [start, end) of text. */
struct kprobe_bl_area {
	unsigned long start;
	unsigned long end;
};

static void kprobe_bl_module_areas(struct module *mod, struct kprobe_bl_area *a)
{
	a[0].start = (unsigned long)mod->kprobes_text_start;
	a[0].end = a[0].start + mod->kprobes_text_size;
	a[1].start = (unsigned long)mod->noinstr_text_start;
	a[1].end = a[1].start + mod->noinstr_text_size;
}

void kprobe_blacklist_add_module(struct module *mod)
{
	struct kprobe_bl_area areas[2];
	unsigned int i;

	lockdep_assert_held(&kprobe_mutex);
	for (i = 0; mod->kprobe_blacklist && i < mod->num_kprobe_blacklist; i++)
		kprobe_add_ksym_blacklist(mod->kprobe_blacklist[i]);

	kprobe_bl_module_areas(mod, areas);
	for (i = 0; i < ARRAY_SIZE(areas); i++) {
		if (areas[i].start)
			kprobe_add_area_blacklist(areas[i].start, areas[i].end);
	}
}

void kprobe_blacklist_remove_module(struct module *mod)
{
	struct kprobe_bl_mod_entry *e, *tmp;

	lockdep_assert_held(&kprobe_mutex);
	list_for_each_entry_safe(e, tmp, &kprobe_bl_modules, list) {
		if (e->mod != mod)
			continue;
		list_del_rcu(&e->list);
		kfree_rcu(e, rcu);
	}
}
#else
void kprobe_blacklist_add_module(struct module *mod) { }
void kprobe_blacklist_remove_module(struct module *mod) { }
#endif /* CONFIG_MODULES */

/*
 * <debugfs>/kprobes/blacklist: "0xSTART-0xEND\tsymbol", built-in entries
 * first.  Addresses read as 0 for who may not see kernel addresses.
 * The sequence runs under kprobe_mutex.
 */
static const struct kprobe_bl_range *kprobe_bl_seq_entry(loff_t pos)
{
	struct kprobe_bl_mod_entry *e;

	if (pos < kprobe_bl_nr)
		return &kprobe_bl_builtin[pos];
	pos -= kprobe_bl_nr;
	list_for_each_entry(e, &kprobe_bl_modules, list) {
		if (!pos--)
			return &e->range;
	}
	return NULL;
}

static void *kprobe_bl_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&kprobe_mutex);
	return (void *)kprobe_bl_seq_entry(*pos);
}

static void *kprobe_bl_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return (void *)kprobe_bl_seq_entry(*pos);
}

static void kprobe_bl_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&kprobe_mutex);
}

static int kprobe_bl_seq_show(struct seq_file *m, void *v)
{
	const struct kprobe_bl_range *r = v;
	bool show = kallsyms_show_value(m->file->f_cred);

	seq_printf(m, "0x%px-0x%px\t%ps\n", show ? (void *)r->start : NULL,
		   show ? (void *)r->end : NULL, (void *)r->start);
	return 0;
}

const struct seq_operations kprobe_blacklist_sops = {
	.start	= kprobe_bl_seq_start,
	.next	= kprobe_bl_seq_next,
	.stop	= kprobe_bl_seq_stop,
	.show	= kprobe_bl_seq_show,
};
