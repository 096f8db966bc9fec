// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 rethook: the return trampoline in the link register
 *
 * arm64 side of rethook: plant the trampoline in the link register at a
 * function entry, and run the handlers from the trampoline at the return
 * (rethook_trampoline.S).
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

#include "a64.h"

__visible void arch_rethook_trampoline_callback(struct pt_regs *regs);

void arch_rethook_prepare(struct rethook_node *node, struct pt_regs *regs,
			  bool mcount)
{
	node->ret_addr = regs->regs[30];
	node->frame = regs->regs[29];
	regs->regs[30] = (unsigned long)arch_rethook_trampoline;
}
NOKPROBE_SYMBOL(arch_rethook_prepare);

/*
 * The trampoline made a frame record of the return in pt_regs::stackframe,
 * {x29, pc}, an ordinary record (its fp is not 0, so the unwinder does not
 * read it as a metadata one): that is where the unwinder looks for the
 * return address.  Put
 * the real one there before any handler runs, since the nodes of this frame
 * are already off the task's list by then.
 */
void arch_rethook_fixup_return(struct pt_regs *regs,
			       unsigned long correct_ret_addr)
{
	regs->stackframe.record.lr = correct_ret_addr;
}
NOKPROBE_SYMBOL(arch_rethook_fixup_return);

/**
 * arch_rethook_trampoline_callback() - the C half of the return trampoline
 * @regs: the registers at the return, stored by the trampoline; regs->pc
 *        is the trampoline
 *
 * At the return x29 is the caller's frame pointer again, the one the entry
 * recorded.  Sets regs->pc to the real return address.
 */
__visible void arch_rethook_trampoline_callback(struct pt_regs *regs)
{
	a64_kernel_context(regs);
	rethook_trampoline_handler(regs, regs->regs[29]);
}
NOKPROBE_SYMBOL(arch_rethook_trampoline_callback);

/*
 * The debug exception code still sends BRK #KRETPROBES_BRK_IMM here; no
 * such BRK is ours since the trampoline returns by itself.
 */
int kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr)
{
	return DBG_HOOK_ERROR;
}
NOKPROBE_SYMBOL(kretprobe_brk_handler);
NOKPROBE_SYMBOL(arch_rethook_trampoline);
