// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: arm64 kprobes: preparing a site at registration
 *
 * arm64 kprobes: what happens at registration.  A site's instruction is
 * read and classified (decode.c); a stepped one gets an out-of-line slot
 * holding its copy and the BRK that ends the step::
 *
 *      slot + 0:  the probed instruction
 *      slot + 4:  BRK #KPROBES_BRK_SS_IMM      -> kprobe_ss_brk_handler()
 *
 * Besides what the classifier refuses, a site may not be an instruction
 * with an exception-table entry (its fixup is found by the pc of the
 * fault, which would be the slot's) nor lie inside an exclusive sequence.
 *
 * Arming writes BRK #KPROBES_BRK_IMM over the instruction; disarming
 * writes it back.  The original instruction is arbitrary, so the
 * architecture does not allow it to be swapped while another CPU may be
 * executing it: both writes go through aarch64_insn_patch_text(), which
 * stops the other CPUs.  The core holds kprobe_mutex, cpus_read_lock() and
 * text_mutex around every hook here.  See Documentation/trace/kprobes.rst.
 */
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes_arch.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/debug-monitors.h>
#include <asm/insn.h>
#include <asm/text-patching.h>
#include <asm/sections.h>

#include "a64.h"

static int a64_read_insn(const void *addr, u32 *insn)
{
	__le32 word;

	if (copy_from_kernel_nofault(&word, addr, sizeof(word)))
		return -EFAULT;
	*insn = le32_to_cpu(word);
	return 0;
}

/* How many instructions of the same function lie before @addr. */
static unsigned int a64_insns_before(unsigned long addr)
{
	unsigned long size, offset;

	if (!kallsyms_lookup_size_offset(addr, &size, &offset))
		return 0;
	return offset / AARCH64_INSN_SIZE;
}

static int a64_fill_slot(struct arch_kprobe_site *a)
{
	kprobe_opcode_t *slot = kprobe_insn_slot_alloc();
	int ret;

	if (!slot)
		return -ENOMEM;
	ret = aarch64_insn_patch_text_nosync(slot, a->insn);
	if (!ret)
		ret = aarch64_insn_patch_text_nosync(slot + 1, BRK64_OPCODE_KPROBES_SS);
	if (ret) {
		kprobe_insn_slot_free(slot);
		return ret;
	}
	a->slot = slot;
	return 0;
}

/*
 * An instruction that may fault on purpose (a uaccess, a nofault read)
 * counts on its exception-table entry, which is looked up by the pc of
 * the fault.  Run from a slot it would find none, and a fault on a user
 * address would be handled with interrupts masked; simulated, the fault
 * would be taken in the BRK exception.  Such an instruction is refused.
 */
static bool a64_has_fixup(unsigned long addr)
{
	return search_exception_tables(addr) != NULL;
}

int arch_prepare_kprobe_site(struct kprobe_site *s)
{
	struct arch_kprobe_site *a = &s->arch;
	unsigned long addr = (unsigned long)s->addr;
	enum a64_verdict verdict;
	int ret;

	if (!IS_ALIGNED(addr, AARCH64_INSN_SIZE))
		return -EILSEQ;
	if (a64_has_fixup(addr))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	ret = a64_read_insn(s->addr, &a->insn);
	if (ret)
		return ret;

	verdict = a64_classify(a->insn, &a->simulate);
	if (verdict == A64_REFUSE)
		return -EINVAL;
	if (a64_in_exclusive_sequence(s->addr, a64_insns_before(addr)))
		return -EINVAL;
	if (verdict == A64_SIMULATE)
		return 0;
	return a64_fill_slot(a);
}

void arch_release_kprobe_site(struct kprobe_site *s)
{
	kprobe_insn_slot_free(s->arch.slot);
	s->arch.slot = NULL;
}

/* A step runs with interrupts masked: no task is ever preempted in a slot. */
bool arch_kprobe_site_preemptible(struct kprobe_site *s)
{
	return false;
}

enum kprobe_hit_path arch_kprobe_site_path(struct kprobe_site *s)
{
	return s->arch.simulate ? KPROBE_PATH_EMULATE : KPROBE_PATH_STEP;
}

/*
 * Write the BRK (@arm) or the original instruction at each site.  All of
 * them go in one stop_machine() when the arrays for it can be had, one
 * site at a time otherwise.  Returns the number of stop_machine() calls.
 */
static unsigned int a64_patch_sites(struct kprobe_site **sites, unsigned int n,
			    bool arm)
{
	u32 brk = BRK64_OPCODE_KPROBES, *insns;
	unsigned int i, rounds;
	void **addrs;

	addrs = kvmalloc_array(n, sizeof(*addrs), GFP_KERNEL);
	insns = kvmalloc_array(n, sizeof(*insns), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		u32 new = arm ? brk : sites[i]->arch.insn;

		if (addrs && insns) {
			addrs[i] = sites[i]->addr;
			insns[i] = new;
		} else {
			void *addr = sites[i]->addr;

			WARN_ON_ONCE(aarch64_insn_patch_text(&addr, &new, 1));
		}
	}
	if (addrs && insns)
		WARN_ON_ONCE(aarch64_insn_patch_text(addrs, insns, n));
	for (i = 0; i < n; i++) {
		u32 old = arm ? sites[i]->arch.insn : brk;
		u32 new = arm ? brk : sites[i]->arch.insn;

		perf_event_text_poke(sites[i]->addr, &old, AARCH64_INSN_SIZE,
				     &new, AARCH64_INSN_SIZE);
	}
	rounds = addrs && insns ? 1 : n;
	kvfree(insns);
	kvfree(addrs);
	return rounds;
}

unsigned int arch_arm_kprobe_sites(struct kprobe_site **sites, unsigned int n)
{
	return a64_patch_sites(sites, n, true);
}

unsigned int arch_disarm_kprobe_sites(struct kprobe_site **sites, unsigned int n)
{
	return a64_patch_sites(sites, n, false);
}

/* Every instruction is four bytes, aligned. */
int arch_kprobe_insn_around(unsigned long addr, unsigned long *start,
			    unsigned long *next)
{
	*start = addr & ~(unsigned long)(AARCH64_INSN_SIZE - 1);
	*next = *start + AARCH64_INSN_SIZE;
	return *start == addr ? -EINVAL : 0;
}

/* The bl of the patchable entry: after "mov x9, x30", and BTI C if any. */
#define A64_FTRACE_SITE_MAX	(2 * AARCH64_INSN_SIZE)

/*
 * A probe on a function (@offset 0) that ftrace can hook goes on its ftrace
 * call, the bl of the patchable entry: it is then hit through ftrace
 * (ftrace.c), with no BRK.  The instructions up to that bl are the entry
 * too.  A site further in than an entry's bl can be is not the entry's.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr, unsigned long offset,
					 bool *on_func_entry)
{
	unsigned long site = 0;

	if (IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		site = ftrace_location(addr);
	if (site - addr > A64_FTRACE_SITE_MAX)
		site = 0;
	*on_func_entry = offset == 0 ||
			 (site && IS_ALIGNED(offset, AARCH64_INSN_SIZE) &&
			  addr + offset <= site);
	if (offset == 0 && site)
		return (kprobe_opcode_t *)site;
	return (kprobe_opcode_t *)(addr + offset);
}

/*
 * Code that runs before the kernel can take a BRK (the exception entry),
 * with the MMU off or in another address space (the identity maps), or at
 * EL2.  An area the kernel was built without is empty; only running out of
 * memory makes the blacklist fail.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	static const struct { char *start, *end; } areas[] __initconst = {
		{ __entry_text_start, __entry_text_end },
		{ __irqentry_text_start, __irqentry_text_end },
		{ __idmap_text_start, __idmap_text_end },
		{ __hyp_idmap_text_start, __hyp_idmap_text_end },
		{ __hyp_text_start, __hyp_text_end },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(areas); i++) {
		if (kprobe_add_area_blacklist((unsigned long)areas[i].start,
					      (unsigned long)areas[i].end) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}
