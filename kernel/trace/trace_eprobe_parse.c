// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: eprobe events: parsing a definition
 *
 * trace_eprobe_parse.c - a line of dynamic_events to a published eprobe::
 *
 *   e[:[GROUP/][EVENT]] SYS.EVENT|SYS/EVENT [ARGS] [if FILTER]
 *   word 0              word 1             2...   the rest, joined
 *
 * The stages, each of which logs its error at the word and byte at
 * fault (error_log, "event_probe"; trace_eprobe_errors.h)::
 *
 *   names      word 0's GROUP/EVENT (probe_ev_split_name()), word 1's
 *              attached event
 *   filter     the words after "if", joined by single spaces
 *   target     the attached event, referenced (epev_get_target())
 *   check      the filter compiles against the attached event
 *   arguments  compiled by probe_arg with caps.event; @SYM resolved
 *   publish    events/GROUP/EVENT and the dynamic_events line
 *
 * Runs under dyn_event_ops_mutex; target to publish under event_mutex.
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_eprobe_internal.h"

#define EPEV_ERROR(code, msg)	msg,
#define PARG_ERROR(code, msg)	msg,
static const char *epev_err_text[] = {
#include "trace_eprobe_errors.h"
#include "probe_arg_errors.h"
};
#undef PARG_ERROR
#undef EPEV_ERROR

PROBE_EV_NAME_CODES(EPEV_ERR_NO_GROUP_NAME, EPEV_ERR_BAD_EVENT_NAME);

static const struct probe_ev_errors epev_errors = {
	.subsys = "event_probe",
	.texts = epev_err_text,	.n = ARRAY_SIZE(epev_err_text),
	.exist = EPEV_ERR_EVENT_EXIST,
	.parg = EPEV_ERR_PARG_FIRST,
};

/* One entry: the words joined by spaces, the caret at @pos of @word. */
static void epev_error(const struct probe_ev_words *p, int word, int pos,
		      unsigned int code)
{
	probe_ev_words_error(p, word, pos, code);
}

/* A definition up to its arguments; the strings point into the buffers. */
struct epev_def {
	const char *group;
	const char *event;		/* NULL: the attached event's name */
	char group_buf[EPEV_NAME_LEN];
	char event_buf[EPEV_NAME_LEN];
	char sys[EPEV_NAME_LEN];		/* the attached event */
	char name[EPEV_NAME_LEN];
	int nargs;			/* argument words, from word 2 */
	char *filter;			/* joined words after "if", or NULL */
};

/* Word 0, "e[...][:NAME]", and word 1, "SYS.EVENT" or "SYS/EVENT". */
static int epev_parse_names(const struct probe_ev_words *p, struct epev_def *def)
{
	const char *colon = strchr(p->argv[0], ':');
	enum probe_ev_name_err err;
	int bad;

	def->group = EPEV_DEFAULT_GROUP;
	if (colon && probe_ev_words_name(p, 0, colon + 1 - p->argv[0],
					 EPEV_ERR_NO_GROUP_NAME, def->group_buf,
					 def->event_buf, &def->group, &def->event))
		return -EINVAL;
	err = probe_ev_split_name(p->argv[1], def->sys, def->name, &bad);
	if (err || !def->sys[0] || !def->name[0]) {
		epev_error(p, 1, 0, EPEV_ERR_NO_EVENT_INFO);
		return -EINVAL;
	}
	return 0;
}

/* "ARGS... if FILTER...": count the arguments, join the filter. */
static int epev_parse_filter(const struct probe_ev_words *p, struct epev_def *def)
{
	size_t len = 0;
	char *s;
	int i;

	for (i = 2; i < p->argc && strcmp(p->argv[i], "if"); i++)
		;
	def->nargs = i - 2;
	if (i == p->argc)
		return 0;
	if (i + 1 == p->argc) {
		epev_error(p, p->argc, 0, EPEV_ERR_NO_EP_FILTER);
		return -EINVAL;
	}
	for (i++; i < p->argc; i++)
		len += strlen(p->argv[i]) + 1;
	def->filter = s = kmalloc(len, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	for (i = def->nargs + 3; i < p->argc; i++)
		s += sprintf(s, "%s%s", s == def->filter ? "" : " ", p->argv[i]);
	return 0;
}

#ifdef CONFIG_MODULES
static bool epev_module_live(struct module *mod)
{
	return module_is_live(mod);
}
#else
static bool epev_module_live(struct module *mod)
{
	return true;	/* no module events without modules */
}
#endif

/*
 * The event SYS/NAME an eprobe may attach to, with a reference taken, or
 * NULL.  Not kprobe, uprobe or event probe events, nor events users
 * cannot enable; not user events either, which their process may delete
 * whatever holds them, nor the events of a module that is not live (its
 * init may still fail, and free them).  Under event_mutex.
 */
static struct trace_event_call *epev_get_target(const char *sys,
					       const char *name)
{
	const unsigned int refused = TRACE_EVENT_FL_IGNORE_ENABLE |
		TRACE_EVENT_FL_KPROBE | TRACE_EVENT_FL_UPROBE |
		TRACE_EVENT_FL_EPROBE;
	struct trace_event_call *call;
	const char *n;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list) {
		if (call->flags & refused)
			continue;
		n = trace_event_name(call);
		if (!n || !call->class->system || strcmp(n, name) ||
		    strcmp(call->class->system, sys))
			continue;
		/* user events have no flag: their groups are user_events* */
		if (str_has_prefix(sys, "user_events") ||
		    (call->module && !epev_module_live(call->module)))
			return NULL;
		return trace_event_try_get_ref(call) ? call : NULL;
	}
	return NULL;
}

/* The filter must compile against the attached event (error_log says why). */
static int epev_check_filter(struct epev_event *ev)
{
	struct event_filter *filter = NULL;
	int ret;

	if (!ev->filter)
		return 0;
	ret = create_event_filter(top_trace_array(), ev->target, ev->filter,
				  true, &filter);
	free_event_filter(filter);
	return ret ? -EINVAL : 0;
}

/*
 * The word of the first @SYM among the @nargs arguments that names no
 * kernel symbol, and in *@pos the byte where its name starts; the first
 * argument, at its start, when none is found.
 */
static int epev_bad_symbol(const struct probe_ev_words *p, int nargs, int *pos)
{
	char name[KSYM_NAME_LEN];
	const char *at;
	size_t len;
	int i;

	for (i = 2; i < 2 + nargs; i++) {
		for (at = strchr(p->argv[i], '@'); at; at = strchr(at + 1, '@')) {
			/* @ADDR and a bitfield's b4@3/32 are no symbols */
			if (!isalpha(at[1]) && at[1] != '_')
				continue;
			len = strcspn(at + 1, "+-:)");
			if (len < sizeof(name)) {
				memcpy(name, at + 1, len);
				name[len] = '\0';
				if (kallsyms_lookup_name(name))
					continue;
			}
			*pos = at + 1 - p->argv[i];
			return i;
		}
	}
	*pos = 0;
	return 2;
}

/* Compile the arguments; an error is logged at its word and byte. */
static int epev_parse_args(const struct probe_ev_words *p, struct epev_def *def,
			  struct epev_event *ev)
{
	struct parg_caps caps = { .event = ev->target };
	struct parg_err err = {};
	struct parg_set *set;
	int ret;

	set = parg_set_parse(&caps, def->nargs, p->argv + 2, &err);
	if (IS_ERR(set)) {
		if (err.code)
			epev_error(p, err.word + 2, err.pos,
				  probe_ev_err_code(EPEV_ERR_PARG_FIRST, err.code));
		return PTR_ERR(set);
	}
	ev->args = set;
	ret = parg_set_resolve(set);
	if (ret) {
		int word, pos;

		word = epev_bad_symbol(p, def->nargs, &pos);
		epev_error(p, word, pos, EPEV_ERR_NO_SYMBOL);
		return ret;
	}
	ev->dynamic = parg_set_is_dynamic(set);
	ev->rec_size = EPEV_HEAD + parg_set_size(set);
	return probe_ev_call_set_print_fmt(&ev->call, ev->args, PROBE_EV_HEAD_NONE);
}

/* Publish @ev: events/GROUP/EVENT and a line in dynamic_events. */
static int epev_publish(const struct probe_ev_words *p, struct epev_event *ev)
{
	int ret = probe_ev_call_publish(&ev->call);

	if (ret == -EEXIST)
		epev_error(p, 0, 0, EPEV_ERR_EVENT_EXIST);
	if (!ret)
		dyn_event_add(&ev->devent, &ev->call);
	return ret;
}

static int epev_create_parsed(const struct probe_ev_words *p, struct epev_def *def)
{
	struct epev_event *ev;
	int ret;

	ev = epev_event_alloc(def->group, def->event ?: def->name);
	if (!ev)
		return -ENOMEM;
	ev->filter = def->filter;
	def->filter = NULL;
	ev->target_sys = kstrdup(def->sys, GFP_KERNEL);
	ev->target_name = kstrdup(def->name, GFP_KERNEL);
	if (!ev->target_sys || !ev->target_name) {
		epev_event_free(ev);
		return -ENOMEM;
	}

	mutex_lock(&event_mutex);
	ev->target = epev_get_target(def->sys, def->name);
	if (!ev->target) {
		epev_error(p, 1, 0, EPEV_ERR_BAD_ATTACH_EVENT);
		ret = -ENOENT;
		goto err_unlock;
	}
	ret = epev_check_filter(ev);
	if (!ret)
		ret = epev_parse_args(p, def, ev);
	if (!ret)
		ret = epev_publish(p, ev);
	if (ret)
		goto err_unlock;
	mutex_unlock(&event_mutex);
	return 0;

err_unlock:
	mutex_unlock(&event_mutex);
	epev_event_free(ev);
	return ret;
}

/*
 * dyn_event .create: a line of dynamic_events.  -ECANCELED when it is not
 * an eprobe definition, to let the next parser try.
 */
static int epev_create_words(const struct probe_ev_words *p, void *unused)
{
	struct epev_def def = {};
	int ret;

	if (p->argc < 2 || p->argv[0][0] != 'e')
		return -ECANCELED;
	ret = epev_parse_names(p, &def);
	if (!ret)
		ret = epev_parse_filter(p, &def);
	if (!ret && def.nargs > PARG_MAX_ARGS) {
		epev_error(p, 2 + PARG_MAX_ARGS, 0,
			  probe_ev_err_code(EPEV_ERR_PARG_FIRST, PARG_ERR_TOO_MANY_ARGS));
		ret = -E2BIG;
	}
	if (!ret)
		ret = epev_create_parsed(p, &def);
	kfree(def.filter);
	return ret;
}

int epev_create(const char *raw)
{
	return probe_ev_words_run(raw, &epev_errors, epev_create_words, NULL);
}
