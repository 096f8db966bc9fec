// SPDX-License-Identifier: GPL-2.0
/*
 * probe_arg_kunit.c - KUnit suite "probe_arg": the probe argument library alone.
 *
 * Two halves.  The error table parses bad definitions and checks the code,
 * the word and the byte the caret goes under, written the way
 * kprobe_syntax_errors.tc writes them ('^' marks the spot).  The run
 * tests compile definitions, run them on a synthetic struct pt_regs and
 * buffers the test owns, and compare the record bytes and the printed
 * text: registers, stack, dereferences, faults, strings (including one
 * that ends just before an unmapped page and one that runs into it), user
 * memory, arrays, bitfields, the room limit, entry data and BTF names.
 */
#include <kunit/test.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include <net/sock.h>

#include "trace.h"
#include "probe_arg_impl.h"

/*
 * The definitions below name x86-64 registers.  On arm64,
 * parg_test_regs() rewrites each name into one of the same length (so that
 * every caret stays under its byte) and of the same role: %di, %si, %dx,
 * %cx and %r8 are the first five argument registers, %ax a register that
 * holds no argument.  FT_<NAME> is the matching field of struct pt_regs,
 * FT_RETVAL the one a return value is read from.
 */
#ifdef CONFIG_ARM64
#define FT_DI		regs[0]
#define FT_SI		regs[1]
#define FT_DX		regs[2]
#define FT_CX		regs[3]
#define FT_R8		regs[4]
#define FT_AX		regs[9]
#define FT_RETVAL	regs[0]
#define FT_AX_NAME	"%x9"

static const char *const parg_test_reg_names[][2] = {
	{ "%di", "%x0" }, { "%si", "%x1" }, { "%dx", "%x2" },
	{ "%cx", "%x3" }, { "%r8", "%x4" }, { "%ax", "%x9" },
};

static void parg_test_regs(char *line)
{
	unsigned int i;
	char *p;

	for (p = strchr(line, '%'); p; p = strchr(p + 1, '%')) {
		for (i = 0; i < ARRAY_SIZE(parg_test_reg_names); i++) {
			if (!strncmp(p, parg_test_reg_names[i][0], 3)) {
				memcpy(p, parg_test_reg_names[i][1], 3);
				break;
			}
		}
	}
}
#else
#define FT_DI		di
#define FT_SI		si
#define FT_DX		dx
#define FT_CX		cx
#define FT_R8		r8
#define FT_AX		ax
#define FT_RETVAL	ax
#define FT_AX_NAME	"%ax"

static void parg_test_regs(char *line) { }
#endif

/*
 * Where the probe sits, as the front ends say it in struct parg_caps: a
 * kprobe mid-function, at a function entry or return; a uprobe and a
 * uretprobe (at file offset FT_FILE_OFFSET); an fprobe entry (no %REG);
 * a tracepoint probe on its stub (no %REG, $argN shifted by one).
 */
enum parg_test_site {
	FT_PROBE, FT_ENTRY, FT_RETURN, FT_USER, FT_USER_RET, FT_FPROBE,
	FT_TPOINT, FT_EVENT,
};

#define FT_FILE_OFFSET	0x1000

/*
 * FT_EVENT: an event probe on a pretend event with one field of each
 * kind.  Its record (parg_test_event_rec()) is 72 bytes: the fields, then
 * the texts of "name" (at 56) and "rname" (at 64).  A field named "comm"
 * hides $comm, as fields come first.
 */
static struct ftrace_event_field parg_test_fields[] = {
	{ .name = "pid", .type = "int", .offset = 8, .size = 4, .is_signed = 1 },
	{ .name = "flags", .type = "unsigned char", .offset = 12, .size = 1 },
	{ .name = "neg", .type = "short", .offset = 14, .size = 2, .is_signed = 1 },
	{ .name = "name", .type = "__data_loc char[]", .offset = 16, .size = 4,
	  .filter_type = FILTER_DYN_STRING },
	{ .name = "rname", .type = "__rel_loc char[]", .offset = 20, .size = 4,
	  .filter_type = FILTER_RDYN_STRING },
	{ .name = "comm", .type = "char[16]", .offset = 24, .size = 16,
	  .filter_type = FILTER_STATIC_STRING },
	{ .name = "ptr", .type = "const char *", .offset = 40, .size = 8,
	  .filter_type = FILTER_PTR_STRING },
	{ .name = "val", .type = "u64", .offset = 48, .size = 8 },
};

static struct trace_event_class parg_test_event_class;
static struct trace_event_call parg_test_event = {
	.class = &parg_test_event_class,
};

static struct trace_event_call *parg_test_event_call(void)
{
	int i;

	INIT_LIST_HEAD(&parg_test_event_class.fields);
	for (i = 0; i < ARRAY_SIZE(parg_test_fields); i++)
		list_add_tail(&parg_test_fields[i].link,
			      &parg_test_event_class.fields);
	return &parg_test_event;
}

static struct parg_caps parg_test_caps(enum parg_test_site site,
				       const char *func)
{
	bool user = site == FT_USER || site == FT_USER_RET;
	struct parg_caps caps = {
		.is_return = site == FT_RETURN || site == FT_USER_RET,
		.on_func_entry = site == FT_ENTRY || site == FT_FPROBE ||
				 site == FT_TPOINT,
		.func = func,
		.user = user,
		.file_offset = user ? FT_FILE_OFFSET : 0,
		.no_regs = site == FT_FPROBE || site == FT_TPOINT,
		.arg_shift = site == FT_TPOINT,
		.event = site == FT_EVENT ? parg_test_event_call() : NULL,
	};
	return caps;
}

/* Split @line at spaces into a test-owned argv. */
static int parg_test_split(struct kunit *test, const char *line,
			   const char ***argvp)
{
	char *copy = kunit_kstrdup(test, line, GFP_KERNEL);
	const char **argv;
	int argc = 0;
	char *w;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	parg_test_regs(copy);
	argv = kunit_kcalloc(test, PARG_MAX_ARGS + 2, sizeof(*argv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	while (*line && (w = strsep(&copy, " ")) && argc < PARG_MAX_ARGS + 2)
		argv[argc++] = w;
	*argvp = argv;
	return argc;
}

static void parg_test_free_set(void *set)
{
	parg_set_free(set);
}

/* Parse @line or fail the test; the set is freed with the test. */
static struct parg_set *parg_test_parse(struct kunit *test,
					enum parg_test_site site,
					const char *func, const char *line)
{
	struct parg_caps caps = parg_test_caps(site, func);
	struct parg_set *set;
	struct parg_err err;
	const char **argv;
	int argc;

	argc = parg_test_split(test, line, &argv);
	set = parg_set_parse(&caps, argc, argv, &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(set),
			       "\"%s\": error %d (%s) at word %d byte %d", line,
			       err.code, parg_err_msg(err.code), err.word, err.pos);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, parg_test_free_set, set));
	return set;
}

/* --------------------------------------------------------- error table */

struct parg_err_case {
	enum parg_test_site site;
	const char *func;
	const char *line;	/* words; '^' marks the caret */
	enum parg_err_code code;
};

#define PARG_T64 "1234567890123456789012345678901234567890123456789012345678901234"
#define E(site, func, line, code)	{ site, func, line, PARG_ERR_##code }

static const struct parg_err_case parg_err_cases[] = {
	E(FT_ENTRY, NULL, "^$retval", RETVAL_ON_PROBE),
	E(FT_ENTRY, NULL, "^$stack10000", BAD_STACK_NUM),
	E(FT_ENTRY, NULL, "^$arg10000", BAD_ARG_NUM),
	E(FT_ENTRY, NULL, "^$arg0", BAD_ARG_NUM),
	E(FT_ENTRY, NULL, "^$none_var", BAD_VAR),
	E(FT_ENTRY, NULL, "^$stackx", BAD_VAR),
	E(FT_ENTRY, NULL, "^%none_reg", BAD_REG_NAME),
	E(FT_ENTRY, NULL, "^@12345678abcde", BAD_MEM_ADDR),
	E(FT_ENTRY, NULL, "^@+10", FILE_ON_KPROBE),
	E(FT_ENTRY, NULL, "arg1=\\^x", BAD_IMM),
	E(FT_ENTRY, NULL, "arg1=\\\"abcd^", IMMSTR_NO_CLOSE),
	E(FT_ENTRY, NULL, "^+0@0)", DEREF_NEED_BRACE),
	E(FT_ENTRY, NULL, "^+0ab1(@0)", BAD_DEREF_OFFS),
	E(FT_ENTRY, NULL, "^--8(@0)", BAD_DEREF_OFFS),
	E(FT_ENTRY, NULL, "^-+8(@0)", BAD_DEREF_OFFS),
	E(FT_ENTRY, NULL, "^-9223372036854775809(@0)", BAD_DEREF_OFFS),
	E(FT_ENTRY, NULL, "-9223372036854775808(^$comm)", COMM_CANT_DEREF),
	/* the 'u' form's caret, one column short */
	E(FT_ENTRY, NULL, "+u8^($comm)", COMM_CANT_DEREF),
	E(FT_ENTRY, NULL, "-u8^($comm)", COMM_CANT_DEREF),
	E(FT_ENTRY, NULL, "+0(+0(@0^)", DEREF_OPEN_BRACE),
	E(FT_ENTRY, NULL, "+0(^$comm)", COMM_CANT_DEREF),
	E(FT_ENTRY, NULL, "-8(^\\\"s\")", COMM_CANT_DEREF),
	E(FT_ENTRY, NULL, "^&1", BAD_FETCH_ARG),
	/* eight levels of nesting at most: the caret under the ninth */
	E(FT_ENTRY, NULL, "+0(+0(+0(+0(+0(+0(+0(+0(^+0(@0)))))))))",
	  TOO_MANY_NESTED),
	E(FT_ENTRY, NULL, "+0(+0(+0(+0(+0(+0(+0(+0(^this_cpu_read(@0)))))))))",
	  TOO_MANY_NESTED),
	E(FT_ENTRY, NULL, "+0(@11):u8[10^", ARRAY_NO_CLOSE),
	E(FT_ENTRY, NULL, "+0(@11):u8[10]^a", BAD_ARRAY_SUFFIX),
	E(FT_ENTRY, NULL, "+0(@11):u8[^10a]", BAD_ARRAY_NUM),
	E(FT_ENTRY, NULL, "+0(@11):u8[^0]", BAD_ARRAY_NUM),
	E(FT_ENTRY, NULL, "+0(@11):u8[^256]", ARRAY_TOO_BIG),
	E(FT_ENTRY, NULL, "@11:^unknown_type", BAD_TYPE),
	E(FT_ENTRY, NULL, "@11:^b8@0/12", BAD_TYPE),
	E(FT_ENTRY, NULL, "$stack0:^string", BAD_STRING),
	E(FT_ENTRY, NULL, "%di:^u8[2]", BAD_STRING),
	E(FT_ENTRY, NULL, "\\1:^symstr", BAD_SYMSTRING),
	E(FT_ENTRY, NULL, "$comm:^u32", NEED_STRING_TYPE),
	E(FT_ENTRY, NULL, "\\\"x\":^string[2]", NEED_STRING_TYPE),
	E(FT_ENTRY, NULL, "@11:^b10@a/16", BAD_BITFIELD),
	E(FT_ENTRY, NULL, "%di:^b0@0/8", BAD_BITFIELD),
	E(FT_ENTRY, NULL, "%di:^b4@6/8", BAD_BITFIELD),
	/* width and offset whose sum wraps around */
	E(FT_ENTRY, NULL, "+0(%di):^b18446744073709551615@1/64", BAD_BITFIELD),
	E(FT_ENTRY, NULL, "+0(%di):^b1@18446744073709551615/64", BAD_BITFIELD),
	E(FT_ENTRY, NULL, "%di:^b1@32/32", BAD_BITFIELD),
	E(FT_ENTRY, NULL, "^arg123456789012345678901234567890=@11",
	  ARG_NAME_TOO_LONG),
	E(FT_ENTRY, NULL, "^=@11", NO_ARG_NAME),
	E(FT_ENTRY, NULL, "^var.1=@11", BAD_ARG_NAME),
	E(FT_ENTRY, NULL, "var1=@11 ^var1=@12", USED_ARG_NAME),
	E(FT_ENTRY, NULL, "^common_pid=%ax", USED_ARG_NAME),
	/* 257 bytes: over PARG_MAX_TEXT_LEN */
	E(FT_ENTRY, NULL, "^@" PARG_T64 PARG_T64 PARG_T64 PARG_T64, ARG_TOO_LONG),
	/* 67 bytes, 16 deep: too deep, at the ninth level */
	E(FT_ENTRY, NULL,
	  "+1(+1(+1(+1(+1(+1(+1(+1(^+1(+1(+1(+1(+1(+1(+1(+1(@1))))))))))))))))",
	  TOO_MANY_NESTED),
	E(FT_ENTRY, NULL, "arg1=^", NO_ARG_BODY),
	E(FT_PROBE, NULL, "%ax ^$arg1", NOFENTRY_ARGS),
	E(FT_PROBE, NULL, "^$arg*", NOFENTRY_ARGS),
	E(FT_PROBE, NULL, "^foo", NOSUP_BTFARG),
	E(FT_ENTRY, "no_such_function_for_probe_arg", "^$arg*", NOSUP_BTFARG),
	E(FT_ENTRY, NULL,
	  "+0(%di):u64[64] +0(%di):u64[64] +0(%di):u64[64] +0(%di):u64[64] "
	  "+0(%di):u64[64] +0(%di):u64[64] +0(^%di):u64[64]", EVENT_TOO_BIG),
	/* what a uprobe may not read */
	E(FT_USER, NULL, "^@vfs_read", SYM_ON_UPROBE),
	E(FT_USER, NULL, "+8(^@jiffies)", SYM_ON_UPROBE),
	E(FT_USER, NULL, "^@+0x1z", BAD_FILE_OFFS),
	E(FT_USER, NULL, "%di ^$arg1", NOFENTRY_ARGS),
	E(FT_USER_RET, NULL, "^$arg1", NOFENTRY_ARGS),
	E(FT_USER_RET, NULL, "^$arg*", BAD_VAR),
	E(FT_USER, NULL, "^$arg0", BAD_ARG_NUM),
	E(FT_USER, NULL, "^$retval", RETVAL_ON_PROBE),
	E(FT_USER_RET, NULL, "^file", NOSUP_BTFARG),
	E(FT_USER, NULL, "%di:^symbol", BAD_TYPE),
	E(FT_USER, NULL, "+0(%di):^symstr", BAD_TYPE),
	E(FT_USER, NULL, "%di:^%pd", BAD_TYPE),
	E(FT_USER, NULL, "x=%si:^%pD", BAD_TYPE),
	/* fprobes and tracepoint probes name no register */
	E(FT_FPROBE, NULL, "^%di", BAD_VAR),
	E(FT_TPOINT, NULL, "+0(^%si)", BAD_VAR),
	E(FT_EVENT, NULL, "^%di", BAD_VAR),
	E(FT_EVENT, NULL, "+0(^%si):string", BAD_VAR),
	E(FT_EVENT, NULL, "^$stack", BAD_VAR),
	E(FT_EVENT, NULL, "^$stack1", BAD_VAR),
	E(FT_EVENT, NULL, "^$retval", BAD_VAR),
	E(FT_EVENT, NULL, "^$arg1", BAD_VAR),
	E(FT_EVENT, NULL, "$pid ^$foo", BAD_VAR),
	/* a bare name in an event probe is a field of the record */
	E(FT_EVENT, NULL, "arg=^dfd", NO_EVENT_FIELD),
	E(FT_EVENT, NULL, "arg=^COMM", NO_EVENT_FIELD),
	E(FT_EVENT, NULL, "arg=^current", NO_EVENT_FIELD),
	E(FT_EVENT, NULL, "^foo", NO_EVENT_FIELD),
	E(FT_EVENT, NULL, "+0(^foo)", NO_EVENT_FIELD),
	/* per-CPU addresses are the kernel's: no uprobe nor event probe */
	E(FT_EVENT, NULL, "arg=^this_cpu_read(file)", NOSUP_PERCPU),
	E(FT_EVENT, NULL, "+0(^this_cpu_ptr(pid))", NOSUP_PERCPU),
	E(FT_USER, NULL, "^this_cpu_read(%di)", NOSUP_PERCPU),
	E(FT_USER_RET, NULL, "^this_cpu_ptr($retval)", NOSUP_PERCPU),
	E(FT_ENTRY, NULL, "this_cpu_ptr(%di^", DEREF_OPEN_BRACE),
	E(FT_ENTRY, NULL, "this_cpu_read(^$comm)", COMM_CANT_DEREF),
	E(FT_ENTRY, NULL, "this_cpu_ptr(^%zz)", BAD_REG_NAME),
	E(FT_PROBE, NULL, "^this_cpu_write(%di)", NOSUP_BTFARG),
	E(FT_ENTRY, NULL, "this_cpu_ptr(%di):^string", BAD_STRING),
	/* the running task is the kernel's: a uprobe does not read it */
	E(FT_USER, NULL, "^$current:u8", BAD_VAR),
	E(FT_USER, NULL, "^$current->pid", BAD_VAR),
	E(FT_EVENT, NULL, "^@+10", FILE_ON_KPROBE),
	E(FT_EVENT, NULL, "$pid:^bogus", BAD_TYPE),
};

/* BTF of vfs_read(file, buf, count, pos), kfree(object), void kfree() */
static const struct parg_err_case parg_btf_err_cases[] = {
	E(FT_ENTRY, "vfs_read", "args=^$arg*", BAD_VAR),
	E(FT_ENTRY, "vfs_read", "+0(^$arg*)", BAD_VAR),
	E(FT_ENTRY, "vfs_read", "$arg* ^$arg*", DOUBLE_ARGS),
	E(FT_ENTRY, "vfs_read", "^$argx", BAD_VAR),
	E(FT_ENTRY, "vfs_read", "^hoge", NO_BTFARG),
	E(FT_ENTRY, "kfree", "^$arg10", NO_BTFARG),
	E(FT_RETURN, "kfree", "^$retval", NO_RETVAL),
	E(FT_RETURN, "vfs_read", "$retval->^foo", NO_PTR_STRCT),
	E(FT_ENTRY, "vfs_read", "file->^foo", NO_BTF_FIELD),
	E(FT_ENTRY, "vfs_read", "file^-.foo", BAD_HYPHEN),
	E(FT_ENTRY, "vfs_read", "file.^f_mode", NOSUP_DAT_ARG),
	E(FT_ENTRY, "vfs_read", "^file:string", BAD_TYPE4STR),
	E(FT_ENTRY, "vfs_read", "count ^count", USED_ARG_NAME),
	E(FT_RETURN, "no_such_function_for_probe_arg", "$retval->^x", NO_BTF_ENTRY),
	E(FT_ENTRY, NULL, "$current->^nosuch", NO_BTF_FIELD),
	E(FT_PROBE, "vfs_read", "$current->pid->^x", NO_PTR_STRCT),
	E(FT_RETURN, NULL, "$current->comm->^x", NO_PTR_STRCT),
	E(FT_ENTRY, NULL, "$current.^pid", NOSUP_DAT_ARG),
	E(FT_ENTRY, NULL, "$current^-pid", BAD_HYPHEN),
	E(FT_EVENT, NULL, "$current->^nosuch", NO_BTF_FIELD),
	E(FT_ENTRY, NULL, "^$currentx", BAD_VAR),
	E(FT_EVENT, NULL, "^$current_task", BAD_VAR),
	E(FT_ENTRY, "vfs_read", "$current->pid ^nosuch", NO_BTFARG),
	E(FT_ENTRY, NULL, "(^struct nosuch_type_x *)%di->a", NO_PTR_STRCT),
	E(FT_ENTRY, NULL, "(^struct file **)%di->f_mode", BAD_CAST),
	E(FT_ENTRY, NULL, "(file*)^*%di->f_mode", BAD_FETCH_ARG),
	E(FT_ENTRY, NULL, "(^no_such_type_x *)%di->a", NO_PTR_STRCT),
	E(FT_ENTRY, NULL, "(^struct file_x)%di->a", NO_PTR_STRCT),
	E(FT_ENTRY, NULL, "(file,f_path^->mnt)%di->f_mode", TYPECAST_BAD_ARROW),
	E(FT_ENTRY, NULL, "(file)^$comm->f_mode", CAST_NOT_PTR),
	E(FT_ENTRY, NULL, "x=(file^ *$arg1 y=%di", CAST_NOT_CLOSED),
	E(FT_ENTRY, NULL, "(file)+0(^%di->x)->f_mode", BAD_REG_NAME),
	E(FT_ENTRY, NULL, "(file)+0(%di->x)^", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, NULL, "(struct file *)%di->^nosuch", NO_BTF_FIELD),
	E(FT_ENTRY, NULL, "(struct file *)%di->f_mode->^x", NO_PTR_STRCT),
	E(FT_ENTRY, NULL, "((struct file *)%di)^.f_mode", NOSUP_DAT_ARG),
	E(FT_ENTRY, NULL, "((struct^ file *)%di->f_mode", CAST_NOT_CLOSED),
	E(FT_ENTRY, NULL, "(struct^ file *%di", CAST_NOT_CLOSED),
	E(FT_ENTRY, NULL, "((file)%di->f_mode^", CAST_NOT_CLOSED),
	E(FT_ENTRY, NULL, "((struct file *)^$current->pid)->f_mode", CAST_NOT_PTR),
	E(FT_ENTRY, NULL, "(struct file *)$current->^pid", NO_BTF_FIELD),
	E(FT_ENTRY, NULL, "(struct file *)^%zz->f_mode", BAD_REG_NAME),
	E(FT_ENTRY, NULL, "(struct task_struct,^nosuch)%di->pid", NO_BTF_FIELD),
	E(FT_ENTRY, NULL, "(struct task_struct,se)%di^", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, NULL, "(^struct task_struct *,se)%di->pid", BAD_CAST),
	E(FT_USER, NULL, "^(struct file *)%di->f_mode", NOSUP_BTFARG),
	E(FT_ENTRY, NULL, "(^union nosuch_union_x *)%di->a", NO_PTR_STRCT),
	E(FT_EVENT, NULL, "(struct file *)^%di->f_mode", BAD_VAR),
	E(FT_ENTRY, NULL, "%di:^struct", BAD_VIEW),
	E(FT_ENTRY, "vfs_read", "count:^struct", BAD_VIEW),
	E(FT_ENTRY, "vfs_read", "file:^struct[2]", BAD_TYPE),
	E(FT_ENTRY, NULL, "(struct file *)%di->f_mode:^struct", BAD_VIEW),
	E(FT_USER, NULL, "+0(%di):^struct", BAD_TYPE),
	E(FT_ENTRY, NULL, "+8($current):^struct", BAD_VIEW),
	E(FT_ENTRY, NULL, "+0((file)%di):^struct", BAD_VIEW),
	/* the spellings of the typecasts, as kprobe_syntax_errors.tc has them */
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct)file^", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, "vfs_read",
	  "arg1=(a)((b)((c)((d)((e)((f)((g)((h)(^(i)file->i)->h)->g)->f)->e)->d)->c)->b)->a",
	  TOO_MANY_NESTED),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,^in_execve)file->comm",
	  TYPECAST_NOT_ALIGNED),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,^foo_bar)file->pid",
	  NO_BTF_FIELD),
	E(FT_ENTRY, "vfs_read", "arg1=(^task_struct1234)file->pid", NO_PTR_STRCT),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,se^->group_node)file->comm",
	  TYPECAST_BAD_ARROW),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,^->pid)file->comm",
	  NO_BTF_FIELD),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,^.pid)file->comm", NO_BTF_FIELD),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct,^.)file->comm", NO_BTF_FIELD),
	E(FT_ENTRY, "vfs_read", "arg1=(task_struct)^@symbol+10->comm",
	  TYPECAST_SYM_OFFSET),
	E(FT_RETURN, "vfs_read", "arg1=(task_struct)^@jiffies-8->comm",
	  TYPECAST_SYM_OFFSET),
	E(FT_ENTRY, "vfs_read", "(file)(file)^", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, "vfs_read", "(file)(file)^.f_mode", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, "vfs_read", "(file)^(file->f_mode", DEREF_OPEN_BRACE),
	E(FT_ENTRY, "vfs_read", "(file)(^nosuch)->f_mode", NO_BTFARG),
	E(FT_ENTRY, "vfs_read", "(file,f_path)file^", TYPECAST_REQ_FIELD),
	E(FT_ENTRY, "vfs_read", "(file)this_cpu_ptr(file)^", TYPECAST_REQ_FIELD),
};

#undef E

static void parg_check_err(struct kunit *test, const struct parg_err_case *c)
{
	struct parg_caps caps = parg_test_caps(c->site, c->func);
	const char *caret = strchr(c->line, '^');
	int at = caret - c->line, word = 0, start = 0, i, argc;
	struct parg_set *set;
	struct parg_err err;
	const char **argv;
	char *line;

	KUNIT_ASSERT_NOT_NULL(test, caret);
	line = kunit_kzalloc(test, strlen(c->line), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	memcpy(line, c->line, at);
	memcpy(line + at, caret + 1, strlen(caret + 1) + 1);
	for (i = 0; i < at; i++)
		if (line[i] == ' ') {
			word++;
			start = i + 1;
		}
	argc = parg_test_split(test, line, &argv);
	set = parg_set_parse(&caps, argc, argv, &err);
	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(set), "accepted: %s", line);
	if (!IS_ERR(set)) {
		parg_set_free(set);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, err.code, c->code, "%s: got %s", c->line,
			    parg_err_msg(err.code));
	KUNIT_EXPECT_EQ_MSG(test, err.word, word, "%s", c->line);
	KUNIT_EXPECT_EQ_MSG(test, err.pos, at - start, "%s", c->line);
}

static void parg_test_errors(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(parg_err_cases); i++)
		parg_check_err(test, &parg_err_cases[i]);
}

static void parg_test_btf_errors(struct kunit *test)
{
	int i;

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		kunit_skip(test, "no BTF arguments");
	for (i = 0; i < ARRAY_SIZE(parg_btf_err_cases); i++)
		parg_check_err(test, &parg_btf_err_cases[i]);
}

static void parg_test_too_many(struct kunit *test)
{
	struct parg_caps caps = parg_test_caps(FT_ENTRY, NULL);
	const char **argv;
	struct parg_set *set;
	struct parg_err err;
	int i;

	argv = kunit_kcalloc(test, PARG_MAX_ARGS + 1, sizeof(*argv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	for (i = 0; i <= PARG_MAX_ARGS; i++)
		argv[i] = FT_AX_NAME;
	set = parg_set_parse(&caps, PARG_MAX_ARGS, argv, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(set));
	KUNIT_EXPECT_EQ(test, parg_set_count(set), PARG_MAX_ARGS);
	parg_set_free(set);
	set = parg_set_parse(&caps, PARG_MAX_ARGS + 1, argv, &err);
	KUNIT_EXPECT_TRUE(test, IS_ERR(set));
	KUNIT_EXPECT_EQ(test, err.code, PARG_ERR_TOO_MANY_ARGS);
}

/* ------------------------------------------------------------ running */

#define HEAD	8	/* bytes of a pretend event head before the args */

struct parg_rec {
	u8 *buf;
	unsigned int len;
};

static struct parg_rec parg_test_run(struct kunit *test,
				     const struct parg_set *set,
				     struct pt_regs *regs, void *edata,
				     unsigned int room)
{
	struct parg_rec r;

	r.buf = kunit_kzalloc(test, room + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.buf);
	memset(r.buf + room, 0x5a, 64);		/* must stay untouched */
	r.len = parg_set_fetch(set, regs, edata, r.buf, HEAD, room);
	KUNIT_EXPECT_LE(test, r.len, room);
	KUNIT_EXPECT_EQ(test, r.buf[room], 0x5a);
	KUNIT_EXPECT_EQ(test, r.buf[room + 63], 0x5a);
	return r;
}

/* What parg_set_print() makes of the record. */
static const char *parg_test_text(struct kunit *test,
				  const struct parg_set *set,
				  const struct parg_rec *r)
{
	struct trace_seq *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	char *out;

	KUNIT_ASSERT_NOT_NULL(test, s);
	trace_seq_init(s);
	parg_set_print(set, s, r->buf, HEAD);
	out = kunit_kzalloc(test, trace_seq_used(s) + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	memcpy(out, s->buffer, trace_seq_used(s));
	return out;
}

/* Parse, run with room 1024, and compare the printed arguments. */
static struct parg_rec parg_expect(struct kunit *test, enum parg_test_site site,
				   const char *func, const char *line,
				   struct pt_regs *regs, const char *want)
{
	struct parg_set *set = parg_test_parse(test, site, func, line);
	struct parg_rec r = parg_test_run(test, set, regs, NULL, 1024);

	KUNIT_EXPECT_STREQ_MSG(test, parg_test_text(test, set, &r), want,
			       "%s", line);
	return r;
}

static void parg_test_registers(struct kunit *test)
{
	struct pt_regs regs = {};
	struct parg_set *set;
	struct parg_rec r;

	regs.FT_DI = 0x1122334455667788UL;
	regs.FT_SI = -2UL;
	regs.FT_AX = 'A';
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=%di b=%si:s32 c=%di:u8 d=%di:x16 e=%si:s8 f=%ax:char g=%di:b8@8/32 %si:u64");
	KUNIT_EXPECT_EQ(test, parg_set_size(set), 8 + 4 + 1 + 2 + 1 + 1 + 4 + 8);
	KUNIT_EXPECT_FALSE(test, parg_set_is_dynamic(set));
	r = parg_test_run(test, set, &regs, NULL, HEAD + parg_set_size(set));
	KUNIT_EXPECT_EQ(test, r.len, HEAD + parg_set_size(set));
	KUNIT_EXPECT_EQ(test, get_unaligned((u64 *)(r.buf + HEAD)), regs.FT_DI);
	KUNIT_EXPECT_EQ(test, r.buf[HEAD + 12], 0x88);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=0x1122334455667788 b=-2 c=136 d=0x7788 e=-2 f='A' g=119 arg8=18446744073709551614");
}

/* No argument: one shared sealed set, nothing allocated, nothing written. */
static void parg_test_empty(struct kunit *test)
{
	struct pt_regs regs = {};
	struct parg_set *a, *b;
	struct parg_rec r;

	a = parg_test_parse(test, FT_ENTRY, NULL, "");
	b = parg_test_parse(test, FT_RETURN, NULL, "");
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, parg_set_count(a), 0);
	KUNIT_EXPECT_EQ(test, parg_set_size(a), 0);
	KUNIT_EXPECT_EQ(test, parg_set_entry_size(a), 0);
	KUNIT_EXPECT_FALSE(test, parg_set_is_dynamic(a));
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(a, b), -1);	/* no difference */
	r = parg_test_run(test, a, &regs, NULL, HEAD);
	KUNIT_EXPECT_EQ(test, r.len, HEAD);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, a, &r), "");
	KUNIT_EXPECT_EQ(test, parg_set_faults(a), 0);
	parg_set_free(a);	/* the shared set outlives any free */
	KUNIT_EXPECT_EQ(test, parg_set_size(b), 0);
}

/*
 * The registers a set reads, as pt_regs words: named ones, and $argN and
 * $stack where they are registers; a stack slot reads the stack pointer.
 * $comm and immediates add none.
 */
static void parg_test_regs_mask(struct kunit *test)
{
	const unsigned int w = sizeof(long);
	struct parg_set *set;
	u64 want;

	set = parg_test_parse(test, FT_ENTRY, NULL, "$comm \\7 @0x1000");
	KUNIT_EXPECT_EQ(test, parg_set_regs(set), 0);
	set = parg_test_parse(test, FT_ENTRY, NULL, "$stack3");
	KUNIT_EXPECT_EQ(test, parg_set_regs(set),
			BIT_ULL(offsetof(struct pt_regs, sp) / w));
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=%di b=+8(%si):u32 c=%ax:x8 d=%di $arg2 +0($stack):string");
	want = BIT_ULL(offsetof(struct pt_regs, FT_DI) / w) |
	       BIT_ULL(offsetof(struct pt_regs, FT_SI) / w) |
	       BIT_ULL(offsetof(struct pt_regs, FT_AX) / w) |
	       BIT_ULL(offsetof(struct pt_regs, sp) / w);
	KUNIT_EXPECT_EQ(test, parg_set_regs(set), want);
}

/*
 * $current is the running task in every kind of kernel probe (a uprobe
 * refuses it: parg_err_cases).  A parameter named after it is still
 * found in the function's BTF.
 */
static void parg_test_current(struct kunit *test)
{
	static const enum parg_test_site sites[] = {
		FT_PROBE, FT_ENTRY, FT_RETURN, FT_FPROBE, FT_TPOINT, FT_EVENT,
	};
	const char *line = "t=$current:x64 p=$current->pid g=$current->tgid "
			   "c=$current->comm:string pp=$current->real_parent->pid";
	struct task_struct *task = current;
	struct pt_regs regs = {};
	struct parg_set *set;
	char want[160];
	unsigned int i;

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		kunit_skip(test, "no BTF arguments");
	snprintf(want, sizeof(want), " t=0x%lx p=%d g=%d c=\"%s\" pp=%d",
		 (unsigned long)task, task->pid, task->tgid, task->comm,
		 task->real_parent->pid);
	for (i = 0; i < ARRAY_SIZE(sites); i++)
		parg_expect(test, sites[i], NULL, line, &regs, want);

	regs.FT_DX = 4096;
	snprintf(want, sizeof(want), " p=%d count=4096", task->pid);
	parg_expect(test, FT_ENTRY, "vfs_read", "p=$current->pid count", &regs,
		    want);
	set = parg_test_parse(test, FT_ENTRY, NULL, "$current");
	KUNIT_EXPECT_EQ(test, parg_set_size(set), sizeof(long));
}

/*
 * Casts: registers, $argN and $retval read as typed pointers, a cast
 * around a fetch, a typedef, and container_of, on real structures.
 */
static void parg_test_casts(struct kunit *test)
{
	struct task_struct *task = current;
	struct pt_regs regs = {};
	atomic_t *count;
	struct qstr *name;
	struct file *f;
	char want[200];

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		kunit_skip(test, "no BTF arguments");
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	name = kunit_kzalloc(test, sizeof(*name), GFP_KERNEL);
	count = kunit_kzalloc(test, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_ASSERT_NOT_NULL(test, count);
	f->f_flags = 0x8241;
	f->f_pos = -77;
	name->name = "cast-name";
	atomic_set(count, 5);
	regs.FT_DI = (unsigned long)f;
	regs.FT_SI = (unsigned long)&task->se;
	regs.FT_DX = (unsigned long)name;
	regs.FT_CX = (unsigned long)count;
	regs.FT_R8 = (unsigned long)&task->se.vruntime;
	snprintf(want, sizeof(want),
		 " a=0x8241 b=-77 c=%d d=%d e=\"cast-name\" g=5 h=0x%lx",
		 task->pid, task->tgid, (unsigned long)f);
	parg_expect(test, FT_ENTRY, NULL,
		    "a=(struct file *)%di->f_flags:x32 b=((struct file *)$arg1)->f_pos "
		    "c=(struct task_struct,se)%si->pid "
		    "d=(struct task_struct,se.vruntime)%r8->tgid "
		    "e=(struct qstr *)%dx->name:string g=(atomic_t *)%cx->counter "
		    "h=(struct file *)%di", &regs, want);
	/* the spelling without "struct" and '*', and a cast inside a read */
	parg_expect(test, FT_ENTRY, NULL,
		    "a=(file)%di->f_flags:x32 b=((file*)$arg1)->f_pos "
		    "c=(task_struct,se)%si->pid "
		    "d=(task_struct, se.vruntime )%r8->tgid "
		    "e=+0((qstr)%dx->name):string g=(atomic_t)%cx->counter "
		    "h=(struct file)%di", &regs, want);

	/*
	 * The typecast spellings of the ABI: a parenthesized operand, a cast
	 * of a cast's fields, container_of on it, and $current.
	 */
	f->private_data = name;
	snprintf(want, sizeof(want),
		 " a=0x8241 e=\"cast-name\" c=%d d=%d p=%d", task->pid, task->tgid,
		 task->pid);
	parg_expect(test, FT_ENTRY, NULL,
		    "a=(file)(%di)->f_flags:x32 "
		    "e=(qstr)((file)%di->private_data)->name:string "
		    "c=(task_struct,se)(%si)->pid d=(task_struct,se)%si->tgid "
		    "p=(task_struct)$current->pid", &regs, want);
	/* a cast of a this_cpu_ptr() or of a dereference */
	parg_expect(test, FT_ENTRY, NULL, "a=(file)+0(%di)->f_flags:x32",
		    &regs, " a=(fault)");

	/* the same in a return probe, on the returned pointer */
	memset(&regs, 0, sizeof(regs));
	regs.FT_RETVAL = (unsigned long)f;
	parg_expect(test, FT_RETURN, NULL, "a=(struct file *)$retval->f_flags:x32",
		    &regs, " a=0x8241");
	/* a pointer that faults records (fault) */
	regs.FT_RETVAL = 8;
	parg_expect(test, FT_RETURN, NULL, "a=(struct file *)$retval->f_flags:x32",
		    &regs, " a=(fault)");
}

static void parg_test_free_percpu(void *p)
{
	free_percpu((void __percpu __force *)p);
}

/*
 * this_cpu_ptr() turns a per-CPU address into this CPU's, and
 * this_cpu_read() reads there; of @SYM they take the symbol's own
 * address, not the word at it.  The CPU stays the same while migration
 * is off.
 */
static void parg_test_this_cpu(struct kunit *test)
{
	unsigned long __percpu *pc = alloc_percpu(unsigned long);
	unsigned long *holder = kunit_kzalloc(test, 2 * sizeof(long), GFP_KERNEL);
	struct pt_regs regs = {};
	struct parg_set *set;
	struct parg_rec r;
	char want[160];

	KUNIT_ASSERT_NOT_NULL(test, pc);
	KUNIT_ASSERT_NOT_NULL(test, holder);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
				parg_test_free_percpu, (void __force *)pc));
	holder[1] = (unsigned long)pc;
	regs.FT_DI = (unsigned long)pc;
	regs.FT_SI = (unsigned long)holder;

	migrate_disable();
	*this_cpu_ptr(pc) = 0x1234;
	snprintf(want, sizeof(want), " a=0x1234 b=0x%lx c=4660 d=0x%lx",
		 (unsigned long)this_cpu_ptr(pc),
		 (unsigned long)this_cpu_ptr(&kernel_cpustat));
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=this_cpu_read(%di) b=this_cpu_ptr(%di) "
			      "c=this_cpu_read(+8(%si)):u32 "
			      "d=this_cpu_ptr(@kernel_cpustat)");
	KUNIT_EXPECT_EQ(test, parg_set_resolve(set), 0);
	r = parg_test_run(test, set, &regs, NULL, 1024);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r), want);
	migrate_enable();

	/* the per-CPU address of @SYM takes no step of its own */
	KUNIT_EXPECT_EQ(test, set->args[3].nderef, 1);
	KUNIT_EXPECT_EQ(test, set->args[3].store, PARG_ST_RAW);
	KUNIT_EXPECT_EQ(test, set->args[0].store, PARG_ST_MEM);
}

/*
 * The dump of DUMP_FETCHARG: each argument's source, steps and store, per-CPU
 * steps by their own name.
 */
static void parg_test_dump(struct kunit *test)
{
	struct seq_file m = { .size = 512 };
	struct parg_set *set;
	char want[256];

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=this_cpu_read(+8(%si)):u32 b=+0(%di):b4@2/8 c=%di");
	snprintf(want, sizeof(want),
		 "#  a: reg(0x%zx) -> deref(8) -> cpu_ptr(0) -> mem(offset=0,size=4,count=1)\n"
		 "#  b: reg(0x%zx) -> mem(offset=0,size=1,count=1,lshift=58,rshift=60)\n"
		 "#  c: reg(0x%zx) -> raw(offset=0,size=8,count=1)\n",
		 offsetof(struct pt_regs, FT_SI), offsetof(struct pt_regs, FT_DI),
		 offsetof(struct pt_regs, FT_DI));
	parg_set_dump(set, &m);
	KUNIT_EXPECT_STREQ(test, m.buf, want);
}

/*
 * :struct shows one level of a struct by BTF: numbers, pointers, char
 * arrays, "{...}" for what nests, and ",..." past the bytes the record
 * holds (a struct new_utsname is 390 bytes, the record keeps 256).
 */
static void parg_test_view(struct kunit *test)
{
	const struct new_utsname *u = utsname();
	struct pt_regs regs = {};
	struct timespec64 *ts;
	struct parg_set *set;
	struct parg_rec r;
	const char *text;
	struct sock *sk;
	struct file *f;
	char want[320];

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		kunit_skip(test, "no BTF arguments");
	ts = kunit_kzalloc(test, sizeof(*ts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ts);
	ts->tv_sec = -5;
	ts->tv_nsec = 7;
	regs.FT_DI = (unsigned long)ts;
	regs.FT_SI = (unsigned long)u;
	snprintf(want, sizeof(want),
		 " t={.tv_sec=-5,.tv_nsec=7} u={.sysname=\"%s\",.nodename=\"%s\",.release=\"%s\",...}",
		 u->sysname, u->nodename, u->release);
	parg_expect(test, FT_ENTRY, NULL,
		    "t=(struct timespec64 *)%di:struct u=(struct new_utsname *)%si:struct",
		    &regs, want);
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "t=(struct timespec64 *)%di:struct u=(struct new_utsname *)%si:struct");
	KUNIT_EXPECT_EQ(test, parg_set_size(set), sizeof(*ts) + PARG_VIEW_MAX + 1);

	/* a struct reached as a member, in place */
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	/* f_path is const: filled the way alloc_file() would */
	memcpy((void *)&f->f_path, &(struct path){ .mnt = (struct vfsmount *)0x1234,
			.dentry = (struct dentry *)0x5678 }, sizeof(f->f_path));
	regs.FT_DI = (unsigned long)f;
	parg_expect(test, FT_ENTRY, NULL, "p=(struct file *)%di->f_path:struct",
		    &regs, " p={.mnt=0x1234,.dentry=0x5678}");
	/* a pointer that faults; $current, bare, has its type too */
	regs.FT_DI = 8;
	parg_expect(test, FT_ENTRY, NULL, "t=(struct timespec64 *)%di:struct",
		    &regs, " t=(fault)");
	set = parg_test_parse(test, FT_ENTRY, NULL, "t=$current:struct");
	KUNIT_EXPECT_EQ(test, parg_set_size(set), PARG_VIEW_MAX + 1);

	/* members of no size (cache-line markers) do not end the view */
	sk = kunit_kzalloc(test, sizeof(*sk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sk);
	regs.FT_DI = (unsigned long)sk;
	set = parg_test_parse(test, FT_ENTRY, NULL, "s=(sock)%di:struct");
	r = parg_test_run(test, set, &regs, NULL, 1024);
	text = parg_test_text(test, set, &r);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "={},"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, ",.sk_drops="));

	/* two views of different structs do not share an event */
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(
		parg_test_parse(test, FT_ENTRY, NULL, "s=(task_struct)%di:struct"),
		parg_test_parse(test, FT_ENTRY, NULL, "s=(inode)%di:struct")), 0);
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(
		parg_test_parse(test, FT_ENTRY, NULL, "s=(inode)%di:struct"),
		parg_test_parse(test, FT_ENTRY, NULL, "s=(inode *)%si:struct")), -1);
}

static void parg_test_immediates(struct kunit *test)
{
	struct pt_regs regs = {};
	char want[96];

	snprintf(want, sizeof(want),
		 " a=16 b=-5 c=0x7 d=\"hi\" e=\"\" arg6=\"%s\"", current->comm);
	parg_expect(test, FT_PROBE, NULL,
		    "a=\\0x10:u16 b=\\-5:s32 c=\\+7 d=\\\"hi\" e=\\\"\" $comm",
		    &regs, want);
}

static void parg_test_stack(struct kunit *test)
{
	unsigned long stack[4] = { 0x10, 0x20, 0x30, 0x40 };
	struct pt_regs regs = {};
	char want[64];

	regs.sp = (unsigned long)stack;
	snprintf(want, sizeof(want), " arg1=0x10 b=32 c=0x%lx",
		 (unsigned long)stack);
	parg_expect(test, FT_PROBE, NULL, "$stack0 b=$stack1:u32 c=$stack",
		    &regs, want);
}

struct parg_test_obj {
	u32 a;
	u32 b;
	struct parg_test_obj *next;
	const char *name;
	char inl[8];
	const char *names[3];
	u8 bytes[4];
};

static void parg_test_derefs(struct kunit *test)
{
	struct parg_test_obj inner = { .a = 7, .name = "inner" };
	struct parg_test_obj outer = {
		.a = 0xf00d, .b = 0xfffffffe, .next = &inner, .name = "outer",
		.inl = "inl", .names = { "x", "yy", "zzz" },
		.bytes = { 1, 2, 3, 250 },
	};
	struct pt_regs regs = {};

	regs.FT_DI = (unsigned long)&outer;
	regs.FT_SI = (unsigned long)&outer.b;
	parg_expect(test, FT_ENTRY, NULL,
		    "a=+0(%di):x32 b=+4(%di):s32 c=-4(%si):u32 n=+0(+8(%di)):u32 s=+0(+16(%di)):string",
		    &regs, " a=0xf00d b=-2 c=61453 n=7 s=\"outer\"");
	parg_expect(test, FT_ENTRY, NULL,
		    "s=+0(+16(+8(%di))):string i=+24(%di):string c=+24(%di):char",
		    &regs, " s=\"inner\" i=\"inl\" c='i'");
	parg_expect(test, FT_ENTRY, NULL,
		    "v=+56(%di):u8[4] x=+56(%di):x8[2] s=+32(%di):string[3] c=+24(%di):char[3]",
		    &regs, " v={1,2,3,250} x={0x1,0x2} s={\"x\",\"yy\",\"zzz\"} c={'i','n','l'}");
	parg_expect(test, FT_ENTRY, NULL,
		    "lo=+0(%di):b4@0/32 hi=+0(%di):b4@12/32 v=+56(%di):b4@4/8[4]",
		    &regs, " lo=13 hi=15 v={0,0,0,15}");
}

static void parg_test_faults(struct kunit *test)
{
	struct parg_test_obj obj = { .a = 5, .name = NULL };
	struct parg_set *set;
	struct pt_regs regs = {};
	struct parg_rec r;

	regs.FT_DI = (unsigned long)&obj;
	regs.FT_SI = 16;	/* a NULL page address */
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "ok=+0(%di):u32 bad=+0(%si):u32 s=+0(%si):string n=+0(+16(%di)):string arr=+0(%si):u16[2] ok2=+0(%di):u8 u=+u0(%di):u32");
	/* fields 4+4+4+4+4+1+4 = 25, then a map of 5 faultable args */
	KUNIT_EXPECT_EQ(test, parg_set_size(set), 25 + 1);
	r = parg_test_run(test, set, &regs, NULL, 256);
	KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(r.buf + HEAD + 4)), 0);
	KUNIT_EXPECT_EQ(test, r.buf[HEAD + 25], 0x2 | 0x4 | 0x10);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " ok=5 bad=(fault) s=(fault) n=(fault) arr=(fault) ok2=5 u=(fault)");

	/* a set with no memory scalars has no fault map */
	set = parg_test_parse(test, FT_ENTRY, NULL, "%di s=+0(%si):string");
	KUNIT_EXPECT_EQ(test, parg_set_size(set), 12);
}

/* A string that ends right before an unmapped page, and one that runs in. */
static void parg_test_guard_page(struct kunit *test)
{
	const char *text = "0123456789";
	struct parg_set *set;
	struct pt_regs regs = {};
	struct parg_rec r;
	char want[32];
	char *page;
	int len;

	page = vmalloc(PAGE_SIZE);	/* followed by an unmapped guard page */
	KUNIT_ASSERT_NOT_NULL(test, page);
	set = parg_test_parse(test, FT_ENTRY, NULL, "s=+0(%di):string");
	for (len = 0; len <= 10; len++) {
		/* its NUL is the last byte of the page, from every alignment */
		memset(page, 'x', PAGE_SIZE);
		memcpy(page + PAGE_SIZE - 1 - len, text, len);
		page[PAGE_SIZE - 1] = '\0';
		regs.FT_DI = (unsigned long)page + PAGE_SIZE - 1 - len;
		r = parg_test_run(test, set, &regs, NULL, 64);
		snprintf(want, sizeof(want), " s=\"%.*s\"", len, text);
		KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r), want);
		KUNIT_EXPECT_EQ(test, r.len, HEAD + 4 + len + 1);
	}
	/* no NUL before the guard page: the read faults part way */
	memset(page, 'y', PAGE_SIZE);
	regs.FT_DI = (unsigned long)page + PAGE_SIZE - 13;
	r = parg_expect(test, FT_ENTRY, NULL, "s=+0(%di):string t=+0(%di):u64",
			&regs, " s=(fault) t=8753160913407277433");
	KUNIT_EXPECT_EQ(test, r.len, HEAD + 12 + 1);
	vfree(page);
}

/* Strings are cut at the room limit, NUL-terminated, never dropped. */
static void parg_test_room(struct kunit *test)
{
	struct parg_set *set;
	struct pt_regs regs = {};
	struct parg_rec r;
	char *text;

	text = kunit_kzalloc(test, 32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	strscpy(text, "0123456789abcdefghij", 32);
	regs.FT_DI = (unsigned long)text;
	regs.FT_AX = 0x7f;
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=+0(%di):string b=+3(%di):string c=%ax:x8");
	KUNIT_EXPECT_TRUE(test, parg_set_is_dynamic(set));

	r = parg_test_run(test, set, &regs, NULL, 1024);
	KUNIT_EXPECT_EQ(test, r.len, HEAD + 9 + 21 + 18);
	KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(r.buf + HEAD)),
			21 << 16 | (HEAD + 9));

	/* 9 bytes fixed + 12 left: "a" gets 11 chars + NUL, "b" nothing */
	r = parg_test_run(test, set, &regs, NULL, HEAD + 9 + 12);
	KUNIT_EXPECT_EQ(test, r.len, HEAD + 9 + 12);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=\"0123456789a\" b=(fault) c=0x7f");
	/* every word size of cut */
	r = parg_test_run(test, set, &regs, NULL, HEAD + 9 + 5);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=\"0123\" b=(fault) c=0x7f");
	r = parg_test_run(test, set, &regs, NULL, HEAD + 9 + 22);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=\"0123456789abcdefghij\" b=\"\" c=0x7f");
	r = parg_test_run(test, set, &regs, NULL, HEAD + 9 + 23);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=\"0123456789abcdefghij\" b=\"3\" c=0x7f");
}

static void parg_test_user(struct kunit *test)
{
	struct pt_regs regs = {};
	unsigned long uaddr;
	char kbuf[8] = "kernel";

	uaddr = kunit_vm_mmap(test, NULL, 0, 2 * PAGE_SIZE,
			      PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr) || !uaddr)
		kunit_skip(test, "no user memory");
	KUNIT_ASSERT_EQ(test, 0,
			copy_to_user((void __user *)uaddr, "/dev/null", 10));
	KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)uaddr + 16,
					      &uaddr, sizeof(uaddr)));
	KUNIT_ASSERT_EQ(test, 0, put_user(0x12345678u, (u32 __user *)(uaddr + 32)));

	regs.FT_DI = uaddr;
	regs.FT_SI = (unsigned long)kbuf;
	parg_expect(test, FT_ENTRY, NULL,
		    "a=+0(%di):ustring b=+u0(%di):string c=+u32(%di):x32 d=+u0(+u16(%di)):ustring k=+0(%si):ustring ks=+0(%di):string kv=+32(%di):x32 kp=+0(+16(%di)):string",
		    &regs,
		    " a=\"/dev/null\" b=\"/dev/null\" c=0x12345678 d=\"/dev/null\" k=(fault) ks=\"/dev/null\" kv=0x12345678 kp=\"/dev/null\"");

	/* a user string running into a page never touched: it faults */
	KUNIT_ASSERT_EQ(test, 0, clear_user((void __user *)uaddr, PAGE_SIZE));
	KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)uaddr + PAGE_SIZE - 3,
					      "abc", 3));
	regs.FT_DI = uaddr + PAGE_SIZE - 3;
	parg_expect(test, FT_ENTRY, NULL, "a=+0(%di):ustring", &regs,
		    " a=(fault)");
}

/* parg_set_fetch_user() into a fresh record of @room bytes. */
static struct parg_rec parg_test_run_user(struct kunit *test,
					  const struct parg_set *set,
					  struct pt_regs *regs,
					  struct parg_ufaults *uf)
{
	struct parg_rec r;

	r.buf = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.buf);
	r.len = parg_set_fetch_user(set, regs, NULL, r.buf, HEAD, 1024, uf);
	return r;
}

/*
 * parg_set_fetch_user() says which user reads faulted (a page never
 * touched, and an address where nothing is mapped), leaves the count of
 * faulted records to the caller, and reads the page once it is in.
 */
static void parg_test_user_faults(struct kunit *test)
{
	struct parg_ufaults uf;
	struct pt_regs regs = {};
	struct parg_set *set;
	unsigned long uaddr, fresh, faults;
	struct parg_rec r;

	uaddr = kunit_vm_mmap(test, NULL, 0, 2 * PAGE_SIZE,
			      PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr) || !uaddr)
		kunit_skip(test, "no user memory");
	fresh = uaddr + PAGE_SIZE;	/* never touched: not present */
	regs.FT_DI = fresh;
	regs.FT_SI = 16;
	set = parg_test_parse(test, FT_USER, NULL,
			      "s=+0(%di):string v=+8(%di):u32 bad=+0(%si):u32");
	faults = parg_set_faults(set);

	r = parg_test_run_user(test, set, &regs, &uf);
	KUNIT_EXPECT_TRUE(test, uf.faulted);
	KUNIT_ASSERT_EQ(test, uf.nr, 3);
	KUNIT_EXPECT_EQ(test, uf.at[0].addr, fresh);
	KUNIT_EXPECT_GT(test, uf.at[0].len, 0);
	KUNIT_EXPECT_EQ(test, uf.at[1].addr, fresh + 8);
	KUNIT_EXPECT_EQ(test, uf.at[1].len, 4);
	KUNIT_EXPECT_EQ(test, uf.at[2].addr, 16);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " s=(fault) v=(fault) bad=(fault)");
	KUNIT_EXPECT_EQ(test, parg_set_faults(set), faults);

	/* what a sleeping caller does: page it in, fetch again */
	KUNIT_ASSERT_EQ(test, 0,
			fault_in_readable((const char __user *)fresh, 16));
	r = parg_test_run_user(test, set, &regs, &uf);
	KUNIT_EXPECT_TRUE(test, uf.faulted);
	KUNIT_ASSERT_EQ(test, uf.nr, 1);
	KUNIT_EXPECT_EQ(test, uf.at[0].addr, 16);
	/*
	 * The page reads as zeroes now.  An empty user string stores length
	 * 0, which prints "(fault)"; @uf says that
	 * only the read at 16 faulted.
	 */
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " s=(fault) v=0 bad=(fault)");
	parg_set_count_fault(set);
	KUNIT_EXPECT_EQ(test, parg_set_faults(set), faults + 1);

	/* registers only: nothing can fault */
	set = parg_test_parse(test, FT_USER, NULL, "a=%di");
	r = parg_test_run_user(test, set, &regs, &uf);
	KUNIT_EXPECT_EQ(test, uf.nr, 0);
	KUNIT_EXPECT_FALSE(test, uf.faulted);
}

/* The compiled store of argument @i, and whether deref @d reads user memory. */
static void parg_expect_store(struct kunit *test, const struct parg_set *set,
			      int i, enum parg_store store, u16 user_derefs)
{
	KUNIT_EXPECT_EQ_MSG(test, set->args[i].store, store, "argument %d", i);
	KUNIT_EXPECT_EQ_MSG(test, set->args[i].user_derefs, user_derefs, "argument %d", i);
}

/*
 * A uprobe reads user memory wherever it reads memory: every dereference,
 * @ADDR, $stackN, the words a string is read from and the strings
 * themselves; @+OFFS is the probed file's mapping at OFFS, relative to the
 * probe's own place in it.
 */
static void parg_test_uprobe(struct kunit *test)
{
	struct parg_set *set;

	set = parg_test_parse(test, FT_USER, NULL,
			      "a=+8(%di):u32 b=+0(+16(%di)):string c=@0x1000:x64 d=$stack2 e=@+0x1010:u16 f=%di:u64 g=+0(%di):u8[4] h=$stack");
	parg_expect_store(test, set, 0, PARG_ST_UMEM, 0);
	KUNIT_EXPECT_EQ(test, set->args[0].nderef, 0);
	parg_expect_store(test, set, 1, PARG_ST_USTR, BIT(0));
	parg_expect_store(test, set, 2, PARG_ST_UMEM, 0);
	parg_expect_store(test, set, 3, PARG_ST_UMEM, 0);
	KUNIT_EXPECT_EQ(test, set->args[3].off, (long)(2 * sizeof(long)));
	KUNIT_EXPECT_EQ(test, set->args[4].src, PARG_SRC_FILE);
	KUNIT_EXPECT_EQ(test, set->args[4].param, 0x10);
	parg_expect_store(test, set, 4, PARG_ST_UMEM, 0);
	parg_expect_store(test, set, 5, PARG_ST_RAW, 0);
	parg_expect_store(test, set, 6, PARG_ST_UMEM, 0);
	parg_expect_store(test, set, 7, PARG_ST_RAW, 0);

	/*
	 * A uretprobe: $retval is a plain register, never BTF-typed (kfree's
	 * would be void); a string at an immediate is a user string.
	 */
	set = parg_test_parse(test, FT_USER_RET, "kfree", "r=$retval s=\\4096:string");
	parg_expect_store(test, set, 0, PARG_ST_RAW, 0);
	parg_expect_store(test, set, 1, PARG_ST_USTR, 0);
}

/* @+OFFS at hit time: from where the probe hit, which @edata gives. */
static void parg_test_file_offset(struct kunit *test)
{
	struct parg_set *set;
	struct pt_regs regs = {};
	unsigned long uaddr, hit;
	struct parg_rec r;

	uaddr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr) || !uaddr)
		kunit_skip(test, "no user memory");
	KUNIT_ASSERT_EQ(test, 0, put_user(0xbeefu, (u16 __user *)(uaddr + 0x40)));
	/* the probe is at file offset 0x1000, mapped at uaddr + 0x20 */
	hit = uaddr + 0x20;
	set = parg_test_parse(test, FT_USER, NULL, "v=@+0x1020:x16 w=@+-16:x16");
	r = parg_test_run(test, set, &regs, &hit, 1024);
	KUNIT_EXPECT_EQ(test, get_unaligned((u16 *)(r.buf + HEAD)), 0xbeef);
	KUNIT_EXPECT_EQ(test, set->args[1].param, -16UL - FT_FILE_OFFSET);
}

/* A tracepoint probe's $argN is the stub's parameter N + 1. */
static void parg_test_tpoint(struct kunit *test)
{
	struct pt_regs regs = {};

	regs.FT_DI = 0xdead;		/* the tracepoint's data pointer */
	regs.FT_SI = 7;
	regs.FT_DX = 9;
	parg_expect(test, FT_TPOINT, NULL, "a=$arg1 b=$arg2:s32", &regs,
		    " a=0x7 b=9");
	parg_expect(test, FT_FPROBE, NULL, "a=$arg1", &regs, " a=0xdead");
}

/* The pretend record of FT_EVENT, filled in. */
static u8 *parg_test_event_rec(struct kunit *test)
{
	u8 *rec = kunit_kzalloc(test, 72, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rec);
	put_unaligned(-5, (s32 *)(rec + 8));
	rec[12] = 0xf0;
	put_unaligned(-2, (s16 *)(rec + 14));
	put_unaligned(6 << 16 | 56, (u32 *)(rec + 16));	/* "hello" at 56 */
	put_unaligned(4 << 16 | 40, (u32 *)(rec + 20));	/* 24 + 40 = 64 */
	strscpy(rec + 24, "fixed", 16);
	put_unaligned((unsigned long)"pointed", (unsigned long *)(rec + 40));
	put_unaligned(0x1122334455667788ULL, (u64 *)(rec + 48));
	strscpy(rec + 56, "hello", 8);
	strscpy(rec + 64, "rel", 8);
	return rec;
}

/*
 * An event probe reads the fields of the record it fires on: numbers by
 * their size and sign, strings of every kind of string field, a field
 * that hides $comm, and a dereference of a pointer field.
 */
static void parg_test_event_fields(struct kunit *test)
{
	u8 *rec = parg_test_event_rec(test);
	struct parg_set *set;
	struct parg_rec r;

	set = parg_test_parse(test, FT_EVENT, NULL,
			      "p=$pid:s32 f=$flags:u8 n=$neg:s16 w=$pid v=$val");
	r = parg_test_run(test, set, NULL, rec, 1024);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " p=-5 f=240 n=-2 w=0xfffffffffffffffb v=0x1122334455667788");

	set = parg_test_parse(test, FT_EVENT, NULL,
			      "a=$name:string b=$rname:string c=$comm:string d=$ptr:string e=+1($ptr):string g=+0($val):u8");
	r = parg_test_run(test, set, NULL, rec, 1024);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=\"hello\" b=\"rel\" c=\"fixed\" d=\"pointed\" e=\"ointed\" g=(fault)");
	KUNIT_EXPECT_EQ(test, set->args[0].src, PARG_SRC_FIELD);
	KUNIT_EXPECT_EQ(test, set->args[0].param,
			PARG_FIELD(16, PARG_FIELD_DATA_LOC));

	/* OFFS($word) runs inline; a narrower field takes the general path */
	set = parg_test_parse(test, FT_EVENT, NULL,
			      "a=+0($ptr):u8 b=+1($ptr):x16 c=+0($val):u8 d=+0($pid):u8");
	r = parg_test_run(test, set, NULL, rec, 1024);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=112 b=0x696f c=(fault) d=(fault)");
	KUNIT_EXPECT_EQ(test, set->args[0].op, PARG_OP_FIELD_MEM);
	KUNIT_EXPECT_EQ(test, set->args[2].op, PARG_OP_FIELD_MEM);
	KUNIT_EXPECT_EQ(test, set->args[3].op, PARG_OP_ANY);
}

static void parg_test_symbols(struct kunit *test)
{
	unsigned long addr = (unsigned long)kfree;
	struct parg_set *set;
	struct pt_regs regs = {};
	struct parg_rec r;
	const char *text;

	regs.FT_DI = addr;
	regs.FT_SI = (unsigned long)&addr;
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=%di:symbol b=%di:symstr c=+0(%si):symstr d=@kfree+4:u8 e=@jiffies:u8");
	KUNIT_EXPECT_EQ(test, parg_set_resolve(set), 0);
	r = parg_test_run(test, set, &regs, NULL, 1024);
	text = parg_test_text(test, set, &r);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(text, " a=kfree+0x0/0x"), "%s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " b=\"kfree+0x0/0x"), "%s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " c=\"kfree+0x0/0x"), "%s", text);
	KUNIT_EXPECT_EQ(test, r.buf[HEAD + 16], *(u8 *)(addr + 4));

	/* a symbol text cut by the room limit */
	r = parg_test_run(test, set, &regs, NULL, HEAD + parg_set_size(set) + 6);
	text = parg_test_text(test, set, &r);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " b=\"kfree\" c=(fault)"), "%s", text);

	set = parg_test_parse(test, FT_ENTRY, NULL, "a=@no_such_symbol_probe_arg");
	KUNIT_EXPECT_EQ(test, parg_set_resolve(set), -ENOENT);
}

/*
 * :symstr keeps sprint_symbol()'s text byte for byte, cut to the room left
 * with its NUL: at every length of cut, in vmlinux (a function and a place
 * inside one), in a module (this one), and where no symbol is.
 */
static void parg_symstr_check(struct kunit *test, const struct parg_set *set,
			      unsigned long addr)
{
	unsigned int max, len, n, rooms[] = { KSYM_NAME_LEN - 1, KSYM_NAME_LEN,
					      KSYM_SYMBOL_LEN - 1, KSYM_SYMBOL_LEN };
	struct pt_regs regs = {};
	struct parg_rec r;
	char *want;
	u32 loc;
	int i;

	want = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	len = sprint_symbol(want, addr);
	regs.FT_DI = addr;
	for (i = -(int)(len + 2); i < (int)ARRAY_SIZE(rooms); i++) {
		max = i < 0 ? -i - 1 : rooms[i];	/* 0..len + 1, then rooms[] */
		r = parg_test_run(test, set, &regs, NULL, HEAD + sizeof(u32) + max);
		loc = get_unaligned((u32 *)(r.buf + HEAD));
		n = max ? min(len, max - 1) + 1 : 0;
		KUNIT_EXPECT_EQ_MSG(test, loc >> 16, n, "%s, room %u", want, max);
		KUNIT_EXPECT_EQ(test, loc & 0xffff, HEAD + sizeof(u32));
		if (loc >> 16 != n || !n)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, memcmp(r.buf + (loc & 0xffff), want, n - 1), 0,
				    "%s, room %u: \"%s\"", want, max,
				    r.buf + (loc & 0xffff));
		KUNIT_EXPECT_EQ(test, r.buf[(loc & 0xffff) + n - 1], 0);
	}
}

static void parg_test_symstr_cut(struct kunit *test)
{
	struct parg_set *set = parg_test_parse(test, FT_ENTRY, NULL, "s=%di:symstr");

	parg_symstr_check(test, set, (unsigned long)kfree);
	parg_symstr_check(test, set, (unsigned long)kfree + 4);
	parg_symstr_check(test, set, (unsigned long)parg_symstr_check);
	parg_symstr_check(test, set, 0x10);
}

/* Return probes read $argN from the words saved at entry. */
static void parg_test_entry(struct kunit *test)
{
	struct pt_regs regs = {};
	struct parg_set *set;
	unsigned long *edata;
	struct parg_rec r;

	set = parg_test_parse(test, FT_RETURN, NULL,
			      "a=$arg2 b=$arg5:u8 c=$arg2:s32 r=$retval");
	KUNIT_ASSERT_EQ(test, parg_set_entry_size(set), 2 * sizeof(long));
	edata = kunit_kzalloc(test, parg_set_entry_size(set), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, edata);
	regs.FT_SI = -3UL;
	regs.FT_R8 = 0x105;
	parg_set_save_entry(set, &regs, edata);
	memset(&regs, 0, sizeof(regs));
	regs.FT_RETVAL = 9;
	r = parg_test_run(test, set, &regs, edata, 256);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " a=0xfffffffffffffffd b=5 c=-3 r=0x9");

	set = parg_test_parse(test, FT_ENTRY, NULL, "%di");
	KUNIT_EXPECT_EQ(test, parg_set_entry_size(set), 0);
}

static void parg_test_btf(struct kunit *test)
{
	struct dentry *d;
	struct pt_regs regs = {};
	struct parg_set *set;
	unsigned long *edata;
	struct parg_rec r;

	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		kunit_skip(test, "no BTF arguments");

	regs.FT_DI = 0x1000;
	regs.FT_SI = 0x2000;
	regs.FT_DX = 42;
	regs.FT_CX = 0x3000;
	parg_expect(test, FT_ENTRY, "vfs_read", "$arg*", &regs,
		    " file=0x1000 buf=0x2000 count=42 pos=0x3000");
	parg_expect(test, FT_ENTRY, "vfs_read", "$arg3 n=count:x16 $arg1:x8",
		    &regs, " count=42 n=0x2a file=0x0");

	/* fields through a real struct dentry */
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	/* d_name is const outside fs/dcache.c */
	memcpy((void *)&d->d_name, &(struct qstr)QSTR_INIT("probe_arg-name", 9),
	       sizeof(d->d_name));
	regs.FT_DI = (unsigned long)d;
	parg_expect(test, FT_ENTRY, "dput",
		    "n=dentry->d_name.name:string l=dentry->d_name.len $arg1:%pd",
		    &regs, " n=\"probe_arg-name\" l=9 arg3=\"probe_arg-name\"");

	/* typed $retval, and arguments saved at entry */
	set = parg_test_parse(test, FT_RETURN, "vfs_read", "$retval count");
	KUNIT_ASSERT_EQ(test, parg_set_entry_size(set), sizeof(long));
	edata = kunit_kzalloc(test, sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, edata);
	regs.FT_DX = 77;
	parg_set_save_entry(set, &regs, edata);
	regs.FT_RETVAL = -14L;
	regs.FT_DX = 0;
	r = parg_test_run(test, set, &regs, edata, 256);
	KUNIT_EXPECT_STREQ(test, parg_test_text(test, set, &r),
			   " arg1=-14 count=77");
}

static void parg_test_print_fmt(struct kunit *test)
{
	struct parg_set *set;
	char fmt[256] = "\"(%lx)", args[256] = "";
	size_t flen, alen;

	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=%di b=%si:s16 s=+0(%di):string v=+0(%di):u8[2] c=%ax:char y=%ax:symbol w=+0(%di):string[2]");
	parg_set_print_fmt_len(set, &flen, &alen);
	KUNIT_EXPECT_EQ(test, parg_set_print_fmt(set, fmt, sizeof(fmt), args,
						 sizeof(args)), 0);
	KUNIT_EXPECT_STREQ(test, fmt,
			   "\"(%lx) a=0x%Lx b=%d s=\\\"%s\\\" v={%u,%u} c='%c' y=%pS w={\\\"%s\\\",\\\"%s\\\"}");
	KUNIT_EXPECT_STREQ(test, args,
			   ", REC->a, REC->b, __get_str(s), REC->v[0], REC->v[1], REC->c, REC->y, __get_str(w[0]), __get_str(w[1])");
	KUNIT_EXPECT_EQ(test, flen + 6, strlen(fmt));
	KUNIT_EXPECT_EQ(test, alen, strlen(args));
	KUNIT_EXPECT_EQ(test, parg_set_print_fmt(set, fmt, 40, args,
						 sizeof(args)), -ENOSPC);
}

static void parg_test_compare(struct kunit *test)
{
	char w0[] = "x=%di", w1[] = "y=+0(%si):u8";
	const char *const words[] = { w0, w1 };
	struct parg_set *a, *b, *b2, *c, *d, *e;

	/* the words of a definition line, in this machine's register names */
	parg_test_regs(w0);
	parg_test_regs(w1);
	a = parg_test_parse(test, FT_ENTRY, NULL, "x=%di y=+0(%si):u8");
	b = parg_test_parse(test, FT_ENTRY, NULL, "x=%si y=+8(%dx):u8");
	c = parg_test_parse(test, FT_ENTRY, NULL, "x=%di y=+0(%si):b3@1/8 z=%ax");
	d = parg_test_parse(test, FT_ENTRY, NULL, "x=%di y=%si:x8");
	e = parg_test_parse(test, FT_ENTRY, NULL, "x=%si y=%dx:u8");
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(a, b), -1);
	/* a register where the other reads memory: another fault map */
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(a, e), 1);
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(e, a), 1);
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(a, c), 2);
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(c, a), 2);
	KUNIT_EXPECT_EQ(test, parg_set_mismatch(a, d), 1);
	/* one layout, but another register, then another offset */
	KUNIT_EXPECT_EQ(test, parg_set_differs(a, b), 0);
	KUNIT_EXPECT_EQ(test, parg_set_differs(a, a), -1);
	KUNIT_EXPECT_EQ(test, parg_set_differs(a, c), 2);
	b2 = parg_test_parse(test, FT_ENTRY, NULL, "x=%di y=+8(%si):u8");
	KUNIT_EXPECT_EQ(test, parg_set_differs(a, b2), 1);
	KUNIT_EXPECT_TRUE(test, parg_set_same_text(a, a));
	KUNIT_EXPECT_FALSE(test, parg_set_same_text(a, b));
	KUNIT_EXPECT_TRUE(test, parg_set_match_words(a, 2, words));
	KUNIT_EXPECT_TRUE(test, parg_set_match_words(a, 1, words));
	KUNIT_EXPECT_FALSE(test, parg_set_match_words(b, 2, words));
	KUNIT_EXPECT_FALSE(test, parg_set_match_words(a, 3, words));
}

/*
 * The cost of one parg_set_fetch(), for `make check ICOUNT=1`, where the
 * guest clock advances one nanosecond per instruction: the figures printed
 * are then instructions per call.  It checks the record after the loop.
 */
static void parg_test_cost(struct kunit *test)
{
	static const char *const sets[] = {
		"",
		"a=%di b=%si c=%dx d=%cx",
		"a=+8(%di):u32",
		"s=+0(%di):string",
		"a=%di b=%si c=%dx s=+0(%di):string",
		"s=+0(+0(+0(%si))):string",
		"a=%di b=%si c=%dx s=+0(+0(+0(%si))):string",
		"s0=$stack0 s1=$stack1",
		"a=$arg1 b=$arg2 c=$arg3 d=$arg4",
	};
	char *chain[2];
	unsigned long stack[2] = { 5, 6 };
	char text[] = "sixteen-chars-ab";
	struct pt_regs regs = {};
	struct parg_set *set;
	unsigned long flags;
	u64 t0, t1;
	u8 *rec;
	int i, n;

	rec = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	chain[0] = (char *)&chain[1];
	chain[1] = text;
	regs.FT_DI = (unsigned long)text;
	regs.FT_SI = (unsigned long)chain;
	regs.FT_DX = 3;
	regs.FT_CX = 4;
	regs.sp = (unsigned long)stack;
	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		set = parg_test_parse(test, FT_ENTRY, NULL, sets[i]);
		local_irq_save(flags);
		t0 = ktime_get_ns();
		for (n = 0; n < 1000; n++)
			parg_set_fetch(set, &regs, NULL, rec, HEAD, 512);
		t1 = ktime_get_ns();
		local_irq_restore(flags);
		kunit_info(test, "cost: %llu.%03llu ns per fetch of \"%s\"\n",
			   (t1 - t0) / 1000, (t1 - t0) % 1000, sets[i]);
	}
	/* the last set, after 1000 runs: same record as a single run */
	KUNIT_EXPECT_EQ(test, get_unaligned((u64 *)(rec + HEAD + 8)),
			(unsigned long)chain);
	KUNIT_EXPECT_EQ(test, get_unaligned((u64 *)(rec + HEAD + 24)), 4);
	set = parg_test_parse(test, FT_ENTRY, NULL, sets[6]);
	parg_set_fetch(set, &regs, NULL, rec, HEAD, 512);
	KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(rec + HEAD + 24)),
			17 << 16 | (HEAD + 28));
	KUNIT_EXPECT_STREQ(test, (char *)rec + HEAD + 28, text);
}

/*
 * Every byte of [HEAD, returned size) must be written by each fetch: the
 * perf path fetches into a reused per-CPU buffer and copies it to user
 * space as is.  Run @set twice, into buffers full of 0x00 and of 0xff:
 * a byte the fetch left alone keeps its poison and the two differ.
 */
static void parg_expect_all_written(struct kunit *test,
				    const struct parg_set *set,
				    struct pt_regs *regs, void *edata,
				    unsigned int room, const char *what)
{
	u8 *lo = kunit_kmalloc(test, room, GFP_KERNEL);
	u8 *hi = kunit_kmalloc(test, room, GFP_KERNEL);
	unsigned int len_lo, len_hi, i;

	KUNIT_ASSERT_NOT_NULL(test, lo);
	KUNIT_ASSERT_NOT_NULL(test, hi);
	memset(lo, 0x00, room);
	memset(hi, 0xff, room);
	len_lo = parg_set_fetch(set, regs, edata, lo, HEAD, room);
	len_hi = parg_set_fetch(set, regs, edata, hi, HEAD, room);
	KUNIT_ASSERT_EQ_MSG(test, len_lo, len_hi, "%s", what);
	for (i = HEAD; i < len_lo; i++) {
		if (lo[i] != hi[i]) {
			KUNIT_FAIL(test, "%s (room %u): byte %u of %u not written (%02x/%02x)",
				   what, room, i, len_lo, lo[i], hi[i]);
			break;
		}
	}
}

static void parg_test_all_written(struct kunit *test)
{
	static const char *const lines[] = {
		/* fields of every size, bitfields, char, symbol */
		"a=%di:u8 b=%si:x16 c=%di:b3@2/8 d=%ax:s32 e=%di f=%ax:char g=%di:symbol",
		/* a fault map with set and clear bits, faulting arrays */
		"ok=+0(%di):u32 bad=+0(%si):u32 arr=+0(%si):u16[3] b=+0(%di):b4@4/32 v=+56(%di):u8[4] u=+u0(%di):u32 x=+0(%si):u8",
		/* strings: found, faulting, arrays of them, immediate, comm */
		"s=+0(+16(%di)):string n=+0(%si):string w=+32(%di):string[3] i=+24(%di):string",
		"d=\\\"imm\" c=$comm y=%di:symstr z=+0(%si):string[2] e=\\\"\"",
		"m=+0(+8(%di)):u64 s=+0(+16(+8(%di))):string t=+0(+8(%si)):u8",
	};
	struct parg_test_obj inner = { .a = 7, .name = "inner-name" };
	struct parg_test_obj outer = {
		.a = 0x12345678, .next = &inner, .name = "outer-name",
		.inl = "inlined", .names = { "", "yy", NULL },
		.bytes = { 1, 2, 3, 250 },
	};
	static const unsigned int rooms[] = { 1024, 64, 40, 33, 24 };
	struct pt_regs regs = {};
	struct parg_set *set;
	char *text;
	int i, j, len;

	regs.FT_DI = (unsigned long)&outer;
	regs.FT_SI = 16;	/* the NULL page: every read through it faults */
	regs.FT_AX = -3UL;
	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		set = parg_test_parse(test, FT_ENTRY, NULL, lines[i]);
		for (j = 0; j < ARRAY_SIZE(rooms); j++)
			parg_expect_all_written(test, set, &regs, NULL,
						HEAD + parg_set_size(set) + rooms[j],
						lines[i]);
	}

	/* kernel strings of every length and alignment, cut or whole */
	text = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	set = parg_test_parse(test, FT_ENTRY, NULL,
			      "a=+0(%di):string b=+0(%si):string");
	for (len = 0; len < 24; len++) {
		memset(text, 0, 64);
		memcpy(text + (len & 7), "0123456789abcdefghijklmnop", len);
		regs.FT_DI = (unsigned long)text + (len & 7);
		regs.FT_SI = (unsigned long)text + 40;
		for (j = 0; j < 12; j++)
			parg_expect_all_written(test, set, &regs, NULL,
						HEAD + 8 + 3 * j, "string lengths");
	}
}

static struct kunit_case parg_test_cases[] = {
	KUNIT_CASE(parg_test_errors),
	KUNIT_CASE(parg_test_btf_errors),
	KUNIT_CASE(parg_test_too_many),
	KUNIT_CASE(parg_test_registers),
	KUNIT_CASE(parg_test_empty),
	KUNIT_CASE(parg_test_regs_mask),
	KUNIT_CASE(parg_test_current),
	KUNIT_CASE(parg_test_casts),
	KUNIT_CASE(parg_test_this_cpu),
	KUNIT_CASE(parg_test_dump),
	KUNIT_CASE(parg_test_view),
	KUNIT_CASE(parg_test_immediates),
	KUNIT_CASE(parg_test_stack),
	KUNIT_CASE(parg_test_derefs),
	KUNIT_CASE(parg_test_faults),
	KUNIT_CASE(parg_test_guard_page),
	KUNIT_CASE(parg_test_room),
	KUNIT_CASE(parg_test_user),
	KUNIT_CASE(parg_test_user_faults),
	KUNIT_CASE(parg_test_uprobe),
	KUNIT_CASE(parg_test_file_offset),
	KUNIT_CASE(parg_test_tpoint),
	KUNIT_CASE(parg_test_event_fields),
	KUNIT_CASE(parg_test_symbols),
	KUNIT_CASE(parg_test_symstr_cut),
	KUNIT_CASE(parg_test_entry),
	KUNIT_CASE(parg_test_btf),
	KUNIT_CASE(parg_test_print_fmt),
	KUNIT_CASE(parg_test_compare),
	KUNIT_CASE(parg_test_all_written),
	KUNIT_CASE(parg_test_cost),
	{}
};

static struct kunit_suite parg_test_suite = {
	.name = "probe_arg",
	.test_cases = parg_test_cases,
};
kunit_test_suite(parg_test_suite);

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_DESCRIPTION("KUnit tests for the probe event argument library");
MODULE_LICENSE("GPL");
