// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: parsing fetch arguments
 *
 * probe_arg_parse.c - parse the fetch arguments of a probe definition and
 * compile each one into a struct parg_arg.
 *
 * Grammar of one argument word (Documentation/trace/kprobetrace.rst)::
 *
 *   WORD   := [NAME=]FETCH[:TYPE]  |  $arg*
 *   FETCH  := %REG | @ADDR | @SYM[+|-offs] | $stackN | $stack | $argN
 *           | $retval | $comm | \IMM | \"STR" | [+|-][u]OFFS(FETCH)
 *           | BTFNAME[->FIELD|.FIELD]...          (BTF, function entry/exit)
 *           | $current[->FIELD|.FIELD]...         (fields: BTF)
 *           | (CTYPE)FETCH[->FIELD|.FIELD]...     (BTF casts, probe_arg_btf.c)
 *           | ((CTYPE)FETCH)[->FIELD|.FIELD]...
 *           | (CTYPE,FIELD[.FIELD])FETCH->FIELD...
 *   TYPE   := u8..u64 | s8..s64 | x8..x64 | char | symbol | string
 *           | ustring | symstr | b<width>@<bit-offset>/<container-bits>
 *           | %pd | %pD | struct | TYPE[N]
 *
 * Stages of one definition, in order (0 and 1 are in probe_arg_set.c)::
 *
 *   0. join     the words of a cast the front end split at its blanks.
 *   1. expand   $arg* and $argN become BTF parameter names; %pd/%pD become
 *               the dereference chains they stand for.
 *   2. name     NAME= or an automatic one; checked against the others.
 *   3. type     the text after ':' and the array suffix.
 *   4. fetch    the expression, recursively: a source and a chain of
 *               dereferences (struct parg_ctx collects them).
 *   5. finish   choose the store (raw, memory, string...), the bitfield
 *               and the array count; lay the field out in the record.
 *
 * Error positions.  Users read the caret of error_log, and the selftests
 * check it, so the position of every error and the limit on nesting
 * (PARG_MAX_STEPS slots, counted as the ABI counts them) are part of
 * the ABI, quirks included: ctx->offset moves into a
 * dereference and stays at the innermost level that completed.
 *
 * Everything here runs in process context under the front end's lock and
 * may sleep; the result is read-only once parg_set_parse() returns.
 */
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/thread_info.h>
#include <kunit/visibility.h>

#include "trace.h"
#include "probe_arg_impl.h"

#define PARG_MAX_FIELDS_SIZE	3072	/* bytes of fields in one event */
#define PARG_STACK_SLOTS	(THREAD_SIZE / sizeof(unsigned long))

/* Field names the event itself uses. */
static const char *const parg_reserved[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_tgid", "__probe_ip", "__probe_ret_ip", "__probe_func",
};

/* symbol and symstr print kernel symbols: nothing a user probe reads */
static bool parg_type_is_kernel_only(const struct parg_type *type)
{
	return !strcmp(type->name, "symbol") || !strcmp(type->name, "symstr") ||
	       type->kind == PARG_K_STRUCT;
}

/* ------------------------------------------------------------ sources */

/* $argN: a register at entry, a saved word at return. */
static int parg_parse_argn(struct parg_ctx *ctx, const char *num)
{
	unsigned long n;
	int off;

	if (kstrtoul(num, 10, &n))
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
	if (!n || n > PARG_STACK_SLOTS)
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_ARG_NUM);
	if (!parg_at_kernel_func(ctx))
		return parg_fail(ctx, ctx->offset, PARG_ERR_NOFENTRY_ARGS);
	n += ctx->caps->arg_shift;
	if (parg_at_entry(ctx)) {
		parg_use_src(ctx, PARG_SRC_ARG, n - 1);
		return 0;
	}
	off = parg_use_entry(ctx, n - 1);
	if (off < 0)
		return off;
	parg_use_src(ctx, PARG_SRC_EDATA, off);
	return 0;
}

/*
 * How $NAME reads the record field @f: a string, or a number by its size;
 * an array that is no string gives its own address, for +OFFS($NAME).
 */
static enum parg_field_kind parg_field_kind(const struct ftrace_event_field *f)
{
	switch (f->filter_type) {
	case FILTER_DYN_STRING:
		return PARG_FIELD_DATA_LOC;
	case FILTER_RDYN_STRING:
		return PARG_FIELD_REL_LOC;
	case FILTER_STATIC_STRING:
		return PARG_FIELD_TEXT;
	}
	switch (f->size) {
	case 1:
		return f->is_signed ? PARG_FIELD_S8 : PARG_FIELD_U8;
	case 2:
		return f->is_signed ? PARG_FIELD_S16 : PARG_FIELD_U16;
	case 4:
		return f->is_signed ? PARG_FIELD_S32 : PARG_FIELD_U32;
	}
	return f->size == sizeof(long) ? PARG_FIELD_LONG : PARG_FIELD_TEXT;
}

/* The field @name of an event probe's record (not a common_ one), or NULL. */
static struct ftrace_event_field *parg_event_field(const struct parg_ctx *ctx,
						   const char *name)
{
	struct ftrace_event_field *f;

	if (!ctx->caps->event)
		return NULL;
	list_for_each_entry(f, trace_get_fields(ctx->caps->event), link)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* A bare NAME in an event probe: the field NAME of the record only. */
static int parg_parse_event_name(struct parg_ctx *ctx, const char *name)
{
	struct ftrace_event_field *f = parg_event_field(ctx, name);

	if (!f)
		return parg_fail(ctx, ctx->offset, PARG_ERR_NO_EVENT_FIELD);
	parg_use_src(ctx, PARG_SRC_FIELD, PARG_FIELD(f->offset, parg_field_kind(f)));
	return 0;
}

/*
 * $NAME of an event probe: the field NAME of the record, else $comm;
 * nothing else is a variable there.
 */
static int parg_parse_event_var(struct parg_ctx *ctx, const char *name)
{
	if (parg_event_field(ctx, name))
		return parg_parse_event_name(ctx, name);
	if (!strcmp(name, "comm") || !strcmp(name, "COMM")) {
		parg_use_src(ctx, PARG_SRC_COMM, 0);
		return 0;
	}
	return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
}

/*
 * $current, the running task, in every kind of probe; with BTF its
 * fields too: $current->F1.F2->F3.  They are kernel memory even in a
 * user probe.
 */
static int parg_parse_current(struct parg_ctx *ctx, char *arg)
{
	parg_use_src(ctx, PARG_SRC_CURRENT, 0);
	return parg_btf_current(ctx, arg);
}

/* $-variables; @arg points at the '$'. */
static int parg_parse_var(struct parg_ctx *ctx, char *arg)
{
	const char *name = arg + 1;
	unsigned long n;
	int len;

	/*
	 * An event probe's record field named "current" comes first.  The
	 * running task is kernel memory: a uprobe does not read it.
	 */
	if (str_has_prefix(name, "current") &&
	    (!name[7] || name[7] == '-' || name[7] == '.') &&
	    !(ctx->caps->event && parg_event_field(ctx, "current"))) {
		if (ctx->caps->user)
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
		return parg_parse_current(ctx, arg);
	}
	if (ctx->caps->event)
		return parg_parse_event_var(ctx, name);

	if (str_has_prefix(name, "retval")) {
		if (!parg_at_return(ctx))
			return parg_fail(ctx, ctx->offset, PARG_ERR_RETVAL_ON_PROBE);
		if (IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS) && !ctx->caps->user)
			return parg_btf_var(ctx, arg);
		parg_use_src(ctx, PARG_SRC_RETVAL, 0);
		return 0;
	}
	len = str_has_prefix(name, "stack");
	if (len) {
		if (!name[len]) {
			parg_use_src(ctx, PARG_SRC_STACKP, 0);
			return 0;
		}
		if (!isdigit(name[len]) || kstrtoul(name + len, 10, &n))
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
		if (ctx->caps->user) {	/* a word of the user stack, any */
			parg_use_src(ctx, PARG_SRC_STACKP, 0);
			parg_add_deref(ctx, (long)((unsigned int)n * sizeof(long)),
				       true);
			return 0;
		}
		if (n > PARG_STACK_SLOTS)
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_STACK_NUM);
		parg_use_src(ctx, PARG_SRC_STACK, n);
		return 0;
	}
	if (!strcmp(name, "comm") || !strcmp(name, "COMM")) {
		parg_use_src(ctx, PARG_SRC_COMM, 0);
		return 0;
	}
	len = str_has_prefix(name, "arg");
	if (len && parg_have_arg_access())
		return parg_parse_argn(ctx, name + len);
	return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
}

/*
 * @+OFFS of a user probe: the word at OFFS in the probed file's mapping,
 * found from where the probe (at @file_offset in the file) hit.
 */
static int parg_parse_file(struct parg_ctx *ctx, char *arg)
{
	long off;

	if (!ctx->caps->user)
		return parg_fail(ctx, ctx->offset, PARG_ERR_FILE_ON_KPROBE);
	if (kstrtol(arg + 2, 0, &off))
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_FILE_OFFS);
	parg_use_src(ctx, PARG_SRC_FILE,
		     (unsigned long)off - ctx->caps->file_offset);
	return parg_push_deref(ctx, 0, true);
}

/* @ADDR, @SYM[+|-offs]: the word at an address. */
static int parg_parse_mem(struct parg_ctx *ctx, char *arg)
{
	unsigned long addr;

	if (arg[1] == '+')
		return parg_parse_file(ctx, arg);
	if (isdigit(arg[1])) {
		if (kstrtoul(arg + 1, 0, &addr))
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_MEM_ADDR);
		parg_use_src(ctx, PARG_SRC_IMM, addr);
	} else if (ctx->caps->user) {
		return parg_fail(ctx, ctx->offset, PARG_ERR_SYM_ON_UPROBE);
	} else {
		ctx->arg->symbol = kstrdup(arg + 1, GFP_KERNEL);
		if (!ctx->arg->symbol)
			return -ENOMEM;
		/* the symbol holder takes a slot of its own */
		parg_use_src(ctx, PARG_SRC_IMM, 0);
		if (parg_take_step(ctx))
			return -EINVAL;
	}
	return parg_push_deref(ctx, 0, ctx->caps->user);
}

/* \IMM or \"STR" */
static int parg_parse_imm(struct parg_ctx *ctx, char *arg)
{
	unsigned long val;
	size_t len;
	int ret;

	if (arg[1] == '"') {
		len = strlen(arg + 2);
		if (!len || arg[len + 1] != '"')
			return parg_fail(ctx, ctx->offset + 2 + len,
					 PARG_ERR_IMMSTR_NO_CLOSE);
		ctx->arg->data = kstrndup(arg + 2, len - 1, GFP_KERNEL);
		if (!ctx->arg->data)
			return -ENOMEM;
		ctx->arg->data_len = len - 1;
		parg_use_src(ctx, PARG_SRC_DATA, 0);
		return 0;
	}
	arg++;
	if (isdigit(arg[0]))
		ret = kstrtoul(arg, 0, &val);
	else if (arg[0] == '-')
		ret = kstrtol(arg, 0, (long *)&val);
	else if (arg[0] == '+')
		ret = kstrtol(arg + 1, 0, (long *)&val);
	else
		ret = -EINVAL;
	if (ret)
		return parg_fail(ctx, ctx->offset + 1, PARG_ERR_BAD_IMM);
	parg_use_src(ctx, PARG_SRC_IMM, val);
	return 0;
}


/* $comm and \"STR" are texts of their own: nothing reads through them */
static bool parg_is_text(const struct parg_ctx *ctx)
{
	return !ctx->arg->nderef && (ctx->arg->src == PARG_SRC_COMM ||
				     ctx->arg->src == PARG_SRC_DATA);
}

/*
 * The FETCH of "FETCH)" that a dereference or this_cpu_*() encloses, at
 * ctx->offset: a word, not text, for the step the caller adds on top.
 * ctx->offset is back at FETCH afterwards, for the caller's errors.
 */
static int parg_parse_enclosed(struct parg_ctx *ctx, char *arg)
{
	int inner = ctx->offset, ret;
	char *close = strrchr(arg, ')');

	if (!close)
		return parg_fail(ctx, ctx->offset + strlen(arg),
				 PARG_ERR_DEREF_OPEN_BRACE);
	*close = '\0';
	ret = parg_parse_fetch(ctx, arg);
	if (ret)
		return ret;
	ctx->offset = inner;
	if (parg_is_text(ctx))
		return parg_fail(ctx, ctx->offset, PARG_ERR_COMM_CANT_DEREF);
	return 0;
}

/*
 * The offset of a dereference, @sign ('+' or '-') then the text @num, as
 * one signed number: after a '-' no second sign, and down to LONG_MIN.
 */
static int parg_deref_offset(char sign, const char *num, long *off)
{
	unsigned long long mag;

	if (sign == '+')
		return kstrtol(num, 0, off);
	if (*num == '+' || *num == '-' || kstrtoull(num, 0, &mag) ||
	    mag > (unsigned long long)LONG_MAX + 1)
		return -EINVAL;
	*off = (long)(0ULL - mag);
	return 0;
}

/*
 * [+|-][u]OFFS(FETCH), @arg at its sign.  A caret inside FETCH stands one
 * column short after a 'u': that slip is the ABI's.
 */
static int parg_parse_deref(struct parg_ctx *ctx, char *arg)
{
	bool user = arg[1] == 'u';
	char *num = arg + 1 + user;
	char *open = strchr(num, '(');
	long off;
	int ret;

	if (!open)
		return parg_fail(ctx, ctx->offset, PARG_ERR_DEREF_NEED_BRACE);
	*open = '\0';
	if (parg_deref_offset(arg[0], num, &off))
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_DEREF_OFFS);
	ctx->offset += open + 1 - arg - user;
	ret = parg_parse_enclosed(ctx, open + 1);
	if (ret)
		return ret;
	ret = parg_push_deref(ctx, off, user || ctx->caps->user);
	ctx->last_type = NULL;	/* a raw offset loses the BTF type */
	ctx->pointee = NULL;
	return ret;
}

#define PARG_CPU_PTR	"this_cpu_ptr("
#define PARG_CPU_READ	"this_cpu_read("

/* Length of the "this_cpu_ptr(" or "this_cpu_read(" @arg starts with, or 0. */
static size_t parg_this_cpu_len(const char *arg)
{
	return str_has_prefix(arg, PARG_CPU_PTR) ?:
	       str_has_prefix(arg, PARG_CPU_READ);
}

/*
 * this_cpu_ptr(FETCH): this CPU's address of the per-CPU address FETCH;
 * this_cpu_read(FETCH): the word there.  Of @SYM or @ADDR they take the
 * address itself (the per-CPU variable's), not the word read at it.  A
 * per-CPU address means nothing in user space nor in a record.
 */
static int parg_parse_this_cpu(struct parg_ctx *ctx, char *arg)
{
	bool read = str_has_prefix(arg, PARG_CPU_READ);
	size_t len = parg_this_cpu_len(arg);
	struct parg_arg *a = ctx->arg;
	int ret;

	if (ctx->caps->user || ctx->caps->event)
		return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_PERCPU);
	ctx->offset += len;
	arg += len;
	ret = parg_parse_enclosed(ctx, arg);
	if (ret)
		return ret;
	if (arg[0] == '@') {	/* the read of @SYM becomes the step */
		ctx->cpu_derefs |= BIT(a->nderef - 1);
	} else {
		ret = parg_push_deref(ctx, 0, false);
		if (ret)
			return ret;
		ctx->cpu_derefs |= BIT(a->nderef - 1);
	}
	ctx->last_type = NULL;	/* as after a raw offset */
	ctx->pointee = NULL;
	return read ? parg_push_deref(ctx, 0, false) : 0;
}

/* The first "->" of @s outside parentheses, or the end of @s. */
static char *parg_arrow(char *s)
{
	int depth = 0;

	for (; *s; s++) {
		depth += (*s == '(') - (*s == ')');
		if (!depth && s[0] == '-' && s[1] == '>')
			break;
	}
	return s;
}

/* The ')' that closes the '(' at @open, or NULL. */
static char *parg_close_paren(char *open)
{
	int depth = 0;

	for (; *open; open++) {
		depth += (*open == '(') - (*open == ')');
		if (!depth)
			return open;
	}
	return NULL;
}

/*
 * Whether a cast may stand without fields: one in C's spelling, "(struct
 * NAME)" or "(NAME *)", is the value itself, typed (for :struct); the
 * ABI's "(NAME)" and "(NAME,FIELD)" need a field access, and so does
 * any cast of a :struct argument.
 */
static bool parg_cast_may_stand(const struct parg_ctx *ctx, const char *type)
{
	type = skip_spaces(type);
	if (strchr(type, ','))
		return false;
	return ctx->arg->type->kind == PARG_K_STRUCT || strchr(type, '*') ||
	       str_has_prefix(type, "struct ") || str_has_prefix(type, "union ");
}

/*
 * The operand of a cast "(TYPE)..." at @op (byte @pos): returns the text
 * the fetch is parsed from, and in *@fields where its fields begin (at
 * "->" or the end).  (TYPE)(FETCH)->F: FETCH, any fetch; (TYPE)FETCH->F:
 * up to the first "->" outside parentheses.
 */
static char *parg_cast_operand(struct parg_ctx *ctx, char *op, int pos,
			       const char *type, char **fields)
{
	char *close, *sep;

	if (op[0] == '(') {
		close = parg_close_paren(op);
		if (!close)
			return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_DEREF_OPEN_BRACE));
		*fields = close + 1;
		if (!str_has_prefix(close + 1, "->") &&
		    (close[1] || !parg_cast_may_stand(ctx, type)))
			return ERR_PTR(parg_fail(ctx, pos + (close + 1 - op),
						 PARG_ERR_TYPECAST_REQ_FIELD));
		*close = '\0';
		return op + 1;
	}
	/* @SYM+OFFS->F would read as SYM + (OFFS->F) */
	sep = op[0] == '@' ? strpbrk(op, "+-") : NULL;
	if (sep && isdigit(sep[1]))
		return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_TYPECAST_SYM_OFFSET));
	*fields = parg_arrow(op);
	if (!**fields && !parg_cast_may_stand(ctx, type))
		return ERR_PTR(parg_fail(ctx, pos + strlen(op),
					 PARG_ERR_TYPECAST_REQ_FIELD));
	return op;
}

/*
 * After the operand of a cast: the type, read as BTF has it, and the
 * fields from there.  @text is the inside of the cast's parentheses, at
 * byte @pos; @fields ("->F..." or empty) at byte @fpos.
 */
static int parg_cast_fields(struct parg_ctx *ctx, char *text, int pos,
			    char *fields, int fpos, int operand)
{
	const struct btf_type *target;
	bool container;
	long adjust;

	if (!parg_btf_castable(ctx->last_type) || parg_is_text(ctx))
		return parg_fail(ctx, operand, PARG_ERR_CAST_NOT_PTR);
	target = parg_btf_cast_type(ctx, text, pos, &adjust, &container);
	if (IS_ERR(target))
		return PTR_ERR(target);
	ctx->last_type = NULL;
	if (!*fields && container)
		return parg_fail(ctx, fpos, PARG_ERR_TYPECAST_REQ_FIELD);
	if (!*fields) {
		ctx->pointee = target;	/* for :struct */
		return 0;
	}
	ctx->offset = fpos + 2;
	return parg_btf_fields(ctx, fields + 2, target, true, adjust);
}

/*
 * Casts, at @arg (a '('), at byte ctx->offset of the definition:
 *   (TYPE)FETCH->F...        FETCH read as a pointer to TYPE; the fields
 *   (TYPE)(FETCH)->F...      walk from there, '->' through pointers
 *   (TYPE,FIELD)FETCH->F...  FETCH points to FIELD of a TYPE: the fields
 *                            are TYPE's (container_of)
 *   ((TYPE)FETCH)->F...      the cast and FETCH grouped (FETCH whole)
 * The syntax is here; what the types mean is probe_arg_btf.c's.  As for
 * errors, the syntax is checked on the way in, the operand is parsed,
 * then the type is looked up.  TYPE is NAME (a struct, union or typedef,
 * looked up in that order), "struct NAME" or "union NAME"; a '*' may
 * follow it in a pointer cast.
 */
static int parg_parse_cast(struct parg_ctx *ctx, char *arg)
{
	char *cast = arg + (arg[1] == '('), *close, *op, *end, *fields;
	int base = ctx->offset, ret;
	char saved;

	/* a cast names a type: without BTF, the caret stays at the cast */
	if (!IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS))
		return parg_fail(ctx, base, PARG_ERR_NOSUP_BTFARG);
	close = strchr(cast, ')');
	end = arg != cast ? parg_close_paren(arg) : NULL;
	if (!close || (arg != cast && !end))
		return parg_fail(ctx, base + strlen(arg), PARG_ERR_CAST_NOT_CLOSED);
	*close = '\0';
	op = close + 1;
	if (end) {		/* grouped: the fields follow the outer ')' */
		fields = end + 1;
		if (*fields && !str_has_prefix(fields, "->"))
			return parg_fail(ctx, base + (fields - arg),
					 PARG_ERR_NOSUP_DAT_ARG);
	} else {
		op = parg_cast_operand(ctx, op, base + (op - arg), cast + 1,
				       &fields);
		if (IS_ERR(op))
			return PTR_ERR(op);
		end = fields;
	}
	saved = *end;
	*end = '\0';
	ctx->offset = base + (op - arg);
	ret = parg_parse_fetch(ctx, op);
	*end = saved;
	if (ret)
		return ret;
	return parg_cast_fields(ctx, cast + 1, base + (cast + 1 - arg), fields,
				base + (fields - arg), base + (op - arg));
}

/* A name: a BTF parameter, or an event probe's record field. */
static int parg_parse_name(struct parg_ctx *ctx, char *arg)
{
	if (ctx->caps->event)
		return parg_parse_event_name(ctx, arg);
	if (!parg_at_kernel_func(ctx))
		return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
	return parg_btf_var(ctx, arg);
}

/* A fetch that holds another: a dereference, a cast, this_cpu_*(). */
static int parg_parse_nested(struct parg_ctx *ctx, char *arg)
{
	int ret;

	if (ctx->depth >= PARG_MAX_NESTED)
		return parg_fail(ctx, ctx->offset, PARG_ERR_TOO_MANY_NESTED);
	ctx->depth++;
	if (arg[0] == '+' || arg[0] == '-')
		ret = parg_parse_deref(ctx, arg);
	else if (arg[0] != '(')
		ret = parg_parse_this_cpu(ctx, arg);
	else if (ctx->caps->user)
		ret = parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
	else
		ret = parg_parse_cast(ctx, arg);
	ctx->depth--;
	return ret;
}

/* One fetch expression, without its type; recursive through nesting. */
int parg_parse_fetch(struct parg_ctx *ctx, char *arg)
{
	int reg;

	if (arg[0] == '+' || arg[0] == '-' || arg[0] == '(' ||
	    parg_this_cpu_len(arg))
		return parg_parse_nested(ctx, arg);
	switch (arg[0]) {
	case '$':
		return parg_parse_var(ctx, arg);
	case '%':
		if (ctx->caps->no_regs || ctx->caps->event)
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VAR);
		reg = regs_query_register_offset(arg + 1);
		if (reg < 0)
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_REG_NAME);
		parg_use_src(ctx, PARG_SRC_REG, reg);
		return 0;
	case '@':
		return parg_parse_mem(ctx, arg);
	case '\\':
		return parg_parse_imm(ctx, arg);
	}
	if (isalpha(arg[0]) || arg[0] == '_')
		return parg_parse_name(ctx, arg);
	return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_FETCH_ARG);
}

/* ------------------------------------------------------------- types */

/*
 * The element count of "TYPE[N]": @lb is the text after the '[' of @arg.
 * It must be "N]" and end there, with 0 < N <= PARG_MAX_ARRAY_LEN.
 */
static int parg_parse_count(struct parg_ctx *ctx, const char *arg, char *lb,
			    unsigned int *count)
{
	int at = ctx->offset + (lb - arg);
	char *rb = strchr(lb, ']');

	if (!rb)
		return parg_fail(ctx, at + strlen(lb), PARG_ERR_ARRAY_NO_CLOSE);
	if (rb[1])
		return parg_fail(ctx, at + (rb + 1 - lb),
				 PARG_ERR_BAD_ARRAY_SUFFIX);
	*rb = '\0';
	if (kstrtouint(lb, 0, count) || !*count)
		return parg_fail(ctx, at, PARG_ERR_BAD_ARRAY_NUM);
	if (*count > PARG_MAX_ARRAY_LEN)
		return parg_fail(ctx, at, PARG_ERR_ARRAY_TOO_BIG);
	return 0;
}

/*
 * Cut ":TYPE[N]" off @arg and find the type.  Returns the offset of the
 * type text in @arg (0 when there is none), or a negative errno.
 */
static int parg_split_type(struct parg_ctx *ctx, char *arg, char **tname,
			   unsigned int *count)
{
	struct parg_arg *a = ctx->arg;
	char *t = arg, *lb;
	int toff, ret;

	*count = 0;
	strsep(&t, ":");		/* t: the type text, or NULL */
	lb = t;
	if (lb)
		strsep(&lb, "[");	/* lb: the count text, or NULL */
	if (lb) {
		ret = parg_parse_count(ctx, arg, lb, count);
		if (ret)
			return ret;
	}
	toff = t ? t - arg : 0;
	*tname = t;

	/*
	 * $comm and immediate strings are strings, and never arrays (an event
	 * probe's record may have a field named comm, of its own type).
	 */
	if (((!strcmp(arg, "$comm") || !strcmp(arg, "$COMM")) &&
	     !parg_event_field(ctx, arg + 1)) || !strncmp(arg, "\\\"", 2)) {
		if (*count || (t && strcmp(t, "string")))
			return parg_fail(ctx, ctx->offset + toff,
					 PARG_ERR_NEED_STRING_TYPE);
		a->type = parg_find_type("string");
	} else {
		a->type = parg_find_type(t);
	}
	if (!a->type || (ctx->caps->user && parg_type_is_kernel_only(a->type)))
		return parg_fail(ctx, ctx->offset + toff, PARG_ERR_BAD_TYPE);
	return toff;
}

/* b<width>@<offset>/<size>, on top of the element already chosen */
static int parg_parse_bitfield(struct parg_ctx *ctx, const char *t, int pos)
{
	struct parg_arg *a = ctx->arg;
	unsigned long width, shift, bits;
	char *tail;

	width = simple_strtoul(t + 1, &tail, 0);
	if (!width || *tail != '@')
		return parg_fail(ctx, pos, PARG_ERR_BAD_BITFIELD);
	t = tail + 1;
	shift = simple_strtoul(t, &tail, 0);
	if (tail == t || *tail != '/')
		return parg_fail(ctx, pos, PARG_ERR_BAD_BITFIELD);
	/* each on its own first, so that their sum cannot wrap */
	bits = a->type->size * BITS_PER_BYTE;
	if (++ctx->steps >= PARG_MAX_STEPS || width > bits || shift >= bits ||
	    width + shift > bits)
		return parg_fail(ctx, pos, PARG_ERR_BAD_BITFIELD);
	a->lshift = 64 - (width + shift);
	a->rshift = 64 - width;
	return 0;
}

/* A bitfield that BTF found in the last field of the chain. */
static int parg_btf_bitfield(struct parg_ctx *ctx)
{
	if (ctx->last_bitsize % 8 == 0 && ctx->last_bitoffs == 0)
		return 0;
	/* a packed struct may place one across the 64-bit word read */
	if (!ctx->last_bitsize || ctx->last_bitsize + ctx->last_bitoffs > 64)
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_BITFIELD);
	if (parg_take_step(ctx))
		return -EINVAL;
	ctx->arg->lshift = 64 - (ctx->last_bitsize + ctx->last_bitoffs);
	ctx->arg->rshift = 64 - ctx->last_bitsize;
	return 0;
}

/*
 * Whether the chain ends in a read the store can take over: a per-CPU
 * step reads nothing, and its result is the value to store.
 */
static bool parg_ends_in_read(const struct parg_ctx *ctx)
{
	int n = ctx->arg->nderef;

	return n && !(ctx->cpu_derefs & BIT(n - 1));
}

/* The last dereference of the chain becomes the store's own access. */
static bool parg_pop_deref(struct parg_ctx *ctx)
{
	struct parg_arg *a = ctx->arg;
	bool user;

	a->nderef--;
	a->off = ctx->derefs[a->nderef];
	user = ctx->user_derefs & BIT(a->nderef);
	ctx->user_derefs &= ~BIT(a->nderef);
	return user;
}

static bool parg_src_is_value(const struct parg_arg *a)
{
	return a->src == PARG_SRC_REG || a->src == PARG_SRC_STACK ||
	       a->src == PARG_SRC_RETVAL || a->src == PARG_SRC_ARG ||
	       a->src == PARG_SRC_EDATA || a->src == PARG_SRC_FIELD ||
	       a->src == PARG_SRC_CURRENT;
}

/* string, ustring, symstr: which store reads them, and from where */
static int parg_finish_string(struct parg_ctx *ctx, unsigned int count, int pos)
{
	struct parg_arg *a = ctx->arg;
	bool symstr = !strcmp(a->type->name, "symstr");
	bool ustring = !strcmp(a->type->name, "ustring") ||
		       (ctx->caps->user && a->src != PARG_SRC_CURRENT);
	bool deref = parg_ends_in_read(ctx);
	bool last_user = deref && (ctx->user_derefs & BIT(a->nderef - 1));

	if (symstr) {
		if (deref ? last_user : !parg_src_is_value(a))
			return parg_fail(ctx, pos, PARG_ERR_BAD_SYMSTRING);
	} else if (!deref && a->src != PARG_SRC_IMM &&
		   a->src != PARG_SRC_COMM && a->src != PARG_SRC_DATA &&
		   a->src != PARG_SRC_FIELD) {
		return parg_fail(ctx, pos, PARG_ERR_BAD_STRING);
	}
	/* a store slot of its own unless it replaces the last dereference */
	if ((symstr || !deref || count) && parg_take_step(ctx))
		return -EINVAL;

	if (symstr) {
		if (parg_symbufs_reserve())
			return -ENOMEM;
		a->store = PARG_ST_SYMSTR;
	} else if (count) {
		a->store = PARG_ST_STRV;
		a->ustr = ustring;
		a->ustr_ptrs = deref && parg_pop_deref(ctx);
	} else if (deref) {
		last_user = parg_pop_deref(ctx);
		a->store = ustring || last_user ? PARG_ST_USTR : PARG_ST_STR;
	} else if (a->src == PARG_SRC_COMM) {
		a->store = PARG_ST_COMM;
	} else if (a->src == PARG_SRC_DATA) {
		a->store = PARG_ST_DATA;
	} else {
		a->store = ustring ? PARG_ST_USTR : PARG_ST_STR;
	}
	return 0;
}

/* Stage 5: store, bitfield and array of the argument. */
static int parg_finish(struct parg_ctx *ctx, const char *tname, int tpos,
		       unsigned int count)
{
	struct parg_arg *a = ctx->arg;
	int ret;

	if (a->type->kind == PARG_K_STRING) {
		ret = parg_finish_string(ctx, count, tpos);
		if (ret)
			return ret;
	} else if (parg_ends_in_read(ctx)) {
		a->store = parg_pop_deref(ctx) ? PARG_ST_UMEM : PARG_ST_MEM;
	} else {
		if (parg_take_step(ctx))
			return -E2BIG;
		a->store = PARG_ST_RAW;
	}

	if (tname) {
		if (tname[0] == 'b') {
			ret = parg_parse_bitfield(ctx, tname, tpos);
			if (ret)
				return ret;
		}
	} else if (ctx->last_type) {
		ret = parg_btf_bitfield(ctx);
		if (ret)
			return ret;
	}

	if (count) {
		if (a->store != PARG_ST_MEM && a->store != PARG_ST_UMEM &&
		    a->store != PARG_ST_STRV)
			return parg_fail(ctx, tpos, PARG_ERR_BAD_STRING);
		if (parg_take_step(ctx))
			return -E2BIG;
	}
	return 0;
}

/* ---------------------------------------------------------- one word */

static int parg_layout(struct parg_ctx *ctx, unsigned int count)
{
	struct parg_set *set = ctx->set;
	struct parg_arg *a = ctx->arg;

	a->count = count ?: 1;
	a->size = a->type->size;
	a->dst = set->fixed;
	set->fixed += a->size * a->count;
	if (set->fixed > PARG_MAX_FIELDS_SIZE)
		return parg_fail(ctx, ctx->offset, PARG_ERR_EVENT_TOO_BIG);
	if (count) {
		a->fmttype = kasprintf(GFP_KERNEL, "%s[%u]", a->type->fmttype,
				       count);
		if (!a->fmttype)
			return -ENOMEM;
	}
	return 0;
}

/* FETCH[:TYPE] after the name; ctx->offset is its position in the word. */
static int parg_parse_body(struct parg_ctx *ctx, const char *body)
{
	struct parg_arg *a = ctx->arg;
	char buf[PARG_MAX_TEXT_LEN + 1];
	unsigned int count;
	size_t len = strlen(body);
	char *tname;
	int toff, tpos, ret;

	if (len > PARG_MAX_TEXT_LEN)
		return parg_fail(ctx, ctx->offset, PARG_ERR_ARG_TOO_LONG);
	if (!len)
		return parg_fail(ctx, ctx->offset, PARG_ERR_NO_ARG_BODY);
	memcpy(buf, body, len + 1);
	a->text = kstrdup(body, GFP_KERNEL);
	if (!a->text)
		return -ENOMEM;

	toff = parg_split_type(ctx, buf, &tname, &count);
	if (toff < 0)
		return toff;
	/* parsing the fetch moves ctx->offset into it: the type is here */
	tpos = ctx->offset + toff;

	ctx->last_type = NULL;
	ctx->pointee = NULL;
	ctx->user_derefs = 0;
	ctx->cpu_derefs = 0;
	ctx->depth = 0;
	ret = parg_parse_fetch(ctx, buf);
	if (ret)
		return ret;

	if (a->type->kind == PARG_K_STRUCT) {
		if (count)
			return parg_fail(ctx, tpos, PARG_ERR_BAD_TYPE);
		ctx->offset = tpos;
		ret = parg_btf_view(ctx, &count);
		if (ret)
			return ret;
	}

	if (IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS) && ctx->last_type) {
		if (!tname)
			a->type = parg_btf_type(ctx) ?: parg_find_type(NULL);
		else if (strstr(tname, "string"))
			ret = parg_btf_string(ctx, tname);
		if (ret)
			return ret;
	}
	ret = parg_layout(ctx, count);
	if (ret)
		return ret;
	ret = parg_finish(ctx, tname, tpos, count);
	if (ret)
		return ret;

	a->user_derefs = ctx->user_derefs;
	a->cpu_derefs = ctx->cpu_derefs;
	if (a->nderef) {
		a->deref = kmemdup(ctx->derefs, a->nderef * sizeof(long),
				   GFP_KERNEL);
		if (!a->deref)
			return -ENOMEM;
	}
	return 0;
}

static bool parg_name_taken(const struct parg_set *set, int idx,
			    const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(parg_reserved); i++)
		if (!strcmp(parg_reserved[i], name))
			return true;
	for (i = 0; i < idx; i++)
		if (!strcmp(set->args[i].name, name))
			return true;
	return false;
}

/* Without NAME=: the text itself if BTF names are on and it is one. */
static char *parg_auto_name(const char *word, int idx)
{
	size_t len = strcspn(word, ":");
	char *name;

	if (IS_ENABLED(CONFIG_PROBE_EVENTS_BTF_ARGS)) {
		name = kmemdup_nul(word, len, GFP_KERNEL);
		if (!name || is_good_name(name))
			return name;
		kfree(name);
	}
	return kasprintf(GFP_KERNEL, "arg%d", idx + 1);
}

int parg_parse_word(struct parg_ctx *ctx, int idx, const char *word)
{
	struct parg_arg *a = &ctx->set->args[idx];
	const char *eq = strchr(word, '=');
	const char *body = word;

	ctx->arg = a;
	if (eq) {
		if (eq - word > PARG_MAX_NAME_LEN)
			return parg_fail(ctx, 0, PARG_ERR_ARG_NAME_TOO_LONG);
		if (eq == word)
			return parg_fail(ctx, 0, PARG_ERR_NO_ARG_NAME);
		a->name = kmemdup_nul(word, eq - word, GFP_KERNEL);
		body = eq + 1;
	} else {
		a->name = parg_auto_name(word, idx);
	}
	if (!a->name)
		return -ENOMEM;
	if (!is_good_name(a->name))
		return parg_fail(ctx, 0, PARG_ERR_BAD_ARG_NAME);
	if (parg_name_taken(ctx->set, idx, a->name))
		return parg_fail(ctx, 0, PARG_ERR_USED_ARG_NAME);
	ctx->offset = body - word;
	return parg_parse_body(ctx, body);
}
