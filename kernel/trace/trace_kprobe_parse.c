// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events: parsing a definition
 *
 * trace_kprobe_parse.c - the grammar of a kprobe event definition, up to
 * its argument words (the argument library parses those), and error_log.
 *
 * A definition is a line cut into words at blanks::
 *
 *   word 0  head   p[:NAME]            entry probe
 *                  r[MAXACTIVE][:NAME] return probe, MAXACTIVE in 1..4096
 *           NAME   [GROUP/|GROUP.][EVENT]
 *                  GROUP and EVENT are C identifiers shorter than 64
 *                  bytes (GROUP may contain '-'); an empty EVENT after a
 *                  GROUP separator, or no NAME at all, asks for a made-up
 *                  name "p_SYM_OFFS" / "r_SYM_OFFS" / "p_0xADDR"
 *   word 1  place  [MOD:]SYM[+OFFS][%return]   or   ADDRESS
 *                  or [MOD:]ITEM[,ITEM...][%return], many functions
 *                  (trace_kprobe_places.c has that grammar)
 *                  %return turns a 'p' into a return probe; a return
 *                  probe must sit on a function entry; SYM must be unique
 *                  (in MOD when given) unless MOD is not loaded yet; a SYM
 *                  that does not exist stands for its compiler clones
 *   word 2+ args   handed to parg_set_parse() as they are
 *
 * A line whose place looks like a uprobe's ("PATH:OFFS", with a '/') is
 * not ours: -ECANCELED lets dynamic_events offer it to the next parser.
 *
 * Every refusal writes one error_log entry under "trace_kprobe", with
 * the words joined by single spaces and the caret under the bad byte,
 * so the positions are those the ftrace selftests expect.  The parse
 * context carries the words; there is no global parse state.
 *
 * Context: process, under dyn_event_ops_mutex.  May sleep.
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_kprobe_internal.h"

/* error_log's messages, by code; tracing_log_err() takes them non-const */
#define KPEV_ERROR(code, msg)	msg,
#define PARG_ERROR(code, msg)	msg,
static const char *kpev_err_text[] = {
#include "trace_kprobe_errors.h"
#include "probe_arg_errors.h"
};

#undef PARG_ERROR
#undef KPEV_ERROR

PROBE_EV_NAME_CODES(KPEV_ERR_NO_GROUP_NAME, KPEV_ERR_BAD_EVENT_NAME);
static_assert(KPEV_ERR_MAXACT_TOO_BIG == KPEV_ERR_BAD_MAXACT + 1);

const struct probe_ev_errors kpev_errors = {
	.subsys = "trace_kprobe",
	.texts = kpev_err_text,	.n = ARRAY_SIZE(kpev_err_text),
	.exist = KPEV_ERR_EVENT_EXIST,	.join = KPEV_ERR_DIFF_PROBE_TYPE,
	.parg = KPEV_ERR_PARG_FIRST,	.maxact = KPEV_ERR_BAD_MAXACT,
	.no_addr = KPEV_ERR_BAD_PROBE_ADDR,	.insn = KPEV_ERR_BAD_INSN_BNDRY,
	.refused = KPEV_ERR_FAIL_REG_PROBE,
};

void kpev_parse_error(const struct kpev_parse *p, int word, int pos,
		    enum kpev_err_code code)
{
	probe_ev_words_error(&p->w, word, pos, code);
}

/*
 * Messages made for one entry.  error_log keeps a pointer to an entry's
 * message, not a copy, and at most 8 entries (TRACING_LOG_ERRS_MAX): a
 * ring of twice as many slots writes a slot again only once the entry
 * that pointed at it has left the log.
 */
#define KPEV_NOTES	16
#define KPEV_NOTE_LEN	128
static char kpev_notes[KPEV_NOTES][KPEV_NOTE_LEN];
static const char *kpev_note_msgs[KPEV_NOTES];
static unsigned int kpev_note_next;
static DEFINE_MUTEX(kpev_note_lock);

void kpev_parse_note(const struct kpev_parse *p, int word, int pos,
		   const char *fmt, ...)
{
	unsigned int slot;
	va_list ap;

	guard(mutex)(&kpev_note_lock);
	slot = kpev_note_next++ % KPEV_NOTES;
	va_start(ap, fmt);
	vsnprintf(kpev_notes[slot], KPEV_NOTE_LEN, fmt, ap);
	va_end(ap);
	kpev_note_msgs[slot] = kpev_notes[slot];
	probe_ev_log_error(kpev_errors.subsys, p->w.argc, p->w.argv, word, pos,
			   &kpev_note_msgs[slot], 0);
}

/* ---------------------------------------------------------------- head */

/* "r[MAXACTIVE]": the digits run from byte 1 up to ':' or the end. */
static int kpev_parse_maxactive(const struct kpev_parse *p, struct kpev_def *def,
			      const char *digits, size_t len)
{
	if (!def->is_return) {
		kpev_parse_error(p, 0, 1, KPEV_ERR_BAD_MAXACT_TYPE);
		return -EINVAL;
	}
	return probe_ev_parse_maxactive(&p->w, digits, len, KPEV_MAXACT_TEXT,
				       KPEV_MAXACTIVE_MAX, &def->maxactive);
}

/* Word 0: the kind, an optional maxactive count, an optional name. */
static int kpev_parse_head(const struct kpev_parse *p, struct kpev_def *def)
{
	const char *head = p->w.argv[0];
	const char *colon = strchr(head, ':');
	size_t len = colon ? colon - head : strlen(head);
	int ret;

	def->is_return = head[0] == 'r';
	def->group = KPEV_DEFAULT_GROUP;
	if (len > 1) {
		if (!isdigit(head[1])) {
			kpev_parse_error(p, 0, 1, KPEV_ERR_BAD_HEAD);
			return -EINVAL;
		}
		ret = kpev_parse_maxactive(p, def, head + 1, len - 1);
		if (ret)
			return ret;
	}
	if (!colon)
		return 0;
	return probe_ev_words_name(&p->w, 0, len + 1, KPEV_ERR_NO_GROUP_NAME,
				   def->group_buf, def->event_buf, &def->group,
				   &def->event);
}

/* --------------------------------------------------------------- place */

struct kpev_symcount {
	const char *name;
	unsigned int count;
};

static int kpev_count_vmlinux(void *data, unsigned long addr)
{
	((struct kpev_symcount *)data)->count++;
	return 0;
}

static int kpev_count_module(void *data, const char *name, unsigned long addr)
{
	struct kpev_symcount *c = data;

	if (!strcmp(name, c->name))
		c->count++;
	return 0;
}

unsigned int kpev_count_symbols(const char *module, const char *name)
{
	struct kpev_symcount c = { .name = name };

	if (!module)
		kallsyms_on_each_match_symbol(kpev_count_vmlinux, name, &c);
	module_kallsyms_on_each_symbol(module, kpev_count_module, &c);
	return c.count;
}

#ifdef CONFIG_MODULES
bool kpev_module_loaded(const char *name)
{
	bool found;

	rcu_read_lock_sched();
	found = find_module(name) != NULL;
	rcu_read_unlock_sched();
	return found;
}
#else
bool kpev_module_loaded(const char *name)
{
	return false;
}
#endif

/*
 * "[MOD:]SYM" must name one function: in MOD if given (when MOD is not
 * loaded yet, the check waits for it to load), else anywhere.  Returns 0,
 * -ENOENT, or -EADDRNOTAVAIL when the name is ambiguous.  Counting in a
 * module that is going away finds nothing, like one not loaded yet.
 */
int kpev_check_symbol(const char *symbol)
{
	const char *colon = strchr(symbol, ':');
	char modname[MODULE_NAME_LEN];
	unsigned int n;

	if (!colon) {
		n = kpev_count_symbols(NULL, symbol);
	} else {
		if (colon == symbol || colon - symbol >= MODULE_NAME_LEN)
			return -ENOENT;
		strscpy(modname, symbol, colon - symbol + 1);
		n = kpev_count_symbols(modname, colon + 1);
		if (!n && !kpev_module_loaded(modname))
			return 0;
	}
	switch (n) {
	case 0:
		return -ENOENT;
	case 1:
		return 0;
	default:
		return -EADDRNOTAVAIL;
	}
}

/* Cut "SYM[+|-OFFS]" at the sign; a negative or huge offset is bad. */
static int kpev_split_offset(char *symbol, unsigned long *offset)
{
	char *sign = strpbrk(symbol, "+-");
	long offs;

	*offset = 0;
	if (!sign)
		return 0;
	if (kstrtol(sign, 0, &offs) || offs < 0 || offs > UINT_MAX)
		return -EINVAL;
	*sign = '\0';
	*offset = offs;
	return 0;
}

/*
 * MOD of "MOD:SYM" must be a name some module could have: kbuild makes
 * module names of letters, digits and '_' only ('-' in a file name
 * becomes '_').  Any other text would leave the probe waiting for a
 * module that can never load: refuse it.
 * Returns the position of the first bad byte, or -1 if the name is good.
 */
static int kpev_bad_module_name(const char *name, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len && i < MODULE_NAME_LEN - 1; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return i;
	return len < MODULE_NAME_LEN ? -1 : MODULE_NAME_LEN - 1;
}

/* "MOD:" in front of @def->symbol: check it and copy it to @def->module. */
static int kpev_parse_module(const struct kpev_parse *p, struct kpev_def *def)
{
	char *colon = strchr(def->symbol, ':');
	int bad;

	if (!colon)
		return 0;
	bad = kpev_bad_module_name(def->symbol, colon - def->symbol);
	if (bad >= 0) {
		kpev_parse_error(p, 1, bad, KPEV_ERR_BAD_MODULE_NAME);
		return -EINVAL;
	}
	strscpy(def->module, def->symbol, colon - def->symbol + 1);
	return 0;
}

/*
 * The functions of a pattern, or the clones of a SYM that does not exist
 * (@clones): @def->pattern keeps the place word without "%return", and
 * @def->symbol becomes the first place.  One clone is just a new SYM.
 */
static int kpev_parse_places(const struct kpev_parse *p, struct kpev_def *def,
			   bool clones)
{
	unsigned int at = def->module[0] ? strlen(def->module) + 1 : 0;
	char *first;
	int ret, bad;

	ret = kpev_find_places(def->module[0] ? def->module : NULL,
			     def->symbol + at, &def->found, &bad);
	if (ret == -EINVAL)
		kpev_parse_error(p, 1, at + bad, KPEV_ERR_BAD_PATTERN);
	else if (ret == -E2BIG && bad)
		kpev_parse_error(p, 1, at + bad, KPEV_ERR_TOO_MANY_ITEMS);
	else if (ret == -ENOENT && clones)	/* as for any unknown SYM */
		kpev_parse_error(p, 1, 0, KPEV_ERR_BAD_PROBE_ADDR);
	else if (ret == -ENOENT)
		kpev_parse_error(p, 1, at, KPEV_ERR_NO_MATCH);
	else if (ret == -E2BIG)
		kpev_parse_error(p, 1, at, KPEV_ERR_TOO_MANY_PLACES);
	if (ret)
		return ret == -ENOENT && clones ? -EINVAL : ret;
	if (clones && def->found.n > 1 && def->offset) {
		kpev_parse_error(p, 1, at, KPEV_ERR_NON_UNIQ_SYMBOL);
		return -EINVAL;
	}

	first = kstrdup(def->found.names, GFP_KERNEL);
	if (!first)
		return -ENOMEM;
	if (clones && def->found.n == 1) {
		kfree(def->symbol);
		kpev_found_release(&def->found);
	} else {
		def->pattern = def->symbol;
	}
	def->symbol = first;
	def->on_func_entry = !def->offset;
	return 0;
}

/* "[MOD:]SYM[+OFFS][%return]" or a pattern, in word 1. */
static int kpev_parse_symbol(const struct kpev_parse *p, struct kpev_def *def)
{
	char *suffix, *plus;
	int ret;

	def->symbol = kstrdup(p->w.argv[1], GFP_KERNEL);
	if (!def->symbol)
		return -ENOMEM;
	suffix = strchr(def->symbol, '%');
	if (suffix) {
		if (strcmp(suffix, "%return")) {
			kpev_parse_error(p, 1, suffix - def->symbol,
				       KPEV_ERR_BAD_ADDR_SUFFIX);
			return -EINVAL;
		}
		*suffix = '\0';
		def->is_return = true;
	}
	if (kpev_place_is_pattern(def->symbol)) {
		plus = strchr(def->symbol, '+');
		if (plus) {
			kpev_parse_error(p, 1, plus - def->symbol,
				       KPEV_ERR_PATTERN_OFFSET);
			return -EINVAL;
		}
		ret = kpev_parse_module(p, def);
		return ret ?: kpev_parse_places(p, def, false);
	}
	if (kpev_split_offset(def->symbol, &def->offset))
		goto bad_addr;

	ret = kpev_parse_module(p, def);
	if (ret)
		return ret;
	ret = kpev_check_symbol(def->symbol);
	if (ret == -ENOENT) {
		ret = kpev_parse_places(p, def, true);
		if (ret || def->pattern)
			return ret;
		ret = kpev_check_symbol(def->symbol);
	}
	if (ret) {
		kpev_parse_error(p, 1, 0, ret == -EADDRNOTAVAIL ?
			       KPEV_ERR_NON_UNIQ_SYMBOL : KPEV_ERR_BAD_PROBE_ADDR);
		return -EINVAL;
	}

	/* -ENOENT: a module that is not loaded; the core checks it later. */
	ret = kprobe_on_func_entry(NULL, def->symbol, def->offset);
	def->on_func_entry = !ret;
	if (ret == -EINVAL && def->is_return) {
		kpev_parse_error(p, 1, 0, KPEV_ERR_BAD_RETPROBE);
		return -EINVAL;
	}
	return 0;

bad_addr:
	kpev_parse_error(p, 1, 0, KPEV_ERR_BAD_PROBE_ADDR);
	return -EINVAL;
}

/* ---------------------------------------------------------------- name */

/* "p_SYM_OFFS", "r_SYM_OFFS" or "p_0xADDR", cut to fit and sanitized. */
static void kpev_make_name(struct kpev_def *def)
{
	char kind = def->is_return ? 'r' : 'p';

	if (def->symbol)
		snprintf(def->event_buf, KPEV_NAME_LEN, "%c_%s_%lu", kind,
			 def->pattern ?: def->symbol, def->offset);
	else
		snprintf(def->event_buf, KPEV_NAME_LEN, "%c_0x%p", kind,
			 def->addr);
	sanitize_event_name(def->event_buf);
	def->event = def->event_buf;
}

/*
 * A uprobe place: "PATH:OFFS...", a path being anything with a '/' and
 * OFFS starting with a digit after the last ':'.  The same test as the
 * uprobe parser's, so that a line it would decline too stays ours and
 * gets its error_log entry.
 */
static bool kpev_is_uprobe_place(const char *place)
{
	const char *colon = strrchr(place, ':');

	return strchr(place, '/') && colon && isdigit(colon[1]);
}

/*
 * Is this line for another parser?  Not in strict mode: there a line that
 * is not a kprobe definition gets its error_log entry here.
 */
static int kpev_check_kind(const struct kpev_parse *p)
{
	const char *head = p->w.argv[0];
	unsigned long addr;

	if (head[0] != 'p' && head[0] != 'r') {
		if (!p->strict)
			return -ECANCELED;
		kpev_parse_error(p, 0, 0, KPEV_ERR_BAD_CMD);
		return -EINVAL;
	}
	if (p->w.argc < 2) {
		/* Nobody else takes a 'p' or 'r' line without a place. */
		kpev_parse_error(p, 1, 0, KPEV_ERR_NO_PLACE);
		return -EINVAL;
	}
	if (!kstrtoul(p->w.argv[1], 0, &addr) || !kpev_is_uprobe_place(p->w.argv[1]))
		return 0;
	if (!p->strict)
		return -ECANCELED;
	kpev_parse_error(p, 1, 0, KPEV_ERR_BAD_PROBE_ADDR);
	return -EINVAL;
}

int kpev_parse_def(const struct kpev_parse *p, struct kpev_def *def)
{
	unsigned long addr;
	int ret;

	ret = kpev_check_kind(p);
	if (ret)
		return ret;

	ret = kpev_parse_head(p, def);
	if (ret)
		return ret;
	if (!kstrtoul(p->w.argv[1], 0, &addr))
		def->addr = (void *)addr;
	else
		ret = kpev_parse_symbol(p, def);
	if (ret)
		return ret;
	if (!def->event)
		kpev_make_name(def);

	def->nargs = p->w.argc - 2;
	def->args = p->w.argv + 2;
	return 0;
}

void kpev_def_release(struct kpev_def *def)
{
	kfree(def->symbol);
	def->symbol = NULL;
	kfree(def->pattern);
	def->pattern = NULL;
	kpev_found_release(&def->found);
}
