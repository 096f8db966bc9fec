/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * x86 definitions for kprobes: what a probe site keeps of the probed
 * instruction, and the per-CPU state of the breakpoint path.
 * See arch/x86/kernel/kprobes/core.c.
 */
#ifndef _ASM_X86_KPROBES_H
#define _ASM_X86_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>
#include <asm/text-patching.h>
#include <asm/insn.h>

struct pt_regs;
struct kprobe_site;

typedef u8 kprobe_opcode_t;

/*
 * An out-of-line slot: the instruction (at most MAX_INSN_SIZE bytes) and
 * the int3 that ends the single step; then, at KPX86_BOOST_OFFSET, the
 * instruction again and a jump back (see decode.c).
 */
#define KPROBE_INSN_SLOT_SIZE	32
#define KPX86_BOOST_OFFSET	16

/*
 * Jump optimization: a jump covers whole instructions, at least its own
 * 5 bytes, so at most this many; a detour buffer holds the register save
 * and restore, the covered instructions and the jump back (see jump.c).
 */
#define KPROBE_OPT_MAX_LEN	(JMP32_INSN_SIZE + MAX_INSN_SIZE - 1)
#define KPROBE_DETOUR_SIZE	256

/* What a hit does with the probed instruction: arch_kprobe_site::op. */
enum kprobe_x86_op {
	KPX86_STEP,		/* run the copy in the slot, trap after it */
	KPX86_JMP,		/* jmp rel: ip = next + disp */
	KPX86_CALL,		/* call rel: push next, ip = next + disp */
	KPX86_RET,		/* ret [imm16]: ip = pop, sp += disp */
	KPX86_JCC,		/* jcc rel: cond = condition code */
	KPX86_LOOP,		/* loop/loope/loopne/jcxz: cond = opcode & 3 */
	KPX86_JMP_REG,		/* jmp *%reg: cond = register number */
	KPX86_CALL_REG,		/* call *%reg: cond = register number */
	KPX86_IF,		/* cli, sti, pushf, popf: cond = opcode */
};

/**
 * struct arch_kprobe_site - the probed instruction of one site
 * @slot: the out-of-line copy for KPX86_STEP, else NULL
 * @opcode: the original first byte, replaced by int3 while armed
 * @len: length of the instruction
 * @op: enum kprobe_x86_op
 * @cond: operand of @op (see enum kprobe_x86_op)
 * @asize: address size in bits, for KPX86_LOOP
 * @boost: the slot has a boosted copy, which jumps back by itself
 * @disp: branch displacement, or stack bytes popped by ret imm16
 * @detour: the detour buffer of jump optimization, or NULL
 * @opt_len: bytes covered by the jump (whole instructions)
 * @via_detour: breakpoint hits resume in the detour's copy of the covered
 *	instructions (while the jump is being written or taken back)
 * @orig: the original bytes covered by the jump
 */
struct arch_kprobe_site {
	kprobe_opcode_t	*slot;
	kprobe_opcode_t	opcode;
	u8		len;
	u8		op;
	u8		cond;
	u8		asize;
	bool		boost;
	s32		disp;
	kprobe_opcode_t	*detour;
	u8		opt_len;
	bool		via_detour;
	u8		orig[KPROBE_OPT_MAX_LEN];
};

int kprobe_int3_handler(struct pt_regs *regs);
int kprobe_fault_handler(struct pt_regs *regs, int trapnr);
int kprobe_step_trap_rewind(struct pt_regs *regs);

#else /* !CONFIG_KPROBES */
#include <linux/errno.h>

struct pt_regs;

static inline int kprobe_step_trap_rewind(struct pt_regs *regs)
{
	return -ENOENT;
}
#endif /* CONFIG_KPROBES */
#endif /* _ASM_X86_KPROBES_H */
