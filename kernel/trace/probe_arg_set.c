// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: probe arguments: argument sets
 *
 * probe_arg_set.c - argument sets: build one from the words of a definition,
 * seal it for the hit path, resolve its symbols, free it.
 *
 * parg_set_parse() runs the stages of probe_arg_parse.c over every word, after
 * stage 1 here, which rewrites two kinds of word::
 *
 *   $arg*, $argN        into the names of the probed function's
 *                       parameters (through BTF)
 *   types :%pd, :%pD    into the dereference chains to a dentry's or a
 *                       file's name
 *
 * The words made here remember the word the user wrote, so errors point
 * there.
 *
 * Sealing (parg_set_seal()) then fixes what the hit path needs: the fault
 * map, the fused op of each argument (enum parg_op), and sources that are
 * plain pt_regs words on this arch.
 *
 * Process context; a sealed set is read-only but for parg_set_resolve(),
 * which rewrites the addresses of symbol arguments word-wise (WRITE_ONCE).
 */
#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "probe_arg_impl.h"

#define PARG_MAX_BTF_TEXT	128	/* bytes of names $arg* expands to */

/*
 * The words after stage 1, each with the index of the caller's word it
 * came from (errors point there) and the text that was replaced, if any.
 */
struct parg_words {
	int n;
	const char **word;
	int *origin;
	char **owned;		/* texts made here, freed with the array */
};

static void parg_words_free(struct parg_words *w)
{
	int i;

	if (w->owned)
		for (i = 0; i < w->n; i++)
			kfree(w->owned[i]);
	kfree(w->owned);
	kfree(w->word);
	kfree(w->origin);
}

static int parg_words_alloc(struct parg_words *w, int n)
{
	w->n = 0;
	w->word = kcalloc(n, sizeof(*w->word), GFP_KERNEL);
	w->origin = kcalloc(n, sizeof(*w->origin), GFP_KERNEL);
	w->owned = kcalloc(n, sizeof(*w->owned), GFP_KERNEL);
	if (!w->word || !w->origin || !w->owned)
		return -ENOMEM;
	return 0;
}

static int parg_words_add(struct parg_words *w, const char *word,
			  char *owned, int origin)
{
	w->word[w->n] = owned ?: word;
	w->owned[w->n] = owned;
	w->origin[w->n] = origin;
	w->n++;
	return 0;
}

/* The parentheses @word opens and does not close. */
static int parg_paren_depth(const char *word)
{
	int depth = 0;

	for (; *word; word++)
		depth += (*word == '(') - (*word == ')');
	return depth;
}

/*
 * Whether @word ([NAME=]FETCH) may start a cast that goes on in the next
 * words: its fetch opens with '(', or it has "((" (a cast inside a memory
 * read), "(struct" or "(union".
 */
static bool parg_word_casts(const char *word)
{
	const char *eq = strchr(word, '=');

	if (strchr(word, '\\'))	/* an immediate string */
		return false;
	return word[0] == '(' || (eq && eq[1] == '(') || strstr(word, "((") ||
	       strstr(word, "(struct") || strstr(word, "(union");
}

/* A word that starts an argument of its own: NAME=... */
static bool parg_word_named(const char *word)
{
	size_t n = strcspn(word, "=()");

	return n && word[n] == '=';
}

/*
 * Stage 0: the front ends split a definition at blanks, and so a cast,
 * "(struct NAME *)FETCH", into words.  Join them back, one space apart: a
 * word that may start a cast takes the words after it until its
 * parentheses close.  It takes no word that starts an argument of its own
 * (NAME=...), and if they never close it takes none (the parser then says
 * where).  @j->origin says which word each joined one starts at.
 */
static int parg_join_casts(struct parg_words *j, int argc,
			   const char *const *argv)
{
	int i, k, depth, ret;
	size_t len;
	char *text;

	ret = parg_words_alloc(j, argc);
	if (ret)
		return ret;
	for (i = 0; i < argc; i = k) {
		k = i + 1;
		depth = parg_word_casts(argv[i]) ? parg_paren_depth(argv[i]) : 0;
		for (len = strlen(argv[i]); depth > 0 && k < argc &&
		     !parg_word_named(argv[k]); k++) {
			len += 1 + strlen(argv[k]);
			depth += parg_paren_depth(argv[k]);
		}
		/* a cast that does not close stays as written, for the parser */
		if (depth > 0)
			k = i + 1;
		if (k == i + 1) {
			parg_words_add(j, argv[i], NULL, i);
			continue;
		}
		text = kmalloc(len + 1, GFP_KERNEL);
		if (!text)
			return -ENOMEM;
		strscpy(text, argv[i], len + 1);
		for (depth = i + 1; depth < k; depth++) {
			strlcat(text, " ", len + 1);
			strlcat(text, argv[depth], len + 1);
		}
		parg_words_add(j, NULL, text, i);
	}
	return 0;
}

/*
 * An error in a joined word, as a word of the front end's and a byte in
 * it: the words were joined one space apart.  Then keep the caret inside
 * the word the user wrote.
 */
static void parg_err_unjoin(struct parg_err *err, const struct parg_words *j,
			    int argc, const char *const *argv)
{
	int k, end, len;

	if (!err->code || err->word < 0 || err->word >= j->n)
		return;
	k = j->origin[err->word];
	end = err->word + 1 < j->n ? j->origin[err->word + 1] : argc;
	for (len = strlen(argv[k]); k + 1 < end && err->pos > len;
	     len = strlen(argv[k])) {
		err->pos -= len + 1;
		k++;
	}
	err->word = k;
	if (err->pos > len)
		err->pos = len;
}

/*
 * Find the $arg words: returns 1 if there are some (@star gets the index
 * of "$arg*", or -1), 0 if none, or a negative errno.
 */
static int parg_scan_vararg(struct parg_ctx *ctx, int argc,
			    const char *const *argv, int *star)
{
	int i, found = 0;

	*star = -1;
	/* no $arg expansion: the words say what is wrong */
	if (ctx->caps->user || ctx->caps->event)
		return 0;
	for (i = 0; i < argc; i++) {
		if (!str_has_prefix(argv[i], "$arg"))
			continue;
		ctx->word = i;
		if (!parg_at_kernel_func(ctx))
			return parg_fail(ctx, 0, PARG_ERR_NOFENTRY_ARGS);
		found = 1;
		if (isdigit(argv[i][4]))
			continue;
		if (argv[i][4] != '*')
			return parg_fail(ctx, 0, PARG_ERR_BAD_VAR);
		if (*star >= 0)
			return parg_fail(ctx, 0, PARG_ERR_DOUBLE_ARGS);
		*star = i;
	}
	return found;
}

/* "$argN[:TYPE]" -> "NAME[:TYPE]" of the N-th BTF parameter */
static int parg_expand_argn(struct parg_ctx *ctx, struct parg_words *w,
			    const char *word, int *used)
{
	const char *name, *type;
	unsigned long n;
	char *text;

	n = simple_strtoul(word + 4, (char **)&type, 10);
	if (*type != ':' && *type != '\0')
		return parg_fail(ctx, 0, PARG_ERR_BAD_VAR);
	if (!n)
		return parg_fail(ctx, 0, PARG_ERR_BAD_ARG_NUM);
	if (n > ctx->nr_params)
		return parg_fail(ctx, 0, PARG_ERR_NO_BTFARG);
	name = parg_btf_param_name(ctx, n - 1);
	if (!name)
		return parg_fail(ctx, 0, PARG_ERR_NO_BTF_ENTRY);
	text = kasprintf(GFP_KERNEL, "%s%s", name, type);
	if (!text)
		return -ENOMEM;
	*used += strlen(text) + 1;
	if (*used > PARG_MAX_BTF_TEXT) {
		kfree(text);
		return parg_fail(ctx, 0, PARG_ERR_ARGS_2LONG);
	}
	return parg_words_add(w, NULL, text, ctx->word);
}

static int parg_expand_star(struct parg_ctx *ctx, struct parg_words *w,
			    int *used)
{
	char num[16];
	int n, ret;

	for (n = 1; n <= ctx->nr_params; n++) {
		snprintf(num, sizeof(num), "$arg%d", n);
		ret = parg_expand_argn(ctx, w, num, used);
		if (ret)
			return ret;
	}
	return 0;
}

/* Stage 1a: $arg* and $argN through the BTF of the probed function. */
static int parg_expand_btf(struct parg_ctx *ctx, int argc,
			   const char *const *argv, struct parg_words *w)
{
	int i, star, used = 0, ret;

	ret = parg_scan_vararg(ctx, argc, argv, &star);
	if (ret <= 0 || parg_btf_query(ctx) < 0 || !ctx->nr_params) {
		if (ret > 0 && star >= 0) {
			ctx->word = star;
			return parg_fail(ctx, 0, PARG_ERR_NOSUP_BTFARG);
		}
		ret = min(ret, 0);
		for (i = 0; !ret && i < argc; i++)
			ret = parg_words_add(w, argv[i], NULL, i);
		return ret;
	}
	/* Only $arg* stands for every parameter; $argN is one argument. */
	if (star >= 0 && argc + ctx->nr_params - 1 > PARG_MAX_ARGS) {
		ctx->word = star;
		return parg_fail(ctx, 0, PARG_ERR_TOO_MANY_ARGS);
	}
	for (i = 0; i < argc; i++) {
		ctx->word = i;
		if (i == star)
			ret = parg_expand_star(ctx, w, &used);
		else if (str_has_prefix(argv[i], "$arg"))
			ret = parg_expand_argn(ctx, w, argv[i], &used);
		else
			ret = parg_words_add(w, argv[i], NULL, i);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Stage 1b: "[NAME=]FETCH:%pd" and ":%pD" are dentry and file names, of
 * the kernel; a user probe has none, and finds the type unknown.
 */
static int parg_expand_dentry(struct parg_ctx *ctx, struct parg_words *w)
{
	const size_t name = offsetof(struct dentry, d_name.name);
	const size_t dentry = offsetof(struct file, f_path.dentry);
	const char *word, *eq, *fetch;
	int i, nlen, flen;
	char *text;

	for (i = 0; i < w->n; i++) {
		word = w->word[i];
		if (!glob_match("*:%p[dD]", word))
			continue;
		if (ctx->caps->user)	/* no kernel names: an unknown type */
			continue;
		eq = strchr(word, '=');
		nlen = eq ? eq + 1 - word : 0;
		fetch = word + nlen;
		flen = strlen(fetch) - 4;
		if (word[strlen(word) - 1] == 'd')
			text = kasprintf(GFP_KERNEL, "%.*s+0x0(+0x%zx(%.*s)):string",
					 nlen, word, name, flen, fetch);
		else
			text = kasprintf(GFP_KERNEL,
					 "%.*s+0x0(+0x%zx(+0x%zx(%.*s))):string",
					 nlen, word, name, dentry, flen, fetch);
		if (!text)
			return -ENOMEM;
		kfree(w->owned[i]);
		w->owned[i] = text;
		w->word[i] = text;
	}
	return 0;
}

/* ---------------------------------------------------------------- set */

/*
 * Every definition with no argument shares this set, sealed as
 * parg_set_seal() would seal it: such an event allocates no set.  Nothing
 * writes to a sealed set (a stray write faults: the set is read-only once
 * the kernel is up), and parg_set_free() leaves this one alone.
 */
static struct parg_set parg_set_empty __ro_after_init = { .words_only = true };

void parg_set_free(struct parg_set *set)
{
	struct parg_arg *a;

	if (!set || set == &parg_set_empty)
		return;
	for (a = set->args; a < set->args + set->nargs; a++) {
		kfree(a->deref);
		kfree(a->name);
		kfree(a->text);
		kfree(a->fmttype);
		kfree(a->data);
		kfree(a->symbol);
		parg_btf_view_free(a->view);
	}
	kfree(set->entry);
	free_percpu(set->faults);
	kfree(set);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_free);

/* A set whose fetches may fault counts the records that faulted. */
static int parg_set_count_faults(struct parg_set *set)
{
	if (!set->reads_mem && !set->dynamic)
		return 0;
	set->faults = alloc_percpu(unsigned long);
	return set->faults ? 0 : -ENOMEM;
}

static struct parg_set *parg_set_alloc(int nargs)
{
	struct parg_set *set;

	set = kzalloc(struct_size(set, args, nargs), GFP_KERNEL);
	if (!set)
		return NULL;
	set->nargs = nargs;
	if (nargs) {
		set->entry = kcalloc(nargs, sizeof(*set->entry), GFP_KERNEL);
		if (!set->entry) {
			kfree(set);
			return NULL;
		}
	}
	return set;
}

/*
 * $argN at entry, $retval and $stack are a fixed pt_regs word on most
 * arches.  Find which by running the accessor on a pt_regs whose words
 * hold their own index (tagged with a non-canonical pattern no real
 * address has), and make the source a plain register.
 */
static void parg_fold_src(struct parg_arg *a)
{
	const unsigned long tag = 0x0f0f0f0f00000000UL;
	union {
		struct pt_regs regs;
		unsigned long word[sizeof(struct pt_regs) / sizeof(long)];
	} probe;
	const unsigned long n = ARRAY_SIZE(probe.word);
	unsigned long i, v;

	for (i = 0; i < n; i++)
		probe.word[i] = tag + i;
	switch (a->src) {
	case PARG_SRC_ARG:
		v = parg_kernel_arg(&probe.regs, a->param);
		break;
	case PARG_SRC_RETVAL:
		v = regs_return_value(&probe.regs);
		break;
	case PARG_SRC_STACKP:
		v = kernel_stack_pointer(&probe.regs);
		break;
	default:
		return;
	}
	if (v - tag < n) {
		a->src = PARG_SRC_REG;
		a->param = (v - tag) * sizeof(long);
	}
}

/* The hit path's dispatch: the common shapes have their own. */
static enum parg_op parg_choose_op(const struct parg_arg *a)
{
	if (a->nderef || a->lshift || a->rshift || a->count != 1)
		return PARG_OP_ANY;
	if (a->src == PARG_SRC_RETVAL)
		return a->store == PARG_ST_RAW && a->size == sizeof(long) ?
		       PARG_OP_RETVAL : PARG_OP_ANY;
	if (a->src == PARG_SRC_FIELD)
		return a->store == PARG_ST_MEM &&
		       (a->param & (BIT(PARG_FIELD_KIND_BITS) - 1)) ==
		       PARG_FIELD_LONG ? PARG_OP_FIELD_MEM : PARG_OP_ANY;
	if (a->src != PARG_SRC_REG)
		return PARG_OP_ANY;
	if (a->store == PARG_ST_RAW && a->size == sizeof(long))
		return PARG_OP_REG;
	if (a->store == PARG_ST_MEM)
		return PARG_OP_REG_MEM;
	if (a->store == PARG_ST_USTR)
		return PARG_OP_REG_USTR;
	if (a->store == PARG_ST_STR)
		return PARG_OP_REG_STR;
	return PARG_OP_ANY;
}

/* Whether running @a reads memory (then page faults must be off). */
static bool parg_reads_mem(const struct parg_arg *a)
{
	return a->nderef || a->src == PARG_SRC_STACK || a->src == PARG_SRC_ARG ||
	       (a->store != PARG_ST_RAW && a->store != PARG_ST_COMM &&
		a->store != PARG_ST_DATA && a->store != PARG_ST_SYMSTR);
}

/* After the last word: the fault map, and what the record holds. */
static void parg_set_seal(struct parg_set *set)
{
	struct parg_arg *a;
	int faults = 0;

	set->words_only = true;
	for (a = set->args; a < set->args + set->nargs; a++) {
		parg_fold_src(a);
		a->op = parg_choose_op(a);
		if (a->op != PARG_OP_REG && a->op != PARG_OP_RETVAL)
			set->words_only = false;
		if (parg_reads_mem(a))
			set->reads_mem = true;
		if (parg_arg_is_string(a))
			set->dynamic = true;
		if (parg_arg_can_fault(a))
			a->fault_bit = faults++;
	}
	set->fault_bytes = DIV_ROUND_UP(faults, BITS_PER_BYTE);
	set->size = set->fixed + set->fault_bytes;
}

static int parg_parse_words(struct parg_ctx *ctx, struct parg_words *w)
{
	int i, ret;

	for (i = 0; i < w->n; i++) {
		ctx->word = w->origin[i];
		ret = parg_parse_word(ctx, i, w->word[i]);
		if (ret)
			return ret;
	}
	parg_set_seal(ctx->set);
	return 0;
}

struct parg_set *parg_set_parse(const struct parg_caps *caps, int argc,
				const char *const *argv, struct parg_err *err)
{
	struct parg_ctx ctx = { .caps = caps, .err = err };
	struct parg_words j = {}, w = {};
	int ret;

	memset(err, 0, sizeof(*err));
	ret = parg_join_casts(&j, argc, argv);
	if (ret)
		goto out_free_words;
	if (j.n > PARG_MAX_ARGS) {
		ctx.word = PARG_MAX_ARGS;
		ret = parg_fail(&ctx, 0, PARG_ERR_TOO_MANY_ARGS);
		goto out_free_words;
	}
	ret = parg_words_alloc(&w, PARG_MAX_ARGS);
	if (ret)
		goto out_free_words;
	ret = parg_expand_btf(&ctx, j.n, j.word, &w);
	if (ret)
		goto out_free_words;
	ret = parg_expand_dentry(&ctx, &w);
	if (ret)
		goto out_free_words;
	if (!w.n) {
		ctx.set = &parg_set_empty;
		goto out_free_words;
	}
	ctx.set = parg_set_alloc(w.n);
	if (!ctx.set) {
		ret = -ENOMEM;
		goto out_free_words;
	}
	ret = parg_parse_words(&ctx, &w);
	if (!ret)
		ret = parg_set_count_faults(ctx.set);
	if (ret) {
		parg_set_free(ctx.set);
		ctx.set = NULL;
	}
out_free_words:
	parg_err_unjoin(err, &j, argc, argv);
	parg_words_free(&w);
	parg_words_free(&j);
	parg_btf_release(&ctx);
	return ret ? ERR_PTR(ret) : ctx.set;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_parse);

/* @SYM[+|-offs]: look the address up again (modules come and go). */
static int parg_resolve_one(struct parg_arg *a)
{
	char name[KSYM_NAME_LEN];
	unsigned long addr;
	long off = 0;
	size_t len;

	len = strcspn(a->symbol, "+-");
	if (len >= sizeof(name))
		return -ENOENT;
	if (a->symbol[len] && kstrtol(a->symbol + len, 0, &off))
		return -EINVAL;
	memcpy(name, a->symbol, len);
	name[len] = '\0';
	addr = kallsyms_lookup_name(name);
	if (!addr)
		return -ENOENT;
	WRITE_ONCE(a->param, addr + off);
	return 0;
}

int parg_set_resolve(struct parg_set *set)
{
	struct parg_arg *a;
	int ret;

	for (a = set->args; a < set->args + set->nargs; a++) {
		if (!a->symbol)
			continue;
		ret = parg_resolve_one(a);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_resolve);

unsigned int parg_set_size(const struct parg_set *set)
{
	return set->size;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_size);

bool parg_set_is_dynamic(const struct parg_set *set)
{
	return set->dynamic;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_is_dynamic);

int parg_set_count(const struct parg_set *set)
{
	return set->nargs;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_count);

u64 parg_set_regs(const struct parg_set *set)
{
	unsigned int word;
	u64 mask = 0;
	int i;

	for (i = 0; i < set->nargs; i++) {
		switch (set->args[i].src) {
		case PARG_SRC_REG:
			word = set->args[i].param / sizeof(long);
			break;
		case PARG_SRC_STACK:	/* a slot of the stack, or an argument */
		case PARG_SRC_ARG:	/* that lives there: through sp */
			word = offsetof(struct pt_regs, sp) / sizeof(long);
			break;
		default:
			continue;
		}
		mask |= word < 64 ? BIT_ULL(word) : ~0ULL;
	}
	return mask;
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_regs);

unsigned int parg_set_entry_size(const struct parg_set *set)
{
	return set->nentry * sizeof(unsigned long);
}
EXPORT_SYMBOL_IF_KUNIT(parg_set_entry_size);
