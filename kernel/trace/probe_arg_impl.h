/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: probe arguments: what the library's files share
 *
 * probe_arg_impl.h - what the files of the probe argument library share.
 * Prefixes: ``parg_`` (probe argument), ``PARG_`` (its constants).
 *
 * Nothing outside kernel/trace/probe_arg*.c includes this; the event layer sees
 * only probe_arg.h.  The library has four stages, one file each, and a
 * file of the building steps two of them share::
 *
 *   probe_arg_set.c     words -> struct parg_set     (process context, may sleep)
 *   probe_arg_parse.c   text -> struct parg_arg      (ditto)
 *   probe_arg_build.c   types, errors, sources, dereferences (ditto)
 *   probe_arg_btf.c     BTF names, fields and types  (ditto; optional)
 *   probe_arg_run.c     struct parg_arg -> record    (probe hit: any context)
 *   probe_arg_event.c   record -> text, format file  (process context)
 *
 * A compiled argument is one flat struct parg_arg, not a list of
 * instructions: every argument of the language has the shape::
 *
 *      value = SOURCE;                         (register, stack, $argN, ...)
 *      repeat nderef times:
 *              value = *(unsigned long *)(value + deref[i]);   (kernel or user)
 *          or, for a per-CPU step (this_cpu_ptr()):
 *              value = this CPU's address of per-CPU (value + deref[i]);
 *      STORE count elements of value           (raw, memory, string, ...)
 *
 * so the interpreter in probe_arg_run.c is one switch for the source, a short
 * loop, and one switch for the store.  The common arguments (a register,
 * a stack slot, one dereference, a string at a register) run straight
 * through without any loop iteration beyond the first.
 */
#ifndef _KERNEL_TRACE_PARG_IMPL_H
#define _KERNEL_TRACE_PARG_IMPL_H

#include <linux/err.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include "probe_arg.h"

struct btf;
struct btf_type;
struct btf_param;
struct trace_seq;

/* Where the value of an argument comes from. */
enum parg_src {
	PARG_SRC_REG,		/* pt_regs slot, @param = byte offset */
	PARG_SRC_STACK,		/* $stackN, @param = N */
	PARG_SRC_STACKP,	/* $stack: the stack pointer */
	PARG_SRC_RETVAL,	/* $retval */
	PARG_SRC_ARG,		/* $argN at a function entry, @param = N - 1 */
	PARG_SRC_EDATA,		/* saved at entry, @param = offset in edata */
	PARG_SRC_IMM,		/* \IMM, @ADDR, @SYM: @param = the value */
	PARG_SRC_COMM,		/* $comm (only with PARG_ST_COMM) */
	PARG_SRC_DATA,		/* \"str" (only with PARG_ST_DATA) */
	PARG_SRC_FILE,		/* @+OFFS: *edata + @param (OFFS - probe's) */
	PARG_SRC_FIELD,		/* $FIELD of the record @edata: see below */
	PARG_SRC_CURRENT,	/* $current: the running task */
};

/*
 * How an event probe reads a field of the record it fires on.  @param of
 * PARG_SRC_FIELD is PARG_FIELD(offset of the field, one of these).
 * Numbers are widened to a long (signed ones with their sign); a string
 * field gives the address of its text, which a string type then reads.
 */
enum parg_field_kind {
	PARG_FIELD_U8,
	PARG_FIELD_S8,
	PARG_FIELD_U16,
	PARG_FIELD_S16,
	PARG_FIELD_U32,
	PARG_FIELD_S32,
	PARG_FIELD_LONG,	/* a word */
	PARG_FIELD_TEXT,	/* char[N] or any other array: its address */
	PARG_FIELD_DATA_LOC,	/* __data_loc: offset from the record's start */
	PARG_FIELD_REL_LOC,	/* __rel_loc: offset from the field's end */
};

#define PARG_FIELD_KIND_BITS	4
#define PARG_FIELD(offset, kind) \
	((unsigned long)(offset) << PARG_FIELD_KIND_BITS | (kind))

/* What is stored in the record, per element. */
enum parg_store {
	PARG_ST_RAW,		/* the value itself, @size bytes */
	PARG_ST_MEM,		/* @size bytes of kernel memory at value+@off */
	PARG_ST_UMEM,		/* ... of user memory */
	PARG_ST_STR,		/* kernel string at value+@off */
	PARG_ST_USTR,		/* user string at value+@off */
	PARG_ST_STRV,		/* string array: pointer i at value+@off+8i */
	PARG_ST_SYMSTR,		/* "sym+off/size" of the value */
	PARG_ST_COMM,		/* current->comm */
	PARG_ST_DATA,		/* the immediate string @data */
};

/*
 * The shape of an argument as the hit path dispatches it: the common ones
 * run inline, the rest through the general source/deref/store path.
 */
enum parg_op {
	PARG_OP_ANY,		/* the general path */
	PARG_OP_REG,		/* a pt_regs word stored whole */
	PARG_OP_REG_MEM,	/* OFFS(%reg): one kernel scalar, no bitfield */
	PARG_OP_FIELD_MEM,	/* OFFS($field): the same from a word field */
	PARG_OP_REG_STR,	/* OFFS(%reg), a kernel string (PARG_ST_STR) */
	PARG_OP_REG_USTR,	/* OFFS(%reg), a user string (PARG_ST_USTR) */
	PARG_OP_RETVAL,		/* $retval stored whole (a return probe) */
};

/* How a type prints, in trace output and in print_fmt. */
enum parg_kind {
	PARG_K_UNSIGNED,
	PARG_K_SIGNED,
	PARG_K_HEX,
	PARG_K_CHAR,
	PARG_K_SYMBOL,
	PARG_K_STRING,		/* string, ustring, symstr: a data_loc word */
	PARG_K_STRUCT,		/* struct: the bytes of a struct, shown by BTF */
};

/*
 * What a ":struct" argument shows: the members of @type, as BTF @btf (a
 * reference the set holds) describes them.  The record has the struct's
 * first bytes, at most PARG_VIEW_MAX of them.
 */
struct parg_view {
	struct btf *btf;
	const struct btf_type *type;
};

#define PARG_VIEW_MAX		256

/* One type of the language (a row of the table in probe_arg_parse.c). */
struct parg_type {
	const char *name;	/* as written after ':' */
	const char *fmttype;	/* C type in the format file */
	const char *fmt;	/* conversion in print_fmt */
	u8 size;		/* bytes in the fixed block */
	u8 kind;		/* enum parg_kind */
	bool is_signed;		/* "signed:" in the format file */
};

/*
 * One compiled argument.  Built by probe_arg_parse.c, read-only afterwards;
 * the first cache line holds all the hit path reads.
 */
struct parg_arg {
	u8 op;			/* enum parg_op */
	u8 src;			/* enum parg_src */
	u8 store;		/* enum parg_store */
	u8 size;		/* bytes of one element */
	u8 nderef;		/* entries of @deref */
	u8 lshift, rshift;	/* bitfield on a u64: both 0 when none */
	u8 fault_bit;		/* bit in the fault map (scalars from memory) */
	u16 user_derefs;		/* bit i: deref i reads user memory */
	u16 cpu_derefs;		/* bit i: deref i is a per-CPU step, no read */
	u16 dst;		/* offset of the field in the fixed block */
	u16 count;		/* elements: 1, N of TYPE[N], bytes of :struct */
	bool ustr_ptrs;		/* PARG_ST_STRV: the pointers are user memory */
	bool ustr;		/* PARG_ST_STRV: the strings are user memory */
	unsigned long param;	/* see enum parg_src */
	long off;		/* offset of the final access */
	long *deref;		/* offsets of the dereferences, outermost last */

	/* cold: naming, printing, resolving */
	const struct parg_type *type;
	char *name;		/* field name */
	char *text;		/* the fetch text as listed in kprobe_events */
	char *fmttype;		/* "TYPE[N]" for arrays, or NULL */
	char *data;		/* \"str" contents, or NULL */
	unsigned int data_len;	/* strlen(@data) */
	char *symbol;		/* @SYM[+|-offs] to resolve, or NULL */
	struct parg_view *view;	/* :struct, or NULL */
};

/* The pt_regs word at byte @off, an offset the parser checked. */
static __always_inline unsigned long parg_reg(const struct pt_regs *regs,
					      unsigned long off)
{
	return *(const unsigned long *)((const u8 *)regs + off);
}

/* Whether an argument keeps a bit in the fault map. */
static inline bool parg_arg_can_fault(const struct parg_arg *a)
{
	return a->store == PARG_ST_MEM || a->store == PARG_ST_UMEM;
}

static inline bool parg_arg_is_string(const struct parg_arg *a)
{
	return a->type->kind == PARG_K_STRING;
}

/*
 * A compiled argument set.  The fixed block is laid out as
 *
 *   0 ................. fixed ............... fixed + fault_bytes = size
 *   | fields, packed as the ABI says         | fault map (may be empty) |
 *
 * The fault map has one bit per argument that stores kernel or user memory
 * as a scalar (parg_arg_can_fault()); a set of registers, stack slots and
 * strings has none, and its record is exactly what the format file says.
 */
struct parg_set {
	int nargs;
	unsigned int fixed;	/* bytes of the fields */
	unsigned int size;	/* fixed + fault_bytes */
	u8 fault_bytes;
	bool dynamic;		/* some argument is a string */
	bool reads_mem;		/* some argument reads memory */
	bool words_only;	/* every argument is PARG_OP_REG or _RETVAL */
	u8 nentry;		/* function arguments saved at entry */
	u16 *entry;		/* their indices (0-based), one word each */
	/* per CPU, fetches of a record that faulted; NULL if none can */
	unsigned long __percpu *faults;
	struct parg_arg args[] __counted_by(nargs);
};

/* Most dereferences one argument may nest, as the ABI allows. */
#define PARG_MAX_STEPS		15

/*
 * Most levels of nesting of one fetch: each dereference, cast and
 * this_cpu_*() around another is a level (ABI: the caret of
 * TOO_MANY_NESTED goes under the first one too many).
 */
#define PARG_MAX_NESTED		8

/*
 * The parse context of one definition: what the front end allows, where
 * the error is, and the BTF state shared by its arguments.
 */
struct parg_ctx {
	const struct parg_caps *caps;
	struct parg_err *err;
	struct parg_set *set;
	int word;		/* word being parsed (index in the caller's argv) */
	int offset;		/* byte position of the token being parsed */
	int steps;		/* slots used, counted as the ABI counts */

	/* the argument being parsed */
	struct parg_arg *arg;
	long derefs[PARG_MAX_STEPS];
	u16 user_derefs;
	u16 cpu_derefs;
	int depth;		/* levels of nesting around the token */

	/* BTF: the probed function and the type of the last token */
	struct btf *btf;
	const struct btf_type *proto;
	const struct btf_param *params;
	int nr_params;
	const struct btf_type *last_type;
	u32 last_bitoffs;
	u32 last_bitsize;
	/* what the value points to, when it is untyped: a bare cast, $current */
	const struct btf_type *pointee;
	bool btf_tried;		/* the function's BTF was looked for */
};

/*
 * $argN needs the arch to say where function arguments live; both
 * architectures with kprobes (x86_64, arm64) do.
 */
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
static inline bool parg_have_arg_access(void)
{
	return true;
}

static __always_inline unsigned long parg_kernel_arg(struct pt_regs *regs,
						     unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}
#else
static inline bool parg_have_arg_access(void)
{
	return false;
}

static __always_inline unsigned long parg_kernel_arg(struct pt_regs *regs,
						     unsigned int n)
{
	return 0;
}
#endif

/* probe_arg_build.c: what the parser and the BTF resolver build with */
int parg_fail(struct parg_ctx *ctx, int pos, enum parg_err_code code);
bool parg_at_entry(const struct parg_ctx *ctx);
bool parg_at_return(const struct parg_ctx *ctx);
bool parg_at_kernel_func(const struct parg_ctx *ctx);
const struct parg_type *parg_find_type(const char *name);
int parg_take_step(struct parg_ctx *ctx);
void parg_add_deref(struct parg_ctx *ctx, long off, bool user);
int parg_push_deref(struct parg_ctx *ctx, long off, bool user);
int parg_use_entry(struct parg_ctx *ctx, unsigned int argnum);
void parg_use_src(struct parg_ctx *ctx, enum parg_src src, unsigned long param);

/*
 * probe_arg_run.c: the buffers a :symstr text is cut in, made once before
 * the first set with a symstr is built.  Process context; 0 or -ENOMEM.
 */
int parg_symbufs_reserve(void);

/* probe_arg_parse.c */
int parg_parse_word(struct parg_ctx *ctx, int idx, const char *word);
int parg_parse_fetch(struct parg_ctx *ctx, char *arg);

/* probe_arg_btf.c, or the stubs below */
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
int parg_btf_query(struct parg_ctx *ctx);
const char *parg_btf_param_name(struct parg_ctx *ctx, int idx);
int parg_btf_var(struct parg_ctx *ctx, char *varname);
int parg_btf_current(struct parg_ctx *ctx, char *arg);
const struct btf_type *parg_btf_cast_type(struct parg_ctx *ctx, char *text,
					  int pos, long *adjust, bool *container);
bool parg_btf_castable(const struct btf_type *t);
int parg_btf_fields(struct parg_ctx *ctx, char *field,
		    const struct btf_type *type, bool pointee, long adjust);
int parg_btf_view(struct parg_ctx *ctx, unsigned int *count);
void parg_btf_view_free(struct parg_view *view);
void parg_btf_view_print(struct trace_seq *s, const struct parg_view *view,
			 const u8 *p, unsigned int len);
const struct parg_type *parg_btf_type(struct parg_ctx *ctx);
int parg_btf_string(struct parg_ctx *ctx, const char *typename);
void parg_btf_release(struct parg_ctx *ctx);
#else
static inline int parg_btf_query(struct parg_ctx *ctx)
{
	return -EOPNOTSUPP;
}

static inline const char *parg_btf_param_name(struct parg_ctx *ctx, int idx)
{
	return NULL;
}

static inline int parg_btf_var(struct parg_ctx *ctx, char *varname)
{
	return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
}

/* a cast names a type: it needs BTF (the caret stays at the cast) */
static inline const struct btf_type *
parg_btf_cast_type(struct parg_ctx *ctx, char *text, int pos, long *adjust,
		   bool *container)
{
	return ERR_PTR(parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG));
}

static inline bool parg_btf_castable(const struct btf_type *t)
{
	return true;
}

static inline int parg_btf_fields(struct parg_ctx *ctx, char *field,
				  const struct btf_type *type, bool pointee,
				  long adjust)
{
	return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
}

static inline int parg_btf_view(struct parg_ctx *ctx, unsigned int *count)
{
	return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
}

static inline void parg_btf_view_free(struct parg_view *view) { }

static inline void parg_btf_view_print(struct trace_seq *s,
				       const struct parg_view *view,
				       const u8 *p, unsigned int len) { }

/* @arg is "$current", maybe with fields: they need BTF */
static inline int parg_btf_current(struct parg_ctx *ctx, char *arg)
{
	return arg[8] ? parg_fail(ctx, ctx->offset + 8, PARG_ERR_NOSUP_BTFARG) : 0;
}

static inline const struct parg_type *parg_btf_type(struct parg_ctx *ctx)
{
	return NULL;
}

static inline int parg_btf_string(struct parg_ctx *ctx, const char *typename)
{
	return 0;
}

static inline void parg_btf_release(struct parg_ctx *ctx)
{
}
#endif

#endif /* _KERNEL_TRACE_PARG_IMPL_H */
