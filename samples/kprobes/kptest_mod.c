// SPDX-License-Identifier: GPL-2.0
/*
 * kptest_mod - functions with known properties for the kprobe event tests.
 *
 * Built with CONFIG_SAMPLE_KPROBE_TEST_MOD=m; the ftrace selftests of
 * test.d/kprobe and test.d/dynevent load it with modprobe.
 *
 *   kptest_target(x)      an ordinary function; write N to
 *                         /sys/kernel/debug/kptest/call to call it N times
 *   kptest_nest(x)        calls kptest_target(); write N to
 *                         /sys/kernel/debug/kptest/nest to call it N times
 *                         with a bare kprobe on it whose pre handler also
 *                         calls kptest_target(): each of those inner calls
 *                         hits a probe of kptest_target while a handler
 *                         runs, which the kprobes core counts as missed
 *   kptest_init_fn(x)     __init: runs once, while the module loads
 *   kptest_init_late(x)   __init: with the parameter init_async=1, called
 *                         once by the module's init function, and once by
 *                         async __init work after the module went live,
 *                         while its init text is not yet freed
 *   kptest_nokprobe(x)    NOKPROBE_SYMBOL: in the module's blacklist
 *   kptest_multi_a(x)     write N to /sys/kernel/debug/kptest/multi to
 *   kptest_multi_b(x)     call a N times, b 2N times, c 3N times, and the
 *   kptest_multi_c(x)     five below N times each
 *   kptest_clone.constprop.0(x)   named as compiler clones are, with no
 *   kptest_twin.isra.0(x)         function of the plain name: one clone
 *   kptest_twin.part.0(x)         of kptest_clone, two of kptest_twin
 *   kptest_nokprobe.isra.0(x)     a clone-named function in the blacklist
 *   kptest_nokprobe.part.0(x)     a clone-named function that is not, but
 *                                 whose function (kptest_nokprobe) is
 *   synth_grow            write 1 to trace two records of the synthetic
 *                         event kpsynth_grow ("char first[]; char
 *                         second[]", defined and enabled by the test)
 *                         with synth_event_trace(), then two with
 *                         synth_event_trace_array(); in the first of
 *                         each pair, the string of "first" grows between
 *                         the pass that sizes the record and the copy
 *   do_ftruncate(kpt_byte)        named as a vmlinux function, with another
 *                                 prototype (u16 (u8) here, int (struct
 *                                 file *file, loff_t length, unsigned int
 *                                 flags) there): BTF must come from this
 *                                 module for "kptest_mod:do_ftruncate"; write N
 *                                 to /sys/kernel/debug/kptest/shadow to
 *                                 call it with 0..N-1
 *
 * The module is loaded and unloaded by the tests, several times in a row;
 * it keeps no state across loads.
 */
#include <linux/async.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

static u64 kptest_cell;

noinline int kptest_target(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + x);
	return x + 1;
}

noinline int kptest_nest(int x)
{
	return kptest_target(x) + 1;
}

noinline int kptest_nokprobe(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) ^ x);
	return x;
}
NOKPROBE_SYMBOL(kptest_nokprobe);

noinline __noclone int kptest_multi_a(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 1);
	return x + 1;
}

noinline __noclone int kptest_multi_b(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 2);
	return x + 2;
}

noinline __noclone int kptest_multi_c(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 3);
	return x + 3;
}

/*
 * Each has a side effect, so that the compiler calls it every time.  asm
 * labels give the last four the names the compiler gives to clones.
 */
int kptest_clone(int x) __asm__("kptest_clone.constprop.0");
int kptest_twin_isra(int x) __asm__("kptest_twin.isra.0");
int kptest_twin_part(int x) __asm__("kptest_twin.part.0");
int kptest_nokprobe_isra(int x) __asm__("kptest_nokprobe.isra.0");
int kptest_nokprobe_part(int x) __asm__("kptest_nokprobe.part.0");

noinline __noclone int kptest_clone(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 4);
	return x + 4;
}

noinline __noclone int kptest_twin_isra(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 5);
	return x + 5;
}

noinline __noclone int kptest_twin_part(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 6);
	return x + 6;
}

noinline __noclone int kptest_nokprobe_isra(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 7);
	return x + 7;
}
NOKPROBE_SYMBOL(kptest_nokprobe_isra);

/* not listed itself: the kprobes core judges it by kptest_nokprobe */
noinline __noclone int kptest_nokprobe_part(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + 8);
	return x + 8;
}

/*
 * Static, so that no declaration of the vmlinux function can clash with
 * it; noinline and __noclone keep one copy under its own name, in BTF.
 */
static noinline __noclone u16 do_ftruncate(u8 kpt_byte)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + kpt_byte);
	return kpt_byte + 0x100;
}

static int kptest_shadow(int x)
{
	return do_ftruncate((u8)x);
}

static int kptest_multi(int x)
{
	int i, r = kptest_multi_a(x);

	for (i = 0; i < 2; i++)
		r += kptest_multi_b(x);
	for (i = 0; i < 3; i++)
		r += kptest_multi_c(x);
	r += kptest_clone(x) + kptest_twin_isra(x) + kptest_twin_part(x);
	return r + kptest_nokprobe_isra(x) + kptest_nokprobe_part(x);
}

/* Global, its result used: the compiler keeps it whole, name and all. */
noinline int __init kptest_init_fn(int x)
{
	WRITE_ONCE(kptest_cell, x);
	return x;
}

static int kptest_nest_pre(struct kprobe *p, struct pt_regs *regs)
{
	/* a value the compiler cannot fold into a clone of the callee */
	kptest_target((int)READ_ONCE(kptest_cell) & 1);
	return 0;
}

static struct kprobe kptest_nest_kp = {
	.symbol_name = "kptest_nest",
	.pre_handler = kptest_nest_pre,
};

/* Read a count from user space: a decimal number below 10^7. */
static int kptest_count(const char __user *ubuf, size_t len, unsigned int *n)
{
	int ret = kstrtouint_from_user(ubuf, len, 10, n);

	if (!ret && *n > 10000000)
		ret = -ERANGE;
	return ret;
}

/* Call @fn(0..N-1), N read from user space. */
static ssize_t kptest_run(const char __user *ubuf, size_t len, int (*fn)(int))
{
	unsigned int i, n;
	int ret = kptest_count(ubuf, len, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		fn(i);
	return len;
}

static ssize_t kptest_call_write(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	return kptest_run(ubuf, len, kptest_target);
}

static ssize_t kptest_shadow_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	return kptest_run(ubuf, len, kptest_shadow);
}

static ssize_t kptest_write_multi(struct file *f, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	return kptest_run(ubuf, len, kptest_multi);
}

/* One writer at a time: each of our kprobes is one static kprobe. */
static DEFINE_MUTEX(kptest_nest_lock);

static ssize_t kptest_nest_write(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	ssize_t ret;

	guard(mutex)(&kptest_nest_lock);
	kptest_nest_kp.addr = NULL;
	kptest_nest_kp.flags = 0;
	ret = register_kprobe(&kptest_nest_kp);
	if (ret)
		return ret;
	ret = kptest_run(ubuf, len, kptest_nest);
	unregister_kprobe(&kptest_nest_kp);
	return ret;
}

/*
 * A string that grows while a synthetic event traces it.  The synthetic
 * event API sizes its dynamic strings, then reserves the record with
 * trace_event_buffer_reserve(), then copies them: a kprobe on that
 * reserve, for the writing task only and once, lengthens the string in
 * between.  Another record is traced right after it on the same CPU, so
 * whatever follows the first record in the ring buffer is that record's
 * header, never zeros that would hide a read past the end.
 */
#define KPTEST_SHORT	"1234567"		/* 8 bytes with the NUL */
#define KPTEST_GROWN	"12345678901234567890"

static char kptest_grow_str[sizeof(KPTEST_GROWN)];
static struct task_struct *kptest_grow_task;

static int kptest_grow_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (READ_ONCE(kptest_grow_task) == current) {
		memcpy(kptest_grow_str, KPTEST_GROWN, sizeof(KPTEST_GROWN));
		WRITE_ONCE(kptest_grow_task, NULL);
	}
	return 0;
}

static struct kprobe kptest_grow_kp = {
	.symbol_name = "trace_event_buffer_reserve",
	.pre_handler = kptest_grow_pre,
};

/* One grown record and one plain one, through @array or the va_list API. */
static int kptest_grow_pair(struct trace_event_file *file, bool array)
{
	u64 grow[2] = { (unsigned long)kptest_grow_str, (unsigned long)"abcdefg" };
	u64 next[2] = { (unsigned long)"next", (unsigned long)"record" };
	int ret;

	strscpy(kptest_grow_str, KPTEST_SHORT, sizeof(kptest_grow_str));
	WRITE_ONCE(kptest_grow_task, current);
	preempt_disable();
	if (array) {
		ret = synth_event_trace_array(file, grow, 2);
		ret = ret ?: synth_event_trace_array(file, next, 2);
	} else {
		ret = synth_event_trace(file, 2, grow[0], grow[1]);
		ret = ret ?: synth_event_trace(file, 2, next[0], next[1]);
	}
	preempt_enable();
	/* the kprobe did not fire: the string never grew */
	if (!ret && READ_ONCE(kptest_grow_task))
		ret = -ENODATA;
	WRITE_ONCE(kptest_grow_task, NULL);
	return ret;
}

static ssize_t kptest_synth_grow_write(struct file *f, const char __user *ubuf,
				       size_t len, loff_t *ppos)
{
	struct trace_event_file *file;
	int ret;

	if (!IS_ENABLED(CONFIG_SYNTH_EVENTS))
		return -EOPNOTSUPP;
	guard(mutex)(&kptest_nest_lock);
	file = trace_get_event_file(NULL, "synthetic", "kpsynth_grow");
	if (IS_ERR(file))
		return PTR_ERR(file);
	kptest_grow_kp.addr = NULL;
	kptest_grow_kp.flags = 0;
	ret = register_kprobe(&kptest_grow_kp);
	if (ret)
		goto out_put;
	ret = kptest_grow_pair(file, false);
	ret = ret ?: kptest_grow_pair(file, true);
	unregister_kprobe(&kptest_grow_kp);
out_put:
	trace_put_event_file(file);
	return ret ?: len;
}

static const struct file_operations kptest_synth_grow_fops = {
	.write = kptest_synth_grow_write,
};

static const struct file_operations kptest_call_fops = {
	.write = kptest_call_write,
};

static const struct file_operations kptest_nest_fops = {
	.write = kptest_nest_write,
};

static const struct file_operations kptest_multi_fops = {
	.write = kptest_write_multi,
};

static const struct file_operations kptest_shadow_fops = {
	.write = kptest_shadow_write,
};

static struct dentry *kptest_dir;

static bool init_async;
module_param(init_async, bool, 0400);
MODULE_PARM_DESC(init_async, "call kptest_init_late() from async __init work once live");

static noinline __noclone int __init kptest_init_late(int x)
{
	WRITE_ONCE(kptest_cell, READ_ONCE(kptest_cell) + x);
	return x;
}

/*
 * Told when every other module notifier has seen this module go live
 * (INT_MIN: called last), the kprobes core's among them.
 */
static DECLARE_COMPLETION(kptest_live);

static int kptest_module_event(struct notifier_block *nb, unsigned long state,
			       void *data)
{
	if (data == THIS_MODULE && state == MODULE_STATE_LIVE)
		complete(&kptest_live);
	return NOTIFY_DONE;
}

static struct notifier_block kptest_module_nb = {
	.notifier_call = kptest_module_event,
	.priority = INT_MIN,
};

/*
 * The loader waits for async work before it frees init text, so this runs
 * with the init text still there, but after the module went live.
 */
static void __init kptest_init_async(void *data, async_cookie_t cookie)
{
	if (wait_for_completion_timeout(&kptest_live, 30 * HZ))
		kptest_init_late(1);
	else
		pr_err("kptest_mod: never told that the module is live\n");
	unregister_module_notifier(&kptest_module_nb);
}

static int __init kptest_init(void)
{
	if (init_async) {
		kptest_init_late(0);
		if (!register_module_notifier(&kptest_module_nb))
			async_schedule(kptest_init_async, NULL);
	}
	WRITE_ONCE(kptest_cell, kptest_init_fn((int)jiffies) + 1);
	kptest_dir = debugfs_create_dir("kptest", NULL);
	debugfs_create_file("call", 0200, kptest_dir, NULL, &kptest_call_fops);
	debugfs_create_file("nest", 0200, kptest_dir, NULL, &kptest_nest_fops);
	debugfs_create_file("multi", 0200, kptest_dir, NULL, &kptest_multi_fops);
	debugfs_create_file("synth_grow", 0200, kptest_dir, NULL,
			    &kptest_synth_grow_fops);
	debugfs_create_file("shadow", 0200, kptest_dir, NULL, &kptest_shadow_fops);
	return 0;
}

static void __exit kptest_exit(void)
{
	debugfs_remove_recursive(kptest_dir);
}

module_init(kptest_init);
module_exit(kptest_exit);
MODULE_DESCRIPTION("Functions with known properties for kprobe event tests");
MODULE_LICENSE("GPL");
