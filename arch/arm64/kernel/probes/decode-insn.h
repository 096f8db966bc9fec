/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The classifier's answer in the form uprobes.c asks for it: refused, done
 * by a simulation (no out-of-line slot needed), or stepped out of line.
 */
#ifndef _ARM64_KERNEL_PROBES_DECODE_INSN_H
#define _ARM64_KERNEL_PROBES_DECODE_INSN_H

#include <asm/probes.h>

enum probe_insn { INSN_REJECTED, INSN_GOOD_NO_SLOT, INSN_GOOD };

enum probe_insn arm_probe_decode_insn(u32 insn,
				      struct arch_probe_insn *api);

#endif /* _ARM64_KERNEL_PROBES_DECODE_INSN_H */
