/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm64 definitions for kprobes: what a probe site keeps of the probed
 * instruction, and the per-CPU state of the BRK path.
 * See arch/arm64/kernel/probes/core.c.
 */
#ifndef _ASM_ARM64_KPROBES_H
#define _ASM_ARM64_KPROBES_H

#include <asm-generic/kprobes.h>
#include <asm/probes.h>

struct pt_regs;

/*
 * Entry points from the BRK handler (debug-monitors.c), one per BRK
 * immediate: the probe itself, the end of an out-of-line step, and the
 * return trampoline.  Debug exception, interrupts masked.  They return
 * DBG_HOOK_HANDLED, or DBG_HOOK_ERROR for a BRK that is not theirs.
 */
int kprobe_brk_handler(struct pt_regs *regs, unsigned long esr);
int kprobe_ss_brk_handler(struct pt_regs *regs, unsigned long esr);
int kretprobe_brk_handler(struct pt_regs *regs, unsigned long esr);

#ifdef CONFIG_KPROBES
#include <linux/bits.h>
#include <linux/types.h>
#include <linux/percpu.h>

struct kprobe_site;

/*
 * A word of kernel text or of a slot as it lies in memory: A64
 * instructions are little-endian whatever the data endianness.
 */
typedef __le32 kprobe_opcode_t;

/*
 * An out-of-line slot, in bytes: the copy of the instruction, then
 * BRK #KPROBES_BRK_SS_IMM, which brings the CPU back (core.c).
 */
#define KPROBE_INSN_SLOT_SIZE	8

/**
 * struct arch_kprobe_site - the probed instruction of one site
 * @insn: the original instruction, put back when the site is disarmed
 * @simulate: how the instruction is simulated, or NULL if it is stepped
 * @slot: the out-of-line copy of a stepped instruction, else NULL
 */
struct arch_kprobe_site {
	u32			insn;
	probes_handler_t	*simulate;
	kprobe_opcode_t		*slot;
};

int kprobe_fault_handler(struct pt_regs *regs, unsigned int fsr);

/*
 * A probe hit through ftrace (probes/ftrace.c) finds x0..x8, x29, x30, sp,
 * pc and pstate; x9..x28 read 0.
 */
#define ARCH_KPROBE_FTRACE_REGS	(GENMASK_ULL(8, 0) | GENMASK_ULL(33, 29))

#endif /* CONFIG_KPROBES */
#endif /* _ASM_ARM64_KPROBES_H */
