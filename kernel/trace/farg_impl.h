/* SPDX-License-Identifier: GPL-2.0 */
/*
 * farg_impl.h - what the files of the fetch-argument library share.
 *
 * Nothing outside kernel/trace/farg*.c includes this; the event layer sees
 * only farg.h.  The library has four stages, one file each:
 *
 *   farg_set.c     words -> struct farg_set     (process context, may sleep)
 *   farg_parse.c   text -> struct farg_arg      (ditto)
 *   farg_btf.c     BTF names, fields and types  (ditto; optional)
 *   farg_run.c     struct farg_arg -> record    (probe hit: any context)
 *   farg_event.c   record -> text, format file  (process context)
 *
 * A compiled argument is one flat struct farg_arg, not a list of
 * instructions: every argument of the language has the shape
 *
 *	value = SOURCE;                         (register, stack, $argN, ...)
 *	repeat nderef times:
 *		value = *(unsigned long *)(value + deref[i]);   (kernel or user)
 *	STORE count elements of value           (raw, memory, string, ...)
 *
 * so the interpreter in farg_run.c is one switch for the source, a short
 * loop, and one switch for the store.  The common arguments (a register,
 * a stack slot, one dereference, a string at a register) run straight
 * through without any loop iteration beyond the first.
 */
#ifndef _KERNEL_TRACE_FARG_IMPL_H
#define _KERNEL_TRACE_FARG_IMPL_H

#include <linux/types.h>
#include <asm/ptrace.h>
#include "farg.h"

struct btf;
struct btf_type;
struct btf_param;

/* Where the value of an argument comes from. */
enum farg_src {
	FARG_SRC_REG,		/* pt_regs slot, @param = byte offset */
	FARG_SRC_STACK,		/* $stackN, @param = N */
	FARG_SRC_STACKP,	/* $stack: the stack pointer */
	FARG_SRC_RETVAL,	/* $retval */
	FARG_SRC_ARG,		/* $argN at a function entry, @param = N - 1 */
	FARG_SRC_EDATA,		/* saved at entry, @param = offset in edata */
	FARG_SRC_IMM,		/* \IMM, @ADDR, @SYM: @param = the value */
	FARG_SRC_COMM,		/* $comm (only with FARG_ST_COMM) */
	FARG_SRC_DATA,		/* \"str" (only with FARG_ST_DATA) */
	FARG_SRC_FILE,		/* @+OFFS: *edata + @param (OFFS - probe's) */
	FARG_SRC_FIELD,		/* $FIELD of the record @edata: see below */
};

/*
 * How an event probe reads a field of the record it fires on.  @param of
 * FARG_SRC_FIELD is FARG_FIELD(offset of the field, one of these).
 * Numbers are widened to a long (signed ones with their sign); a string
 * field gives the address of its text, which a string type then reads.
 */
enum farg_field_kind {
	FARG_FIELD_U8,
	FARG_FIELD_S8,
	FARG_FIELD_U16,
	FARG_FIELD_S16,
	FARG_FIELD_U32,
	FARG_FIELD_S32,
	FARG_FIELD_LONG,	/* 8 bytes, or anything else (an array) */
	FARG_FIELD_TEXT,	/* char[N]: the text is the field itself */
	FARG_FIELD_DATA_LOC,	/* __data_loc: offset from the record's start */
	FARG_FIELD_REL_LOC,	/* __rel_loc: offset from the field's end */
};

#define FARG_FIELD_KIND_BITS	4
#define FARG_FIELD(offset, kind) \
	((unsigned long)(offset) << FARG_FIELD_KIND_BITS | (kind))

/* What is stored in the record, per element. */
enum farg_store {
	FARG_ST_RAW,		/* the value itself, @size bytes */
	FARG_ST_MEM,		/* @size bytes of kernel memory at value+@off */
	FARG_ST_UMEM,		/* ... of user memory */
	FARG_ST_STR,		/* kernel string at value+@off */
	FARG_ST_USTR,		/* user string at value+@off */
	FARG_ST_STRV,		/* string array: pointer i at value+@off+8i */
	FARG_ST_SYMSTR,		/* "sym+off/size" of the value */
	FARG_ST_COMM,		/* current->comm */
	FARG_ST_DATA,		/* the immediate string @data */
};

/*
 * The shape of an argument as the hit path dispatches it: the common ones
 * run inline, the rest through the general source/deref/store path.
 */
enum farg_op {
	FARG_OP_ANY,		/* the general path */
	FARG_OP_REG,		/* a pt_regs word stored whole */
	FARG_OP_REG_MEM,	/* OFFS(%reg): one kernel scalar, no bitfield */
	FARG_OP_REG_STR,	/* OFFS(%reg):string or :ustring */
	FARG_OP_RETVAL,		/* $retval stored whole (a return probe) */
};

/* How a type prints, in trace output and in print_fmt. */
enum farg_kind {
	FARG_K_UNSIGNED,
	FARG_K_SIGNED,
	FARG_K_HEX,
	FARG_K_CHAR,
	FARG_K_SYMBOL,
	FARG_K_STRING,		/* string, ustring, symstr: a data_loc word */
};

/* One type of the language (a row of the table in farg_parse.c). */
struct farg_type {
	const char *name;	/* as written after ':' */
	const char *fmttype;	/* C type in the format file */
	const char *fmt;	/* conversion in print_fmt */
	u8 size;		/* bytes in the fixed block */
	u8 kind;		/* enum farg_kind */
	bool is_signed;		/* "signed:" in the format file */
};

/*
 * One compiled argument.  Built by farg_parse.c, read-only afterwards;
 * the first cache line holds all the hit path reads.
 */
struct farg_arg {
	u8 op;			/* enum farg_op */
	u8 src;			/* enum farg_src */
	u8 store;		/* enum farg_store */
	u8 size;		/* bytes of one element */
	u8 nderef;		/* entries of @deref */
	u8 count;		/* elements: 1, or N of TYPE[N] */
	u8 lshift, rshift;	/* bitfield on a u64: both 0 when none */
	u8 fault_bit;		/* bit in the fault map (scalars from memory) */
	u16 umask;		/* bit i: deref i reads user memory */
	u16 dst;		/* offset of the field in the fixed block */
	bool ustr_ptrs;		/* FARG_ST_STRV: the pointers are user memory */
	bool ustr;		/* FARG_ST_STRV: the strings are user memory */
	unsigned long param;	/* see enum farg_src */
	long off;		/* offset of the final access */
	long *deref;		/* offsets of the dereferences, outermost last */

	/* cold: naming, printing, resolving */
	const struct farg_type *type;
	char *name;		/* field name */
	char *text;		/* the fetch text as listed in kprobe_events */
	char *fmttype;		/* "TYPE[N]" for arrays, or NULL */
	char *data;		/* \"str" contents, or NULL */
	unsigned int data_len;	/* strlen(@data) */
	char *symbol;		/* @SYM[+|-offs] to resolve, or NULL */
};

/* The pt_regs word at byte @off, an offset the parser checked. */
static __always_inline unsigned long farg_reg(const struct pt_regs *regs,
					      unsigned long off)
{
	return *(const unsigned long *)((const u8 *)regs + off);
}

/* Whether an argument keeps a bit in the fault map. */
static inline bool farg_arg_can_fault(const struct farg_arg *a)
{
	return a->store == FARG_ST_MEM || a->store == FARG_ST_UMEM;
}

static inline bool farg_arg_is_string(const struct farg_arg *a)
{
	return a->type->kind == FARG_K_STRING;
}

/*
 * A compiled argument set.  The fixed block is laid out as
 *
 *   0 ................. fixed ............... fixed + fault_bytes = size
 *   | fields, packed as the base ABI does    | fault map (may be empty) |
 *
 * The fault map has one bit per argument that stores kernel or user memory
 * as a scalar (farg_arg_can_fault()); a set of registers, stack slots and
 * strings has none, and its record is exactly what the format file says.
 */
struct farg_set {
	int nargs;
	unsigned int fixed;	/* bytes of the fields */
	unsigned int size;	/* fixed + fault_bytes */
	u8 fault_bytes;
	bool dynamic;		/* some argument is a string */
	bool reads_mem;		/* some argument reads memory */
	bool words_only;	/* every argument is FARG_OP_REG or _RETVAL */
	u8 nentry;		/* function arguments saved at entry */
	u16 *entry;		/* their indices (0-based), one word each */
	/* per CPU, fetches of a record that faulted; NULL if none can */
	unsigned long __percpu *faults;
	struct farg_arg args[] __counted_by(nargs);
};

/* Most dereferences one argument may nest, as the base ABI allows. */
#define FARG_MAX_STEPS		15

/*
 * The parse context of one definition: what the front end allows, where
 * the error is, and the BTF state shared by its arguments.
 */
struct farg_pc {
	const struct farg_caps *caps;
	struct farg_err *err;
	struct farg_set *set;
	int word;		/* word being parsed (index in the caller's argv) */
	int offset;		/* byte position of the token being parsed */
	int steps;		/* slots used, counted as the base ABI counts */

	/* the argument being parsed */
	struct farg_arg *arg;
	long derefs[FARG_MAX_STEPS];
	u16 umask;

	/* BTF: the probed function and the type of the last token */
	struct btf *btf;
	const struct btf_type *proto;
	const struct btf_param *params;
	int nr_params;
	const struct btf_type *last_type;
	u32 last_bitoffs;
	u32 last_bitsize;
};

/*
 * $argN needs the arch to say where function arguments live; both
 * architectures the series supports do.
 */
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
static inline bool farg_have_arg_access(void)
{
	return true;
}

static __always_inline unsigned long farg_kernel_arg(struct pt_regs *regs,
						     unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}
#else
static inline bool farg_have_arg_access(void)
{
	return false;
}

static __always_inline unsigned long farg_kernel_arg(struct pt_regs *regs,
						     unsigned int n)
{
	return 0;
}
#endif

/* farg_parse.c */
int farg_parse_word(struct farg_pc *pc, int idx, const char *word);
void farg_use_src(struct farg_pc *pc, enum farg_src src, unsigned long param);
int farg_fail(struct farg_pc *pc, int pos, enum farg_err_code code);
bool farg_at_entry(const struct farg_pc *pc);
bool farg_at_return(const struct farg_pc *pc);
bool farg_at_kernel_func(const struct farg_pc *pc);
int farg_push_deref(struct farg_pc *pc, long off, bool user);
int farg_use_entry(struct farg_pc *pc, unsigned int argnum);
const struct farg_type *farg_find_type(const char *name);

/* farg_btf.c, or the stubs below */
#ifdef CONFIG_PROBE_EVENTS_BTF_ARGS
int farg_btf_query(struct farg_pc *pc);
const char *farg_btf_param_name(struct farg_pc *pc, int idx);
int farg_btf_var(struct farg_pc *pc, char *varname);
const struct farg_type *farg_btf_type(struct farg_pc *pc);
int farg_btf_string(struct farg_pc *pc, const char *typename);
void farg_btf_release(struct farg_pc *pc);
#else
static inline int farg_btf_query(struct farg_pc *pc)
{
	return -EOPNOTSUPP;
}

static inline const char *farg_btf_param_name(struct farg_pc *pc, int idx)
{
	return NULL;
}

static inline int farg_btf_var(struct farg_pc *pc, char *varname)
{
	return farg_fail(pc, pc->offset, FARG_ERR_NOSUP_BTFARG);
}

static inline const struct farg_type *farg_btf_type(struct farg_pc *pc)
{
	return NULL;
}

static inline int farg_btf_string(struct farg_pc *pc, const char *typename)
{
	return 0;
}

static inline void farg_btf_release(struct farg_pc *pc)
{
}
#endif

#endif /* _KERNEL_TRACE_FARG_IMPL_H */
