// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: fields and print format of an argument set
 *
 * probe_arg_event.c - what an argument set looks like from outside: the fields
 * of the format file, the print_fmt, the trace output, the kprobe_events
 * listing, and the comparisons multiprobe events need.
 *
 * All of it is ABI, byte for byte, because tools parse it::
 *
 *   field types and sizes    u32  __data_loc char[]  u8[4]
 *   print_fmt conversions    0x%Lx  \"%s\"  {%u,%u}
 *   output                   arg1=0x1  name="foo"  (fault)  {1,2,3}
 *
 * A scalar read from memory that faulted prints "(fault)" too (the fault
 * map, probe_arg_run.c).
 *
 * Process context, except parg_set_print(), which runs wherever the trace
 * is read (it may be NMI-free but must not sleep).
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/trace_seq.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include "probe_arg_impl.h"

int parg_set_define_fields(const struct parg_set *set,
			   struct trace_event_call *call, unsigned int args_off)
{
	const struct parg_arg *a;
	int ret;

	for (a = set->args; a < set->args + set->nargs; a++) {
		ret = trace_define_field(call, a->fmttype ?: a->type->fmttype,
					 a->name, args_off + a->dst,
					 a->size * a->count,
					 a->type->is_signed, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_define_fields);

/* ---------------------------------------------------------- print_fmt */

/* A bounded string that appends, and counts what did not fit. */
struct parg_out {
	char *buf;
	size_t size;
	size_t len;
};

static __printf(2, 3) void parg_out(struct parg_out *o, const char *fmt, ...)
{
	size_t left = o->len < o->size ? o->size - o->len : 0;
	va_list ap;

	va_start(ap, fmt);
	o->len += vsnprintf(o->buf ? o->buf + o->len : NULL,
			    o->buf ? left : 0, fmt, ap);
	va_end(ap);
}

static void parg_fmt_arg(const struct parg_arg *a, struct parg_out *fmt,
			 struct parg_out *args)
{
	bool str = parg_arg_is_string(a);
	int i;

	parg_out(fmt, " %s=", a->name);
	if (a->view) {		/* tools see the bytes */
		parg_out(fmt, "%%s");
		parg_out(args, ", __print_hex_str(REC->%s, %u)", a->name, a->count);
		return;
	}
	if (!a->fmttype) {
		parg_out(fmt, "%s", a->type->fmt);
		parg_out(args, str ? ", __get_str(%s)" : ", REC->%s", a->name);
		return;
	}
	for (i = 0; i < a->count; i++) {
		parg_out(fmt, "%c%s", i ? ',' : '{', a->type->fmt);
		parg_out(args, str ? ", __get_str(%s[%d])" : ", REC->%s[%d]",
			 a->name, i);
	}
	parg_out(fmt, "}");
}

static void parg_fmt_all(const struct parg_set *set, struct parg_out *fmt,
			 struct parg_out *args)
{
	const struct parg_arg *a;

	for (a = set->args; a < set->args + set->nargs; a++)
		parg_fmt_arg(a, fmt, args);
}

int parg_set_print_fmt(const struct parg_set *set, char *fmt, size_t fmt_len,
		       char *args, size_t args_len)
{
	struct parg_out f = { fmt, fmt_len, strnlen(fmt, fmt_len) };
	struct parg_out r = { args, args_len, strnlen(args, args_len) };

	if (f.len >= fmt_len || r.len >= args_len)
		return -ENOSPC;
	parg_fmt_all(set, &f, &r);
	return f.len < fmt_len && r.len < args_len ? 0 : -ENOSPC;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_print_fmt);

void parg_set_print_fmt_len(const struct parg_set *set, size_t *fmt_len,
			    size_t *args_len)
{
	struct parg_out f = {}, r = {};

	parg_fmt_all(set, &f, &r);
	*fmt_len = f.len;
	*args_len = r.len;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_print_fmt_len);

/* ------------------------------------------------------- trace output */

static void parg_print_value(struct trace_seq *s, const struct parg_type *t,
			     const u8 *p, const void *ent)
{
	u64 v = 0;
	u32 loc;

	switch (t->size) {
	case 1:
		v = *p;
		break;
	case 2:
		v = get_unaligned((const u16 *)p);
		break;
	case 4:
		v = get_unaligned((const u32 *)p);
		break;
	case 8:
		v = get_unaligned((const u64 *)p);
		break;
	}
	switch (t->kind) {
	case PARG_K_SIGNED:
		if (t->size == 8)
			trace_seq_printf(s, "%lld", (s64)v);
		else	/* sign-extend from the field's width */
			trace_seq_printf(s, "%d", (int)sign_extend64(v, t->size * 8 - 1));
		break;
	case PARG_K_UNSIGNED:
		if (t->size == 8)
			trace_seq_printf(s, "%llu", v);
		else
			trace_seq_printf(s, "%u", (u32)v);
		break;
	case PARG_K_HEX:
		if (t->size == 8)
			trace_seq_printf(s, "0x%llx", v);
		else
			trace_seq_printf(s, "0x%x", (u32)v);
		break;
	case PARG_K_CHAR:
		trace_seq_printf(s, "'%c'", (int)v);
		break;
	case PARG_K_SYMBOL:
		trace_seq_printf(s, "%pS", (void *)(unsigned long)v);
		break;
	case PARG_K_STRING:
		loc = v;
		if (!(loc >> 16))
			trace_seq_puts(s, "(fault)");
		else
			trace_seq_printf(s, "\"%s\"",
					 (const char *)ent + (loc & 0xffff));
		break;
	}
}

static bool parg_faulted(const struct parg_set *set, const struct parg_arg *a,
			 const u8 *blk)
{
	const u8 *fmap = blk + set->fixed;

	return parg_arg_can_fault(a) &&
	       (fmap[a->fault_bit / 8] & BIT(a->fault_bit % 8));
}

void parg_set_print(const struct parg_set *set, struct trace_seq *s,
		    const void *ent, unsigned int args_off)
{
	const u8 *blk = (const u8 *)ent + args_off;
	const struct parg_arg *a;
	int i;

	for (a = set->args; a < set->args + set->nargs; a++) {
		trace_seq_printf(s, " %s=", a->name);
		if (parg_faulted(set, a, blk)) {
			trace_seq_puts(s, "(fault)");
			continue;
		}
		if (!a->fmttype) {
			parg_print_value(s, a->type, blk + a->dst, ent);
			continue;
		}
		if (a->view) {
			parg_btf_view_print(s, a->view, blk + a->dst, a->count);
			continue;
		}
		for (i = 0; i < a->count; i++) {
			trace_seq_putc(s, i ? ',' : '{');
			parg_print_value(s, a->type,
					 blk + a->dst + i * a->size, ent);
		}
		trace_seq_putc(s, '}');
	}
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_print);

/* ------------------------------------------------------------ listing */

void parg_set_show(const struct parg_set *set, struct seq_file *m)
{
	const struct parg_arg *a;

	for (a = set->args; a < set->args + set->nargs; a++)
		seq_printf(m, " %s=%s", a->name, a->text);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_show);

static const char *const parg_src_names[] = {
	[PARG_SRC_REG] = "reg",		[PARG_SRC_STACK] = "stack",
	[PARG_SRC_STACKP] = "stackp",	[PARG_SRC_RETVAL] = "retval",
	[PARG_SRC_ARG] = "arg",		[PARG_SRC_EDATA] = "edata",
	[PARG_SRC_IMM] = "imm",		[PARG_SRC_COMM] = "comm",
	[PARG_SRC_DATA] = "data",	[PARG_SRC_FILE] = "file",
	[PARG_SRC_FIELD] = "field",	[PARG_SRC_CURRENT] = "current",
};

static const char *const parg_store_names[] = {
	[PARG_ST_RAW] = "raw",		[PARG_ST_MEM] = "mem",
	[PARG_ST_UMEM] = "umem",	[PARG_ST_STR] = "string",
	[PARG_ST_USTR] = "ustring",	[PARG_ST_STRV] = "strings",
	[PARG_ST_SYMSTR] = "symstr",	[PARG_ST_COMM] = "comm",
	[PARG_ST_DATA] = "data",
};

/*
 * "#  NAME: SOURCE(param) -> STEP(offset) ... -> STORE(...)": one
 * argument as it runs (probe_arg_impl.h), params and addresses raw.
 */
static void parg_arg_dump(const struct parg_arg *a, struct seq_file *m)
{
	int i;

	seq_printf(m, "#  %s: %s(0x%lx)", a->name, parg_src_names[a->src],
		   a->param);
	for (i = 0; i < a->nderef; i++)
		seq_printf(m, " -> %s(%ld)",
			   a->cpu_derefs & BIT(i) ? "cpu_ptr" :
			   a->user_derefs & BIT(i) ? "uderef" : "deref",
			   a->deref[i]);
	seq_printf(m, " -> %s(offset=%ld,size=%u,count=%u",
		   parg_store_names[a->store], a->off, a->size, a->count);
	if (a->lshift || a->rshift)
		seq_printf(m, ",lshift=%u,rshift=%u", a->lshift, a->rshift);
	seq_puts(m, ")\n");
}

void parg_set_dump(const struct parg_set *set, struct seq_file *m)
{
	const struct parg_arg *a;

	for (a = set->args; a < set->args + set->nargs; a++)
		parg_arg_dump(a, m);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_dump);

/* Two :struct views print alike: the same type of the same BTF, or none. */
static bool parg_view_differs(const struct parg_arg *a, const struct parg_arg *b)
{
	if (!a->view || !b->view)
		return !a->view != !b->view;
	return a->view->btf != b->view->btf || a->view->type != b->view->type;
}

int parg_set_mismatch(const struct parg_set *a, const struct parg_set *b)
{
	int i;

	if (a->nargs != b->nargs)
		return min(a->nargs, b->nargs);
	for (i = 0; i < a->nargs; i++)
		if (a->args[i].type != b->args[i].type ||
		    a->args[i].count != b->args[i].count ||
		    parg_arg_can_fault(&a->args[i]) !=
		    parg_arg_can_fault(&b->args[i]) ||
		    parg_view_differs(&a->args[i], &b->args[i]) ||
		    strcmp(a->args[i].name, b->args[i].name))
			return i;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_mismatch);

static bool parg_str_differs(const char *a, const char *b)
{
	return !a != !b || (a && strcmp(a, b));
}

/* Do two arguments of one layout fetch differently? */
static bool parg_arg_differs(const struct parg_arg *a, const struct parg_arg *b)
{
	return a->op != b->op || a->src != b->src || a->store != b->store ||
	       a->size != b->size || a->nderef != b->nderef ||
	       a->lshift != b->lshift || a->rshift != b->rshift ||
	       a->user_derefs != b->user_derefs || a->cpu_derefs != b->cpu_derefs ||
	       a->ustr_ptrs != b->ustr_ptrs ||
	       a->ustr != b->ustr || a->param != b->param || a->off != b->off ||
	       (a->nderef &&
		memcmp(a->deref, b->deref, a->nderef * sizeof(*a->deref))) ||
	       parg_str_differs(a->symbol, b->symbol) ||
	       parg_str_differs(a->data, b->data) || parg_view_differs(a, b);
}

int parg_set_differs(const struct parg_set *a, const struct parg_set *b)
{
	int i = parg_set_mismatch(a, b);

	if (i >= 0)
		return i;
	for (i = 0; i < a->nargs; i++)
		if (parg_arg_differs(&a->args[i], &b->args[i]))
			return i;
	if (a->nentry != b->nentry || (a->nentry &&
	    memcmp(a->entry, b->entry, a->nentry * sizeof(*a->entry))))
		return 0;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_differs);

bool parg_set_same_text(const struct parg_set *a, const struct parg_set *b)
{
	int i;

	if (a->nargs != b->nargs)
		return false;
	for (i = 0; i < a->nargs; i++)
		if (strcmp(a->args[i].name, b->args[i].name) ||
		    strcmp(a->args[i].text, b->args[i].text))
			return false;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_same_text);

bool parg_set_match_words(const struct parg_set *set, int argc,
			  const char *const *argv)
{
	const struct parg_arg *a;
	size_t len;
	int i;

	if (argc > set->nargs)
		return false;
	for (i = 0; i < argc; i++) {
		a = &set->args[i];
		len = strlen(a->name);
		if (strncmp(argv[i], a->name, len) || argv[i][len] != '=' ||
		    strcmp(argv[i] + len + 1, a->text))
			return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_match_words);
