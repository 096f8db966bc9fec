// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: building one argument
 *
 * probe_arg_build.c - the steps that build one argument: the types of the
 * language, the first error of a definition, where the probe is, and the
 * source and the dereferences of the fetch being compiled.
 *
 * The parser (probe_arg_parse.c) and the BTF resolver (probe_arg_btf.c)
 * both build with these; neither calls into this file's callers.  Process
 * context, under the front end's lock, as the parser.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "trace.h"
#include "probe_arg_impl.h"

#define PARG_STRING_FMT		"\\\"%s\\\""

/* Every type of the language; bitfields map to u8..u64 by their size. */
static const struct parg_type parg_types[] = {
	{ "u8",  "u8",  "%u",   1, PARG_K_UNSIGNED, false },
	{ "u16", "u16", "%u",   2, PARG_K_UNSIGNED, false },
	{ "u32", "u32", "%u",   4, PARG_K_UNSIGNED, false },
	{ "u64", "u64", "%Lu",  8, PARG_K_UNSIGNED, false },
	{ "s8",  "s8",  "%d",   1, PARG_K_SIGNED,   true },
	{ "s16", "s16", "%d",   2, PARG_K_SIGNED,   true },
	{ "s32", "s32", "%d",   4, PARG_K_SIGNED,   true },
	{ "s64", "s64", "%Ld",  8, PARG_K_SIGNED,   true },
	{ "x8",  "u8",  "0x%x", 1, PARG_K_HEX,      false },
	{ "x16", "u16", "0x%x", 2, PARG_K_HEX,      false },
	{ "x32", "u32", "0x%x", 4, PARG_K_HEX,      false },
	{ "x64", "u64", "0x%Lx", 8, PARG_K_HEX,     false },
	{ "char", "u8", "'%c'", 1, PARG_K_CHAR,     false },
	{ "symbol", BITS_PER_LONG == 64 ? "u64" : "u32", "%pS",
	  sizeof(long), PARG_K_SYMBOL, false },
	/* a u32 data_loc word each; "signed" as the ABI says */
	{ "string",  "__data_loc char[]", PARG_STRING_FMT, 4, PARG_K_STRING, true },
	{ "ustring", "__data_loc char[]", PARG_STRING_FMT, 4, PARG_K_STRING, true },
	{ "symstr",  "__data_loc char[]", PARG_STRING_FMT, 4, PARG_K_STRING, true },
	/* the bytes of a struct, a u8 array in the record; shown by BTF */
	{ "struct", "u8", "%s", 1, PARG_K_STRUCT, false },
};

#define PARG_DEFAULT_TYPE	(BITS_PER_LONG == 64 ? "x64" : "x32")

static const char *const parg_err_text[] = {
	"Success",	/* PARG_OK */
#define PARG_ERROR(code, msg)	msg,
#include "probe_arg_errors.h"
#undef PARG_ERROR
};

const char *parg_err_msg(enum parg_err_code code)
{
	if (code >= PARG_ERR_COUNT)
		return "Unknown error";
	return parg_err_text[code];
}
EXPORT_SYMBOL_IF_KUNIT(parg_err_msg);

/* Record the first error only: later ones are consequences. */
int parg_fail(struct parg_ctx *ctx, int pos, enum parg_err_code code)
{
	if (!ctx->err->code) {
		ctx->err->code = code;
		ctx->err->word = ctx->word;
		ctx->err->pos = pos;
	}
	return -EINVAL;
}

bool parg_at_entry(const struct parg_ctx *ctx)
{
	return ctx->caps->on_func_entry && !ctx->caps->is_return;
}

/* Where $argN and BTF names mean something: a kernel function's ends. */
bool parg_at_kernel_func(const struct parg_ctx *ctx)
{
	return !ctx->caps->user && (parg_at_entry(ctx) || parg_at_return(ctx));
}

bool parg_at_return(const struct parg_ctx *ctx)
{
	return ctx->caps->is_return;
}

/* NULL names the default type; "b<w>@<o>/<s>" maps to u<s>. */
const struct parg_type *parg_find_type(const char *name)
{
	unsigned long bits;
	int i;

	if (!name)
		name = PARG_DEFAULT_TYPE;
	if (name[0] == 'b') {
		const char *slash = strchr(name, '/');

		if (!slash || kstrtoul(slash + 1, 0, &bits))
			return NULL;
		switch (bits) {
		case 8:
			return parg_find_type("u8");
		case 16:
			return parg_find_type("u16");
		case 32:
			return parg_find_type("u32");
		case 64:
			return parg_find_type("u64");
		}
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(parg_types); i++)
		if (!strcmp(name, parg_types[i].name))
			return &parg_types[i];
	return NULL;
}

/* One more slot of the argument's program; the ABI allows 15. */
int parg_take_step(struct parg_ctx *ctx)
{
	if (++ctx->steps >= PARG_MAX_STEPS)
		return parg_fail(ctx, ctx->offset, PARG_ERR_TOO_MANY_OPS);
	return 0;
}

/* A dereference that is part of its source, and takes no slot. */
void parg_add_deref(struct parg_ctx *ctx, long off, bool user)
{
	int n = ctx->arg->nderef;

	ctx->derefs[n] = off;
	if (user)
		ctx->user_derefs |= BIT(n);
	ctx->arg->nderef = n + 1;
}

int parg_push_deref(struct parg_ctx *ctx, long off, bool user)
{
	if (parg_take_step(ctx))
		return -EINVAL;
	parg_add_deref(ctx, off, user);
	return 0;
}

/* Slot in the entry data for function argument @argnum (0-based). */
int parg_use_entry(struct parg_ctx *ctx, unsigned int argnum)
{
	struct parg_set *set = ctx->set;
	int i;

	for (i = 0; i < set->nentry; i++)
		if (set->entry[i] == argnum)
			return i * sizeof(unsigned long);
	if (WARN_ON_ONCE(set->nentry >= set->nargs))
		return -ENOSPC;
	set->entry[set->nentry] = argnum;
	return set->nentry++ * sizeof(unsigned long);
}

void parg_use_src(struct parg_ctx *ctx, enum parg_src src, unsigned long param)
{
	ctx->arg->src = src;
	ctx->arg->param = param;
	ctx->steps = 0;
}
