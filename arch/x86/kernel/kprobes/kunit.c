// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * KUnit tests of the kprobes core, from the inside: which hit path a probe
 * takes, what its handlers see, and what the core refuses.
 *
 * The x86 targets are written in assembly so that every instruction is
 * known: each gets a label, is probed in turn, and the function must still
 * compute the same result.  A breakpoint hit runs the handler in the int3
 * exception (in_nmi()), an ftrace hit in the caller's context; the text at
 * the probe shows which one is armed (an int3 byte or the fentry call).
 * The walk is repeated on real kernel functions, picked at test time by
 * the instructions they hold, with and without jump optimization.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/math.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/objtool.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/ibt.h>
#include <asm/msr.h>

#include "internal.h"

/*
 * kpt_walk(x, twice) = (x + 3 + kpt_bias) * (twice ? 2 : 1), one
 * instruction of each kind; kpt_walk_at[] gives the address of each (local
 * labels, so that kallsyms sees one function).  kpt_ud2 and kpt_int3 trap
 * by design and are never called.
 */
enum {
	W_MOV, W_ADD, W_RIP, W_TEST, W_JZ, W_CALL, W_JMP, W_PUSHF, W_POPF,
	W_RET, W_NR
};
long kpt_walk(long x, long twice);
extern char *const kpt_walk_at[W_NR];
extern char kpt_double[], kpt_ud2[], kpt_int3[];
/* kpt_load(p) = *p, or -EFAULT when the load faults (an exception fixup) */
long kpt_load(const long *p);
extern char *const kpt_load_at[1];
long kpt_bias = 100;

/* A probed instruction is no jump target: ANNOTATE_NOENDBR. */
#define KPT_INSN(label, insn)	label ":" ANNOTATE_NOENDBR "\n" insn "\n"

asm(
	"	.pushsection .text, \"ax\"\n"
	"	.globl kpt_walk, kpt_double, kpt_ud2, kpt_int3, kpt_load\n"
	"	.type kpt_walk, @function\n"
	"kpt_walk:\n"
	ASM_ENDBR
	KPT_INSN(".Lkpt_mov", "movq %rdi, %rax")
	KPT_INSN(".Lkpt_add", "addq $3, %rax")
	KPT_INSN(".Lkpt_rip", "addq kpt_bias(%rip), %rax")
	KPT_INSN(".Lkpt_test", "testq %rsi, %rsi")
	KPT_INSN(".Lkpt_jz", "jz 1f")
	KPT_INSN(".Lkpt_call", "call kpt_double")
	"1:\n"
	KPT_INSN(".Lkpt_jmp", "jmp 2f")
	"2:\n"
	KPT_INSN(".Lkpt_pushf", "pushfq")
	KPT_INSN(".Lkpt_popf", "popfq")
	".Lkpt_ret:" ANNOTATE_NOENDBR "\n" ASM_RET
	"	.size kpt_walk, .-kpt_walk\n"
	"	.type kpt_double, @function\n"
	"kpt_double:\n"
	"	addq %rax, %rax\n"
	"	" ASM_RET
	"	.size kpt_double, .-kpt_double\n"
	"	.type kpt_ud2, @function\n"
	"kpt_ud2:" ANNOTATE_NOENDBR "\n\tud2\n"
	"	.size kpt_ud2, .-kpt_ud2\n"
	"	.type kpt_int3, @function\n"
	"kpt_int3:" ANNOTATE_NOENDBR "\n\tint3\n"
	"	" ASM_RET
	"	.size kpt_int3, .-kpt_int3\n"
	"	.type kpt_load, @function\n"
	"kpt_load:\n"
	ASM_ENDBR
	KPT_INSN(".Lkpt_load", "movq (%rdi), %rax")
	"	" ASM_RET
	".Lkpt_load_fixup:\n"
	"	movq $-14, %rax\n"
	"	" ASM_RET
	"	.size kpt_load, .-kpt_load\n"
	_ASM_EXTABLE(.Lkpt_load, .Lkpt_load_fixup)
	"	.popsection\n"
	"	.pushsection .rodata, \"a\"\n"
	"	.balign 8\n"
	"kpt_walk_at:\n"
	"	.quad .Lkpt_mov, .Lkpt_add, .Lkpt_rip, .Lkpt_test, .Lkpt_jz\n"
	"	.quad .Lkpt_call, .Lkpt_jmp, .Lkpt_pushf, .Lkpt_popf, .Lkpt_ret\n"
	"kpt_load_at:\n"
	"	.quad .Lkpt_load\n"
	"	.popsection\n");

/*
 * Code that lands inside the bytes a jump at a probe would cover.  Each
 * probed movq (3 bytes) is followed by an addq (4 bytes): a jump there
 * covers both, and the addq is entered from elsewhere.
 *
 * kpt_split(x, cold) = x + 1, or x + 101 through its cold part, which
 * jumps back to the addq (as GCC's NAME.cold parts do).  kpt_fixer(p) =
 * *p + 1, or -EFAULT when the load faults: its exception fixup is the
 * addq of kpt_fixee(x) = x + 1, with -15 in %rax.
 */
long kpt_split(long x, long cold);
long kpt_fixee(long x);
long kpt_fixer(const long *p);
extern char *const kpt_split_at[1], *const kpt_fixee_at[1];
/* Its fixup leaves it for kpt_fixee, on purpose: not for objtool to follow. */
STACK_FRAME_NON_STANDARD(kpt_fixer);

asm(
	"	.pushsection .text, \"ax\"\n"
	"	.globl kpt_split, kpt_fixee, kpt_fixer\n"
	"	.type kpt_split, @function\n"
	"kpt_split:\n"
	ASM_ENDBR
	"	testq %rsi, %rsi\n"
	"	jnz kpt_split.cold\n"
	KPT_INSN(".Lkpt_split", "movq %rdi, %rax")
	".Lkpt_split_back:\n"
	"	addq $1, %rax\n"
	"	" ASM_RET
	"	.size kpt_split, .-kpt_split\n"
	"	.type kpt_fixee, @function\n"
	"kpt_fixee:\n"
	ASM_ENDBR
	KPT_INSN(".Lkpt_fixee", "movq %rdi, %rax")
	".Lkpt_fixee_back:\n"
	"	addq $1, %rax\n"
	"	" ASM_RET
	"	.size kpt_fixee, .-kpt_fixee\n"
	"	.type kpt_fixer, @function\n"
	"kpt_fixer:\n"
	ASM_ENDBR
	"	movq $-15, %rax\n"
	".Lkpt_fixer_load:\n"
	"	movq (%rdi), %rax\n"
	"	addq $1, %rax\n"
	"	" ASM_RET
	"	.size kpt_fixer, .-kpt_fixer\n"
	_ASM_EXTABLE(.Lkpt_fixer_load, .Lkpt_fixee_back)
	"	.popsection\n"
	"	.pushsection .text.unlikely, \"ax\"\n"
	"	.type kpt_split.cold, @function\n"
	"kpt_split.cold:\n"
	"	leaq 100(%rdi), %rax\n"
	"	jmp .Lkpt_split_back\n"
	"	.size kpt_split.cold, .-kpt_split.cold\n"
	"	.popsection\n"
	"	.pushsection .rodata, \"a\"\n"
	"	.balign 8\n"
	"kpt_split_at:\n"
	"	.quad .Lkpt_split\n"
	"kpt_fixee_at:\n"
	"	.quad .Lkpt_fixee\n"
	"	.popsection\n");

static long kpt_walk_expect(long x, long twice)
{
	return (x + 3 + kpt_bias) * (twice ? 2 : 1);
}

/* What the handlers saw; one probe at a time. */
struct kpt_seen {
	int pre, post;
	bool pre_in_nmi;
	unsigned long pre_ip, post_ip;
	struct kprobe *running;
};
static struct kpt_seen seen[2];

static int kpt_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct kpt_seen *s = &seen[p->symbol_name ? 1 : 0];

	s->pre++;
	s->pre_in_nmi = in_nmi();
	s->pre_ip = instruction_pointer(regs);
	s->running = kprobe_running();
	return 0;
}

static void kpt_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	struct kpt_seen *s = &seen[p->symbol_name ? 1 : 0];

	s->post++;
	s->post_ip = instruction_pointer(regs);
}

static u8 kpt_byte(void *addr)
{
	u8 b = 0;

	copy_from_kernel_nofault(&b, addr, 1);
	return b;
}

static void kpt_reset(void)
{
	memset(seen, 0, sizeof(seen));
}

/* The post handler's ip after each instruction, or NULL if it varies. */
static char *kpt_walk_next(int i)
{
	switch (i) {
	case W_JZ:
	case W_RET:
		return NULL;
	case W_CALL:
		return kpt_double;
	default:
		return kpt_walk_at[i + 1];
	}
}

/* Branches and flag changes are emulated; the rest runs out of line. */
static enum kprobe_hit_path kpt_walk_path(int i)
{
	return i <= W_TEST ? KPROBE_PATH_STEP : KPROBE_PATH_EMULATE;
}

/*
 * Probe every instruction of kpt_walk in turn: breakpoint path.  With a
 * post handler, a copy must trap back after it ran.
 */
static void kpt_test_walk(struct kunit *test)
{
	int i;

	for (i = 0; i < W_NR; i++) {
		char *at = kpt_walk_at[i], *next = kpt_walk_next(i);
		/* kpt_walk(x, 0) skips the call; every other insn runs twice. */
		int runs = i == W_CALL ? 1 : 2;
		struct kprobe kp = {
			.addr = (kprobe_opcode_t *)at,
			.pre_handler = kpt_pre, .post_handler = kpt_post,
		};
		u8 orig = kpt_byte(at);

		kpt_reset();
		KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
		KUNIT_EXPECT_EQ_MSG(test, kprobe_hit_path(&kp), kpt_walk_path(i),
				    "at %pS", at);
		KUNIT_EXPECT_EQ(test, kpt_byte(at), INT3_INSN_OPCODE);
		KUNIT_EXPECT_EQ(test, kpt_walk(5, 0), kpt_walk_expect(5, 0));
		KUNIT_EXPECT_EQ(test, kpt_walk(7, 1), kpt_walk_expect(7, 1));
		unregister_kprobe(&kp);

		KUNIT_EXPECT_EQ_MSG(test, seen[0].pre, runs, "at %pS", at);
		KUNIT_EXPECT_EQ(test, seen[0].post, runs);
		KUNIT_EXPECT_TRUE(test, seen[0].pre_in_nmi);
		KUNIT_EXPECT_EQ(test, seen[0].pre_ip, (unsigned long)at + 1);
		KUNIT_EXPECT_PTR_EQ(test, seen[0].running, &kp);
		if (next)
			KUNIT_EXPECT_EQ(test, seen[0].post_ip, (unsigned long)next);
		KUNIT_EXPECT_EQ(test, kpt_byte(at), orig);
	}
}

/*
 * Without a post handler, a copy jumps back by itself: one trap a hit.
 * (testq is followed by a branch, which no jump may cover: the site cannot
 * be optimized, and stays boosted.)
 */
static void kpt_test_boost(struct kunit *test)
{
	char *at = kpt_walk_at[W_TEST];
	struct kprobe kp = { .addr = (kprobe_opcode_t *)at, .pre_handler = kpt_pre };

	kpt_reset();
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&kp), KPROBE_PATH_BOOST);
	KUNIT_EXPECT_EQ(test, kpt_walk(5, 0), kpt_walk_expect(5, 0));
	KUNIT_EXPECT_EQ(test, kpt_walk(7, 1), kpt_walk_expect(7, 1));
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&kp), KPROBE_PATH_NONE);
	KUNIT_EXPECT_EQ(test, seen[0].pre, 2);
	KUNIT_EXPECT_TRUE(test, seen[0].pre_in_nmi);
}

/* Wait until the optimizer is through with @kp: true if it is optimized. */
static bool kpt_wait_optimized(struct kprobe *kp)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (kprobe_hit_path(kp) == KPROBE_PATH_OPTIMIZED)
			return true;
		msleep(20);
	}
	return false;
}

/*
 * A probe without post handler on movq (3 bytes) + addq (4 bytes) gets a
 * jump: the handler runs in the probed context (no trap), the covered
 * instructions run in the detour.  A second probe inside the covered bytes
 * takes the first back to a breakpoint until it leaves.
 */
static void kpt_test_optimized(struct kunit *test)
{
	char *at = kpt_walk_at[W_MOV], *inside = kpt_walk_at[W_ADD];
	struct kprobe a = { .addr = (kprobe_opcode_t *)at, .pre_handler = kpt_pre };
	struct kprobe b = { .pre_handler = kpt_pre, .symbol_name = "kpt_walk",
			    .offset = inside - (char *)kpt_walk };
	u8 orig[JMP32_INSN_SIZE], now[JMP32_INSN_SIZE];

	if (!IS_ENABLED(CONFIG_OPTPROBES))
		kunit_skip(test, "no jump optimization");
	memcpy(orig, at, sizeof(orig));
	kpt_reset();
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&a));
	KUNIT_ASSERT_TRUE(test, kpt_wait_optimized(&a));
	KUNIT_EXPECT_TRUE(test, a.flags & KPROBE_FLAG_OPTIMIZED);
	KUNIT_EXPECT_EQ(test, kpt_byte(at), JMP32_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, kpt_walk(5, 0), kpt_walk_expect(5, 0));
	KUNIT_EXPECT_EQ(test, kpt_walk(7, 1), kpt_walk_expect(7, 1));
	KUNIT_EXPECT_EQ(test, seen[0].pre, 2);
	KUNIT_EXPECT_FALSE(test, seen[0].pre_in_nmi);
	KUNIT_EXPECT_EQ(test, seen[0].pre_ip, (unsigned long)at + 1);

	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&b));
	KUNIT_EXPECT_NE(test, kprobe_hit_path(&a), KPROBE_PATH_OPTIMIZED);
	KUNIT_EXPECT_FALSE(test, a.flags & KPROBE_FLAG_OPTIMIZED);
	KUNIT_EXPECT_EQ(test, kpt_byte(at), INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, kpt_byte(inside), INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, kpt_walk(5, 0), kpt_walk_expect(5, 0));
	KUNIT_EXPECT_EQ(test, seen[0].pre, 3);
	KUNIT_EXPECT_EQ(test, seen[1].pre, 1);
	KUNIT_EXPECT_TRUE(test, seen[0].pre_in_nmi);

	unregister_kprobe(&b);
	KUNIT_EXPECT_TRUE(test, kpt_wait_optimized(&a));
	KUNIT_EXPECT_EQ(test, kpt_walk(5, 0), kpt_walk_expect(5, 0));
	KUNIT_EXPECT_EQ(test, seen[0].pre, 4);
	unregister_kprobe(&a);
	memcpy(now, at, sizeof(now));
	KUNIT_EXPECT_EQ(test, 0, memcmp(now, orig, sizeof(orig)));
}

/* Addresses the core must refuse. */
static void kpt_test_refused(struct kunit *test)
{
	struct kprobe kp = { .pre_handler = kpt_pre };

	kp.addr = (kprobe_opcode_t *)kpt_ud2;
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	kp.addr = (kprobe_opcode_t *)kpt_int3;
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	kp.addr = (kprobe_opcode_t *)kpt_walk_at[W_RIP] + 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, register_kprobe(&kp));
	kp.addr = (kprobe_opcode_t *)&kpt_bias;
	KUNIT_EXPECT_NE(test, 0, register_kprobe(&kp));

	kp.addr = NULL;
	kp.symbol_name = "kprobe_int3_handler";	/* the probe machinery */
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	kp.addr = NULL;
	kp.symbol_name = "exc_int3";		/* noinstr */
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	kp.addr = NULL;
	kp.symbol_name = "kpt_walk";		/* both addr and symbol */
	kp.addr = (kprobe_opcode_t *)kpt_walk;
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
}

/* What a refused offset is told: the instruction around it. */
static void kpt_test_insn_around(struct kunit *test)
{
	unsigned long rip = (unsigned long)kpt_walk_at[W_RIP], start, next;

	KUNIT_ASSERT_EQ(test, 0, kprobe_insn_around(rip + 1, &start, &next));
	KUNIT_EXPECT_EQ(test, rip, start);
	KUNIT_EXPECT_EQ(test, (unsigned long)kpt_walk_next(W_RIP), next);
	KUNIT_EXPECT_EQ(test, -EINVAL, kprobe_insn_around(rip, &start, &next));
	KUNIT_EXPECT_EQ(test, -EFAULT,
			kprobe_insn_around((unsigned long)&kpt_bias, &start, &next));
}

/* The entry of a function: offsets 0 and past endbr64, nothing else. */
static void kpt_test_func_entry(struct kunit *test)
{
	kprobe_opcode_t *walk = (kprobe_opcode_t *)kpt_walk;

	KUNIT_EXPECT_EQ(test, 0, kprobe_on_func_entry(walk, NULL, 0));
	KUNIT_EXPECT_EQ(test, 0, kprobe_on_func_entry(NULL, "kpt_walk", 0));
	if (ENDBR_INSN_SIZE)
		KUNIT_EXPECT_EQ(test, 0, kprobe_on_func_entry(walk, NULL, ENDBR_INSN_SIZE));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			kprobe_on_func_entry(walk, NULL, kpt_walk_at[W_ADD] - (char *)kpt_walk));
	KUNIT_EXPECT_EQ(test, -ENOENT, kprobe_on_func_entry(NULL, "kpt_no_such", 0));
}

static noinline int kpt_traced(int x)
{
	barrier();
	return x * 3 + 1;
}

/* A probe on an fentry call goes through ftrace: no int3, normal context. */
static void kpt_test_ftrace(struct kunit *test)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)kpt_traced,
		.pre_handler = kpt_pre, .post_handler = kpt_post,
	};

	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))
		kunit_skip(test, "no kprobes on ftrace");
	kpt_reset();
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&kp), KPROBE_PATH_FTRACE);
	KUNIT_EXPECT_TRUE(test, kp.flags & KPROBE_FLAG_FTRACE);
	KUNIT_EXPECT_TRUE(test, kp.flags & KPROBE_FLAG_ON_FUNC_ENTRY);
	KUNIT_EXPECT_NE(test, kpt_byte(kp.addr), INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, kpt_traced(4), 13);
	unregister_kprobe(&kp);

	KUNIT_EXPECT_EQ(test, seen[0].pre, 1);
	KUNIT_EXPECT_EQ(test, seen[0].post, 1);
	KUNIT_EXPECT_FALSE(test, seen[0].pre_in_nmi);
	KUNIT_EXPECT_EQ(test, seen[0].pre_ip, (unsigned long)kp.addr + 1);
	KUNIT_EXPECT_EQ(test, seen[0].post_ip, (unsigned long)kp.addr + MCOUNT_INSN_SIZE);
}

/* Two probes on one address share one breakpoint; disabling is per probe. */
static void kpt_test_shared_site(struct kunit *test)
{
	char *at = kpt_walk_at[W_ADD];
	struct kprobe a = { .addr = (kprobe_opcode_t *)at, .pre_handler = kpt_pre };
	struct kprobe b = { .pre_handler = kpt_pre, .post_handler = kpt_post };
	u8 orig = kpt_byte(at);

	/* b is told apart from a by its symbol name. */
	b.symbol_name = "kpt_walk";
	b.offset = at - (char *)kpt_walk;
	kpt_reset();
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&a));
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&b));
	KUNIT_EXPECT_PTR_EQ(test, a.addr, b.addr);
	/* b's post handler needs the trap after the copy. */
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&a), KPROBE_PATH_STEP);
	kpt_walk(1, 0);
	KUNIT_EXPECT_EQ(test, seen[0].pre, 1);
	KUNIT_EXPECT_EQ(test, seen[1].pre, 1);
	KUNIT_EXPECT_EQ(test, seen[1].post, 1);

	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(&a));
	kpt_walk(1, 0);
	KUNIT_EXPECT_EQ(test, seen[0].pre, 1);
	KUNIT_EXPECT_EQ(test, seen[1].pre, 2);
	KUNIT_EXPECT_EQ(test, kpt_byte(at), INT3_INSN_OPCODE);

	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(&b));
	KUNIT_EXPECT_EQ(test, kpt_byte(at), orig);
	kpt_walk(1, 0);
	KUNIT_EXPECT_EQ(test, seen[1].pre, 2);

	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(&a));
	KUNIT_EXPECT_EQ(test, kpt_byte(at), INT3_INSN_OPCODE);
	unregister_kprobe(&b);
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&a), KPROBE_PATH_BOOST);
	kpt_walk(1, 0);
	KUNIT_EXPECT_EQ(test, seen[0].pre, 2);
	KUNIT_EXPECT_EQ(test, seen[1].pre, 2);
	unregister_kprobe(&a);
	KUNIT_EXPECT_EQ(test, kpt_byte(at), orig);
	KUNIT_EXPECT_EQ(test, -EINVAL, enable_kprobe(&a));
}

static int kpt_inner_hits;
static long kpt_nested_result;

static int kpt_inner_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpt_inner_hits++;
	return 0;
}

static int kpt_outer_pre(struct kprobe *p, struct pt_regs *regs)
{
	seen[0].pre++;
	/* kpt_walk is probed at its %rip operand: that hit must not recurse. */
	kpt_nested_result = kpt_walk(1, 1);
	seen[0].running = kprobe_running();
	return 0;
}

/* A probe hit from inside a handler counts a miss, and runs nothing. */
static void kpt_test_recursion(struct kunit *test)
{
	struct kprobe outer = { .addr = (kprobe_opcode_t *)kpt_traced,
				.pre_handler = kpt_outer_pre };
	struct kprobe inner = { .addr = (kprobe_opcode_t *)kpt_walk_at[W_RIP],
				.pre_handler = kpt_inner_pre };

	kpt_reset();
	kpt_inner_hits = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&inner));
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&outer));
	KUNIT_EXPECT_EQ(test, kpt_traced(2), 7);
	KUNIT_EXPECT_EQ(test, kpt_walk(2, 1), kpt_walk_expect(2, 1));
	unregister_kprobe(&outer);
	unregister_kprobe(&inner);

	KUNIT_EXPECT_EQ(test, seen[0].pre, 1);
	KUNIT_EXPECT_PTR_EQ(test, seen[0].running, &outer);
	KUNIT_EXPECT_EQ(test, kpt_nested_result, kpt_walk_expect(1, 1));
	KUNIT_EXPECT_EQ(test, kpt_inner_hits, 1);	/* the direct call only */
	KUNIT_EXPECT_EQ(test, inner.nmissed, 1UL);
	KUNIT_EXPECT_EQ(test, outer.nmissed, 0UL);
}

/* kpt_nest(n) calls itself n times, through a hidden pointer. */
static noinline int kpt_nest(int depth)
{
	int (*self)(int) = kpt_nest;
	int r;

	OPTIMIZER_HIDE_VAR(self);
	r = depth ? self(depth - 1) + 10 : 1;

	barrier();
	return r;
}

struct kpt_ret_data {
	int depth;
};

static int kpt_rets, kpt_ret_last;
static bool kpt_ret_running_ok;

static int kpt_ret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpt_ret_data *d = (struct kpt_ret_data *)ri->data;

	d->depth = regs_get_kernel_argument(regs, 0);
	/* Odd depths are not followed. */
	return d->depth & 1;
}

static int kpt_ret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kpt_ret_data *d = (struct kpt_ret_data *)ri->data;

	kpt_rets++;
	kpt_ret_last = regs_return_value(regs) * 100 + d->depth;
	kpt_ret_running_ok = kprobe_running() == &get_kretprobe(ri)->kp;
	return 0;
}

/* maxactive bounds the pending calls; the others count in nmissed. */
static void kpt_test_kretprobe(struct kunit *test)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)kpt_nest,
		.entry_handler = kpt_ret_entry,
		.handler = kpt_ret_handler,
		.data_size = sizeof(struct kpt_ret_data),
		.maxactive = 1,
	};

	kpt_rets = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kretprobe(&rp));
	/* Only the outer call gets the instance: 4 misses. */
	KUNIT_EXPECT_EQ(test, kpt_nest(4), 41);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 4);
	KUNIT_EXPECT_EQ(test, kpt_rets, 1);
	KUNIT_EXPECT_EQ(test, kpt_ret_last, 41 * 100 + 4);
	KUNIT_EXPECT_TRUE(test, kpt_ret_running_ok);

	KUNIT_EXPECT_EQ(test, kpt_nest(0), 1);
	KUNIT_EXPECT_EQ(test, kpt_rets, 2);
	KUNIT_EXPECT_EQ(test, kpt_ret_last, 100);
	/* Depth 1 is declined and gives its instance back to depth 0. */
	KUNIT_EXPECT_EQ(test, kpt_nest(1), 11);
	KUNIT_EXPECT_EQ(test, kpt_rets, 3);
	KUNIT_EXPECT_EQ(test, kpt_ret_last, 100);
	unregister_kretprobe(&rp);
	KUNIT_EXPECT_EQ(test, rp.nmissed, 4);

	/* __switch_to returns on another stack: refused. */
	rp.kp.addr = NULL;
	rp.kp.symbol_name = "__switch_to";
	KUNIT_EXPECT_EQ(test, -EINVAL, register_kretprobe(&rp));
}

/*
 * Cost sampling on every hit path, with every hit timed (N = 1): each of
 * 100 hits is one sample, of some time.  A path that starts a sample and
 * never ends it, or ends it twice, shows another count.
 */
struct kpt_cost_case {
	const char *name;
	char *at;
	bool post;
	bool optimize;
	enum kprobe_hit_path path;
};

static void kpt_cost_one(struct kunit *test, const struct kpt_cost_case *c,
			 struct kprobe_cost __percpu *cost)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)c->at, .cost = cost,
			     .pre_handler = kpt_pre };
	u64 mean, samples;
	int i, cpu;

	if (c->post)
		kp.post_handler = kpt_post;
	if (register_kprobe(&kp)) {
		KUNIT_FAIL(test, "%s: not registered", c->name);
		return;
	}
	if (c->optimize && !kpt_wait_optimized(&kp)) {
		unregister_kprobe(&kp);
		KUNIT_FAIL(test, "%s: not optimized", c->name);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, kprobe_hit_path(&kp), c->path, "%s", c->name);
	migrate_disable();
	for (i = 0; i < 2 * KPROBE_COST_EVERY; i++)	/* the countdown in course */
		kpt_walk(i, 0);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(cost, cpu), 0, sizeof(struct kprobe_cost));
	for (i = 0; i < 100; i++)
		kpt_walk(i, 0);
	migrate_enable();
	unregister_kprobe(&kp);

	mean = kprobe_cost_per_hit(cost, &samples);
	KUNIT_EXPECT_EQ_MSG(test, samples, 100, "%s", c->name);
	KUNIT_EXPECT_GT_MSG(test, mean, 0, "%s", c->name);
	kunit_info(test, "%s: %llu samples, %llu ns a hit", c->name, samples, mean);
}

static void kpt_test_cost(struct kunit *test)
{
	const struct kpt_cost_case cases[] = {
		{ "step", kpt_walk_at[W_MOV], true, false, KPROBE_PATH_STEP },
		{ "boost", kpt_walk_at[W_TEST], false, false, KPROBE_PATH_BOOST },
		{ "emulate", kpt_walk_at[W_JZ], false, false, KPROBE_PATH_EMULATE },
		{ "optimized", kpt_walk_at[W_MOV], false, true, KPROBE_PATH_OPTIMIZED },
	};
	struct kprobe_cost __percpu *cost = alloc_percpu(struct kprobe_cost);
	int every = kprobe_cost_set_every(1);
	int i;

	if (!cost) {
		KUNIT_FAIL(test, "no memory");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].optimize && !IS_ENABLED(CONFIG_OPTPROBES))
			continue;
		kpt_cost_one(test, &cases[i], cost);
	}
out:
	kprobe_cost_set_every(every);
	free_percpu(cost);
}

/*
 * A stepped load that faults: the page fault puts the CPU back on the
 * probed instruction, whose exception fixup returns -EFAULT.  The hit
 * ends at the fault (kprobe_fault_handler()), so each call is one sample
 * and no post handler runs.  A fault path that left the sample open would
 * show none.
 */
static void kpt_test_cost_fault(struct kunit *test)
{
	struct kprobe_cost __percpu *cost = alloc_percpu(struct kprobe_cost);
	struct kprobe kp = { .addr = (kprobe_opcode_t *)kpt_load_at[0],
			     .cost = cost, .pre_handler = kpt_pre,
			     .post_handler = kpt_post };
	int every = kprobe_cost_set_every(1);
	char *page = vmalloc(PAGE_SIZE);	/* a guard page follows it */
	long good = 7, bad = 0, ok = 0;
	u64 samples, mean;
	int i, cpu;

	if (!cost || !page || register_kprobe(&kp)) {
		KUNIT_FAIL(test, "allocation or registration failed");
		goto out;
	}
	KUNIT_EXPECT_EQ(test, kprobe_hit_path(&kp), KPROBE_PATH_STEP);
	migrate_disable();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(cost, cpu), 0, sizeof(struct kprobe_cost));
	kpt_reset();
	for (i = 0; i < 50; i++) {
		ok += kpt_load(&good) == 7;
		bad += kpt_load((long *)(page + PAGE_SIZE)) == -EFAULT;
	}
	migrate_enable();
	unregister_kprobe(&kp);

	mean = kprobe_cost_per_hit(cost, &samples);
	KUNIT_EXPECT_EQ(test, ok, 50);
	KUNIT_EXPECT_EQ(test, bad, 50);
	KUNIT_EXPECT_EQ(test, seen[0].pre, 100);
	KUNIT_EXPECT_EQ(test, seen[0].post, 50);
	KUNIT_EXPECT_EQ(test, samples, 100);
	KUNIT_EXPECT_GT(test, mean, 0);
	kunit_info(test, "%llu samples, %llu ns a hit", samples, mean);
out:
	kprobe_cost_set_every(every);
	vfree(page);
	free_percpu(cost);
}

/*
 * The instruction walk again, on real kernel functions: for each kind of
 * instruction that needs care out of line (a %rip operand, a conditional
 * branch, a call), the first candidate whose code has one is picked at
 * test time.  Every instruction boundary (those the core accepts; the
 * others must be refused with -EILSEQ) is probed in turn, first with a
 * post handler (breakpoint, copy or emulation, trap back), then without,
 * after the optimizer ran (a jump where the code allows it, else a boosted
 * copy).  Each probe must see the same hits in both passes, and the
 * function must return what it returned unprobed.
 */
enum kpt_kind { KPT_RIPREL, KPT_BRANCH, KPT_CALL, KPT_NR_KINDS };

static const char *const kpt_kind_name[KPT_NR_KINDS] = {
	"a %rip operand", "a conditional branch", "a call",
};

struct kpt_real {
	const char *name;
	void *func;
	enum kpt_kind kind;
	int ninputs;
	long (*run)(int input);		/* call func on input number @input */
};

static const unsigned long kpt_sqrt_in[] = { 0, 1, 2, 99, 1000000, ULONG_MAX };
static const char *const kpt_num_in[] = {
	"123", "-45", "0x1f", "077", "99999999999", "abc", "",
};
static const char *const kpt_mem_in[] = { "4k", "3M", "1G", "17", "x" };

static long kpt_run_max_files(int i)
{
	return get_max_files();
}

static long kpt_run_int_sqrt(int i)
{
	return int_sqrt(kpt_sqrt_in[i]);
}

static long kpt_run_kstrtoint(int i)
{
	int v = 0, ret = kstrtoint(kpt_num_in[i], 0, &v);

	return ret ? ret : v;
}

static long kpt_run_memparse(int i)
{
	return memparse(kpt_mem_in[i], NULL);
}

static const struct kpt_real kpt_reals[] = {
	{ "get_max_files", get_max_files, KPT_RIPREL, 3, kpt_run_max_files },
	{ "int_sqrt", int_sqrt, KPT_BRANCH, ARRAY_SIZE(kpt_sqrt_in), kpt_run_int_sqrt },
	{ "kstrtoint", kstrtoint, KPT_BRANCH, ARRAY_SIZE(kpt_num_in), kpt_run_kstrtoint },
	{ "kstrtoint", kstrtoint, KPT_CALL, ARRAY_SIZE(kpt_num_in), kpt_run_kstrtoint },
	{ "memparse", memparse, KPT_CALL, ARRAY_SIZE(kpt_mem_in), kpt_run_memparse },
};

#define KPT_MAX_INPUTS	8
#define KPT_MAX_FUNC	1024

/* The size of the function at @func, from its kallsyms entry "f+0x0/0xSIZE". */
static unsigned long kpt_func_size(void *func)
{
	char buf[KSYM_SYMBOL_LEN], *slash;
	unsigned long size = 0;

	sprint_symbol(buf, (unsigned long)func);
	slash = strchr(buf, '/');
	if (!slash || sscanf(slash, "/0x%lx", &size) != 1)
		return 0;
	return min_t(unsigned long, size, KPT_MAX_FUNC);
}

/*
 * Enough of the x86 encoding to tell the three kinds apart; @len is the
 * distance to the next boundary.  A %rip operand is a ModRM byte with
 * mod 00, r/m 101; its target, relative to the end of the instruction,
 * must be a symbol of the kernel.
 */
static bool kpt_insn_is(const u8 *at, int len, enum kpt_kind kind)
{
	static const u8 prefixes[] = { 0x66, 0x67, 0xf2, 0xf3, 0x2e, 0x3e,
				       0x26, 0x36, 0x64, 0x65, 0xf0 };
	int i = 0, modrm;
	char sym[KSYM_SYMBOL_LEN];
	s32 disp;

	while (i < len && (memchr(prefixes, at[i], sizeof(prefixes)) ||
			   (at[i] & 0xf0) == 0x40))
		i++;
	if (i >= len)
		return false;
	switch (kind) {
	case KPT_CALL:
		return at[i] == 0xe8;
	case KPT_BRANCH:
		return (at[i] & 0xf0) == 0x70 ||
		       (at[i] == 0x0f && i + 1 < len && (at[i + 1] & 0xf0) == 0x80);
	default:
		modrm = at[i] != 0x0f ? i + 1 :
			(at[i + 1] == 0x38 || at[i + 1] == 0x3a) ? i + 3 : i + 2;
		if (modrm + 5 > len || (at[modrm] & 0xc7) != 0x05)
			return false;
		memcpy(&disp, at + modrm + 1, sizeof(disp));
		sprint_symbol(sym, (unsigned long)at + len + disp);
		return strncmp(sym, "0x", 2) != 0;
	}
}

/* What one walk found and saw, per byte offset into the function. */
struct kpt_walk_state {
	const struct kpt_real *r;
	unsigned long size;
	long expect[KPT_MAX_INPUTS];
	bool boundary[KPT_MAX_FUNC];
	int hits[KPT_MAX_FUNC];		/* breakpoint pass */
	int paths[KPROBE_PATH_OPTIMIZED + 1];
};

static struct task_struct *kpt_walker;
static int kpt_real_pre_hits, kpt_real_post_hits;

static int kpt_real_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (current == kpt_walker)
		kpt_real_pre_hits++;
	return 0;
}

static void kpt_real_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	if (current == kpt_walker)
		kpt_real_post_hits++;
}

/* Find the boundaries of @w->r->func; false if it has none of its kind. */
static bool kpt_real_scan(struct kunit *test, struct kpt_walk_state *w)
{
	u8 *func = w->r->func;
	unsigned long off, last = 0;
	bool found = false;
	int ret;

	for (off = 0; off < w->size; off++) {
		struct kprobe kp = { .addr = (kprobe_opcode_t *)(func + off),
				     .pre_handler = kpt_real_pre };

		ret = register_kprobe(&kp);
		if (ret == -EILSEQ)
			continue;
		if (ret && func[off] == INT3_INSN_OPCODE)
			break;		/* padding after the function */
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s+%lu", w->r->name, off);
		unregister_kprobe(&kp);
		/* The entry may move past endbr64. */
		off = (u8 *)kp.addr - func;
		if (w->boundary[off])
			continue;
		w->boundary[off] = true;
		if (off)
			found |= kpt_insn_is(func + last, off - last, w->r->kind);
		last = off;
	}
	return found;
}

/* Probe the boundary at @off once: hits of this probe, and its path. */
static int kpt_real_probe(struct kunit *test, struct kpt_walk_state *w,
			  unsigned long off, bool jump)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)((u8 *)w->r->func + off),
			     .pre_handler = kpt_real_pre,
			     .post_handler = jump ? NULL : kpt_real_post };
	enum kprobe_hit_path path;
	int i;

	kpt_real_pre_hits = 0;
	kpt_real_post_hits = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	if (jump)
		wait_for_kprobe_optimizer();
	path = kprobe_hit_path(&kp);
	w->paths[path]++;
	for (i = 0; i < w->r->ninputs; i++)
		KUNIT_EXPECT_EQ_MSG(test, w->r->run(i), w->expect[i],
				    "%s+%lu input %d", w->r->name, off, i);
	unregister_kprobe(&kp);
	if (!jump)
		KUNIT_EXPECT_EQ_MSG(test, kpt_real_post_hits, kpt_real_pre_hits,
				    "%s+%lu", w->r->name, off);
	if (jump)
		KUNIT_EXPECT_NE_MSG(test, path, KPROBE_PATH_STEP, "%s+%lu", w->r->name, off);
	else
		KUNIT_EXPECT_LT_MSG(test, path, KPROBE_PATH_BOOST, "%s+%lu", w->r->name, off);
	return kpt_real_pre_hits;
}

static void kpt_real_report(struct kunit *test, struct kpt_walk_state *w,
			    const char *pass)
{
	kunit_info(test, "%s, %s pass: ftrace %d, emulated %d, stepped %d, boosted %d, optimized %d\n",
		   w->r->name, pass, w->paths[KPROBE_PATH_FTRACE],
		   w->paths[KPROBE_PATH_EMULATE], w->paths[KPROBE_PATH_STEP],
		   w->paths[KPROBE_PATH_BOOST], w->paths[KPROBE_PATH_OPTIMIZED]);
	memset(w->paths, 0, sizeof(w->paths));
}

/* Walk @w->r: the breakpoint pass, then the jump pass.  Optimized probes. */
static int kpt_real_walk(struct kunit *test, struct kpt_walk_state *w)
{
	unsigned long off, first = w->size;
	int i, hit = 0, optimized;

	for (i = 0; i < w->r->ninputs; i++)
		w->expect[i] = w->r->run(i);
	for (off = 0; off < w->size; off++) {
		if (!w->boundary[off])
			continue;
		first = min(first, off);
		w->hits[off] = kpt_real_probe(test, w, off, false);
		hit += w->hits[off] > 0;
	}
	kpt_real_report(test, w, "breakpoint");
	KUNIT_EXPECT_EQ_MSG(test, w->hits[first], w->r->ninputs, "%s entry", w->r->name);
	KUNIT_EXPECT_GT(test, hit, 1);

	for (off = 0; off < w->size; off++) {
		if (w->boundary[off])
			KUNIT_EXPECT_EQ_MSG(test, kpt_real_probe(test, w, off, true),
					    w->hits[off], "%s+%lu", w->r->name, off);
	}
	optimized = w->paths[KPROBE_PATH_OPTIMIZED];
	kpt_real_report(test, w, "jump");
	return optimized;
}

static void kpt_test_real_walk(struct kunit *test)
{
	struct kpt_walk_state *w;
	bool done[KPT_NR_KINDS] = {};
	int i, optimized = 0;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	kpt_walker = current;
	for (i = 0; i < ARRAY_SIZE(kpt_reals); i++) {
		const struct kpt_real *r = &kpt_reals[i];

		if (done[r->kind])
			continue;
		memset(w, 0, sizeof(*w));
		w->r = r;
		w->size = kpt_func_size(r->func);
		KUNIT_ASSERT_GT(test, w->size, 0UL);
		if (!kpt_real_scan(test, w)) {
			kunit_info(test, "%s has no %s\n", r->name, kpt_kind_name[r->kind]);
			continue;
		}
		kunit_info(test, "%s (%lu bytes) has %s\n", r->name, w->size,
			   kpt_kind_name[r->kind]);
		optimized += kpt_real_walk(test, w);
		done[r->kind] = true;
	}
	kpt_walker = NULL;
	for (i = 0; i < KPT_NR_KINDS; i++)
		KUNIT_EXPECT_TRUE_MSG(test, done[i], "no function with %s", kpt_kind_name[i]);
	if (IS_ENABLED(CONFIG_OPTPROBES))
		KUNIT_EXPECT_GT(test, optimized, 0);
}

/*
 * Stepped instructions that take a trap other than a page fault, fixed up
 * by their exception entry: a read of an MSR that no CPU has, a write of
 * a reserved bit of PKRS (QEMU's TCG reads unknown MSRs as 0, but checks
 * these bits), and a load from a non-canonical address (#GP).  The step
 * is left at the trap, and the fixup is that of the original address.
 */
#define KPT_ABSENT_MSR		0xdeadbeef
#define KPT_MSR_PKRS		0x6e1	/* IA32_PKRS: bits 63:32 reserved */
#define KPT_NONCANONICAL	((const long *)0x8000000000001000UL)

static noinline long kpt_rdmsr_absent(void)
{
	u64 val;

	return rdmsrq_safe(KPT_ABSENT_MSR, &val);
}

static noinline long kpt_wrmsr_reserved(void)
{
	return wrmsrq_safe(KPT_MSR_PKRS, BIT_ULL(32));
}

static long kpt_load_noncanonical(void)
{
	return kpt_load(KPT_NONCANONICAL);
}

/*
 * The first instruction of @func that starts with the two bytes @op, found
 * by walking its instruction boundaries; NULL if there is none (with
 * paravirt MSR accessors, the rdmsr is in another function).
 */
static char *kpt_find_insn(void *func, const u8 op[2])
{
	unsigned long pos = (unsigned long)func, end = pos + kpt_func_size(func);
	unsigned long start, next;

	for (; pos + 2 <= end; pos = next) {
		if (!memcmp((void *)pos, op, 2))
			return (char *)pos;
		if (kprobe_insn_around(pos + 1, &start, &next))
			next = pos + 1;		/* a one-byte instruction */
	}
	return NULL;
}

struct kpt_trap_case {
	const char *name;
	long (*call)(void);
	char *at;
};

/*
 * Probe c->at with a post handler (a step), call c->call three times: the
 * error of the unprobed call each time, the pre handler each time, no post
 * handler (the step ends at the trap), and the CPU out of the step, with
 * interrupts on.  False if the instruction does not trap here.
 */
static bool kpt_trap_one(struct kunit *test, const struct kpt_trap_case *c)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)c->at,
			     .pre_handler = kpt_pre, .post_handler = kpt_post };
	struct kprobe *running;
	long unprobed;
	int i;

	if (!c->at) {
		kunit_info(test, "%s: no such instruction in the function\n", c->name);
		return false;
	}
	unprobed = c->call();
	if (!unprobed) {
		kunit_info(test, "%s: no trap on this machine\n", c->name);
		return false;
	}
	kpt_reset();
	KUNIT_ASSERT_EQ_MSG(test, 0, register_kprobe(&kp), "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, kprobe_hit_path(&kp), KPROBE_PATH_STEP, "%s", c->name);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->call(), unprobed, "%s", c->name);
	KUNIT_EXPECT_FALSE_MSG(test, irqs_disabled(), "%s", c->name);
	preempt_disable();
	running = kprobe_running();
	preempt_enable();
	unregister_kprobe(&kp);

	KUNIT_EXPECT_EQ_MSG(test, seen[0].pre, 3, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, seen[0].post, 0, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, kp.nmissed, 0UL, "%s", c->name);
	KUNIT_EXPECT_NULL_MSG(test, running, "%s", c->name);
	kunit_info(test, "%s at %pS: %ld, fixed up\n", c->name, c->at, unprobed);
	return true;
}

static void kpt_test_step_trap_fixup(struct kunit *test)
{
	static const u8 rdmsr[2] = { 0x0f, 0x32 }, wrmsr[2] = { 0x0f, 0x30 };
	const struct kpt_trap_case cases[] = {
		{ "rdmsr", kpt_rdmsr_absent, kpt_find_insn(kpt_rdmsr_absent, rdmsr) },
		{ "wrmsr", kpt_wrmsr_reserved, kpt_find_insn(kpt_wrmsr_reserved, wrmsr) },
		{ "non-canonical load", kpt_load_noncanonical, kpt_load_at[0] },
	};
	int i, trapped = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		trapped += kpt_trap_one(test, &cases[i]);
	KUNIT_EXPECT_GE(test, trapped, 1);
}

static long kpt_split_hot(void)
{
	return kpt_split(5, 0) == 6;
}

static long kpt_split_cold(void)
{
	return kpt_split(5, 1) == 106;
}

static long kpt_fixee_call(void)
{
	return kpt_fixee(5) == 6;
}

static long kpt_fixer_fault(void)
{
	long good = 7;

	return kpt_fixer(&good) == 8 && kpt_fixer(KPT_NONCANONICAL) == -EFAULT;
}

struct kpt_landing_case {
	const char *name;
	char *at;
	long (*direct)(void);	/* runs the probed instruction: true if right */
	long (*landing)(void);	/* lands after it, from elsewhere */
};

/*
 * The probe registers, but is never optimized: a jump would be entered in
 * its middle.  Its hits are those of the direct call; the landing call
 * is made only once the probe is known not to be a jump.
 */
static void kpt_landing_one(struct kunit *test, const struct kpt_landing_case *c)
{
	struct kprobe kp = { .addr = (kprobe_opcode_t *)c->at, .pre_handler = kpt_pre };
	enum kprobe_hit_path path;
	bool flagged;

	kpt_reset();
	KUNIT_ASSERT_EQ_MSG(test, 0, register_kprobe(&kp), "%s", c->name);
	wait_for_kprobe_optimizer();
	path = kprobe_hit_path(&kp);
	flagged = kp.flags & KPROBE_FLAG_OPTIMIZED;
	KUNIT_EXPECT_EQ_MSG(test, path, KPROBE_PATH_BOOST, "%s", c->name);
	KUNIT_EXPECT_FALSE_MSG(test, flagged, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, kpt_byte(c->at), INT3_INSN_OPCODE, "%s", c->name);
	KUNIT_EXPECT_TRUE_MSG(test, c->direct(), "%s", c->name);
	if (path != KPROBE_PATH_OPTIMIZED && !flagged)
		KUNIT_EXPECT_TRUE_MSG(test, c->landing(), "%s", c->name);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ_MSG(test, seen[0].pre, 1, "%s", c->name);
}

/* Jumps back from a .cold part, and exception fixups, keep jumps out. */
static void kpt_test_opt_landing(struct kunit *test)
{
	const struct kpt_landing_case cases[] = {
		{ "cold part", kpt_split_at[0], kpt_split_hot, kpt_split_cold },
		{ "exception fixup", kpt_fixee_at[0], kpt_fixee_call, kpt_fixer_fault },
	};
	int i;

	if (!IS_ENABLED(CONFIG_OPTPROBES))
		kunit_skip(test, "no jump optimization");
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		kpt_landing_one(test, &cases[i]);
}

static struct kunit_case kprobes_x86_cases[] = {
	KUNIT_CASE(kpt_test_walk),
	KUNIT_CASE(kpt_test_boost),
	KUNIT_CASE(kpt_test_optimized),
	KUNIT_CASE_SLOW(kpt_test_real_walk),
	KUNIT_CASE(kpt_test_refused),
	KUNIT_CASE(kpt_test_insn_around),
	KUNIT_CASE(kpt_test_func_entry),
	KUNIT_CASE(kpt_test_ftrace),
	KUNIT_CASE(kpt_test_shared_site),
	KUNIT_CASE(kpt_test_recursion),
	KUNIT_CASE(kpt_test_kretprobe),
	KUNIT_CASE(kpt_test_cost),
	KUNIT_CASE(kpt_test_cost_fault),
	KUNIT_CASE(kpt_test_opt_landing),
	KUNIT_CASE(kpt_test_step_trap_fixup),
	{}
};

static struct kunit_suite kprobes_x86_suite = {
	.name = "kprobes_x86",
	.test_cases = kprobes_x86_cases,
};
kunit_test_suite(kprobes_x86_suite);

MODULE_DESCRIPTION("KUnit tests of the kprobes core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
