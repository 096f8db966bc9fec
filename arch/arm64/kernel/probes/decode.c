// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 kprobes: which instructions a probe may sit on
 *
 * Which A64 instructions a probe may sit on, and how each is carried out.
 *
 * A probe replaces the instruction with a BRK.  After the handlers ran,
 * the instruction must still happen, in one of two ways::
 *
 *   stepped     a copy runs in an out-of-line slot, followed by a BRK that
 *               brings the CPU back (core.c).  Right for anything that
 *               does not depend on where it sits.
 *   simulated   its effect is computed on pt_regs (simulate.c).  Needed
 *               for whatever reads the PC or branches: ADR/ADRP, literal
 *               loads, B/BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET.
 *
 * Refused are the instructions that cannot be made to happen either way:
 * exception generation (SVC, HVC, SMC, BRK, HLT, DCPS), exception returns
 * and authenticated branches, writes of PSTATE or system registers and
 * reads of DAIF (the step runs with DAIF changed), literal loads into
 * SIMD registers, exclusive loads and stores (the BRK exception clears
 * the exclusive monitor, so the store-exclusive would fail for ever), the
 * memory copy and set sequences of FEAT_MOPS (a prologue, a main and an
 * epilogue instruction that must run one after the other), every hint
 * but NOP, pointer signing and stripping and BTI (waiting, events,
 * authentication, barriers such as CSDB and the unallocated hints may
 * trap or behave otherwise out of line), and the reserved and
 * unallocated encodings.  An instruction between a load-exclusive and
 * its store-exclusive is refused for the same reason as the exclusives
 * (a64_in_exclusive_sequence()).
 *
 * The rules are one table, tried in order; the first match decides.  An
 * instruction no rule matches is stepped.  Encodings are those of the Arm
 * Architecture Reference Manual, section C4 ("A64 instruction set
 * encoding").
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <asm/insn.h>

#include "a64.h"
#include "decode-insn.h"

/*
 * A rule matches by the kernel's aarch64_insn_is_*() predicate where
 * <asm/insn.h> has one, else by a mask and value of its own.
 */
struct a64_rule {
	bool			(*is)(u32 insn);
	u32			mask;
	u32			value;
	enum a64_verdict	verdict;
	probes_handler_t	*simulate;
};

#define SIM(pred, fn)		{ .is = pred, .verdict = A64_SIMULATE, .simulate = fn }
#define REFUSE(pred)		{ .is = pred, .verdict = A64_REFUSE }
#define REFUSE_MASK(m, v)	{ .mask = m, .value = v, .verdict = A64_REFUSE }

/*
 * aarch64_insn_is_bcond() takes bit 4 either way: clear, B.cond; set,
 * BC.cond (FEAT_HBC), the same branch with a hint that it always goes
 * the same way, which the simulation takes as B.cond.  Without FEAT_HBC
 * that encoding is unallocated: a probe must not turn its
 * undefined-instruction exception into a branch.
 */
static bool a64_is_bc_cond_unallocated(u32 insn)
{
	return aarch64_insn_is_bcond(insn) && (insn & BIT(4)) &&
	       !cpu_have_named_feature(HBC);
}

/* The hints <asm/insn.h> does not call steppable.  NOP is matched before. */
static bool a64_is_unsteppable_hint(u32 insn)
{
	return aarch64_insn_is_hint(insn) && !aarch64_insn_is_steppable_hint(insn);
}

static const struct a64_rule a64_rules[] = {
	/* op0 0000 (UDF and reserved), 0001 and 0011 (unallocated) */
	REFUSE_MASK(0x1e000000, 0x00000000),
	REFUSE_MASK(0x1e000000, 0x02000000),
	REFUSE_MASK(0x1e000000, 0x06000000),
	/* PC-relative addressing */
	SIM(aarch64_insn_is_adr_adrp, a64_sim_adr),
	/* literal loads: LDR Wt/Xt, LDRSW, PRFM; into SIMD registers refused */
	SIM(aarch64_insn_is_ldr_lit, a64_sim_ldr_lit),
	SIM(aarch64_insn_is_ldrsw_lit, a64_sim_ldr_lit),
	SIM(aarch64_insn_is_prfm_lit, a64_sim_ldr_lit),
	REFUSE_MASK(0x3f000000, 0x1c000000),
	/* immediate branches */
	SIM(aarch64_insn_is_b, a64_sim_b),
	SIM(aarch64_insn_is_bl, a64_sim_b),
	REFUSE(a64_is_bc_cond_unallocated),
	SIM(aarch64_insn_is_bcond, a64_sim_bcond),
	SIM(aarch64_insn_is_cbz, a64_sim_cbz),
	SIM(aarch64_insn_is_cbnz, a64_sim_cbz),
	SIM(aarch64_insn_is_tbz, a64_sim_tbz),
	SIM(aarch64_insn_is_tbnz, a64_sim_tbz),
	/* register branches: BR, BLR, RET; every other form refused */
	SIM(aarch64_insn_is_br, a64_sim_br),
	SIM(aarch64_insn_is_blr, a64_sim_br),
	SIM(aarch64_insn_is_ret, a64_sim_ret),
	REFUSE_MASK(0xfe000000, 0xd6000000),
	/* exception generation */
	REFUSE(aarch64_insn_is_exception),
	/* NOP needs no slot; of the other hints, only some may be stepped */
	SIM(aarch64_insn_is_nop, a64_sim_nop),
	REFUSE(a64_is_unsteppable_hint),
	/* MSR (immediate): PSTATE fields, DAIFSet/DAIFClr among them */
	REFUSE(aarch64_insn_is_msr_imm),
	/* MSR (register), and MRS Xt, DAIF */
	REFUSE(aarch64_insn_is_msr_reg),
	REFUSE_MASK(0xffffffe0, 0xd53b4220),
	/* load/store exclusive: LDXR, STXR, LDAXR, STLXR and the pairs */
	REFUSE(aarch64_insn_is_exclusive),
	/* CPY* and SET* (FEAT_MOPS): three instructions in a row, or none */
	REFUSE(aarch64_insn_is_mops),
};

static bool a64_rule_matches(const struct a64_rule *r, u32 insn)
{
	return r->is ? r->is(insn) : (insn & r->mask) == r->value;
}

/**
 * a64_classify() - may a probe sit on @insn, and how is it carried out?
 * @insn: the instruction
 * @simulate: set to the simulation for A64_SIMULATE, else to NULL
 *
 * Return: the verdict: refused, simulated or stepped out of line.
 */
enum a64_verdict a64_classify(u32 insn, probes_handler_t **simulate)
{
	const struct a64_rule *r;

	*simulate = NULL;
	for (r = a64_rules; r < a64_rules + ARRAY_SIZE(a64_rules); r++) {
		if (!a64_rule_matches(r, insn))
			continue;
		*simulate = r->simulate;
		return r->verdict;
	}
	return A64_STEP;
}
EXPORT_SYMBOL_IF_KUNIT(a64_classify);

/**
 * a64_in_exclusive_sequence() - does @at sit inside an exclusive sequence?
 * @at: the instruction to probe
 * @before: how many instructions before @at belong to the same function
 *
 * Looks back for a load-exclusive not yet closed by a store-exclusive.
 * Sequences are short (the architecture only guarantees progress for a
 * few instructions), so a small window is enough.
 *
 * Return: true if it does: a probe there would break the sequence.
 */
bool a64_in_exclusive_sequence(const u32 *at, unsigned int before)
{
	unsigned int i, window = min(before, 16U);
	__le32 word;
	u32 insn;

	for (i = 1; i <= window; i++) {
		if (copy_from_kernel_nofault(&word, at - i, sizeof(word)))
			return true;
		insn = le32_to_cpu(word);
		if (aarch64_insn_is_store_ex(insn))
			return false;
		if (aarch64_insn_is_load_ex(insn))
			return true;
	}
	return false;
}

/*
 * For uprobes.c: refused, simulated (api->handler set), or stepped from
 * its slot.  A user task's exclusive sequences are its own business.
 */
enum probe_insn arm_probe_decode_insn(u32 insn,
				      struct arch_probe_insn *api)
{
	switch (a64_classify(insn, &api->handler)) {
	case A64_SIMULATE:
		return INSN_GOOD_NO_SLOT;
	case A64_STEP:
		return INSN_GOOD;
	default:
		return INSN_REJECTED;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arm_probe_decode_insn);
