// SPDX-License-Identifier: GPL-2.0-or-later
/**
 * DOC: x86 kprobes: jump optimization
 *
 * An optimized site's int3 is replaced by a 5-byte jump to a detour
 * buffer (the generic state machine is in kernel/kprobes/opt.c)::
 *
 *      addr:   jmp detour              (covers the instructions [addr, addr + len))
 *
 *      detour: head    save pt_regs, kpx86_detour_hit(site, regs), restore
 *              tail    copy of [addr, addr + len), %rip operands fixed
 *                      jmp addr + len
 *
 * While the site is queued, or being taken back to a breakpoint, its int3
 * hits also leave through the tail (arch_kprobe_site::via_detour), so that
 * no task enters the covered bytes.
 *
 * The covered instructions are whole, at least 5 bytes, within the
 * function, and each could be boosted (no exception fixup, no branch).
 * No other site lies inside, and nothing may land inside: no jump of the
 * function or of its other part (NAME.cold), no jump table, no jump
 * label's target and no exception fixup.  No text patched by someone else
 * (jump labels, static calls, alternatives, fentry) overlaps them.
 */
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes_arch.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/static_call.h>
#include <asm/extable.h>
#include <asm/text-patching.h>

#include "kprobes.h"

extern const u8 kpx86_detour_template[], kpx86_detour_site[];
extern const u8 kpx86_detour_call[], kpx86_detour_template_end[];

#define KPX86_DETOUR_HEAD	(kpx86_detour_template_end - kpx86_detour_template)

__visible void kpx86_detour_hit(struct kprobe_site *s, struct pt_regs *regs);

/*
 * Call every enabled pre handler of @s.  The detour goes on after the
 * probed instruction whatever a handler does to regs->ip, so a redirect
 * cannot be followed: it is counted as a miss of the probe that asked for
 * it, ip is put back, and the other probes still run.
 */
static void kpx86_detour_handlers(struct kprobe_site *s, struct pt_regs *regs)
{
	unsigned long ip = regs->ip;
	struct kprobe *p;

	list_for_each_entry_rcu(p, &s->probes, list, true) {
		if (kprobe_disabled(p) || !p->pre_handler)
			continue;
		__this_cpu_write(current_kprobe, p);
		if (p->pre_handler(p, regs)) {
			p->nmissed++;
			p->nmissed_skipped++;
			regs->ip = ip;
		}
	}
	__this_cpu_write(current_kprobe, NULL);
}
NOKPROBE_SYMBOL(kpx86_detour_handlers);

/* Called from the head of the detour of @s, in the probed context. */
__visible void kpx86_detour_hit(struct kprobe_site *s, struct pt_regs *regs)
{
	/* The head parked the flags in the ss slot. */
	regs->flags = regs->ss;
	regs->ss = __KERNEL_DS;
	regs->cs = __KERNEL_CS;
	regs->sp = (unsigned long)(regs + 1);
	regs->orig_ax = ~0UL;
	/* As after a breakpoint. */
	regs->ip = (unsigned long)s->addr + INT3_INSN_SIZE;

	preempt_disable_notrace();
	if (kprobe_running()) {
		kprobe_site_missed(s);
	} else {
		u64 cost_t0 = kprobe_cost_begin(s);

		kpx86_detour_handlers(s, regs);
		kprobe_cost_end(s, cost_t0, NULL);	/* no redirect is followed */
	}
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kpx86_detour_hit);

/* Where a breakpoint hit resumes while the site uses its detour. */
kprobe_opcode_t *kpx86_detour_tail(struct kprobe_site *s)
{
	return s->arch.detour + KPX86_DETOUR_HEAD;
}
NOKPROBE_SYMBOL(kpx86_detour_tail);

/* A jump out of the function, to a retpoline: an indirect jump in disguise. */
static bool kpx86_jumps_indirect(unsigned long target)
{
	char name[KSYM_NAME_LEN];

	return !lookup_symbol_name(target, name) &&
	       str_has_prefix(name, "__x86_indirect_");
}

/* Does @target land inside the jump at @addr, past its first byte? */
static bool kpx86_inside(unsigned long target, unsigned long addr, int len)
{
	return target > addr && target < addr + len;
}

/* Where a relative branch of the function goes, or 0 for other insns. */
static unsigned long kpx86_branch_target(struct insn *insn, unsigned long pos)
{
	u8 op = insn->opcode.bytes[0];

	if ((op >= KPX86_OP_JCC8_FIRST && op <= KPX86_OP_JCC8_LAST) ||
	    (op >= KPX86_OP_LOOP_FIRST && op <= KPX86_OP_LOOP_LAST) ||
	    op == CALL_INSN_OPCODE || op == JMP32_INSN_OPCODE ||
	    op == JMP8_INSN_OPCODE ||
	    (op == KPX86_OP_TWOBYTE &&
	     (insn->opcode.bytes[1] & KPX86_OP0F_JCC32_MASK) == KPX86_OP0F_JCC32))
		return pos + insn->length + insn->immediate.value;
	return 0;
}

/*
 * May the function [start, end) go on running with [addr, addr + len)
 * replaced by a jump?  Nothing in it may transfer control inside.
 */
static int kpx86_check_function(unsigned long start, unsigned long end,
				unsigned long addr, int len)
{
	unsigned long pos, target;
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;

	for (pos = start; pos < end; pos += insn.length) {
		if (kpx86_decode_at(pos, buf, &insn))
			return -EILSEQ;
		if (insn.opcode.bytes[0] == KPX86_OP_GRP5 &&
		    (X86_MODRM_REG(insn.modrm.value) == KPX86_MODRM_REG_JMP ||
		     X86_MODRM_REG(insn.modrm.value) == KPX86_MODRM_REG_JMPF))
			return -EBUSY;		/* jump tables may go anywhere */
		target = kpx86_branch_target(&insn, pos);
		if (kpx86_inside(target, addr, len))
			return -EBUSY;
		if (target && (target < start || target >= end) &&
		    insn.opcode.bytes[0] != CALL_INSN_OPCODE &&
		    kpx86_jumps_indirect(target))
			return -EBUSY;
	}
	return 0;
}

/*
 * What else may land inside, and what looking costs at registration (the
 * checks run once the cheaper ones above passed, with kprobe_mutex held):
 *
 * - the other part of the function.  GCC moves the unlikely paths of NAME
 *   to NAME.cold, in .text.unlikely, and jumps back from there: the part
 *   is found by name (a bisection of kallsyms' sorted names; in vmlinux,
 *   every symbol of that name, those of static functions of other files
 *   too) and decoded like the function, which costs about as much again;
 * - jump labels: one pass over the jump entries of the text that holds
 *   the probe (vmlinux's __jump_table, or the module's), one target
 *   compared per 16-byte entry;
 * - exception fixups: one pass over its exception table (vmlinux's
 *   __ex_table, or the module's), one fixup compared per 12-byte entry.
 *
 * A jump label or a fixup only ever goes to the text of its own table.
 * The passes decode nothing, one compare an entry: the check config's
 * vmlinux has 420 exception entries and no jump labels; a distribution
 * kernel has some thousands of the first and tens of thousands of the
 * second, a pass of tens of microseconds (an estimate), less than the
 * text pokes and grace periods of the registration itself.
 */
struct kpx86_cover_span {
	unsigned long addr;
	int len;
};

/* kallsyms_on_each_match_symbol() callback: check the part at @start. */
static int kpx86_check_part(void *data, unsigned long start)
{
	const struct kpx86_cover_span *c = data;
	unsigned long size, offset;

	if (!kallsyms_lookup_size_offset(start, &size, &offset) || offset)
		return -ENOENT;
	return kpx86_check_function(start, start + size, c->addr, c->len);
}

#define KPX86_PARTS_MAX	8

/*
 * The addresses of @mod's symbols named @name, at most @max: a module
 * built from several files may have several static functions of one name,
 * each with a .cold part.  @mod cannot go away: its going notifier waits
 * for kprobe_mutex, held here.
 */
static unsigned int kpx86_module_parts(struct module *mod, const char *name,
				       unsigned long *starts, unsigned int max)
{
	struct mod_kallsyms *ks;
	unsigned int i, n = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; i < ks->num_symtab && n < max; i++) {
		if (!strcmp(ks->strtab + ks->symtab[i].st_name, name))
			starts[n++] = ks->symtab[i].st_value;
	}
	preempt_enable();
	return n;
}

/* NAME.cold for a probe in NAME, NAME for a probe in NAME.cold. */
static int kpx86_check_other_part(unsigned long addr, int len)
{
	static const char cold[] = ".cold";
	char name[KSYM_NAME_LEN + sizeof(cold)], *modname;
	struct kpx86_cover_span c = { .addr = addr, .len = len };
	unsigned long starts[KPX86_PARTS_MAX];
	struct module *mod;
	unsigned int i, n;
	int ret = 0;

	if (!kallsyms_lookup(addr, NULL, NULL, &modname, name))
		return -ENOENT;
	n = strlen(name);
	if (n >= strlen(cold) && !strcmp(name + n - strlen(cold), cold))
		name[n - strlen(cold)] = '\0';
	else
		memcpy(name + n, cold, sizeof(cold));
	if (!modname)
		return kallsyms_on_each_match_symbol(kpx86_check_part, name, &c);

	preempt_disable();
	mod = __module_text_address(addr);
	preempt_enable();
	if (!mod)
		return -ENOENT;
	n = kpx86_module_parts(mod, name, starts, ARRAY_SIZE(starts));
	/* more parts of one name than that: do not guess, stay a breakpoint */
	if (n == ARRAY_SIZE(starts))
		return -E2BIG;
	for (i = 0; i < n && !ret; i++)
		ret = kpx86_check_part(&c, starts[i]);
	return ret;
}

#ifdef CONFIG_JUMP_LABEL
static bool kpx86_jump_label_inside(const struct jump_entry *e, unsigned int n,
				    unsigned long addr, int len)
{
	for (; n; n--, e++)
		if (kpx86_inside(jump_entry_target(e), addr, len))
			return true;
	return false;
}

static bool kpx86_vmlinux_jump_label_inside(unsigned long addr, int len)
{
	return kpx86_jump_label_inside(__start___jump_table,
				       __stop___jump_table - __start___jump_table,
				       addr, len);
}

static bool kpx86_module_jump_label_inside(struct module *mod, unsigned long addr,
					   int len)
{
	return kpx86_jump_label_inside(mod->jump_entries, mod->num_jump_entries,
				       addr, len);
}
#else
static bool kpx86_vmlinux_jump_label_inside(unsigned long addr, int len)
{
	return false;
}

static bool kpx86_module_jump_label_inside(struct module *mod, unsigned long addr,
					   int len)
{
	return false;
}
#endif

extern struct exception_table_entry __start___ex_table[];
extern struct exception_table_entry __stop___ex_table[];

static bool kpx86_fixup_inside(const struct exception_table_entry *e, unsigned int n,
			       unsigned long addr, int len)
{
	for (; n; n--, e++)
		if (kpx86_inside((unsigned long)&e->fixup + e->fixup, addr, len))
			return true;
	return false;
}

static bool kpx86_module_tables_inside(unsigned long addr, int len)
{
	struct module *mod;
	bool inside;

	preempt_disable();	/* keeps the module */
	mod = __module_text_address(addr);
	inside = mod && (kpx86_module_jump_label_inside(mod, addr, len) ||
			 kpx86_fixup_inside(mod->extable, mod->num_exentries,
					    addr, len));
	preempt_enable();
	return inside;
}

/* Jump labels and exception fixups of the text that holds @addr. */
static int kpx86_check_tables(unsigned long addr, int len)
{
	bool inside;

	if (is_module_text_address(addr))
		inside = kpx86_module_tables_inside(addr, len);
	else
		inside = kpx86_vmlinux_jump_label_inside(addr, len) ||
			 kpx86_fixup_inside(__start___ex_table,
					    __stop___ex_table - __start___ex_table,
					    addr, len);
	return inside ? -EBUSY : 0;
}

/*
 * Collect the instructions that a jump at @s would cover, each a plain one
 * that could run out of line: their bytes into s->arch.orig, their
 * decoding into @insns (at most @max, *@n of them).  Returns their length.
 */
static int kpx86_cover(struct kprobe_site *s, struct insn *insns, int max, int *n_out)
{
	unsigned long addr = (unsigned long)s->addr, pos = addr;
	struct arch_kprobe_site tmp;
	int n = 0;

	while (pos < addr + JMP32_INSN_SIZE) {
		u8 *buf = s->arch.orig + (pos - addr);

		if (n == max || (pos != addr && kprobe_site_lookup((void *)pos)))
			return -EBUSY;
		if (kpx86_read_insn(pos, buf) || insn_decode_kernel(&insns[n], buf) < 0)
			return -EILSEQ;
		if (kpx86_classify(&tmp, &insns[n]) || tmp.op != KPX86_STEP ||
		    kpx86_is_trap(&insns[n]) || insn_has_emulate_prefix(&insns[n]) ||
		    insn_masking_exception(&insns[n]) || search_exception_tables(pos))
			return -EINVAL;
		if (pos - addr + insns[n].length > KPROBE_OPT_MAX_LEN)
			return -E2BIG;
		pos += insns[n++].length;
	}
	*n_out = n;
	return pos - addr;
}

/* Nothing someone else patches may lie in [addr, addr + len). */
static bool kpx86_cover_reserved(unsigned long addr, int len)
{
	void *start = (void *)addr, *last = (void *)(addr + len - 1);

	return jump_label_text_reserved(start, last) ||
	       static_call_text_reserved(start, last) ||
	       ftrace_text_reserved(start, last);
}

static int kpx86_build_detour(struct kprobe_site *s, struct insn *insns, int n)
{
	unsigned long addr = (unsigned long)s->addr, run;
	u8 img[KPROBE_DETOUR_SIZE], *orig = s->arch.orig;
	int i, pos = KPX86_DETOUR_HEAD;
	s32 rel;

	if (KPX86_DETOUR_HEAD + s->arch.opt_len + JMP32_INSN_SIZE > KPROBE_DETOUR_SIZE)
		return -E2BIG;
	if (!s->arch.detour)
		s->arch.detour = kprobe_detour_alloc();
	if (!s->arch.detour)
		return -ENOMEM;
	run = (unsigned long)s->arch.detour;

	memset(img, INT3_INSN_OPCODE, sizeof(img));
	memcpy(img, kpx86_detour_template, KPX86_DETOUR_HEAD);
	memcpy(img + (kpx86_detour_site - kpx86_detour_template) + 2, &s, sizeof(s));
	i = kpx86_detour_call - kpx86_detour_template;
	rel = (unsigned long)kpx86_detour_hit - (run + i + CALL_INSN_SIZE);
	memcpy(img + i + 1, &rel, sizeof(rel));

	for (i = 0; i < n; i++) {
		if (kpx86_relocate(img + pos, orig, &insns[i], addr, run + pos))
			return -ERANGE;
		pos += insns[i].length;
		orig += insns[i].length;
		addr += insns[i].length;
	}
	kpx86_put_jmp(img + pos, run + pos, addr);
	perf_event_text_poke(s->arch.detour, NULL, 0, img, sizeof(img));
	text_poke(s->arch.detour, img, sizeof(img));
	return 0;
}

int arch_kprobe_opt_prepare(struct kprobe_site *s)
{
	struct insn insns[JMP32_INSN_SIZE];
	unsigned long addr = (unsigned long)s->addr, size, offset;
	int len, n, ret;

	if (s->arch.op != KPX86_STEP ||
	    !kallsyms_lookup_size_offset(addr, &size, &offset))
		return -EINVAL;
	len = kpx86_cover(s, insns, ARRAY_SIZE(insns), &n);
	if (len < 0)
		return len;
	if (offset + len > size || kpx86_cover_reserved(addr, len))
		return -EBUSY;
	ret = kpx86_check_function(addr - offset, addr - offset + size, addr, len);
	if (!ret)
		ret = kpx86_check_other_part(addr, len);
	if (!ret)
		ret = kpx86_check_tables(addr, len);
	if (ret)
		return ret;

	s->arch.opt_len = len;
	ret = kpx86_build_detour(s, insns, n);
	if (ret)
		return ret;
	/* From now on, hits skip the covered bytes. */
	WRITE_ONCE(s->arch.via_detour, true);
	return 0;
}

void arch_kprobe_opt_cancel(struct kprobe_site *s)
{
	WRITE_ONCE(s->arch.via_detour, false);
}

void arch_kprobe_opt_install(struct kprobe_site *s)
{
	u8 jmp[JMP32_INSN_SIZE];

	kpx86_put_jmp(jmp, (unsigned long)s->addr, (unsigned long)s->arch.detour);
	smp_text_poke_single(s->addr, jmp, JMP32_INSN_SIZE, NULL);
	perf_event_text_poke(s->addr, s->arch.orig, JMP32_INSN_SIZE, jmp, JMP32_INSN_SIZE);
}

/*
 * Jump back to breakpoint: int3 over the jump's opcode first, so that the
 * rest of the jump is no longer executed, then the original bytes.  Hits
 * in between still leave through the detour.
 */
void arch_kprobe_opt_remove(struct kprobe_site *s)
{
	u8 now[JMP32_INSN_SIZE], int3 = INT3_INSN_OPCODE;
	kprobe_opcode_t *addr = s->addr;

	memcpy(now, addr, JMP32_INSN_SIZE);
	text_poke(addr, &int3, INT3_INSN_SIZE);
	smp_text_poke_sync_each_cpu();
	text_poke(addr + INT3_INSN_SIZE, s->arch.orig + INT3_INSN_SIZE,
		  JMP32_INSN_SIZE - INT3_INSN_SIZE);
	smp_text_poke_sync_each_cpu();
	perf_event_text_poke(addr, now, JMP32_INSN_SIZE, s->arch.orig, JMP32_INSN_SIZE);
	WRITE_ONCE(s->arch.via_detour, false);
}

bool arch_kprobe_opt_covers(struct kprobe_site *s, unsigned long addr)
{
	return addr > (unsigned long)s->addr &&
	       addr < (unsigned long)s->addr + s->arch.opt_len;
}
