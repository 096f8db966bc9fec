// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: kprobes core: the files of <debugfs>/kprobes/
 *
 * <debugfs>/kprobes/::
 *
 *   list       one line per registered probe:
 *              "ADDR  TYPE  SYMBOL+OFFSET  MODULE [GONE][DISABLED][OPTIMIZED][FTRACE]"
 *              with TYPE k (kprobe) or r (kretprobe); the address reads as
 *              0 for who may not see kernel addresses.
 *   enabled    1 or 0: the global switch that arms or disarms every site.
 *   blacklist  the functions that cannot be probed (blacklist.c).
 *   switches   how many times sites were switched, and in how many calls
 *              to ftrace or to the text patcher ("ftrace_updates N",
 *              "ftrace_sites N", "text_syncs N", "text_sites N"): a
 *              batch shows as one update or sync for many sites.
 *   cost_every the N of the cost sampling, one hit in N on each CPU
 *              (KPROBE_COST_EVERY by default); 0 stops it.  For
 *              measuring what sampling costs.
 *
 * The files walk the sites under kprobe_mutex.
 */
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "internal.h"

static void kprobe_list_one(struct seq_file *m, struct kprobe_site *s,
			    struct kprobe *p)
{
	char namebuf[KSYM_NAME_LEN], *modname;
	unsigned long offset = 0;
	const char *sym;
	void *addr = kallsyms_show_value(m->file->f_cred) ? p->addr : NULL;
	char type = kprobe_is_return(p) ? 'r' : 'k';

	/* The code of a gone probe was freed: its address may be another's. */
	sym = kprobe_gone(p) ? NULL :
	      kallsyms_lookup((unsigned long)p->addr, NULL, &offset, &modname, namebuf);
	if (sym)
		seq_printf(m, "%px  %c  %s+0x%lx  %s ", addr, type, sym, offset,
			   modname ? modname : " ");
	else if (p->symbol_name)	/* say what it was placed on */
		seq_printf(m, "%px  %c  %s+0x%x   ", addr, type, p->symbol_name,
			   p->offset);
	else
		seq_printf(m, "%px  %c  ?   ", addr, type);

	seq_printf(m, "%s%s%s%s\n",
		   kprobe_gone(p) ? "[GONE]" : "",
		   kprobe_disabled(p) && !kprobe_gone(p) ? "[DISABLED]" : "",
		   kprobe_optimized(p) ? "[OPTIMIZED]" : "",
		   (s->state & KPROBE_SITE_FTRACE) ? "[FTRACE]" : "");
}

static void kprobe_list_sites(struct seq_file *m, struct hlist_head *head)
{
	struct kprobe_site *s;
	struct kprobe *p;

	hlist_for_each_entry(s, head, node) {
		list_for_each_entry(p, &s->probes, list)
			kprobe_list_one(m, s, p);
	}
}

static int kprobe_list_show(struct seq_file *m, void *v)
{
	int i;

	guard(mutex)(&kprobe_mutex);
	for (i = 0; i < KPROBE_TABLE_SIZE; i++)
		kprobe_list_sites(m, &kprobe_table[i]);
	kprobe_list_sites(m, &kprobe_gone_sites);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kprobe_list);

/* kprobe_blacklist_open() and kprobe_blacklist_fops, over the ranges */
DEFINE_SEQ_ATTRIBUTE(kprobe_blacklist);

static ssize_t kprobe_enabled_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[2] = { READ_ONCE(kprobes_all_disarmed) ? '0' : '1', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

static ssize_t kprobe_enabled_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	ret = kprobes_set_all_armed(on);
	return ret ? ret : count;
}

static const struct file_operations kprobe_enabled_fops = {
	.read	= kprobe_enabled_read,
	.write	= kprobe_enabled_write,
	.llseek	= default_llseek,
};

static int kprobe_switches_show(struct seq_file *m, void *v)
{
	seq_printf(m, "ftrace_updates %lu\nftrace_sites %lu\n",
		   kprobe_switches.ftrace_calls, kprobe_switches.ftrace_sites);
	seq_printf(m, "text_syncs %lu\ntext_sites %lu\n",
		   kprobe_switches.text_calls, kprobe_switches.text_sites);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kprobe_switches);

/* cost_every: sample one hit in N on each CPU; 0 stops sampling. */
static int kprobe_cost_every_get(void *data, u64 *val)
{
	*val = kprobe_cost_get_every();
	return 0;
}

static int kprobe_cost_every_set(void *data, u64 val)
{
	int old = kprobe_cost_set_every(min_t(u64, val, UINT_MAX));

	return old < 0 ? old : 0;
}
DEFINE_SIMPLE_ATTRIBUTE(kprobe_cost_every_fops, kprobe_cost_every_get,
			kprobe_cost_every_set, "%llu\n");

/* The files of <debugfs>/kprobes/, as the header comment lists them. */
static const struct kprobe_debugfs_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} kprobe_debugfs_files[] __initconst = {
	{ "list",	0400, &kprobe_list_fops },
	{ "enabled",	0600, &kprobe_enabled_fops },
	{ "blacklist",	0400, &kprobe_blacklist_fops },
	{ "switches",	0400, &kprobe_switches_fops },
	{ "cost_every",	0600, &kprobe_cost_every_fops },
};

static int __init kprobe_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("kprobes", NULL);
	const struct kprobe_debugfs_file *f;

	for (f = kprobe_debugfs_files;
	     f < kprobe_debugfs_files + ARRAY_SIZE(kprobe_debugfs_files); f++)
		debugfs_create_file(f->name, f->mode, dir, NULL, f->fops);
	return 0;
}
late_initcall(kprobe_debugfs_init);
