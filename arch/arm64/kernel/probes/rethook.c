// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 side of rethook: plant the trampoline in the link register at a
 * function entry, and take the trampoline's BRK at the return.
 *
 * At a function entry the return address is still in x30, and x29 is the
 * caller's frame pointer, which the function restores before it returns:
 * x29 identifies the call at both ends.  It is also the frame pointer the
 * unwinder holds when it meets the trampoline address in a frame record
 * (kretprobe_find_ret_addr()), so stack traces see the real caller.
 */
#include <linux/kprobes.h>
#include <linux/rethook.h>
#include <asm/debug-monitors.h>

void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs,
			  bool mcount)
{
	node->ret_addr = regs->regs[30];
	node->frame = regs->regs[29];
	regs->regs[30] = (unsigned long)arch_rethook_trampoline;
}
NOKPROBE_SYMBOL(arch_rethook_prepare);

/*
 * The BRK exception made a frame record of the trampoline's context in
 * pt_regs::stackframe, {x29, pc}: that is where the unwinder looks for the
 * return address.  Put the real one there before any handler runs, since
 * the nodes of this frame are already off the task's list by then.
 */
void arch_rethook_fixup_return(struct pt_regs *regs,
			       unsigned long correct_ret_addr)
{
	regs->stackframe[1] = correct_ret_addr;
}
NOKPROBE_SYMBOL(arch_rethook_fixup_return);

/**
 * kretprobe_brk_handler() - the BRK of the return trampoline
 * @regs: the registers at the return; regs->pc is the trampoline
 * @esr: the exception syndrome
 *
 * Context: debug exception, interrupts masked.
 * Return: DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for another BRK.
 */
int kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	if (user_mode(regs) ||
	    instruction_pointer(regs) != (unsigned long)arch_rethook_trampoline)
		return DBG_HOOK_ERROR;
	/* Sets regs->pc to the real return address. */
	rethook_trampoline_handler(regs, regs->regs[29]);
	regs->pstate &= ~PSR_BTYPE_MASK;
	return DBG_HOOK_HANDLED;
}
NOKPROBE_SYMBOL(kretprobe_brk_handler);
NOKPROBE_SYMBOL(arch_rethook_trampoline);
