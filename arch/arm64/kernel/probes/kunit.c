// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit suite "kprobes_arm64" on arm64: each instruction class that the
 * BRK path simulates rather than steps, probed on a real instance in the
 * kernel, plus a stepped instruction, a return probe and the refusals.
 *
 * The instances are found at test time, by decoding the code of real
 * kernel functions and of the functions they call (BL targets, two levels
 * down): whatever the compiler made of snprintf(), kstrtouint(), sort()
 * and the string routines.  For each class the candidates are probed one
 * after the other until one is hit by the test's own call (an instance
 * off the path the call takes is not hit).  Every call must still return
 * the right result, and the hit must have gone through the expected path
 * (kprobe_hit_path()).  Literal loads are the exception: compilers do not
 * emit them and the kernel's own sit in the boot code, so they are found
 * in a small function of this file.  See decode.c for the classes.
 *
 * Function entries that ftrace can hook are probed through ftrace, with no
 * BRK (ftrace.c): the kpa_test_ftrace* cases check the registers handlers
 * see there, a function override, recursion, a return probe, and a probe
 * that reads every register, which stays on a BRK.
 *
 * The decoder's verdicts on instructions no kernel code needs to hold
 * (FEAT_MOPS sequences, every hint, BC.cond) are checked on encodings,
 * for kprobes and uprobes; the allowed hints are also hit for real.  The
 * last cases cover faults: an instruction with an exception-table entry
 * is refused, and the simulation of a literal load, in the BRK exception,
 * calls nothing a probe may sit on.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/extable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/hwcap.h>
#include <asm/insn.h>
#include <asm/stack_pointer.h>
#include <asm/virt.h>

#include "a64.h"
#include "decode-insn.h"

/* ------------------------------------------------------------ targets */

/* A call of real kernel code with a known result: 0 when it was right. */
struct kpa_root {
	const char	*name;
	void		*fn;
	int		(*call)(void);
};

static int kpa_call_snprintf(void)
{
	char buf[48];
	int n = snprintf(buf, sizeof(buf), "%d:%s:%x:%c:%lu", -42, "ab", 0xbeef,
			 'z', 1234567890UL);

	return n != 24 || strcmp(buf, "-42:ab:beef:z:1234567890");
}

static noinline int kpa_call_kstrtouint(void)
{
	unsigned int v = 0;

	return kstrtouint("0x1f", 0, &v) || v != 31 ||
	       kstrtouint("0755", 0, &v) || v != 0755;
}

static int kpa_cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int kpa_call_sort(void)
{
	int v[] = { 9, -3, 7, 0, 12, 5, -8, 1 };
	static const int want[] = { -8, -3, 0, 1, 5, 7, 9, 12 };

	sort(v, ARRAY_SIZE(v), sizeof(v[0]), kpa_cmp_int, NULL);
	return memcmp(v, want, sizeof(v)) != 0;
}

/* Through hidden pointers, so that the compiler cannot fold the calls. */
static int kpa_call_strings(void)
{
	static const char s[] = "kprobes on arm64, simulated";
	size_t (*len)(const char *) = strlen;
	int (*cmp)(const char *, const char *) = strcmp;
	void *(*chr)(const void *, int, size_t) = memchr;

	OPTIMIZER_HIDE_VAR(len);
	OPTIMIZER_HIDE_VAR(cmp);
	OPTIMIZER_HIDE_VAR(chr);
	return len(s) != sizeof(s) - 1 ||
	       cmp("kprobe", "kprobes") >= 0 ||
	       cmp("arm64", "arm64") != 0 ||
	       chr(s, ',', sizeof(s)) != s + 16;
}

/*
 * The compiler never emits literal loads, and the kernel's own are in the
 * boot code: when the calls above reach none, this function of the test's
 * own supplies the instances (tried last).
 */
long kpa_literal(void);
asm(
	"	.pushsection .text, \"ax\"\n"
	"	.globl kpa_literal\n"
	"	.type kpa_literal, %function\n"
	"kpa_literal:\n"
	"	ldr	x0, 1f\n"
	"	ldr	w1, 2f\n"
	"	ldrsw	x2, 2f\n"
	"	prfm	pldl1keep, 1f\n"
	"	add	x0, x0, x1\n"
	"	add	x0, x0, x2\n"
	"	ret\n"
	"	.balign	8\n"
	"1:	.quad	0x1122334400000000\n"
	"2:	.word	0xfffffff0\n"
	"	.size kpa_literal, . - kpa_literal\n"
	"	.popsection\n");

static int kpa_call_literal(void)
{
	return kpa_literal() != 0x1122334400000000L + 0xfffffff0L - 16;
}

static const struct kpa_root kpa_roots[] = {
	{ "snprintf", vsnprintf, kpa_call_snprintf },
	{ "kstrtouint", kstrtouint, kpa_call_kstrtouint },
	{ "sort", sort, kpa_call_sort },
	{ "strlen", strlen, kpa_call_strings },
	{ "strcmp", strcmp, kpa_call_strings },
	{ "memchr", memchr, kpa_call_strings },
	{ "kpa_literal", kpa_literal, kpa_call_literal },
};

/* ------------------------------------------------------------ decoding */

static u32 kpa_insn(const u32 *p)
{
	__le32 w;

	if (copy_from_kernel_nofault(&w, p, sizeof(w)))
		return 0;
	return le32_to_cpu(w);
}

/* The function around @addr, from its symbol: start and size. */
static bool kpa_extent(unsigned long addr, const u32 **start, size_t *n)
{
	char buf[KSYM_SYMBOL_LEN], *slash;
	unsigned long size;

	sprint_symbol(buf, addr);
	slash = strrchr(buf, '/');
	/* "name+0x0/0x38", then " [module]" for a module's function */
	if (!slash || sscanf(slash + 1, "%lx", &size) != 1 || size > SZ_16K)
		return false;
	*start = (const u32 *)addr;
	*n = size / 4;
	return true;
}

/* Does a function start at @addr?  (Branch targets inside one do not count.) */
static bool kpa_is_function(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];

	sprint_symbol(buf, addr);
	return strstr(buf, "+0x0/") != NULL;
}

struct kpa_class {
	const char	*name;
	bool		(*match)(u32 insn);
};

static bool kpa_is_adr(u32 i)	{ return (i & 0x1f000000) == 0x10000000; }
static bool kpa_is_ldr(u32 i)	{ return (i & 0x3f000000) == 0x18000000; }
static bool kpa_is_b(u32 i)	{ return (i & 0x7c000000) == 0x14000000; }
static bool kpa_is_bcond(u32 i)	{ return (i & 0xff000000) == 0x54000000; }
static bool kpa_is_cbz(u32 i)	{ return (i & 0x7e000000) == 0x34000000; }
static bool kpa_is_tbz(u32 i)	{ return (i & 0x7e000000) == 0x36000000; }
static bool kpa_is_br(u32 i)
{
	return (i & 0xffdffc1f) == 0xd61f0000 || (i & 0xfffffc1f) == 0xd65f0000;
}
/* Data processing, register or immediate (not ADR): stepped out of line. */
static bool kpa_is_plain(u32 i)
{
	return (i & 0x0e000000) == 0x0a000000 ||
	       ((i & 0x1c000000) == 0x10000000 && !kpa_is_adr(i));
}

/* ------------------------------------------------------------ probing */

static struct task_struct *kpa_task;
/*
 * Where the CPU may go from the instruction @i at @at, given the registers
 * before it: next[0] and next[1], the same address when there is one way.
 * Branch offsets are counted in instructions: imm26 in [25:0], imm19 in
 * [23:5], imm14 in [18:5]; BR, BLR and RET take Rn from [9:5].
 */
static void kpa_next(u32 i, unsigned long at, const struct pt_regs *regs,
		     unsigned long next[2])
{
	next[0] = next[1] = at + 4;
	if (kpa_is_b(i))
		next[0] = next[1] = at + ((s64)(s32)(i << 6) >> 6) * 4;
	else if (kpa_is_bcond(i) || kpa_is_cbz(i))
		next[1] = at + ((s64)(s32)(i << 8) >> 13) * 4;
	else if (kpa_is_tbz(i))
		next[1] = at + ((s64)(s32)(i << 13) >> 18) * 4;
	else if (kpa_is_br(i))
		next[0] = next[1] = regs->regs[(i >> 5) & 31];
}

/* BL and BLR leave the return address in x30. */
static bool kpa_links(u32 i)
{
	return (i & 0xfc000000) == 0x94000000 || (i & 0xfffffc1f) == 0xd63f0000;
}

/*
 * The hits of the test's own task, and the post handler calls whose pc
 * (or, after BL/BLR, link register) was not where the instruction leads.
 */
static unsigned int kpa_hits, kpa_post_hits, kpa_post_wrong;
static unsigned long kpa_next_pc[2];
static unsigned long kpa_wrong_pc;
static u32 kpa_probed;		/* the instruction under the BRK */

static int kpa_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long at = (unsigned long)p->addr;

	if (current != kpa_task || instruction_pointer(regs) != at)
		return 0;
	kpa_hits++;
	kpa_next(kpa_probed, at, regs, kpa_next_pc);
	return 0;
}

static void kpa_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	unsigned long at = (unsigned long)p->addr, pc = instruction_pointer(regs);

	if (current != kpa_task)
		return;
	kpa_post_hits++;
	if ((pc != kpa_next_pc[0] && pc != kpa_next_pc[1]) ||
	    (kpa_links(kpa_probed) && regs->regs[30] != at + 4)) {
		kpa_post_wrong++;
		kpa_wrong_pc = pc;
	}
}

/*
 * Probe @at, make @root's call, and report: 1 hit and right, 0 not hit,
 * or a KUnit failure (a wrong result, or the wrong hit path).
 */
static int kpa_try(struct kunit *test, const struct kpa_root *root,
		   const u32 *at, enum kprobe_hit_path want, bool post)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)at, .pre_handler = kpa_pre };
	enum kprobe_hit_path path;
	int wrong;

	if (post)
		kp.post_handler = kpa_post;
	kpa_probed = kpa_insn(at);
	if (register_kprobe(&kp))
		return 0;
	if (kp.addr != (kprobe_opcode_t *)at) {	/* an entry, moved onto ftrace */
		unregister_kprobe(&kp);
		return 0;
	}
	path = kprobe_hit_path(&kp);
	kpa_hits = kpa_post_hits = kpa_post_wrong = 0;
	kpa_task = current;
	wrong = root->call();
	kpa_task = NULL;
	unregister_kprobe(&kp);

	KUNIT_EXPECT_FALSE_MSG(test, wrong, "%s returned a wrong result, probe at %pS",
			       root->name, at);
	if (!kpa_hits)
		return 0;
	KUNIT_EXPECT_EQ_MSG(test, path, want, "hit path of %pS", at);
	if (post) {
		KUNIT_EXPECT_EQ(test, kpa_post_hits, kpa_hits);
		KUNIT_EXPECT_EQ_MSG(test, kpa_post_wrong, 0,
				    "post handler of %pS at %pS, not where it leads",
				    at, (void *)kpa_wrong_pc);
	}
	return 1;
}

#define KPA_MAX_FUNCS	48

/* The functions @root reaches through BL, two levels down, @root first. */
static unsigned int kpa_reach(const struct kpa_root *root, unsigned long *fn)
{
	unsigned int nr = 1, lo = 0, hi, level, k;
	const u32 *start;
	size_t n, i;

	fn[0] = (unsigned long)root->fn;
	for (level = 0; level < 2; level++) {
		hi = nr;
		for (k = lo; k < hi && kpa_extent(fn[k], &start, &n); k++) {
			for (i = 0; i < n && nr < KPA_MAX_FUNCS; i++) {
				u32 insn = kpa_insn(start + i);
				long off = ((long)(s32)(insn << 6) >> 6) * 4;

				if ((insn & 0xfc000000) == 0x94000000 &&
				    kpa_is_function((unsigned long)(start + i) + off))
					fn[nr++] = (unsigned long)(start + i) + off;
			}
		}
		lo = hi;
	}
	return nr;
}

/* Find an instance of @cls on the path of some root call and probe it. */
static void kpa_class_test(struct kunit *test, const struct kpa_class *cls,
			   enum kprobe_hit_path want, bool post)
{
	unsigned int r, f, nr, tried = 0, seen = 0;
	unsigned long *fn;
	const u32 *start;
	size_t n, i;

	fn = kunit_kcalloc(test, KPA_MAX_FUNCS, sizeof(*fn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fn);
	for (r = 0; r < ARRAY_SIZE(kpa_roots); r++) {
		nr = kpa_reach(&kpa_roots[r], fn);
		for (f = 0; f < nr; f++) {
			if (!kpa_extent(fn[f], &start, &n))
				continue;
			for (i = 0; i < n && tried < 200; i++) {
				if (!cls->match(kpa_insn(start + i)))
					continue;
				seen++;
				tried++;
				if (kpa_try(test, &kpa_roots[r], start + i, want, post)) {
					kunit_info(test, "%s: hit at %pS (%u candidates tried)\n",
						   cls->name, start + i, tried);
					return;
				}
			}
		}
	}
	if (!seen)
		kunit_skip(test, "no %s in the code the test calls", cls->name);
	KUNIT_FAIL(test, "none of %u %s instances was hit", seen, cls->name);
}

#define KPA_CLASS_CASE(fn, label, pred)					\
static void fn(struct kunit *test)					\
{									\
	static const struct kpa_class cls = { label, pred };		\
	kpa_class_test(test, &cls, KPROBE_PATH_EMULATE, true);		\
}

KPA_CLASS_CASE(kpa_test_adr, "ADR/ADRP", kpa_is_adr)
KPA_CLASS_CASE(kpa_test_ldr_literal, "LDR (literal)", kpa_is_ldr)
KPA_CLASS_CASE(kpa_test_b, "B/BL", kpa_is_b)
KPA_CLASS_CASE(kpa_test_bcond, "B.cond", kpa_is_bcond)
KPA_CLASS_CASE(kpa_test_cbz, "CBZ/CBNZ", kpa_is_cbz)
KPA_CLASS_CASE(kpa_test_tbz, "TBZ/TBNZ", kpa_is_tbz)
KPA_CLASS_CASE(kpa_test_br, "BR/BLR/RET", kpa_is_br)

static void kpa_test_step(struct kunit *test)
{
	static const struct kpa_class cls = { "stepped", kpa_is_plain };

	kpa_class_test(test, &cls, KPROBE_PATH_STEP, true);
}

/* ------------------------------------------------------------ returns */

static unsigned int kpa_ret_hits;
static bool kpa_ret_ok;

/* kstrtouint() succeeded, and the CPU goes back into its real caller. */
static bool kpa_ret_right(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	char buf[KSYM_SYMBOL_LEN];

	if (regs_return_value(regs) != 0 ||
	    instruction_pointer(regs) != get_kretprobe_retaddr(ri))
		return false;
	sprint_symbol(buf, instruction_pointer(regs));
	return str_has_prefix(buf, "kpa_call_kstrtouint+");
}

static int kpa_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (current != kpa_task)
		return 0;
	kpa_ret_hits++;
	kpa_ret_ok = kpa_ret_ok && kpa_ret_right(ri, regs);
	return 0;
}

static void kpa_test_kretprobe(struct kunit *test)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)kstrtouint,
		.handler = kpa_ret_handler,
	};

	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);
	kpa_ret_hits = 0;
	kpa_ret_ok = true;
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_call_kstrtouint(), 0);
	kpa_task = NULL;
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, kpa_ret_hits, 2);
	KUNIT_EXPECT_TRUE(test, kpa_ret_ok);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);
}

/* ------------------------------------------------------------ ftrace */

/*
 * Traceable functions of this module: each opens with an ftrace call, so a
 * probe on one goes through ftrace (ftrace.c).  They are called through
 * volatile pointers, so that no caller gets a specialised copy.
 */
static noinline int kpa_traced(int x)
{
	barrier();
	return x * 3 + 1;
}

static noinline int kpa_traced_inner(int x)
{
	barrier();
	return x - 1;
}

static int (*volatile kpa_traced_fn)(int) = kpa_traced;
static int (*volatile kpa_inner_fn)(int) = kpa_traced_inner;

static struct {
	unsigned long pc, post_pc, x0, lr, sp, fp, pstate;
	bool zero_scratch;	/* x9..x28 read 0: ftrace does not save them */
	int pre, post, inner;
	bool call_inner, redirect;
} kpa_ft;

static int kpa_ft_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int i;

	if (current != kpa_task)
		return 0;
	kpa_ft.pre++;
	kpa_ft.pc = instruction_pointer(regs);
	kpa_ft.x0 = regs->regs[0];
	kpa_ft.fp = regs->regs[29];
	kpa_ft.lr = regs->regs[30];
	kpa_ft.sp = regs->sp;
	kpa_ft.pstate = regs->pstate;
	kpa_ft.zero_scratch = true;
	for (i = 9; i <= 28; i++)
		kpa_ft.zero_scratch &= regs->regs[i] == 0;
	if (kpa_ft.call_inner)	/* a probed function called by a handler */
		kpa_ft.inner = kpa_inner_fn(10);
	if (!kpa_ft.redirect)
		return 0;
	/* Return 99 to the caller without running the function. */
	regs->regs[0] = 99;
	instruction_pointer_set(regs, regs->regs[30]);
	return 1;
}

static void kpa_ft_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	if (current != kpa_task)
		return;
	kpa_ft.post++;
	kpa_ft.post_pc = instruction_pointer(regs);
}

static int kpa_ft_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpa_hits++;
	return 0;
}

/* The registers a handler sees at an ftrace-entered function entry. */
static void kpa_test_ftrace(struct kunit *test)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)kpa_traced,
		.pre_handler = kpa_ft_pre, .post_handler = kpa_ft_post,
	};
	unsigned long base = (unsigned long)kpa_traced, sp_here;
	char caller[KSYM_SYMBOL_LEN];

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	memset(&kpa_ft, 0, sizeof(kpa_ft));
	KUNIT_ASSERT_EQ(test, register_kprobe(&kp), 0);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&kp), KPROBE_PATH_FTRACE);
	KUNIT_EXPECT_TRUE(test, kp.flags & KPROBE_FLAG_FTRACE);
	KUNIT_EXPECT_TRUE(test, kp.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
	/* On the bl of the patchable entry, after "mov x9, x30" (and BTI C). */
	KUNIT_EXPECT_GE(test, (unsigned long)kp.addr, base + 4);
	KUNIT_EXPECT_LE(test, (unsigned long)kp.addr, base + 8);
	KUNIT_EXPECT_TRUE(test, aarch64_insn_is_bl(kpa_insn((u32 *)kp.addr)));

	kpa_task = current;
	sp_here = current_stack_pointer;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	kpa_task = NULL;
	unregister_kprobe(&kp);

	KUNIT_EXPECT_EQ(test, kpa_ft.pre, 1);
	KUNIT_EXPECT_EQ(test, kpa_ft.post, 1);
	KUNIT_EXPECT_EQ(test, kpa_ft.pc, (unsigned long)kp.addr);
	KUNIT_EXPECT_EQ(test, kpa_ft.post_pc, (unsigned long)kp.addr + 4);
	KUNIT_EXPECT_EQ(test, kpa_ft.x0, 4);
	/* x30 returns into this test; sp and fp are below this frame's sp. */
	snprintf(caller, sizeof(caller), "%ps", (void *)kpa_ft.lr);
	caller[strcspn(caller, " ")] = '\0';	/* drop " [module]" */
	KUNIT_EXPECT_STREQ(test, caller, "kpa_test_ftrace");
	KUNIT_EXPECT_EQ(test, kpa_ft.sp, sp_here);
	KUNIT_EXPECT_EQ(test, kpa_ft.fp, (unsigned long)__builtin_frame_address(0));
	KUNIT_EXPECT_EQ(test, kpa_ft.pstate & PSR_MODE_MASK,
			is_kernel_in_hyp_mode() ? PSR_MODE_EL2h : PSR_MODE_EL1h);
	KUNIT_EXPECT_TRUE(test, kpa_ft.zero_scratch);
	KUNIT_EXPECT_EQ(test, kp.nmissed, 0);
}

/*
 * A probe that reads every register is kept off the ftrace call: it takes
 * a BRK at the first instruction and sees x9..x28, beside a plain probe
 * of the same function that ftrace still enters.  One asked for on the
 * ftrace call itself is refused.
 */
static void kpa_test_ftrace_all_regs(struct kunit *test)
{
	unsigned long base = (unsigned long)kpa_traced;
	struct kprobe plain = { .addr = (kprobe_opcode_t *)kpa_traced,
				.pre_handler = kpa_ft_inner_pre };
	struct kprobe all = { .addr = (kprobe_opcode_t *)kpa_traced,
			      .flags = KPROBE_FLAG_ALL_REGS,
			      .pre_handler = kpa_ft_pre };
	struct kprobe on_call = { .flags = KPROBE_FLAG_ALL_REGS,
				  .pre_handler = kpa_ft_pre };
	int ret;

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	memset(&kpa_ft, 0, sizeof(kpa_ft));
	kpa_hits = 0;
	KUNIT_ASSERT_EQ(test, register_kprobe(&plain), 0);
	ret = register_kprobe(&all);
	if (ret)
		unregister_kprobe(&plain);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&plain), KPROBE_PATH_FTRACE);
	KUNIT_EXPECT_NE(test, kprobe_hit_path(&all), KPROBE_PATH_FTRACE);
	KUNIT_EXPECT_EQ(test, (unsigned long)all.addr, base);
	KUNIT_EXPECT_TRUE(test, all.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
	KUNIT_EXPECT_TRUE(test, all.flags & KPROBE_FLAG_ALL_REGS);

	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	kpa_task = NULL;
	on_call.addr = plain.addr;
	ret = register_kprobe(&on_call);
	KUNIT_EXPECT_EQ(test, ret, -EOPNOTSUPP);
	if (!ret)	/* never leave a probe on this stack frame behind */
		unregister_kprobe(&on_call);
	unregister_kprobe(&all);
	unregister_kprobe(&plain);

	KUNIT_EXPECT_EQ(test, kpa_ft.pre, 1);
	KUNIT_EXPECT_EQ(test, kpa_hits, 1);
	KUNIT_EXPECT_EQ(test, kpa_ft.pc, base);
	KUNIT_EXPECT_EQ(test, kpa_ft.x0, 4);
	KUNIT_EXPECT_FALSE(test, kpa_ft.zero_scratch);
}

/* A pre handler that moves the pc and x0 overrides the function. */
static void kpa_test_ftrace_override(struct kunit *test)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)kpa_traced,
			     .pre_handler = kpa_ft_pre, .post_handler = kpa_ft_post };

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	memset(&kpa_ft, 0, sizeof(kpa_ft));
	kpa_ft.redirect = true;
	KUNIT_ASSERT_EQ(test, register_kprobe(&kp), 0);
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 99);
	kpa_task = NULL;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, kpa_ft.pre, 1);
	KUNIT_EXPECT_EQ(test, kpa_ft.post, 0);	/* no post after a redirect */
}

/* A probed function called from a handler misses, counted; no recursion. */
static void kpa_test_ftrace_recursion(struct kunit *test)
{
	struct kprobe outer = { .addr = (kprobe_opcode_t *)kpa_traced,
				.pre_handler = kpa_ft_pre };
	struct kprobe inner = { .addr = (kprobe_opcode_t *)kpa_traced_inner,
				.pre_handler = kpa_ft_inner_pre };

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	memset(&kpa_ft, 0, sizeof(kpa_ft));
	kpa_ft.call_inner = true;
	kpa_hits = 0;
	KUNIT_ASSERT_EQ(test, register_kprobe(&inner), 0);
	KUNIT_ASSERT_EQ(test, register_kprobe(&outer), 0);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&inner), KPROBE_PATH_FTRACE);
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(2), 7);
	kpa_task = NULL;
	KUNIT_EXPECT_EQ(test, kpa_ft.pre, 1);
	KUNIT_EXPECT_EQ(test, kpa_ft.inner, 9);	/* it ran, unprobed */
	KUNIT_EXPECT_EQ(test, kpa_hits, 0);
	KUNIT_EXPECT_EQ(test, inner.nmissed, 1);
	KUNIT_EXPECT_EQ(test, outer.nmissed, 0);
	/* Outside a handler the inner probe is hit again. */
	KUNIT_EXPECT_EQ(test, kpa_inner_fn(3), 2);
	KUNIT_EXPECT_EQ(test, kpa_hits, 1);
	unregister_kprobe(&outer);
	unregister_kprobe(&inner);
}

static bool kpa_ft_ret_caller_seen, kpa_ft_ret_rewrite;

/* A stack trace from a return handler reaches the real caller. */
static bool kpa_trace_reaches(const char *caller)
{
	unsigned long entries[32];
	char buf[KSYM_SYMBOL_LEN];
	unsigned int i, n;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		sprint_symbol(buf, entries[i]);
		if (str_has_prefix(buf, caller))
			return true;
	}
	return false;
}

static int kpa_ft_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	char buf[KSYM_SYMBOL_LEN];

	if (current != kpa_task)
		return 0;
	kpa_ret_hits++;
	sprint_symbol(buf, instruction_pointer(regs));
	kpa_ret_ok = kpa_ret_ok && regs->regs[0] == 13 && !user_mode(regs) &&
		     str_has_prefix(buf, "kpa_test_ftrace_kretprobe+");
	kpa_ft_ret_caller_seen &= kpa_trace_reaches("kpa_test_ftrace_kretprobe+");
	if (kpa_ft_ret_rewrite)		/* the caller gets this instead */
		regs->regs[0] = 77;
	return 0;
}

/* A return probe entered through ftrace: x30 carries the trampoline. */
static void kpa_test_ftrace_kretprobe(struct kunit *test)
{
	struct kretprobe rp = { .kp.addr = (kprobe_opcode_t *)kpa_traced,
				.handler = kpa_ft_ret };

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&rp.kp), KPROBE_PATH_FTRACE);
	kpa_ret_hits = 0;
	kpa_ret_ok = true;
	kpa_ft_ret_caller_seen = true;
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	kpa_ft_ret_rewrite = true;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 77);
	kpa_ft_ret_rewrite = false;
	kpa_task = NULL;
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, kpa_ret_hits, 3);
	KUNIT_EXPECT_TRUE(test, kpa_ret_ok);
	KUNIT_EXPECT_TRUE(test, kpa_ft_ret_caller_seen);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 0);

	/* with KPROBE_FLAG_ALL_REGS its entry is a BRK at the first insn */
	memset(&rp, 0, sizeof(rp));
	rp.kp.addr = (kprobe_opcode_t *)kpa_traced;
	rp.kp.flags = KPROBE_FLAG_ALL_REGS;
	rp.handler = kpa_ft_ret;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&rp), 0);
	KUNIT_EXPECT_NE(test, kprobe_hit_path(&rp.kp), KPROBE_PATH_FTRACE);
	KUNIT_EXPECT_EQ(test, (unsigned long)rp.kp.addr, (unsigned long)kpa_traced);
	kpa_ret_hits = 0;
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_traced_fn(4), 13);
	kpa_task = NULL;
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, kpa_ret_hits, 1);
}

/* ------------------------------------------------------------ refusals */

/*
 * Never called: an exclusive sequence, a DAIF write, exception generation,
 * an exception return, hints that must not be stepped and memory copy and
 * set sequences (FEAT_MOPS), which must be refused, among instructions
 * that may be probed.
 */
extern const u32 kpa_refuse[];
asm(
	"	.pushsection .text, \"ax\"\n"
	"	.globl kpa_refuse\n"
	"	.type kpa_refuse, %function\n"
	"kpa_refuse:\n"
	"	ldxr	x1, [x0]\n"
	"	add	x1, x1, #1\n"
	"	stxr	w2, x1, [x0]\n"
	"	cbnz	w2, kpa_refuse\n"
	"	svc	#0\n"
	"	msr	daifset, #2\n"
	"	hvc	#0\n"
	"	brk	#0x123\n"
	"	hlt	#0\n"
	"	eret\n"
	"	hint	#1\n"			/* YIELD */
	"	hint	#29\n"			/* AUTIASP */
	"	.inst	0x1d010440\n"		/* CPYP [x0]!, [x1]!, x2! */
	"	.inst	0x19c20420\n"		/* SETP [x0]!, x1!, x2 */
	"	hint	#25\n"			/* PACIASP */
	"	ret\n"
	"	.size kpa_refuse, . - kpa_refuse\n"
	"	.popsection\n");

static void kpa_test_refused(struct kunit *test)
{
	static const struct { const char *what; int ret; } at[] = {
		{ "LDXR", -EINVAL }, { "an ADD between LDXR and STXR", -EINVAL },
		{ "STXR", -EINVAL }, { "CBNZ after the sequence", 0 },
		{ "SVC", -EINVAL }, { "MSR DAIFSet", -EINVAL }, { "HVC", -EINVAL },
		{ "BRK", -EINVAL }, { "HLT", -EINVAL }, { "ERET", -EINVAL },
		{ "YIELD", -EINVAL }, { "AUTIASP", -EINVAL }, { "CPYP", -EINVAL },
		{ "SETP", -EINVAL }, { "PACIASP", 0 }, { "RET", 0 },
	};
	struct kprobe unaligned = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		struct kprobe kp = { .addr = (kprobe_opcode_t *)&kpa_refuse[i] };
		int ret = register_kprobe(&kp);

		KUNIT_EXPECT_EQ_MSG(test, ret, at[i].ret, "probe on %s", at[i].what);
		if (!ret)
			unregister_kprobe(&kp);
	}
	/* Not on an instruction boundary. */
	unaligned.addr = (kprobe_opcode_t *)((unsigned long)kpa_refuse + 2);
	KUNIT_EXPECT_NE(test, register_kprobe(&unaligned), 0);
}

/* ------------------------------------------------------------ decoder */

struct kpa_verdict {
	const char		*what;
	u32			insn;
	enum a64_verdict	want;
};

/* a64_classify() for kprobes, and arm_probe_decode_insn() for uprobes. */
static void kpa_expect_verdicts(struct kunit *test, const struct kpa_verdict *v,
				unsigned int n)
{
	static const enum probe_insn as_uprobe[] = {
		[A64_REFUSE] = INSN_REJECTED,
		[A64_STEP] = INSN_GOOD,
		[A64_SIMULATE] = INSN_GOOD_NO_SLOT,
	};
	struct arch_probe_insn api;
	probes_handler_t *sim;
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a64_classify(v[i].insn, &sim), v[i].want,
				    "%s (%08x)", v[i].what, v[i].insn);
		KUNIT_EXPECT_EQ_MSG(test, arm_probe_decode_insn(v[i].insn, &api),
				    as_uprobe[v[i].want], "uprobe on %s (%08x)",
				    v[i].what, v[i].insn);
	}
}

/*
 * A memory copy or set (FEAT_MOPS) is a prologue, a main and an epilogue
 * instruction that must sit one after the other: none of them can be
 * stepped alone, out of line.
 */
static void kpa_test_decode_mops(struct kunit *test)
{
	static const struct kpa_verdict v[] = {
		{ "CPYP", 0x1d010440, A64_REFUSE },
		{ "CPYM", 0x1d410440, A64_REFUSE },
		{ "CPYE", 0x1d810440, A64_REFUSE },
		{ "CPYFP", 0x19010440, A64_REFUSE },
		{ "CPYFM", 0x19410440, A64_REFUSE },
		{ "CPYFE", 0x19810440, A64_REFUSE },
		{ "SETP", 0x19c20420, A64_REFUSE },
		{ "SETM", 0x19c24420, A64_REFUSE },
		{ "SETE", 0x19c28420, A64_REFUSE },
		{ "SETGP", 0x1dc20420, A64_REFUSE },
		{ "SETGM", 0x1dc24420, A64_REFUSE },
		{ "SETGE", 0x1dc28420, A64_REFUSE },
		/* neighbours in the load/store space */
		{ "LDR x0, [x1]", 0xf9400020, A64_STEP },
		{ "STP x29, x30, [sp, #-16]!", 0xa9bf7bfd, A64_STEP },
	};

	kpa_expect_verdicts(test, v, ARRAY_SIZE(v));
}

/*
 * Hints: pointer signing and stripping, BTI and NOP may be probed; the
 * rest (waits, events, authentication, barriers and unallocated hints)
 * may trap or change behaviour out of line, and are refused.
 */
static void kpa_test_decode_hints(struct kunit *test)
{
	static const struct kpa_verdict v[] = {
		{ "NOP", 0xd503201f, A64_SIMULATE },
		{ "XPACLRI", 0xd50320ff, A64_STEP },
		{ "PACIA1716", 0xd503211f, A64_STEP },
		{ "PACIB1716", 0xd503215f, A64_STEP },
		{ "PACIAZ", 0xd503231f, A64_STEP },
		{ "PACIASP", 0xd503233f, A64_STEP },
		{ "PACIBZ", 0xd503235f, A64_STEP },
		{ "PACIBSP", 0xd503237f, A64_STEP },
		{ "BTI", 0xd503241f, A64_STEP },
		{ "BTI c", 0xd503245f, A64_STEP },
		{ "BTI j", 0xd503249f, A64_STEP },
		{ "BTI jc", 0xd50324df, A64_STEP },
		{ "YIELD", 0xd503203f, A64_REFUSE },
		{ "WFE", 0xd503205f, A64_REFUSE },
		{ "WFI", 0xd503207f, A64_REFUSE },
		{ "SEV", 0xd503209f, A64_REFUSE },
		{ "SEVL", 0xd50320bf, A64_REFUSE },
		{ "DGH", 0xd50320df, A64_REFUSE },
		{ "AUTIA1716", 0xd503219f, A64_REFUSE },
		{ "AUTIB1716", 0xd50321df, A64_REFUSE },
		{ "ESB", 0xd503221f, A64_REFUSE },
		{ "PSB CSYNC", 0xd503223f, A64_REFUSE },
		{ "TSB CSYNC", 0xd503225f, A64_REFUSE },
		{ "CSDB", 0xd503229f, A64_REFUSE },
		{ "CLEARBHB", 0xd50322df, A64_REFUSE },
		{ "AUTIAZ", 0xd503239f, A64_REFUSE },
		{ "AUTIASP", 0xd50323bf, A64_REFUSE },
		{ "AUTIBZ", 0xd50323df, A64_REFUSE },
		{ "AUTIBSP", 0xd50323ff, A64_REFUSE },
		{ "HINT #0x7f", 0xd5032fff, A64_REFUSE },
	};

	kpa_expect_verdicts(test, v, ARRAY_SIZE(v));
}

/*
 * Stepped hints, hit for real: BTI C, then PACIASP signs x30 and XPACLRI
 * strips it again, so that x0 = 0 when x30 came back unchanged.
 */
long kpa_hints(void);
asm(
	"	.pushsection .text, \"ax\"\n"
	"	.globl kpa_hints\n"
	"	.type kpa_hints, %function\n"
	"kpa_hints:\n"
	"	hint	#34\n"			/* BTI C */
	"	mov	x1, x30\n"
	"	hint	#25\n"			/* PACIASP */
	"	hint	#7\n"			/* XPACLRI */
	"	sub	x0, x30, x1\n"
	"	ret\n"
	"	.size kpa_hints, . - kpa_hints\n"
	"	.popsection\n");

static int kpa_call_hints(void)
{
	return kpa_hints() != 0;
}

static void kpa_test_hint_hits(struct kunit *test)
{
	static const struct kpa_root root = { "kpa_hints", kpa_hints, kpa_call_hints };
	static const char * const what[] = { "BTI C", NULL, "PACIASP", "XPACLRI" };
	const u32 *at = (const u32 *)kpa_hints;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(what); i++) {
		if (what[i])
			KUNIT_EXPECT_EQ_MSG(test, kpa_try(test, &root, at + i,
							  KPROBE_PATH_STEP, true),
					    1, "probe on %s not hit", what[i]);
	}
}

/*
 * BC.cond (FEAT_HBC) is B.cond with bit 4 set, a hint that the branch
 * goes the same way each time: the same branch, simulated the same way,
 * where the CPU has it.  Elsewhere the encoding is unallocated, and a
 * probe must not turn its undefined-instruction exception into a branch.
 */
static void kpa_test_bc_cond(struct kunit *test)
{
	const u32 beq = 0x54000040, bceq = 0x54000050;	/* B.EQ, BC.EQ . + 8 */
	bool hbc = cpu_have_named_feature(HBC);
	const struct kpa_verdict v[] = {
		{ "B.EQ", beq, A64_SIMULATE },
		{ "BC.EQ", bceq, hbc ? A64_SIMULATE : A64_REFUSE },
	};
	const u32 insns[] = { beq, bceq };
	struct pt_regs regs = {};
	probes_handler_t *sim;
	unsigned int i, z;

	kunit_info(test, "FEAT_HBC: %s\n", hbc ? "yes" : "no");
	kpa_expect_verdicts(test, v, ARRAY_SIZE(v));
	a64_classify(beq, &sim);
	KUNIT_EXPECT_PTR_EQ(test, sim, &a64_sim_bcond);
	if (a64_classify(bceq, &sim) == A64_SIMULATE)
		KUNIT_EXPECT_PTR_EQ(test, sim, &a64_sim_bcond);

	/* Taken with Z set, not taken with Z clear; bit 4 changes nothing. */
	for (i = 0; i < ARRAY_SIZE(insns); i++) {
		for (z = 0; z <= 1; z++) {
			regs.pstate = z ? PSR_Z_BIT : 0;
			a64_sim_bcond(insns[i], 0x1000, &regs);
			KUNIT_EXPECT_EQ_MSG(test, regs.pc, z ? 0x1008 : 0x1004,
					    "%08x with Z = %u", insns[i], z);
		}
	}
}

/*
 * Every condition code against every NZCV value, as B.cond simulates it.
 * Bit n of holds[cond] says whether the condition holds with NZCV = n
 * (N is bit 3, V bit 0), written out from the Arm ARM's table.  The other
 * PSTATE bits, set or clear, must not matter.
 */
static void kpa_test_bcond_conditions(struct kunit *test)
{
	static const u16 holds[16] = {
		0xf0f0, 0x0f0f, 0xcccc, 0x3333,	/* EQ NE CS CC */
		0xff00, 0x00ff, 0xaaaa, 0x5555,	/* MI PL VS VC */
		0x0c0c, 0xf3f3, 0xaa55, 0x55aa,	/* HI LS GE LT */
		0x0a05, 0xf5fa, 0xffff, 0xffff,	/* GT LE AL NV */
	};
	const u64 others[] = { 0, ~(u64)GENMASK(31, 28) };
	struct pt_regs regs = {};
	unsigned int cond, nzcv, i;
	bool taken;

	for (cond = 0; cond < 16; cond++)
		for (nzcv = 0; nzcv < 16; nzcv++)
			for (i = 0; i < ARRAY_SIZE(others); i++) {
				regs.pstate = (u64)nzcv << 28 | others[i];
				a64_sim_bcond(0x54000040 | cond, 0x1000, &regs);
				taken = (holds[cond] >> nzcv) & 1;
				KUNIT_EXPECT_EQ_MSG(test, regs.pc,
						    taken ? 0x1008 : 0x1004,
						    "cond %u, NZCV %x, PSTATE %llx",
						    cond, nzcv, (u64)nzcv << 28 | others[i]);
			}
}

/*
 * BR, BLR and RET on pt_regs, from kernel code and from a user task
 * without a guarded control stack: the target is the register's value
 * before the link is written (BLR x30), only BLR links, and a landing
 * pad check (PSTATE.BTYPE) is never left pending.
 */
static void kpa_test_branch_reg(struct kunit *test)
{
	const struct {
		const char *name;
		u32 insn;
		probes_handler_t *sim;
		unsigned long pc, lr;	/* after it, from 0x1000 */
	} v[] = {
		{ "BR x3", 0xd61f0060, a64_sim_br, 0x3000, 0x30000 },
		{ "BLR x30", 0xd63f03c0, a64_sim_br, 0x30000, 0x1004 },
		{ "RET", 0xd65f03c0, a64_sim_ret, 0x30000, 0x30000 },
		{ "RET x5", 0xd65f00a0, a64_sim_ret, 0x5000, 0x30000 },
	};
	const u64 modes[] = { PSR_MODE_EL1h, PSR_MODE_EL0t };
	probes_handler_t *sim;
	struct pt_regs regs;
	unsigned int i, m;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		KUNIT_EXPECT_EQ_MSG(test, a64_classify(v[i].insn, &sim),
				    A64_SIMULATE, "%s", v[i].name);
		KUNIT_EXPECT_PTR_EQ_MSG(test, sim, v[i].sim, "%s", v[i].name);
		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			memset(&regs, 0, sizeof(regs));
			regs.regs[3] = 0x3000;
			regs.regs[5] = 0x5000;
			regs.regs[30] = 0x30000;
			regs.pstate = modes[m] | PSR_BTYPE_C;
			v[i].sim(v[i].insn, 0x1000, &regs);
			KUNIT_EXPECT_EQ_MSG(test, regs.pc, v[i].pc, "%s, mode %llx",
					    v[i].name, modes[m]);
			KUNIT_EXPECT_EQ_MSG(test, regs.regs[30], v[i].lr,
					    "%s, mode %llx", v[i].name, modes[m]);
			KUNIT_EXPECT_EQ_MSG(test, regs.pstate & PSR_BTYPE_MASK, 0,
					    "%s, mode %llx", v[i].name, modes[m]);
		}
	}
}

/* ------------------------------------------------------------ faults */

/* A kernel read that a fault makes fail, by its exception-table entry. */
static noinline int kpa_peek(const unsigned long *p, unsigned long *val)
{
	__get_kernel_nofault(val, p, unsigned long, fault);
	return 0;
fault:
	return -EFAULT;
}

/* Has the instruction at @addr an exception-table entry? */
static bool kpa_has_fixup(unsigned long addr)
{
	const struct exception_table_entry *e;
	unsigned int i;

	if (!IS_MODULE(CONFIG_KPROBES_CORE_KUNIT_TEST))
		return search_exception_tables(addr);
	/* search_exception_tables() is not exported: our own table */
	for (i = 0; i < THIS_MODULE->num_exentries; i++) {
		e = &THIS_MODULE->extable[i];
		if ((unsigned long)&e->insn + e->insn == addr)
			return true;
	}
	return false;
}

/*
 * An instruction with an exception-table entry is refused: run from a
 * slot, its fault would find no fixup for the slot's address, and a fault
 * on a user address would be handled with interrupts masked.  The read
 * still fails cleanly on an unmapped kernel address (a vmalloc guard
 * page), and works on a mapped one.
 */
static void kpa_test_extable(struct kunit *test)
{
	unsigned long good = 0x5a5a5a5a, val = 0, *area;
	const u32 *start, *load = NULL;
	struct kprobe kp = {};
	size_t n, i;
	int ret;

	KUNIT_ASSERT_TRUE(test, kpa_extent((unsigned long)kpa_peek, &start, &n));
	for (i = 0; i < n && !load; i++) {
		if (kpa_has_fixup((unsigned long)(start + i)))
			load = start + i;
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, load, "no instruction of kpa_peek has a fixup");

	kp.addr = (kprobe_opcode_t *)load;
	ret = register_kprobe(&kp);
	if (!ret)	/* never let it fault from a slot */
		unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "probe on %pS, which has a fixup", load);

	area = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, area);
	KUNIT_EXPECT_EQ(test, kpa_peek(area + PAGE_SIZE / sizeof(*area), &val), -EFAULT);
	vfree(area);
	KUNIT_EXPECT_EQ(test, kpa_peek(&good, &val), 0);
	KUNIT_EXPECT_EQ(test, val, good);
}

/*
 * A literal load is simulated inside the BRK exception, so the simulation
 * must not call what a probe may sit on: copy_from_kernel_nofault() is
 * such a function.  Probes there, through ftrace and on a BRK, must miss
 * nothing while kpa_literal()'s loads are simulated.
 */
static void kpa_test_literal_no_reentry(struct kunit *test)
{
	const u32 *lit = (const u32 *)kpa_literal;
	struct kprobe loads[3] = {
		{ .addr = (kprobe_opcode_t *)&lit[0], .pre_handler = kpa_pre },
		{ .addr = (kprobe_opcode_t *)&lit[1], .pre_handler = kpa_pre },
		{ .addr = (kprobe_opcode_t *)&lit[2], .pre_handler = kpa_pre },
	};
	struct kprobe nofault[2] = {
		{ .symbol_name = "copy_from_kernel_nofault", .pre_handler = kpa_ft_inner_pre },
		{ .symbol_name = "copy_from_kernel_nofault", .pre_handler = kpa_ft_inner_pre,
		  .flags = KPROBE_FLAG_ALL_REGS },
	};
	struct kprobe *all[] = { &nofault[0], &nofault[1],
				 &loads[0], &loads[1], &loads[2] };

	kpa_probed = kpa_insn(lit);
	KUNIT_ASSERT_EQ(test, register_kprobes(all, ARRAY_SIZE(all)), 0);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&loads[0]), KPROBE_PATH_EMULATE);
	kpa_hits = 0;
	kpa_task = current;
	KUNIT_EXPECT_EQ(test, kpa_call_literal(), 0);
	kpa_task = NULL;
	unregister_kprobes(all, ARRAY_SIZE(all));

	KUNIT_EXPECT_EQ(test, loads[0].nmissed + loads[1].nmissed + loads[2].nmissed, 0);
	KUNIT_EXPECT_EQ(test, nofault[0].nmissed, 0);
	KUNIT_EXPECT_EQ(test, nofault[1].nmissed, 0);
}

static struct kunit_case kpa_cases[] = {
	KUNIT_CASE(kpa_test_adr),
	KUNIT_CASE(kpa_test_ldr_literal),
	KUNIT_CASE(kpa_test_b),
	KUNIT_CASE(kpa_test_bcond),
	KUNIT_CASE(kpa_test_cbz),
	KUNIT_CASE(kpa_test_tbz),
	KUNIT_CASE(kpa_test_br),
	KUNIT_CASE(kpa_test_step),
	KUNIT_CASE(kpa_test_kretprobe),
	KUNIT_CASE(kpa_test_ftrace),
	KUNIT_CASE(kpa_test_ftrace_all_regs),
	KUNIT_CASE(kpa_test_ftrace_override),
	KUNIT_CASE(kpa_test_ftrace_recursion),
	KUNIT_CASE(kpa_test_ftrace_kretprobe),
	KUNIT_CASE(kpa_test_refused),
	KUNIT_CASE(kpa_test_decode_mops),
	KUNIT_CASE(kpa_test_decode_hints),
	KUNIT_CASE(kpa_test_hint_hits),
	KUNIT_CASE(kpa_test_bc_cond),
	KUNIT_CASE(kpa_test_bcond_conditions),
	KUNIT_CASE(kpa_test_branch_reg),
	KUNIT_CASE(kpa_test_extable),
	KUNIT_CASE(kpa_test_literal_no_reentry),
	{}
};

static struct kunit_suite kpa_suite = {
	.name = "kprobes_arm64",
	.test_cases = kpa_cases,
};
kunit_test_suite(kpa_suite);

MODULE_DESCRIPTION("KUnit tests of arm64 kprobes: simulated classes on real kernel code");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
