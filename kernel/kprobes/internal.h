/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * DOC: kprobes core: the interfaces between its files
 *
 * Prefixes: ``kprobe_`` (the core), ``kprobe_site_`` (one probed address),
 * ``kprobe_opt_`` (jump optimization), ``arch_`` (what the arch code provides).
 *
 * Calls go one way: kretprobe.c and debugfs.c use core.c,
 * which uses the blacklist, ftrace and jump optimization files (the
 * slots and cost files serve the arch code); none of these calls back
 * up.  kprobe_mutex and the site table
 * are the state all of them share.
 *
 * The files::
 *
 *      core.c          sites, registration, arming, module life
 *      blacklist.c     addresses that must never be probed
 *      slots.c         executable pages for out-of-line copies
 *      ftrace.c        arming sites that sit on an fentry call
 *      opt.c           jump optimization of breakpoint sites
 *      kretprobe.c     return probes on top of rethook
 *      cost.c          sampling what hits cost
 *      debugfs.c       <debugfs>/kprobes/{list,enabled,blacklist,
 *                      switches,cost_every}
 *
 * Everything here is called with kprobe_mutex held unless said otherwise.
 */
#ifndef _KERNEL_KPROBES_INTERNAL_H
#define _KERNEL_KPROBES_INTERNAL_H

#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/seq_file.h>

/* Serialises every change of sites and probes. */
extern struct mutex kprobe_mutex;

/* Sites whose code was freed; off kprobe_table.  kprobe_mutex. */
extern struct hlist_head kprobe_gone_sites;

/* kprobes/enabled was set to 0: no site is armed.  kprobe_mutex. */
extern bool kprobes_all_disarmed;

/* Calls that armed or disarmed sites, and the sites; kprobe_mutex. */
struct kprobe_switch_counts {
	unsigned long ftrace_calls, ftrace_sites;
	unsigned long text_calls, text_sites;
};
extern struct kprobe_switch_counts kprobe_switches;

/*
 * Where a probe goes, and what its symbol's name says of it, from one
 * symbol lookup: a lookup of module text scans the module's whole symbol
 * table, so a registration asks it once (kprobe_locate()).
 */
struct kprobe_where {
	kprobe_opcode_t	*addr;		/* the probed instruction */
	unsigned long	asked;		/* the address asked for, unadjusted */
	unsigned long	func;		/* the start of its symbol */
	unsigned long	origin;		/* the function it is a clone of, or 0 */
	bool		on_entry;	/* @addr is the function's entry */
	bool		cfi;		/* a compiler-made CFI preamble */
};

/* core.c */
int kprobe_locate(kprobe_opcode_t *addr, const char *sym, unsigned long offset,
		  u32 flags, struct kprobe_where *w);
int kprobe_register_at(struct kprobe *p, const struct kprobe_where *w);
int kprobes_set_all_armed(bool armed);
bool kprobe_is_registered(struct kprobe *p);
void kprobe_defer_begin(void);
int kprobe_defer_end(void);
bool kprobe_detach(struct kprobe *p, struct kprobe_site **dead);
void kprobe_finish_detach(struct kprobe_site *dead);

/* blacklist.c; NOKPROBE_SYMBOL() fills the _kprobe_blacklist section. */
extern unsigned long __start_kprobe_blacklist[];
extern unsigned long __stop_kprobe_blacklist[];
int kprobe_blacklist_init(void);
void kprobe_blacklist_add_module(struct module *mod);
void kprobe_blacklist_remove_module(struct module *mod);
unsigned long kprobe_clone_origin(char *name);
bool kprobe_blacklisted(unsigned long addr, unsigned long origin);
extern const struct seq_operations kprobe_blacklist_sops;

/* ftrace.c: hook a site into ftrace, or take it off */
#ifdef CONFIG_KPROBES_ON_FTRACE
int kprobe_ftrace_arm(struct kprobe_site **sites, unsigned int n);
int kprobe_ftrace_disarm(struct kprobe_site **sites, unsigned int n);
#else
static inline int kprobe_ftrace_arm(struct kprobe_site **sites, unsigned int n)
{
	return -ENODEV;
}
static inline int kprobe_ftrace_disarm(struct kprobe_site **sites,
				       unsigned int n)
{
	return -ENODEV;
}
#endif

/* core.c, for the KUnit tests (which may stand in for it) */
#if IS_ENABLED(CONFIG_KUNIT)
int kprobe_site_sync(struct kprobe_site *s);
int kprobe_sites_set_armed(struct kprobe_site **sites, unsigned int n,
			   bool arm);
#endif

/* cost.c: debugfs kprobes/cost_every, and the KUnit tests */
#define KPROBE_COST_EVERY_MAX	(1U << 20)
int kprobe_cost_set_every(unsigned int every);
unsigned int kprobe_cost_get_every(void);

/* opt.c: jump optimization of breakpoint sites */
#ifdef CONFIG_OPTPROBES
extern int kprobes_optimization;
void kprobe_opt_allow(bool allowed);
void kprobe_opt_update(struct kprobe_site *s);
void kprobe_opt_stop(struct kprobe_site *s);
void kprobe_opt_forget(struct kprobe_site *s);
void kprobe_opt_yield(unsigned long addr);
void kprobe_opt_retry(unsigned long addr);
#else
static inline void kprobe_opt_allow(bool allowed) { }
static inline void kprobe_opt_update(struct kprobe_site *s) { }
static inline void kprobe_opt_stop(struct kprobe_site *s) { }
static inline void kprobe_opt_forget(struct kprobe_site *s) { }
static inline void kprobe_opt_yield(unsigned long addr) { }
static inline void kprobe_opt_retry(unsigned long addr) { }
#endif

/* kretprobe.c */
#ifdef CONFIG_KRETPROBES
bool kprobe_is_return(struct kprobe *p);
#else
static inline bool kprobe_is_return(struct kprobe *p)
{
	return false;
}
#endif

#endif /* _KERNEL_KPROBES_INTERNAL_H */
