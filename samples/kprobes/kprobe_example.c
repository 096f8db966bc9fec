// SPDX-License-Identifier: GPL-2.0-only
/*
 * kprobe_example: print the registers each time a kernel function runs.
 *
 * A pre handler runs just before the probed instruction, a post handler
 * just after it.  Both print the instruction pointer and the first two
 * function arguments as the CPU sees them at that moment:
 *
 *   # modprobe kprobe_example symbol=kernel_clone
 *   # dmesg | tail -2
 *   kprobe_example: pre  kernel_clone+0x4/0x3a0: ip=ffffffff81061305 arg0=ffffc90000197f18 arg1=0 ...
 *   kprobe_example: post kernel_clone+0x4/0x3a0: ip=ffffffff81061309 ...
 *
 * (At a function entry the probe sits after the endbr64, and with ftrace
 * the "instruction" is the 5-byte fentry call.)  See
 * Documentation/trace/kprobes.rst for the API.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>

static char symbol[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "the function to probe (default kernel_clone)");

static unsigned long hits;

static void example_show(const char *when, struct kprobe *p, struct pt_regs *regs)
{
	pr_info("%-4s %pS: ip=%lx arg0=%lx arg1=%lx sp=%lx hit=%lu\n", when,
		p->addr, instruction_pointer(regs),
		regs_get_kernel_argument(regs, 0),
		regs_get_kernel_argument(regs, 1),
		kernel_stack_pointer(regs), hits);
}

/* Before the probed instruction: count the hit and show the registers. */
static int example_pre(struct kprobe *p, struct pt_regs *regs)
{
	hits++;
	example_show("pre", p, regs);
	return 0;	/* go on and run the instruction */
}

/* After it: the instruction pointer has moved past it. */
static void example_post(struct kprobe *p, struct pt_regs *regs,
			 unsigned long flags)
{
	example_show("post", p, regs);
}

static struct kprobe example_probe = {
	.pre_handler	= example_pre,
	.post_handler	= example_post,
};

static int __init kprobe_example_init(void)
{
	int ret;

	example_probe.symbol_name = symbol;
	ret = register_kprobe(&example_probe);
	if (ret < 0) {
		pr_err("cannot probe %s: %d\n", symbol, ret);
		return ret;
	}
	pr_info("probe on %s at %pS\n", symbol, example_probe.addr);
	return 0;
}

static void __exit kprobe_example_exit(void)
{
	unregister_kprobe(&example_probe);
	pr_info("probe on %s removed after %lu hits, %lu missed\n", symbol,
		hits, example_probe.nmissed);
}

module_init(kprobe_example_init);
module_exit(kprobe_example_exit);
MODULE_DESCRIPTION("kprobes example: print the registers at a function");
MODULE_LICENSE("GPL");
