// SPDX-License-Identifier: GPL-2.0
/*
 * kpbench_mod - the workload of `make bench`.
 *
 * It gives probes something known to hit, and measures the hits in the
 * guest's own clock (under QEMU -icount shift=0 one nanosecond is one
 * instruction, so the figures repeat exactly):
 *
 *   /sys/kernel/debug/kpbench/run    write "WHAT N" to call a function N
 *                                    times in a loop, read back the loop's
 *                                    duration in ns.  WHAT is one of
 *                                    target, mid, fixup, trace.
 *   /sys/kernel/debug/kpbench/info   offsets of the instructions inside
 *                                    kpbench_mid that the mid-function
 *                                    probes use, one "name offset" a line.
 *   /sys/kernel/debug/kpbench/bare   write "kprobe" or "kretprobe" to put
 *                                    a bare probe with empty handlers on
 *                                    kpbench_target, "off" to remove it:
 *                                    the kprobes core's share of a hit,
 *                                    without any event.
 *
 * kpbench_target(a, b, kstr, ustr) is what entry and return probes hit;
 * kpbench_mid() holds, at recorded offsets, a run of plain moves (an
 * instruction that can be boosted, and room for a 5-byte jump) and, on
 * x86, a lock-prefixed increment.  kpbench_fixup() holds, on x86, a load
 * with an exception fixup, which neither kernel boosts: a probe there
 * traps a second time after the out-of-line step.  (It has a function of
 * its own: a fixup anywhere in a function keeps the base from optimizing
 * any probe of it.)  kpbench_fn_1000 .. kpbench_fn_1999 are never called:
 * they are 1000 distinct places to register probes on.  "trace" fires the
 * module's static tracepoint kpbench:kpbench_hit instead, for comparison.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <linux/seq_file.h>

#define CREATE_TRACE_POINTS
#include "kpbench_trace.h"

static char kpbench_kstr[] = "/usr/lib/kprobe-bench/kernel-string";
static u64 kpbench_cell;
static u64 kpbench_last_ns;
static DEFINE_MUTEX(kpbench_lock);

noinline long kpbench_target(long a, long b, const char *kstr,
			     const char __user *ustr)
{
	/* something the compiler cannot fold away */
	WRITE_ONCE(kpbench_cell, READ_ONCE(kpbench_cell) + a + b);
	return a ^ (long)kstr[0] ^ (long)ustr;
}

/*
 * The offsets of the two labelled instructions from the function's start
 * are assembler constants in kpbench_offs[], which info reports.
 */
#ifdef CONFIG_X86_64
/* plain moves (boostable, room for a jump), then a locked increment */
#define KPBENCH_MID_ASM							\
	"1:	movq %[x], %[r]\n\t"					\
	"	movq %[r], %%r11\n\t"					\
	"	addq %%r11, %[r]\n\t"					\
	"2:	lock incq (%[c])\n\t"
#define KPBENCH_MID_CLOBBER "r11"
#else
/* arm64: plain moves, then a load-modify-store of the cell */
#define KPBENCH_MID_ASM							\
	"1:	mov %[r], %[x]\n\t"					\
	"	add %[r], %[r], %[r]\n\t"				\
	"2:	ldr x9, [%[c]]\n\t"					\
	"	add x9, x9, #1\n\t"					\
	"	str x9, [%[c]]\n\t"
#define KPBENCH_MID_CLOBBER "x9"
#endif

noinline u64 kpbench_mid(u64 *cell, u64 x)
{
	u64 r;

	asm volatile(KPBENCH_MID_ASM
		     ".pushsection .data, \"aw\"\n\t"
		     ".balign 8\n\t"
		     "kpbench_offs: .quad 1b - kpbench_mid, 2b - kpbench_mid\n\t"
		     ".popsection"
		     : [r] "=&r" (r)
		     : [x] "r" (x), [c] "r" (cell)
		     : KPBENCH_MID_CLOBBER, "memory");
	return r;
}
extern unsigned long kpbench_offs[2];

#ifdef CONFIG_X86_64
/* a load with an exception-table entry: stepped, never boosted */
#define KPBENCH_FIXUP_ASM						\
	"1:	movq (%[c]), %[r]\n\t"					\
	"2:\n\t"							\
	_ASM_EXTABLE(1b, 2b)
#else
#define KPBENCH_FIXUP_ASM						\
	"1:	ldr %[r], [%[c]]\n\t"
#endif

noinline u64 kpbench_fixup(u64 *cell)
{
	u64 r = 0;

	asm volatile(KPBENCH_FIXUP_ASM
		     ".pushsection .data, \"aw\"\n\t"
		     ".balign 8\n\t"
		     "kpbench_fixup_off: .quad 1b - kpbench_fixup\n\t"
		     ".popsection"
		     : [r] "+r" (r)
		     : [c] "r" (cell)
		     : "memory");
	return r;
}
extern unsigned long kpbench_fixup_off;

#define KPB_FN(n) noinline int kpbench_fn_##n(int x) { return x * 3 + n; }
#define KPB_FN10(n) KPB_FN(n##0) KPB_FN(n##1) KPB_FN(n##2) KPB_FN(n##3) \
	KPB_FN(n##4) KPB_FN(n##5) KPB_FN(n##6) KPB_FN(n##7) KPB_FN(n##8) \
	KPB_FN(n##9)
#define KPB_FN100(n) KPB_FN10(n##0) KPB_FN10(n##1) KPB_FN10(n##2) \
	KPB_FN10(n##3) KPB_FN10(n##4) KPB_FN10(n##5) KPB_FN10(n##6) \
	KPB_FN10(n##7) KPB_FN10(n##8) KPB_FN10(n##9)
/* kpbench_fn_1000 .. kpbench_fn_1999: 1000 distinct functions */
KPB_FN100(10) KPB_FN100(11) KPB_FN100(12) KPB_FN100(13) KPB_FN100(14)
KPB_FN100(15) KPB_FN100(16) KPB_FN100(17) KPB_FN100(18) KPB_FN100(19)

/* keep every one of them, uncalled, in the module's text */
#define KPB_REF(n) &kpbench_fn_##n,
#define KPB_REF10(n) KPB_REF(n##0) KPB_REF(n##1) KPB_REF(n##2) KPB_REF(n##3) \
	KPB_REF(n##4) KPB_REF(n##5) KPB_REF(n##6) KPB_REF(n##7) KPB_REF(n##8) \
	KPB_REF(n##9)
#define KPB_REF100(n) KPB_REF10(n##0) KPB_REF10(n##1) KPB_REF10(n##2) \
	KPB_REF10(n##3) KPB_REF10(n##4) KPB_REF10(n##5) KPB_REF10(n##6) \
	KPB_REF10(n##7) KPB_REF10(n##8) KPB_REF10(n##9)
int (*const kpbench_fns[])(int) __used = {
	KPB_REF100(10) KPB_REF100(11) KPB_REF100(12) KPB_REF100(13)
	KPB_REF100(14) KPB_REF100(15) KPB_REF100(16) KPB_REF100(17)
	KPB_REF100(18) KPB_REF100(19)
};

static u64 kpbench_loop(const char *what, unsigned long n,
			const char __user *ustr)
{
	unsigned long i;
	u64 t0 = ktime_get_ns();

	if (!strcmp(what, "target")) {
		for (i = 0; i < n; i++)
			kpbench_target(i, 7, kpbench_kstr, ustr);
	} else if (!strcmp(what, "mid")) {
		for (i = 0; i < n; i++)
			kpbench_mid(&kpbench_cell, i);
	} else if (!strcmp(what, "fixup")) {
		for (i = 0; i < n; i++)
			kpbench_fixup(&kpbench_cell);
	} else if (!strcmp(what, "trace")) {
		for (i = 0; i < n; i++)
			trace_kpbench_hit((long)&kpbench_cell);
	} else if (!strcmp(what, "clock")) {
		/* the clock kprobes' cost sampling reads twice a sample */
		for (i = 0; i < n; i++)
			kpbench_cell += sched_clock();
	} else {
		return 0;
	}
	return ktime_get_ns() - t0;
}

/*
 * "WHAT N": the written buffer itself is the user string that user-string
 * probes read, so it stays valid for the whole loop.
 */
static ssize_t kpbench_run_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[128], what[16];
	unsigned long n;
	u64 ns;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%15s %lu", what, &n) != 2 || !n)
		return -EINVAL;
	mutex_lock(&kpbench_lock);
	ns = kpbench_loop(what, n, ubuf);
	if (ns)
		kpbench_last_ns = ns;
	mutex_unlock(&kpbench_lock);
	return ns ? len : -EINVAL;
}

static int kpbench_run_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n", kpbench_last_ns);
	return 0;
}

static int kpbench_run_open(struct inode *inode, struct file *file)
{
	return single_open(file, kpbench_run_show, NULL);
}

/* "run": write a loop count to time it, read the last time back. */
static const struct file_operations kpbench_run_fops = {
	.open = kpbench_run_open,	.release = single_release,
	.read = seq_read,		.llseek = seq_lseek,
	.write = kpbench_run_write,
};

static int kpbench_info_show(struct seq_file *m, void *v)
{
	seq_printf(m, "mid_boostable %lu\n", kpbench_offs[0]);
	seq_printf(m, "mid_locked %lu\n", kpbench_offs[1]);
	seq_printf(m, "fixup_noboost %lu\n", kpbench_fixup_off);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kpbench_info);

static int kpbench_bare_pre(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static int kpbench_bare_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return 0;
}

static struct kprobe kpbench_bare_kp;
static struct kretprobe kpbench_bare_rp;
static int kpbench_bare_on;	/* 0, 1: the kprobe, 2: the kretprobe; lock */

static void kpbench_bare_off(void)
{
	if (kpbench_bare_on == 1)
		unregister_kprobe(&kpbench_bare_kp);
	else if (kpbench_bare_on == 2)
		unregister_kretprobe(&kpbench_bare_rp);
	kpbench_bare_on = 0;
}

/* "kprobe", "kretprobe" or "off": one bare probe on kpbench_target. */
static ssize_t kpbench_bare_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char buf[16];
	int ret = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&kpbench_lock);
	kpbench_bare_off();
	if (sysfs_streq(buf, "kprobe")) {
		kpbench_bare_kp = (struct kprobe) {
			.symbol_name = "kpbench_target",
			.pre_handler = kpbench_bare_pre,
		};
		ret = register_kprobe(&kpbench_bare_kp);
		kpbench_bare_on = ret ? 0 : 1;
	} else if (sysfs_streq(buf, "kretprobe")) {
		kpbench_bare_rp = (struct kretprobe) {
			.kp.symbol_name = "kpbench_target",
			.handler = kpbench_bare_ret,
		};
		ret = register_kretprobe(&kpbench_bare_rp);
		kpbench_bare_on = ret ? 0 : 2;
	} else if (!sysfs_streq(buf, "off")) {
		ret = -EINVAL;
	}
	mutex_unlock(&kpbench_lock);
	return ret ? ret : len;
}

static const struct file_operations kpbench_bare_fops = {
	.write = kpbench_bare_write,
};

static struct dentry *kpbench_dir;

static int __init kpbench_init(void)
{
	kpbench_dir = debugfs_create_dir("kpbench", NULL);
	debugfs_create_file("run", 0600, kpbench_dir, NULL, &kpbench_run_fops);
	debugfs_create_file("info", 0400, kpbench_dir, NULL, &kpbench_info_fops);
	debugfs_create_file("bare", 0200, kpbench_dir, NULL, &kpbench_bare_fops);
	return 0;
}

static void __exit kpbench_exit(void)
{
	debugfs_remove_recursive(kpbench_dir);
	mutex_lock(&kpbench_lock);
	kpbench_bare_off();
	mutex_unlock(&kpbench_lock);
}

module_init(kpbench_init);
module_exit(kpbench_exit);
MODULE_DESCRIPTION("Workload for the kprobe event benchmark");
MODULE_LICENSE("GPL");
