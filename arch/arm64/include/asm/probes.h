/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kprobes and uprobes share on arm64: the simulation of the
 * instructions that cannot run away from their own address (PC-relative
 * ones and branches), which lives in arch/arm64/kernel/probes/simulate.c.
 */
#ifndef _ASM_ARM64_PROBES_H
#define _ASM_ARM64_PROBES_H

#include <linux/types.h>

struct pt_regs;

/*
 * Make @regs look as if the CPU had executed @insn at @addr: registers
 * written, pc moved on.  Called with the probed context's registers, in
 * the BRK exception (kprobes) or in the task (uprobes).
 */
typedef void (probes_handler_t)(u32 insn, long addr, struct pt_regs *regs);

/**
 * struct arch_probe_insn - how a uprobe's instruction is carried out
 * @handler: its simulation, or NULL when a copy is stepped out of line
 */
struct arch_probe_insn {
	probes_handler_t	*handler;
};

#endif /* _ASM_ARM64_PROBES_H */
