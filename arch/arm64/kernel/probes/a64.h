/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the arm64 probe files: the instruction classifier
 * (decode.c) and the simulations (simulate.c), which serve kprobes and
 * uprobes, and the pt_regs state of the paths that take no exception
 * (ftrace.c, rethook.c).  See core.c for the kprobes BRK path.
 * Prefixes: a64_ (arm64 probes, inside these files), arch_ (the hooks the
 * generic core calls), kprobe_ (the core's, <linux/kprobes_arch.h>).
 */
#ifndef _ARM64_KERNEL_PROBES_A64_H
#define _ARM64_KERNEL_PROBES_A64_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <asm/cpufeature.h>
#include <asm/probes.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

/* What a probe may do with an instruction. */
enum a64_verdict {
	A64_REFUSE,		/* must not be probed */
	A64_STEP,		/* a copy runs out of line, then traps back */
	A64_SIMULATE,		/* carried out on pt_regs by a simulation */
};

enum a64_verdict a64_classify(u32 insn, probes_handler_t **simulate);
bool a64_in_exclusive_sequence(const u32 *at, unsigned int before);

/* simulate.c, one per instruction class */
probes_handler_t a64_sim_adr;		/* ADR, ADRP */
probes_handler_t a64_sim_b;		/* B, BL */
probes_handler_t a64_sim_bcond;		/* B.cond, BC.cond */
probes_handler_t a64_sim_cbz;		/* CBZ, CBNZ */
probes_handler_t a64_sim_tbz;		/* TBZ, TBNZ */
probes_handler_t a64_sim_ldr_lit;	/* LDR, LDRSW, PRFM (literal) */
probes_handler_t a64_sim_br;		/* BR, BLR */
probes_handler_t a64_sim_ret;		/* RET */
probes_handler_t a64_sim_nop;		/* NOP */

/*
 * Bits [hi:lo] of @insn, and the same as a signed value.
 *
 * Why not aarch64_insn_decode_immediate() or aarch64_get_branch_offset():
 * they are out of line and may be probed themselves (a probe hit inside a
 * simulation only counts a miss, see core.c), and they decode again what
 * a64_classify() already knew.  Inline, a field is one UBFX or SBFX.
 * Counted on the arm64 build (-Os): a B.cond offset costs 1 instruction
 * here against 41 through aarch64_get_branch_offset(), which tests the
 * class again and calls the decoder, plus the frame the call needs; the
 * ADR immediate costs 3 here against 12 in the decoder, plus the call.
 */
static inline u32 a64_field(u32 insn, unsigned int hi, unsigned int lo)
{
	return (insn >> lo) & (u32)GENMASK(hi - lo, 0);
}

static inline s64 a64_sfield(u32 insn, unsigned int hi, unsigned int lo)
{
	return sign_extend64(a64_field(insn, hi, lo), hi - lo);
}

/*
 * What a pt_regs built by a call, not by an exception, shows of the kernel
 * context it describes: the kernel's exception level on SP_ELx, this CPU's
 * DAIF (and PMR, with pseudo-NMI), and condition flags that read 0.
 */
static __always_inline void a64_kernel_context(struct pt_regs *regs)
{
	regs->pstate = (is_kernel_in_hyp_mode() ? PSR_MODE_EL2h : PSR_MODE_EL1h) |
		       read_sysreg(daif);
	if (system_uses_irq_prio_masking())
		regs->pmr = read_sysreg_s(SYS_ICC_PMR_EL1);
}

#endif /* _ARM64_KERNEL_PROBES_A64_H */
