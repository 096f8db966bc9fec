// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: the functions a place names
 *
 * trace_kprobe_places.c - the functions a place word names.
 *
 * A place word may name many functions at once, for one event::
 *
 *   [MOD:]ITEM[,ITEM...][%return]
 *   ITEM  GLOB   the functions whose names match (glob_match(): * ? [...])
 *         NAME   that function; when there is no function of that exact
 *                name, its compiler clones: NAME.isra.0, NAME.constprop.0,
 *                NAME.part.0, NAME.cold, ...
 *         !GLOB  none of the functions it matches, whatever else matched
 *
 * The functions are looked up once, when the definition is written: in
 * vmlinux, or with MOD: in that module, which must be loaded.  A match
 * that cannot be probed is skipped and counted: a name that several
 * functions share, refused ones included (a place is named, so that it
 * can be found again after a module reload), a second name of an address
 * already taken, a function on the kprobe blacklist (__kprobes and
 * NOKPROBE_SYMBOL() code among it), unless CONFIG_KPROBE_EVENTS_ON_NOTRACE
 * a notrace function, and a ".cold" part: the compiler's out-of-line code
 * of a function, entered by a jump, with neither arguments nor a return
 * address of its own.
 *
 * One walk of kallsyms collects the candidates; the clones of a NAME are
 * dropped afterwards if NAME itself turned up.  In vmlinux the walk
 * visits only the names that begin as an item does (NAME, or a glob's
 * text before its first wildcard), when every positive item has such a
 * start.  The result is sorted by address, and its names are packed in
 * one buffer.  With MOD:, the result holds a reference on the module, so
 * that the addresses stay those of the functions until the probes are
 * registered (kpev_found_release()).
 *
 * Context: process, may sleep.  No lock of its own.
 */
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "trace_kprobe_internal.h"

#if defined(CONFIG_DYNAMIC_FTRACE) && !defined(CONFIG_KPROBE_EVENTS_ON_NOTRACE)
/*
 * Can the function around @addr be traced (it has an mcount site)?  A
 * caller that knows the function starts at @addr and is @size long says
 * so; 0 looks it up.
 */
static bool kpev_func_traceable(unsigned long addr, unsigned long size)
{
	unsigned long offs;

	if (!size) {
		if (!kallsyms_lookup_size_offset(addr, &size, &offs))
			return true;	/* unknown text: the core judges */
		addr -= offs;
	}
	return ftrace_location_range(addr, addr + size - 1) != 0;
}

/*
 * Probing notrace code could recurse into the tracer.  A compiler clone
 * ("f.isra.0", "f.cold") has no mcount site of its own: judge it by the
 * function it was made from.  @name is the name of the symbol at @addr,
 * or NULL to look it up; @size that of the function starting at @addr, or
 * 0 to look it up.
 */
bool kpev_notrace_sym(unsigned long addr, unsigned long size, const char *name)
{
	char buf[KSYM_NAME_LEN], *dot;

	if (!addr || kpev_func_traceable(addr, size))
		return false;
	if (name)
		strscpy(buf, name, sizeof(buf));
	else if (lookup_symbol_name(addr, buf))
		return true;
	dot = strchr(buf, '.');
	if (!dot)
		return true;
	*dot = '\0';
	addr = kallsyms_lookup_name(buf);
	return !addr || !kpev_func_traceable(addr, 0);
}
#else
bool kpev_notrace_sym(unsigned long addr, unsigned long size, const char *name)
{
	return false;
}
#endif

#define KPEV_ITEMS_MAX	64	/* items of one place word */
/* Symbols one walk may collect, data and refused ones included. */
#define KPEV_WALK_MAX	(8 * KPEV_PLACES_MAX)

/*
 * Zeroed memory for the places of a probe: kmalloc up to a page; past it
 * vmalloc, which rounds to pages where kmalloc would round to a power of
 * two (up to nearly half of it wasted).  kvfree() frees either.
 */
void *kpev_places_alloc(size_t size)
{
	return size <= PAGE_SIZE ? kzalloc(size, GFP_KERNEL) : vzalloc(size);
}

bool kpev_place_is_pattern(const char *word)
{
	return strpbrk(word, "*?[,!") != NULL;
}

/*
 * A candidate: where, the item of whose NAME it is a clone (or -1), and
 * whether it can be probed at all (it still counts for uniqueness).
 */
struct kpev_cand {
	unsigned long addr;
	unsigned int name;	/* offset in the names buffer */
	int clone_of;
	bool refused;
	bool data;		/* not a function: for uniqueness only */
};

struct kpev_walk {
	const char *module;		/* NULL: vmlinux */
	char *items[KPEV_ITEMS_MAX];
	int nitems;
	u64 exact;			/* bit i: NAME item i exists */
	struct kpev_cand *cands;
	unsigned int ncands, room;
	char *names;
	size_t nlen, nroom;
	unsigned int skipped;
	int err;
	/* MOD: the module, held; where each of its symbols starts */
	struct module *mod;
	unsigned long *starts;
	size_t nstarts, sroom;
};

static bool kpev_is_glob(const char *item)
{
	return strpbrk(item, "*?[") != NULL;
}

/*
 * Grow @*buf (of @*room elements of @size) to hold @need; freed with
 * kvfree().  Past a page from vmalloc: the walk's buffers live for one
 * write, and kmalloc would keep the slabs of every size they grew through.
 */
static int kpev_grow(void **buf, size_t size, size_t *room, size_t need)
{
	size_t n = max_t(size_t, *room * 2, 64);
	void *p;

	if (need <= *room)
		return 0;
	while (n < need)
		n *= 2;
	p = n * size <= PAGE_SIZE ? kmalloc_array(n, size, GFP_KERNEL) :
				    vmalloc_array(n, size);
	if (!p)
		return -ENOMEM;
	if (*buf)
		memcpy(p, *buf, *room * size);
	kvfree(*buf);
	*buf = p;
	*room = n;
	return 0;
}

static int kpev_walk_add(struct kpev_walk *w, const char *name,
		       unsigned long addr, int clone_of, bool refused, bool data)
{
	size_t len = strlen(name) + 1, mlen = w->module ? strlen(w->module) + 1 : 0;
	size_t room = w->room;
	struct kpev_cand *c;

	if (w->ncands >= KPEV_WALK_MAX)
		return -E2BIG;
	if (kpev_grow((void **)&w->cands, sizeof(*c), &room, w->ncands + 1) ||
	    kpev_grow((void **)&w->names, 1, &w->nroom, w->nlen + mlen + len))
		return -ENOMEM;
	w->room = room;
	c = &w->cands[w->ncands++];
	c->addr = addr;
	c->name = w->nlen;
	c->clone_of = clone_of;
	c->refused = refused;
	c->data = data;
	if (mlen)
		w->nlen += sprintf(w->names + w->nlen, "%s:", w->module);
	memcpy(w->names + w->nlen, name, len);
	w->nlen += len;
	return 0;
}

/*
 * Which item takes @name: -1 for none (or excluded), else the index of
 * the item it is a clone of, or @w->nitems for a plain match.
 */
static int kpev_walk_match(struct kpev_walk *w, const char *name)
{
	int i, taken = -1;

	for (i = 0; i < w->nitems; i++) {
		const char *item = w->items[i];
		size_t len;

		if (item[0] == '!') {
			if (glob_match(item + 1, name))
				return -1;
			continue;
		}
		if (kpev_is_glob(item)) {
			if (glob_match(item, name))
				taken = w->nitems;
			continue;
		}
		len = strlen(item);
		if (!strcmp(item, name)) {
			w->exact |= BIT_ULL(i);
			taken = w->nitems;
		} else if (taken < 0 && !strncmp(item, name, len) &&
			   name[len] == '.') {
			taken = i;
		}
	}
	return taken;
}

static int kpev_walk_symbol(void *data, const char *name, unsigned long addr)
{
	struct kpev_walk *w = data;
	bool text;
	int item;

	if (w->module && name[0] && name[0] != '$') {
		if (kpev_grow((void **)&w->starts, sizeof(*w->starts), &w->sroom,
			    w->nstarts + 1))
			return w->err = -ENOMEM;
		w->starts[w->nstarts++] = addr;
	}
	if (str_has_prefix(name, "__pfx_") || str_has_prefix(name, "__cfi_"))
		return 0;
	item = kpev_walk_match(w, name);
	if (item < 0)
		return 0;
	preempt_disable();
	text = w->module ? __module_text_address(addr) != NULL :
			   core_kernel_text(addr);
	preempt_enable();
	/* a data symbol of the same name makes a lookup by name ambiguous */
	w->err = kpev_walk_add(w, name, addr, item < w->nitems ? item : -1,
			     !text, !text);
	return w->err;
}

#ifdef CONFIG_MODULES
/*
 * A reference on the module @name, or NULL unless it is live: a module
 * whose init fails is freed whatever its references.
 */
static struct module *kpev_module_get(const char *name)
{
	struct module *mod;

	preempt_disable();
	mod = find_module(name);
	if (mod && (mod->state != MODULE_STATE_LIVE || !try_module_get(mod)))
		mod = NULL;
	preempt_enable();
	return mod;
}

/* The end of the text of @mod that holds @addr; 0 if none does. */
static unsigned long kpev_module_text_end(const struct module *mod,
					unsigned long addr)
{
	const struct module_memory *text = &mod->mem[MOD_TEXT];

	if (!within_module_mem_type(addr, mod, MOD_TEXT))
		return 0;
	return (unsigned long)text->base + text->size;
}
#else
static struct module *kpev_module_get(const char *name)
{
	return NULL;
}

static unsigned long kpev_module_text_end(const struct module *mod,
					unsigned long addr)
{
	return 0;
}
#endif

static int kpev_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The size of the function at @addr: up to the next symbol of the
 * module, or the end of its text, as kallsyms would say, but by bisection
 * of the sorted starts instead of a scan of the module's table; 0 for
 * vmlinux, whose lookups bisect already.
 */
static unsigned long kpev_walk_extent(const struct kpev_walk *w, unsigned long addr)
{
	unsigned long end = w->mod ? kpev_module_text_end(w->mod, addr) : 0;
	size_t lo = 0, hi = w->nstarts;

	if (!end)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->nstarts && w->starts[lo] < end)
		end = w->starts[lo];
	return end - addr;
}

/* Is the function @name at @addr one kprobe events may not probe? */
static bool kpev_walk_refused(const struct kpev_walk *w, const char *name,
			    unsigned long addr)
{
	const char *cold = strstr(name, ".cold");

	if (cold && (!cold[5] || cold[5] == '.'))
		return true;
	/* by name and extent: no lookup that scans a module's symbols */
	return within_kprobe_blacklist_sym(addr, name) ||
	       kpev_notrace_sym(addr, kpev_walk_extent(w, addr), name);
}

/*
 * Judge the functions the walk found, once it is over: outside the
 * module_mutex a module walk holds, and with the starts sorted.
 */
static void kpev_walk_judge(struct kpev_walk *w)
{
	size_t mlen = w->module ? strlen(w->module) + 1 : 0;
	unsigned int i;

	sort(w->starts, w->nstarts, sizeof(*w->starts), kpev_cmp_ulong, NULL);
	for (i = 0; i < w->ncands; i++) {
		struct kpev_cand *c = &w->cands[i];

		if (!c->refused)
			c->refused = kpev_walk_refused(w, w->names + c->name + mlen,
						     c->addr);
		cond_resched();
	}
}

/* sort_r() order of candidates by name; @names is the names buffer. */
static int kpev_cmp_name(const void *a, const void *b, const void *names)
{
	const struct kpev_cand *x = a, *y = b;

	return strcmp((const char *)names + x->name,
		      (const char *)names + y->name);
}

/* By address, then by name: which alias of an address stays is fixed. */
static int kpev_cmp_addr(const void *a, const void *b, const void *names)
{
	const struct kpev_cand *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return kpev_cmp_name(a, b, names);
}

/* How many of @n candidates are functions (skipped ones are counted so). */
static unsigned int kpev_walk_functions(const struct kpev_cand *c, unsigned int n)
{
	unsigned int i, f = 0;

	for (i = 0; i < n; i++)
		f += !c[i].data;
	return f;
}

/*
 * Drop the clones of NAMEs that exist; then, counted as skipped, every
 * candidate whose name is not unique, the refused ones, and the second
 * name of an address.  Leave the rest in address order.
 */
static void kpev_walk_settle(struct kpev_walk *w)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < w->ncands; i++) {
		int c = w->cands[i].clone_of;

		if (c < 0 || !(w->exact & BIT_ULL(c)))
			w->cands[n++] = w->cands[i];
	}
	sort_r(w->cands, n, sizeof(*w->cands), kpev_cmp_name, NULL, w->names);
	w->ncands = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n; j++)
			if (strcmp(w->names + w->cands[i].name,
				   w->names + w->cands[j].name))
				break;
		if (j - i > 1 || w->cands[i].refused)
			w->skipped += kpev_walk_functions(&w->cands[i], j - i);
		else
			w->cands[w->ncands++] = w->cands[i];
	}
	sort_r(w->cands, w->ncands, sizeof(*w->cands), kpev_cmp_addr, NULL,
	       w->names);
	for (i = 0, n = 0; i < w->ncands; i++) {
		if (n && w->cands[n - 1].addr == w->cands[i].addr)
			w->skipped++;
		else
			w->cands[n++] = w->cands[i];
	}
	w->ncands = n;
}

/*
 * Cut @pattern (a copy) into items.  An empty item is refused at its
 * byte with -EINVAL, the first one past KPEV_ITEMS_MAX with -E2BIG.
 */
static int kpev_walk_items(struct kpev_walk *w, char *pattern, int *bad)
{
	char *item, *s = pattern;

	while ((item = strsep(&s, ",")) != NULL) {
		*bad = item - pattern;
		if (!item[0] || !strcmp(item, "!"))
			return -EINVAL;
		if (w->nitems == KPEV_ITEMS_MAX)
			return -E2BIG;
		w->items[w->nitems++] = item;
	}
	return 0;
}

/* How much of an item every name it takes begins with (0: a wildcard). */
static size_t kpev_item_prefix(const char *item)
{
	return kpev_is_glob(item) ? strcspn(item, "*?[\\") : strlen(item);
}

/* Is the run of item @i's prefix inside that of another item? */
static bool kpev_item_covered(const struct kpev_walk *w, int i)
{
	size_t len = kpev_item_prefix(w->items[i]), l;
	int j;

	for (j = 0; j < w->nitems; j++) {
		l = kpev_item_prefix(w->items[j]);
		if (j == i || w->items[j][0] == '!' || l > len ||
		    (l == len && j > i))
			continue;
		if (!strncmp(w->items[j], w->items[i], l))
			return true;
	}
	return false;
}

/*
 * The vmlinux symbols the items may take.  Names that begin alike are
 * neighbours in kallsyms' sorted index, so when every positive item has
 * a literal start, only those runs are walked (a run inside another
 * once); an item that starts with a wildcard takes a walk of every
 * symbol.
 */
static void kpev_walk_vmlinux(struct kpev_walk *w)
{
	int i;

	for (i = 0; i < w->nitems; i++) {
		if (w->items[i][0] != '!' && !kpev_item_prefix(w->items[i])) {
			kallsyms_on_each_symbol(kpev_walk_symbol, w);
			return;
		}
	}
	for (i = 0; i < w->nitems && !w->err; i++) {
		if (w->items[i][0] == '!' || kpev_item_covered(w, i))
			continue;
		kallsyms_on_each_prefix_symbol(kpev_walk_symbol, w->items[i],
					       kpev_item_prefix(w->items[i]), w);
	}
}

/* Move the names of the settled candidates into @f, packed. */
static int kpev_walk_result(struct kpev_walk *w, struct kpev_found *f)
{
	size_t len = 0;
	unsigned int i;
	char *p;

	for (i = 0; i < w->ncands; i++)
		len += strlen(w->names + w->cands[i].name) + 1;
	f->names = kpev_places_alloc(len);
	f->addrs = kpev_places_alloc(array_size(w->ncands, sizeof(*f->addrs)));
	if (!f->names || !f->addrs)
		return -ENOMEM;	/* the caller releases @f */
	for (i = 0, p = f->names; i < w->ncands; i++) {
		p += sprintf(p, "%s", w->names + w->cands[i].name) + 1;
		f->addrs[i] = w->cands[i].addr;
	}
	f->n = w->ncands;
	f->skipped = w->skipped;
	return 0;
}

int kpev_find_places(const char *module, const char *pattern,
		   struct kpev_found *f, int *bad)
{
	struct kpev_walk w = { .module = module };
	char *copy;
	int ret;

	memset(f, 0, sizeof(*f));
	*bad = 0;
	copy = kstrdup(pattern, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = kpev_walk_items(&w, copy, bad);
	if (ret)
		goto out_free;
	*bad = 0;
	if (module) {
		f->mod = kpev_module_get(module);
		if (!f->mod) {
			ret = -ENOENT;
			goto out_free;
		}
		w.mod = f->mod;
		module_kallsyms_on_each_symbol(module, kpev_walk_symbol, &w);
	} else {
		kpev_walk_vmlinux(&w);
	}
	ret = w.err;
	if (ret)
		goto out_free;
	kpev_walk_judge(&w);
	kpev_walk_settle(&w);
	if (!w.ncands)
		ret = -ENOENT;
	else if (w.ncands > KPEV_PLACES_MAX)
		ret = -E2BIG;
	else
		ret = kpev_walk_result(&w, f);
out_free:
	kvfree(w.starts);
	kvfree(w.cands);
	kvfree(w.names);
	kfree(copy);
	return ret;
}

void kpev_found_release(struct kpev_found *f)
{
	kvfree(f->names);
	f->names = NULL;
	kvfree(f->addrs);
	f->addrs = NULL;
	module_put(f->mod);
	f->mod = NULL;
	f->n = 0;
}
