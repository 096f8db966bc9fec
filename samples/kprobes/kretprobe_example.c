// SPDX-License-Identifier: GPL-2.0-only
/*
 * kretprobe_example: how long does a kernel function take, and what does
 * it return?
 *
 * The entry handler stamps the time in the instance's private data (each
 * pending call has its own instance); the return handler prints the return
 * value and the time spent.  At most maxactive calls are followed at once;
 * the calls that found no free instance are reported at unload:
 *
 *   # modprobe kretprobe_example func=kernel_clone maxactive=4
 *   # dmesg | tail -1
 *   kretprobe_example: kernel_clone returned 153 after 402117 ns
 *   # rmmod kretprobe_example
 *   kretprobe_example: kernel_clone: 3 returns seen, 0 calls missed (maxactive 4)
 *
 * See Documentation/trace/kprobes.rst for the API.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>

static char func[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "the function to time (default kernel_clone)");

static int maxactive = 16;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "calls followed at once (default 16)");

/* The per-call data, in kretprobe_instance::data. */
struct call_stamp {
	ktime_t entered;
};

static atomic_long_t returns = ATOMIC_LONG_INIT(0);

static int example_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;

	/* Kernel threads are not interesting here: skip their return. */
	if (!current->mm)
		return 1;
	stamp->entered = ktime_get();
	return 0;
}

static int example_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct call_stamp *stamp = (struct call_stamp *)ri->data;
	s64 spent = ktime_to_ns(ktime_sub(ktime_get(), stamp->entered));

	atomic_long_inc(&returns);
	pr_info("%s returned %ld after %lld ns\n", func,
		(long)regs_return_value(regs), spent);
	return 0;
}

static struct kretprobe example_retprobe = {
	.entry_handler	= example_entry,
	.handler	= example_return,
	.data_size	= sizeof(struct call_stamp),
};

static int __init kretprobe_example_init(void)
{
	int ret;

	example_retprobe.kp.symbol_name = func;
	example_retprobe.maxactive = maxactive;
	ret = register_kretprobe(&example_retprobe);
	if (ret < 0) {
		pr_err("cannot probe the return of %s: %d\n", func, ret);
		return ret;
	}
	pr_info("return probe on %s at %pS, maxactive %d\n", func,
		example_retprobe.kp.addr, example_retprobe.maxactive);
	return 0;
}

static void __exit kretprobe_example_exit(void)
{
	unregister_kretprobe(&example_retprobe);
	pr_info("%s: %ld returns seen, %d calls missed (maxactive %d)\n", func,
		atomic_long_read(&returns), example_retprobe.nmissed,
		example_retprobe.maxactive);
}

module_init(kretprobe_example_init);
module_exit(kretprobe_example_exit);
MODULE_DESCRIPTION("kretprobes example: time a function and show its return value");
MODULE_LICENSE("GPL");
