// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: arguments named through BTF
 *
 * probe_arg_btf.c - fetch arguments named through BTF (CONFIG_PROBE_EVENTS_BTF_ARGS).
 *
 * At a function entry or exit the parameters of the probed function have
 * names and types in BTF.  This file lets an argument say::
 *
 *   NAME                 a parameter, by name ($argN and $arg* are
 *                        rewritten to names before parsing)
 *   NAME->F1.F2->F3      fields: '->' goes through a pointer, '.' stays in
 *                        the same structure (the offsets add up)
 *   $retval[->F...]      the return value, with the function's return type
 *
 * and gives each one a default type from BTF: integers keep their size and
 * sign, enums are s32/s64, pointers x64, odd-sized or bit-offset integers
 * become bitfields.  In a return probe, parameters are read from the words
 * saved at entry (parg_use_entry()).
 *
 * Every step stays within the struct parg_ctx of the definition: the BTF of
 * the function is looked up once (parg_btf_query()) and released with
 * parg_btf_release().  A function of a module the front end names
 * (parg_caps.module, "MOD:FUNC") is looked up in that module's BTF only:
 * a module may have a function of the same name as one of the kernel's,
 * with another prototype.  Error positions are ABI, as in the parser.  Process
 * context only.
 */
#include <linux/btf.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/trace_seq.h>

#include "trace_btf.h"
#include "probe_arg_impl.h"

/*
 * FUNC_PROTO of @func in the BTF of @module, with a reference on that BTF
 * in *@btfp, or NULL.  A module's BTF lists the kernel's types first: its
 * own ids come after them, and a function of its own is looked for there
 * first, so that one named like a kernel function is not taken for it.
 * Failing that, the kernel's: the module's copy of a function with the
 * very same prototype may have been merged into the kernel's at build.
 */
static const struct btf_type *parg_btf_module_proto(const char *module,
						    const char *func,
						    struct btf **btfp)
{
	struct btf *btf = btf_get_module_btf_by_name(module);
	const struct btf_type *t = NULL;
	u32 id, end;
	s32 found;

	if (!btf)
		return NULL;
	end = btf_nr_types(btf);
	for (id = max(btf_nr_types(btf_base_btf(btf)), 1U); id < end && !t; id++) {
		t = btf_type_by_id(btf, id);
		if (!btf_type_is_func(t) ||
		    strcmp(btf_name_by_offset(btf, t->name_off), func))
			t = NULL;
	}
	if (!t) {
		found = btf_find_by_name_kind(btf, func, BTF_KIND_FUNC);
		t = found > 0 ? btf_type_by_id(btf, found) : NULL;
	}
	t = t ? btf_type_by_id(btf, t->type) : NULL;
	if (!t || !btf_type_is_func_proto(t)) {
		btf_put(btf);
		return NULL;
	}
	*btfp = btf;
	return t;
}

/*
 * The probed function's prototype: in its module's BTF only when the
 * front end names a module, else the first BTF that has it, the kernel's
 * then each module's (as the function itself is found).
 */
int parg_btf_query(struct parg_ctx *ctx)
{
	const struct btf_param *param;
	const struct btf_type *proto;
	struct btf *btf;
	s32 nr = 0, shift;

	if (ctx->proto)
		return 0;
	/* one try: a BTF taken since (for $current, a cast) stays */
	if (!ctx->caps->func || ctx->btf || ctx->btf_tried)
		return -ENOENT;
	ctx->btf_tried = true;
	if (ctx->caps->module)
		proto = parg_btf_module_proto(ctx->caps->module,
					      ctx->caps->func, &btf);
	else
		proto = btf_find_func_proto(ctx->caps->func, &btf);
	if (!proto)
		return -ENOENT;
	ctx->btf = btf;
	ctx->proto = proto;
	param = btf_get_func_param(proto, &nr);
	if (IS_ERR_OR_NULL(param) || nr <= 0) {
		ctx->params = NULL;
		ctx->nr_params = 0;
	} else {
		ctx->params = param;
		ctx->nr_params = nr;
	}
	/* a tracepoint stub's leading parameters are none of the arguments */
	shift = min_t(s32, ctx->caps->arg_shift, ctx->nr_params);
	if (ctx->params)
		ctx->params += shift;
	ctx->nr_params -= shift;
	return 0;
}

void parg_btf_release(struct parg_ctx *ctx)
{
	if (!ctx->btf)
		return;
	btf_put(ctx->btf);
	ctx->btf = NULL;
	ctx->proto = NULL;
	ctx->params = NULL;
	ctx->nr_params = 0;
}

const char *parg_btf_param_name(struct parg_ctx *ctx, int idx)
{
	if (!ctx->btf || idx >= ctx->nr_params)
		return NULL;
	return btf_name_by_offset(ctx->btf, ctx->params[idx].name_off);
}

/*
 * Cut @name at its first field operator.  Returns 1 for "->", 0 for "."
 * or none (then *@next is NULL), or -EINVAL for a lone '-'.
 */
static int parg_btf_split(struct parg_ctx *ctx, char *name, char **next)
{
	char *op = strpbrk(name, ".-");

	*next = NULL;
	if (!op)
		return 0;
	if (op[0] == '.') {
		*op = '\0';
		*next = op + 1;
		return 0;
	}
	if (op[1] != '>')
		return parg_fail(ctx, ctx->offset + (op - name), PARG_ERR_BAD_HYPHEN);
	*op = '\0';
	*next = op + 2;
	return 1;
}

static const struct btf_type *parg_btf_resolve(struct parg_ctx *ctx, u32 id)
{
	const struct btf_type *t = btf_type_skip_modifiers(ctx->btf, id, NULL);

	if (!t)
		parg_fail(ctx, ctx->offset, PARG_ERR_BAD_BTF_TID);
	return t;
}

/*
 * One '.'-joined run of members inside the structure @type points to; on
 * return *@type is the last member's type and *@bitoffs its bit offset.
 * Returns 1 if a "->" follows, 0 at the end, or an errno.
 */
static int parg_btf_members(struct parg_ctx *ctx, char **fieldp,
			    const struct btf_type **type, u32 *bitoffs)
{
	const struct btf_type *t = *type, *holder;
	const struct btf_member *m;
	char *field = *fieldp, *next;
	int arrow;
	u32 anon;

	*bitoffs = 0;
	do {
		arrow = parg_btf_split(ctx, field, &next);
		if (arrow < 0)
			return arrow;
		anon = 0;
		m = btf_find_struct_member(ctx->btf, t, field, &anon, &holder);
		if (IS_ERR(m))
			return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_BTF_TID);
		if (!m)
			return parg_fail(ctx, ctx->offset, PARG_ERR_NO_BTF_FIELD);
		*bitoffs += anon + __btf_member_bit_offset(holder, m);
		ctx->last_bitsize = __btf_member_bitfield_size(holder, m);
		t = parg_btf_resolve(ctx, m->type);
		if (!t)
			return -EINVAL;
		ctx->offset += next ? next - field : strlen(field);
		field = next;
	} while (!arrow && field);
	*fieldp = field;
	*type = t;
	return arrow;
}

/*
 * "->F1.F2->F3...": one dereference per '->' of the chain, from a value
 * of type @type, or from a pointer to @type when @pointee.  @adjust is
 * added to the first one's offset (a container cast's).
 */
int parg_btf_fields(struct parg_ctx *ctx, char *field,
		    const struct btf_type *type, bool pointee, long adjust)
{
	u32 bitoffs;
	int ret;

	while (field) {
		if (!pointee && !btf_type_is_ptr(type))
			return parg_fail(ctx, ctx->offset, PARG_ERR_NO_PTR_STRCT);
		if (pointee && !btf_type_is_struct(type))
			return parg_fail(ctx, ctx->offset, PARG_ERR_NO_PTR_STRCT);
		if (!pointee)
			type = parg_btf_resolve(ctx, type->type);
		pointee = false;
		if (!type)
			return -EINVAL;
		ret = parg_btf_members(ctx, &field, &type, &bitoffs);
		if (ret < 0)
			return ret;
		ret = parg_push_deref(ctx, bitoffs / 8 + adjust, false);
		if (ret)
			return ret;
		adjust = 0;
		ctx->last_bitoffs = bitoffs % 8;
		ctx->last_type = type;
	}
	return 0;
}

/*
 * $retval of a return probe: typed when the function has BTF.  @field is
 * the position of a field after it, or 0 for none.
 */
static int parg_btf_retval(struct parg_ctx *ctx, int field, u32 *tid)
{
	parg_use_src(ctx, PARG_SRC_RETVAL, 0);
	if (parg_btf_query(ctx) == 0) {
		if (!ctx->proto->type)
			return parg_fail(ctx, ctx->offset, PARG_ERR_NO_RETVAL);
		*tid = ctx->proto->type;
		return 1;
	}
	if (field)
		return parg_fail(ctx, ctx->offset + field, PARG_ERR_NO_BTF_ENTRY);
	return 0;
}

/* A parameter by name: a register at entry, a saved word at return. */
static int parg_btf_param(struct parg_ctx *ctx, const char *name, u32 *tid)
{
	int i, off;

	if (!ctx->proto && (parg_btf_query(ctx) < 0 || !ctx->nr_params))
		return parg_fail(ctx, ctx->offset, PARG_ERR_NO_BTF_ENTRY);
	for (i = 0; i < ctx->nr_params; i++) {
		const char *pname = parg_btf_param_name(ctx, i);

		if (!pname || strcmp(pname, name))
			continue;
		if (parg_at_entry(ctx)) {
			parg_use_src(ctx, PARG_SRC_ARG, i + ctx->caps->arg_shift);
		} else {
			off = parg_use_entry(ctx, i + ctx->caps->arg_shift);
			if (off < 0)
				return off;
			parg_use_src(ctx, PARG_SRC_EDATA, off);
		}
		*tid = ctx->params[i].type;
		return 1;
	}
	return parg_fail(ctx, ctx->offset, PARG_ERR_NO_BTFARG);
}

int parg_btf_var(struct parg_ctx *ctx, char *varname)
{
	const struct btf_type *type;
	char *field;
	u32 tid = 0;
	int ret;

	ret = parg_btf_split(ctx, varname, &field);
	if (ret < 0)
		return ret;
	if (!ret && field)	/* '.' straight on a parameter */
		return parg_fail(ctx, ctx->offset + (field - varname),
				 PARG_ERR_NOSUP_DAT_ARG);

	if (parg_at_return(ctx) && !strcmp(varname, "$retval"))
		ret = parg_btf_retval(ctx, field ? field - varname : 0, &tid);
	else
		ret = parg_btf_param(ctx, varname, &tid);
	if (ret <= 0)
		return ret;

	type = parg_btf_resolve(ctx, tid);
	if (!type)
		return -EINVAL;
	ctx->last_type = type;
	ctx->last_bitoffs = 0;
	ctx->last_bitsize = 0;
	if (!field)
		return 0;
	ctx->offset += field - varname;
	return parg_btf_fields(ctx, field, type, false, 0);
}

/*
 * The id of type @name of BTF kind @kind, in the BTF the definition uses:
 * the probed function's (the kernel's, with its module's types), else
 * that of the module the front end names, or, with neither, the first BTF
 * that has the type, the kernel's then each module's.  One definition
 * uses one BTF.
 */
static s32 parg_btf_find(struct parg_ctx *ctx, const char *name, u32 kind)
{
	struct btf *btf;
	s32 id;

	if (!ctx->btf)
		parg_btf_query(ctx);
	if (!ctx->btf && ctx->caps->module)
		ctx->btf = btf_get_module_btf_by_name(ctx->caps->module);
	if (ctx->btf)
		return btf_find_by_name_kind(ctx->btf, name, kind);
	id = bpf_find_btf_id(name, kind, &btf);
	if (id > 0)
		ctx->btf = btf;
	return id;
}

/*
 * "$current" or "$current->F..." (@arg): the fields of the running task,
 * the source already chosen.  A '.' straight after it is refused, as on a
 * parameter.
 */
int parg_btf_current(struct parg_ctx *ctx, char *arg)
{
	const struct btf_type *task;
	char *field;
	s32 id;
	int ret;

	if (!arg[8])
		return 0;
	ret = parg_btf_split(ctx, arg, &field);
	if (ret < 0)
		return ret;
	if (!ret)
		return parg_fail(ctx, ctx->offset + (field - arg),
				 PARG_ERR_NOSUP_DAT_ARG);
	id = parg_btf_find(ctx, "task_struct", BTF_KIND_STRUCT);
	if (id <= 0)
		return parg_fail(ctx, ctx->offset, PARG_ERR_NOSUP_BTFARG);
	task = parg_btf_resolve(ctx, id);
	if (!task)
		return -EINVAL;
	ctx->offset += field - arg;
	return parg_btf_fields(ctx, field, task, true, 0);
}

/* The default type of the last token, from its BTF type. */
const struct parg_type *parg_btf_type(struct parg_ctx *ctx)
{
	const struct btf_type *t = ctx->last_type;
	static const char *const names[2][4] = {
		{ "u8", "u16", "u32", "u64" },
		{ "s8", "s16", "s32", "s64" },
	};
	bool sign;
	int bits;

	if (btf_is_any_enum(t))
		return parg_find_type(btf_kind(t) == BTF_KIND_ENUM64 ? "s64" : "s32");
	if (btf_type_is_ptr(t))
		return parg_find_type(BITS_PER_LONG == 64 ? "x64" : "x32");
	if (!btf_type_is_int(t))
		return NULL;
	sign = btf_int_encoding(t) & BTF_INT_SIGNED;
	bits = btf_int_bits(t);
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
		return parg_find_type(names[sign][ilog2(bits) - 3]);
	if (sign)
		return NULL;
	/* an unsigned integer of odd width is a bitfield of a u64 */
	ctx->last_bitsize = bits;
	ctx->last_bitoffs += btf_int_offset(t);
	return parg_find_type("u64");
}

/* An 8-bit unsigned integer type, skipping modifiers. */
static bool parg_btf_is_byte(struct parg_ctx *ctx, u32 id)
{
	const struct btf_type *t = btf_type_skip_modifiers(ctx->btf, id, NULL);

	return t && btf_type_is_int(t) && btf_int_bits(t) == 8 &&
	       !(btf_int_encoding(t) & BTF_INT_SIGNED);
}

/*
 * :string on a BTF value: a char array is read where it is, a char
 * pointer through one more dereference; anything else is refused.
 */
int parg_btf_string(struct parg_ctx *ctx, const char *typename)
{
	const struct btf_type *t = ctx->last_type;

	if (!ctx->btf)
		return 0;
	if (btf_type_is_array(t) && parg_btf_is_byte(ctx, btf_array(t)->type))
		return 0;
	if (btf_type_is_ptr(t) && parg_btf_is_byte(ctx, t->type))
		return parg_push_deref(ctx, 0, typename[0] == 'u');
	return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_TYPE4STR);
}

/* ------------------------------------------------------------- casts */

/*
 * "struct NAME", "union NAME", or a bare NAME: a struct, else a union,
 * else a typedef (@name, blanks trimmed, at byte @pos of the definition).
 * The type it names, modifiers skipped.
 */
static const struct btf_type *parg_btf_named(struct parg_ctx *ctx, char *name,
					     int pos)
{
	static const u32 kinds[] = { BTF_KIND_STRUCT, BTF_KIND_UNION,
				     BTF_KIND_TYPEDEF };
	int i = 0, n = ARRAY_SIZE(kinds);
	s32 id = -ENOENT;

	if (str_has_prefix(name, "struct ")) {
		n = 1;
		name = skip_spaces(name + 7);
	} else if (str_has_prefix(name, "union ")) {
		i = 1, n = 2;
		name = skip_spaces(name + 6);
	}
	if (!*name || strpbrk(name, " *,"))
		return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_BAD_CAST));
	for (; i < n && id <= 0; i++)
		id = parg_btf_find(ctx, name, kinds[i]);
	/* the ABI's word for "no such struct": NO_PTR_STRCT */
	if (id <= 0)
		return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_NO_PTR_STRCT));
	return parg_btf_resolve(ctx, id) ?: ERR_PTR(-EINVAL);
}

/*
 * The inside of a cast's parentheses (@text, at byte @pos): the type a
 * pointer is cast to, "NAME" or "NAME *", or the holder of a container
 * cast, "NAME,FIELD", with *@adjust the (negative) offset of FIELD in it.
 * FIELD is a '.' chain within the holder, on a byte boundary.
 */
const struct btf_type *parg_btf_cast_type(struct parg_ctx *ctx, char *text,
					  int pos, long *adjust, bool *container)
{
	char *comma = strchr(text, ','), *star = strchr(text, '*'), *field;
	int lead = skip_spaces(text) - text;
	const struct btf_type *t, *member;
	u32 bitoffs;
	int ret, fpos;

	*adjust = 0;
	*container = comma;
	if ((comma && star) || (star && *skip_spaces(star + 1)))
		return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_BAD_CAST));
	if (comma || star)
		*(comma ?: star) = '\0';
	t = parg_btf_named(ctx, strim(text), pos + lead);
	if (IS_ERR(t) || !comma)
		return t;
	if (!btf_type_is_struct(t))
		return ERR_PTR(parg_fail(ctx, pos, PARG_ERR_NO_PTR_STRCT));
	field = skip_spaces(comma + 1);
	fpos = pos + (field - text);
	ctx->offset = fpos;
	field = strim(field);
	member = t;
	ret = parg_btf_members(ctx, &field, &member, &bitoffs);
	if (ret < 0)
		return ERR_PTR(ret);
	if (ret)	/* "->": ctx->offset is past it */
		return ERR_PTR(parg_fail(ctx, ctx->offset - 2,
					 PARG_ERR_TYPECAST_BAD_ARROW));
	if (bitoffs % 8 || ctx->last_bitsize % 8)
		return ERR_PTR(parg_fail(ctx, fpos, PARG_ERR_TYPECAST_NOT_ALIGNED));
	*adjust = -(long)(bitoffs / 8);
	return t;
}

/* A value that may be read as a pointer: a pointer, or a long. */
bool parg_btf_castable(const struct btf_type *t)
{
	return !t || btf_type_is_ptr(t) ||
	       (btf_type_is_int(t) && btf_int_bits(t) == BITS_PER_LONG);
}

/* --------------------------------------------------------- :struct */

/*
 * ":struct" on the fetch just parsed: the struct or union it points to
 * (or is, as a member), whose first bytes, at most PARG_VIEW_MAX, go in
 * the record as *@count u8s.  The view keeps a reference on the BTF, so
 * that the trace can be read after the module that gave it is gone.
 */
int parg_btf_view(struct parg_ctx *ctx, unsigned int *count)
{
	const struct btf_type *t = ctx->last_type, *to = ctx->pointee;
	struct parg_view *view;
	bool by_value = false;
	s32 id;
	int ret;

	/* the view reads members as the little-endian bytes they are */
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VIEW);
	if (!t && !to && ctx->arg->src == PARG_SRC_CURRENT && !ctx->arg->nderef) {
		id = parg_btf_find(ctx, "task_struct", BTF_KIND_STRUCT);
		if (id > 0)
			to = btf_type_skip_modifiers(ctx->btf, id, NULL);
	}
	if (t && btf_type_is_ptr(t))
		to = parg_btf_resolve(ctx, t->type);
	else if (t)
		to = t, by_value = true;
	if (!to || !btf_type_is_struct(to) || !to->size || !ctx->btf ||
	    (by_value && !ctx->arg->nderef))
		return parg_fail(ctx, ctx->offset, PARG_ERR_BAD_VIEW);
	if (!by_value) {	/* read what the pointer points to */
		ret = parg_push_deref(ctx, 0, false);
		if (ret)
			return ret;
	}
	view = kzalloc(sizeof(*view), GFP_KERNEL);
	if (!view)
		return -ENOMEM;
	btf_get(ctx->btf);
	view->btf = ctx->btf;
	view->type = to;
	ctx->arg->view = view;
	*count = min_t(u32, to->size, PARG_VIEW_MAX);
	ctx->last_type = NULL;	/* no default type nor bitfield of its own */
	return 0;
}

void parg_btf_view_free(struct parg_view *view)
{
	if (!view)
		return;
	btf_put(view->btf);
	kfree(view);
}

/* Bits @bit..@bit + @bits of the little-endian bytes @p (all within). */
static u64 parg_view_bits(const u8 *p, u32 bit, u32 bits)
{
	u64 v = 0;
	u32 i;

	for (i = 0; i < bits; i++, bit++)
		v |= (u64)((p[bit / 8] >> (bit % 8)) & 1) << i;
	return v;
}

/*
 * A char array: its text up to the first NUL.  Bytes that would make the
 * output ambiguous or unprintable ('"', '\\', not 0x20..0x7e) are '.'.
 */
static void parg_view_chars(struct trace_seq *s, const u8 *p, u32 n)
{
	u32 i;

	trace_seq_putc(s, '"');
	for (i = 0; i < n && p[i]; i++)
		trace_seq_putc(s, p[i] >= 0x20 && p[i] <= 0x7e && p[i] != '"' &&
				  p[i] != '\\' ? p[i] : '.');
	trace_seq_putc(s, '"');
}

/* An array whose elements are named "char" (not u8, bool, ...). */
static bool parg_view_is_chars(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_type *e;
	const char *name;

	if (!btf_type_is_array(t))
		return false;
	e = btf_type_by_id(btf, btf_array(t)->type);
	while (e && (btf_kind(e) == BTF_KIND_CONST ||
		     btf_kind(e) == BTF_KIND_VOLATILE))
		e = btf_type_by_id(btf, e->type);
	if (!e || !btf_type_is_int(e) || btf_int_bits(e) != 8)
		return false;
	name = btf_name_by_offset(btf, e->name_off);
	return name && !strcmp(name, "char");
}

/*
 * One member at bit @bit of the bytes @p, @bits wide for a bitfield
 * (else 0), of type @t: integers and enums as numbers, pointers in hex,
 * char arrays as text, anything else "{...}" (one level only).
 */
static void parg_view_member(struct trace_seq *s, const struct btf *btf,
			     const struct btf_type *t, const u8 *p, u32 bit,
			     u32 bits)
{
	bool sign;
	u64 v;

	if (btf_type_is_ptr(t)) {
		v = parg_view_bits(p, bit, BITS_PER_LONG);
		trace_seq_printf(s, "0x%llx", v);
	} else if ((btf_type_is_int(t) || btf_is_any_enum(t)) && t->size <= 8) {
		if (!bits)
			bits = btf_type_is_int(t) ? btf_int_bits(t) : t->size * 8;
		sign = btf_type_is_int(t) ?
		       btf_int_encoding(t) & BTF_INT_SIGNED : btf_type_kflag(t);
		v = parg_view_bits(p, bit, bits);
		if (sign && bits < 64)
			v = sign_extend64(v, bits - 1);
		trace_seq_printf(s, sign ? "%lld" : "%llu", v);
	} else if (parg_view_is_chars(btf, t) && bit % 8 == 0) {
		parg_view_chars(s, p + bit / 8, btf_array(t)->nelems);
	} else {
		trace_seq_puts(s, "{...}");
	}
}

/* The bits member @m of @view's type takes; 0 for none or unknown. */
static u64 parg_view_width(const struct parg_view *view,
			   const struct btf_member *m, const struct btf_type *t)
{
	u32 bits = __btf_member_bitfield_size(view->type, m), size;

	if (bits)
		return bits;
	if (btf_type_is_ptr(t))
		return BITS_PER_LONG;
	if (IS_ERR(btf_resolve_size(view->btf, t, &size)))
		return 0;
	return (u64)size * 8;
}

/*
 * "{.a=1,.b=0xffff...,.c={...},.d={}}": the members of @view->type that lie
 * in the @len bytes the record holds (a member of no size is "{}"), then
 * ",..." if some did not.
 */
void parg_btf_view_print(struct trace_seq *s, const struct parg_view *view,
			 const u8 *p, unsigned int len)
{
	const struct btf_member *m;
	const struct btf_type *t;
	bool shown = false, cut = false;
	const char *name;
	u64 bit, bits;
	int i;

	trace_seq_putc(s, '{');
	for_each_member(i, view->type, m) {
		t = btf_type_skip_modifiers(view->btf, m->type, NULL);
		bit = __btf_member_bit_offset(view->type, m);
		bits = t ? parg_view_width(view, m, t) : 0;
		if (!t || bit + bits > (u64)len * 8) {
			cut = true;
			continue;
		}
		name = btf_name_by_offset(view->btf, m->name_off);
		trace_seq_printf(s, "%s.%s=", shown ? "," : "",
				 name && *name ? name : "(anon)");
		shown = true;
		if (!bits)
			trace_seq_puts(s, "{}");
		else
			parg_view_member(s, view->btf, t, p, bit,
					 __btf_member_bitfield_size(view->type, m));
	}
	if (cut)
		trace_seq_puts(s, shown ? ",..." : "...");
	trace_seq_putc(s, '}');
}
