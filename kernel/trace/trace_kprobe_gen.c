// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: kprobe events made by the kernel: the gen API and the boot option
 *
 * trace_kprobe_gen.c - kprobe events made by the kernel itself: the
 * in-kernel generation API (<linux/trace_events.h>, see
 * kernel/trace/kprobe_event_gen_test.c) and the kprobe_event= boot option.
 *
 * Both build definition lines in the kprobe_events syntax and run them
 * through the same path as a write to kprobe_events, so they get the same
 * checks and the same error_log entries.  The boot option::
 *
 *   kprobe_event=DEF[;DEF...]   commas stand for blanks in each DEF;
 *                               the events are enabled at once in the
 *                               top-level trace instance
 *
 * Context: process; the commands take dyn_event_ops_mutex and event_mutex.
 */
#define pr_fmt(fmt)	"trace_kprobe: " fmt

#include <linux/init.h>
#include <linux/string.h>
#include <linux/slab.h>

#include "trace_kprobe_internal.h"

static int kpev_gen_run(struct dynevent_cmd *cmd)
{
	return kpev_run_command(cmd->seq.buffer);
}

/**
 * kprobe_event_cmd_init - Initialize a kprobe event command object
 * @cmd: the command to initialize
 * @buf: the buffer the command is written into
 * @maxlen: the size of @buf
 *
 * Call this before the other kprobe_event_*() functions on @cmd.
 */
void kprobe_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_KPROBE, kpev_gen_run);
}
EXPORT_SYMBOL_GPL(kprobe_event_cmd_init);

/* Append @word to @cmd after a blank. */
static int kpev_gen_word(struct dynevent_cmd *cmd, const char *word)
{
	struct dynevent_arg arg;

	dynevent_arg_init(&arg, 0);
	arg.str = word;
	return dynevent_arg_add(cmd, &arg, NULL);
}

/* Append each string of @fields, up to a NULL, as an argument word. */
static int kpev_gen_add_words(struct dynevent_cmd *cmd, va_list fields)
{
	const char *field;
	int ret = 0;

	while (!ret && (field = va_arg(fields, const char *))) {
		if (++cmd->n_fields > PARG_MAX_ARGS)
			return -EINVAL;
		ret = kpev_gen_word(cmd, field);
	}
	return ret;
}

/**
 * __kprobe_event_gen_cmd_start - Start a kprobe event command
 * @cmd: a command set up by kprobe_event_cmd_init()
 * @kretprobe: a return probe if true
 * @name: the event name, in the "kprobes" group
 * @loc: the place, as in kprobe_events ("SYM[+OFFS]" or an address)
 * @...: argument words ("NAME=FETCHARG[:TYPE]"), ending with NULL
 *
 * Use the kprobe_event_gen_cmd_start() and kretprobe_event_gen_cmd_start()
 * wrappers, which add the NULL.  More arguments may follow with
 * kprobe_event_add_fields(); kprobe_event_gen_cmd_end() creates the event.
 *
 * Return: 0, or -EINVAL (wrong command, no @loc, too many arguments), or
 * -E2BIG when the command does not fit in its buffer.
 */
int __kprobe_event_gen_cmd_start(struct dynevent_cmd *cmd, bool kretprobe,
				 const char *name, const char *loc, ...)
{
	char head[2 * KPEV_NAME_LEN + 4];
	va_list fields;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE || !loc)
		return -EINVAL;
	/* The head word opens the command: no blank before it. */
	snprintf(head, sizeof(head), "%c:" KPEV_DEFAULT_GROUP "/%s",
		 kretprobe ? 'r' : 'p', name);
	ret = dynevent_str_add(cmd, head) ?: kpev_gen_word(cmd, loc);
	if (ret)
		return ret;

	va_start(fields, loc);
	ret = kpev_gen_add_words(cmd, fields);
	va_end(fields);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_gen_cmd_start);

/**
 * __kprobe_event_add_fields - Add argument words to a kprobe event command
 * @cmd: a command begun with __kprobe_event_gen_cmd_start()
 * @...: argument words ("NAME=FETCHARG[:TYPE]"), ending with NULL
 *
 * Use the kprobe_event_add_fields() wrapper, which adds the NULL.
 *
 * Return: 0, -EINVAL or -E2BIG as for __kprobe_event_gen_cmd_start().
 */
int __kprobe_event_add_fields(struct dynevent_cmd *cmd, ...)
{
	va_list fields;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_KPROBE)
		return -EINVAL;
	va_start(fields, cmd);
	ret = kpev_gen_add_words(cmd, fields);
	va_end(fields);
	return ret;
}
EXPORT_SYMBOL_GPL(__kprobe_event_add_fields);

/**
 * kprobe_event_delete - Delete a kprobe event
 * @name: the event's name ("EVENT" or "GROUP/EVENT")
 *
 * Return: 0, -ENOENT if there is no such event, -EBUSY if it is in use.
 */
int kprobe_event_delete(const char *name)
{
	char cmd[2 + 2 * KPEV_NAME_LEN];

	snprintf(cmd, sizeof(cmd), "-:%s", name);
	return kpev_run_command(cmd);
}
EXPORT_SYMBOL_GPL(kprobe_event_delete);

/* ------------------------------------------------------------ boot option */

/*
 * The option's value, in the kernel's copy of the command line (init
 * data, which lives until the initcalls are done).  Copied before use.
 */
static char *kpev_boot_value __initdata;

static __init int kpev_boot_setup(char *str)
{
	kpev_boot_value = str;
	/* The tracer selftests would see the boot events' records. */
	disable_tracing_selftest("running kprobe events");
	return 1;
}
__setup("kprobe_event=", kpev_boot_setup);

/* Enable every kprobe event in the top-level instance. */
static __init void kpev_boot_enable(void)
{
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;

	if (!tr)
		return;
	mutex_lock(&event_mutex);
	list_for_each_entry(file, &tr->events, list) {
		struct trace_event_call *call = file->event_call;

		if ((call->flags & TRACE_EVENT_FL_KPROBE) &&
		    call->class->reg == probe_ev_event_reg)
			trace_event_enable_disable(file, 1, 0);
	}
	mutex_unlock(&event_mutex);
}

/*
 * Once tracefs and kprobe_events are up (fs_initcall, trace_kprobe.c):
 * define the boot events, then enable them.
 */
static __init int kpev_boot_events(void)
{
	char *defs, *def, *next;
	int ret;

	if (!kpev_boot_value || !*kpev_boot_value || tracing_init_dentry())
		return 0;
	defs = kstrdup(kpev_boot_value, GFP_KERNEL);
	if (!defs)
		return 0;
	strreplace(defs, ',', ' ');
	for (def = defs; def; def = next) {
		next = strchr(def, ';');
		if (next)
			*next++ = '\0';
		if (!*def)
			continue;
		ret = kpev_run_command(def);
		if (ret)
			pr_warn("Failed to add event(%d): %s\n", ret, def);
	}
	kfree(defs);
	kpev_boot_enable();
	return 0;
}
fs_initcall_sync(kpev_boot_events);
