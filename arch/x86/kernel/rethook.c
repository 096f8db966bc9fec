// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86 side of rethook: plant the trampoline at a function entry, and finish
 * the pt_regs that the trampoline (rethook_64.S) built at the return.
 *
 * At a function entry, regs->sp points at the return address (int3 and
 * fentry alike), so that slot is the frame that identifies the call.
 */
#include <linux/kprobes.h>
#include <linux/rethook.h>
#include <asm/segment.h>

__visible void arch_rethook_trampoline_callback(struct pt_regs *regs);

void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs,
			  bool mcount)
{
	unsigned long *ret_slot = (unsigned long *)regs->sp;

	node->frame = (unsigned long)ret_slot;
	node->ret_addr = *ret_slot;
	*ret_slot = (unsigned long)arch_rethook_trampoline;
}
NOKPROBE_SYMBOL(arch_rethook_prepare);

/* The return slot lies right above the pt_regs built by the trampoline. */
static nokprobe_inline unsigned long *rethook_ret_slot(struct pt_regs *regs)
{
	return (unsigned long *)(regs + 1);
}

void arch_rethook_fixup_return(struct pt_regs *regs,
			       unsigned long correct_ret_addr)
{
	*rethook_ret_slot(regs) = correct_ret_addr;
}
NOKPROBE_SYMBOL(arch_rethook_fixup_return);

/* Called from arch_rethook_trampoline with the registers it saved. */
__visible void arch_rethook_trampoline_callback(struct pt_regs *regs)
{
	unsigned long frame = (unsigned long)rethook_ret_slot(regs);

	/* The trampoline parked the flags in the ss slot. */
	regs->flags = regs->ss;
	regs->ss = __KERNEL_DS;
	regs->cs = __KERNEL_CS;
	regs->sp = frame + sizeof(long);
	regs->orig_ax = ~0UL;
	rethook_trampoline_handler(regs, frame);
}
NOKPROBE_SYMBOL(arch_rethook_trampoline_callback);
NOKPROBE_SYMBOL(arch_rethook_trampoline);
