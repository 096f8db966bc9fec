/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the x86 kprobes files; see core.c and decode.c.
 * Prefixes: kpx86_ (kprobes on x86, inside these files), arch_ (the hooks
 * the generic core calls), kprobe_ (the core's, <linux/kprobes_arch.h>).
 */
#ifndef _X86_KERNEL_KPROBES_KPROBES_H
#define _X86_KERNEL_KPROBES_KPROBES_H

#include <linux/kgdb.h>
#include <linux/kprobes_arch.h>
#include <asm/cfi.h>
#include <asm/insn.h>
#include <asm/text-patching.h>

/*
 * The opcodes the kprobes code looks at, by name (Intel SDM vol. 2,
 * appendix A), beside <asm/text-patching.h>'s INT3, CALL, JMP32, JMP8
 * and RET.  KPX86_OP0F_* are second bytes after KPX86_OP_TWOBYTE.
 */
#define KPX86_OP_TWOBYTE	0x0f
#define KPX86_OP_JCC8_FIRST	0x70	/* jo rel8 .. jg rel8 */
#define KPX86_OP_JCC8_LAST	0x7f
#define KPX86_OP_FAR_CALL	0x9a
#define KPX86_OP_PUSHF		0x9c
#define KPX86_OP_POPF		0x9d
#define KPX86_OP_RET_IMM16	0xc2
#define KPX86_OP_FAR_RET_IMM16	0xca
#define KPX86_OP_FAR_RET	0xcb
#define KPX86_OP_INT_N		0xcd
#define KPX86_OP_INTO		0xce
#define KPX86_OP_IRET		0xcf
#define KPX86_OP_LOOP_FIRST	0xe0	/* loopne, loope, loop, jrcxz */
#define KPX86_OP_LOOP_LAST	0xe3
#define KPX86_OP_FAR_JMP	0xea
#define KPX86_OP_INT1		0xf1
#define KPX86_OP_CLI		0xfa
#define KPX86_OP_STI		0xfb
#define KPX86_OP_GRP5		0xff	/* inc, dec, call, jmp, push r/m */
#define KPX86_OP0F_GRP7		0x01	/* vmcall and friends at mod 3, reg 0 */
#define KPX86_OP0F_UD2		0x0b
#define KPX86_OP0F_JCC32_MASK	0xf0	/* 0f 80 .. 0f 8f: jcc rel32 */
#define KPX86_OP0F_JCC32	0x80
#define KPX86_OP0F_UD1		0xb9
#define KPX86_OP0F_UD0		0xff
#define KPX86_MODRM_REG_CALL	2	/* of KPX86_OP_GRP5 */
#define KPX86_MODRM_REG_CALLF	3
#define KPX86_MODRM_REG_JMP	4
#define KPX86_MODRM_REG_JMPF	5

#ifdef CONFIG_KGDB
/* A breakpoint that kgdb planted: the code is not ours to probe. */
static inline bool kpx86_kgdb_break(unsigned long addr, struct insn *insn)
{
	return insn->opcode.bytes[0] == INT3_INSN_OPCODE && kgdb_has_hit_break(addr);
}
#else
static inline bool kpx86_kgdb_break(unsigned long addr, struct insn *insn)
{
	return false;
}
#endif

#ifdef CONFIG_CFI_CLANG
/*
 * A CFI check loads the expected type with a movl (then an addl) that the
 * CFI trap handler decodes, 12 (6) bytes before its ud2: leave them alone.
 */
static inline bool kpx86_cfi_insn(unsigned long addr, struct insn *insn)
{
	if (insn->opcode.value == 0xba)
		return is_cfi_trap(addr + 12);
	if (insn->opcode.value == 0x03)
		return is_cfi_trap(addr + 6);
	return false;
}
#else
static inline bool kpx86_cfi_insn(unsigned long addr, struct insn *insn)
{
	return false;
}
#endif

/* decode.c */
int kpx86_read_insn(unsigned long addr, u8 buf[MAX_INSN_SIZE]);
int kpx86_decode_at(unsigned long addr, u8 buf[MAX_INSN_SIZE], struct insn *insn);
bool kpx86_is_trap(struct insn *insn);
int kpx86_classify(struct arch_kprobe_site *a, struct insn *insn);
int kpx86_relocate(u8 *dst, const u8 *orig, struct insn *insn,
		   unsigned long addr, unsigned long run);
void kpx86_put_jmp(u8 *dst, unsigned long run, unsigned long to);

/* jump.c */
#ifdef CONFIG_OPTPROBES
kprobe_opcode_t *kpx86_detour_tail(struct kprobe_site *s);

static inline void kpx86_release_detour(struct kprobe_site *s)
{
	kprobe_detour_free(s->arch.detour);
	s->arch.detour = NULL;
}
#else
static inline kprobe_opcode_t *kpx86_detour_tail(struct kprobe_site *s)
{
	return NULL;
}

static inline void kpx86_release_detour(struct kprobe_site *s) { }
#endif

#endif /* _X86_KERNEL_KPROBES_KPROBES_H */
