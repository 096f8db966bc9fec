/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the x86 kprobes files; see core.c and decode.c. */
#ifndef _X86_KERNEL_KPROBES_KPROBES_H
#define _X86_KERNEL_KPROBES_KPROBES_H

#include <linux/kgdb.h>
#include <asm/cfi.h>
#include <asm/insn.h>

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

#endif /* _X86_KERNEL_KPROBES_KPROBES_H */
