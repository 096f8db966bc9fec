// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: x86 kprobes: what a hit does with the probed instruction
 *
 * A probe may only sit on an instruction boundary: the function is decoded
 * from its start up to the probe address with the kernel's instruction
 * decoder, reading the original bytes where a breakpoint or an ftrace call
 * currently stands.  Then the probed instruction is classified::
 *
 *      refused         it traps on its own (int3, int n, ud*), it changes
 *                      privilege or segment (iret, far jumps and calls,
 *                      vmcall), it masks interrupts for the next one (mov
 *                      ss), or it jumps through memory;
 *      emulated        it changes the flow or IF: jmp, call, ret, jcc, loop,
 *                      jmp/call through a register, cli, sti, pushf, popf.
 *                      The breakpoint handler does its effect on pt_regs;
 *      stepped         anything else.  A copy runs out of line, in a slot,
 *                      followed by an int3 that brings the CPU back, or
 *                      (boosted) by a jump back after the instruction:
 *
 *                          slot:       [ insn copy, %rip operand fixed ][ int3 ]
 *                          slot + 16:  [ insn copy, %rip operand fixed ][ jmp ]
 *
 * See core.c for the hit path and Documentation/trace/kprobes.rst.
 */
#include <linux/kprobes_arch.h>
#include <linux/kallsyms.h>
#include <linux/ftrace.h>
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <linux/extable.h>
#include <asm/extable.h>
#include <asm/insn.h>
#include <asm/insn-eval.h>
#include <asm/ibt.h>
#include <asm/text-patching.h>

#include "kprobes.h"

/*
 * Put back in @buf, which holds the @len bytes of text at @addr, what
 * kprobes changed there: the first byte of each site (its int3), and the
 * bytes covered by the jump of each optimized site.
 */
static void kpx86_recover(unsigned long addr, u8 *buf, int len)
{
	unsigned long pos;

	for (pos = addr - KPROBE_OPT_MAX_LEN + 1; pos < addr + len; pos++) {
		struct kprobe_site *s = kprobe_site_lookup((void *)pos);
		int from, to, i;

		if (!s || (s->state & KPROBE_SITE_FTRACE))
			continue;
		if (pos >= addr)
			buf[pos - addr] = s->arch.opcode;
		if (s->opt != KPROBE_OPT_DONE)
			continue;
		from = max(addr, pos) - pos;
		to = min(addr + len, pos + s->arch.opt_len) - pos;
		for (i = from; i < to; i++)
			buf[pos + i - addr] = s->arch.orig[i];
	}
}

/*
 * The original bytes of the instruction at @addr: the text, except for
 * what kprobes or ftrace put there.  An fentry call site is a 5-byte nop
 * at heart.  Call with kprobe_mutex held.
 */
int kpx86_read_insn(unsigned long addr, u8 buf[MAX_INSN_SIZE])
{
	if (copy_from_kernel_nofault(buf, (void *)addr, MAX_INSN_SIZE))
		return -EFAULT;
	if (ftrace_location(addr) == addr) {
		memcpy(buf, x86_nops[5], 5);
		return 0;
	}
	kpx86_recover(addr, buf, MAX_INSN_SIZE);
	return 0;
}

int kpx86_decode_at(unsigned long addr, u8 buf[MAX_INSN_SIZE], struct insn *insn)
{
	int ret = kpx86_read_insn(addr, buf);

	if (ret)
		return ret;
	return insn_decode_kernel(insn, buf) < 0 ? -EILSEQ : 0;
}

/*
 * Decode from the start of the function up to @addr; *@start is then the
 * start of the instruction that holds @addr (@addr itself on a boundary,
 * where @insn is left undecoded).  Returns 0, or an errno when the bytes
 * on the way do not decode.
 */
static int kpx86_insn_start(unsigned long addr, unsigned long *start,
			    struct insn *insn)
{
	unsigned long pos, offset;
	u8 buf[MAX_INSN_SIZE];

	if (!kallsyms_lookup_size_offset(addr, NULL, &offset))
		return -ENOENT;
	for (pos = addr - offset; pos < addr; pos += insn->length) {
		if (kpx86_decode_at(pos, buf, insn))
			return -EILSEQ;
		if (kpx86_kgdb_break(pos, insn))
			return -EILSEQ;
		if (pos + insn->length > addr)
			break;
	}
	*start = pos;
	return 0;
}

/* Is @addr an instruction start? */
static bool kpx86_on_boundary(unsigned long addr)
{
	unsigned long start;
	struct insn insn;

	return !kpx86_insn_start(addr, &start, &insn) && start == addr;
}

int arch_kprobe_insn_around(unsigned long addr, unsigned long *start,
			    unsigned long *next)
{
	struct insn insn;
	int ret = kpx86_insn_start(addr, start, &insn);

	if (ret)
		return ret;
	if (*start == addr)	/* on a boundary: nothing to point at */
		return -EINVAL;
	*next = *start + insn.length;
	return 0;
}

/* Instructions that trap by design; stepping them is meaningless. */
bool kpx86_is_trap(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];

	if (op == KPX86_OP_TWOBYTE) {
		op = insn->opcode.bytes[1];
		return op == KPX86_OP0F_UD2 || op == KPX86_OP0F_UD1 ||
		       op == KPX86_OP0F_UD0;
	}
	return op == INT3_INSN_OPCODE || op == KPX86_OP_INT_N ||
	       op == KPX86_OP_INTO || op == KPX86_OP_INT1;
}

/* Decode a relative branch displacement, whatever its width. */
static s32 kpx86_rel(struct insn *insn)
{
	switch (insn->immediate.nbytes) {
	case 1:
		return (s8)insn->immediate.value;
	case 2:
		return (s16)insn->immediate.value;
	default:
		return insn->immediate.value;
	}
}

/* Classify ff /2 and ff /4 through a register; other ff forms step. */
static int kpx86_classify_grp5(struct arch_kprobe_site *a, struct insn *insn)
{
	u8 modrm = insn->modrm.bytes[0];
	int off;

	switch (X86_MODRM_REG(modrm)) {
	case KPX86_MODRM_REG_CALL:
		a->op = KPX86_CALL_REG;
		break;
	case KPX86_MODRM_REG_JMP:
		a->op = KPX86_JMP_REG;
		break;
	case KPX86_MODRM_REG_CALLF:
	case KPX86_MODRM_REG_JMPF:
		return -EOPNOTSUPP;
	default:
		return 0;
	}
	/* Through memory, or with an odd operand size: not emulated. */
	if (X86_MODRM_MOD(modrm) != 3 || insn->addr_bytes != sizeof(long))
		return -EOPNOTSUPP;
	off = insn_get_modrm_rm_off(insn, NULL);
	if (off < 0)
		return -EOPNOTSUPP;
	a->cond = off;
	return 0;
}

/* Two-byte opcodes: jcc rel32 is emulated, VMX calls are refused. */
static int kpx86_classify_0f(struct arch_kprobe_site *a, struct insn *insn)
{
	u8 op = insn->opcode.bytes[1];
	u8 modrm = insn->modrm.bytes[0];

	if ((op & KPX86_OP0F_JCC32_MASK) == KPX86_OP0F_JCC32) {
		a->op = KPX86_JCC;
		a->cond = op & 0xf;
		a->disp = kpx86_rel(insn);
	} else if (op == KPX86_OP0F_GRP7 && X86_MODRM_MOD(modrm) == 3 &&
		   X86_MODRM_REG(modrm) == 0) {
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Fill a->op and its operands from the decoded instruction. */
int kpx86_classify(struct arch_kprobe_site *a, struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];

	a->op = KPX86_STEP;
	switch (op) {
	case KPX86_OP_TWOBYTE:
		return kpx86_classify_0f(a, insn);
	case KPX86_OP_JCC8_FIRST ... KPX86_OP_JCC8_LAST:
		a->op = KPX86_JCC;
		a->cond = op & 0xf;
		a->disp = kpx86_rel(insn);
		break;
	case KPX86_OP_LOOP_FIRST ... KPX86_OP_LOOP_LAST:
		a->op = KPX86_LOOP;
		a->cond = op & 0x3;
		a->asize = insn->addr_bytes * 8;
		a->disp = kpx86_rel(insn);
		break;
	case CALL_INSN_OPCODE:
		a->op = KPX86_CALL;
		a->disp = kpx86_rel(insn);
		break;
	case JMP32_INSN_OPCODE:
	case JMP8_INSN_OPCODE:
		a->op = KPX86_JMP;
		a->disp = kpx86_rel(insn);
		break;
	case KPX86_OP_RET_IMM16:
	case RET_INSN_OPCODE:
		a->op = KPX86_RET;
		a->disp = op == KPX86_OP_RET_IMM16 ? (u16)insn->immediate.value : 0;
		break;
	case KPX86_OP_CLI:
	case KPX86_OP_STI:
	case KPX86_OP_PUSHF:
	case KPX86_OP_POPF:
		a->op = KPX86_IF;
		a->cond = op;
		break;
	case KPX86_OP_GRP5:
		return kpx86_classify_grp5(a, insn);
	case KPX86_OP_FAR_CALL:
	case KPX86_OP_FAR_JMP:
	case KPX86_OP_FAR_RET_IMM16:
	case KPX86_OP_FAR_RET:
	case KPX86_OP_IRET:
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Copy the instruction at @addr (original bytes @orig, decoded in @insn)
 * to @dst, where it will run at @run: a %rip-relative operand must still
 * reach the same target from there.
 */
int kpx86_relocate(u8 *dst, const u8 *orig, struct insn *insn,
		   unsigned long addr, unsigned long run)
{
	memcpy(dst, orig, insn->length);
	if (insn_rip_relative(insn)) {
		s64 disp = (s64)insn->displacement.value + (s64)addr - (s64)run;
		s32 fixed = disp;

		if (fixed != disp)
			return -ERANGE;
		memcpy(dst + insn_offset_displacement(insn), &fixed, sizeof(fixed));
	}
	return 0;
}

/* Write at @dst, which will run at @run, a jmp rel32 to @to. */
void kpx86_put_jmp(u8 *dst, unsigned long run, unsigned long to)
{
	s32 rel = to - (run + JMP32_INSN_SIZE);

	dst[0] = JMP32_INSN_OPCODE;
	memcpy(dst + 1, &rel, sizeof(rel));
}

/*
 * Fixups that cannot follow a copy: the zero-padding load's handler
 * decodes the instruction at the trapping address (the int3, once the
 * step is rewound), and a machine check is graded by the fixup type at
 * the address it hit (the slot's: none), so an MCE-safe copy would panic
 * where the instruction in place recovers.
 */
static bool kpx86_fixup_needs_place(unsigned long addr)
{
	switch (ex_get_fixup_type(addr)) {
	case EX_TYPE_ZEROPAD:
	case EX_TYPE_DEFAULT_MCE_SAFE:
	case EX_TYPE_FAULT_MCE_SAFE:
	case EX_TYPE_RDMSR_IN_MCE:
	case EX_TYPE_WRMSR_IN_MCE:
		return true;
	default:
		return false;
	}
}

/*
 * May the copy jump straight back instead of trapping after it?  Not if
 * the instruction may fault expecting a fixup (the fixup is found by the
 * original address, which only the step state can give back), and only
 * if the copy and the jump fit in the second half of the slot.
 */
static bool kpx86_boostable(struct insn *insn, unsigned long addr)
{
	return insn->length + JMP32_INSN_SIZE <= KPROBE_INSN_SLOT_SIZE - KPX86_BOOST_OFFSET &&
	       !search_exception_tables(addr);
}

/*
 * Fill the slot of a stepped instruction:
 *
 *	slot + 0:			[ copy ][ int3 ]	for a step
 *	slot + KPX86_BOOST_OFFSET:	[ copy ][ jmp addr + len ]	boosted
 *
 * The unused bytes are int3.
 */
static int kpx86_setup_slot(struct kprobe_site *s, u8 *orig, struct insn *insn)
{
	struct arch_kprobe_site *a = &s->arch;
	unsigned long addr = (unsigned long)s->addr, slot, boost;
	u8 img[KPROBE_INSN_SLOT_SIZE];
	int ret;

	a->slot = kprobe_insn_slot_alloc();
	if (!a->slot)
		return -ENOMEM;
	slot = (unsigned long)a->slot;
	boost = slot + KPX86_BOOST_OFFSET;

	memset(img, INT3_INSN_OPCODE, sizeof(img));
	ret = kpx86_relocate(img, orig, insn, addr, slot);
	if (!ret && kpx86_boostable(insn, addr) &&
	    !kpx86_relocate(img + KPX86_BOOST_OFFSET, orig, insn, addr, boost)) {
		kpx86_put_jmp(img + KPX86_BOOST_OFFSET + a->len, boost + a->len,
			      addr + a->len);
		a->boost = true;
	}
	if (ret) {
		kprobe_insn_slot_free(a->slot);
		a->slot = NULL;
		return ret;
	}
	perf_event_text_poke(a->slot, NULL, 0, img, sizeof(img));
	text_poke(a->slot, img, sizeof(img));
	return 0;
}

/*
 * Check and analyse the instruction of a new site, and prepare its copy.
 * kprobe_mutex and text_mutex are held.
 */
int arch_prepare_kprobe_site(struct kprobe_site *s)
{
	struct arch_kprobe_site *a = &s->arch;
	unsigned long addr = (unsigned long)s->addr;
	u8 buf[MAX_INSN_SIZE + 1];
	struct insn insn;
	int ret;

	if (!kpx86_on_boundary(addr))
		return -EILSEQ;
	ret = kpx86_decode_at(addr, buf, &insn);
	if (ret)
		return ret;
	if (kpx86_is_trap(&insn) || insn_has_emulate_prefix(&insn) ||
	    insn_masking_exception(&insn) || kpx86_cfi_insn(addr, &insn) ||
	    kpx86_fixup_needs_place(addr))
		return -EINVAL;
	/* A 32-bit %rip-relative address would not follow the copy. */
	if (insn_rip_relative(&insn) && insn.addr_bytes != sizeof(long))
		return -EOPNOTSUPP;

	memset(a, 0, sizeof(*a));
	a->opcode = buf[0];
	a->len = insn.length;
	ret = kpx86_classify(a, &insn);
	if (ret)
		return ret;
	if (a->op != KPX86_STEP)
		return 0;
	return kpx86_setup_slot(s, buf, &insn);
}

void arch_release_kprobe_site(struct kprobe_site *s)
{
	struct arch_kprobe_site *a = &s->arch;

	if (a->slot)
		perf_event_text_poke(a->slot, a->slot, KPROBE_INSN_SLOT_SIZE, NULL, 0);
	kprobe_insn_slot_free(a->slot);
	a->slot = NULL;
	kpx86_release_detour(s);
}

/*
 * With IBT, a function starts with endbr64: its entry, for probes, is the
 * instruction after it (offsets 0 and 4 both mean the entry).
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr, unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long entry = 0;
	u32 first;

	if (copy_from_kernel_nofault(&first, (void *)addr, sizeof(first)))
		return NULL;
	if (is_endbr(&first)) {
		entry = ENDBR_INSN_SIZE;
		offset = offset ?: entry;	/* SYM+0 is the entry too */
	}
	*on_func_entry = offset == entry;
	return (kprobe_opcode_t *)(addr + offset);
}
